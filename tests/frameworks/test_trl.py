"""TRL's ``GRPOTrainer`` on the gateway's tasks: one real GRPO step on CPU through the company_gateway OpenEnv server.

trl 1.16.0 (with torch 2.13.0, CPU) runs in a venv of its own (``scripts/install-trl.sh``); the OpenEnv server runs
from OpenEnv's venv (``scripts/install-openenv.sh``); both import this checkout's
``examples/openenv/company_gateway_openenv``. The model is a random 2-layer Qwen2 with a tokenizer trained on the
spot (``examples/openenv/trl_grpo.py --tiny-model``): no download. Its completions are noise, so every episode is
ended by the trainer's ``get_reward`` and graded by the gateway (reward 0.0, most checks failing, the collateral
check holding): the test holds the trainer's logged rewards to the gateway's episode records.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.frameworks.test_openenv import TASKS, live_gateway, openenv_bin, openenv_server
from tests.frameworks.venvs import REPO, framework_env, listing, run, venv_bin

PACKAGE = REPO / "examples" / "openenv" / "company_gateway_openenv"
SCRIPT = REPO / "examples" / "openenv" / "trl_grpo.py"
PLAYED = ("dir-manager-of-owen", "dir-finance-team-size")
TRL_TIMEOUT_S = 900.0


def trl_bin() -> Path:
    return venv_bin("trl-1.16.0", "install-trl.sh")


@pytest.mark.slow
@pytest.mark.timeout(1200)
async def test_one_grpo_step_logs_the_gateways_rewards_and_leaves_no_session(tmp_path):
    bin_dir, openenv = trl_bin(), openenv_bin()
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(listing([TASKS[t] for t in PLAYED]))
    async with live_gateway() as (gateway_url, gw), openenv_server(openenv, gateway_url, tmp_path) as env_url:
        argv = [str(bin_dir / "python"), str(SCRIPT), "--env-url", env_url, "--tasks-file", str(tasks_file),
                "--tiny-model", "--output-dir", str(tmp_path / "run"), "--max-steps", "1"]  # fmt: skip
        env = framework_env({"PYTHONPATH": str(PACKAGE), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"})
        code, out = await run(argv, tmp_path, env, TRL_TIMEOUT_S)
        assert code == 0, out[-6000:]
        assert len(gw.store) == 0  # every episode verified (or ended) and closed
    logs = json.loads((tmp_path / "run" / "log_history.json").read_text())
    step = next(entry for entry in logs if "rewards/CompanyGatewayEnv/mean" in entry)
    records = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    graded = records[len(PLAYED):]  # the first episodes only listed each task's tools
    assert sorted(r["task_id"] for r in graded) == sorted(PLAYED * 2)  # one step: 2 prompts x 2 generations
    assert [r["mask_sample"] for r in graded] == [False] * len(graded)
    gateway_mean = sum(r["reward"] for r in graded) / len(graded)
    assert math.isclose(step["rewards/CompanyGatewayEnv/mean"], gateway_mean)
    shares = [sum(c["passed"] for c in r["checks"]) / len(r["checks"]) for r in graded]
    assert math.isclose(step["rewards/checks_passed/mean"], sum(shares) / len(shares))
    assert 0.0 < step["rewards/checks_passed/mean"] < 1.0  # the gateway's checks, not a constant
    assert "loss" in step
