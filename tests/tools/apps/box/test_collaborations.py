import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- collaborations -------------------------------------------------------------------------------


def test_list_collaborations_direct_and_inherited():
    out = call(app_ctx("box"), "list_collaborations", folder_id="folder_contracts_contoso")
    assert out["owner"] == "isaac.king@northwind.example" and out["your_role"] == "editor"
    assert [(c["email"], c["role"]) for c in out["collaborations"]] == [
        ("isabella.rossi@northwind.example", "viewer"),
        ("james.okafor@northwind.example", "viewer"),
    ]
    inherited = {(c["email"], c["role"], c["inherited_from"]) for c in out["inherited"]}
    assert (USER, "editor", "/Legal/Contracts") in inherited
    assert (USER, "viewer", "/Legal") in inherited
    assert len(inherited) == 6


def test_invite_collaborators():
    c = app_ctx("box")
    inside = call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="Hannah Wood", role="editor")
    assert inside["email"] == "hannah.wood@northwind.example" and inside["status"] == "accepted"
    outside = call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="Legal@Contoso.example",
                   role="viewer")  # fmt: skip
    assert outside["status"] == "pending" and outside["email"] == "legal@contoso.example"
    assert c.state.collaborations[outside["id"]].invited_by == USER
    assert len(call(c, "list_collaborations", folder_id="folder_partners_contoso")["collaborations"]) == 5


def test_invite_errors():
    c = app_ctx("box")
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_partners_contoso", email=USER, role="viewer")
    assert "owns" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="dana.li@contoso.example",
             role="editor")  # fmt: skip
    assert "collab_dana_li_contoso" in err.value.message and "update-collaboration" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "invite_collaborator", folder_id="folder_partners", email="nobody@northwind.example", role="viewer")
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_finance", email="ella.moore@northwind.example",
             role="co-owner")  # fmt: skip
    assert "co-owner" in err.value.message
    with pytest.raises(Conflict):
        call(c, "invite_collaborator", folder_id="folder_legal", email="ella.moore@northwind.example", role="viewer")
    with pytest.raises(InvalidArgument) as err:
        call(c, "invite_collaborator", folder_id="0", email="ella.moore@northwind.example", role="viewer")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "invite_collaborator", folder_id="folder_partners", email="ella.moore@northwind.example", role="owner")
    assert err.value.parameter == "role"


def test_update_and_remove_collaborations():
    c = app_ctx("box")
    out = call(c, "update_collaboration", collaboration_id="collab_omar_fabrikam", role="uploader")
    assert out["previous_role"] == "editor" and out["role"] == "uploader"
    assert c.state.collaborations["collab_omar_fabrikam"].modified == NOW
    gone = call(c, "remove_collaboration", collaboration_id="collab_dana_li_contoso")
    assert gone == {
        "removed": "collab_dana_li_contoso",
        "folder_id": "folder_partners_contoso",
        "email": "dana.li@contoso.example",
        "role": "viewer",
    }
    assert "collab_dana_li_contoso" not in c.state.collaborations


def test_leaving_a_folder_yourself():
    c = app_ctx("box")
    call(c, "remove_collaboration", collaboration_id="collab_alex_legal")
    assert call(c, "get_item", item_id="folder_contracts")["your_role"] == "editor"
    with pytest.raises(NotFound):
        call(c, "get_item", item_id="folder_legal_templates")


def test_collaboration_errors():
    c = app_ctx("box")
    with pytest.raises(Conflict):
        call(c, "update_collaboration", collaboration_id="collab_omar_fabrikam", role="editor")
    with pytest.raises(Conflict) as err:
        call(c, "update_collaboration", collaboration_id="collab_marcus_finance", role="editor")
    assert "co-owner" in err.value.message
    with pytest.raises(Conflict):
        call(c, "remove_collaboration", collaboration_id="collab_hannah_legal")
    with pytest.raises(NotFound) as err:
        call(c, "remove_collaboration", collaboration_id="collab_nope")
    assert err.value.parameter == "collaboration_id"
