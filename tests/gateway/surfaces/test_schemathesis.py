"""Schemathesis against a live gateway on loopback: the company API and the control plane.

Each run is the ``st run`` command (schemathesis 4) in a child process, pointed at the
document the server itself serves, with a fixed seed (two workers: the cases are the
same every run, only their interleaving varies). Checks: no 5xx (``not_a_server_error``), every status documented
(``status_code_conformance``), every body matches its documented schema
(``response_schema_conformance``). A failure prints schemathesis' report, with a curl
line that reproduces each finding.

Bounds (both runs together take about 50 s on two cores): the company API runs
the examples and fuzzing phases with 2 cases per operation and mode (its ~175
operations make the coverage phase alone take minutes); the control plane runs every
phase, stateful included (seed -> task state -> verify -> close through the links
of the seed answer), with 5 cases per operation, except the coverage phase on
``/seed_session``: its body holds a whole task row, whose schema gives the coverage
phase over 11,000 boundary cases (about 3 minutes); examples, fuzzing and the stateful
runs reach it instead.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from tools import REGISTRY

CHECKS = "not_a_server_error,status_code_conformance,response_schema_conformance"
SEED = "20240611"

#: A session that may call every app (an inline row), with a sandbox so file actions use the workspace.
EVERY_APP_ROW = {
    "id": "every-app",
    "instruction": "Look around.",
    "apps": list(REGISTRY.apps),
    "exposure": "http",
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}],
}


async def run_schemathesis(location: str, cwd: Path, *options: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "schemathesis.cli", "run", location,
        "--checks", CHECKS, "--seed", SEED, "--workers", "2", "--generation-database", "none",
        "--continue-on-failure", "--request-timeout", "30", "--no-color", *options,
        cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode(errors="replace")


def operations_tested(report: str) -> int:
    found = re.search(r"Tested: (\d+)", report)
    return int(found.group(1)) if found else 0


@pytest.mark.slow
@pytest.mark.timeout(240)
async def test_company_api_conforms_to_its_openapi_document(live, tmp_path):
    seed = (await live.control.post("/seed_session", json={"task": EVERY_APP_ROW})).json()
    assert seed["sandbox"] is not None
    document = (await live.control.get("/api/openapi.json")).json()
    rc, report = await run_schemathesis(
        f"{live.base}/api/openapi.json", tmp_path,
        "--header", f"Authorization: Bearer {seed['token']}",
        "--phases", "examples,fuzzing", "--max-examples", "2",
    )  # fmt: skip
    assert rc == 0, report[-20000:]
    assert operations_tested(report) == len(document["paths"]), report[-3000:]
    state = (await live.control.get("/task_state", params={"session_id": seed["session_id"]})).json()
    assert state["calls"] > len(document["paths"])  # the runs really reached the session's world


@pytest.mark.slow
@pytest.mark.timeout(120)
async def test_control_plane_conforms_to_its_openapi_document(live, tmp_path):
    document = (await live.control.get("/openapi.json")).json()
    rc, report = await run_schemathesis(
        f"{live.base}/openapi.json", tmp_path,
        "--phases", "examples,fuzzing,stateful", "--max-examples", "5",
    )  # fmt: skip
    assert rc == 0, report[-20000:]
    assert operations_tested(report) == len(document["paths"]) == 8, report[-3000:]
    rc, report = await run_schemathesis(
        f"{live.base}/openapi.json", tmp_path,
        "--phases", "coverage", "--exclude-path", "/seed_session",
    )  # fmt: skip
    assert rc == 0, report[-20000:]
    assert operations_tested(report) == len(document["paths"]) - 1, report[-3000:]
    assert len(live.app.state.gateway.store) > 0  # valid seeds got through, not only refusals
