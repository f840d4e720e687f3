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
