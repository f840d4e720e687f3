r"""Play company-gateway tasks with mini-swe-agent through the cli exposure, WORKERS episodes at once.

Per task: seed a session with ``"exposure": "cli"`` (the gateway lends it a local sandbox: a workspace with the
guide ``README.md`` and one command per app), run mini-swe-agent's ``DefaultAgent`` with every bash command run
*inside that sandbox* (``sandbox_env.SandboxShell``: bubblewrap, no network, the company API on a unix socket
where the control routes answer 403, the task data hidden), verify, close. Writes one JSON line per task to stdout,
and nothing else: ``{"task_id", "session_id", "exit_status", "reward", "mask_sample", "failure_kind",
"failure_reason", "checks"}``; the agent's and litellm's own output goes to stderr.

When the model's endpoint fails a query after mini-swe-agent's own retries (``MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT``
attempts, default 10, 4 to 60 s apart: about 5 minutes), the episode is not verified and its line is masked,
``"reward": 0.0, "mask_sample": true``, with ``"failure_kind"`` ``"model_unreachable"`` (no connection: refused,
unresolved, timed out), ``"model_api"`` (the endpoint answered with an error: 401, 429, 5xx, a bad request) or
``"model_error"`` (anything else the query raised), and the error in ``"failure_reason"``: an infrastructure
failure is never a 0 against the model. The session is closed either way and the batch goes on.

The gateway must run on this machine with the local sandbox provider (bubblewrap installed) and the sandbox root
this script reads from the same ``GATEWAY_*`` variables; with ``GATEWAY_CONTROL_TOKEN`` set, the control calls
carry it::

    export GATEWAY_SANDBOX_ROOT=/srv/company-sandboxes GATEWAY_CONTROL_TOKEN=$(openssl rand -hex 16)
    GATEWAY_MAX_CONCURRENT_SESSIONS=4 company-gateway serve --port 8000 &
    pip install mini-swe-agent==2.4.6
    GATEWAY=http://127.0.0.1:8000 MODEL_API_KEY=... python run_batch.py cal-move-ops-sync dir-manager-of-owen
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from sandbox_env import SandboxShell  # noqa: E402 - beside this file

#: Episodes at once; start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS set to the same number.
WORKERS = 4
GATEWAY = os.environ.get("GATEWAY", "http://127.0.0.1:8000")
CONTROL_TOKEN = os.environ.get("GATEWAY_CONTROL_TOKEN")
CONFIG = yaml.safe_load((Path(__file__).parent / "mini.yaml").read_text())


def post(route: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to a control route of the gateway (with the control token when one is set); the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if CONTROL_TOKEN:
        headers["Authorization"] = f"Bearer {CONTROL_TOKEN}"
    request = urllib.request.Request(GATEWAY + route, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


class ModelFailure(Exception):
    """The model's endpoint failed a query after its retries; ``kind`` is the episode's ``failure_kind``."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


def model_failure_kind(error: BaseException) -> str:
    """``"model_unreachable"``, ``"model_api"`` or ``"model_error"`` for an exception a model query raised.

    litellm reports a refused connection as ``InternalServerError`` ("Connection error."): the exceptions it was
    raised from (``__cause__``/``__context__``) tell a connection that never happened from an error the endpoint
    answered with.
    """
    import httpx
    import openai

    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    if any(isinstance(e, openai.APIConnectionError | httpx.TransportError | ConnectionError) for e in chain):
        return "model_unreachable"
    if any(isinstance(e, openai.APIError) for e in chain):
        return "model_api"
    return "model_error"


def guarded_model(**config: Any) -> Any:
    """mini-swe-agent's ``LitellmModel`` built from ``config``, whose failed queries raise :class:`ModelFailure`.

    The agent's own flow exceptions (such as a format error it answers the model with) pass through.
    """
    from minisweagent.exceptions import InterruptAgentFlow
    from minisweagent.models.litellm_model import LitellmModel

    class GuardedModel(LitellmModel):  # type: ignore[misc]
        def query(self, messages: list[dict[str, str]], **kwargs: Any) -> dict[str, Any]:
            try:
                return super().query(messages, **kwargs)  # type: ignore[no-any-return]
            except InterruptAgentFlow:
                raise
            except Exception as error:  # after its retries: whatever the query raised is the model's endpoint's
                raise ModelFailure(model_failure_kind(error), f"{type(error).__name__}: {error}"[:2000]) from error

    return GuardedModel(**config)


def sandbox_environment(shell: SandboxShell, timeout_s: int) -> Any:
    """A mini-swe-agent environment whose ``execute`` runs the command in the session's sandbox."""
    from minisweagent.environments.local import LocalEnvironment

    class SandboxEnvironment(LocalEnvironment):  # type: ignore[misc]
        def execute(self, action: Any, cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
            command = action.get("command", "") if isinstance(action, dict) else str(action)
            result = shell.run(command, timeout or timeout_s, cwd)
            output = {"output": result.output, "returncode": result.returncode,
                      "exception_info": "the command timed out" if result.timed_out else ""}  # fmt: skip
            self._check_finished(output)  # raises Submitted on COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT
            return output

    # The sandbox has its own environment (PATH with the app commands first, COMPANY_API_URL, COMPANY_API_TOKEN,
    # COMPANY_API_SOCKET); cwd "" is its workspace.
    return SandboxEnvironment(cwd="", env={}, timeout=timeout_s)


@contextlib.contextmanager
def renewing(session_id: str, lease_s: Any) -> Any:
    """Renew the session's lease every third of ``lease_s`` (the seed's) while the agent runs: a turn may be slow."""
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(float(lease_s) / 3):
            with contextlib.suppress(OSError, ValueError):  # the agent's own calls renew too; try again next turn
                post("/renew_session", {"session_id": session_id})

    worker = threading.Thread(target=renew, daemon=True)  # daemon: a killed batch leaves sessions to the lease
    if isinstance(lease_s, int | float) and lease_s > 0:
        worker.start()
    try:
        yield
    finally:
        stop.set()


def episode(task_id: str) -> dict[str, Any]:
    """Seed, run the agent in the session's sandbox, verify and close; the verify result with the exit status."""
    from minisweagent.agents.default import DefaultAgent

    seed = post("/seed_session", {"task_id": task_id, "exposure": "cli"})
    shell = None
    try:
        if not seed.get("sandbox"):
            raise ValueError("the gateway lent no sandbox: serve it with the local provider and bubblewrap")
        shell = SandboxShell(seed["sandbox"]["id"])
        model = {k: v for k, v in CONFIG["model"].items() if k != "model_class"}
        model["model_kwargs"] = {**model["model_kwargs"], "api_key": os.environ.get("MODEL_API_KEY", "unused")}
        environment = sandbox_environment(shell, int(CONFIG["environment"].get("timeout", 60)))
        agent = DefaultAgent(guarded_model(**model), environment, **CONFIG["agent"])
        try:
            with renewing(seed["session_id"], seed.get("lease_s")):
                result = agent.run(seed["instruction"])
        except ModelFailure as failure:  # no score of the model: masked, not verified
            sys.stderr.write(f"{task_id}: the model failed ({failure.kind}): {failure}\n")
            return {"task_id": task_id, "session_id": seed["session_id"], "exit_status": "ModelFailure",
                    "reward": 0.0, "mask_sample": True, "failure_kind": failure.kind, "failure_reason": str(failure),
                    "checks": []}  # fmt: skip
        verdict = post("/verify", {"session_id": seed["session_id"], "response": result.get("submission") or None})
        return {"task_id": task_id, "session_id": seed["session_id"], "exit_status": result.get("exit_status"),
                "reward": verdict["reward"], "mask_sample": verdict["mask_sample"],
                "failure_kind": verdict["failure_kind"], "failure_reason": verdict.get("failure_reason"),
                "checks": verdict["checks"]}  # fmt: skip
    finally:
        if shell is not None:
            shell.close()
        post("/close_session", {"session_id": seed["session_id"]})


def main(task_ids: list[str]) -> None:
    """Run every task, WORKERS at once; one JSON line per task on stdout, everything else on stderr."""
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr), ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for row in pool.map(episode, task_ids):
            out.write(json.dumps(row) + "\n")
            out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
