"""A sandbox-less session's calls run on the event loop until it has written much text, then in a worker thread."""

import threading

import pytest

from gateway import Gateway, Settings
from gateway.control import core
from gateway.control.rows import load_builtin_tasks
from tools import AppError
from tools.kernel.registry import Action

TASKS = load_builtin_tasks(families=False)


def _record_threads(monkeypatch) -> list[tuple[str, int]]:
    """``(tool, thread id)`` of every action run from now on, in order."""
    threads: list[tuple[str, int]] = []
    invoke = Action.invoke

    def recorded(self, ctx, arguments):
        threads.append((self.tool_name, threading.get_ident()))
        return invoke(self, ctx, arguments)

    monkeypatch.setattr(Action, "invoke", recorded)
    return threads


async def test_a_session_that_wrote_much_text_has_its_calls_run_off_the_loop(monkeypatch):
    monkeypatch.setattr(core, "OFF_LOOP_WRITTEN_CHARS", 3000)
    monkeypatch.setattr(core, "SLOW_ON_LOOP_S", 60.0)  # no tool is marked slow here (see the next test)
    calls = _record_threads(monkeypatch)
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "mcp"}, "http://127.0.0.1:1/")
    session = gw.get_session(info["session_id"])
    loop = threading.get_ident()
    await gw.call(session, "company_drive_create_file", {"name": "a.txt", "content": "a" * 2000})
    await gw.call(session, "company_drive_create_file", {"name": "b.txt", "content": "b" * 2000})
    found = await gw.call(session, "company_drive_search_files", {"query": "a.txt"})
    threads = [thread for _, thread in calls]
    assert threads[:2] == [loop, loop]  # up to 3,000 characters written: on the loop
    assert threads[2] != loop  # 4,000 written: in a worker thread
    assert [r["name"] for r in found["results"]] == ["a.txt"]
    # A refused write from the thread changes nothing, as on the loop.
    before = session.world.snapshot()
    with pytest.raises(AppError):
        await gw.call(session, "company_drive_create_file", {"name": "c.txt", "content": "c", "parent_id": "nope"})
    assert session.world.snapshot() == before and calls[3][1] != loop


async def test_a_tool_that_once_held_the_loop_too_long_runs_off_it_for_every_session(monkeypatch):
    monkeypatch.setattr(core, "SLOW_ON_LOOP_S", 0.0)  # every call "too long": the first of each tool marks it
    threads = _record_threads(monkeypatch)
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    first, second = [
        gw.get_session((await gw.seed({"task_id": "drive-share-offsite-agenda"}, "http://127.0.0.1:1/"))["session_id"])
        for _ in range(2)
    ]
    loop = threading.get_ident()
    await gw.call(first, "company_drive_search_files", {"query": "agenda"})
    await gw.call(second, "company_drive_search_files", {"query": "budget"})
    await gw.call(second, "company_drive_list_shared_drives", {})
    search = "company_drive_search_files"
    assert threads == [(search, loop), (search, threads[1][1]), ("company_drive_list_shared_drives", loop)]
    assert threads[1][1] != loop


async def test_a_lent_sessions_call_runs_on_the_loop_until_it_reaches_for_the_workspace(monkeypatch, tmp_path):
    from sandbox.local import LocalProvider

    monkeypatch.setattr(core, "SLOW_ON_LOOP_S", 60.0)
    threads = _record_threads(monkeypatch)
    gw = Gateway(Settings(seed_slice_s=0), TASKS, LocalProvider(tmp_path, owner="t"))
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "cli"}, "http://127.0.0.1:1/")
    session = gw.get_session(info["session_id"])
    assert session.sandbox is not None
    await gw.provider.write_files(session.sandbox, {"notes.txt": b"offsite notes"})
    loop = threading.get_ident()
    await gw.call(session, "company_drive_search_files", {"query": "agenda"}, surface="cli")
    made = await gw.call(session, "company_drive_upload_file", {"path": "notes.txt"}, surface="cli")
    again = await gw.call(session, "company_drive_upload_file", {"path": "notes.txt", "name": "n2.txt"}, surface="cli")
    upload = "company_drive_upload_file"
    assert threads[0] == ("company_drive_search_files", loop)  # no file touched: on the loop
    assert threads[1] == (upload, loop) and threads[2][0] == upload and threads[2][1] != loop  # undone, run off it
    assert threads[3][0] == upload and threads[3][1] != loop  # once it reached for files: straight off the loop
    names = [f["name"] for f in session.world.snapshot()["drive"]["files"].values() if f["name"].startswith("n")]
    assert sorted(names) == ["n2.txt", "notes.txt"] and made["name"] == "notes.txt" and again["name"] == "n2.txt"
