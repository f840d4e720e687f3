"""``company-gateway harbor-export``: Harbor task folders whose trials run in a gateway session's sandbox.

The export is a folder Harbor runs as is::

    DIR/
      company_gateway_harbor.py   the environment and verifier classes (Harbor's venv imports it: PYTHONPATH=DIR)
      job.yaml                    a Harbor job config: the tasks folder, those two classes, the gateway's URL
      tasks/<task_id>/
        task.toml                 Harbor's task config (name, timeouts)
        instruction.md            the task's instruction
        environment/README.md     why there is no Dockerfile: the gateway lends the sandbox
        tests/test.sh             fails loudly: grading happens on Harbor's side, through /verify

Why an environment class rather than Harbor's podman or docker environment: the sandbox must be the session's
own (its app commands, workspace and ``COMPANY_API_*``, the control routes out of reach), and only the gateway
can lend it; a Harbor-built container would need the session's socket and token found and bound in from
outside. The class seeds at ``start``, runs every command in the lent container, and its verifier asks
``/verify`` from the host, where the control routes answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from gateway.control.rows import Task

__all__ = ["ADAPTER_MODULE", "export_harbor", "pick_tasks"]

#: The module Harbor imports (``--env company_gateway_harbor:CompanyGatewayEnvironment``).
ADAPTER_MODULE = "company_gateway_harbor"

_TEST_SH = """#!/bin/sh
# This task is graded outside the container. Run it with the job config next to the tasks folder.
echo "no local grader for this task" >&2
exit 1
"""
_ENVIRONMENT_README = """There is no Dockerfile: the environment class in ../../../company_gateway_harbor.py
starts each trial in a sandbox that the company service lends.
"""


def pick_tasks(tasks: dict[str, Task], ids: Iterable[str] | None = None) -> list[Task]:
    """The tasks to export, in id order.

    Args:
        tasks: The tasks to choose from by id (already narrowed by ``--split`` and ``--family``).
        ids: Task ids to keep (all when ``None``).

    Raises:
        ValueError: An id is not among ``tasks``, or nothing is left to export.
    """
    chosen = list(tasks.values())
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        unknown = [i for i in wanted if i not in tasks]
        if unknown:
            raise ValueError(f"--tasks names task ids not among the selected tasks: {', '.join(unknown)[:200]} "
                             "(see `company-gateway tasks`, with the same --split/--family)")  # fmt: skip
        chosen = [tasks[i] for i in wanted]
    if not chosen:
        raise ValueError("no task to export: nothing matches --tasks/--split/--family")
    return sorted(chosen, key=lambda t: t.id)


def _task_toml(task: Task, agent_timeout_s: float) -> str:
    # JSON strings are valid TOML basic strings for the text used here (ids and plain words).
    return "\n".join([
        'schema_version = "1.4"',
        "",
        "[task]",
        f"name = {json.dumps('company/' + task.id)}",
        'version = "1.0.0"',
        f"keywords = {json.dumps(sorted(task.apps))}",
        "",
        "[verifier]",
        "timeout_sec = 120.0",
        "",
        "[agent]",
        f"timeout_sec = {float(agent_timeout_s)}",
        "",
        "[environment]",
        "build_timeout_sec = 120.0",
        'os = "linux"',
        "",
    ])  # fmt: skip


def export_harbor(
    out: str | Path, tasks: list[Task], gateway_url: str, exposure: str = "cli", agent_timeout_s: float = 600.0
) -> list[Path]:
    """Write the export (see the module docstring) into ``out``; returns the task folders written.

    Args:
        out: The folder to write; created if missing. Existing task folders of the same ids are overwritten.
        tasks: The tasks to export (see ``pick_tasks``).
        gateway_url: The running gateway's base URL that Harbor's process reaches, e.g. ``http://127.0.0.1:8000``.
        exposure: How the agent's shell reaches the apps: ``"cli"`` (app commands) or ``"http"`` (curl).
        agent_timeout_s: Seconds Harbor gives the agent per trial.

    Raises:
        ValueError: ``gateway_url`` is not an http(s) URL, ``exposure`` is unknown, ``agent_timeout_s`` is not
            positive, or ``tasks`` is empty.
        OSError: The folder cannot be written.
    """
    if not gateway_url.startswith(("http://", "https://")):
        raise ValueError(f"--gateway-url must be an http(s) URL such as http://127.0.0.1:8000, not {gateway_url!r}")
    if exposure not in ("cli", "http"):
        raise ValueError(f"--exposure must be 'cli' or 'http' (a shell agent needs a shell way in), not {exposure!r}")
    if agent_timeout_s <= 0:
        raise ValueError(f"--agent-timeout must be above 0 seconds, not {agent_timeout_s}")
    if not tasks:
        raise ValueError("no task to export")
    root = Path(out)
    folders = []
    for task in tasks:
        folder = root / "tasks" / task.id
        (folder / "environment").mkdir(parents=True, exist_ok=True)
        (folder / "tests").mkdir(exist_ok=True)
        (folder / "task.toml").write_text(_task_toml(task, agent_timeout_s))
        (folder / "instruction.md").write_text(task.instruction.rstrip() + "\n")
        (folder / "environment" / "README.md").write_text(_ENVIRONMENT_README)
        (folder / "tests" / "test.sh").write_text(_TEST_SH)
        (folder / "tests" / "test.sh").chmod(0o755)
        folders.append(folder)
    module = resources.files("gateway.runners").joinpath("harbor_files", f"{ADAPTER_MODULE}.py").read_text()
    (root / f"{ADAPTER_MODULE}.py").write_text(module)
    job = {
        "jobs_dir": "jobs",
        "datasets": [{"path": str((root / "tasks").resolve())}],
        "environment": {
            "import_path": f"{ADAPTER_MODULE}:CompanyGatewayEnvironment",
            "kwargs": {"gateway_url": gateway_url.rstrip("/"), "exposure": exposure},
            "delete": True,
        },
        "verifier": {"import_path": f"{ADAPTER_MODULE}:CompanyGatewayVerifier"},
    }
    (root / "job.yaml").write_text(json.dumps(job, indent=2) + "\n")  # JSON is YAML; Harbor reads either
    return folders
