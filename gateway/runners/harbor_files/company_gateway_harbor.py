"""A Harbor environment and verifier that run each trial in a company-gateway session's sandbox.

Written next to the task folders by ``company-gateway harbor-export``; it runs inside Harbor's own venv and
imports Harbor, httpx and the standard library only (never company-gateway).

- ``CompanyGatewayEnvironment`` (``--env company_gateway_harbor:CompanyGatewayEnvironment``): ``start`` seeds a
  session for the task (``POST {gateway_url}/seed_session`` with the task folder's name as ``task_id``, the
  ``cli`` exposure and a sandbox); every ``exec``, upload and download then goes to that session's sandbox
  container through the container engine's command-line client (``docker`` by default, reaching the engine that
  ``DOCKER_HOST`` names, which must be the gateway's). The agent's shell therefore runs where the app commands,
  the workspace and ``COMPANY_API_*`` are, and the control routes stay out of its reach. While the trial runs,
  the environment renews the session's lease (``POST {gateway_url}/renew_session`` every third of the seed's
  ``lease_s``: an agent's turn may be slow); ``stop`` ends the renewals and closes the session. If Harbor dies
  (kill -9), the gateway closes the session as abandoned once its lease runs out.
- ``CompanyGatewayVerifier`` (``--verifier company_gateway_harbor:CompanyGatewayVerifier``): the reward is what
  ``POST {gateway_url}/verify`` answers, asked from Harbor's side; a masked session (an infrastructure failure)
  raises ``MaskedSession``, so Harbor records an error for the trial instead of a score. It writes the answer
  to ``verify.json`` and the episode record (company-gateway's docs/grading.md) as one JSON line to
  ``episode.json`` in the trial's verifier folder: ``cat jobs/*/*/verifier/episode.json > run.jsonl`` is a
  run ``company-gateway regrade`` reads.

Keyword arguments (``--ek key=value``, or ``environment.kwargs`` in a job config): ``gateway_url`` (required),
``exposure`` (``cli``, default, or ``http``), ``engine`` (``docker`` or ``podman``), ``control_token_env``
(the name of a variable holding the gateway's control token, if it has one; default ``GATEWAY_CONTROL_TOKEN``),
``timeout_s`` (seconds for each control-route request; default 120).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.models.verifier.result import VerifierResult
from harbor.verifier.base import BaseVerifier

__all__ = ["CompanyGatewayEnvironment", "CompanyGatewayVerifier", "GatewayError", "MaskedSession", "episode_record"]

EXPOSURES = ("cli", "http")
#: The episode record's format (company-gateway's gateway/runners/episodes.py; its fields: docs/grading.md).
EPISODE_FORMAT = "company-gateway.episode/1"


def episode_record(adapter: str, task_id: str, verdict: dict[str, Any] | None, *, session_id: str | None = None,
                   tools: list[str] | None = None, timings: dict[str, float | None] | None = None,
                   failure_kind: str | None = None, failure_reason: str | None = None) -> dict[str, Any]:  # fmt: skip
    """The episode record from ``/verify``'s answer (None: there was none) and what this adapter saw.

    ``failure_kind`` and ``failure_reason`` are the adapter's own failure (the episode is then masked); the
    gateway's, when it masked the session, are kept as it gave them. The same function is in
    company-gateway's NeMo Gym resources server; a test there holds both to ``EpisodeRecord.as_dict``.
    """
    verdict = verdict or {}
    task = verdict.get("task") or {}
    masked = failure_kind is not None or bool(verdict.get("mask_sample"))
    seconds: dict[str, float | None] = dict.fromkeys(("seed_s", "model_s", "tools_s", "verify_s", "total_s"))
    seconds.update({k: round(v, 3) for k, v in (timings or {}).items() if v is not None})
    return {
        "format": EPISODE_FORMAT,
        "task_id": task_id,
        "repeat": 0,
        "adapter": adapter,
        "session_id": session_id,
        **{k: task.get(k) for k in ("family", "company", "seed", "split", "tier")},
        "apps": list(task.get("apps") or []),
        **{k: task.get(k) for k in ("exposure", "row_hash", "row")},
        "grader_version": verdict.get("grader_version"),
        "reward": 0.0 if masked else float(verdict.get("reward", 0.0)),
        "mask_sample": masked,
        "failure_kind": (failure_kind or verdict.get("failure_kind")) if masked else None,
        "failure_reason": (failure_reason or verdict.get("failure_reason")) if masked else None,
        "checks": list(verdict.get("checks") or []),
        "end_reason": None,
        "steps": None,
        "timings": seconds,
        "tools": list(tools or []),
        "tool_calls": list(verdict.get("tool_calls") or []),
        "changes": verdict.get("changes"),
        "trajectory": None,
        "regrade": None,
    }


class GatewayError(RuntimeError):
    """The gateway refused a control request or could not be reached; the text says which and why."""


class MaskedSession(RuntimeError):
    """The gateway masked the session (an infrastructure failure): the trial has no reward to record."""


class CompanyGatewayEnvironment(BaseEnvironment):
    """One company-gateway session per trial; commands run in the session's sandbox container.

    Args:
        gateway_url: The gateway's base URL, e.g. ``http://127.0.0.1:8000`` (its control routes must accept
            this host: loopback by default).
        exposure: ``"cli"`` (app commands in the sandbox) or ``"http"`` (the company API over curl).
        engine: The container engine's command-line client that reaches the gateway's engine.
        control_token_env: Name of the environment variable holding the control token, if the gateway has one.
        timeout_s: Seconds each control-route request may take.
        *args: Passed to ``BaseEnvironment``.
        **kwargs: Passed to ``BaseEnvironment``.

    Raises:
        ValueError: ``gateway_url`` is missing or not http(s), ``exposure`` or ``engine`` is unknown.
    """

    def __init__(
        self,
        *args: Any,
        gateway_url: str | None = None,
        exposure: str = "cli",
        engine: str = "docker",
        control_token_env: str = "GATEWAY_CONTROL_TOKEN",
        timeout_s: float | str = 120,
        **kwargs: Any,
    ) -> None:
        if not gateway_url or not gateway_url.startswith(("http://", "https://")):
            raise ValueError(f"gateway_url must be the gateway's http(s) base URL (--ek gateway_url=...), "
                             f"not {gateway_url!r}")  # fmt: skip
        if exposure not in EXPOSURES:
            raise ValueError(f"exposure must be one of {', '.join(EXPOSURES)}, not {exposure!r}")
        if engine not in ("docker", "podman"):
            raise ValueError(f"engine must be 'docker' or 'podman', not {engine!r}")
        self.gateway_url = gateway_url.rstrip("/")
        self.exposure = exposure
        self.engine = engine
        self.control_token_env = control_token_env
        self.timeout_s = float(timeout_s)
        self.gateway_session: dict[str, Any] | None = None
        self.verify_result: dict[str, Any] | None = None
        #: Seconds of the parts this environment sees (the episode record's ``timings``), and when it started.
        self.timings: dict[str, float | None] = {}
        self.started = time.perf_counter()
        self._renewer: asyncio.Task[None] | None = None
        super().__init__(*args, **kwargs)

    @staticmethod
    def type() -> str:
        """The environment type's name."""
        return "company-gateway"

    @property
    def task_id(self) -> str:
        """The gateway's task id: the name of the task folder (the parent of ``environment/``)."""
        return Path(self.environment_dir).resolve().parent.name

    @property
    def container(self) -> str:
        """The sandbox container's id.

        Raises:
            GatewayError: No session has been seeded yet.
        """
        if self.gateway_session is None:
            raise GatewayError("no gateway session: the environment has not been started")
        return str(self.gateway_session["sandbox"]["id"])

    def _validate_definition(self) -> None:
        if shutil.which(self.engine) is None:
            raise FileNotFoundError(f"the container engine's client {self.engine!r} is not on PATH")

    # ---- the control routes -------------------------------------------------------------------------

    async def control(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` to a control route; returns the JSON answer.

        Raises:
            GatewayError: The gateway could not be reached or answered an error status.
        """
        headers = {}
        token = os.environ.get(self.control_token_env)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            async with httpx.AsyncClient(timeout=self.timeout_s) as client:
                response = await client.post(f"{self.gateway_url}/{route}", json=body, headers=headers)
        except httpx.HTTPError as exc:
            raise GatewayError(f"{route}: the gateway at {self.gateway_url} could not be reached: {exc!r}") from exc
        if response.status_code >= 400:
            raise GatewayError(f"{route}: the gateway answered {response.status_code}: {response.text[:500]}")
        answer: dict[str, Any] = response.json()
        return answer

    async def start(self, force_build: bool) -> None:
        """Seed a session with a sandbox for this task (``force_build`` has no meaning here).

        Raises:
            GatewayError: The seed failed, or the gateway lent no container sandbox (its provider must be
                ``docker``, on the engine this host's ``DOCKER_HOST`` names).
        """
        body = {"task_id": self.task_id, "exposure": self.exposure, "sandbox": True}
        self.started = time.perf_counter()
        seeded = await self.control("seed_session", body)
        self.timings["seed_s"] = time.perf_counter() - self.started
        self.gateway_session = seeded
        sandbox = seeded.get("sandbox") or {}
        if sandbox.get("provider") != "docker":
            await self.control("close_session", {"session_id": seeded["session_id"]})
            raise GatewayError(f"the gateway lent a {sandbox.get('provider')!r} sandbox; Harbor needs a container: "
                               "serve the gateway with GATEWAY_SANDBOX_PROVIDER=docker on this host's engine")
        self.logger.info("session %s: sandbox container %s", seeded["session_id"], sandbox["id"])
        lease = seeded.get("lease_s")
        if isinstance(lease, int | float) and lease > 0:
            self._renewer = asyncio.create_task(self._renew(seeded["session_id"], lease / 3))
        await self._mkdir("/logs/agent")  # where Harbor's agents keep their logs; Harbor downloads it after a run

    async def verify_session(self) -> dict[str, Any]:
        """``/verify`` this trial's session once; later calls answer the same result."""
        if self.verify_result is None:
            if self.gateway_session is None:
                raise GatewayError("no gateway session to verify: the environment never started")
            started = time.perf_counter()
            self.verify_result = await self.control("verify", {"session_id": self.gateway_session["session_id"]})
            self.timings["verify_s"] = time.perf_counter() - started
            self.timings["total_s"] = time.perf_counter() - self.started
        return self.verify_result

    def episode(self, failure: str | None = None) -> dict[str, Any]:
        """The trial's episode record: the ``/verify`` answer (or ``failure``, why there is none) and timings."""
        seeded = self.gateway_session or {}
        return episode_record("harbor", self.task_id, self.verify_result, session_id=seeded.get("session_id"),
                              tools=list(seeded.get("tools") or []), timings=self.timings,
                              failure_kind="verify_error" if failure else None, failure_reason=failure)  # fmt: skip

    async def _renew(self, session_id: str, every_s: float) -> None:
        """Renew the session's lease every ``every_s`` seconds until ``stop`` (a failure is logged, then retried)."""
        while True:
            await asyncio.sleep(every_s)
            try:
                await self.control("renew_session", {"session_id": session_id})
            except GatewayError as exc:
                if " 404:" in str(exc) or " 409:" in str(exc):  # closed or forgotten: nothing left to keep
                    return
                self.logger.warning("renewing session %s failed: %s", session_id, exc)

    async def stop(self, delete: bool) -> None:
        """End the renewals and close the session (which destroys its sandbox); ``delete`` has no meaning here.

        A trial that ends before its verifier ran (the agent or its model failed) leaves a masked episode record
        (``failure_kind: "agent_error"``) in the verifier folder, so a run's records count every trial.
        """
        if self._renewer is not None:
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)
            self._renewer = None
        if self.gateway_session is None:
            return
        if self.verify_result is None:
            folder = Path(self.trial_paths.verifier_dir)
            if not (folder / "episode.json").exists():
                reason = "the trial ended before its verifier ran: the agent or its model failed (see its error)"
                self.timings["total_s"] = time.perf_counter() - self.started
                record = self.episode(reason)
                record["failure_kind"] = "agent_error"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "episode.json").write_text(json.dumps(record, ensure_ascii=False) + "\n")
        await self.control("close_session", {"session_id": self.gateway_session["session_id"]})

    # ---- commands and files in the sandbox ----------------------------------------------------------

    async def _engine_run(self, argv: list[str], timeout_sec: float | None = None) -> ExecResult:
        proc = await asyncio.create_subprocess_exec(
            self.engine, *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            stdin=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout=timeout_sec)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return ExecResult(stdout="", stderr=f"timed out after {timeout_sec} s", return_code=124)
        return ExecResult(stdout=out.decode(errors="replace"), stderr=err.decode(errors="replace"),
                          return_code=proc.returncode if proc.returncode is not None else -1)  # fmt: skip

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        """Run ``command`` with ``bash -c`` in the sandbox container; see ``BaseEnvironment.exec``.

        With ``timeout_sec``, the command is stopped inside the container (``timeout -k 5``) and the result has
        return code 124; the engine's client is given 10 s more.
        """
        argv = ["exec"]
        workdir = cwd or self.task_env_config.workdir
        if workdir:
            argv += ["-w", workdir]
        for key, value in (self._merge_env(env) or {}).items():
            argv += ["-e", f"{key}={value}"]
        resolved = self._resolve_user(user)
        if resolved is not None:
            argv += ["-u", str(resolved)]
        argv.append(self.container)
        if timeout_sec is not None:
            argv += ["timeout", "-k", "5", str(timeout_sec)]
        argv += ["bash", "-c", command]
        return await self._engine_run(argv, None if timeout_sec is None else timeout_sec + 10)

    async def _mkdir(self, path: str) -> None:
        result = await self.exec(f"mkdir -p {shlex.quote(path)}", user="root")
        if result.return_code != 0:
            raise GatewayError(f"cannot create {path!r} in the sandbox: {result.stderr}")

    async def _copy(self, source: str, target: str) -> None:
        result = await self._engine_run(["cp", source, target])
        if result.return_code != 0:
            raise GatewayError(f"{self.engine} cp {source} {target} failed: {result.stderr.strip()}")

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        """Copy a host file into the sandbox (parent folders are created)."""
        await self._mkdir(str(Path(target_path).parent))
        await self._copy(str(source_path), f"{self.container}:{target_path}")

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        """Copy a host folder's contents into ``target_dir`` in the sandbox."""
        await self._mkdir(target_dir)
        await self._copy(f"{source_dir}/.", f"{self.container}:{target_dir}")

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        """Copy a sandbox file to the host (parent folders are created)."""
        Path(target_path).parent.mkdir(parents=True, exist_ok=True)
        await self._copy(f"{self.container}:{source_path}", str(target_path))

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        """Copy a sandbox folder's contents into ``target_dir`` on the host."""
        Path(target_dir).mkdir(parents=True, exist_ok=True)
        await self._copy(f"{self.container}:{source_dir}/.", str(target_dir))


class CompanyGatewayVerifier(BaseVerifier):
    """The reward is the gateway's ``/verify`` answer for the trial's session.

    Writes that answer to ``verify.json``, the episode record to ``episode.json`` (one JSON line; also when
    the gateway cannot be reached: masked, ``failure_kind: "verify_error"``) and the reward to ``reward.txt``
    in the trial's verifier folder.

    Raises:
        TypeError: (from ``verify``) the trial's environment is not a ``CompanyGatewayEnvironment``.
        MaskedSession: (from ``verify``) the gateway masked the session.
    """

    async def verify(self) -> VerifierResult:
        """``/verify`` the session; returns ``{"reward": float}``."""
        environment = self.environment
        if not isinstance(environment, CompanyGatewayEnvironment):
            name = type(environment).__name__
            raise TypeError(f"CompanyGatewayVerifier needs a CompanyGatewayEnvironment, not {name}")
        folder = Path(self.trial_paths.verifier_dir)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            result = await environment.verify_session()
        except GatewayError as exc:
            (folder / "episode.json").write_text(json.dumps(environment.episode(str(exc)), ensure_ascii=False) + "\n")
            raise
        (folder / "verify.json").write_text(json.dumps(result, indent=2))
        (folder / "episode.json").write_text(json.dumps(environment.episode(), ensure_ascii=False) + "\n")
        if result.get("mask_sample"):
            raise MaskedSession(f"masked by the gateway: {result.get('failure_kind')}: {result.get('failure_reason')}")
        reward = float(result["reward"])
        (folder / "reward.txt").write_text(f"{reward}\n")
        return VerifierResult(rewards={"reward": reward})
