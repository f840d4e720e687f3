"""``company-gateway gym-export``: write a NeMo Gym resources server that forwards to a running gateway.

The folder it writes, ``DIR/resources_servers/company_gateway/``, is what Gym finds through
``--search-dir DIR`` (or ``NEMO_GYM_EXTRA_ROOTS``)::

    app.py                                   the resources server (imports nemo_gym and httpx only)
    requirements.txt                         what Gym installs into the server's venv
    configs/company_gateway.yaml             company_gateway, company_gateway_simple_agent,
                                             company_gateway_environment_server (legacy_agent)
    configs/company_gateway_single_agent_turn.yaml
                                             the same behind single_agent_turn_legacy, agent
                                             company_gateway_session_agent
    data/tasks.jsonl                         one row per task: task_id, responses_create_params
    README.md

The server's source ships beside this module (``gym_server/``); it never imports the gateway (Gym pins
``mcp<2``, this project needs ``mcp>=2``), so the two run in separate venvs and talk over HTTP.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from gateway.control.rows import Task, load_builtin_tasks, load_tasks
from gateway.exceptions import TaskError
from tools import COMPLETE_TASK, REGISTRY, Action

__all__ = ["SERVER_NAME", "SPLITS", "export_gym", "gym_row", "select_tasks"]

#: The folder and instance name users type in Gym configs.
SERVER_NAME = "company_gateway"
#: The agent folder the export writes beside it (``responses_api_agents/<AGENT_NAME>/``).
AGENT_NAME = "company_gateway_agent"
#: The values ``--split`` takes.
SPLITS = ("train", "validation", "test")
#: Files copied as they are from ``gym_server/`` (source name, destination under the server folder).
_FILES = (
    ("app.py", "app.py"),
    ("requirements.txt", "requirements.txt"),
    ("README.md", "README.md"),
    ("company_gateway.yaml", "configs/company_gateway.yaml"),
    ("company_gateway_single_agent_turn.yaml", "configs/company_gateway_single_agent_turn.yaml"),
)


def select_tasks(values: Sequence[str] | None, split: str | None) -> list[Task]:
    """The tasks to export: ``--tasks`` values (ids, comma-separated or repeated, or JSONL files), or a split.

    Args:
        values: Task ids and JSONL files of task rows; None or empty: every built-in task.
        split: ``train``, ``validation`` or ``test``: keep the tasks of that split (a row without a
            ``split`` field is ``train``); None keeps all.

    Returns:
        The tasks, in the order named (built-in order when none are named).

    Raises:
        TaskError: an unknown id, an invalid row or file, an unknown split, or nothing left to export.
    """
    if split is not None and split not in SPLITS:
        raise TaskError(f"--split: {split!r} is not a split; use one of {', '.join(SPLITS)}")
    builtin = load_builtin_tasks()
    items = [part.strip() for v in values or [] for part in v.split(",") if part.strip()]
    chosen: dict[str, Task] = {}
    unknown: list[str] = []
    for item in items:
        if item.endswith(".jsonl") or Path(item).is_file():
            chosen.update(load_tasks(item))
        elif item in builtin:
            chosen[item] = builtin[item]
        else:
            unknown.append(item)
    if unknown:
        raise TaskError(f"--tasks: no task {', '.join(map(repr, unknown))}; 'company-gateway tasks' lists them")
    tasks = list(chosen.values()) if items else list(builtin.values())
    if split is not None:
        tasks = [t for t in tasks if (getattr(t, "split", None) or "train") == split]
    if not tasks:
        raise TaskError(f"no task to export (--tasks {','.join(items) or 'all'}, --split {split or 'any'})")
    return tasks


def _function_tool(action: Action) -> dict[str, Any]:
    """A Responses-API function tool for ``action`` (``strict: false``: the schemas are not strict-mode shaped)."""
    return {
        "type": "function",
        "name": action.tool_name,
        "description": action.description,
        "parameters": action.input_schema,
        "strict": False,
    }


def gym_row(task: Task) -> dict[str, Any]:
    """One ``data/tasks.jsonl`` row: ``task_id`` and ``responses_create_params``.

    ``responses_create_params`` holds the instruction as the user message and the function tools of the
    task's apps (``company_<app>_<action>``) plus ``company_complete_task``, the tools a session lends.
    """
    tools = [_function_tool(a) for a in REGISTRY.actions(task.apps)] + [_function_tool(COMPLETE_TASK)]
    return {
        "task_id": task.id,
        "responses_create_params": {"input": [{"role": "user", "content": task.instruction}], "tools": tools},
    }


def export_gym(directory: Path, tasks: Sequence[Task]) -> Path:
    """Write the resources server for ``tasks``, and the agent its configs name, under ``directory``.

    Args:
        directory: The Gym search root; created if missing. An earlier export there is replaced.
        tasks: The rows of ``data/tasks.jsonl``, in order; the gateway must serve them by id.

    Returns:
        ``directory/resources_servers/company_gateway`` (the agent: ``directory/responses_api_agents/
        company_gateway_agent``).

    Raises:
        OSError: the folder cannot be written.
    """
    server = directory / "resources_servers" / SERVER_NAME
    if server.exists():
        shutil.rmtree(server)
    (server / "configs").mkdir(parents=True)
    (server / "data").mkdir()
    source = resources.files("gateway.runners") / "gym_server"
    for name, destination in _FILES:
        (server / destination).write_text((source / name).read_text(encoding="utf-8"), encoding="utf-8")
    agent = directory / "responses_api_agents" / AGENT_NAME
    if agent.exists():
        shutil.rmtree(agent)
    agent.mkdir(parents=True)
    (agent / "app.py").write_text((source / "agent_app.py").read_text(encoding="utf-8"), encoding="utf-8")
    (agent / "requirements.txt").write_text((source / "requirements.txt").read_text(encoding="utf-8"), encoding="utf-8")
    rows = "".join(json.dumps(gym_row(t), ensure_ascii=False) + "\n" for t in tasks)
    (server / "data" / "tasks.jsonl").write_text(rows, encoding="utf-8")
    return server
