"""company-gateway model: the scripted model server, playing live sessions it learns from the control plane."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx
import openai
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway import Settings, create_app
from gateway.control.rows import load_builtin_tasks
from gateway.runners.cli import main
from gateway.runners.model import (
    FINAL_TEXT,
    FINISH_COMMAND,
    Call,
    GatewayReferences,
    ScriptedModel,
    TaskReferences,
    Turn,
    next_reply,
    serve_model,
)
from gateway.surfaces.serve import serve_in_background

TASKS = load_builtin_tasks(families=False)
RIGHT, WRONG = "cal-move-ops-sync", "dir-manager-of-owen"
TOKEN = "c0ntrol"
WRAPPED = "<environment_context>cwd=/work</environment_context>\n\n{}\n\nRead README.md first."


@pytest.fixture
async def gateway() -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(control_token=TOKEN), dict(TASKS))
    async with serve_in_background(app) as base:
        yield base, app.state.gateway


async def seed(base: str, task_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as control:
        answer = await control.post("/seed_session", json={"task_id": task_id})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


# ---- the control route ----------------------------------------------------------------------------


async def test_reference_solution_finds_the_live_session_by_the_instruction_inside_a_prompt(gateway):
    base, gw = gateway
    first, second = await seed(base, RIGHT), await seed(base, RIGHT)
    await seed(base, WRONG)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as control:
        text = WRAPPED.format(TASKS[RIGHT].instruction)
        answer = (await control.post("/reference_solution", json={"instruction": text})).json()
        by_id = (await control.post("/reference_solution", json={"session_id": first["session_id"]})).json()
    assert answer["session_id"] == second["session_id"]  # the newest of the two sessions of that task
    assert (answer["task_id"], answer["exposure"], answer["matches"]) == (RIGHT, "mcp", 2)
    assert answer["instruction"] == TASKS[RIGHT].instruction
    assert [s["tool"] for s in answer["solution"]] == ["calendar.list_events", "calendar.update_event"]
    assert answer["solution"][0]["save"] == {"eid": "events.0.id"}
    assert answer["negative_control"]["name"] == TASKS[RIGHT].negative_controls[0].name
    assert (by_id["session_id"], by_id["task_id"], by_id["matches"]) == (first["session_id"], RIGHT, 1)


@pytest.mark.parametrize(
    ("body", "status", "names"),
    [
        ({}, 400, "exactly one of 'instruction'"),
        ({"instruction": "x", "session_id": "s_1"}, 400, "exactly one of 'instruction'"),
        ({"instruction": 3}, 400, "instruction: must be a non-empty string"),
        ({"instruction": "no task says this"}, 404, "instruction: no live session"),
        ({"session_id": "s_nope"}, 404, "session_id: no live session"),
        ({"task_id": RIGHT}, 400, "unknown fields ['task_id']"),
    ],
)
async def test_reference_solution_names_the_field_at_fault(gateway, body, status, names):
    base, _ = gateway
    await seed(base, RIGHT)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as control:
        answer = await control.post("/reference_solution", json=body)
    assert answer.status_code == status
    assert names in answer.json()["error"]


async def test_reference_solution_answers_no_session_token_and_no_untrusted_peer(gateway):
    base, _ = gateway
    session = await seed(base, RIGHT)
    body = {"instruction": TASKS[RIGHT].instruction}
    async with httpx.AsyncClient(base_url=base) as client:
        assert (await client.post("/reference_solution", json=body)).status_code == 403
        as_session = {"Authorization": f"Bearer {session['token']}"}
        assert (await client.post("/reference_solution", json=body, headers=as_session)).status_code == 403
    app = create_app(Settings(trusted_networks=["10.0.0.0/8"]), dict(TASKS))
    async with serve_in_background(app) as other, httpx.AsyncClient(base_url=other) as client:
        assert (await client.post("/reference_solution", json=body)).status_code == 403


async def test_a_verified_session_is_no_longer_found(gateway):
    base, _ = gateway
    session = await seed(base, RIGHT)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as control:
        await control.post("/verify", json={"session_id": session["session_id"]})
        answer = await control.post("/reference_solution", json={"instruction": TASKS[RIGHT].instruction})
    assert answer.status_code == 404


# ---- the model, played through a session's MCP tools --------------------------------------------------


async def play_chat(model_url: str, session: dict[str, Any], stream: bool) -> tuple[str, list[str]]:
    """A minimal agent: Chat Completions through the openai SDK, the tool calls through the session's MCP."""
    transport = StreamableHttpTransport(session["mcp"]["url"], headers=session["mcp"]["headers"])
    async with openai.AsyncOpenAI(base_url=model_url, api_key="unused") as llm, Client(transport) as mcp:
        listed = await mcp.list_tools()
        tools = [{"type": "function", "function": {"name": t.name, "description": t.description or "",
                                                   "parameters": t.input_schema}} for t in listed]  # fmt: skip
        messages: list[Any] = [{"role": "system", "content": "You are an assistant."},
                               {"role": "user", "content": WRAPPED.format(session["instruction"])}]  # fmt: skip
        called: list[str] = []
        for _ in range(12):
            if stream:
                chunks = [c async for c in await llm.chat.completions.create(model="m", messages=messages,
                                                                              tools=tools, stream=True)]  # fmt: skip
                deltas = [c.choices[0].delta for c in chunks if c.choices]
                text = "".join(d.content or "" for d in deltas)
                calls = [(c.id, c.function.name, c.function.arguments) for d in deltas for c in d.tool_calls or []]
            else:
                reply = (await llm.chat.completions.create(model="m", messages=messages, tools=tools)).choices[0]
                text = reply.message.content or ""
                calls = [(c.id, c.function.name, c.function.arguments) for c in reply.message.tool_calls or []]
            if not calls:
                return text, called
            call_id, name, arguments = calls[0]
            called.append(name)
            result = await mcp.call_tool(name, json.loads(arguments), raise_on_error=False)
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]})  # fmt: skip
            messages.append({"role": "tool", "tool_call_id": call_id,
                             "content": "".join(getattr(c, "text", "") for c in result.content)})  # fmt: skip
    raise AssertionError("the model did not stop")


@pytest.mark.parametrize(("policy", "reward", "stream"), [("oracle", 1.0, True), ("wrong", 0.0, False),
                                                           ("noop", 0.0, False)])  # fmt: skip
async def test_the_policies_score_as_they_should_through_the_control_plane(gateway, policy, reward, stream):
    base, gw = gateway
    model = ScriptedModel(GatewayReferences(base, TOKEN), policy=policy)
    async with serve_model(model) as model_url:
        results = {}
        for task_id in (RIGHT, WRONG):
            session = await seed(base, task_id)
            text, called = await play_chat(model_url, session, stream)
            async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as control:
                verdict = (await control.post("/verify", json={"session_id": session["session_id"]})).json()
                await control.post("/close_session", json={"session_id": session["session_id"]})
            results[task_id] = (verdict["reward"], verdict["mask_sample"], text, len(called))
    assert model.errors == []
    steps = {"oracle": lambda t: len(TASKS[t].solution), "noop": lambda t: 0,
             "wrong": lambda t: len(TASKS[t].negative_controls[0].steps)}[policy]  # fmt: skip
    assert results == {t: (reward, False, FINAL_TEXT, steps(t)) for t in (RIGHT, WRONG)}
    assert len(gw.store) == 0


async def test_an_unknown_instruction_is_a_script_error_in_text(gateway):
    base, _ = gateway
    model = ScriptedModel(GatewayReferences(base, TOKEN))
    async with serve_model(model) as model_url, httpx.AsyncClient() as client:
        body = {"model": "m", "messages": [{"role": "user", "content": "hello"}],
                "tools": [{"type": "function", "function": {"name": "bash", "parameters": {}}}]}  # fmt: skip
        answer = (await client.post(f"{model_url}/chat/completions", json=body)).json()
    text = answer["choices"][0]["message"]["content"]
    assert text.startswith("SCRIPT ERROR: ") and "404" in text
    assert model.errors == [text]


async def test_an_output_without_a_value_a_step_needs_is_a_script_error_in_text(monkeypatch):
    from gateway.exceptions import TaskError
    from gateway.runners.model import server

    def missing(*_: Any) -> None:
        raise TaskError("result has no 'saved_to'")

    monkeypatch.setattr(server, "next_reply", missing)
    model = ScriptedModel(TaskReferences([TASKS[RIGHT]]))
    turn = Turn(user=[TASKS[RIGHT].instruction], offered={"company_calendar_list_events": {}})
    text = await model.reply(turn)
    assert text == "SCRIPT ERROR: result has no 'saved_to'" and model.errors == [text]


async def test_a_wrong_control_token_is_a_script_error_naming_the_option(gateway):
    base, _ = gateway
    await seed(base, RIGHT)
    turn = Turn(user=[TASKS[RIGHT].instruction], offered={"company_calendar_list_events": {}})
    model = ScriptedModel(GatewayReferences(base, "wrong-token"))
    assert "--control-token" in str(await model.reply(turn))


# ---- each wire format, streaming and not --------------------------------------------------------------


def sse_data(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ") and line != "data: [DONE]"]


async def first_call(client: httpx.AsyncClient, url: str, api: str, stream: bool) -> tuple[str, dict[str, Any]]:
    """The first tool call the model answers in ``api``'s format (its name and arguments)."""
    instruction = TASKS[RIGHT].instruction
    schema = {"type": "object", "properties": {}}
    if api == "responses":
        tools = [{"type": "namespace", "name": "mcp__company", "tools": [
            {"type": "function", "name": "company_calendar_list_events", "parameters": schema}]}]  # fmt: skip
        body = {"model": "m", "input": [{"role": "user", "content": instruction}], "tools": tools, "stream": stream}
        answer = await client.post(f"{url}/v1/responses", json=body)
        if stream:
            item = next(e["item"] for e in sse_data(answer.text) if e["type"] == "response.output_item.done")
        else:
            item = answer.json()["output"][0]
        return f"{item['namespace']}/{item['name']}", json.loads(item["arguments"])
    if api == "messages":
        body = {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": instruction}],
                "tools": [{"name": "company_calendar_list_events", "input_schema": schema}], "stream": stream}
        answer = await client.post(f"{url}/messages", json=body)  # no /v1: the prefix is optional
        if stream:
            events = sse_data(answer.text)
            start = next(e for e in events if e["type"] == "content_block_start")["content_block"]
            delta = next(e for e in events if e["type"] == "content_block_delta")["delta"]["partial_json"]
            return start["name"], json.loads(delta)
        block = answer.json()["content"][0]
        return block["name"], block["input"]
    body = {"contents": [{"role": "user", "parts": [{"text": instruction}]}],
            "tools": [{"functionDeclarations": [{"name": "company_calendar_list_events", "parameters": schema}]}]}
    method = "streamGenerateContent?alt=sse" if stream else "generateContent"
    answer = await client.post(f"{url}/v1beta/models/gemini-x:{method}", json=body)
    reply = sse_data(answer.text)[0] if stream else answer.json()
    call = reply["candidates"][0]["content"]["parts"][0]["functionCall"]
    return call["name"], call["args"]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("api", ["responses", "messages", "gemini"])
async def test_every_wire_format_answers_the_first_step(api, stream):
    model = ScriptedModel(TaskReferences([TASKS[RIGHT]]))
    step = TASKS[RIGHT].solution[0]
    async with serve_model(model) as model_url, httpx.AsyncClient() as client:
        base = model_url.removesuffix("/v1")
        name, args = await first_call(client, base, api, stream)
        models = (await client.get(f"{base}/models")).json()
        counted = (await client.post(f"{base}/v1/messages/count_tokens", json={})).json()
        bad = await client.post(f"{model_url}/chat/completions", content=b"[1, 2]")
    want = "mcp__company/company_calendar_list_events" if api == "responses" else "company_calendar_list_events"
    assert (name, args) == (want, step.args)
    assert [m["id"] for m in models["data"]] == ["scripted"] and counted == {"input_tokens": 10}
    assert bad.status_code == 400 and bad.json()["error"]["message"] == "the body must be a JSON object"
    assert model.errors == []


# ---- shell plays: tool calls, bash blocks, Terminus 2's JSON --------------------------------------------


def test_cli_steps_go_through_the_harness_shell_tool_shaped_by_its_schema():
    steps = TASKS[RIGHT].solution
    for tool, schema, arguments in [
        ("Bash", {"properties": {"command": {"type": "string"}}}, "command"),
        ("shell", {"properties": {"command": {"type": "array"}}}, "argv"),
        ("exec_command", {"properties": {"cmd": {"type": "string"}}}, "cmd"),
    ]:
        reply = next_reply(Turn(user=[TASKS[RIGHT].instruction], offered={tool: schema}), steps, "cli")
        assert isinstance(reply, Call) and reply.key == tool
        command = {"command": reply.arguments.get("command"), "argv": (reply.arguments.get("command") or [""])[-1],
                   "cmd": reply.arguments.get("cmd")}[arguments]  # fmt: skip
        assert command.startswith("calendar list-events --"), command


def test_a_bash_block_plays_one_command_a_reply_reading_each_output_then_finishes():
    steps = TASKS[RIGHT].solution
    prompt = f"Reply with one ```bash block. End with `{FINISH_COMMAND}`.\n{TASKS[RIGHT].instruction}"
    first = next_reply(Turn(user=[prompt]), steps, "cli")
    assert isinstance(first, str) and "```bash\ncalendar list-events " in first
    output = '<returncode>0</returncode>\n<output>\n{"events": [{"id": "evt_42"}]}\n</output>'
    second = next_reply(Turn(user=[prompt, output], replies=1), steps, "cli")
    assert isinstance(second, str) and "calendar update-event --event-id=evt_42" in second
    last = next_reply(Turn(user=[prompt, output, "<returncode>0</returncode>"], replies=2), steps, "cli")
    assert isinstance(last, str) and f"```bash\n{FINISH_COMMAND}\n```" in last


def test_terminus_json_types_every_command_then_claims_completion():
    plain = [t for t in TASKS.values() if t.exposure == "cli" and all(not s.save for s in t.solution)][0]
    prompt = 'Answer JSON: {"analysis", "plan", "commands": [{"keystrokes", "duration"}], "task_complete"}\n'
    first = json.loads(str(next_reply(Turn(user=[prompt + plain.instruction]), plain.solution, "cli")))
    assert [c["keystrokes"].split()[0] for c in first["commands"]] == [
        (s.tool.split(".")[0] if s.tool != "complete_task" else "company") for s in plain.solution]  # fmt: skip
    assert first["task_complete"] is False
    later = json.loads(str(next_reply(Turn(user=[prompt + plain.instruction, "$ "], replies=1), plain.solution, "cli")))
    assert (later["commands"], later["task_complete"]) == ([], True)


# ---- the command line -----------------------------------------------------------------------------------


def test_the_command_names_a_bad_policy_and_needs_the_gateway(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["model", "--policy", "best"])
    assert exited.value.code == 2
    assert "--policy: invalid choice: 'best'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["model"])
    assert "--gateway-url" in capsys.readouterr().err


async def test_the_command_serves_on_loopback_and_plays_the_gateways_session(gateway):
    base, _ = gateway
    session = await seed(base, WRONG)
    env = {**os.environ, "GATEWAY_CONTROL_TOKEN": TOKEN}
    argv = [sys.executable, "-m", "gateway.runners.cli", "model", "--gateway-url", base, "--port", "0",
            "--policy", "wrong"]  # fmt: skip
    with anyio.fail_after(60):
        proc = await asyncio.create_subprocess_exec(*argv, env=env, stdout=subprocess.PIPE)
        try:
            assert proc.stdout is not None
            line = (await proc.stdout.readline()).decode()
            assert line.startswith("company-gateway model: serving http://127.0.0.1:"), line
            url = line.split()[3]
            body = {"model": "m", "messages": [{"role": "user", "content": session["instruction"]}],
                    "tools": [{"type": "function", "function": {"name": "company_complete_task", "parameters": {}}}]}
            async with httpx.AsyncClient() as client:
                health = await client.get(url.removesuffix("/v1") + "/health")
                answer = (await client.post(f"{url}/chat/completions", json=body)).json()
        finally:
            proc.terminate()
            await proc.wait()
    assert (health.status_code, health.json()) == (200, {"status": "ok"})
    call = answer["choices"][0]["message"]["tool_calls"][0]["function"]
    assert call["name"] == "company_complete_task"
    assert json.loads(call["arguments"]) == TASKS[WRONG].negative_controls[0].steps[0].args
