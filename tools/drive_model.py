"""The drive's records and the rules every drive action shares: access, places, paths and views.

Items live in My Drive (``drive_id`` empty: the acting user's own items and those shared with
them) or in a shared drive (``drive_id`` is the shared drive's id; access comes from its
members). A file's bytes are a blob; earlier contents are kept as versions with their own blobs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any, Literal

from tools.kernel.documents import blob_text, mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import AppState, Context, Record, format_instant
from tools.kits.files import looks_encoded
from tools.kits.text import fold, require_text

__all__ = [
    "FOLDER_MIME",
    "ROOT",
    "Comment",
    "DriveFile",
    "DriveState",
    "Member",
    "Permission",
    "Place",
    "Reply",
    "SharedDrive",
    "Version",
    "access",
    "check_free",
    "detail",
    "file_text",
    "get_item",
    "member_role",
    "place",
    "refuse_encoded",
    "require_edit",
    "require_organize",
    "require_write",
    "summary",
]

ROOT = "root"
FOLDER_MIME = "application/vnd.google-apps.folder"
RANK = {"reader": 1, "commenter": 2, "writer": 3, "owner": 4}
#: What each shared-drive membership lets a member do with the drive's items.
MEMBER_ACCESS = {
    "manager": "writer",
    "content_manager": "writer",
    "contributor": "writer",
    "commenter": "commenter",
    "reader": "reader",
}
#: Members who may move, trash and restore a shared drive's items.
ORGANIZERS = ("manager", "content_manager")


class Permission(Record):
    """One person's access to a file or folder; the owner appears with role "owner"."""

    email: str
    role: Literal["owner", "reader", "commenter", "writer"]


class Member(Record):
    """One person's membership of a shared drive."""

    email: str
    role: Literal["manager", "content_manager", "contributor", "commenter", "reader"]


class Version(Record):
    """An earlier content of a file, kept when the content was replaced."""

    number: int
    name: str
    blob: str
    size: int
    mime_type: str
    modified: datetime
    modified_by: str


class DriveFile(Record):
    """A file or a folder."""

    id: str
    name: str
    kind: Literal["file", "folder"]
    mime_type: str
    parent_id: str = ROOT  # "root", a shared drive's id (top of that drive) or a folder's id
    drive_id: str = ""  # "" in My Drive, else the shared drive holding the item
    owner: str  # in a shared drive: the person who added the item
    created: datetime
    modified: datetime
    modified_by: str = ""
    size: int = 0  # bytes of content; 0 for folders
    blob: str = ""  # blob id of the content; "" for folders
    trashed: bool = False
    trashed_with: str = ""  # id of the item whose trashing put this one in the trash
    permissions: list[Permission] = []
    versions: list[Version] = []  # earlier contents, oldest first; the current one is number len+1


class Reply(Record):
    """An answer in a comment's thread."""

    id: str
    author: str
    body: str
    created: datetime


class Comment(Record):
    """A comment on a file, optionally anchored to a quoted passage, with its replies."""

    id: str
    file_id: str
    author: str
    body: str
    quote: str = ""
    created: datetime
    resolved: bool = False
    resolved_by: str = ""
    replies: list[Reply] = []


class SharedDrive(Record):
    """A drive owned by the company rather than a person; its members decide who can do what."""

    id: str
    name: str
    created: datetime
    members: list[Member] = []


class DriveState(AppState):
    """Every file and folder, comment and shared drive, keyed by id."""

    files: dict[str, DriveFile] = {}
    comments: dict[str, Comment] = {}
    shared_drives: dict[str, SharedDrive] = {}


@dataclass(frozen=True)
class Place:
    """Where new items can go: My Drive's top, a shared drive's top, or a folder."""

    id: str  # the parent_id children get
    drive_id: str
    folder: DriveFile | None
    name: str
    path: str


# ---- access -----------------------------------------------------------------------------------


def member_role(state: DriveState, drive_id: str, user: str) -> str | None:
    """The user's membership role in shared drive ``drive_id``, or None."""
    sd = state.shared_drives.get(drive_id)
    if sd is None:
        return None
    return next((m.role for m in sd.members if m.email.lower() == user.lower()), None)


def ancestors(state: DriveState, f: DriveFile) -> list[DriveFile]:
    """The folders above ``f``, nearest first."""
    out: list[DriveFile] = []
    pid = f.parent_id
    while pid in state.files and len(out) < 100:
        out.append(state.files[pid])
        pid = state.files[pid].parent_id
    return out


def access(state: DriveState, f: DriveFile, user: str) -> str | None:
    """The user's effective role on ``f`` (own, folder and shared-drive access), or None."""
    best = 0
    for depth, node in enumerate([f, *ancestors(state, f)]):
        for p in node.permissions:
            if p.email.lower() == user.lower():
                rank = RANK[p.role]
                best = max(best, rank if depth == 0 or rank < 4 else 3)
    role = member_role(state, f.drive_id, user) if f.drive_id else None
    if role:
        best = max(best, RANK[MEMBER_ACCESS[role]])
    return next((r for r, rank in RANK.items() if rank == best), None)


def get_item(ctx: Context[DriveState], file_id: str, parameter: str = "file_id") -> DriveFile:
    """The file or folder ``file_id`` the user can see (trashed ones included)."""
    f = ctx.state.files.get(file_id.strip())
    if f is None or access(ctx.state, f, ctx.user) is None:
        hint = "drive list-shared-drives" if file_id.strip().startswith("sd_") else "drive search-files"
        raise NotFound(f"no file or folder with id '{file_id}'; use {hint} to find ids", parameter)
    return f


def _drive_name(state: DriveState, drive_id: str) -> str:
    sd = state.shared_drives.get(drive_id)
    return sd.name if sd else drive_id


def _managers(state: DriveState, drive_id: str) -> str:
    sd = state.shared_drives.get(drive_id)
    return ", ".join(m.email for m in (sd.members if sd else []) if m.role == "manager") or "a manager"


def require_edit(ctx: Context[DriveState], f: DriveFile, parameter: str) -> None:
    """Refuse when ``f`` is in the trash or the user may not change it."""
    if f.trashed:
        raise Conflict(
            f"'{f.name}' ({f.id}) is in the trash and cannot be changed; use drive restore-file first", parameter
        )
    role = access(ctx.state, f, ctx.user)
    if RANK.get(role or "", 0) < RANK["writer"]:
        if f.drive_id:
            sd_name, managers = _drive_name(ctx.state, f.drive_id), _managers(ctx.state, f.drive_id)
            who = f"a manager of shared drive '{sd_name}' ({managers})"
        else:
            who = f"its owner {f.owner}"
        raise Conflict(f"you have {role} access to '{f.name}'; ask {who} for edit access", parameter)


def require_organize(ctx: Context[DriveState], f: DriveFile, parameter: str) -> None:
    """Moving, trashing and restoring: edit access, and in a shared drive a manager or content manager role."""
    if not f.drive_id:
        return
    role = member_role(ctx.state, f.drive_id, ctx.user)
    if role not in ORGANIZERS:
        raise Conflict(
            f"in shared drive '{_drive_name(ctx.state, f.drive_id)}' only managers and content managers may move, "
            f"trash or restore items; you are a {role or 'guest'} there. Ask {_managers(ctx.state, f.drive_id)}",
            parameter,
        )


def place(ctx: Context[DriveState], folder_id: str, parameter: str) -> Place:
    """Resolve a folder id: "root" (My Drive), a shared drive's id, or a folder's id."""
    key = folder_id.strip()
    if key in ("", ROOT):
        return Place(ROOT, "", None, "My Drive", "/")
    sd = ctx.state.shared_drives.get(key)
    if sd is not None:
        if member_role(ctx.state, sd.id, ctx.user) is None:
            raise NotFound(
                f"no shared drive '{folder_id}' that you are a member of; use drive list-shared-drives", parameter
            )
        return Place(sd.id, sd.id, None, sd.name, f"/Shared drives/{sd.name}")
    f = get_item(ctx, key, parameter)
    if f.kind != "folder":
        raise InvalidArgument(f"'{f.name}' ({f.id}) is a file, not a folder", parameter)
    return Place(f.id, f.drive_id, f, f.name, path_of(ctx.state, f))


def require_write(ctx: Context[DriveState], where: Place, parameter: str) -> None:
    """Refuse when the user may not add items at ``where``."""
    if where.folder is not None:
        require_edit(ctx, where.folder, parameter)
    elif where.drive_id:
        role = member_role(ctx.state, where.drive_id, ctx.user)
        if role not in ("manager", "content_manager", "contributor"):
            raise Conflict(
                f"you are a {role} of shared drive '{where.name}' and cannot add items; ask "
                f"{_managers(ctx.state, where.drive_id)} for contributor access",
                parameter,
            )


# ---- names and places -------------------------------------------------------------------------


def check_name(name: str, parameter: str) -> str:
    """A usable item name (non-empty, no slashes)."""
    name = require_text(name, parameter)
    if "/" in name:
        raise InvalidArgument(f"'{name}' contains '/'; names cannot contain slashes", parameter)
    return name


def same_name(state: DriveState, parent_id: str, name: str, skip: str = "") -> DriveFile | None:
    """The item not in the trash that already uses ``name`` in ``parent_id``, if any."""
    return next(
        (
            o
            for o in state.files.values()
            if o.parent_id == parent_id and not o.trashed and o.id != skip and fold(o.name) == fold(name)
        ),
        None,
    )


def check_free(ctx: Context[DriveState], parent_id: str, name: str, parameter: str, skip: str = "") -> None:
    """Refuse a name already used in the folder."""
    other = same_name(ctx.state, parent_id, name, skip)
    if other is not None:
        if parent_id == ROOT:
            where = "My Drive"
        elif parent_id in ctx.state.shared_drives:
            where = f"shared drive '{_drive_name(ctx.state, parent_id)}'"
        else:
            where = f"folder {parent_id}"
        raise Conflict(f"{where} already has an item named '{other.name}' ({other.id}); pick another name", parameter)


def free_name(state: DriveState, parent_id: str, name: str) -> str:
    """``name``, or "stem (1).ext", "stem (2).ext"... when the folder already uses it."""
    if same_name(state, parent_id, name) is None:
        return name
    p = PurePosixPath(name)
    stem, ext = (p.stem, p.suffix) if p.suffix else (name, "")
    n = 1
    while same_name(state, parent_id, f"{stem} ({n}){ext}") is not None:
        n += 1
    return f"{stem} ({n}){ext}"


def path_of(state: DriveState, f: DriveFile) -> str:
    """The item's path, e.g. "/Finance/Budgets/Q1 budget.xlsx" or "/Shared drives/Atlas Program/..."."""
    names = [a.name for a in reversed(ancestors(state, f))]
    head = f"/Shared drives/{_drive_name(state, f.drive_id)}" if f.drive_id else ""
    return head + "/" + "/".join([*names, f.name])


def descendants(state: DriveState, folder_id: str) -> list[DriveFile]:
    """Everything inside folder (or shared drive) ``folder_id``, at any depth."""
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


# ---- content ----------------------------------------------------------------------------------



def file_text(ctx: Context[DriveState], f: DriveFile) -> str:
    """The file's text, folded for matching ("" for folders, images and unreadable content)."""
    return fold(blob_text(ctx.blobs, f.blob, f.name))


def mime_for(name: str, data: bytes) -> str:
    """The content type by extension; unknown extensions on UTF-8 text count as plain text."""
    mime = mime_type_for(name)
    if mime == "application/octet-stream" and is_text(data):
        return "text/plain"
    return mime


def is_text(data: bytes) -> bool:
    """True when ``data`` is UTF-8 text (no NUL bytes)."""
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True




def refuse_encoded(content: str, parameter: str, alternative: str) -> None:
    """Refuse file bytes pasted as base64 or as a ``data:`` URI in a text parameter.

    Raises:
        InvalidArgument: naming ``parameter`` and ``alternative`` (what to call instead).
    """
    if looks_encoded(content):
        raise InvalidArgument(
            f"this looks like base64-encoded file bytes, which are not accepted here; save the file in your "
            f"workspace and pass path=<workspace path> instead ({alternative})",
            parameter,
        )


# ---- views ------------------------------------------------------------------------------------


def summary(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    """The short view used in lists."""
    return {
        "id": f.id,
        "name": f.name,
        "kind": f.kind,
        "mime_type": f.mime_type,
        "parent_id": f.parent_id,
        "shared_drive_id": f.drive_id or None,
        "owner": f.owner,
        "modified": format_instant(f.modified, ctx.tz),
        "size": f.size,
        "trashed": f.trashed,
    }


def detail(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    """The full view: path, versions, direct and inherited access."""
    direct = {p.email.lower() for p in f.permissions}
    inherited: list[dict[str, Any]] = []
    for folder in ancestors(ctx.state, f):
        for p in folder.permissions:
            if p.email.lower() not in direct:
                direct.add(p.email.lower())
                inherited.append({"email": p.email, "role": p.role, "from_folder_id": folder.id})
    sd = ctx.state.shared_drives.get(f.drive_id) if f.drive_id else None
    members = [(m, sd.id) for m in sd.members] if sd else []
    for m, sd_id in members:
        if m.email.lower() not in direct:
            direct.add(m.email.lower())
            inherited.append({"email": m.email, "role": MEMBER_ACCESS[m.role], "from_shared_drive_id": sd_id})
    out = summary(ctx, f)
    out.update(
        path=path_of(ctx.state, f),
        shared_drive={"id": sd.id, "name": sd.name} if sd else None,
        created=format_instant(f.created, ctx.tz),
        last_modified_by=f.modified_by or f.owner,
        permissions=[p.model_dump() for p in f.permissions],
        inherited_permissions=inherited,
        your_access=access(ctx.state, f, ctx.user),
    )
    if f.kind == "file":
        out["version"] = len(f.versions) + 1
        out["open_comments"] = sum(1 for c in ctx.state.comments.values() if c.file_id == f.id and not c.resolved)
    return out
