"""Every task's reference solution through all three ways in: the same final world and the same reward."""

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway.control.rows import load_builtin_tasks
from gateway.grading import diff
from gateway.runners.policies import cli_caller, http_caller, mcp_caller, run_steps
from tests.conftest import require_binary
from tests.tiers import sampled

TASKS = load_builtin_tasks(families=False)  # the hand-written rows (families: tests/gateway/tasks)


async def play(live, task, exposure):
    seed = await live.seed(task.id, exposure=exposure)
    gw = live.app.state.gateway
    session = gw.get_session(seed["session_id"])
    if exposure == "mcp":
        assert (seed["sandbox"] is None) is not bool(task.sandbox)
        transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
        async with Client(transport) as client:
            await run_steps(task.solution, mcp_caller(client))
    else:
        assert seed["sandbox"]["provider"] == "local"
        make = cli_caller if exposure == "cli" else http_caller
        await run_steps(task.solution, make(gw.provider, session.sandbox))
    changes = diff(session.initial, session.world.snapshot())
    verdict = (await live.control.post("/verify", json={"session_id": seed["session_id"]})).json()
    return changes, verdict


@pytest.mark.bwrap
@pytest.mark.parametrize("task_id", sampled(list(TASKS), 2, seed="parity"))
async def test_three_ways_in_leave_the_same_world(live, task_id):
    require_binary("bwrap")
    assert live.app.state.gateway.provider.isolated
    task = TASKS[task_id]
    results = {e: await play(live, task, e) for e in ("mcp", "cli", "http")}
    mcp_changes, mcp_verdict = results["mcp"]
    assert mcp_verdict["reward"] == 1.0
    for exposure in ("cli", "http"):
        changes, verdict = results[exposure]
        assert changes == mcp_changes, exposure
        assert verdict["reward"] == mcp_verdict["reward"], exposure
        assert verdict["checks"] == mcp_verdict["checks"], exposure
