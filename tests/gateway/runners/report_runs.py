"""A real ``company-gateway rollout`` with a scripted model whose episodes are right, wrong and masked.

For the report's tests and its bench (``python -m bench.report``). Each task gets a script by its place
in the list (:data:`SCRIPTS`, repeated): the reference solution (right), its first negative control as
:func:`gateway.runners.policies.steps_for` gives it (wrong), right or a text answer on alternate repeats
(``half``: a task with variance), a text answer (wrong), a bad parameter first, a tool that was not offered
first, a model endpoint that fails (masked, at once or after one call), and a loop cut at ``max_steps``.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from gateway import Settings, create_app
from gateway.control.rows import Task, load_builtin_tasks
from gateway.runners.cli import main
from gateway.runners.policies import steps_for
from tests.gateway.fake_model import FakeModel, fake_in_thread, serve_in_thread

#: Scripts by task place (cycled): 9 right-ish of 20, 4 wrong, 2 mixed, 3 masked, 1 loop.
SCRIPTS = ("oracle", "control", "half", "oracle", "stumble", "oracle", "500", "control", "oracle", "no_tool_call",
           "unoffered", "oracle", "500@1", "half", "oracle", "control", "loop", "oracle", "500", "oracle")  # fmt: skip

#: Most model calls per episode in these runs (the ``loop`` script ends there).
MAX_STEPS = 6


class PolicyModel(FakeModel):
    """The scripted model, with ``control`` (the first negative control) and ``half`` scripts added."""

    def __init__(self, tasks: dict[str, Task], modes: dict[str, str]) -> None:
        played = {}
        for task_id, task in tasks.items():
            if modes.get(task_id) == "control":  # the fake plays a row's solution: give it the control's steps
                control = f"control:{task.negative_controls[0].name}"
                task = task.model_copy(update={"solution": steps_for(task, control)})
                modes[task_id] = "oracle"
            played[task_id] = task
        super().__init__(played)
        self.modes.update(modes)
        self._firsts: Counter[str] = Counter()

    def _next(self, instruction: str, outputs: list[str], model: str) -> tuple[str, Any]:
        task = self.by_instruction.get(instruction)
        if task is not None and self.modes.get(task.id) == "half" and not outputs:
            self._firsts[task.id] += 1
            if self._firsts[task.id] % 2 == 0:
                return "text", "I could not find what was asked for."
        return super()._next(instruction, outputs, model)


def pick_tasks(count: int) -> dict[str, Task]:
    """``count`` hand-written tasks that have a negative control, in id order, spread over the apps."""
    rows = load_builtin_tasks(families=False)
    usable = sorted((t for t in rows.values() if t.negative_controls and t.solution), key=lambda t: (t.apps, t.id))
    step = max(1, len(usable) // count)
    chosen = usable[::step][:count]
    if len(chosen) < count:
        raise ValueError(f"only {len(chosen)} hand-written tasks with a negative control; asked for {count}")
    return {t.id: t for t in chosen}


@contextlib.contextmanager
def served(tasks: dict[str, Task], scripts: Sequence[str] = SCRIPTS) -> Iterator[tuple[str, str]]:
    """A gateway serving ``tasks`` and the scripted model, each in its own thread: (gateway URL, model URL)."""
    modes = {task_id: scripts[i % len(scripts)] for i, task_id in enumerate(tasks)}
    with serve_in_thread(create_app(Settings(), tasks)) as gateway, fake_in_thread(PolicyModel(tasks, modes)) as model:
        yield gateway, model


def make_run(out: Path, count: int = 20, repeats: int = 10, concurrency: int = 4,
             scripts: Sequence[str] = SCRIPTS) -> dict[str, str]:  # fmt: skip
    """Run ``company-gateway rollout`` over ``count`` tasks x ``repeats``; write its JSONL to ``out``.

    Returns:
        The script each task was given, by task id.

    Raises:
        RuntimeError: the command did not exit 0.
    """
    tasks = pick_tasks(count)
    os.environ.setdefault("REPORT_RUN_KEY", "k")
    with served(tasks, scripts) as (gateway, model):
        status = main(["rollout", "--tasks", ",".join(tasks), "--repeats", str(repeats), "--base-url", model,
                       "--model", "oracle", "--api-key-env", "REPORT_RUN_KEY", "--gateway-url", gateway,
                       "--output", str(out), "--no-progress", "--max-retries", "0", "--timeout", "20",
                       "--max-steps", str(MAX_STEPS), "--concurrency", str(concurrency)])  # fmt: skip
    if status != 0:
        raise RuntimeError(f"rollout exited {status}")
    return {t: scripts[i % len(scripts)] for i, t in enumerate(tasks)}
