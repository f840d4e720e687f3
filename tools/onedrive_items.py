"""OneDrive's item rules: finding items by id or path, who may do what, and how items are shown.

:mod:`tools.onedrive` declares the records and the file actions, :mod:`tools.onedrive_sharing`
the sharing actions; both read and check items through these helpers, which never change
anything.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.files import looks_encoded
from tools.kits.people import DirectoryState, find_person
from tools.kits.text import fold, require_text

if TYPE_CHECKING:
    from tools.onedrive import DriveItem, OneDriveState

__all__ = [
    "ROOT",
    "ancestors",
    "check_name",
    "descendants",
    "detail",
    "folder_ref",
    "free_name",
    "item_path",
    "refuse_encoded",
    "require_edit",
    "require_own",
    "resolve",
    "resolve_file",
    "resolve_people",
    "role_of",
    "snippet",
    "summary",
    "taken",
    "text_of",
]

#: Parent id of the items at the top of the user's own OneDrive.
ROOT = "root"
_RANK = {"read": 1, "write": 2, "owner": 3}
_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")

State = Context["OneDriveState"]


# ---- finding items ----------------------------------------------------------------------------


def ancestors(state: OneDriveState, item: DriveItem) -> list[DriveItem]:
    """The folders above ``item``, nearest first (empty for top-level and shared items)."""
    out: list[DriveItem] = []
    pid = item.parent_id
    while pid not in (ROOT, "") and pid in state.items and len(out) < 100:
        out.append(state.items[pid])
        pid = state.items[pid].parent_id
    return out


def descendants(state: OneDriveState, folder_id: str) -> list[DriveItem]:
    """Everything inside a folder at any depth, deleted or not."""
    out: list[DriveItem] = []
    todo = [folder_id]
    while todo:
        pid = todo.pop()
        for item in state.items.values():
            if item.parent_id == pid:
                out.append(item)
                if item.kind == "folder":
                    todo.append(item.id)
    return out


def item_path(state: OneDriveState, item: DriveItem) -> str | None:
    """``/Documents/Budgets/Q1 budget.xlsx`` for an item of your OneDrive; None for one shared with you."""
    if item.parent_id == "":
        return None
    names = [a.name for a in reversed(ancestors(state, item))]
    return "/" + "/".join([*names, item.name])


def role_of(state: OneDriveState, item: DriveItem, user: str) -> str | None:
    """The user's access to ``item``: "owner", "write", "read" or None (own grants plus folders above)."""
    if item.owner.lower() == user.lower():
        return "owner"
    best = 0
    for node in [item, *ancestors(state, item)]:
        for p in node.permissions:
            if p.email.lower() == user.lower():
                best = max(best, _RANK[p.role])
    return next((role for role, rank in _RANK.items() if rank == best), None)


def _by_path(ctx: State, path: str, parameter: str) -> DriveItem | None:
    parts = [p for p in path.strip().strip("/").split("/") if p.strip()]
    parent, found = ROOT, None
    for depth, part in enumerate(parts):
        found = next(
            (
                i
                for i in ctx.state.items.values()
                if i.parent_id == parent and i.deleted is None and fold(i.name) == fold(part)
            ),
            None,
        )
        if found is None:
            where = "/" + "/".join(parts[:depth]) if depth else "the top of your OneDrive"
            raise NotFound(
                f"nothing named '{part}' in {where}; use onedrive list-children or onedrive search-items", parameter
            )
        parent = found.id
    return found


def resolve(ctx: State, ref: str, parameter: str, *, deleted: bool = False) -> DriveItem:
    """The item named by an id or a path (``/Documents/Q1.xlsx``) that the user can see.

    Args:
        ctx: The action's context.
        ref: Id or path as the caller wrote it.
        parameter: Parameter name for errors.
        deleted: Also accept items in the recycle bin (by id only).

    Raises:
        NotFound: No such item, or it is in the recycle bin (the message says so).
    """
    key = require_text(ref, parameter)
    if key.startswith("/"):
        found = _by_path(ctx, key, parameter)
        if found is None:
            raise InvalidArgument("'/' is the top of your OneDrive, not an item; name a file or folder", parameter)
        return found
    item = ctx.state.items.get(key)
    if item is None or role_of(ctx.state, item, ctx.user) is None:
        raise NotFound(
            f"no item with id '{ref}'; ids look like itm_..., or give a path such as /Documents/Budgets. "
            "Use onedrive search-items to find it",
            parameter,
        )
    if item.deleted is not None and not deleted:
        raise NotFound(
            f"'{item.name}' ({item.id}) is in the recycle bin; use onedrive restore-item to bring it back", parameter
        )
    return item


def resolve_file(ctx: State, ref: str, parameter: str = "item") -> DriveItem:
    """The file named by an id or path (see :func:`resolve`); a folder is refused."""
    item = resolve(ctx, ref, parameter)
    if item.kind == "folder":
        raise InvalidArgument(f"'{item.name}' is a folder; use onedrive list-children to see what it holds", parameter)
    return item


def folder_ref(ctx: State, ref: str, parameter: str) -> DriveItem | None:
    """The folder named by ``ref``; None for the top of your OneDrive ("", "/" or "root")."""
    if ref.strip() in ("", "/", ROOT):
        return None
    folder = resolve(ctx, ref, parameter)
    if folder.kind != "folder":
        raise InvalidArgument(f"'{folder.name}' ({folder.id}) is a file, not a folder", parameter)
    return folder


# ---- who may change what ----------------------------------------------------------------------


def require_edit(ctx: State, item: DriveItem | None, parameter: str) -> None:
    """Refuse unless the user owns ``item`` or may edit it (None is the top of your OneDrive)."""
    if item is None:
        return
    role = role_of(ctx.state, item, ctx.user)
    if _RANK.get(role or "", 0) < _RANK["write"]:
        raise Conflict(
            f"'{item.name}' was shared with you read-only by {item.owner}; ask them for edit access, "
            "or use onedrive copy-item to make your own copy",
            parameter,
        )


def require_own(ctx: State, item: DriveItem, parameter: str, doing: str) -> None:
    """Refuse when ``item`` lives in someone else's OneDrive (it can't be moved or deleted from here)."""
    if item.parent_id == "":
        raise Conflict(
            f"'{item.name}' lives in {item.owner}'s OneDrive, so you cannot {doing} it; "
            "use onedrive copy-item to put a copy in yours",
            parameter,
        )


def check_name(name: str, parameter: str) -> str:
    """A valid item name: not empty, no slashes or characters OneDrive refuses."""
    name = require_text(name, parameter)
    bad = sorted({c for c in name if c in '/\\:*?"<>|'})
    if bad:
        raise InvalidArgument(f"'{name}' contains {' '.join(bad)}; names cannot contain / \\ : * ? \" < > |", parameter)
    if name in (".", "..") or name.endswith("."):
        raise InvalidArgument(f"'{name}' cannot end with a dot", parameter)
    return name


def taken(state: OneDriveState, parent_id: str, name: str, skip: str = "") -> DriveItem | None:
    """The item (not deleted) already named ``name`` in folder ``parent_id``, if any."""
    return next(
        (
            i
            for i in state.items.values()
            if i.parent_id == parent_id and i.deleted is None and i.id != skip and fold(i.name) == fold(name)
        ),
        None,
    )


def free_name(state: OneDriveState, parent_id: str, name: str) -> str:
    """``name`` if free in the folder, else ``name 1.ext``, ``name 2.ext``... as OneDrive names copies."""
    if taken(state, parent_id, name) is None:
        return name
    p = PurePosixPath(name)
    stem, suffix = (p.stem, p.suffix) if p.suffix and p.stem else (name, "")
    n = 1
    while taken(state, parent_id, f"{stem} {n}{suffix}") is not None:
        n += 1
    return f"{stem} {n}{suffix}"


# ---- people -----------------------------------------------------------------------------------


def resolve_people(ctx: State, values: list[str], parameter: str) -> list[str]:
    """Email addresses for colleagues' names or addresses; outside addresses pass as they are.

    Raises:
        InvalidArgument: A value that is neither an address nor a colleague's name.
        NotFound: A company address or name no one in the directory has.
    """
    directory = ctx.other("directory")
    people = directory if isinstance(directory, DirectoryState) else None
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    out: list[str] = []
    for raw in values:
        value = raw.strip()
        if not value:
            continue
        if _EMAIL.match(value):
            email = value.lower()
            if people is not None and email.endswith("@" + domain):
                email = find_person(people, email, parameter).email.lower()
        elif people is not None:
            email = find_person(people, value, parameter).email.lower()
        else:
            raise InvalidArgument(f"'{value}' is not an email address; use e.g. priya.shah@{domain}", parameter)
        if email not in out:
            out.append(email)
    return out


# ---- content ----------------------------------------------------------------------------------


def text_of(ctx: State, item: DriveItem) -> str:
    """The document text of a file (cached by content), ``""`` for folders and images."""
    if item.kind != "file" or not item.blob:
        return ""
    return blob_text(ctx.blobs, item.blob, item.name)


def snippet(text: str, words: list[str], width: int = 70) -> str:
    """A short piece of ``text`` around the first of ``words`` found in it (``""`` when none is)."""
    low = text.lower()
    at = min((i for i in (low.find(w) for w in words) if i >= 0), default=-1)
    if at < 0:
        return ""
    start, end = max(0, at - width), min(len(text), at + width)
    piece = " ".join(text[start:end].split())
    return ("..." if start else "") + piece + ("..." if end < len(text) else "")


def refuse_encoded(content: str, parameter: str) -> None:
    """Refuse a ``data:`` URI or pasted base64 file content: files travel through the workspace.

    Raises:
        InvalidArgument: naming ``parameter`` and the way to send the file instead.
    """
    if looks_encoded(content):
        raise InvalidArgument(
            "looks like a data: URI or base64; file content cannot be pasted, "
            "save the file in your workspace and pass path=<its workspace path> instead",
            parameter,
        )


# ---- how items are shown ----------------------------------------------------------------------


def summary(ctx: State, item: DriveItem) -> dict[str, Any]:
    """The short form of an item used in lists and search results."""
    size = item.size
    if item.kind == "folder":
        inside = [d for d in descendants(ctx.state, item.id) if d.deleted is None]
        size = sum(d.size for d in inside if d.kind == "file")
    out: dict[str, Any] = {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "path": item_path(ctx.state, item),
        "size": size,
        "mime_type": item.mime_type,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
        "owner": item.owner,
    }
    if item.kind == "folder":
        out["child_count"] = sum(1 for i in ctx.state.items.values() if i.parent_id == item.id and i.deleted is None)
    return out


def detail(ctx: State, item: DriveItem) -> dict[str, Any]:
    """Everything about an item but its content and sharing details."""
    out = summary(ctx, item)
    active = [
        lnk
        for lnk in ctx.state.links.values()
        if lnk.item_id == item.id and (lnk.expires is None or lnk.expires >= ctx.now.astimezone(ctx.tz).date())
    ]
    out.update(
        parent_id=item.parent_id or None,
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        your_access=role_of(ctx.state, item, ctx.user),
        shared_with_me=item.parent_id == "",
        shared=len(item.permissions) > 1 or bool(active),
        active_links=len(active),
        version=item.versions[-1].number if item.versions else None,
    )
    if item.description:
        out["description"] = item.description
    return out
