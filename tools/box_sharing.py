"""Box actions for working with people: collaborations on folders, shared links and comments."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.box_model import (
    BoxState,
    Collaboration,
    Comment,
    Role,
    SharedLink,
    ancestors,
    app,
    get_file,
    get_folder,
    get_item,
    is_internal,
    link_view,
    path_of,
    require,
    resolve_person,
    role_of,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant, parse_date
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import require_text

__all__: list[str] = []

Ctx = Context[BoxState]


# ---- collaborations -------------------------------------------------------------------------------


def _collab_view(ctx: Ctx, c: Collaboration, inherited_from: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": c.id,
        "folder_id": c.folder_id,
        "email": c.email,
        "role": c.role,
        "status": c.status,
        "invited_by": c.invited_by,
        "created": format_instant(c.created, ctx.tz),
    }
    if inherited_from:
        out["inherited_from"] = inherited_from
    return out


def _folder_required(ctx: Ctx, folder_id: str) -> Any:
    folder = get_folder(ctx, folder_id)
    if folder is None:
        raise InvalidArgument('All Files ("0") has no collaborators; give a folder\'s id', "folder_id")
    return folder


@app.action(read_only=True)
def list_collaborations(ctx: Ctx, folder_id: str) -> dict[str, Any]:
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
    folder = _folder_required(ctx, folder_id)
    require(ctx, folder, "list", "folder_id")
    mine = sorted((c for c in ctx.state.collaborations.values() if c.folder_id == folder.id), key=lambda c: c.email)
    inherited = []
    for upper in ancestors(ctx.state, folder):
        where = path_of(ctx.state, upper)
        above = sorted((c for c in ctx.state.collaborations.values() if c.folder_id == upper.id), key=lambda c: c.email)
        inherited.extend(_collab_view(ctx, c, where) for c in above)
    return {
        "folder": {"id": folder.id, "name": folder.name, "path": path_of(ctx.state, folder)},
        "owner": folder.owner,
        "collaborations": [_collab_view(ctx, c) for c in mine],
        "inherited": inherited,
        "your_role": role_of(ctx, folder),
    }


@app.action(read_only=False)
def invite_collaborator(ctx: Ctx, folder_id: str, email: str, role: Role) -> dict[str, Any]:
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
    folder = _folder_required(ctx, folder_id)
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
    return _collab_view(ctx, collab)


def _collab(ctx: Ctx, collaboration_id: str) -> tuple[Collaboration, Any]:
    c = ctx.state.collaborations.get(collaboration_id.strip())
    folder = ctx.state.folders.get(c.folder_id) if c else None
    if c is None or folder is None or role_of(ctx, folder) is None:
        raise NotFound(
            f"no collaboration with id '{collaboration_id}'; use box list-collaborations to find ids",
            "collaboration_id",
        )
    return c, get_folder(ctx, folder.id, "collaboration_id")


@app.action(read_only=False)
def update_collaboration(ctx: Ctx, collaboration_id: str, role: Role) -> dict[str, Any]:
    """Change a collaborator's role on a folder.

    Example:
        collaboration_id="collab_omar_fabrikam" role="uploader" -> the collaboration with its new role.

    Args:
        collaboration_id: The collaboration's id (see box list-collaborations).
        role: The new role: viewer, previewer, uploader, editor or co-owner.

    Returns:
        The collaboration (as list-collaborations shows it) plus "previous_role".
    """
    c, folder = _collab(ctx, collaboration_id)
    if c.role == role:
        raise Conflict(f"{c.email} already has the role {role} on '{folder.name}'", "role")
    require(ctx, folder, "co-own" if "co-owner" in (role, c.role) else "invite", "role")
    previous = c.role
    c.role = role
    c.modified = ctx.now
    return {**_collab_view(ctx, c), "previous_role": previous}


@app.action(read_only=False)
def remove_collaboration(ctx: Ctx, collaboration_id: str) -> dict[str, Any]:
    """Remove a person's access to a folder (you may always remove your own).

    Access they have through a folder above stays; remove it on that folder.

    Example:
        collaboration_id="collab_dana_li_contoso" -> {"removed": "collab_dana_li_contoso", "email": ...}.

    Args:
        collaboration_id: The collaboration's id (see box list-collaborations).

    Returns:
        {"removed": id, "folder_id", "email", "role"}.
    """
    c, folder = _collab(ctx, collaboration_id)
    if c.email.lower() != ctx.user.lower():
        require(ctx, folder, "co-own" if c.role == "co-owner" else "invite", "collaboration_id")
    del ctx.state.collaborations[c.id]
    return {"removed": c.id, "folder_id": c.folder_id, "email": c.email, "role": c.role}


# ---- shared links -----------------------------------------------------------------------------------


def _check_password(password: str, access: str) -> bool:
    if not password:
        return False
    if access != "open":
        raise InvalidArgument("a password can be set only on links with access 'open'", "password")
    if len(password) < 8 or not any(ch.isdigit() for ch in password) or not any(ch.isalpha() for ch in password):
        raise InvalidArgument("must be at least 8 characters with at least one letter and one digit", "password")
    return True


@app.action(read_only=False)
def create_shared_link(
    ctx: Ctx,
    item_id: str,
    access: Literal["open", "company", "collaborators"],
    password: str = "",
    expires: str = "",
    can_download: bool = True,
) -> dict[str, Any]:
    """Create a shared link to a file or folder, or change the settings of its existing link.

    An item has at most one link: calling this again replaces every setting but keeps the URL.
    The password itself is never shown again; share it separately.

    Example:
        item_id="file_inv_20417" access="company" expires="2026-03-31" can_download=false

    Args:
        item_id: The id of the file or folder.
        access: Who can open the link: "open" (anyone with the link), "company" (people at Northwind) or
            "collaborators" (only people invited to the item's folder).
        password: Require this password to open the link (only for "open" links; at least 8 characters with a
            letter and a digit).
        expires: The last day the link works, YYYY-MM-DD (today or later); it stops working after that day.
        can_download: Whether people with the link may download (false: preview only).

    Returns:
        {"id", "name", "shared_link": {"url", "access", "password_protected", "expires", "can_download",
        "created_by", "created"}, "replaced": true when the item already had a link}.
    """
    item = get_item(ctx, item_id)
    protected = _check_password(password.strip(), access)
    until = parse_date(expires, "expires") if expires.strip() else None
    today = ctx.now.astimezone(ctx.tz).date()
    if until is not None and until < today:
        raise InvalidArgument(
            f"'{expires}' is before today ({today.isoformat()}); pick today or a later date", "expires"
        )
    require(ctx, item, "share", "item_id")
    old = item.shared_link
    if old is None:
        token = hashlib.sha256(f"{item.id}:{ctx.new_id('link')}".encode()).hexdigest()[:32]
        url = f"https://northwind.app.box.com/s/{token}"
    else:
        url = old.url
    item.shared_link = SharedLink(
        url=url,
        access=access,
        password_protected=protected,
        expires=until,
        can_download=can_download,
        created_by=old.created_by if old else ctx.user,
        created=old.created if old else ctx.now,
    )
    return {
        "id": item.id,
        "name": item.name,
        "shared_link": link_view(ctx, item.shared_link),
        "replaced": old is not None,
    }


@app.action(read_only=False)
def remove_shared_link(ctx: Ctx, item_id: str) -> dict[str, Any]:
    """Remove an item's shared link; its URL stops working (collaborators keep their access).

    Example:
        item_id="file_fabrikam_shipping_schedule" -> {"id", "name", "removed_url"}.

    Args:
        item_id: The id of the file or folder.

    Returns:
        {"id", "name", "removed_url"}.
    """
    item = get_item(ctx, item_id)
    if item.shared_link is None:
        raise Conflict(f"'{item.name}' ({item.id}) has no shared link", "item_id")
    require(ctx, item, "share", "item_id")
    url = item.shared_link.url
    item.shared_link = None
    return {"id": item.id, "name": item.name, "removed_url": url}


# ---- comments ---------------------------------------------------------------------------------------


def _comment_view(ctx: Ctx, c: Comment) -> dict[str, Any]:
    return {
        "id": c.id,
        "file_id": c.file_id,
        "author": c.author,
        "message": c.message,
        "created": format_instant(c.created, ctx.tz),
        "yours": c.author.lower() == ctx.user.lower(),
    }


@app.action(read_only=True)
def list_comments(ctx: Ctx, file_id: str, page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
    """List the comments on a file, oldest first.

    Example:
        file_id="file_inv_20417" -> Tomas Rivera's note on the courier runs, then Priya Shah's reply.

    Args:
        file_id: The id of the file.
        page: Page number, starting at 1.
        page_size: Comments per page.

    Returns:
        {"file": {"id", "name"}, "results": [{"id", "file_id", "author", "message", "created", "yours"}],
        "page", "page_size", "total", "next_page"}.
    """
    f = get_file(ctx, file_id)
    require(ctx, f, "list", "file_id")
    notes = sorted((c for c in ctx.state.comments.values() if c.file_id == f.id), key=lambda c: (c.created, c.id))
    return {"file": {"id": f.id, "name": f.name}, **page_of([_comment_view(ctx, c) for c in notes], page, page_size)}


@app.action(read_only=False)
def add_comment(ctx: Ctx, file_id: str, message: Annotated[str, Field(max_length=10_000)]) -> dict[str, Any]:
    """Add a comment to a file; everyone who can see the file can read it.

    Example:
        file_id="file_inv_20417" message="No concerns from me - OK to approve." -> the new comment.

    Args:
        file_id: The id of the file.
        message: The comment's text.

    Returns:
        The new comment: {"id", "file_id", "author", "message", "created", "yours"}.
    """
    f = get_file(ctx, file_id)
    text = require_text(message, "message")
    require(ctx, f, "comment", "file_id")
    c = Comment(id=ctx.new_id("comment"), file_id=f.id, author=ctx.user, message=text, created=ctx.now)
    ctx.state.comments[c.id] = c
    return _comment_view(ctx, c)


@app.action(read_only=False)
def delete_comment(ctx: Ctx, comment_id: str) -> dict[str, Any]:
    """Delete one of your own comments.

    Example:
        comment_id="comment_terms_password_note" -> {"deleted": "comment_terms_password_note", "file_id": ...}.

    Args:
        comment_id: The comment's id (see box list-comments).

    Returns:
        {"deleted": id, "file_id"}.
    """
    c = ctx.state.comments.get(comment_id.strip())
    f = ctx.state.files.get(c.file_id) if c else None
    if c is None or f is None or role_of(ctx, f) is None:
        raise NotFound(f"no comment with id '{comment_id}'; use box list-comments to find ids", "comment_id")
    if c.author.lower() != ctx.user.lower():
        raise Conflict(f"the comment was written by {c.author}; you can delete only your own comments", "comment_id")
    get_file(ctx, f.id, "comment_id")  # a file in the trash is closed to changes
    del ctx.state.comments[c.id]
    return {"deleted": c.id, "file_id": c.file_id}
