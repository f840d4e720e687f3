import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import XLSX, content, names
from tools.companies import NOW, USER
from tools.kernel.documents import make_xlsx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_create_folder_in_root_folder_and_shared_drive():
    c = app_ctx("drive")
    top = call(c, "create_folder", name="Planning")
    assert top["id"] == "fld_n1" and top["path"] == "/Planning" and top["owner"] == USER
    assert top["kind"] == "folder"
    inner = call(c, "create_folder", name="Vendor quotes", parent_id="fld_operations")
    assert inner["path"] == "/Operations/Vendor quotes"
    assert c.state.files[inner["id"]].created == NOW
    assert "Vendor quotes" in names(call(c, "list_folder", folder_id="fld_operations")["results"])
    sd = call(c, "create_folder", name="Cutover day", parent_id="sd_atlas_program")
    assert sd["path"] == "/Shared drives/Atlas Program/Cutover day" and sd["permissions"] == []
    assert c.state.files[sd["id"]].drive_id == "sd_atlas_program"


def test_create_folder_duplicate_name_conflicts():
    with pytest.raises(Conflict) as err:
        call(app_ctx("drive"), "create_folder", name="  finance ")
    assert err.value.parameter == "name" and "fld_finance" in err.value.message


def test_create_folder_bad_parent_and_name():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="a/b")
    assert err.value.parameter == "name" and err.value.message == "'a/b' contains /; names cannot contain /"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="  ")
    assert err.value.parameter == "name"
    with pytest.raises(NotFound) as err:
        call(c, "create_folder", name="X", parent_id="fld_nope")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="X", parent_id="fld_engineering")
    assert "commenter access" in err.value.message and "elena.petrova" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="X", parent_id="sd_company_policies")
    assert "commenter of shared drive 'Company Policies'" in err.value.message
    assert "nora.patel@northwind.example" in err.value.message


def test_create_file_from_text():
    c = app_ctx("drive")
    out = call(
        c, "create_file", name="Offsite packing list.md", parent_id="fld_offsite_2026", content="# Pack\n- boots\n"
    )
    assert out["mime_type"] == "text/markdown"
    assert out["path"] == "/Shared/Offsite 2026/Offsite packing list.md"
    assert out["size"] == 15 and out["version"] == 1
    rec = c.state.files[out["id"]]
    assert rec.blob.startswith("sha256:") and c.blobs.get(rec.blob) == b"# Pack\n- boots\n"
    assert call(c, "read_file", file_id=out["id"])["content"] == "# Pack\n- boots\n"
    plain = call(c, "create_file", name="notes", content="hello")
    assert plain["mime_type"] == "text/plain" and plain["parent_id"] == "root"


def test_create_file_from_workspace_any_type():
    book = make_xlsx({"Q2": [["Line", "USD"], ["Travel", 40000]]})
    files = MemoryFiles({"out/summary.csv": b"a,b\n1,2\n", "out/q2.xlsx": book})
    c = app_ctx("drive", files)
    out = call(c, "create_file", name="Summary.csv", parent_id="fld_budgets", path="out/summary.csv")
    assert out["mime_type"] == "text/csv" and out["size"] == 8
    assert content(c, out["id"]) == b"a,b\n1,2\n"
    wb = call(c, "create_file", name="Q2 lines.xlsx", parent_id="fld_budgets", path="out/q2.xlsx")
    assert wb["mime_type"] == XLSX and read_cell(content(c, wb["id"]), "Q2", "B2") == 40000


def test_create_file_input_errors():
    c = app_ctx("drive", MemoryFiles({"bin.dat": b"\xff\xfe\x00"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt", content="x", path="bin.dat")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt")
    assert err.value.parameter == "content"
    with pytest.raises(NotFound):
        call(c, "create_file", name="a.txt", path="missing.txt")
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("drive"), "create_file", name="a.txt", path="x.txt")
    assert err.value.parameter == "path" and "no workspace" in err.value.message
    with pytest.raises(Conflict):
        call(c, "create_file", name="Vendor list.csv", parent_id="fld_vendors", content="x")
    with pytest.raises(Conflict) as err:
        call(c, "create_file", name="a.txt", parent_id="fld_architecture", content="x")
    assert err.value.parameter == "parent_id" and "commenter access" in err.value.message


#: The one refusal of file bytes pasted as text (tools.kits.files.refuse_encoded).
REFUSAL = (
    "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
    "save the file in your workspace and pass path=<its workspace path> instead"
)


@pytest.mark.parametrize(
    "pasted",
    [
        "data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K",
        "UEsDBBQABgAIAAAAIQBi7p1oXgEAAJAEAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAACAAAAAAAAAAAAAAAA\n"
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ],
)
def test_pasted_base64_is_refused(pasted):
    c = app_ctx("drive")
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="Q1.xlsx", content=pasted)
    assert err.value.parameter == "content" and err.value.message == REFUSAL
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_file", file_id="file_reading_list", content=pasted)
    assert err.value.parameter == "content" and err.value.message == REFUSAL
    assert c.world.snapshot() == before
    # ordinary text that happens to be long is fine
    assert call(c, "create_file", name="ok.txt", content="word " * 40)["size"] == 200


def test_upload_file_new_and_into_shared_drive():
    files = MemoryFiles({"downloads/INV-20417.txt": b"Invoice INV-20417\nTotal: $12,480.00\n"})
    c = app_ctx("drive", files)
    out = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="fld_invoices")
    assert out["result"] == "created" and out["name"] == "INV-20417.txt"
    assert out["path"] == "/Finance/Invoices/INV-20417.txt" and out["mime_type"] == "text/plain"
    assert content(c, out["id"]) == files.files["downloads/INV-20417.txt"]
    sd = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="sd_atlas_program", name="Invoice copy.txt")
    assert sd["shared_drive"] == {"id": "sd_atlas_program", "name": "Atlas Program"}
    assert c.state.files[sd["id"]].permissions == []


def test_upload_file_conflict_modes():
    files = MemoryFiles({"q2.csv": b"Department,Category,Q2 proposed (USD)\nEngineering,Contractors,45000\n"})
    c = app_ctx("drive", files)
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv")
    assert err.value.parameter == "conflict" and "conflict=replace" in err.value.message
    assert c.world.snapshot() == before
    old_blob = c.state.files["file_q2_budget_draft"].blob
    out = call(c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="replace")
    assert out["result"] == "replaced" and out["id"] == "file_q2_budget_draft" and out["version"] == 3
    f = c.state.files["file_q2_budget_draft"]
    assert content(c, f.id) == files.files["q2.csv"] and f.modified == NOW and f.modified_by == USER
    assert [v.number for v in f.versions] == [1, 2] and f.versions[-1].blob == old_blob
    both = call(
        c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="keep_both"
    )
    assert both["result"] == "kept_both" and both["name"] == "Q2 budget draft (1).csv"
    again = call(
        c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="keep_both"
    )
    assert again["name"] == "Q2 budget draft (2).csv"


def test_upload_file_errors():
    c = app_ctx("drive", MemoryFiles({"a.txt": b"x"}))
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("drive"), "upload_file", path="a.txt")
    assert err.value.parameter == "path" and "create-file" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "upload_file", path="missing.txt")
    assert err.value.parameter == "path"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", path="a.txt", conflict="overwrite")
    assert err.value.parameter == "conflict"
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="sd_company_policies")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="fld_shared", name="Board", conflict="replace")
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="root", name="NDA template.docx", conflict="replace")
    assert "reader access" in err.value.message


def test_update_file_keeps_a_version():
    c = app_ctx("drive")
    out = call(c, "update_file", file_id="file_reading_list", content="Reading list\n- Range - David Epstein\n")
    assert out["version"] == 2 and out["size"] == 37
    assert content(c, "file_reading_list") == b"Reading list\n- Range - David Epstein\n"
    history = call(c, "list_versions", file_id="file_reading_list")
    assert [v["version"] for v in history["versions"]] == [2, 1]
    assert history["versions"][1]["modified_by"] == USER and history["versions"][0]["current"] is True


def test_update_file_errors():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_file", file_id="file_q1_budget", content="a,b")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(Conflict):
        call(c, "update_file", file_id="file_nda_template", content="x")
    with pytest.raises(Conflict) as err:
        call(c, "update_file", file_id="file_untitled_document", content="x")
    assert "restore-file" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "update_file", file_id="fld_finance", content="x")


def test_copy_file_same_folder_and_into_shared_drive():
    c = app_ctx("drive")
    same = call(c, "copy_file", file_id="file_nda_template")
    assert same["name"] == "Copy of NDA template.docx" and same["parent_id"] == "root"
    assert same["owner"] == USER and same["version"] == 1 and same["open_comments"] == 0
    assert c.state.files[same["id"]].blob == c.state.files["file_nda_template"].blob
    sd = call(c, "copy_file", file_id="file_q1_budget", parent_id="sd_atlas_program", name="Q1 budget (Eng).xlsx")
    assert sd["path"] == "/Shared drives/Atlas Program/Q1 budget (Eng).xlsx" and sd["mime_type"] == XLSX
    assert read_cell(content(c, sd["id"]), "Engineering", "B2") == 186000
    assert c.state.files["file_q1_budget"].parent_id == "fld_budgets"


def test_copy_file_errors():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument):
        call(c, "copy_file", file_id="fld_finance")
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_untitled_document")
    assert "restore-file" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_q1_budget", parent_id="sd_company_policies")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_q1_budget", name="Q2 budget draft.csv")
    assert err.value.parameter == "name"
