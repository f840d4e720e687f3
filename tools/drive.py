"""The company drive: folders and text files, who owns them and who they are shared with."""

from __future__ import annotations

import mimetypes
import re
from datetime import datetime
from typing import Any, Literal

from tools.common import Page, PageSize, deliver_file, fold, page_of, receive_file, require_text
from tools.exceptions import Conflict, InvalidArgument, NotFound
from tools.registry import App
from tools.world import AppState, Context, Record, format_instant

__all__ = ["DriveFile", "DriveState", "Permission", "app"]

ROOT = "root"
FOLDER_MIME = "application/vnd.google-apps.folder"
_RANK = {"reader": 1, "commenter": 2, "writer": 3, "owner": 4}
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# Built-in table only (never the host's mime.types), so every machine agrees.
_MIME = mimetypes.MimeTypes()
_MIME.add_type("text/markdown", ".md")


class Permission(Record):
    """One person's access to a file or folder; the owner appears with role "owner"."""

    email: str
    role: Literal["owner", "reader", "commenter", "writer"]


class DriveFile(Record):
    """A file or a folder in the drive."""

    id: str
    name: str
    kind: Literal["file", "folder"]
    mime_type: str
    parent_id: str = ROOT  # "root" for items at the top of My Drive
    owner: str
    created: datetime
    modified: datetime
    size: int = 0  # bytes of content; 0 for folders
    content: str = ""
    trashed: bool = False
    permissions: list[Permission] = []


class DriveState(AppState):
    """Every file and folder, keyed by id."""

    files: dict[str, DriveFile] = {}


app = App("drive", DriveState, "The company drive: folders and files, with sharing and permissions.")


# ---- private helpers -------------------------------------------------------------------------


def _ancestors(state: DriveState, f: DriveFile) -> list[DriveFile]:
    """The folders above ``f``, nearest first."""
    out: list[DriveFile] = []
    pid = f.parent_id
    while pid != ROOT and pid in state.files and len(out) < 100:
        out.append(state.files[pid])
        pid = state.files[pid].parent_id
    return out


def _access(state: DriveState, f: DriveFile, user: str) -> str | None:
    """The user's effective role on ``f`` (its own permissions plus those of folders above), or None."""
    best = 0
    for depth, node in enumerate([f, *_ancestors(state, f)]):
        for p in node.permissions:
            if p.email.lower() == user.lower():
                rank = _RANK[p.role]
                best = max(best, rank if depth == 0 or rank < 4 else 3)
    return next((role for role, rank in _RANK.items() if rank == best), None)


def _get(ctx: Context[DriveState], file_id: str, parameter: str = "file_id") -> DriveFile:
    f = ctx.state.files.get(file_id.strip())
    if f is None or _access(ctx.state, f, ctx.user) is None:
        raise NotFound(f"no file or folder with id '{file_id}'; use drive search-files to find ids", parameter)
    return f


def _folder(ctx: Context[DriveState], folder_id: str, parameter: str) -> DriveFile | None:
    """The folder named by ``folder_id``; None for "root" (My Drive)."""
    if folder_id.strip() in ("", ROOT):
        return None
    f = _get(ctx, folder_id, parameter)
    if f.kind != "folder":
        raise InvalidArgument(f"'{f.name}' ({f.id}) is a file, not a folder", parameter)
    return f


def _require_edit(ctx: Context[DriveState], f: DriveFile | None, parameter: str) -> None:
    """Refuse when the user may not change ``f`` (None is My Drive, always allowed) or it is in the trash."""
    if f is None:
        return
    if f.trashed:
        raise Conflict(f"'{f.name}' ({f.id}) is in the trash and cannot be changed", parameter)
    role = _access(ctx.state, f, ctx.user)
    if _RANK.get(role or "", 0) < _RANK["writer"]:
        raise Conflict(f"you have {role} access to '{f.name}'; ask its owner {f.owner} for writer access", parameter)


def _check_name(name: str, parameter: str) -> str:
    name = require_text(name, parameter)
    if "/" in name:
        raise InvalidArgument(f"'{name}' contains '/'; names cannot contain slashes", parameter)
    return name


def _check_free(ctx: Context[DriveState], parent_id: str, name: str, parameter: str, skip: str = "") -> None:
    for other in ctx.state.files.values():
        if other.parent_id == parent_id and not other.trashed and other.id != skip and fold(other.name) == fold(name):
            where = "My Drive" if parent_id == ROOT else f"folder {parent_id}"
            raise Conflict(
                f"{where} already has an item named '{other.name}' ({other.id}); pick another name", parameter
            )


def _path(state: DriveState, f: DriveFile) -> str:
    names = [a.name for a in reversed(_ancestors(state, f))]
    return "/" + "/".join([*names, f.name])


def _summary(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    return {
        "id": f.id,
        "name": f.name,
        "kind": f.kind,
        "mime_type": f.mime_type,
        "parent_id": f.parent_id,
        "owner": f.owner,
        "modified": format_instant(f.modified, ctx.tz),
        "size": f.size,
        "trashed": f.trashed,
    }


def _detail(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    direct = {p.email.lower() for p in f.permissions}
    inherited: list[dict[str, Any]] = []
    for folder in _ancestors(ctx.state, f):
        for p in folder.permissions:
            if p.email.lower() not in direct:
                direct.add(p.email.lower())
                inherited.append({"email": p.email, "role": p.role, "from_folder_id": folder.id})
    out = _summary(ctx, f)
    out.update(
        path=_path(ctx.state, f),
        created=format_instant(f.created, ctx.tz),
        permissions=[p.model_dump() for p in f.permissions],
        inherited_permissions=inherited,
        your_access=_access(ctx.state, f, ctx.user),
    )
    return out


def _descendants(state: DriveState, folder_id: str) -> list[DriveFile]:
    out: list[DriveFile] = []
    todo = [folder_id]
    while todo:
        pid = todo.pop()
        for f in state.files.values():
            if f.parent_id == pid:
                out.append(f)
                if f.kind == "folder":
                    todo.append(f.id)
    return out


# ---- reading ----------------------------------------------------------------------------------


@app.action(read_only=True)
def search_files(
    ctx: Context[DriveState],
    query: str = "",
    mime_type: str = "",
    kind: Literal["", "file", "folder"] = "",
    owner: str = "",
    folder_id: str = "",
    include_trashed: bool = False,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find files and folders by words in their name or text, newest change first.

    Every word of the query must appear in the name or the content (case-insensitive).
    Every other filter given must match too. Items in the trash are left out unless asked for.

    Example:
        query="budget" mime_type="csv" folder_id="fld_finance" -> the budget spreadsheets under Finance.

    Args:
        query: Words to find in the name or text content, e.g. "vendor invoices".
        mime_type: Part of the content type, e.g. "csv", "text/markdown" or "folder".
        kind: "file" or "folder" to return only that kind.
        owner: The owner's email address (part of it is fine), or "me" for your own items.
        folder_id: Search only inside this folder, at any depth ("root" or empty for all of My Drive).
        include_trashed: Also return items that are in the trash.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{"id", "name", "kind", "mime_type", "parent_id", "owner", "modified", "size", "trashed"}],
        "page", "page_size", "total", "next_page"}.
    """
    folder = _folder(ctx, folder_id, "folder_id")
    inside = {f.id for f in _descendants(ctx.state, folder.id)} if folder else None
    words = fold(query).split()
    who = fold(ctx.user if fold(owner) == "me" else owner)
    mime = fold(mime_type)
    hits = []
    for f in ctx.state.files.values():
        if _access(ctx.state, f, ctx.user) is None or (f.trashed and not include_trashed):
            continue
        if inside is not None and f.id not in inside:
            continue
        if (
            (kind and f.kind != kind)
            or (mime and mime not in f.mime_type.lower())
            or (who and who not in fold(f.owner))
        ):
            continue
        text = fold(f.name) + "\n" + fold(f.content)
        if all(w in text for w in words):
            hits.append(f)
    hits.sort(key=lambda f: (-f.modified.timestamp(), fold(f.name), f.id))
    return page_of([_summary(ctx, f) for f in hits], page, page_size)


@app.action(read_only=True)
def list_folder(
    ctx: Context[DriveState], folder_id: str = ROOT, page: Page = 1, page_size: PageSize = 50
) -> dict[str, Any]:
    """List what a folder holds: subfolders first, then files, each group by name.

    Items in the trash are not listed.

    Example:
        folder_id="root" -> the top of My Drive: Engineering, Finance, Marketing, ... then loose files.

    Args:
        folder_id: The folder's id; "root" means the top of My Drive.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path"}, "results": [item summary], "page", "page_size", "total", "next_page"}.
    """
    folder = _folder(ctx, folder_id, "folder_id")
    pid = folder.id if folder else ROOT
    kids = [
        f
        for f in ctx.state.files.values()
        if f.parent_id == pid and not f.trashed and _access(ctx.state, f, ctx.user) is not None
    ]
    kids.sort(key=lambda f: (f.kind != "folder", fold(f.name), f.id))
    out = page_of([_summary(ctx, f) for f in kids], page, page_size)
    head = {
        "id": pid,
        "name": folder.name if folder else "My Drive",
        "path": _path(ctx.state, folder) if folder else "/",
    }
    return {"folder": head, **out}


@app.action(read_only=True)
def get_file(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show a file's or folder's details: where it is, who owns it and who it is shared with.

    Example:
        file_id="file_q1_budget" -> path "/Finance/Budgets/Q1 budget.csv", owner, size, permissions.

    Args:
        file_id: The id of the file or folder (from search-files or list-folder).

    Returns:
        The item summary plus "path", "created", "permissions" ([{"email", "role"}] set on the item itself),
        "inherited_permissions" ([{"email", "role", "from_folder_id"}] from folders above) and
        "your_access" (owner, writer, commenter or reader).
    """
    return _detail(ctx, _get(ctx, file_id))


@app.action(read_only=True)
def read_file(ctx: Context[DriveState], file_id: str, save_as: str = "") -> dict[str, Any]:
    """Open a file and get its text.

    When you have a workspace the file is saved there and you get its path;
    otherwise the text is returned directly.

    Example:
        file_id="file_vendor_list" -> {"name": "Vendor list.csv", "content": "Vendor,Category,..."}.

    Args:
        file_id: The id of the file (folders cannot be read; use list-folder).
        save_as: Workspace path to save the file to; default downloads/<file name>.

    Returns:
        {"id", "name", "mime_type", "size", and either "content" (the text) or "saved_to" (workspace path)}.
    """
    f = _get(ctx, file_id)
    if f.kind == "folder":
        raise InvalidArgument(f"'{f.name}' is a folder; use drive list-folder to see what it holds", "file_id")
    delivered = deliver_file(ctx, f.name, f.content.encode("utf-8"), save_as)
    return {"id": f.id, "name": f.name, "mime_type": f.mime_type, **delivered}


@app.action(read_only=True)
def list_permissions(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show who can open a file or folder and with which role.

    Access given on a folder also applies to everything inside it; those entries
    are listed separately with the folder they come from.

    Example:
        file_id="fld_finance" -> owner priya.shah@northwind.example, writers, readers.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"id", "name", "owner", "permissions": [{"email", "role"}],
        "inherited_permissions": [{"email", "role", "from_folder_id"}], "your_access"}.
    """
    d = _detail(ctx, _get(ctx, file_id))
    keys = ("id", "name", "owner", "permissions", "inherited_permissions", "your_access")
    return {k: d[k] for k in keys}


# ---- changing ---------------------------------------------------------------------------------


def _new_item(ctx: Context[DriveState], name: str, parent: DriveFile | None, content: str | None) -> DriveFile:
    is_folder = content is None
    mime = FOLDER_MIME if is_folder else (_MIME.guess_type(name)[0] or "text/plain")
    return DriveFile(
        id=ctx.new_id("fld" if is_folder else "file"),
        name=name,
        kind="folder" if is_folder else "file",
        mime_type=mime,
        parent_id=parent.id if parent else ROOT,
        owner=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        size=len((content or "").encode("utf-8")),
        content=content or "",
        permissions=[Permission(email=ctx.user, role="owner")],
    )


@app.action(read_only=False)
def create_folder(ctx: Context[DriveState], name: str, parent_id: str = ROOT) -> dict[str, Any]:
    """Make a new folder.

    Example:
        name="Vendor quotes" parent_id="fld_operations" -> the new folder with its id and path.

    Args:
        name: The folder's name (no slashes); must not already be used in the parent folder.
        parent_id: Id of the folder to create it in; "root" for the top of My Drive.

    Returns:
        The new folder's details (as get-file).
    """
    name = _check_name(name, "name")
    parent = _folder(ctx, parent_id, "parent_id")
    _require_edit(ctx, parent, "parent_id")
    _check_free(ctx, parent.id if parent else ROOT, name, "name")
    f = _new_item(ctx, name, parent, None)
    ctx.state.files[f.id] = f
    return _detail(ctx, f)


@app.action(read_only=False)
def create_file(
    ctx: Context[DriveState], name: str, parent_id: str = ROOT, content: str = "", path: str = ""
) -> dict[str, Any]:
    """Upload a new text file, from text you give or from a file in your workspace.

    Give exactly one of content and path. The content type follows the name's
    extension (.md, .csv, .txt, ...).

    Example:
        name="Offsite packing list.md" parent_id="fld_offsite_2026" content="# Packing list..." -> the new file.

    Args:
        name: The file's name with its extension (no slashes); must not already be used in the folder.
        parent_id: Id of the folder to put it in; "root" for the top of My Drive.
        content: The file's text.
        path: Path of a workspace file to upload instead of content.

    Returns:
        The new file's details (as get-file).
    """
    name = _check_name(name, "name")
    parent = _folder(ctx, parent_id, "parent_id")
    _require_edit(ctx, parent, "parent_id")
    _check_free(ctx, parent.id if parent else ROOT, name, "name")
    data = receive_file(ctx, content, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgument(f"'{path}' is not UTF-8 text; only text files can be stored", "path") from None
    f = _new_item(ctx, name, parent, text)
    ctx.state.files[f.id] = f
    return _detail(ctx, f)


@app.action(read_only=False)
def move_file(ctx: Context[DriveState], file_id: str, new_parent_id: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside it) into another folder.

    Example:
        file_id="file_offsite_venue_options" new_parent_id="fld_archive" -> its details with the new path.

    Args:
        file_id: The id of the file or folder to move.
        new_parent_id: Id of the destination folder; "root" for the top of My Drive.

    Returns:
        The item's details (as get-file) after the move.
    """
    f = _get(ctx, file_id)
    dest = _folder(ctx, new_parent_id, "new_parent_id")
    _require_edit(ctx, f, "file_id")
    _require_edit(ctx, dest, "new_parent_id")
    dest_id = dest.id if dest else ROOT
    if dest is not None and (dest.id == f.id or f.id in {a.id for a in _ancestors(ctx.state, dest)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{f.name}' itself or inside it; pick a folder outside it", "new_parent_id"
        )
    if dest_id == f.parent_id:
        return _detail(ctx, f)
    _check_free(ctx, dest_id, f.name, "new_parent_id", skip=f.id)
    f.parent_id = dest_id
    f.modified = ctx.now
    return _detail(ctx, f)


@app.action(read_only=False)
def rename_file(ctx: Context[DriveState], file_id: str, new_name: str) -> dict[str, Any]:
    """Give a file or folder a new name; it stays where it is.

    Example:
        file_id="file_q2_budget_draft" new_name="Q2 budget.csv" -> its details with the new name.

    Args:
        file_id: The id of the file or folder.
        new_name: The new name (no slashes); must not already be used in the same folder.

    Returns:
        The item's details (as get-file) after renaming.
    """
    f = _get(ctx, file_id)
    name = _check_name(new_name, "new_name")
    _require_edit(ctx, f, "file_id")
    if name == f.name:
        return _detail(ctx, f)
    _check_free(ctx, f.parent_id, name, "new_name", skip=f.id)
    f.name = name
    f.modified = ctx.now
    return _detail(ctx, f)


@app.action(read_only=False)
def trash_file(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Move a file or folder to the trash; a folder's contents go with it.

    Example:
        file_id="fld_archive" -> {"trashed": ["fld_archive", "file_leadership_offsite_2025_agenda", ...]}.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"trashed": [ids now in the trash], "count": how many}.
    """
    f = _get(ctx, file_id)
    _require_edit(ctx, f, "file_id")
    items = [f, *(_descendants(ctx.state, f.id) if f.kind == "folder" else [])]
    newly = [x for x in items if not x.trashed]
    for x in newly:
        x.trashed = True
    return {"trashed": [x.id for x in newly], "count": len(newly)}


@app.action(read_only=False)
def share_file(
    ctx: Context[DriveState], file_id: str, email: str, role: Literal["reader", "commenter", "writer"] = "reader"
) -> dict[str, Any]:
    """Share a file or folder with someone, or change the role they already have.

    Sharing a folder shares everything inside it. People at this company must be
    in the directory; outside addresses are allowed.

    Example:
        file_id="file_q1_budget" email="grace.kim@northwind.example" role="commenter" -> the new permission.

    Args:
        file_id: The id of the file or folder.
        email: The person's email address.
        role: "reader" (can open), "commenter" (can open and comment) or "writer" (can edit and share).

    Returns:
        {"id", "name", "email", "role", "previous_role" (null if newly shared), "permissions": [{"email", "role"}]}.
    """
    f = _get(ctx, file_id)
    who = email.strip().lower()
    if not _EMAIL_RE.match(who):
        raise InvalidArgument(f"'{email}' is not an email address; use e.g. priya.shah@northwind.example", "email")
    domain = ctx.user.split("@")[-1].lower()
    directory = ctx.other("directory")
    if directory is not None and who.endswith("@" + domain):
        people = getattr(directory, "people", {})
        if not any(p.email.lower() == who for p in people.values()):
            raise NotFound(f"no one at {domain} has the address '{email}'; use directory search-people", "email")
    if who == f.owner.lower():
        raise Conflict(f"{f.owner} owns '{f.name}' and already has full access", "email")
    _require_edit(ctx, f, "file_id")
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

    Only access given on this item itself can be removed here; access that comes
    from a folder above must be removed on that folder.

    Example:
        file_id="file_offsite_attendee_list" email="events@lakesidelodge.example" -> remaining permissions.

    Args:
        file_id: The id of the file or folder.
        email: The email address whose access to remove.

    Returns:
        {"id", "name", "removed": email, "permissions": [{"email", "role"}] remaining}.
    """
    f = _get(ctx, file_id)
    who = email.strip().lower()
    current = next((p for p in f.permissions if p.email.lower() == who), None)
    if current is None:
        upper = next((a for a in _ancestors(ctx.state, f) if any(p.email.lower() == who for p in a.permissions)), None)
        if upper is not None:
            raise Conflict(f"{email} has access through folder '{upper.name}' ({upper.id}); remove it there", "email")
        raise NotFound(f"'{f.name}' is not shared with '{email}'; use drive list-permissions", "email")
    if current.role == "owner":
        raise Conflict(f"{current.email} owns '{f.name}'; the owner's access cannot be removed", "email")
    if who != ctx.user.lower():
        _require_edit(ctx, f, "file_id")
    f.permissions = [p for p in f.permissions if p is not current]
    return {
        "id": f.id,
        "name": f.name,
        "removed": current.email,
        "permissions": [p.model_dump() for p in f.permissions],
    }
