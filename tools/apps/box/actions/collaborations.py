"""Box actions on who may use a folder: list, invite, change and remove collaborators."""

from __future__ import annotations

from typing import Any

from tools.apps.box._rules import (
    ancestors,
    collaboration_folder,
    find_collaboration,
    is_internal,
    path_of,
    require,
    resolve_person,
    role_of,
)
from tools.apps.box._views import collaboration_view
from tools.apps.box.app import app
from tools.apps.box.state import BoxState, Collaboration, Role
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context

__all__ = ["invite_collaborator", "list_collaborations", "remove_collaboration", "update_collaboration"]


@app.action(read_only=True)
def list_collaborations(ctx: Context[BoxState], folder_id: str) -> dict[str, Any]:
    """List who has access to a folder and with which role, including access given on folders above it.

    Example:
        folder_id="folder_partners_contoso" -> the owner, megan.harlow@contoso.example (editor), ...

    Args:
        folder_id: The folder's id.

    Returns:
        {"folder": {"id", "name", "path"}, "owner": email, "collaborations": [{"id", "folder_id", "email", "role",
        "status" (accepted or pending), "invited_by", "created"}], "inherited": [the same plus "inherited_from"
        (the folder's path)], "your_role"}.
    """
    folder = collaboration_folder(ctx, folder_id)
    require(ctx, folder, "list", "folder_id")
    mine = sorted((c for c in ctx.state.collaborations.values() if c.folder_id == folder.id), key=lambda c: c.email)
    inherited: list[dict[str, Any]] = []
    for upper in ancestors(ctx.state, folder):
        where = path_of(ctx.state, upper)
        above = sorted((c for c in ctx.state.collaborations.values() if c.folder_id == upper.id), key=lambda c: c.email)
        inherited.extend(collaboration_view(ctx, c, where) for c in above)
    return {
        "folder": {"id": folder.id, "name": folder.name, "path": path_of(ctx.state, folder)},
        "owner": folder.owner,
        "collaborations": [collaboration_view(ctx, c) for c in mine],
        "inherited": inherited,
        "your_role": role_of(ctx, folder),
    }


@app.action(read_only=False)
def invite_collaborator(ctx: Context[BoxState], folder_id: str, email: str, role: Role) -> dict[str, Any]:
    """Invite a person to a folder with a role; they get access to everything inside it.

    Roles: viewer (preview, download, comment), previewer (preview only), uploader (upload only,
    cannot see the contents), editor (everything except deleting the folder itself and co-owner
    changes), co-owner (everything the owner can do). People outside the company are invited too;
    their collaboration stays "pending" until they accept.

    Example:
        folder_id="folder_contracts_contoso" email="hannah.wood@northwind.example" role="editor"

    Args:
        folder_id: The folder's id.
        email: The person's email address (a colleague's full name also works).
        role: One of viewer, previewer, uploader, editor, co-owner.

    Returns:
        The new collaboration: {"id", "folder_id", "email", "role", "status", "invited_by", "created"}.
    """
    folder = collaboration_folder(ctx, folder_id)
    who = resolve_person(ctx, email, "email")
    if who == folder.owner.lower():
        raise Conflict(f"{folder.owner} owns '{folder.name}' and already has full access", "email")
    current = next(
        (c for c in ctx.state.collaborations.values() if c.folder_id == folder.id and c.email.lower() == who), None
    )
    if current is not None:
        raise Conflict(
            f"{who} is already a collaborator ({current.role}) on '{folder.name}'; to change the role use "
            f"box update-collaboration with collaboration_id={current.id}",
            "email",
        )
    require(ctx, folder, "co-own" if role == "co-owner" else "invite", "role" if role == "co-owner" else "folder_id")
    collab = Collaboration(
        id=ctx.new_id("collab"),
        folder_id=folder.id,
        email=who,
        role=role,
        status="accepted" if is_internal(ctx, who) else "pending",
        invited_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
    )
    ctx.state.collaborations[collab.id] = collab
    return collaboration_view(ctx, collab)


@app.action(read_only=False)
def update_collaboration(ctx: Context[BoxState], collaboration_id: str, role: Role) -> dict[str, Any]:
    """Change a collaborator's role on a folder.

    Example:
        collaboration_id="collab_omar_fabrikam" role="uploader" -> the collaboration with its new role.

    Args:
        collaboration_id: The collaboration's id (see box list-collaborations).
        role: The new role: viewer, previewer, uploader, editor or co-owner.

    Returns:
        The collaboration (as list-collaborations shows it) plus "previous_role".
    """
    c, folder = find_collaboration(ctx, collaboration_id)
    if c.role == role:
        raise Conflict(f"{c.email} already has the role {role} on '{folder.name}'", "role")
    require(ctx, folder, "co-own" if "co-owner" in (role, c.role) else "invite", "role")
    previous = c.role
    c.role = role
    c.modified = ctx.now
    return {**collaboration_view(ctx, c), "previous_role": previous}


@app.action(read_only=False)
def remove_collaboration(ctx: Context[BoxState], collaboration_id: str) -> dict[str, Any]:
    """Remove a person's access to a folder (you may always remove your own).

    Access they have through a folder above stays; remove it on that folder.

    Example:
        collaboration_id="collab_dana_li_contoso" -> {"removed": "collab_dana_li_contoso", "email": ...}.

    Args:
        collaboration_id: The collaboration's id (see box list-collaborations).

    Returns:
        {"removed": id, "folder_id", "email", "role"}.
    """
    c, folder = find_collaboration(ctx, collaboration_id)
    if c.email.lower() != ctx.user.lower():
        require(ctx, folder, "co-own" if c.role == "co-owner" else "invite", "collaboration_id")
    del ctx.state.collaborations[c.id]
    return {"removed": c.id, "folder_id": c.folder_id, "email": c.email, "role": c.role}
