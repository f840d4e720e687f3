"""The table of where each action lives (end of docs/architecture.md) cannot go stale.

It is read back as a reader would and compared with the registry: every tool, in registry order, its
app, and the module that declares it (the function's ``__module__``). The actions whose resource had
to be decided (the table in tools/apps/README.md) are checked against the registry the same way.
Regenerate the table with ``python -m docs_tool.action_table``.
"""

from __future__ import annotations

import re
from pathlib import Path

from docs_tool.action_table import MARKER, section
from tools import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
APPS_README = ROOT / "tools" / "apps" / "README.md"
_ROW = re.compile(r"^\| *(company_[a-z0-9_]+) *\| *([a-z0-9_]+) *\| *(\S+) *\|$")


def _declared() -> list[tuple[str, str, str]]:
    return [(a.tool_name, a.app, a.fn.__module__.replace(".", "/") + ".py") for a in REGISTRY.actions()]


def _generated_part() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, "docs/architecture.md needs the marker line exactly once"
    return text.split(MARKER + "\n", 1)[1]


def test_the_table_lists_every_action_in_registry_order_with_its_module() -> None:
    after = _generated_part()
    assert "\n## Where an action lives\n" in after
    table = after[after.index("| tool | app | module |") :].splitlines()
    assert table[1] == "|---|---|---|"
    rows = []
    for line in table[2:]:
        if not line.startswith("|"):
            break
        match = _ROW.match(line)
        assert match, f"not a table row: {line!r}"
        rows.append(match.groups())
    assert rows == _declared(), "stale: run python -m docs_tool.action_table"


def test_every_module_in_the_table_is_an_action_module_on_disk() -> None:
    listed = {module for _, _, module in _declared()}
    assert all(re.fullmatch(r"tools/apps/[a-z]+/actions/[a-z_]+\.py", m) for m in listed)
    on_disk = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("tools/apps/*/actions/*.py")}
    assert listed == on_disk - {p for p in on_disk if p.endswith("/__init__.py")}


def test_the_section_is_the_end_of_the_file_exactly_as_generated() -> None:
    assert _generated_part() == section(), "stale: run python -m docs_tool.action_table"


def test_the_decided_resources_in_the_apps_readme_match_the_registry() -> None:
    text = APPS_README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z]+)\.([a-z_]+)` \| `([a-z_]+)\.py` \|", text, flags=re.MULTILINE)
    assert len(rows) > 20, "the README's table of decided resources was not found"
    wrong = [
        f"{app}.{name}: README says {module}.py, declared in {REGISTRY.apps[app].actions[name].fn.__module__}"
        for app, name, module in rows
        if REGISTRY.apps[app].actions[name].fn.__module__ != f"tools.apps.{app}.actions.{module}"
    ]
    assert wrong == []
