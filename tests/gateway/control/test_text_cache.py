"""The shared cache of files' text: bounded in bytes, and a session's own files' text dropped when it closes."""

from gateway import Gateway, Settings
from gateway.control.rows import load_builtin_tasks
from tools.kernel import documents
from tools.kernel.blobs import BlobStore

TASKS = load_builtin_tasks(families=False)
BASE = "http://127.0.0.1:1/"


async def test_a_sessions_own_files_text_leaves_the_cache_when_it_closes():
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    session = gw.get_session((await gw.seed({"task_id": "drive-share-offsite-agenda"}, BASE))["session_id"])
    await gw.call(session, "company_drive_create_file", {"name": "notes-zq.txt", "content": "zqxj " * 5000})
    found = await gw.call(session, "company_drive_search_files", {"query": "zqxj"})
    assert [r["name"] for r in found["results"]] == ["notes-zq.txt"]
    own = session.world.blobs.own_ids()
    assert len(own) == 1 and any(key[0] == own[0] for key in documents._BLOB_TEXT)
    entries, size = documents.text_cache_size()
    await gw.close(session.id)
    assert not any(key[0] == own[0] for key in documents._BLOB_TEXT)
    assert documents.text_cache_size() == (entries - 1, size - documents._text_bytes("zqxj " * 5000))


def test_the_text_cache_keeps_at_most_its_bound_in_bytes_dropping_the_oldest(monkeypatch):
    monkeypatch.setattr(documents, "_BLOB_TEXT", type(documents._BLOB_TEXT)())
    monkeypatch.setitem(documents._text_cache, "bytes", 0)
    monkeypatch.setitem(documents._text_cache, "max_bytes", documents._text_cache["max_bytes"])
    store = BlobStore()
    ids = [store.put(f"{n} {'x' * 10_000}".encode()) for n in range(5)]
    one = documents._text_bytes(f"0 {'x' * 10_000}")
    documents.set_text_cache_limit(3 * one)
    for n, blob in enumerate(ids):
        assert documents.blob_text(store, blob, "a.txt") == f"{n} {'x' * 10_000}"
    assert [key[0] for key in documents._BLOB_TEXT] == ids[2:]
    assert documents.text_cache_size() == (3, 3 * one)
    documents.set_text_cache_limit(one)
    assert [key[0] for key in documents._BLOB_TEXT] == ids[4:] and documents.text_cache_size() == (1, one)
    assert documents.forget_texts([ids[4], "sha256:none"]) == 1 and documents.text_cache_size() == (0, 0)
