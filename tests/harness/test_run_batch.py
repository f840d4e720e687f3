"""The examples' run-batch.sh launchers, copied as a user would, against a gateway capped at their PARALLEL.

One of the tasks is a ``cli`` row: the launchers seed every row over MCP (their configs give the harness MCP tools
only), so it plays to 1.0 like the others. tests/examples/test_examples.py covers the time limit.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from gateway import Settings
from tests.conftest import require_binary
from tests.harness.conftest import EXAMPLES, TASKS, harness_binary, harness_env, run_harness
from tests.harness.fake_model import ScriptedModel, serve_model
from tests.recording import recording_gateway

pytestmark = pytest.mark.harness


def point_at_model(folder: Path, harness: str, model_url: str) -> None:
    """Rewrite the copied example's model endpoint to the fake model (the only edit a user makes besides keys)."""
    if harness == "codex":
        path = folder / "config.toml"
        text, n = re.subn(r'(?m)^base_url = "[^"]*"', f'base_url = "{model_url}"', path.read_text())
        assert n == 1
        path.write_text(text)
    elif harness == "opencode":
        path = folder / "opencode.json"
        config = json.loads(path.read_text())
        for provider in config["provider"].values():
            provider["options"]["baseURL"] = model_url
        path.write_text(json.dumps(config))
    else:
        path = folder / "models.json"
        config = json.loads(path.read_text())
        for provider in config["providers"].values():
            provider["baseUrl"] = model_url
        path.write_text(json.dumps(config))


@pytest.mark.parametrize("harness", ["codex", "pi", "opencode"])
async def test_run_batch_plays_tasks_in_parallel_to_reward_1(clean_home: Path, harness: str) -> None:
    require_binary("curl")
    binary = harness_binary(harness)
    script = (EXAMPLES / harness / "run-batch.sh").read_text()
    parallel = int(re.search(r'PARALLEL="\$\{PARALLEL:-(\d+)\}"', script).group(1))  # type: ignore[union-attr]
    # A cli row (as 22 of the built-in rows are): seeded as written, its session would offer no app tools.
    cli_row = TASKS["dir-manager-of-owen"].model_copy(update={"id": "dir-manager-of-owen-cli", "exposure": "cli"})
    tasks = [cli_row, TASKS["drive-share-offsite-agenda"]]
    if harness == "opencode":
        tasks = tasks[:1]  # one OpenCode run costs ~15-30 s of CPU here
    model = ScriptedModel(tasks)  # calls the MCP tools: a session without them fails the script
    settings = Settings(max_concurrent_sessions=parallel)
    async with recording_gateway(settings, {t.id: t for t in tasks}) as (base, seeds), serve_model(model) as model_url:
        folder = clean_home / harness
        shutil.copytree(EXAMPLES / harness, folder)
        point_at_model(folder, harness, model_url)
        env = harness_env(clean_home, GATEWAY=base, MODEL_API_KEY="unused", RUNS_DIR=str(clean_home / "runs"))
        env["PATH"] = f"{Path(binary).parent}:{env['PATH']}"
        run = await run_harness(
            ["bash", str(folder / "run-batch.sh"), *(t.id for t in tasks)], env=env, cwd=clean_home, timeout_s=90
        )
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    verdicts = {
        task_id: json.loads(text) for task_id, text in (line.split("\t", 1) for line in run.stdout.splitlines())
    }
    logs = "\n".join(p.read_text()[-3000:] for p in (clean_home / "runs").glob("*/*.log"))
    assert {task_id: v.get("reward") for task_id, v in verdicts.items()} == {t.id: 1.0 for t in tasks}, f"{run}\n{logs}"
    assert {seed["task_id"]: seed["exposure"] for seed in seeds} == {t.id: "mcp" for t in tasks}
