r"""Play company-gateway tasks with mini-swe-agent through the cli exposure, WORKERS episodes at once.

Per task: seed a session with ``"exposure": "cli"`` (the gateway lends it a local sandbox: a workspace with the
guide ``README.md`` and one command per app), run mini-swe-agent's ``DefaultAgent`` with a ``LocalEnvironment``
in that workspace (the app commands first on ``PATH``, ``COMPANY_API_URL`` and ``COMPANY_API_TOKEN`` set),
verify, close. Prints one JSON line per task: ``{"task_id", "exit_status", "reward", "checks"}``.

The gateway must run on this machine with the local sandbox provider and a sandbox root this script knows
(the provider keeps ``<root>/<sandbox id>/workspace`` and ``<root>/<sandbox id>/bin``)::

    GATEWAY_SANDBOX_ROOT=/srv/company-sandboxes GATEWAY_MAX_CONCURRENT_SESSIONS=4 company-gateway serve --port 8000 &
    pip install mini-swe-agent==2.4.6
    GATEWAY=http://127.0.0.1:8000 GATEWAY_SANDBOX_ROOT=/srv/company-sandboxes MODEL_API_KEY=... \
        python run_batch.py cal-move-ops-sync dir-manager-of-owen
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml
from minisweagent.agents.default import DefaultAgent
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.litellm_model import LitellmModel

#: Episodes at once; start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS set to the same number.
WORKERS = 4
GATEWAY = os.environ.get("GATEWAY", "http://127.0.0.1:8000")
SANDBOX_ROOT = Path(os.environ["GATEWAY_SANDBOX_ROOT"])
CONFIG = yaml.safe_load((Path(__file__).parent / "mini.yaml").read_text())


def post(route: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to a control route of the gateway and return the JSON answer."""
    request = urllib.request.Request(GATEWAY + route, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def episode(task_id: str) -> dict[str, Any]:
    """Seed, run the agent in the session's workspace, verify and close; the verify result with the exit status."""
    seed = post("/seed_session", {"task_id": task_id, "exposure": "cli"})
    try:
        box = SANDBOX_ROOT / seed["sandbox"]["id"]
        environment = {k: v for k, v in CONFIG["environment"].items() if k != "environment_class"}
        environment["cwd"] = str(box / "workspace")
        environment["env"] = {
            **environment["env"],
            "PATH": f"{box / 'bin'}:{os.environ['PATH']}",
            "HOME": str(box / "workspace"),
            "COMPANY_API_URL": seed["company_api_url"],
            "COMPANY_API_TOKEN": seed["token"],
        }
        model = {k: v for k, v in CONFIG["model"].items() if k != "model_class"}
        model["model_kwargs"] = {**model["model_kwargs"], "api_key": os.environ.get("MODEL_API_KEY", "unused")}
        agent = DefaultAgent(LitellmModel(**model), LocalEnvironment(**environment), **CONFIG["agent"])
        result = agent.run(seed["instruction"])
        verdict = post("/verify", {"session_id": seed["session_id"], "response": result.get("submission") or None})
        return {"task_id": task_id, "exit_status": result.get("exit_status"), "reward": verdict["reward"],
                "checks": verdict["checks"]}  # fmt: skip
    finally:
        post("/close_session", {"session_id": seed["session_id"]})


def main(task_ids: list[str]) -> None:
    """Run every task, WORKERS at once, and write one JSON line per task to stdout."""
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for row in pool.map(episode, task_ids):
            sys.stdout.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
