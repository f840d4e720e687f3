"""The first seed of a world reads its files' text in a worker thread, so no search reads them on the event loop."""

import threading

from gateway import Gateway, Settings
from gateway.control.rows import load_builtin_tasks
from tools.kernel import documents

TASKS = load_builtin_tasks(families=False)
BASE = "http://127.0.0.1:1/"
TASK = "drive-share-offsite-agenda"


async def test_a_worlds_file_texts_are_read_off_the_loop_once_at_its_first_seed(monkeypatch):
    readers: list[tuple[str, int]] = []
    extract = documents.extract_text

    def recorded(data: bytes, name: str = "") -> str:
        readers.append((name, threading.get_ident()))
        return extract(data, name)

    monkeypatch.setattr(documents, "extract_text", recorded)
    monkeypatch.setattr(documents, "_BLOB_TEXT", type(documents._BLOB_TEXT)())  # an empty cache
    monkeypatch.setitem(documents._text_cache, "bytes", 0)
    loop_thread = threading.get_ident()
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    first = gw.get_session((await gw.seed({"task_id": TASK, "exposure": "mcp"}, BASE))["session_id"])
    files = [f for f in first.world.states["drive"].files.values() if f.blob]
    assert len(files) > 20
    assert len(readers) >= len({f.blob for f in files}) - 1  # each distinct blob once (a name may differ)
    assert {thread for _, thread in readers} != {loop_thread} and loop_thread not in {t for _, t in readers}
    read = len(readers)
    second = gw.get_session((await gw.seed({"task_id": TASK, "exposure": "mcp"}, BASE))["session_id"])
    found = await gw.call(second, "company_drive_search_files", {"query": "agenda"})
    assert found["results"]
    assert len(readers) == read  # neither the second seed nor the search read a file again
