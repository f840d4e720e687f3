"""What the commands that take tasks share: choosing them (--tasks, --split, --family, --task) and a row's tier."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.control.rows import Task

__all__ = ["family_names", "load_selected", "pick", "selected_facts", "tier", "unreadable_run"]


def family_names(args: argparse.Namespace) -> list[str] | None:
    """The names ``--family`` gives (comma-separated or repeated), or None when it is absent."""
    values = getattr(args, "families", None)
    return [n.strip() for v in values for n in v.split(",") if n.strip()] if values else None


def load_selected(args: argparse.Namespace) -> dict[str, Task]:
    """The tasks a command works on: --tasks FILE or the built-in ones, narrowed by --split and --family.

    Only the families asked for are built: ``--family F`` builds F's rows alone.

    Raises:
        TaskError: a bad file, split or family (main prints it as one line).
    """
    from gateway.control.rows import load_builtin_tasks, load_tasks, select_tasks
    from gateway.exceptions import TaskError

    names = family_names(args)
    split = getattr(args, "split", None)
    ids = getattr(args, "task_ids", None)
    if names is None and ids and not args.tasks_file:
        from gateway.tasks.loader import families

        known = families()  # a family instance's id is <family>.<company>.<seed>: build those families only
        wanted = {i.split(".", 1)[0] if i.split(".", 1)[0] in known else "none" for i in ids}
        tasks = load_builtin_tasks(sorted(wanted), split)
        return select_tasks(tasks, split, None)
    if args.tasks_file:
        tasks = load_tasks(args.tasks_file)
    else:
        tasks = load_builtin_tasks(names if names is not None else True, split)
    chosen = select_tasks(tasks, split, names)
    if not chosen and (names is not None or split):
        raise TaskError("no task matches --split/--family; 'company-gateway tasks --stats' counts them by both")
    return chosen


def selected_facts(args: argparse.Namespace) -> list[dict[str, Any]]:
    """What ``tasks --stats`` counts of the tasks :func:`load_selected` would give, read without parsing rows.

    The built-in tasks' facts come from the row cache (:func:`gateway.control.rows.builtin_facts`); a
    ``--tasks`` file or ``--task`` ids are loaded and counted as parsed tasks.

    Raises:
        TaskError: a bad file, split or family, or nothing matches (main prints it as one line).
    """
    from gateway.control.rows import builtin_facts, stats_fact
    from gateway.exceptions import TaskError

    names = family_names(args)
    ids = getattr(args, "task_ids", None)
    if args.tasks_file or ids:
        tasks = load_selected(args)
        if ids:  # only the ids asked for, as listing them does
            if missing := [t[:120] for t in ids if t not in tasks]:
                raise TaskError(f"unknown task ids {missing}; see 'company-gateway tasks'")
            tasks = {t: tasks[t] for t in dict.fromkeys(ids)}
        return [stats_fact(t) for t in tasks.values()]
    facts = builtin_facts(names if names is not None else True, getattr(args, "split", None))
    if not facts and (names is not None or getattr(args, "split", None)):
        raise TaskError("no task matches --split/--family; 'company-gateway tasks --stats' counts them by both")
    return facts


def pick(tasks: dict[str, Task], args: argparse.Namespace, command: str) -> dict[str, Task] | None:
    """The tasks ``--task`` names, in its order; None (the reason printed) when one is not among ``tasks``."""
    missing = [t[:120] for t in args.task_ids if t not in tasks]
    if not missing:
        return {t: tasks[t] for t in args.task_ids}
    narrowed = [f"--{name} {value}" for name in ("split", "family") if (value := getattr(args, name, None))]
    where = f" among the tasks {' and '.join(narrowed)} select" if narrowed else ""
    print(f"company-gateway {command}: unknown task ids {missing}{where}; see 'company-gateway tasks'", file=sys.stderr)
    return None


def tier(task: Task) -> str:
    """The row's tier (``easy``, ``medium`` or ``hard``), from its solution's length when the row has none."""
    from gateway.tasks.loader import tier_of

    return task.tier or tier_of(len(task.solution), False)


def unreadable_run(path: str, exc: OSError | UnicodeDecodeError) -> str:
    """The one line ``regrade`` and ``report`` print for a RUN.jsonl argument they cannot read as text.

    Args:
        path: The argument as given.
        exc: What opening or decoding it raised: missing, a folder, no permission, or not UTF-8.
    """
    why = "is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else f"cannot be read ({exc.strerror or exc})"
    return f"RUN.jsonl {path[:200]!r} {why}; give a JSONL file of episode records (rollout --output writes them)"
