"""Task rows: the JSONL format and loading rows; the model is in ``schema``, a row's world in ``worlds``.

The fields of a row, and what a step is, are listed in :mod:`gateway.control.schema`'s docstring (one place).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gateway.control.schema import CONTROL_NAMES, KINDS, Control, Step, Task, WorldSpec
from gateway.control.worlds import lint_task
from gateway.exceptions import TaskError
from tools import COMPLETE_TASK, REGISTRY

__all__ = [
    "CONTROL_NAMES",
    "KINDS",
    "MAX_TASKS_FILE_BYTES",
    "Control",
    "Step",
    "Task",
    "WorldSpec",
    "builtin_facts",
    "family_row_dicts",
    "load_builtin_tasks",
    "load_tasks",
    "parse_task",
    "row_hash",
    "row_json",
    "rows_salt",
    "select_tasks",
    "settings_tasks",
    "stats_fact",
    "task_facts",
    "tools_for",
]

def row_json(task: Task) -> dict[str, Any]:
    """The row as JSON values, fields at their default left out: what :func:`row_hash` hashes."""
    return task.model_dump(mode="json", exclude_defaults=True)


def row_hash(task: Task | dict[str, Any]) -> str:
    """``"sha256:<hex>"`` of the row's canonical JSON (:func:`row_json`, keys sorted, no spaces, UTF-8).

    Two rows that parse to the same task have the same hash, however their JSON was written.
    """
    from gateway.grading.version import canonical_json

    data = row_json(task) if isinstance(task, Task) else task
    return "sha256:" + hashlib.sha256(canonical_json(data)).hexdigest()


def task_facts(task: Task) -> dict[str, Any]:
    """What an episode record says of its task: id, family, company, seed, split, tier, apps, row hash and row.

    ``tier`` is the row's, else computed from its solution's length (as ``company-gateway tasks`` shows it).
    """
    from gateway.tasks.loader import tier_of

    row = row_json(task)
    return {
        "id": task.id,
        "family": task.family,
        "company": task.world.fixture,
        "seed": task.seed,
        "split": task.split,
        "tier": task.tier or tier_of(len(task.solution), False),
        "apps": list(task.apps),
        "row_hash": row_hash(row),
        "row": row,
    }


def tools_for(task: Task, exposure: str) -> list[str]:
    """Tool names offered over MCP to a session of ``task`` under ``exposure``.

    ``mcp``: every action of the task's apps plus ``company_complete_task``;
    ``http``: the docs tool plus ``company_complete_task``; ``cli``: only
    ``company_complete_task`` (the apps are shell commands in the sandbox).
    """
    if exposure == "mcp":
        return [a.tool_name for a in REGISTRY.actions(task.apps)] + [COMPLETE_TASK.tool_name]
    if exposure == "http":
        return [task.docs_tool, COMPLETE_TASK.tool_name]
    return [COMPLETE_TASK.tool_name]


def parse_task(row: dict[str, Any] | str, where: str = "task") -> Task:
    """Validate one row (a dict or a JSON string), checks included.

    Raises:
        TaskError: naming the row and the field at fault.
    """
    from gateway.grading import validate_checks

    try:
        data = json.loads(row) if isinstance(row, str) else row
        if not isinstance(data, dict):
            raise TaskError(f"{where}: a task row is a JSON object ({{\"id\": ..., \"instruction\": ...}}), "
                            f"not {_json_kind(data)}")  # fmt: skip
        task = Task.model_validate(data)
    except json.JSONDecodeError as exc:
        raise TaskError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(p) for p in first["loc"]) or "row"
        raise TaskError(f"{where}: {loc}: {first['msg']}") from None
    try:
        validate_checks(task)
    except ValueError as exc:
        raise TaskError(f"{where} ({task.id}): {exc}") from None
    return task


def _json_kind(value: Any) -> str:
    """How JSON names ``value``'s type: ``a list``, ``a string``, ``a number``, ``true``, ``null``."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return "a list" if isinstance(value, list) else "a string" if isinstance(value, str) else "a number"


#: Most bytes a tasks file may hold (the built-in 10,582 family rows take ~75 MB as JSONL).
MAX_TASKS_FILE_BYTES = 256 * 1024 * 1024


def load_tasks(path: str | Path) -> dict[str, Task]:
    """Load a JSONL file of task rows (blank lines and lines starting with ``#`` are skipped).

    Returns:
        Task id to task, in file order.

    Raises:
        TaskError: the file cannot be read as UTF-8 text, is larger than :data:`MAX_TASKS_FILE_BYTES` (read no
            further: ``/dev/zero`` is refused at once), holds no row, a row is invalid or an id repeats (the
            message names the line).
    """
    shown = repr(str(path)[:200])
    try:
        text = _read_text(path, shown)
    except FileNotFoundError:
        raise TaskError(f"tasks file {shown} does not exist; give a JSONL file of task rows") from None
    except IsADirectoryError:
        raise TaskError(f"tasks file {shown} is a folder; give a JSONL file of task rows") from None
    except UnicodeDecodeError as exc:
        raise TaskError(f"tasks file {shown} is not UTF-8 text (byte {exc.start}); give a JSONL file") from None
    except OSError as exc:
        raise TaskError(f"tasks file {shown} cannot be read: {exc.strerror or exc}") from None
    tasks = _load_lines(text, str(path))
    if not tasks:
        raise TaskError(f"tasks file {shown} holds no task rows; give a JSONL file with one row per line")
    return tasks


def _read_text(path: str | Path, shown: str) -> str:
    """A tasks file's text, read 1 MiB at a time: refused at its first NUL byte or past :data:`MAX_TASKS_FILE_BYTES`.

    Raises:
        TaskError: NUL bytes (no text file, e.g. ``/dev/zero``) or too large.
        OSError, UnicodeDecodeError: the file cannot be opened or read, or is not UTF-8.
    """
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb") as file:
        while chunk := file.read(2**20):
            if b"\0" in chunk:
                raise TaskError(f"tasks file {shown} holds NUL bytes, so it is no text file; give a JSONL file")
            size += len(chunk)
            if size > MAX_TASKS_FILE_BYTES:
                raise TaskError(
                    f"tasks file {shown} is larger than {MAX_TASKS_FILE_BYTES:,} bytes; split it into smaller files"
                )
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")


def _load_lines(text: str, source: str) -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        task = parse_task(line, f"{source}:{n}")
        lint_task(task, f"{source}:{n}")
        if task.id in tasks:
            raise TaskError(f"{source}:{n}: task id {task.id!r} appears twice")
        tasks[task.id] = task
    return tasks


def load_builtin_tasks(families: bool | Sequence[str] = True, split: str | None = None) -> dict[str, Task]:
    """The tasks shipped inside the package: the hand-written rows, then the families' instances.

    The hand-written rows are every ``gateway/tasks/rows/*.jsonl`` (the default company), in file-name
    order; the family instances come from :func:`gateway.tasks.loader.family_rows` over the generated
    companies. Only what is asked for is built (a family's rows once per process), so ``--family F``
    builds F alone.

    Args:
        families: True for every family, False for the hand-written rows only, or family names
            (``"none"`` stands for the hand-written rows).
        split: Build only the instances of this split (the hand-written rows are all ``train``); None for all.

    Raises:
        TaskError: a row is invalid, an id repeats, or a family name or split is unknown.
    """
    if split is not None and split not in ("train", "validation", "test"):
        raise TaskError(f"unknown split {split[:40]!r}; use train, validation or test")
    names, handwritten = _chosen(families)
    tasks = dict(_handwritten()) if handwritten else {}
    for name in names:
        for tid, task in _family_tasks(name, split).items():
            if tid in tasks:
                raise TaskError(f"family instance {tid!r} has the id of a hand-written task")
            tasks[tid] = task
    return tasks


def _chosen(families: bool | Sequence[str]) -> tuple[list[str], bool]:
    """The family names ``families`` selects (in the built-in order) and whether the hand-written rows are in.

    Raises:
        TaskError: an unknown family name.
    """
    from gateway.tasks.loader import families as known_families

    if families is True:
        return list(known_families()), True
    if families is False:
        return [], True
    known = known_families()
    unknown = [f for f in families if f != "none" and f not in known]
    if unknown:
        raise TaskError(
            f"unknown family {unknown[0][:60]!r}; see 'company-gateway tasks --stats' ('none': hand-written rows)"
        )
    return [f for f in known if f in families], "none" in families


@functools.cache
def _handwritten() -> dict[str, Task]:
    from gateway.tasks.loader import row_files

    tasks: dict[str, Task] = {}
    for entry in row_files():
        for tid, task in _load_lines(entry.read_text(encoding="utf-8"), f"tasks/{entry.name}").items():
            if tid in tasks:
                raise TaskError(f"tasks/{entry.name}: task id {tid!r} appears in two files")
            tasks[tid] = task
    return tasks


@functools.cache
def _family_tasks(name: str, split: str | None) -> dict[str, Task]:
    """One family's instances (of one split, or all), parsed once per process from the row cache."""
    from gateway.tasks.loader import cached_family

    if split is not None:
        return {tid: t for tid, t in _family_tasks(name, None).items() if t.split == split}
    built = cached_family(name, rows_salt())
    tasks: dict[str, Task] = {}
    for line in built.lines:  # linted where they are proved (gateway.runners.prove), not at every start
        # a cached row passed parse_task when it was built, under the same schema and grading code (the key)
        task = Task.model_validate_json(line) if built.hit else parse_task(line, f"family {name}")
        tasks[task.id] = task
    return tasks


@functools.cache
def rows_salt() -> str:
    """The digest of the machinery's code a cached row's meaning depends on: the grading modules, the row schema."""
    from gateway.control import schema
    from gateway.grading.version import grading_source_digest

    return hashlib.sha256((grading_source_digest() + Path(schema.__file__).read_text("utf-8")).encode()).hexdigest()


def family_row_dicts(names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The built-in families' rows as dicts (every family when ``names`` is None), read from the row cache.

    The same rows :func:`gateway.tasks.loader.family_rows` builds, in the same order, without building them
    when the cache holds them.

    Raises:
        KeyError: an unknown family name.
    """
    from gateway.tasks.loader import cached_family, families

    chosen = list(families()) if names is None else list(names)
    return [json.loads(line) for name in chosen for line in cached_family(name, rows_salt()).lines]


def builtin_facts(families: bool | Sequence[str] = True, split: str | None = None) -> list[dict[str, Any]]:
    """What ``tasks --stats`` counts of the built-in tasks, without parsing the family rows (the row cache's facts).

    Args and errors as :func:`load_builtin_tasks`; each fact is a dict of ``id``, ``family``, ``split``, ``tier``,
    ``kind``, ``apps``, ``exposure``, ``instruction``, ``sandbox`` (bool) and ``steps`` (the reference's length).
    """
    from gateway.tasks.loader import cached_family

    if split is not None and split not in ("train", "validation", "test"):
        raise TaskError(f"unknown split {split[:40]!r}; use train, validation or test")
    names, handwritten = _chosen(families)
    out = [stats_fact(t) for t in _handwritten().values() if split is None or t.split == split] if handwritten else []
    for name in names:
        out.extend(f for f in cached_family(name, rows_salt()).facts if split is None or f["split"] == split)
    return out


def stats_fact(task: Task) -> dict[str, Any]:
    """What ``tasks --stats`` counts of a parsed task (the keys of :func:`builtin_facts`' facts)."""
    from gateway.tasks.loader import tier_of

    return {"id": task.id, "family": task.family, "split": task.split,
            "tier": task.tier or tier_of(len(task.solution), False), "kind": task.kind, "apps": list(task.apps),
            "exposure": task.exposure, "instruction": task.instruction, "sandbox": bool(task.sandbox),
            "steps": len(task.solution)}  # fmt: skip


def settings_tasks(tasks_file: str | None, split: str | None, family: str | None) -> dict[str, Task]:
    """The tasks a server's settings name: ``tasks_file`` (or the built-in tasks), narrowed by split and family.

    Args:
        family: Family names, comma-separated (``none``: the hand-written rows); None for all.

    Raises:
        TaskError: a bad file, split or family.
    """
    names = [f.strip() for f in family.split(",") if f.strip()] if family else None
    tasks = load_tasks(tasks_file) if tasks_file else load_builtin_tasks(names if names is not None else True, split)
    return select_tasks(tasks, split, names)


def select_tasks(
    tasks: dict[str, Task], split: str | None = None, families: list[str] | None = None
) -> dict[str, Task]:
    """The tasks of one split and/or some families, in the order given.

    Args:
        split: ``train``, ``validation`` or ``test``; None for every split.
        families: Family names; ``"none"`` stands for the hand-written rows; None for all.

    Raises:
        TaskError: an unknown split or family (the message lists the known ones).
    """
    if split is not None and split not in ("train", "validation", "test"):
        raise TaskError(f"unknown split {split[:40]!r}; use train, validation or test")
    if families is not None:
        known = {t.family or "none" for t in tasks.values()}
        unknown = [f for f in families if f not in known]
        if unknown:
            raise TaskError(
                f"unknown family {unknown[0][:60]!r}; see 'company-gateway tasks --stats' ('none': hand-written rows)"
            )
    return {
        tid: t
        for tid, t in tasks.items()
        if (split is None or t.split == split) and (families is None or (t.family or "none") in families)
    }
