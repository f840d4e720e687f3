"""OneDrive's rules: finding items by id or path, who may do what, names, people and file content."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from tools.apps.onedrive.state import ROOT, DriveItem, OneDriveState, SharingLink, link_base
from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, matching
from tools.kits.files import receive_file, refuse_encoded, refuse_typed_document
from tools.kits.folders import ancestors, descendants
from tools.kits.people import directory_of, find_person
from tools.kits.text import fold, require_text

__all__ = [
    "ancestors_of",
    "descendants_of",
    "find_link",
    "folder_ref",
    "free_name",
    "item_path",
    "link_active",
    "require_edit",
    "require_own",
    "resolve",
    "resolve_file",
    "resolve_people",
    "role_of",
    "taken",
    "text_of",
    "upload_bytes",
]

_RANK = {"read": 1, "write": 2, "owner": 3}
_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
#: Extensions of files that inline text cannot make; those come from a workspace file.

_Ctx = Context[OneDriveState]


# ---- finding items ----------------------------------------------------------------------------


def ancestors_of(state: OneDriveState, item: DriveItem) -> list[DriveItem]:
    """The folders above ``item``, nearest first (empty for top-level and shared items)."""
    return ancestors(item.parent_id, state.items, lambda folder: folder.parent_id)


def descendants_of(state: OneDriveState, folder_id: str) -> list[DriveItem]:
    """Everything inside a folder at any depth, deleted or not."""

    def children(parent_id: str) -> Iterator[DriveItem]:
        return iter(matching(state.items, lambda i: i.parent_id == parent_id))

    def folder_id_of(item: DriveItem) -> str | None:
        return item.id if item.kind == "folder" else None

    return descendants(folder_id, children, folder_id_of)


def item_path(state: OneDriveState, item: DriveItem) -> str | None:
    """``/Documents/Budgets/Q1 budget.xlsx`` for an item of your OneDrive; None for one shared with you."""
    if item.parent_id == "":
        return None
    names = [a.name for a in reversed(ancestors_of(state, item))]
    return "/" + "/".join([*names, item.name])


def role_of(state: OneDriveState, item: DriveItem, user: str) -> str | None:
    """The user's access to ``item``: "owner", "write", "read" or None (own grants plus folders above)."""
    if item.owner.lower() == user.lower():
        return "owner"
    best = 0
    for node in [item, *ancestors_of(state, item)]:
        for p in node.permissions:
            if p.email.lower() == user.lower():
                best = max(best, _RANK[p.role])
    return next((role for role, rank in _RANK.items() if rank == best), None)


def _by_path(ctx: _Ctx, path: str, parameter: str) -> DriveItem | None:
    parts = [p for p in path.strip().strip("/").split("/") if p.strip()]
    parent, found = ROOT, None
    for depth, part in enumerate(parts):
        found = next(
            iter(
                matching(
                    ctx.state.items,
                    lambda i: i.parent_id == parent and i.deleted is None and fold(i.name) == fold(part),  # noqa: B023 (run now)
                )
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


def resolve(ctx: _Ctx, ref: str, parameter: str, *, deleted: bool = False) -> DriveItem:
    """The item named by an id or a path (``/Documents/Q1.xlsx``) that the user can see.

    Args:
        ctx: The action's context.
        ref: Id or path as the caller wrote it.
        parameter: Parameter name for errors.
        deleted: Also accept items in the recycle bin (by id only).

    Returns:
        The item's record.

    Raises:
        InvalidArgument: An empty reference, or "/" (the top is not an item).
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


def resolve_file(ctx: _Ctx, ref: str, parameter: str = "item") -> DriveItem:
    """The file named by an id or path (see :func:`resolve`).

    Raises:
        InvalidArgument: ``ref`` names a folder.
    """
    item = resolve(ctx, ref, parameter)
    if item.kind == "folder":
        raise InvalidArgument(f"'{item.name}' is a folder; use onedrive list-children to see what it holds", parameter)
    return item


def folder_ref(ctx: _Ctx, ref: str, parameter: str) -> DriveItem | None:
    """The folder named by ``ref``; None for the top of your OneDrive ("", "/" or "root").

    Raises:
        InvalidArgument: ``ref`` names a file.
    """
    if ref.strip() in ("", "/", ROOT):
        return None
    folder = resolve(ctx, ref, parameter)
    if folder.kind != "folder":
        raise InvalidArgument(f"'{folder.name}' ({folder.id}) is a file, not a folder", parameter)
    return folder


def find_link(ctx: _Ctx, ref: str) -> SharingLink:
    """The sharing link named by its id or full URL, on an item the user can see.

    Raises:
        NotFound: No such link, or its item is gone or not the user's to see.
    """
    key = require_text(ref, "link").rstrip("/")
    base = link_base(ctx.user)
    if key.startswith(base):
        key = key[len(base) :]
    link = ctx.state.links.get(key)
    if link is None or link.item_id not in ctx.state.items:
        raise NotFound(f"no sharing link '{ref}'; use onedrive list-sharing-links on the item to see its links", "link")
    resolve(ctx, link.item_id, "link", deleted=True)  # the link's item must be one you can see
    return link


def link_active(ctx: _Ctx, link: SharingLink) -> bool:
    """Whether ``link`` still works today (no expiry, or it expires today or later)."""
    return link.expires is None or link.expires >= ctx.now.astimezone(ctx.tz).date()


# ---- who may change what ----------------------------------------------------------------------


def require_edit(ctx: _Ctx, item: DriveItem | None, parameter: str) -> None:
    """Refuse unless the user owns ``item`` or may edit it (None is the top of your OneDrive).

    Raises:
        Conflict: The item was shared with the user read-only.
    """
    if item is None:
        return
    role = role_of(ctx.state, item, ctx.user)
    if _RANK.get(role or "", 0) < _RANK["write"]:
        raise Conflict(
            f"'{item.name}' was shared with you read-only by {item.owner}; ask them for edit access, "
            "or use onedrive copy-item to make your own copy",
            parameter,
        )


def require_own(item: DriveItem, parameter: str, doing: str) -> None:
    """Refuse when ``item`` lives in someone else's OneDrive (it can't be moved or deleted from here).

    Raises:
        Conflict: The item was shared with the user; the message names its owner.
    """
    if item.parent_id == "":
        raise Conflict(
            f"'{item.name}' lives in {item.owner}'s OneDrive, so you cannot {doing} it; "
            "use onedrive copy-item to put a copy in yours",
            parameter,
        )


# ---- names ------------------------------------------------------------------------------------


def taken(state: OneDriveState, parent_id: str, name: str, skip: str = "") -> DriveItem | None:
    """The item (not deleted) already named ``name`` in folder ``parent_id``, if any."""
    return next(
        iter(
            matching(
                state.items,
                lambda i: i.parent_id == parent_id and i.deleted is None and i.id != skip
                and fold(i.name) == fold(name),
            )
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


def resolve_people(ctx: _Ctx, values: list[str], parameter: str) -> list[str]:
    """Email addresses for colleagues' names or addresses; outside addresses pass as they are.

    Raises:
        InvalidArgument: A value that is neither an address nor a colleague's name.
        NotFound: A company address or name no one in the directory has.
    """
    people = directory_of(ctx)
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


def text_of(ctx: _Ctx, item: DriveItem) -> str:
    """The document text of a file (cached by content), ``""`` for folders and images."""
    if item.kind != "file" or not item.blob:
        return ""
    return blob_text(ctx.blobs, item.blob, item.name)


def upload_bytes(ctx: _Ctx, name: str, content: str, path: str) -> bytes:
    """The bytes of a file to upload as ``name``: from workspace ``path``, or from plain-text ``content``.

    Raises:
        InvalidArgument: ``content`` is pasted file bytes, or text for a file type text cannot make
            (e.g. .docx); or both or neither of ``content`` and ``path`` given.
        NotFound: The workspace path holds no file.
    """
    if content:
        refuse_encoded(content, "content")
        refuse_typed_document(name, content)
    return receive_file(ctx, content, path)
