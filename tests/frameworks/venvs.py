"""The frameworks' own venvs (installed by scripts/install-*.sh under ~/.cache/company-gateway) and helpers to run
their commands: a venv that is missing skips the test with the command to install it, and fails under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path

import anyio
import pytest

from gateway.control.rows import Task

REPO = Path(__file__).resolve().parents[2]
CACHE = Path.home() / ".cache" / "company-gateway"


def venv_bin(folder: str, script: str, command: str = "python") -> Path:
    """``CACHE/folder/bin``, holding ``command``; skips (fails under ``CI=true``) when it is not installed."""
    bin_dir = CACHE / folder / "bin"
    if not (bin_dir / command).is_file():
        reason = f"{bin_dir / command} is missing; run `bash scripts/{script}`"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
        pytest.skip(reason)
    return bin_dir


def framework_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment without its venv (the framework's command runs from its own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"))}
    env.update(extra or {})
    return env


def free_port() -> int:
    """A loopback port nobody listens on (for an unreachable URL, or a server the test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listing(tasks: list[Task]) -> str:
    """What ``company-gateway tasks --json`` prints for ``tasks``: one JSON object per line."""
    keys = ("task_id", "apps", "exposure", "family", "split", "tier", "instruction")
    rows = [{k: v for k, v in {"task_id": t.id, **t.model_dump()}.items() if k in keys} for t in tasks]
    return "".join(json.dumps(r) + "\n" for r in rows)


async def run(argv: list[str], cwd: Path, env: dict[str, str], timeout_s: float) -> tuple[int, str]:
    """Run ``argv`` to its end (at most ``timeout_s``); its exit code and its output (stdout and stderr)."""
    with anyio.fail_after(timeout_s):
        done = await anyio.run_process(argv, cwd=cwd, env=env, check=False, stderr=subprocess.STDOUT)
    return done.returncode, done.stdout.decode(errors="replace")
