"""Helpdesk attachments, and the refusal of file bytes pasted as text."""

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.companies.shared import BLOBS
from tools.kernel.documents import read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

ALEX = USER
PDF = b"%PDF-1.4\n% quote\n"
REFUSED = (
    "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
    "save the file in your workspace and pass {} instead"
)
ATTACH_1029 = "path=<its workspace path> to helpdesk attach-file --ticket-id=HD-1029"


def test_attach_file_from_workspace_and_from_text():
    c = app_ctx("helpdesk", MemoryFiles({"downloads/quote.pdf": PDF}))
    att = call(c, "attach_file", ticket_id="HD-1029", path="downloads/quote.pdf")
    assert (att["name"], att["mime_type"], att["size"], att["uploaded_by"]) == (
        "quote.pdf",
        "application/pdf",
        17,
        ALEX,
    )
    assert c.blobs.get(c.state.attachments[att["id"]].blob) == PDF
    renamed = call(c, "attach_file", ticket_id="HD-1029", path="downloads/quote.pdf", name="Quote v2.pdf")
    assert renamed["name"] == "Quote v2.pdf"
    note = call(c, "attach_file", ticket_id="HD-1029", content="seat list", name="seats.txt")
    assert note["mime_type"] == "text/plain" and note["size"] == 9
    names = [a["name"] for a in call(c, "list_attachments", ticket_id="HD-1029")["attachments"]]
    assert names == ["CRM renewal quote Q-55817.pdf", "quote.pdf", "Quote v2.pdf", "seats.txt"]


@pytest.mark.parametrize(
    "pasted",
    [
        "data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K",
        "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0KeJwr5HIK4TJQMDfUMzZUCEnhMlAwNNczNFEI",
    ],
)
def test_pasted_base64_is_refused(pasted):
    c = app_ctx("helpdesk", MemoryFiles())
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", content=pasted, name="quote.pdf")
    assert err.value.parameter == "content"
    assert err.value.message == REFUSED.format("path=<its workspace path>")
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", ticket_id="HD-1029", body=pasted)
    assert err.value.parameter == "body"
    assert err.value.message == REFUSED.format(ATTACH_1029)
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_ticket", queue="it", title="x", description=pasted)
    assert err.value.parameter == "description"
    assert err.value.message == REFUSED.format("its workspace path in attachments")
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_ticket", ticket_id="HD-1029", description=pasted)
    assert (err.value.parameter, err.value.message) == ("description", REFUSED.format(ATTACH_1029))
    with pytest.raises(InvalidArgument) as err:
        call(c, "change_status", ticket_id="HD-1029", status="resolved", resolution=pasted)
    assert (err.value.parameter, err.value.message) == ("resolution", REFUSED.format(ATTACH_1029))
    assert c.world.snapshot() == before
    assert call(c, "add_comment", ticket_id="HD-1029", body="word " * 30)["comment"]["body"].startswith("word")


def test_attach_file_errors():
    c = app_ctx("helpdesk", MemoryFiles({"a.pdf": PDF}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", content="text")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument):
        call(c, "attach_file", ticket_id="HD-1029", path="a.pdf", content="text", name="x.txt")
    with pytest.raises(InvalidArgument):
        call(c, "attach_file", ticket_id="HD-1029")
    with pytest.raises(NotFound):
        call(c, "attach_file", ticket_id="HD-1029", path="nope.pdf")
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", path="a.pdf", name="dir/a.pdf")
    assert err.value.parameter == "name"
    assert err.value.message == "'dir/a.pdf' contains /; names cannot contain / \\"
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", path="a.pdf", name="a.pdf.")
    assert err.value.parameter == "name" and "end with a dot" in err.value.message
    with pytest.raises(Conflict):
        call(c, "attach_file", ticket_id="HD-1001", path="a.pdf")
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("helpdesk"), "attach_file", ticket_id="HD-1029", path="a.pdf")
    assert "no workspace" in err.value.message


def test_download_attachment_into_workspace_exact_bytes():
    files = MemoryFiles()
    c = app_ctx("helpdesk", files)
    out = call(c, "download_attachment", attachment_id="att_004")
    assert out["saved_to"] == "downloads/Lakeside Lodge AV inventory.pdf" and out["ticket_id"] == "HD-1041"
    assert files.files[out["saved_to"]] == BLOBS[c.state.attachments["att_004"].blob]
    out = call(c, "download_attachment", attachment_id="att_002", save_as="it/alloc.xlsx")
    assert out["saved_to"] == "it/alloc.xlsx" and "content" not in out
    assert read_cell(files.files["it/alloc.xlsx"], "Allocation", "A2") == "NW-LT-0517"


def test_download_attachment_without_workspace():
    c = app_ctx("helpdesk")
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_attachment", attachment_id="att_004")
    assert "no workspace" in err.value.message
    call(c, "attach_file", ticket_id="HD-1029", content="seat list", name="seats.txt")
    att_id = next(a.id for a in c.state.attachments.values() if a.name == "seats.txt")
    assert call(c, "download_attachment", attachment_id=att_id)["content"] == "seat list"
    with pytest.raises(NotFound) as err:
        call(c, "download_attachment", attachment_id="att_999")
    assert err.value.parameter == "attachment_id"
