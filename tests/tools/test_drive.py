import re
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles, make_ctx
from tools import drive
from tools.drive import DriveState
from tools.exceptions import Conflict, InvalidArgument, NotFound
from tools.fixtures import NOW, USER
from tools.fixtures.files import build
from tools.fixtures.people import people_records


def ctx(files=None):
    return make_ctx("drive", DriveState.model_validate(build(people_records(), NOW, USER)), files)


def call(c, action, /, **args):
    return drive.app.actions[action].invoke(c, args)


def names(results):
    return [r["name"] for r in results]


# ---- fixture ----------------------------------------------------------------------------------


def test_fixture_counts_and_shape():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    files = state.files
    assert len(files) == 96
    assert sum(f.kind == "folder" for f in files.values()) == 26
    assert sum(f.owner == USER for f in files.values()) == 13
    assert {f.name for f in files.values() if f.trashed} == {"Q4 2025 budget draft.csv", "Untitled document.txt"}
    for f in files.values():
        assert f.parent_id == "root" or files[f.parent_id].kind == "folder"
        assert f.permissions[0].email == f.owner and f.permissions[0].role == "owner"
        assert f.created <= f.modified < NOW
        assert f.size == len(f.content.encode())
        assert (f.kind == "file") == bool(f.content)


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_and_app_avoid_internal_words():
    blob = repr(build(people_records(), NOW, USER)).lower()
    blob += " ".join(a.description + str(a.input_schema) for a in drive.app.actions.values()).lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
    assert re.findall(r"\brl\b", blob) == []


# ---- search_files -----------------------------------------------------------------------------


def test_search_files_by_name_type_and_folder():
    out = call(ctx(), "search_files", query="budget", mime_type="csv", folder_id="fld_finance")
    assert names(out["results"]) == ["Q2 budget draft.csv", "Q1 budget.csv"]
    assert out["results"][0]["owner"] == "grace.kim@northwind.example"
    assert out["results"][0]["parent_id"] == "fld_budgets"


def test_search_files_matches_content_words_in_any_order():
    out = call(ctx(), "search_files", query="fabrikam INV-20417")
    assert names(out["results"]) == ["Vendor invoices - February.csv"]


def test_search_files_newest_first_and_pages():
    c = ctx()
    everything = call(c, "search_files", page_size=100)["results"]
    stamps = [datetime.fromisoformat(r["modified"]) for r in everything]
    assert stamps == sorted(stamps, reverse=True)
    assert everything[0]["name"] == "Chief of staff weekly priorities.md"
    second = call(c, "search_files", page=2, page_size=10)
    assert second["results"] == everything[10:20]
    assert second["total"] == 94 and second["next_page"] == 3


def test_search_files_leaves_out_trash_unless_asked():
    c = ctx()
    assert call(c, "search_files", query="Q4 2025")["total"] == 0
    out = call(c, "search_files", query="Q4 2025", include_trashed=True)
    assert names(out["results"]) == ["Q4 2025 budget draft.csv"]
    assert out["results"][0]["trashed"] is True


def test_search_files_by_owner_and_kind():
    c = ctx()
    mine = call(c, "search_files", owner="me", kind="folder")
    assert sorted(names(mine["results"])) == ["Archive", "Offsite 2026", "Shared"]
    theirs = call(c, "search_files", owner="maya.young", kind="file")
    assert sorted(names(theirs["results"])) == [
        "Contoso renewal notes.md",
        "Vendor list.csv",
        "Vendor onboarding form.txt",
    ]


def test_search_files_bad_folder():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "search_files", folder_id="fld_nope")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", folder_id="file_q1_budget")
    assert err.value.parameter == "folder_id" and "not a folder" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", kind="document")
    assert err.value.parameter == "kind"


# ---- list_folder / get_file / read_file / list_permissions ------------------------------------


def test_list_folder_root_folders_first_then_files_without_trash():
    out = call(ctx(), "list_folder")
    assert out["folder"] == {"id": "root", "name": "My Drive", "path": "/"}
    assert names(out["results"]) == [
        "Archive",
        "Engineering",
        "Finance",
        "Marketing",
        "Operations",
        "People",
        "Shared",
        "1-1 notes - Dana.md",
        "Chief of staff weekly priorities.md",
        "Contoso renewal proposal.md",
        "Customer health scores.csv",
        "NDA template.md",
        "Reading list.txt",
        "Sales pipeline Q1.csv",
    ]


def test_list_folder_subfolder_and_paging():
    out = call(ctx(), "list_folder", folder_id="fld_finance", page_size=4)
    assert out["folder"]["path"] == "/Finance"
    assert names(out["results"]) == ["Budgets", "Forecasts", "Invoices", "Audit prep checklist.md"]
    assert out["total"] == 5 and out["next_page"] == 2


def test_list_folder_errors():
    c = ctx()
    with pytest.raises(NotFound):
        call(c, "list_folder", folder_id="fld_missing")
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_folder", folder_id="file_vendor_list")
    assert err.value.parameter == "folder_id"


def test_get_file_shows_path_and_inherited_access():
    out = call(ctx(), "get_file", file_id="file_q1_budget")
    assert out["path"] == "/Finance/Budgets/Q1 budget.csv"
    assert out["owner"] == "priya.shah@northwind.example"
    assert out["mime_type"] == "text/csv"
    assert out["permissions"] == [{"email": "priya.shah@northwind.example", "role": "owner"}]
    assert {"email": USER, "role": "writer", "from_folder_id": "fld_finance"} in out["inherited_permissions"]
    assert out["your_access"] == "writer"
    assert out["modified"].endswith("-05:00")
    assert "content" not in out


def test_get_file_access_levels():
    c = ctx()
    assert call(c, "get_file", file_id="file_engineering_leads_notes_2026_03_05")["your_access"] == "commenter"
    assert call(c, "get_file", file_id="file_atlas_migration_plan")["your_access"] == "writer"
    assert call(c, "get_file", file_id="file_nda_template")["your_access"] == "reader"
    assert call(c, "get_file", file_id="file_reading_list")["your_access"] == "owner"
    assert call(c, "get_file", file_id="file_board_deck_outline_q1_2026")["your_access"] == "writer"


def test_get_file_unknown_id():
    with pytest.raises(NotFound) as err:
        call(ctx(), "get_file", file_id="file_nope")
    assert err.value.parameter == "file_id" and "search-files" in err.value.message


def test_read_file_inline_without_workspace():
    out = call(ctx(), "read_file", file_id="file_vendor_list")
    assert out["name"] == "Vendor list.csv"
    assert out["content"].startswith("Vendor,Category,Contact")
    assert "Contoso Ltd,Warehouse software partner" in out["content"]
    assert out["size"] == len(out["content"].encode())


def test_read_file_saves_into_workspace():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "read_file", file_id="file_remote_work_policy")
    assert out["saved_to"] == "downloads/Remote work policy.md"
    assert "content" not in out
    assert b"$600 per calendar year" in files.files["downloads/Remote work policy.md"]
    again = call(c, "read_file", file_id="file_q1_budget", save_as="work/q1.csv")
    assert again["saved_to"] == "work/q1.csv"
    assert files.files["work/q1.csv"].startswith(b"Department,Category")


def test_read_file_refuses_folders():
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "read_file", file_id="fld_budgets")
    assert err.value.parameter == "file_id" and "list-folder" in err.value.message


def test_list_permissions_direct_and_inherited():
    out = call(ctx(), "list_permissions", file_id="file_contoso_renewal_notes")
    assert out["owner"] == "maya.young@northwind.example"
    assert [p["email"] for p in out["permissions"]] == [
        "maya.young@northwind.example",
        "isaac.king@northwind.example",
        "marcus.reed@northwind.example",
    ]
    inherited = {(p["email"], p["from_folder_id"]) for p in out["inherited_permissions"]}
    assert ("tomas.rivera@northwind.example", "fld_vendors") in inherited
    assert (USER, "fld_operations") in inherited
    assert ("victor.alvarez@northwind.example", "fld_operations") in inherited


# ---- create -----------------------------------------------------------------------------------


def test_create_folder_in_root_and_in_folder():
    c = ctx()
    top = call(c, "create_folder", name="Planning")
    assert top["id"] == "fld_n1" and top["path"] == "/Planning" and top["owner"] == USER
    assert top["kind"] == "folder"
    inner = call(c, "create_folder", name="Vendor quotes", parent_id="fld_operations")
    assert inner["path"] == "/Operations/Vendor quotes"
    assert c.state.files[inner["id"]].created == NOW
    assert "Vendor quotes" in names(call(c, "list_folder", folder_id="fld_operations")["results"])


def test_create_folder_duplicate_name_conflicts():
    with pytest.raises(Conflict) as err:
        call(ctx(), "create_folder", name="  finance ")
    assert err.value.parameter == "name" and "fld_finance" in err.value.message


def test_create_folder_bad_parent_and_name():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="a/b")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="  ")
    assert err.value.parameter == "name"
    with pytest.raises(NotFound) as err:
        call(c, "create_folder", name="X", parent_id="fld_nope")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="X", parent_id="fld_engineering")
    assert "commenter access" in err.value.message and "elena.petrova" in err.value.message


def test_create_file_from_text():
    c = ctx()
    out = call(
        c, "create_file", name="Offsite packing list.md", parent_id="fld_offsite_2026", content="# Pack\n- boots\n"
    )
    assert out["mime_type"] == "text/markdown"
    assert out["path"] == "/Shared/Offsite 2026/Offsite packing list.md"
    assert out["size"] == 15
    assert call(c, "read_file", file_id=out["id"])["content"] == "# Pack\n- boots\n"
    plain = call(c, "create_file", name="notes", content="hello")
    assert plain["mime_type"] == "text/plain" and plain["parent_id"] == "root"


def test_create_file_from_workspace():
    files = MemoryFiles({"out/summary.csv": b"a,b\n1,2\n"})
    c = ctx(files)
    out = call(c, "create_file", name="Summary.csv", parent_id="fld_budgets", path="out/summary.csv")
    assert out["mime_type"] == "text/csv" and out["size"] == 8
    assert c.state.files[out["id"]].content == "a,b\n1,2\n"


def test_create_file_input_errors():
    c = ctx(MemoryFiles({"bin.dat": b"\xff\xfe\x00"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt", content="x", path="bin.dat")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.bin", path="bin.dat")
    assert err.value.parameter == "path" and "UTF-8" in err.value.message
    with pytest.raises(NotFound):
        call(c, "create_file", name="a.txt", path="missing.txt")
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "create_file", name="a.txt", path="x.txt")
    assert err.value.parameter == "path" and "no workspace" in err.value.message
    with pytest.raises(Conflict):
        call(c, "create_file", name="Vendor list.csv", parent_id="fld_vendors", content="x")
    with pytest.raises(Conflict) as err:
        call(c, "create_file", name="a.txt", parent_id="fld_architecture", content="x")
    assert err.value.parameter == "parent_id" and "commenter access" in err.value.message


def test_create_in_trashed_folder_conflicts():
    c = ctx()
    call(c, "trash_file", file_id="fld_archive")
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="New", parent_id="fld_archive")
    assert "trash" in err.value.message


# ---- move / rename ----------------------------------------------------------------------------


def test_move_file_into_another_folder():
    c = ctx()
    out = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="fld_archive")
    assert out["path"] == "/Archive/Offsite venue options.csv"
    assert c.state.files["file_offsite_venue_options"].modified == NOW
    assert "Offsite venue options.csv" not in names(call(c, "list_folder", folder_id="fld_offsite_2026")["results"])
    back = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="root")
    assert back["path"] == "/Offsite venue options.csv" and back["parent_id"] == "root"


def test_move_folder_carries_contents():
    c = ctx()
    call(c, "move_file", file_id="fld_offsite_2026", new_parent_id="fld_archive")
    assert (
        call(c, "get_file", file_id="file_offsite_agenda_draft")["path"]
        == "/Archive/Offsite 2026/Offsite agenda draft.md"
    )


def test_move_folder_into_itself_or_descendant_is_refused():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_offsite_2026")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_shared")
    assert err.value.parameter == "new_parent_id"


def test_move_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_nda_template", new_parent_id="fld_archive")
    assert err.value.parameter == "file_id" and "reader access" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="fld_architecture")
    assert err.value.parameter == "new_parent_id"
    call(c, "create_file", name="Reading list.txt", parent_id="fld_archive", content="dup")
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="fld_archive")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="file_nda_template")
    assert err.value.parameter == "new_parent_id"


def test_rename_file():
    c = ctx()
    out = call(c, "rename_file", file_id="file_q2_budget_draft", new_name="Q2 budget.csv")
    assert out["name"] == "Q2 budget.csv" and out["path"] == "/Finance/Budgets/Q2 budget.csv"
    assert c.state.files["file_q2_budget_draft"].modified == NOW


def test_rename_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="q1 BUDGET.csv")
    assert err.value.parameter == "new_name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="")
    assert err.value.parameter == "new_name"
    with pytest.raises(Conflict):
        call(c, "rename_file", file_id="file_customer_health_scores", new_name="Health.csv")


# ---- trash ------------------------------------------------------------------------------------


def test_trash_folder_trashes_descendants():
    c = ctx()
    out = call(c, "trash_file", file_id="fld_offsite_2026")
    assert sorted(out["trashed"]) == [
        "file_offsite_agenda_draft",
        "file_offsite_attendee_list",
        "file_offsite_venue_options",
        "fld_offsite_2026",
    ]
    assert out["count"] == 4
    assert all(c.state.files[i].trashed for i in out["trashed"])
    assert call(c, "search_files", query="Offsite attendee list")["total"] == 0
    assert "Offsite 2026" not in names(call(c, "list_folder", folder_id="fld_shared")["results"])


def test_trash_skips_items_already_in_trash():
    out = call(ctx(), "trash_file", file_id="fld_archive")
    assert sorted(out["trashed"]) == ["file_leadership_offsite_2025_agenda", "fld_archive"]


def test_trash_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "trash_file", file_id="file_untitled_document")
    assert "trash" in err.value.message
    with pytest.raises(Conflict):
        call(c, "trash_file", file_id="file_sales_pipeline_q1")
    with pytest.raises(NotFound):
        call(c, "trash_file", file_id="nope")


# ---- sharing ----------------------------------------------------------------------------------


def test_share_file_adds_then_updates_role():
    c = ctx()
    out = call(c, "share_file", file_id="file_q1_budget", email="Grace.Kim@northwind.example", role="commenter")
    assert out["previous_role"] is None and out["role"] == "commenter"
    assert {"email": "grace.kim@northwind.example", "role": "commenter"} in out["permissions"]
    again = call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="writer")
    assert again["previous_role"] == "commenter"
    perms = [p for p in c.state.files["file_q1_budget"].permissions if p.email == "grace.kim@northwind.example"]
    assert [p.role for p in perms] == ["writer"]


def test_share_file_default_reader_and_external_address():
    c = ctx()
    out = call(c, "share_file", file_id="file_offsite_agenda_draft", email="events@lakesidelodge.example")
    assert out["role"] == "reader"
    assert c.state.files["file_offsite_agenda_draft"].permissions[-1].email == "events@lakesidelodge.example"


def test_share_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_q1_budget", email="priya.shah@northwind.example", role="reader")
    assert err.value.parameter == "email" and "owns" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "share_file", file_id="file_q1_budget", email="pria.shah@northwind.example")
    assert err.value.parameter == "email" and "search-people" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace kim")
    assert err.value.parameter == "email"
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="owner")
    assert err.value.parameter == "role"
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_nda_template", email="grace.kim@northwind.example")
    assert err.value.parameter == "file_id"


def test_share_internal_address_without_directory_is_allowed():
    c = ctx()
    del c.world.states["directory"]
    out = call(c, "share_file", file_id="file_reading_list", email="new.hire@northwind.example")
    assert out["email"] == "new.hire@northwind.example"


def test_remove_permission():
    c = ctx()
    out = call(c, "remove_permission", file_id="file_offsite_attendee_list", email="Events@LakesideLodge.example")
    assert out["removed"] == "events@lakesidelodge.example"
    assert out["permissions"] == [{"email": USER, "role": "owner"}]
    assert c.state.files["file_offsite_attendee_list"].permissions[0].role == "owner"
    assert len(c.state.files["file_offsite_attendee_list"].permissions) == 1


def test_remove_own_access_hides_the_file():
    c = ctx()
    call(c, "remove_permission", file_id="file_sales_pipeline_q1", email=USER)
    with pytest.raises(NotFound):
        call(c, "get_file", file_id="file_sales_pipeline_q1")
    assert call(c, "search_files", query="Woodgrove")["total"] == 0


def test_remove_permission_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_reading_list", email=USER)
    assert "owner" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="owen.bell@northwind.example")
    assert "fld_finance" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="zoe.adams@northwind.example")
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_sales_pipeline_q1", email="marcus.reed@northwind.example")
    assert err.value.parameter == "file_id" and "reader access" in err.value.message


# ---- failed writes change nothing --------------------------------------------------------------

FAILING_WRITES = [
    ("create_folder", {"name": "Finance"}),
    ("create_folder", {"name": "x", "parent_id": "fld_engineering"}),
    ("create_file", {"name": "a.txt", "parent_id": "fld_nope", "content": "x"}),
    ("create_file", {"name": "a.txt", "content": "x", "path": "y"}),
    ("move_file", {"file_id": "fld_shared", "new_parent_id": "fld_board"}),
    ("move_file", {"file_id": "file_nda_template", "new_parent_id": "root"}),
    ("rename_file", {"file_id": "file_q1_budget", "new_name": "Q2 budget draft.csv"}),
    ("trash_file", {"file_id": "file_customer_health_scores"}),
    ("trash_file", {"file_id": "file_untitled_document"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "nobody@northwind.example"}),
    ("share_file", {"file_id": "file_engineering_hiring_plan_2026", "email": "grace.kim@northwind.example"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_nda_template", "email": "hannah.wood@northwind.example"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = ctx()
    before = c.world.snapshot()
    with pytest.raises((InvalidArgument, Conflict)):
        call(c, action, **args)
    assert c.world.snapshot() == before


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in drive.app.actions.items()}
    assert [n for n, ro in flags.items() if ro] == [
        "search_files",
        "list_folder",
        "get_file",
        "read_file",
        "list_permissions",
    ]
    assert len(flags) == 12


def test_docstring_examples_name_real_ids():
    ids = set(build(people_records(), NOW, USER)["files"])
    text = " ".join(a.description for a in drive.app.actions.values())
    mentioned = set(re.findall(r"\"((?:file|fld)_[a-z0-9_]+)\"", text))
    assert len(mentioned) >= 8
    assert mentioned <= ids
