"""Built family rows kept on disk, keyed by the code that builds them, so a command does not build them again.

One file per family and key: ``<cache>/company-gateway/rows/<family>.<key>.jsonl`` (``<cache>`` is
``$XDG_CACHE_HOME`` or ``~/.cache``). Its first line is a header, ``{"format", "family", "key", "seeds", "rows",
"sha256", "facts"}``; every later line is one row, ``json.dumps`` of what :func:`~gateway.tasks.kit.base.instance_row`
returned, in company and seed order. ``facts`` holds, per row, what ``tasks --stats`` counts (id, family, split,
tier, kind, apps, exposure, instruction, whether it lends a sandbox, the reference's steps), so counting never
reads the rows themselves; ``sha256`` is the hex digest of every byte after the header.

The key (24 hex digits) is a SHA-256 over: the source of every module of ``gateway/tasks`` (the kit, the loader,
every family: a family module may lend another a helper), of ``tools/companies`` and ``tools/kernel`` (the
companies the rows sit in, the documents whose bytes give blob ids), the versions of Python and of the
libraries that write documents, the instances per company, and the caller's ``salt`` (the machinery's grading
and row schema code). Any change to any of these builds the rows again; nothing else does.

A file that cannot be read, has another header or whose digest does not match is built again. Files are
written whole to a temporary name and renamed into place (``os.replace``), so two processes building at once
both finish with one whole file and a reader never sees half of one. Files of the same family under another key
are removed once they are a week old (another checkout may still use a newer one). Without a writable cache
folder, or with ``GATEWAY_ROWS_CACHE=off``, rows are built every time, as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from gateway.tasks.kit.base import Family

__all__ = ["FORMAT", "CachedFamily", "cache_folder", "code_digest", "facts_of", "load_or_build"]

logger = logging.getLogger(__name__)

#: Called with a family's name before its rows are built (not in the cache: the first run after an install or a
#: change); the command line adds one that prints a progress line, since a cold build takes minutes.
on_build: list[Callable[[str], None]] = []
#: The file layout's version: a change to the header or the facts bumps it.
FORMAT = 1
#: Seconds after which another key's file of the same family is removed.
_STALE_S = 7 * 24 * 3600
_DOCUMENT_LIBRARIES = ("python-docx", "openpyxl", "reportlab", "pillow", "pypdf")


@dataclass(frozen=True)
class CachedFamily:
    """One family's built rows.

    Attributes:
        lines: Each row as one line of JSON (no newline), in company and seed order.
        facts: Per row: ``id``, ``family``, ``split``, ``tier``, ``kind``, ``apps``, ``exposure``,
            ``instruction``, ``sandbox`` (bool) and ``steps`` (the reference's length).
        hit: Whether the rows came from the cache (False: built by this call).
    """

    lines: list[str]
    facts: list[dict[str, Any]]
    hit: bool


def cache_folder() -> Path | None:
    """The folder of cached rows (made when missing), or None when caching is off or no folder can be made."""
    if os.environ.get("GATEWAY_ROWS_CACHE", "").strip().lower() in ("off", "0", "false", "no"):
        return None
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(root) / "company-gateway" / "rows"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


@functools.cache
def code_digest() -> str:
    """SHA-256 (hex) of the code every family's rows depend on, read once per process (see the module doc)."""
    import tools.companies
    import tools.kernel

    here = Path(__file__).resolve().parent  # gateway/tasks
    companies = Path(tools.companies.__file__ or "").resolve().parent
    kernel = Path(tools.kernel.__file__ or "").resolve().parent
    digest = hashlib.sha256(f"format {FORMAT}; python {sys.version_info[:2]}".encode())
    for lib in _DOCUMENT_LIBRARIES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"; {lib} {metadata.version(lib)}".encode())
    for root in (here, companies, kernel):
        for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
            digest.update(b"\0" + path.relative_to(root.parent).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def facts_of(row: dict[str, Any]) -> dict[str, Any]:
    """What ``tasks --stats`` counts of one built row (see :class:`CachedFamily`)."""
    return {
        "id": row["id"],
        "family": row.get("family"),
        "split": row.get("split", "train"),
        "tier": row.get("tier"),
        "kind": row.get("kind", "task"),
        "apps": list(row.get("apps", [])),
        "exposure": row.get("exposure", "mcp"),
        "instruction": row.get("instruction", ""),
        "sandbox": bool(row.get("sandbox")),
        "steps": len(row.get("solution", [])),
    }


def load_or_build(family: Family, build: Callable[[], list[dict[str, Any]]], salt: str = "") -> CachedFamily:
    """``family``'s rows from the cache when its file for today's key is whole; else ``build()`` them and keep them.

    Args:
        family: The family (its module's source is part of the key).
        build: Builds the family's rows (what :func:`~gateway.tasks.loader.family_rows` returns).
        salt: More of the key, from the caller.
    """
    folder = cache_folder()
    key = _key(family, salt)
    path = folder / f"{family.name}.{key}.jsonl" if folder else None
    if path is not None:
        cached = _read(path, family, key)
        if cached is not None:
            return cached
    for hook in on_build:
        hook(family.name)
    rows = build()
    lines = [json.dumps(row) for row in rows]
    facts = [facts_of(row) for row in rows]
    if path is not None:
        _write(path, family, key, lines, facts)
    return CachedFamily(lines, facts, hit=False)


def _key(family: Family, salt: str) -> str:
    module = sys.modules.get(family.build.__module__)
    source = Path(module.__file__).read_bytes() if module is not None and module.__file__ else b""
    digest = hashlib.sha256(code_digest().encode() + b"\0" + source + b"\0" + f"{family.seeds}\0{salt}".encode())
    return digest.hexdigest()[:24]


def _header(family: Family, key: str, body: bytes, rows: int, facts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "family": family.name, "key": key, "seeds": family.seeds, "rows": rows,
            "sha256": hashlib.sha256(body).hexdigest(), "facts": facts}  # fmt: skip


def _read(path: Path, family: Family, key: str) -> CachedFamily | None:
    """The file's rows when it is whole and of this key, else None (missing, torn, another format)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, _, body = data.partition(b"\n")
    try:
        header = json.loads(head)
        lines = body.decode("utf-8").splitlines()
        ok = (
            isinstance(header, dict)
            and header.get("format") == FORMAT
            and header.get("key") == key
            and header.get("family") == family.name
            and header.get("rows") == len(lines) == len(header.get("facts", ()))
            and header.get("sha256") == hashlib.sha256(body).hexdigest()
        )
    except (ValueError, UnicodeDecodeError):
        ok = False
    if not ok:
        logger.info("row cache %s is not whole or not current; building %s again", path.name, family.name)
        return None
    return CachedFamily(lines, header["facts"], hit=True)


def _write(path: Path, family: Family, key: str, lines: list[str], facts: list[dict[str, Any]]) -> None:
    """Write the file whole under a temporary name, then rename it into place; give up quietly on an OSError."""
    body = "".join(line + "\n" for line in lines).encode("utf-8")
    head = json.dumps(_header(family, key, body, len(lines), facts)).encode("utf-8") + b"\n"
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{family.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(head + body)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        logger.warning("cannot keep %s's rows in %s: %s", family.name, path.parent, exc)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _prune(path, family)


def _prune(path: Path, family: Family) -> None:
    """Remove this family's files under other keys once they are :data:`_STALE_S` old."""
    now = time.time()
    for other in path.parent.glob(f"{family.name}.*.jsonl"):
        if other != path and other.name.count(".") == 2:
            with contextlib.suppress(OSError):
                if now - other.stat().st_mtime > _STALE_S:
                    other.unlink()
