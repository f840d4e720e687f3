"""The rules the drive's actions share: lookups, access, places, names, paths, content and new records."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from tools.apps.drive.state import FOLDER_MIME, ROOT, Comment, DriveFile, DriveState, Permission, Version
from tools.kernel.documents import blob_text, extract_text, mime_type_for, workbook_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, matching
from tools.kits import folders
from tools.kits.people import known_emails
from tools.kits.text import fold

__all__ = [
    "MEMBER_ACCESS",
    "RANK",
    "Place",
    "access",
    "ancestors",
    "check_email",
    "check_free",
    "check_name",
    "descendants",
    "file_text",
    "free_name",
    "get_comment",
    "get_file_only",
    "get_item",
    "get_versioned_file",
    "is_text",
    "member_role",
    "new_file",
    "new_item",
    "new_version",
    "path_of",
    "place",
    "readable_text",
    "require_comment",
    "require_edit",
    "require_organize",
    "require_write",
    "same_name",
]

#: The item roles, weakest first.
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
_ORGANIZERS = ("manager", "content_manager")
#: Characters the drive refuses in names.
_FORBIDDEN = "/"
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


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
    return folders.ancestors(f.parent_id, state.files, lambda d: d.parent_id)


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
    """The file or folder ``file_id`` the user can see (trashed ones included).

    Raises:
        NotFound: No such item, or the user has no access to it.
    """
    f = ctx.state.files.get(file_id.strip())
    if f is None or access(ctx.state, f, ctx.user) is None:
        hint = "drive list-shared-drives" if file_id.strip().startswith("sd_") else "drive search-files"
        raise NotFound(f"no file or folder with id '{file_id}'; use {hint} to find ids", parameter)
    return f


def get_file_only(ctx: Context[DriveState], file_id: str, verb: str) -> DriveFile:
    """The file ``file_id`` (see :func:`get_item`), refusing a folder.

    Args:
        ctx: The action's context.
        file_id: The id the caller gave.
        verb: What the action would do with it, e.g. "read", for the error.

    Raises:
        InvalidArgument: ``file_id`` is a folder.
    """
    f = get_item(ctx, file_id)
    if f.kind == "folder":
        raise InvalidArgument(
            f"'{f.name}' is a folder and cannot be {verb}; use drive list-folder to see what it holds", "file_id"
        )
    return f


def get_versioned_file(ctx: Context[DriveState], file_id: str) -> DriveFile:
    """The file ``file_id`` (see :func:`get_item`) for its versions or comments.

    Raises:
        InvalidArgument: ``file_id`` is a folder.
    """
    f = get_item(ctx, file_id)
    if f.kind == "folder":
        raise InvalidArgument(f"'{f.name}' is a folder; folders have no versions or comments", "file_id")
    return f


def _drive_name(state: DriveState, drive_id: str) -> str:
    sd = state.shared_drives.get(drive_id)
    return sd.name if sd else drive_id


def _managers(state: DriveState, drive_id: str) -> str:
    sd = state.shared_drives.get(drive_id)
    return ", ".join(m.email for m in (sd.members if sd else []) if m.role == "manager") or "a manager"


def require_edit(ctx: Context[DriveState], f: DriveFile, parameter: str) -> None:
    """Refuse when ``f`` is in the trash or the user may not change it.

    Raises:
        Conflict: In the trash, or the user has less than writer access; the message says whom to ask.
    """
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
    """Moving, trashing and restoring: edit access, and in a shared drive a manager or content manager role.

    Raises:
        Conflict: In a shared drive, the user is neither a manager nor a content manager there.
    """
    if not f.drive_id:
        return
    role = member_role(ctx.state, f.drive_id, ctx.user)
    if role not in _ORGANIZERS:
        raise Conflict(
            f"in shared drive '{_drive_name(ctx.state, f.drive_id)}' only managers and content managers may move, "
            f"trash or restore items; you are a {role or 'guest'} there. Ask {_managers(ctx.state, f.drive_id)}",
            parameter,
        )


def place(ctx: Context[DriveState], folder_id: str, parameter: str) -> Place:
    """Resolve a folder id: "root" (My Drive), a shared drive's id, or a folder's id.

    Raises:
        NotFound: No such folder, or a shared drive the user is not a member of.
        InvalidArgument: The id is a file's.
    """
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
    """Refuse when the user may not add items at ``where``.

    Raises:
        Conflict: The user may not edit the folder, or is less than a contributor of the shared drive.
    """
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


def check_email(ctx: Context[DriveState], email: str, parameter: str) -> str:
    """An address to share with, lower-cased: well formed and, at this company, in the directory.

    Raises:
        InvalidArgument: Not an email address.
        NotFound: An address at the company's domain that the directory does not know.
    """
    who = email.strip().lower()
    if not _EMAIL_RE.match(who):
        raise InvalidArgument(f"'{email}' is not an email address; use e.g. priya.shah@northwind.example", parameter)
    domain = ctx.user.split("@")[-1].lower()
    known = known_emails(ctx)
    if known is not None and who.endswith("@" + domain) and who not in known:
        raise NotFound(f"no one at {domain} has the address '{email}'; use directory search-people", parameter)
    return who


# ---- names and places -------------------------------------------------------------------------


def check_name(name: str, parameter: str) -> str:
    """A usable item name, stripped (see :func:`tools.kits.folders.check_name`; the drive refuses only "/").

    Raises:
        InvalidArgument: The name is empty, holds a slash, or is otherwise unusable.
    """
    return folders.check_name(name, parameter, forbidden=_FORBIDDEN)


def same_name(state: DriveState, parent_id: str, name: str, skip: str = "") -> DriveFile | None:
    """The item not in the trash that already uses ``name`` in ``parent_id``, if any."""
    return next(
        iter(
            matching(
                state.files,
                lambda o: o.parent_id == parent_id and not o.trashed and o.id != skip and fold(o.name) == fold(name),
            )
        ),
        None,
    )


def check_free(ctx: Context[DriveState], parent_id: str, name: str, parameter: str, skip: str = "") -> None:
    """Refuse a name already used in the folder.

    Raises:
        Conflict: Another item not in the trash uses the name there; the message names it.
    """
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
    return folders.descendants(
        folder_id,
        lambda pid: matching(state.files, lambda f: f.parent_id == pid),
        lambda f: f.id if f.kind == "folder" else None,
    )


# ---- content ----------------------------------------------------------------------------------


def file_text(ctx: Context[DriveState], f: DriveFile) -> str:
    """The file's text, folded for matching ("" for folders, images and unreadable content)."""
    return fold(blob_text(ctx.blobs, f.blob, f.name))


def _mime_for(name: str, data: bytes) -> str:
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


def readable_text(data: bytes, name: str) -> str:
    """A document's text for reading (bounded as ``extract_text`` is); workbooks get a heading per sheet."""
    if PurePosixPath(name).suffix.lower() == ".xlsx":
        return workbook_text(data, headings=True)
    return extract_text(data, name)


# ---- new records ------------------------------------------------------------------------------


def new_item(
    ctx: Context[DriveState], name: str, where: Place, mime_type: str = FOLDER_MIME, blob: str = "", size: int = 0
) -> DriveFile:
    """A new item owned by the user (a folder unless a content type and blob are given)."""
    is_folder = mime_type == FOLDER_MIME
    return DriveFile(
        id=ctx.new_id("fld" if is_folder else "file"),
        name=name,
        kind="folder" if is_folder else "file",
        mime_type=mime_type,
        parent_id=where.id,
        drive_id=where.drive_id,
        owner=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        modified_by=ctx.user,
        size=size,
        blob=blob,
        permissions=[] if where.drive_id else [Permission(email=ctx.user, role="owner")],
    )


def new_file(ctx: Context[DriveState], name: str, where: Place, data: bytes) -> DriveFile:
    """A new file of the user's holding ``data``, its content type by name (and content)."""
    return new_item(ctx, name, where, _mime_for(name, data), ctx.blobs.put(data), len(data))


def new_version(ctx: Context[DriveState], f: DriveFile, data: bytes) -> None:
    """Make ``data`` the file's content, keeping the present content as a version."""
    old = Version(
        number=len(f.versions) + 1,
        name=f.name,
        blob=f.blob,
        size=f.size,
        mime_type=f.mime_type,
        modified=f.modified,
        modified_by=f.modified_by or f.owner,
    )
    f.versions = [*f.versions, old]
    f.blob = ctx.blobs.put(data)
    f.size = len(data)
    f.mime_type = _mime_for(f.name, data)
    f.modified = ctx.now
    f.modified_by = ctx.user


# ---- comments ---------------------------------------------------------------------------------


def get_comment(ctx: Context[DriveState], comment_id: str) -> tuple[Comment, DriveFile]:
    """The comment ``comment_id`` and its file, when the user can see the file.

    Raises:
        NotFound: No such comment, or its file is out of the user's reach.
    """
    c = ctx.state.comments.get(comment_id.strip())
    f = ctx.state.files.get(c.file_id) if c else None
    if c is None or f is None or access(ctx.state, f, ctx.user) is None:
        raise NotFound(f"no comment with id '{comment_id}'; use drive list-comments on the file", "comment_id")
    return c, f


def require_comment(ctx: Context[DriveState], f: DriveFile, parameter: str) -> None:
    """Refuse when ``f`` is in the trash or the user may not comment on it.

    Raises:
        Conflict: In the trash, or the user has only reader access.
    """
    if f.trashed:
        raise Conflict(f"'{f.name}' ({f.id}) is in the trash; use drive restore-file first", parameter)
    role = access(ctx.state, f, ctx.user)
    if RANK.get(role or "", 0) < RANK["commenter"]:
        raise Conflict(
            f"you have {role} access to '{f.name}' and cannot comment; ask {f.owner} for comment access", parameter
        )
