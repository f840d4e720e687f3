"""Per-session quotas on the file content a session adds and the records it creates; a refused write changes nothing."""

import pytest

from gateway import Gateway, Settings
from gateway.control.core import QuotaExceeded
from gateway.control.rows import load_builtin_tasks
from tests.conftest import banned_words

TASKS = load_builtin_tasks()
BASE = "http://127.0.0.1:1/"
CREATE = "company_drive_create_file"
FOLDER = "company_drive_create_folder"


async def session_of(**settings):
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none", **settings), TASKS)
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "mcp"}, BASE)
    return gw, gw.get_session(info["session_id"])


async def test_a_write_past_the_stored_bytes_quota_is_refused_naming_the_limit_and_changes_nothing():
    gw, session = await session_of(session_max_stored_bytes=2048)
    await gw.call(session, CREATE, {"name": "a.txt", "content": "a" * 1500})
    before, calls = session.world.snapshot(), session.calls
    with pytest.raises(QuotaExceeded) as err:
        await gw.call(session, CREATE, {"name": "b.txt", "content": "b" * 1000})
    text = str(err.value)
    assert text.startswith("storage limit reached: this account may add at most 2 KiB of file content (2,048 bytes)")
    assert "bring it to 2.4 KiB" in text and "nothing was saved" in text and banned_words(text) == []
    assert session.world.snapshot() == before
    assert session.world.blobs.own_size() == 1500
    assert session.calls == calls + 1 and session.last_call is not None and session.last_call["ok"] is False
    small = await gw.call(session, CREATE, {"name": "c.txt", "content": "c" * 500})
    assert small["name"] == "c.txt" and session.world.blobs.own_size() == 2000


async def test_content_already_stored_costs_nothing_against_the_stored_bytes_quota():
    gw, session = await session_of(session_max_stored_bytes=1000)
    await gw.call(session, CREATE, {"name": "a.txt", "content": "same" * 250})
    again = await gw.call(session, CREATE, {"name": "copy of a.txt", "content": "same" * 250})
    assert again["name"] == "copy of a.txt" and session.world.blobs.own_size() == 1000


async def test_a_write_past_the_new_records_quota_is_refused_naming_the_limit_and_changes_nothing():
    gw, session = await session_of(session_max_new_records=2)
    await gw.call(session, FOLDER, {"name": "One"})
    await gw.call(session, FOLDER, {"name": "Two"})
    before = session.world.snapshot()
    with pytest.raises(QuotaExceeded) as err:
        await gw.call(session, FOLDER, {"name": "Three"})
    assert str(err.value).startswith(
        "item limit reached: this account may create at most 2 new items (messages, events, files, comments and "
        "the like), and this request would bring it to 3; nothing was changed."
    )
    assert banned_words(str(err.value)) == []
    assert session.world.snapshot() == before and session.world._counter == 2
    trashed = await gw.call(session, "company_drive_trash_file", {"file_id": "file_reading_list"})
    assert trashed["trashed"] == ["file_reading_list"]  # a write that creates nothing still goes through
    assert gw.task_state(session.id)["last_call"]["ok"] is True


async def test_a_refused_write_leaves_no_bytes_behind_when_it_failed_after_storing_them():
    gw, session = await session_of(session_max_new_records=0)
    with pytest.raises(QuotaExceeded):
        await gw.call(session, CREATE, {"name": "big.txt", "content": "x" * 100_000})
    assert session.world.blobs.own_size() == 0 and session.world.blobs.mark() == 0
    assert session.world.snapshot() == session.initial


async def test_text_written_past_the_quota_is_refused_before_the_call_and_reads_stay_free():
    gw, session = await session_of(session_max_written_chars=3000, session_max_stored_bytes=10**9)
    await gw.call(session, CREATE, {"name": "a.txt", "content": "a" * 2000})  # 2,016 characters, keys included
    before = session.world.snapshot()
    with pytest.raises(QuotaExceeded) as err:
        await gw.call(session, CREATE, {"name": "b.txt", "content": "b" * 1000})
    assert str(err.value).startswith(
        "text limit reached: this account may write at most 3,000 characters of text in all, and this request "
        "would bring it to 3,032; nothing was changed."
    )
    assert banned_words(str(err.value)) == []
    assert session.world.snapshot() == before and session.written_chars == 2016
    found = await gw.call(session, "company_drive_search_files", {"query": "x" * 400})
    assert found["total"] == 0 and session.written_chars == 2016  # reading writes nothing


async def test_a_body_of_many_unknown_keys_is_refused_by_the_first_one():
    gw, session = await session_of()
    from tools import InvalidArgument

    arguments = {f"k{n}": 0 for n in range(300_000)}
    with pytest.raises(InvalidArgument) as err:
        await gw.call(session, "company_drive_search_files", arguments)
    assert err.value.parameter == "k0" and "unknown parameter; this action takes: query" in err.value.message


async def test_text_uploaded_from_the_workspace_counts_toward_the_written_text_quota(tmp_path):
    from sandbox.local import LocalProvider

    provider = LocalProvider(tmp_path / "sandboxes", owner="test-owner", use_bwrap=False)
    gw = Gateway(Settings(seed_slice_s=0, session_max_written_chars=10_000), TASKS, provider)
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "mcp", "sandbox": True}, BASE)
    session = gw.get_session(info["session_id"])
    files = {"a.txt": b"a" * 6000, "b.txt": b"b" * 6000, "c.png": b"\x89PNG" * 3000}
    await provider.write_files(session.sandbox, files)
    await gw.call(session, "company_drive_upload_file", {"path": "a.txt"})
    assert session.written_chars == 9 + 6000  # the arguments ("path", "a.txt"), then the file's text
    before = session.world.snapshot()
    with pytest.raises(QuotaExceeded) as err:
        await gw.call(session, "company_drive_upload_file", {"path": "b.txt"})
    assert str(err.value).startswith(
        "text limit reached: this account may write or upload at most 10,000 characters of text in all, and the "
        "files of this request would bring it to 12,018; nothing was saved or changed."
    )
    assert session.world.snapshot() == before and session.written_chars == 6009
    await gw.call(session, "company_drive_upload_file", {"path": "c.png"})  # an image holds no text
    assert session.written_chars == 6009 + 9
    await gw.shutdown()


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        ({"title": "ok", "body": "a\ud800b"}, "body"),
        ({"to": ["a@x", "b\udfff@x"]}, "to"),
        ({"fields": {"k\ud801": "v"}}, "fields"),  # a key is text too
        ({"rows": [[1, {"x": ["\udc00"]}]]}, "rows"),
    ],
)
def test_check_text_names_the_parameter_holding_a_lone_surrogate_wherever_it_nests(arguments, parameter):
    from gateway.control.quotas import check_text
    from tools import InvalidArgument

    with pytest.raises(InvalidArgument) as err:
        check_text(arguments)
    assert err.value.parameter == parameter and "lone surrogate" in str(err.value)


def test_check_text_takes_valid_text_of_any_script_and_refuses_only_too_deep_nesting():
    from gateway.control.quotas import MAX_NESTING, check_text
    from tools import InvalidArgument

    check_text({"a": "héllo 日本 \U0001f600", "b": [1, 2.5, None, True, {"c": ["d"]}], "e": None})
    deep: object = "x"
    for _ in range(MAX_NESTING):  # a string in MAX_NESTING lists: the deepest allowed
        deep = [deep]
    check_text({"ok": deep})
    with pytest.raises(InvalidArgument) as err:
        check_text({"n": 1, "deep": [deep]})
    assert err.value.parameter == "deep" and "nests too deeply" in str(err.value)
