"""OneDrive: your personal file store, with folders, versions, a recycle bin, and sharing."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.registry import App
from tools.kernel.world import AppState, Context, Record
from tools.kits.files import INLINE_LIMIT, deliver_file, receive_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold
from tools.onedrive_items import (
    ROOT,
    ancestors,
    check_name,
    descendants,
    detail,
    folder_ref,
    free_name,
    item_path,
    refuse_encoded,
    require_edit,
    require_own,
    resolve,
    resolve_file,
    role_of,
    snippet,
    summary,
    taken,
    text_of,
)

__all__ = ["DriveItem", "OneDriveState", "Permission", "SharingLink", "Version", "app"]

#: Extensions of files that inline text cannot make; those come from a workspace file.
_BINARY = {".docx", ".xlsx", ".pptx", ".pdf", ".png", ".jpg", ".jpeg", ".gif", ".zip"}


class Version(Record):
    """One saved version of a file; the last one is the current content."""

    number: int
    blob: str
    size: int
    modified: datetime
    modified_by: str


class Permission(Record):
    """One person's access to an item; the owner appears with role "owner"."""

    email: str
    role: Literal["owner", "write", "read"]
    granted: datetime


class DriveItem(Record):
    """A file or folder: in your OneDrive (parent "root" or a folder id), or shared with you (parent "")."""

    id: str
    name: str
    kind: Literal["file", "folder"]
    parent_id: str = ROOT
    owner: str
    created: datetime
    created_by: str
    modified: datetime
    modified_by: str
    mime_type: str = ""
    blob: str = ""  # current content (files); equals the last version's blob
    size: int = 0  # bytes of the current content; 0 for folders
    description: str = ""
    versions: list[Version] = []
    permissions: list[Permission] = []
    deleted: datetime | None = None  # when it went to the recycle bin
    deleted_by: str = ""
    deleted_with: str = ""  # id of the item whose deletion took this one to the recycle bin


class SharingLink(Record):
    """A link that opens an item for whoever the scope allows, until it expires or is revoked."""

    id: str
    item_id: str
    type: Literal["view", "edit"]
    scope: Literal["anyone", "organization", "specific_people"]
    recipients: list[str] = []  # only for scope "specific_people"
    expires: date | None = None  # last day the link works
    created: datetime
    created_by: str
    url: str


class OneDriveState(AppState):
    """Every item (yours, shared with you, and in the recycle bin) and every sharing link, keyed by id."""

    items: dict[str, DriveItem] = {}
    links: dict[str, SharingLink] = {}


app = App("onedrive", OneDriveState, "Your OneDrive: personal files and folders, versions, recycle bin and sharing.")

Ctx = Context[OneDriveState]


def _new(ctx: Ctx, name: str, parent_id: str, data: bytes | None) -> DriveItem:
    """A new item owned by the user (a folder when ``data`` is None); its blob is stored."""
    perm = Permission(email=ctx.user, role="owner", granted=ctx.now)
    fields: dict[str, Any] = {}
    if data is not None:
        blob = ctx.blobs.put(data)
        version = Version(number=1, blob=blob, size=len(data), modified=ctx.now, modified_by=ctx.user)
        fields = {"mime_type": mime_type_for(name), "blob": blob, "size": len(data), "versions": [version]}
    return DriveItem(
        id=ctx.new_id("itm"),
        name=name,
        kind="folder" if data is None else "file",
        parent_id=parent_id,
        owner=ctx.user,
        created=ctx.now,
        created_by=ctx.user,
        modified=ctx.now,
        modified_by=ctx.user,
        permissions=[perm],
        **fields,
    )


def add_version(ctx: Ctx, item: DriveItem, blob: str, size: int) -> None:
    number = (item.versions[-1].number if item.versions else 0) + 1
    version = Version(number=number, blob=blob, size=size, modified=ctx.now, modified_by=ctx.user)
    item.versions = [*item.versions, version]
    item.blob, item.size, item.modified, item.modified_by = blob, size, ctx.now, ctx.user


# ---- browsing and reading ----------------------------------------------------------------------


@app.action(read_only=True)
def list_children(
    ctx: Ctx,
    folder: str = "/",
    order_by: Literal["name", "modified", "size"] = "name",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List what a folder in your OneDrive holds.

    Sorted by name with folders first, or newest change first, or largest first.
    Items in the recycle bin are not listed.

    Example:
        folder="/Documents/Offsite 2026" -> Attendees.csv, Lakeside Lodge contract NWT-4471.pdf, ...

    Args:
        folder: The folder's id (e.g. "itm_budgets") or path (e.g. "/Documents/Budgets"); "/" is the top.
        order_by: "name" (folders first), "modified" (newest first) or "size" (largest first).
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path"}, "results": [{"id", "name", "kind", "path", "size" (bytes),
        "mime_type", "modified", "modified_by", "owner", "child_count" (folders)}], "page", "page_size",
        "total", "next_page"}.
    """
    parent = folder_ref(ctx, folder, "folder")
    pid = parent.id if parent else ROOT
    rows = [summary(ctx, i) for i in ctx.state.items.values() if i.parent_id == pid and i.deleted is None]
    if order_by == "name":
        rows.sort(key=lambda r: (r["kind"] != "folder", fold(r["name"]), r["id"]))
    elif order_by == "modified":
        rows.sort(key=lambda r: (-datetime.fromisoformat(r["modified"]).timestamp(), r["id"]))
    else:
        rows.sort(key=lambda r: (-r["size"], fold(r["name"])))
    head = {
        "id": pid,
        "name": parent.name if parent else "My files",
        "path": item_path(ctx.state, parent) if parent else "/",
    }
    return {"folder": head, **page_of(rows, page, page_size)}


@app.action(read_only=True)
def get_item(ctx: Ctx, item: str) -> dict[str, Any]:
    """Show a file's or folder's details: where it is, its size, who made and changed it, your access.

    Example:
        item="/Documents/Budgets/Q1 budget.xlsx" -> id itm_q1_budget, size, created_by, version 3, shared.

    Args:
        item: The item's id (e.g. "itm_q1_budget") or path (e.g. "/Documents/Budgets/Q1 budget.xlsx").

    Returns:
        {"id", "name", "kind", "path" (null for items shared with you), "size" (bytes), "mime_type",
        "modified", "modified_by", "owner", "parent_id", "created", "created_by", "your_access"
        (owner, write or read), "shared_with_me", "shared", "active_links", "version" (current number)}.
    """
    return detail(ctx, resolve(ctx, item, "item"))


@app.action(read_only=True)
def search_items(
    ctx: Ctx,
    query: str,
    folder: str = "",
    file_type: str = "",
    include_shared: bool = True,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find files and folders by words in their name or in the text of the document.

    Every word must appear in the name or the document's text (Word, Excel, PDF, CSV and text
    files are searched inside). Name matches come first, then the newest change.

    Example:
        query="NWT-4471" -> the Lakeside Lodge contract (the booking number is in the PDF's text).

    Args:
        query: Words to find, e.g. "contoso pricing".
        folder: Search only inside this folder (id or path), at any depth; empty for everything.
        file_type: Only files with this extension, e.g. "xlsx" or ".pdf"; "folder" for folders only.
        include_shared: Also search the files other people shared with you.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{... as list-children, "shared_with_me", "matched_in": ["name"/"text"], "snippet"}],
        "page", "page_size", "total", "next_page"}.
    """
    words = fold(query).split()
    if not words:
        raise InvalidArgument("give words to search for; use onedrive list-children to browse a folder", "query")
    scope = folder_ref(ctx, folder, "folder")
    inside = {i.id for i in descendants(ctx.state, scope.id)} if scope else None
    kind = fold(file_type).lstrip(".")
    hits: list[tuple[int, float, str, dict[str, Any]]] = []
    for it in ctx.state.items.values():
        if it.deleted is not None or role_of(ctx.state, it, ctx.user) is None:
            continue
        if (inside is not None and it.id not in inside) or (not include_shared and it.parent_id == ""):
            continue
        if kind and (it.kind != "folder" if kind == "folder" else PurePosixPath(it.name).suffix.lower() != f".{kind}"):
            continue
        name, text = fold(it.name), text_of(ctx, it)
        folded = fold(text)
        if not all(w in name or w in folded for w in words):
            continue
        row = summary(ctx, it)
        in_name = all(w in name for w in words)
        row.update(
            shared_with_me=it.parent_id == "",
            matched_in=[
                p
                for p, ok in (("name", any(w in name for w in words)), ("text", any(w in folded for w in words)))
                if ok
            ],
            snippet=snippet(text, words),
        )
        hits.append((0 if in_name else 1, -it.modified.timestamp(), it.id, row))
    hits.sort(key=lambda h: h[:3])
    return page_of([h[3] for h in hits], page, page_size)


@app.action(read_only=True)
def list_recent(
    ctx: Ctx, days: Annotated[int, Field(ge=1, le=365)] = 30, page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """List the files changed recently, yours and those shared with you, newest first.

    Example:
        days=7 -> files changed since last Monday, e.g. Offsite seating.xlsx (shared by Ruby).

    Args:
        days: How many days back to look.
        page: Page number, starting at 1.
        page_size: Files per page.

    Returns:
        {"results": [{... as list-children, "shared_with_me"}], "page", "page_size", "total", "next_page"}.
    """
    since = ctx.now - timedelta(days=days)
    files = [
        i
        for i in ctx.state.items.values()
        if i.kind == "file" and i.deleted is None and i.modified >= since and role_of(ctx.state, i, ctx.user)
    ]
    files.sort(key=lambda i: (-i.modified.timestamp(), i.id))
    rows = [{**summary(ctx, i), "shared_with_me": i.parent_id == ""} for i in files]
    return page_of(rows, page, page_size)


@app.action(read_only=True)
def download_file(ctx: Ctx, item: str, save_as: str = "", as_text: bool = False) -> dict[str, Any]:
    """Download a file, or read the text of a document.

    With a workspace the file is saved there (under downloads/ unless save_as names a path) and
    you get its path; without one, text files come back inline. as_text=true returns the text of a
    Word, Excel, PDF or text file directly instead of the file.

    Example:
        item="itm_shared_q1_forecast" save_as="work/Q1 forecast.xlsx" -> {"saved_to": "work/Q1 forecast.xlsx"}.

    Args:
        item: The file's id or path.
        save_as: Workspace path to save the file to; default downloads/<file name>.
        as_text: Return the document's text (spreadsheets as tab-separated rows) instead of the file.

    Returns:
        {"id", "name", "mime_type", "size" (bytes), and "saved_to" (workspace path) or "content" (text);
        with as_text: "text" and "truncated"}.
    """
    f = resolve_file(ctx, item)
    head = {"id": f.id, "name": f.name, "mime_type": f.mime_type}
    if as_text:
        if save_as.strip():
            raise InvalidArgument("as_text returns the text directly; leave save_as empty or drop as_text", "save_as")
        text = text_of(ctx, f)
        if not text:
            raise InvalidArgument(f"'{f.name}' has no text to show (an image or an empty file)", "as_text")
        return {**head, "size": f.size, "text": text[:INLINE_LIMIT], "truncated": len(text) > INLINE_LIMIT}
    data = ctx.blobs.get(f.blob)
    if ctx.files is None and not _is_text(data):
        raise InvalidArgument(
            f"'{f.name}' is not a text file and there is no workspace to save it in; "
            "pass as_text=true to read its text instead",
            "item",
        )
    return {**head, **deliver_file(ctx, f.name, data, save_as)}


def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# ---- creating and changing -------------------------------------------------------------------


@app.action(read_only=False)
def create_folder(
    ctx: Ctx, name: str, parent: str = "/", conflict_behavior: Literal["fail", "rename"] = "fail"
) -> dict[str, Any]:
    r"""Make a new folder in your OneDrive.

    Example:
        name="Travel" parent="/Documents" -> the new folder /Documents/Travel with its id.

    Args:
        name: The folder's name (no / \\ : * ? " < > |).
        parent: Id or path of the folder to create it in; "/" is the top of your OneDrive.
        conflict_behavior: When the name is taken: "fail" (error) or "rename" (adds a number, e.g. "Travel 1").

    Returns:
        The new folder's details (as get-item).
    """
    name = check_name(name, "name")
    folder = folder_ref(ctx, parent, "parent")
    pid = folder.id if folder else ROOT
    clash = taken(ctx.state, pid, name)
    if clash is not None:
        if conflict_behavior == "fail":
            raise Conflict(
                f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); use it, pick another name, "
                'or pass conflict_behavior="rename"',
                "name",
            )
        name = free_name(ctx.state, pid, name)
    new = _new(ctx, name, pid, None)
    ctx.state.items[new.id] = new
    return detail(ctx, new)


@app.action(read_only=False)
def upload_file(
    ctx: Ctx,
    name: str = "",
    folder: str = "/",
    content: str = "",
    path: str = "",
    conflict_behavior: Literal["fail", "replace", "rename"] = "fail",
    item_id: str = "",
) -> dict[str, Any]:
    """Upload a file from your workspace (or text you give) into OneDrive.

    Give exactly one of path (a workspace file: any kind, e.g. .xlsx or .pdf) and content (plain
    text, for .txt, .md or .csv files). To save a new version of an existing file, give its
    item_id instead of name and folder; replacing keeps the old version in the history.

    Example:
        path="downloads/itinerary.txt" folder="/Documents/Travel" name="Chicago itinerary.txt"

    Args:
        name: The file's name with its extension; default the workspace file's name.
        folder: Id or path of the folder to put it in; "/" is the top of your OneDrive.
        content: The file's text (never base64: for other files save them in the workspace and pass path).
        path: Path of the workspace file to upload.
        conflict_behavior: When the folder already has that name: "fail" (error), "replace" (new version of
            that file) or "rename" (adds a number, e.g. "notes 1.txt").
        item_id: Id or path of an existing file to save a new version of (then leave name and folder empty).

    Returns:
        The file's details (as get-item), with "version" the number just saved.
    """
    if item_id.strip():
        if name.strip() or folder.strip() not in ("", "/", ROOT):
            raise InvalidArgument("give item_id alone, or name and folder for a new file, not both", "item_id")
        target = resolve_file(ctx, item_id, "item_id")
        require_edit(ctx, target, "item_id")
        return _upload_version(ctx, target, target.name, content, path)
    parent = folder_ref(ctx, folder, "folder")
    pid = parent.id if parent else ROOT
    if not name.strip() and path.strip():
        name = PurePosixPath(path.strip()).name
    name = check_name(name, "name")
    clash = taken(ctx.state, pid, name)
    if clash is not None and conflict_behavior == "fail":
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass conflict_behavior=\"replace\" "
            'to save a new version of it, or "rename" to keep both',
            "name",
        )
    if clash is not None and conflict_behavior == "replace":
        if clash.kind == "folder":
            raise Conflict(f"'{clash.name}' is a folder and cannot be replaced by a file; pick another name", "name")
        return _upload_version(ctx, clash, name, content, path)
    data = _received(ctx, name, content, path)
    if clash is not None:
        name = free_name(ctx.state, pid, name)
    new = _new(ctx, name, pid, data)
    ctx.state.items[new.id] = new
    return detail(ctx, new)


def _received(ctx: Ctx, name: str, content: str, path: str) -> bytes:
    if content:
        refuse_encoded(content, "content")
        suffix = PurePosixPath(name).suffix.lower()
        if suffix in _BINARY:
            raise InvalidArgument(
                f"text cannot make a {suffix} file; save the file in your workspace and pass path=<its path>",
                "content",
            )
    return receive_file(ctx, content, path)


def _upload_version(ctx: Ctx, target: DriveItem, name: str, content: str, path: str) -> dict[str, Any]:
    data = _received(ctx, name, content, path)
    add_version(ctx, target, ctx.blobs.put(data), len(data))
    return detail(ctx, target)


@app.action(read_only=False)
def copy_item(
    ctx: Ctx,
    item: str,
    destination: str = "/",
    new_name: str = "",
    conflict_behavior: Literal["fail", "rename"] = "fail",
) -> dict[str, Any]:
    """Copy a file or folder (with everything inside) into a folder of your OneDrive.

    Works for files shared with you too, read-only ones included. The copy is yours and is not
    shared with anyone.

    Example:
        item="itm_shared_q1_forecast" destination="/Documents/Budgets" -> your own copy of Priya's forecast.

    Args:
        item: Id or path of the file or folder to copy.
        destination: Id or path of the folder to copy into; "/" is the top of your OneDrive.
        new_name: Name for the copy; default the original's name.
        conflict_behavior: When the name is taken there: "fail" (error) or "rename" (adds a number).

    Returns:
        The copy's details (as get-item), plus "copied" (how many items were created).
    """
    src = resolve(ctx, item, "item")
    dest = folder_ref(ctx, destination, "destination")
    name = check_name(new_name, "new_name") if new_name.strip() else src.name
    if dest is not None and (dest.id == src.id or src.id in {a.id for a in ancestors(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{src.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    clash = taken(ctx.state, pid, name)
    if clash is not None:
        if conflict_behavior == "fail":
            raise Conflict(
                f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass new_name, "
                'or conflict_behavior="rename"',
                "new_name",
            )
        name = free_name(ctx.state, pid, name)
    inside = [d for d in descendants(ctx.state, src.id) if d.deleted is None] if src.kind == "folder" else []
    top = _clone(ctx, src, name, pid)
    made = {src.id: top.id}
    clones = [top]
    for child in sorted(inside, key=lambda d: len(ancestors(ctx.state, d))):
        clone = _clone(ctx, child, child.name, made[child.parent_id])
        made[child.id] = clone.id
        clones.append(clone)
    for clone in clones:
        ctx.state.items[clone.id] = clone
    return {**detail(ctx, top), "copied": len(clones)}


def _clone(ctx: Ctx, src: DriveItem, name: str, parent_id: str) -> DriveItem:
    new = _new(ctx, name, parent_id, None)
    if src.kind == "file":
        version = Version(number=1, blob=src.blob, size=src.size, modified=ctx.now, modified_by=ctx.user)
        new = new.model_copy(
            update={
                "kind": "file",
                "mime_type": src.mime_type,
                "blob": src.blob,
                "size": src.size,
                "versions": [version],
            }
        )
    return new


@app.action(read_only=False)
def move_item(ctx: Ctx, item: str, destination: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside) to another folder of your OneDrive.

    Example:
        item="/Pictures/Screenshots/INC-3021 checkout error.png" destination="/Documents" -> its new path.

    Args:
        item: Id or path of the file or folder to move.
        destination: Id or path of the folder to move it into; "/" is the top of your OneDrive.

    Returns:
        The item's details (as get-item) after the move.
    """
    it = resolve(ctx, item, "item")
    require_own(ctx, it, "item", "move")
    dest = folder_ref(ctx, destination, "destination")
    if dest is not None and (dest.id == it.id or it.id in {a.id for a in ancestors(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{it.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    if pid == it.parent_id:
        return detail(ctx, it)
    clash = taken(ctx.state, pid, it.name, skip=it.id)
    if clash is not None:
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); rename one of them first", "destination"
        )
    it.parent_id = pid
    return detail(ctx, it)


@app.action(read_only=False)
def rename_item(ctx: Ctx, item: str, new_name: str) -> dict[str, Any]:
    r"""Give a file or folder a new name; it stays where it is.

    Example:
        item="itm_q2_budget_draft" new_name="Q2 budget.xlsx" -> its details with the new name.

    Args:
        item: Id or path of the file or folder.
        new_name: The new name, with the extension for files (no / \\ : * ? " < > |).

    Returns:
        The item's details (as get-item) after renaming.
    """
    it = resolve(ctx, item, "item")
    name = check_name(new_name, "new_name")
    require_edit(ctx, it, "item")
    if name == it.name:
        return detail(ctx, it)
    clash = taken(ctx.state, it.parent_id, name, skip=it.id) if it.parent_id else None
    if clash is not None:
        raise Conflict(f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pick another name", "new_name")
    it.name, it.modified, it.modified_by = name, ctx.now, ctx.user
    if it.kind == "file":
        it.mime_type = mime_type_for(name)
    return detail(ctx, it)


from tools import onedrive_history, onedrive_sharing  # noqa: E402, F401 - register their actions on ``app``
