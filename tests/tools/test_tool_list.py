"""The generated tool list is pinned: a change to any tool's name, schema or text shows up here as a diff.

Regenerate after an intended change with ``company-gateway tools --json > tests/tools/golden/tools.json``.
"""

import json
from pathlib import Path

from gateway.runners.cli import main

GOLDEN = Path(__file__).parent / "golden" / "tools.json"


def test_tools_json_matches_the_pinned_list(capsys):
    main(["tools", "--json"])
    out = capsys.readouterr().out
    assert json.loads(out) == json.loads(GOLDEN.read_text())


def test_no_tool_description_states_a_company_zone(capsys):
    """A generated company may sit in any zone, so no description may name one as the company's."""
    from tools.companies import company

    main(["tools", "--json"])
    text = capsys.readouterr().out
    zones = {company(key).timezone for key in ("default", "gen-1", "gen-2", "gen-3")}
    assert len(zones) > 1  # the companies do differ
    assert "the company's (" not in text
    for zone in zones - {"America/Chicago", "Europe/London"}:  # the two zones the examples use
        assert zone not in text, zone
