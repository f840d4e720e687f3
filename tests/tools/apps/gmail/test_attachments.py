from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call, unchanged
from tests.tools.apps.gmail.conftest import only
from tools.kernel.exceptions import InvalidArgument, NotFound


def test_get_attachment_inline_without_workspace():
    c = app_ctx("gmail")
    hit = only(c, "filename:offsite_venues.csv")
    att_id = c.state.messages[hit["id"]].attachments[0].id
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id=att_id)
    assert out["filename"] == "offsite_venues.csv"
    assert 'Lakeside Lodge,"Cold Spring, NY",2,3500,38500' in out["content"]
    assert out["size"] == len(out["content"].encode())
    assert "saved_to" not in out


def test_get_attachment_binary_without_workspace_is_refused_clearly():
    c = app_ctx("gmail")
    hit = only(c, "filename:INV-20417.pdf")
    err = unchanged(c, "get_attachment", InvalidArgument, message_id=hit["id"], attachment_id="INV-20417.pdf")
    assert err.parameter == "save_as"
    assert "not a text file" in err.message and "no workspace" in err.message


def test_get_attachment_saves_into_workspace():
    files = MemoryFiles()
    c = app_ctx("gmail", files)
    hit = only(c, "filename:offsite_venues.csv")
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id="OFFSITE_VENUES.CSV")
    assert out["saved_to"] == "downloads/offsite_venues.csv"
    assert b"Lakeside Lodge" in files.files["downloads/offsite_venues.csv"]
    assert "content" not in out
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id=out["attachment_id"], save_as="v.csv")
    assert out["saved_to"] == "v.csv"


def test_get_attachment_unknown():
    c = app_ctx("gmail")
    hit = only(c, "filename:offsite_venues.csv")
    err = unchanged(c, "get_attachment", NotFound, message_id=hit["id"], attachment_id="att_nope")
    assert err.parameter == "attachment_id"
    assert "offsite_venues.csv" in err.message
    assert unchanged(c, "get_attachment", NotFound, message_id="x", attachment_id="y").parameter == "message_id"
