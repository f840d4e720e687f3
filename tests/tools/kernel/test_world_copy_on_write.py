"""Copy on write, record by record: a world's write never changes a state it shares with a template."""

import copy
from datetime import UTC, datetime

import pytest

from tools.kernel.world import AppState, Collection, Record, World, matching, snapshot_state


class Note(Record):
    id: str
    text: str
    tags: list[str] = []


class Notes(AppState):
    notes: dict[str, Note]
    colour: str = "blue"


def template() -> Notes:
    return Notes(notes={f"n{i}": Note(id=f"n{i}", text=f"note {i}") for i in range(5)})


def world_sharing(state: Notes) -> World:
    return World(datetime(2026, 3, 9, 9, tzinfo=UTC), "UTC", "a@x.example", {"notes": state}, shared={"notes"})


@pytest.fixture
def shared():
    state = template()
    return state, snapshot_state(state)


def test_a_write_copies_only_the_records_it_reaches(shared):
    state, before = shared
    world = world_sharing(state)
    old = world.begin_write("notes")
    notes = world.states["notes"].notes
    notes["n1"].text = "changed"
    notes["n2"].tags.append("urgent")
    world.end_write()
    assert old is state and snapshot_state(state) == before
    mine = world.states["notes"].notes
    assert isinstance(mine, Collection)
    assert mine["n1"].text == "changed" and mine["n2"].tags == ["urgent"]
    assert [mine[k] is state.notes[k] for k in sorted(mine)] == [True, False, False, True, True]
    assert "notes" not in world.shared


def test_a_scan_during_a_write_owns_only_the_records_it_keeps(shared):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    notes = world.states["notes"].notes
    (kept,) = matching(notes, lambda n: n.text == "note 3")
    kept.tags.append("urgent")
    world.end_write()
    assert snapshot_state(state) == before
    assert [notes[k] is state.notes[k] for k in sorted(notes)] == [True, True, True, False, True]
    assert notes["n3"].tags == ["urgent"] and matching({"a": 1, "b": 2}, lambda v: v > 1) == [2]


@pytest.mark.parametrize(
    "reach",
    [
        lambda c: c.values(),
        lambda c: [v for _, v in c.items()],
        lambda c: list(dict(c).values()),
        lambda c: list({**c}.values()),
        lambda c: list(c.copy().values()),
        lambda c: list(copy.copy(c).values()),
        lambda c: [c.get(k) for k in c],
        lambda c: [c.setdefault(k) for k in list(c)],
        lambda c: matching(c, lambda n: True),
    ],
    ids=["values", "items", "dict()", "unpacking", "copy", "copy.copy", "get", "setdefault", "matching"],
)
def test_every_way_of_reaching_records_during_a_write_gives_the_worlds_own(shared, reach):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    for note in reach(world.states["notes"].notes):
        note.text = "mine"
    world.end_write()
    assert snapshot_state(state) == before
    assert {n.text for n in world.states["notes"].notes.values()} == {"mine"}


def test_pop_and_delete_leave_the_shared_state_whole(shared):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    notes = world.states["notes"].notes
    popped = notes.pop("n0")
    popped.text = "moved"
    notes["m0"] = popped
    del notes["n1"]
    assert notes.pop("absent", None) is None
    world.end_write()
    assert snapshot_state(state) == before
    assert sorted(world.states["notes"].notes) == ["m0", "n2", "n3", "n4"]


def test_settings_are_copied_whole_and_reads_outside_a_write_copy_nothing(shared):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    world.states["notes"].colour = "red"
    world.end_write()
    notes = world.states["notes"].notes
    assert [notes[k] is state.notes[k] for k in sorted(notes)] == [True] * 5  # read: the shared records
    assert state.colour == "blue" and world.states["notes"].colour == "red"
    assert snapshot_state(state) == before


def test_rollback_puts_back_the_old_state_and_a_second_write_starts_from_the_first(shared):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "first"
    world.end_write()
    after_first = snapshot_state(world.states["notes"])
    old = world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "second"
    world.states["notes"].notes["n2"].text = "second"
    world.rollback("notes", old, shared=False)
    assert snapshot_state(world.states["notes"]) == after_first
    assert snapshot_state(state) == before
    world.rollback("notes", state, shared=True)
    assert world.states["notes"] is state and "notes" in world.shared


def test_a_world_copy_and_a_snapshot_see_plain_records(shared):
    state, _ = shared
    world = world_sharing(state)
    world.begin_write("notes")
    world.states["notes"].notes["n3"].text = "x"
    world.end_write()
    twin = world.copy()
    assert type(twin.states["notes"].notes) is dict
    twin.states["notes"].notes["n3"].text = "y"
    assert world.states["notes"].notes["n3"].text == "x"
    assert world.snapshot()["notes"]["notes"]["n3"]["text"] == "x"


def test_a_write_to_one_app_reads_another_apps_records_without_copying_them(shared):
    state, _ = shared
    other = template()
    world = World(datetime(2026, 3, 9, 9, tzinfo=UTC), "UTC", "a@x.example", {"notes": state, "other": other})
    world.begin_write("other")
    world.end_write()  # "other" now holds collections of its own
    world.begin_write("notes")
    seen = world.states["other"].notes["n1"]
    world.end_write()
    assert seen is world.states["other"].notes["n1"] is other.notes["n1"]


def world_over(state: Notes, dumped: dict, *others: str) -> World:
    states = {"notes": state, **{name: template() for name in others}}
    return World(
        datetime(2026, 3, 9, 9, tzinfo=UTC), "UTC", "a@x.example", states, shared=set(states),
        base={"notes": (state, dumped)},
    )  # fmt: skip


def test_a_snapshot_gives_the_templates_dump_of_what_the_world_never_wrote(shared):
    state, before = shared
    world = world_over(state, before, "other")
    snap = world.snapshot()
    assert snap["notes"] is before  # never written: the template's own dump
    assert snap["other"] == snapshot_state(world.states["other"])  # no template given: dumped
    world.begin_write("notes")
    world.states["notes"].notes["n2"].tags.append("urgent")
    world.states["notes"].colour = "red"
    world.end_write()
    snap = world.snapshot()
    assert snap["notes"] == snapshot_state(world.states["notes"])
    assert list(snap["notes"]) == list(snapshot_state(world.states["notes"]))
    assert snap["notes"]["notes"]["n1"] is before["notes"]["n1"]  # shared record: its template dump
    assert snap["notes"]["notes"]["n2"]["tags"] == ["urgent"] and before["notes"]["n2"]["tags"] == []
    assert snap["notes"]["_settings"] == {"_": {"colour": "red"}}


def test_a_written_collection_with_every_record_shared_is_the_templates_dump(shared):
    state, before = shared
    world = world_over(state, before)
    world.begin_write("notes")
    world.states["notes"].colour = "green"  # a setting only: no record reached
    world.end_write()
    assert world.snapshot()["notes"]["notes"] is before["notes"]
    world.begin_write("notes")
    world.states["notes"].notes["n9"] = Note(id="n9", text="new")
    world.end_write()
    snap = world.snapshot()["notes"]["notes"]
    assert snap is not before["notes"] and list(snap) == [*before["notes"], "n9"]


def test_a_records_copy_shares_nothing_it_could_change(shared):
    state, _ = shared
    world = world_sharing(state)
    world.begin_write("notes")
    mine = world.states["notes"].notes["n0"]
    mine.tags.append("x")
    mine.text = "y"
    world.end_write()
    assert state.notes["n0"].tags == [] and state.notes["n0"].text == "note 0"
    assert mine.model_fields_set == state.notes["n0"].model_fields_set | {"text"}
    assert type(mine) is Note and mine.model_dump() == {"id": "n0", "text": "y", "tags": ["x"]}


def test_a_view_read_during_a_write_takes_no_copies(shared):
    state, _ = shared
    world = world_sharing(state)
    world.begin_write("notes")
    with world.reading():
        seen = world.states["notes"].notes.values()
    reached = world.states["notes"].notes["n1"]
    world.end_write()
    assert [a is b for a, b in zip(seen, state.notes.values(), strict=True)] == [True] * 5
    assert reached is not state.notes["n1"]  # after the view, the write's reach copies again


def test_an_answer_past_the_cap_is_refused_and_says_how_to_ask_for_less():
    from typing import Any

    import pytest

    from tools.kernel.exceptions import AppError
    from tools.kernel.registry import MAX_ANSWER_CHARS, build_action

    def dump(ctx: Any, n: int = 1) -> dict[str, Any]:
        """Return n characters.

        Args:
            n: How many characters.
        """
        return {"text": "x" * n}

    action = build_action("demo", dump, read_only=True)
    assert action.invoke(None, {"n": 10}) == {"text": "x" * 10}  # type: ignore[arg-type]
    with pytest.raises(AppError, match="ask for less: a smaller page_size"):
        action.invoke(None, {"n": MAX_ANSWER_CHARS})  # type: ignore[arg-type]


def test_a_snapshot_without_a_write_since_the_last_reuses_it_and_a_write_or_rollback_is_seen(shared):
    state, before = shared
    world = world_over(state, before)
    world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "first"
    world.end_write()
    first = world.snapshot()
    again = world.snapshot()
    assert again["notes"] is first["notes"] and again["notes"]["notes"]["n1"]["text"] == "first"
    old = world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "second"
    during = world.snapshot()  # a snapshot while the write runs is never kept
    world.states["notes"].notes["n2"].text = "second"
    assert world.snapshot()["notes"]["notes"]["n2"]["text"] == "second" and during["notes"] is not first["notes"]
    world.end_write()
    assert world.snapshot()["notes"]["notes"]["n1"]["text"] == "second"
    world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "third"
    world.end_write()
    assert world.snapshot()["notes"]["notes"]["n1"]["text"] == "third"
    world.rollback("notes", old, shared=False)  # back to the state the first snapshots read
    assert world.snapshot()["notes"] == first["notes"]


def test_a_fork_goes_on_from_the_world_and_neither_sees_the_others_later_writes(shared):
    state, before = shared
    world = world_sharing(state)
    world.begin_write("notes")
    world.states["notes"].notes["n1"].text = "by the prefix"
    world.end_write()
    world.new_id("note")
    world.blobs.put(b"made before the fork")
    world.completion, world.answer = "done", "42"
    made = world.snapshot()
    fork = world.fork()
    assert world.shared == fork.shared == {"notes"}  # both copy on write from here
    assert fork.snapshot() == made and fork.new_id("note") == world.new_id("note") == "note_n2"
    assert (fork.completion, fork.answer, fork.blobs.own_ids()) == ("done", "42", world.blobs.own_ids())
    fork.begin_write("notes")
    fork.states["notes"].notes["n1"].text = "by the fork"
    fork.states["notes"].notes["n3"].tags.append("fork")
    fork.end_write()
    fork.blobs.put(b"the fork's own")
    assert world.snapshot() == made and len(world.blobs.own_ids()) == 1
    world.begin_write("notes")
    world.states["notes"].notes["n3"].text = "by the world"
    world.end_write()
    assert fork.states["notes"].notes["n3"].text == "note 3" and fork.states["notes"].notes["n1"].text == "by the fork"
    assert snapshot_state(state) == before


def test_a_world_cannot_be_forked_during_a_write(shared):
    world = world_sharing(shared[0])
    world.begin_write("notes")
    with pytest.raises(RuntimeError, match="while it writes to 'notes'"):
        world.fork()
