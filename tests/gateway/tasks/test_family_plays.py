"""Plays of family rows that once scored unfairly (or a trick that scored 1.0), each with its verdict.

Each plays a family's reference through the control plane with one step changed, the way a person did it.
"""

from __future__ import annotations

from typing import Any

from gateway import Gateway, Settings
from gateway.control.rows import Step, Task, parse_task
from gateway.runners.prove import _play
from gateway.tasks.loader import families, instance_row
from sandbox.local import LocalProvider
from tools.companies import company


def family_task(name: str, seed: int = 0, key: str = "gen-1") -> Task:
    return parse_task(instance_row(families()[name], company(key), seed))


def _with(task: Task, tool: str, args: dict[str, Any]) -> list[Step]:
    """The reference with the first ``tool`` step's ``args`` updated."""
    steps: list[Step] = []
    done = False
    for step in task.solution:
        if step.tool == tool and not done:
            done = True
            steps.append(step.model_copy(update={"args": {**step.args, **args}}))
        else:
            steps.append(step)
    assert done, tool
    return steps


async def _play_steps(task: Task, steps: list[Step], tmp_path) -> Any:
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    return await _play(gw, task, task.exposure, steps)


async def _reward(task: Task, steps: list[Step], tmp_path) -> tuple[float, list]:
    play = await _play_steps(task, steps, tmp_path)
    assert play.error is None, play.error
    return play.reward, play.checks


async def test_an_offsite_in_any_free_room_that_seats_the_team_passes(tmp_path):
    task = family_task("calendar-offsite-planning")
    # the company's own Denver room, seating 8 for a team of 4, free then: "a room big enough"
    reward, checks = await _reward(task, _with(task, "calendar.create_event", {"room": "Denver Commons"}), tmp_path)
    assert reward == 1.0, checks


async def test_an_offsite_room_too_small_for_the_team_is_neither_bookable_nor_accepted(tmp_path):
    task = family_task("calendar-offsite-planning")
    (check,) = [c for c in task.model_dump()["checks"] if c["name"] == "offsite_booked"]
    accepted = set(check["where"]["room"]["in"])
    row = instance_row(families()["calendar-offsite-planning"], company("gen-1"), 0)
    rooms = {**row["world"]["overrides"]["calendar"]["rooms"]}
    size = len(next(s for s in task.solution if s.tool == "calendar.create_event").args["attendees"]) + 1
    small = [r for r in rooms.values() if r["capacity"] < size]
    assert small and not accepted & {r["id"] for r in small}
    play = await _play_steps(task, _with(task, "calendar.create_event", {"room": small[0]["name"]}), tmp_path)
    assert play.error and "seats" in play.error


def _without(task: Task, tool: str) -> list[Step]:
    """The reference without its ``tool`` steps."""
    return [s for s in task.solution if s.tool != tool]


async def test_a_permitted_forward_without_the_reply_in_the_thread_scores_zero(tmp_path):
    task = family_task("gmail-forward-confidential-label")  # the twin: "2. Reply to Selin in the thread"
    assert any(s.tool == "gmail.forward_message" for s in task.solution)
    reward, checks = await _reward(task, _without(task, "gmail.reply_to_message"), tmp_path)
    assert reward == 0.0, checks
    assert "skips-the-reply" in {c.name for c in task.negative_controls}


async def test_a_permitted_share_without_the_reply_in_the_thread_scores_zero(tmp_path):
    task = family_task("drive-payroll-outside-share")  # the twin: "2. Reply to Yara in the thread"
    assert any(s.tool == "drive.share_file" for s in task.solution)
    reward, checks = await _reward(task, _without(task, "gmail.reply_to_message"), tmp_path)
    assert reward == 0.0, checks
    reference, checks = await _reward(task, task.solution, tmp_path / "ref")
    assert reference == 1.0, checks
