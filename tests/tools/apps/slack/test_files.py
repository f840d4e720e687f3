"""Chat file actions: list, download into the workspace or inline, upload from the workspace or text."""

import base64

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import BRIDGE, TOMAS_QUESTION, ctx
from tools.companies import USER
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_files_filters():
    c = ctx()
    out = call(c, "list_files")
    assert out["total"] == 7 and out["results"][0]["name"] == "Atlas cutover checklist.pdf"
    assert [f["id"] for f in call(c, "list_files", channel="#finance")["results"]] == ["file_q1_variance"]
    assert [f["id"] for f in call(c, "list_files", query="render")["results"]] == ["file_booth_render"]
    assert [f["id"] for f in call(c, "list_files", user="Kai Nakamura")["results"]] == ["file_security_key_guide"]
    assert call(c, "list_files", user="me")["total"] == 0


def test_download_file_into_workspace():
    ws = MemoryFiles()
    c = ctx(ws)
    out = call(c, "download_file", file_id="file_q1_variance")
    assert out["saved_to"] == "downloads/Q1 budget variance.xlsx" and "content" not in out
    assert read_cell(ws.files["downloads/Q1 budget variance.xlsx"], "Q1 variance", "E5") == -13250
    out = call(c, "download_file", file_id="file_atlas_checklist", save_as="atlas/checklist.pdf")
    assert out["saved_to"] == "atlas/checklist.pdf" and out["size"] == len(ws.files["atlas/checklist.pdf"])


def test_download_without_workspace():
    c = ctx()
    err = unchanged(c, "download_file", InvalidArgument, file_id="file_q1_variance")
    assert "workspace" in err.message
    up = call(c, "upload_file", channel="#ops", content="line one\nline two\n", filename="notes.txt")
    out = call(c, "download_file", file_id=up["file"]["id"])
    assert out["content"] == "line one\nline two\n" and out["mime_type"] == "text/plain"
    unchanged(c, "download_file", NotFound, file_id="file_nope")


def test_upload_file_from_workspace_path():
    ws = MemoryFiles()
    c = ctx(ws)
    pdf = BLOBS[c.state.files["file_atlas_checklist"].blob]
    ws.files["out/checklist.pdf"] = pdf
    out = call(c, "upload_file", channel="#leadership", path="out/checklist.pdf", comment="For Tuesday")
    f = c.state.files[out["file"]["id"]]
    assert (f.name, f.mime_type, f.size, f.channel_id, f.user) == (
        "checklist.pdf", "application/pdf", len(pdf), "ch_leadership", USER
    )  # fmt: skip
    assert "Saturday April 18" in extract_text(c.blobs.get(f.blob), f.name)
    msg = c.state.messages[out["message"]["id"]]
    assert msg.text == "For Tuesday" and msg.files == [f.id] and f.message_id == msg.id
    assert out["message"]["files"] == [{"id": f.id, "name": "checklist.pdf", "mime_type": "application/pdf",
                                        "size": len(pdf)}]  # fmt: skip


def test_upload_file_into_a_thread_with_a_name():
    ws = MemoryFiles({"a.csv": b"x,y\n1,2\n"})
    c = ctx(ws)
    out = call(c, "upload_file", channel="#finance", path="a.csv", filename="Numbers.csv", thread_id=TOMAS_QUESTION)
    assert out["file"]["name"] == "Numbers.csv" and out["file"]["mime_type"] == "text/csv"
    assert out["message"]["thread_id"] == TOMAS_QUESTION


def test_upload_file_errors_change_nothing():
    ws = MemoryFiles({"a.txt": b"hello"})
    c = ctx(ws)
    unchanged(c, "upload_file", NotFound, channel="#finance", path="missing.txt")
    unchanged(c, "upload_file", Conflict, channel="#sales", path="a.txt")
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", path="a.txt", content="both")
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", content="text only")  # no filename
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", path="a.txt", thread_id=BRIDGE)
    err = unchanged(c, "upload_file", InvalidArgument, channel="#finance", content="x", filename="a/b.txt")
    assert err.message == "'a/b.txt' contains /; names cannot contain / \\" and err.parameter == "filename"
    err = unchanged(c, "upload_file", InvalidArgument, channel="#finance", content="x", filename="..")
    assert "cannot be . or .." in err.message
    no_ws = ctx()
    err = unchanged(no_ws, "upload_file", InvalidArgument, channel="#finance", path="a.txt")
    assert "no workspace" in err.message


def test_upload_refuses_pasted_base64_and_data_uris():
    c = ctx(MemoryFiles())
    pdf = BLOBS[c.state.files["file_atlas_checklist"].blob]
    encoded = base64.b64encode(pdf).decode()
    err = unchanged(c, "upload_file", InvalidArgument, channel="#ops", content=encoded, filename="x.pdf")
    assert err.message.startswith("looks like file content pasted as base64 or a data: URI")
    assert "pass path=<its workspace path> instead" in err.message and err.parameter == "content"
    err = unchanged(c, "upload_file", InvalidArgument, channel="#ops", content="data:application/pdf;base64," +
                    encoded[:80], filename="x.pdf")  # fmt: skip
    assert "workspace" in err.message
    urlsafe = base64.urlsafe_b64encode(pdf[:300]).decode()
    assert "-" in urlsafe or "_" in urlsafe
    unchanged(c, "upload_file", InvalidArgument, channel="#ops", content=urlsafe, filename="x.pdf")
    for text in ("Plain text with spaces, commas and a number: 12480.", "INV-20417"):  # ordinary text passes
        out = call(c, "upload_file", channel="#ops", content=text, filename="note.txt")
        assert c.blobs.get(c.state.files[out["file"]["id"]].blob) == text.encode()
