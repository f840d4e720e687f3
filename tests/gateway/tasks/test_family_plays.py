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
    from gateway.control.workspace import sandbox_tools

    settings = Settings()
    gw = Gateway(settings, {task.id: task}, LocalProvider(tmp_path / "ws", owner="test", tools=sandbox_tools(settings)))
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


async def test_a_forwards_note_may_cite_the_deadline_the_requester_set(tmp_path):
    task = family_task("gmail-quote-award-rollout")  # the deadline is in the request (and Dmitri's mail)
    said = ("Hi Zeynep, we're going with Tailspin Print's quote: $22,550, delivery by January 29 - the cheapest that"
            " meets the {} deadline. Could you approve it?")  # fmt: skip
    forward = {"note": said.format("February 3")}
    reward, checks = await _reward(task, _with(task, "gmail.forward_message", forward), tmp_path)
    assert reward == 1.0, checks
    forward = {"note": said.format("February 9")}  # a date no message the task involves gives
    reward, checks = await _reward(task, _with(task, "gmail.forward_message", forward), tmp_path / "wrong")
    assert reward == 0.0 and "gives 2026-02-09, which no message the task involves does" in checks[-1]["detail"]


async def test_hours_asked_as_numbers_fail_as_text_cells(tmp_path):
    task = family_task("onedrive-timesheet-overtime", 1)  # "Hours as numbers, please"
    assert "as numbers" in task.instruction.lower()
    (control,) = [c for c in task.negative_controls if c.name == "hours-as-text"]
    assert "str(hours)" in str(control.steps)  # the cells read '44.5' and '4.5', as text
    reward, checks = await _reward(task, control.steps, tmp_path)
    assert reward == 0.0, checks
    reward, checks = await _reward(task, task.solution, tmp_path / "ref")
    assert reward == 1.0, checks


def test_a_text_cell_stands_for_a_number_only_where_numbers_are_not_asked_for():
    from gateway.grading.operators import match_value
    from gateway.tasks.kit.docwork import table_check

    for numbers, text_passes in ((False, True), (True, False)):
        (want,) = table_check("", [{"Hours": 44.5}], numbers=numbers)["table_rows"]["rows"]
        assert match_value(44.5, want["Hours"]) and not match_value(44, want["Hours"])
        assert match_value("44.5", want["Hours"]) is text_passes


def test_every_namesake_dm_describes_exactly_one_colleague():
    from tools.companies import GENERATED

    family = families()["slack-namesake-dm"]
    rows = [instance_row(family, company(key), seed) for key in GENERATED for seed in range(family.seeds)]
    assert len(rows) == 143
    for row in rows:
        people = list(company(row["world"]["fixture"]).people.values())
        user = company(row["world"]["fixture"]).user
        right = next(s for s in row["solution"] if s["tool"] == "directory.get_person")["args"]["person"]
        me = next(p for p in people if p["email"] == right)
        first = me["name"].split()[0]
        named = [p for p in people if p["name"].split()[0].lower() == first.lower() and p["email"] != user]
        said = row["instruction"]
        if "#proj-" in said or "(the one on Project" in said:
            (chan,) = [c for c in row["world"]["overrides"]["slack"]["channels"].values()
                       if c.get("name", "").startswith("proj-")]  # fmt: skip
            fits = [p for p in named if p["email"] in chan["members"]]
        elif "reports to" in said or f"'s {first}" in said:
            fits = [p for p in named if p.get("manager") == me.get("manager")]
        else:
            fits = [p for p in named if p["department"] == me["department"]]
            assert me["department"] in said, row["id"]
        assert [p["email"] for p in fits] == [right], (row["id"], said, [p["email"] for p in fits])


def _with_total(task: Task, extra: str) -> list[Step]:
    """The reference with its memo script adding a last row ``All regions`` holding ``sum + extra``."""
    row = (f"cells = table.add_row().cells\ncells[0].text = 'All regions'\n"
           f"cells[1].text = '%.2f' % (sum(totals[r] for r in keep) / 100 + {extra})\n")  # fmt: skip
    steps = []
    for step in task.solution:
        if step.shell and "memo.save" in step.shell:
            step = step.model_copy(update={"shell": step.shell.replace("os.makedirs('out'", row + "os.makedirs('out'")})
        steps.append(step)
    return steps


async def test_a_memo_with_a_grand_total_row_passes_unless_one_row_per_region_is_asked(tmp_path):
    task = family_task("drive-sales-region-memo", 1)
    assert "row per region" not in task.instruction
    reward, checks = await _reward(task, _with_total(task, "0"), tmp_path)
    assert reward == 1.0, checks
    reward, checks = await _reward(task, _with_total(task, "1"), tmp_path / "wrong")  # a total that is not the sum
    assert reward == 0.0, checks
    family = families()["drive-sales-region-memo"]
    asked = next(t for s in range(family.seeds) if "row per region" in (t := family_task(family.name, s)).instruction)
    reward, checks = await _reward(asked, _with_total(asked, "0"), tmp_path / "asked")
    assert reward == 0.0, checks
