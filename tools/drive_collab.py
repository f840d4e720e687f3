"""The drive's sharing, shared drives, version history and comments (actions of ``tools.drive.app``)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.drive import app, new_version
from tools.drive_model import (
    RANK,
    Comment,
    DriveFile,
    DriveState,
    Permission,
    Reply,
    access,
    ancestors,
    descendants,
    detail,
    file_text,
    get_item,
    member_role,
    require_edit,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold, require_text

__all__: list[str] = []

_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


# ---- sharing ----------------------------------------------------------------------------------


@app.action(read_only=True)
def list_permissions(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show who can open a file or folder and with which role.

    Access given on a folder also applies to everything inside it, and members of a shared
    drive reach everything in it; those entries are listed separately with where they come from.

    Example:
        file_id="fld_finance" -> owner priya.shah@northwind.example, writers, readers.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"id", "name", "owner", "permissions": [{"email", "role"}], "inherited_permissions": [{"email", "role",
        "from_folder_id" or "from_shared_drive_id"}], "your_access"}.
    """
    d = detail(ctx, get_item(ctx, file_id))
    keys = ("id", "name", "owner", "permissions", "inherited_permissions", "your_access")
    return {k: d[k] for k in keys}


@app.action(read_only=False)
def share_file(
    ctx: Context[DriveState], file_id: str, email: str, role: Literal["reader", "commenter", "writer"] = "reader"
) -> dict[str, Any]:
    """Share a file or folder with someone, or change the role they already have.

    Sharing a folder shares everything inside it. People at this company must be in the
    directory; outside addresses are allowed. You need edit access to share.

    Example:
        file_id="file_q1_budget" email="grace.kim@northwind.example" role="commenter" -> the new permission.

    Args:
        file_id: The id of the file or folder.
        email: The person's email address.
        role: "reader" (can open), "commenter" (can open and comment) or "writer" (can edit and share).

    Returns:
        {"id", "name", "email", "role", "previous_role" (null if newly shared), "permissions": [{"email", "role"}]}.
    """
    f = get_item(ctx, file_id)
    who = email.strip().lower()
    if not _EMAIL_RE.match(who):
        raise InvalidArgument(f"'{email}' is not an email address; use e.g. priya.shah@northwind.example", "email")
    domain = ctx.user.split("@")[-1].lower()
    directory = ctx.other("directory")
    if directory is not None and who.endswith("@" + domain):
        people = getattr(directory, "people", {})
        if not any(p.email.lower() == who for p in people.values()):
            raise NotFound(f"no one at {domain} has the address '{email}'; use directory search-people", "email")
    if not f.drive_id and who == f.owner.lower():
        raise Conflict(f"{f.owner} owns '{f.name}' and already has full access", "email")
    require_edit(ctx, f, "file_id")
    current = next((p for p in f.permissions if p.email.lower() == who), None)
    previous = current.role if current else None
    if current is None:
        f.permissions = [*f.permissions, Permission(email=who, role=role)]
    elif current.role != role:
        current.role = role
    return {
        "id": f.id,
        "name": f.name,
        "email": who,
        "role": role,
        "previous_role": previous,
        "permissions": [p.model_dump() for p in f.permissions],
    }


@app.action(read_only=False)
def remove_permission(ctx: Context[DriveState], file_id: str, email: str) -> dict[str, Any]:
    """Stop sharing a file or folder with someone.

    Only access given on this item itself can be removed here; access that comes from a
    folder above must be removed on that folder, and shared-drive membership by its managers.

    Example:
        file_id="file_offsite_attendee_list" email="events@lakesidelodge.example" -> remaining permissions.

    Args:
        file_id: The id of the file or folder.
        email: The email address whose access to remove.

    Returns:
        {"id", "name", "removed": email, "permissions": [{"email", "role"}] remaining}.
    """
    f = get_item(ctx, file_id)
    who = email.strip().lower()
    current = next((p for p in f.permissions if p.email.lower() == who), None)
    if current is None:
        upper = next((a for a in ancestors(ctx.state, f) if any(p.email.lower() == who for p in a.permissions)), None)
        if upper is not None:
            raise Conflict(f"{email} has access through folder '{upper.name}' ({upper.id}); remove it there", "email")
        if f.drive_id and member_role(ctx.state, f.drive_id, who):
            sd = ctx.state.shared_drives[f.drive_id]
            raise Conflict(f"{email} is a member of shared drive '{sd.name}'; its managers change membership", "email")
        raise NotFound(f"'{f.name}' is not shared with '{email}'; use drive list-permissions", "email")
    if current.role == "owner":
        raise Conflict(f"{current.email} owns '{f.name}'; the owner's access cannot be removed", "email")
    if who != ctx.user.lower():
        require_edit(ctx, f, "file_id")
    f.permissions = [p for p in f.permissions if p is not current]
    return {
        "id": f.id,
        "name": f.name,
        "removed": current.email,
        "permissions": [p.model_dump() for p in f.permissions],
    }


@app.action(read_only=True)
def list_shared_drives(
    ctx: Context[DriveState], query: str = "", page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """List the shared drives you are a member of, with their members and your role.

    A shared drive belongs to the company, not to a person. Browse one with list-folder
    (folder_id = its id) and search it with search-files (folder_id = its id). Roles:
    manager, content_manager (can also move and trash), contributor (can add and edit),
    commenter, reader.

    Example:
        query="atlas" -> [{"id": "sd_atlas_program", "name": "Atlas Program", "your_role": "content_manager", ...}].

    Args:
        query: Words to find in the shared drive's name.
        page: Page number, starting at 1.
        page_size: Shared drives per page.

    Returns:
        {"results": [{"id", "name", "created", "your_role", "members": [{"email", "role"}], "items"}], "page",
        "page_size", "total", "next_page"}.
    """
    words = fold(query).split()
    out = []
    for sd in sorted(ctx.state.shared_drives.values(), key=lambda s: fold(s.name)):
        role = member_role(ctx.state, sd.id, ctx.user)
        if role is None or not all(w in fold(sd.name) for w in words):
            continue
        items = sum(1 for f in descendants(ctx.state, sd.id) if not f.trashed)
        out.append(
            {
                "id": sd.id,
                "name": sd.name,
                "created": format_instant(sd.created, ctx.tz),
                "your_role": role,
                "members": [m.model_dump() for m in sd.members],
                "items": items,
            }
        )
    return page_of(out, page, page_size)


# ---- versions ---------------------------------------------------------------------------------


def _a_file(ctx: Context[DriveState], file_id: str) -> DriveFile:
    f = get_item(ctx, file_id)
    if f.kind == "folder":
        raise InvalidArgument(f"'{f.name}' is a folder; folders have no versions or comments", "file_id")
    return f


@app.action(read_only=True)
def list_versions(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show a file's version history: every earlier content kept when it was replaced, newest first.

    Example:
        file_id="file_contoso_renewal_proposal" -> versions 3 (current), 2 and 1 with who saved each and when.

    Args:
        file_id: The id of the file.

    Returns:
        {"id", "name", "current_version", "versions": [{"version", "name", "size", "mime_type", "modified",
        "modified_by", "current"}]}.
    """
    f = _a_file(ctx, file_id)
    rows = [
        {
            "version": v.number,
            "name": v.name,
            "size": v.size,
            "mime_type": v.mime_type,
            "modified": format_instant(v.modified, ctx.tz),
            "modified_by": v.modified_by,
            "current": False,
        }
        for v in f.versions
    ]
    rows.append(
        {
            "version": len(f.versions) + 1,
            "name": f.name,
            "size": f.size,
            "mime_type": f.mime_type,
            "modified": format_instant(f.modified, ctx.tz),
            "modified_by": f.modified_by or f.owner,
            "current": True,
        }
    )
    return {"id": f.id, "name": f.name, "current_version": len(f.versions) + 1, "versions": rows[::-1]}


@app.action(read_only=False)
def restore_version(
    ctx: Context[DriveState], file_id: str, version: Annotated[int, Field(ge=1, le=10_000)]
) -> dict[str, Any]:
    """Bring back an earlier version of a file: its content becomes a new current version.

    Nothing is lost: the content you replace stays in the history too.

    Example:
        file_id="file_contoso_renewal_pricing" version=2 -> the file, now version 4 with version 2's content.

    Args:
        file_id: The id of the file.
        version: The number of the version to bring back, from list-versions.

    Returns:
        The file's details (as get-file) plus "restored_from" (the version number brought back).
    """
    f = _a_file(ctx, file_id)
    current = len(f.versions) + 1
    if version > current:
        raise NotFound(f"'{f.name}' has versions 1 to {current}; use drive list-versions", "version")
    if version == current:
        raise Conflict(f"version {version} is already the current content of '{f.name}'", "version")
    require_edit(ctx, f, "file_id")
    old = f.versions[version - 1]
    data = ctx.blobs.get(old.blob)
    new_version(ctx, f, data)
    f.mime_type = old.mime_type
    return {**detail(ctx, f), "restored_from": version}


# ---- comments ---------------------------------------------------------------------------------


def _comment(ctx: Context[DriveState], comment_id: str) -> tuple[Comment, DriveFile]:
    c = ctx.state.comments.get(comment_id.strip())
    f = ctx.state.files.get(c.file_id) if c else None
    if c is None or f is None or access(ctx.state, f, ctx.user) is None:
        raise NotFound(f"no comment with id '{comment_id}'; use drive list-comments on the file", "comment_id")
    return c, f


def _can_comment(ctx: Context[DriveState], f: DriveFile, parameter: str) -> None:
    if f.trashed:
        raise Conflict(f"'{f.name}' ({f.id}) is in the trash; use drive restore-file first", parameter)
    role = access(ctx.state, f, ctx.user)
    if RANK.get(role or "", 0) < RANK["commenter"]:
        raise Conflict(
            f"you have {role} access to '{f.name}' and cannot comment; ask {f.owner} for comment access", parameter
        )


def _view(ctx: Context[DriveState], c: Comment) -> dict[str, Any]:
    return {
        "id": c.id,
        "file_id": c.file_id,
        "author": c.author,
        "body": c.body,
        "quote": c.quote,
        "created": format_instant(c.created, ctx.tz),
        "resolved": c.resolved,
        "resolved_by": c.resolved_by or None,
        "replies": [
            {"id": r.id, "author": r.author, "body": r.body, "created": format_instant(r.created, ctx.tz)}
            for r in c.replies
        ],
    }


@app.action(read_only=True)
def list_comments(
    ctx: Context[DriveState],
    file_id: str,
    include_resolved: bool = False,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the comments on a file, oldest first, each with its replies.

    Resolved comments are left out unless asked for.

    Example:
        file_id="file_offsite_agenda_draft" -> Marcus Reed's and Dana Whitfield's open comments with replies.

    Args:
        file_id: The id of the file.
        include_resolved: Also list comments that were resolved.
        page: Page number, starting at 1.
        page_size: Comments per page.

    Returns:
        {"file": {"id", "name"}, "results": [{"id", "file_id", "author", "body", "quote", "created", "resolved",
        "resolved_by", "replies": [{"id", "author", "body", "created"}]}], "page", "page_size", "total",
        "next_page"}.
    """
    f = _a_file(ctx, file_id)
    items = [c for c in ctx.state.comments.values() if c.file_id == f.id and (include_resolved or not c.resolved)]
    items.sort(key=lambda c: (c.created, c.id))
    out = page_of([_view(ctx, c) for c in items], page, page_size)
    return {"file": {"id": f.id, "name": f.name}, **out}


@app.action(read_only=False)
def add_comment(ctx: Context[DriveState], file_id: str, text: str, quote: str = "") -> dict[str, Any]:
    """Comment on a file, optionally on a passage of it; everyone who can open the file sees it.

    You need comment or edit access. A quote must be words that appear in the file's text.

    Example:
        file_id="file_q2_budget_draft" text="Can we keep contractors at 40K?" quote="Contractors" -> the comment.

    Args:
        file_id: The id of the file.
        text: What you want to say.
        quote: Exact words of the file the comment is about (optional).

    Returns:
        The new comment: {"id", "file_id", "author", "body", "quote", "created", "resolved", "resolved_by",
        "replies"}.
    """
    f = _a_file(ctx, file_id)
    body = require_text(text, "text")
    _can_comment(ctx, f, "file_id")
    quote = quote.strip()
    if quote and fold(quote) not in file_text(ctx, f):
        raise InvalidArgument(
            f"'{quote}' does not appear in '{f.name}'; quote the file's exact words or leave quote empty", "quote"
        )
    c = Comment(id=ctx.new_id("cmt"), file_id=f.id, author=ctx.user, body=body, quote=quote, created=ctx.now)
    ctx.state.comments[c.id] = c
    return _view(ctx, c)


@app.action(read_only=False)
def reply_to_comment(ctx: Context[DriveState], comment_id: str, text: str) -> dict[str, Any]:
    """Answer a comment in its thread. Replying to a resolved comment opens it again.

    Example:
        comment_id="cmt_0001" text="Moved your session to Thursday 14:00." -> the comment with the new reply.

    Args:
        comment_id: The comment's id (from list-comments).
        text: Your reply.

    Returns:
        The comment with its replies (as list-comments shows it) and "reopened" (true when it had been resolved).
    """
    c, f = _comment(ctx, comment_id)
    body = require_text(text, "text")
    _can_comment(ctx, f, "comment_id")
    reopened = c.resolved
    c.replies = [*c.replies, Reply(id=ctx.new_id("rpl"), author=ctx.user, body=body, created=ctx.now)]
    if reopened:
        c.resolved = False
        c.resolved_by = ""
    return {**_view(ctx, c), "reopened": reopened}


@app.action(read_only=False)
def resolve_comment(ctx: Context[DriveState], comment_id: str) -> dict[str, Any]:
    """Mark a comment as resolved (done); it leaves the list of open comments.

    The comment's author and anyone with edit access to the file can resolve it.

    Example:
        comment_id="cmt_0001" -> the comment with "resolved": true.

    Args:
        comment_id: The comment's id (from list-comments).

    Returns:
        The comment (as list-comments shows it).
    """
    c, f = _comment(ctx, comment_id)
    if c.resolved:
        raise Conflict(f"comment '{c.id}' was already resolved by {c.resolved_by}", "comment_id")
    if c.author.lower() != ctx.user.lower():
        role = access(ctx.state, f, ctx.user)
        if RANK.get(role or "", 0) < RANK["writer"]:
            raise Conflict(
                f"only the comment's author ({c.author}) or someone with edit access can resolve it; you have {role}"
                " access",
                "comment_id",
            )
        if f.trashed:
            raise Conflict(f"'{f.name}' ({f.id}) is in the trash; use drive restore-file first", "comment_id")
    c.resolved = True
    c.resolved_by = ctx.user
    return _view(ctx, c)
