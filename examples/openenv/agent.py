"""A small agent loop, run in OpenEnv's venv: OpenEnv's client drives the company_gateway environment server.

An OpenAI-compatible model (Chat Completions with tools) chooses each call. The README's dry run uses it with
``company-gateway model``; tests/frameworks/test_openenv.py runs it too.

    python agent.py ENV_URL MODEL_URL TASK_ID [TASK_ID ...]

Prints one JSON object per episode: ``{"task_id", "reward", "done", "metadata", "steps", "tools", "state"}``.
With ``--leave ENV_URL TASK_ID`` it resets, makes one call and leaves without ending the episode (the server must
close it); with ``--masked ENV_URL TASK_ID`` it resets, waits for a line on stdin, then makes one call.
"""

import asyncio
import json
import sys

import httpx
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.mcp_client import MCPToolClient


def text_of(observation) -> str:
    """The text a tool call's observation shows the model (its error, or its result's text parts)."""
    if observation.error is not None:
        return f"Error: {observation.error.message}"
    result = observation.result or {}
    return "".join(part.get("text", "") for part in result.get("content") or [])


async def episode(env_url: str, model_url: str, task_id: str) -> dict:
    """Play one episode of ``task_id`` with the model; its last observation as a JSON-able dict."""
    async with MCPToolClient(base_url=env_url) as env, httpx.AsyncClient(timeout=60) as model:
        reset = await env.reset(task_id=task_id)
        tools = await env.list_tools()
        specs = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                   "parameters": t.input_schema}} for t in tools]
        messages = [{"role": "user", "content": reset.observation.metadata["instruction"]}]
        result = None
        for _ in range(30):
            answer = await model.post(model_url + "/chat/completions",
                                      json={"model": "scripted", "messages": messages, "tools": specs})
            reply = answer.json()["choices"][0]["message"]
            messages.append(reply)
            if not reply.get("tool_calls"):
                action = CallToolAction(tool_name="end_episode", arguments={"response": reply.get("content") or ""})
                result = await env.step(action)
                break
            call = reply["tool_calls"][0]
            action = CallToolAction(tool_name=call["function"]["name"],
                                    arguments=json.loads(call["function"]["arguments"] or "{}"))
            result = await env.step(action)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": text_of(result.observation)})
            if result.done:
                break
        state = await env.state()
        after = await env.step(CallToolAction(tool_name="company_directory_list_departments", arguments={}))
        return {"task_id": task_id, "reward": result.reward, "done": result.done,
                "metadata": result.observation.metadata, "steps": state.step_count, "tools": [t.name for t in tools],
                "after_end": after.observation.error.message if after.observation.error else None}


async def leave(env_url: str, task_id: str) -> dict:
    """Reset, make one call and leave without ending the episode."""
    async with MCPToolClient(base_url=env_url) as env:
        reset = await env.reset(task_id=task_id)
        step = await env.step(CallToolAction(tool_name="company_directory_list_departments", arguments={}))
        return {"task_id": task_id, "session_id": reset.observation.metadata["session_id"], "done": step.done}


async def masked(env_url: str, task_id: str) -> None:
    """Reset, print the session, wait for a line on stdin (the test stops the gateway), then call a tool."""
    async with MCPToolClient(base_url=env_url) as env:
        reset = await env.reset(task_id=task_id)
        print(json.dumps({"session_id": reset.observation.metadata["session_id"]}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        step = await env.step(CallToolAction(tool_name="company_directory_list_departments", arguments={}))
        print(json.dumps({"reward": step.reward, "done": step.done, "metadata": step.observation.metadata}), flush=True)


async def main() -> None:
    """Parse the command line and run (see the module docstring)."""
    if sys.argv[1] == "--masked":
        await masked(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--leave":
        print(json.dumps(await leave(sys.argv[2], sys.argv[3])), flush=True)
        return
    env_url, model_url, *task_ids = sys.argv[1:]
    for task_id in task_ids:
        print(json.dumps(await episode(env_url, model_url, task_id)), flush=True)


asyncio.run(main())
