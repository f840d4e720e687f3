"""The table of where every action lives, kept at the end of ``docs/architecture.md``, from the registry.

Everything after :data:`MARKER` in that file is generated: one row per action, in registry order,
naming the module that declares it. After adding or moving an action, rewrite it with::

    python -m docs_tool.action_table            # rewrites docs/architecture.md below the marker
    python -m docs_tool.action_table --check    # exit status 1 when the table is stale

``tests/tools/test_action_table.py`` fails while the table and the registry differ.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from tools import REGISTRY, Action

__all__ = ["ARCHITECTURE", "MARKER", "module_path", "section", "write"]

#: The line after which the file is generated; nothing above it is touched.
MARKER = "<!-- action table: generated, checked by tests/tools/test_action_table.py -->"
#: ``docs/architecture.md`` of a source checkout.
ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def module_path(action: Action) -> str:
    """The source file declaring ``action``, relative to the repository (``tools/apps/drive/actions/folders.py``)."""
    return action.fn.__module__.replace(".", "/") + ".py"


def section() -> str:
    """The generated text that follows the marker line: the heading, a note and the table."""
    lines = [
        "",
        "## Where an action lives",
        "",
        "Every app action is declared in `tools/apps/<app>/actions/<resource>.py`, the module named for the",
        "resource it acts on, in one vocabulary across apps (`tools/apps/README.md` has the rule and the",
        "actions whose resource had to be decided). Rows are in registry order, the `order` each app pins in",
        "its `app.py`. Generated: after adding or moving an action run `python -m docs_tool.action_table`",
        "(it rewrites only what follows the marker line above the heading).",
        "",
        "| tool | app | module |",
        "|---|---|---|",
    ]
    lines += [f"| {a.tool_name} | {a.app} | {module_path(a)} |" for a in REGISTRY.actions()]
    return "\n".join(lines) + "\n"


def write(path: Path = ARCHITECTURE, *, check: bool = False) -> bool:
    """Bring the table in ``path`` up to date (the marker line and the section appended if missing).

    Args:
        path: The markdown file holding the table.
        check: Only report whether it is up to date; write nothing.

    Returns:
        Whether the file was already up to date.
    """
    text = path.read_text(encoding="utf-8")
    head, found, _ = text.partition(MARKER + "\n")
    if not found:
        head = text.rstrip("\n") + "\n\n"
    new = head + MARKER + "\n" + section()
    if new == text:
        return True
    if not check:
        path.write_text(new, encoding="utf-8")
    return False


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m docs_tool.action_table [--check] [PATH]``; exit status 1 when ``--check`` finds it stale."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    paths = [a for a in args if a != "--check"]
    fresh = write(Path(paths[0]) if paths else ARCHITECTURE, check=check)
    if check and not fresh:
        sys.stderr.write("the action table is stale: run python -m docs_tool.action_table\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
