"""The app commands inside a real local sandbox (bubblewrap) whose ``/tmp`` is full.

The sandbox's ``/tmp`` is a tmpfs sized to ``workspace_max_bytes``; the script fills it with
a bounded write (twice its size), so the test is safe even where the tmpfs is not sized.
"""

from __future__ import annotations

import json
import os

import httpx
import pytest

from gateway import Settings, create_app
from gateway.surfaces.serve import serve_in_background
from sandbox.local import _bwrap
from tests.conftest import require_binary
from tests.sandbox_probe import Served

pytestmark = pytest.mark.bwrap

TMP_BYTES = 2 * 1024 * 1024
FILL = f"head -c {2 * TMP_BYTES} /dev/zero > /tmp/fill; df -k /tmp | tail -1; "
ASK = "directory get-manager --person='Owen Bell'"
PYTHON_ONLY = "mkdir -p py && ln -sf /usr/bin/python3 py/python3 && PATH=/opt/company/bin:/workspace/py "


def _sized_tmp(bwrap: str) -> None:
    if not _bwrap.supports_size(bwrap):
        reason = "this bubblewrap cannot size a tmpfs (--size needs bubblewrap 0.8 or later)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
        pytest.skip(reason)


@pytest.mark.parametrize("fallback", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["curl", "python3"])
async def test_app_commands_answer_when_the_sandboxes_tmp_is_full(fallback: bool) -> None:
    _sized_tmp(require_binary("bwrap"))
    require_binary("curl")
    app = create_app(Settings(workspace_max_bytes=TMP_BYTES))
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        s = Served(app, base, control, "local")
        seed = await s.seed()
        prefix = FILL + (PYTHON_ONLY if fallback else "")

        ran = await s.run(seed, prefix + ASK)
        assert b"No space left on device" in ran.stderr  # /tmp is full
        assert ran.stdout.decode().splitlines()[0].split()[3] == "0"  # df: 0 KiB available
        assert ran.exit_code == 0, ran
        assert json.loads(ran.stdout.decode().split("\n", 1)[1])["manager"]["email"] == "priya.shah@northwind.example"

        # The answer asked into the full /tmp: the command names what failed, not the company API.
        ran = await s.run(seed, prefix + ASK + " > /tmp/answer")
        assert ran.exit_code == 1, ran
        err = ran.stderr.decode()
        assert "directory: the call went through, but its answer could not be written to standard output" in err
        assert err.count("No space left on device") == 2  # the fill's and the answer's
        assert "cannot reach" not in err
