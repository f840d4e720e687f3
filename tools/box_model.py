"""Box's records, its state, the ``app`` object and the helpers its actions share.

The actions live in :mod:`tools.box` (folders, files, versions, trash) and
:mod:`tools.box_sharing` (collaborations, shared links, comments).

Access follows Box: the owner of an item and the collaborators of a folder (and of
every folder above it) hold a role; a role found higher up applies to everything
below. Items in the trash, and everything inside a trashed folder, are hidden from
every action except list-trash and restore-item.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import PurePosixPath
from typing import Any, Literal

from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.registry import App
from tools.kernel.world import AppState, Context, Record, format_instant
from tools.kits.files import looks_encoded
from tools.kits.text import fold

__all__ = [
    "BINARY_KINDS",
    "ROOT",
    "BoxFile",
    "BoxState",
    "Collaboration",
    "Comment",
    "FileVersion",
    "Folder",
    "Role",
    "SharedLink",
    "app",
    "refuse_encoded",
]

#: Id of the top of the file tree ("All Files"), as in Box.
ROOT = "0"
ROOT_NAME = "All Files"

Role = Literal["viewer", "previewer", "uploader", "editor", "co-owner"]

#: Strongest first; a person's role on an item is the strongest one found on it or above it.
_ORDER = ("owner", "co-owner", "editor", "viewer", "previewer", "uploader")
_CAN: dict[str, set[str]] = {
    "owner": {"see", "list", "download", "comment", "upload", "edit", "share", "invite", "co-own"},
    "co-owner": {"see", "list", "download", "comment", "upload", "edit", "share", "invite", "co-own"},
    "editor": {"see", "list", "download", "comment", "upload", "edit", "share", "invite"},
    "viewer": {"see", "list", "download", "comment"},
    "previewer": {"see", "list"},
    "uploader": {"see", "upload"},
}
_WHAT = {
    "list": "see what it holds",
    "download": "download it",
    "comment": "comment on it",
    "upload": "upload to it",
    "edit": "change it",
    "share": "manage its shared link",
    "invite": "manage its collaborators",
    "co-own": "make someone a co-owner",
}

#: File kinds whose bytes are not text: they can only come from a workspace file.
BINARY_KINDS = {".docx", ".xlsx", ".pdf", ".png", ".jpg", ".jpeg", ".zip", ".pptx"}
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class SharedLink(Record):
    """A shared link on a file or folder (one per item)."""

    url: str
    access: Literal["open", "company", "collaborators"]
    password_protected: bool = False
    expires: date | None = None
    can_download: bool = True
    created_by: str
    created: datetime


class Folder(Record):
    """A folder. ``parent_id`` is ``"0"`` for folders at the top of All Files."""

    id: str
    name: str
    parent_id: str = ROOT
    owner: str
    created_by: str
    created: datetime
    modified: datetime
    description: str = ""
    trashed: bool = False
    trashed_at: datetime | None = None
    trashed_by: str = ""
    shared_link: SharedLink | None = None


class BoxFile(Record):
    """A file; its bytes are the blob of its current version."""

    id: str
    name: str
    parent_id: str
    owner: str
    created_by: str
    created: datetime
    modified: datetime
    modified_by: str
    description: str = ""
    mime_type: str
    size: int
    blob: str
    version_number: int = 1
    trashed: bool = False
    trashed_at: datetime | None = None
    trashed_by: str = ""
    shared_link: SharedLink | None = None


class FileVersion(Record):
    """One uploaded version of a file (the current one included)."""

    id: str
    file_id: str
    number: int
    blob: str
    size: int
    uploaded_by: str
    uploaded_at: datetime
    promoted_from: int | None = None  # set when this version restored an older one


class Collaboration(Record):
    """A person's role on a folder (and everything inside it)."""

    id: str
    folder_id: str
    email: str
    role: Role
    status: Literal["accepted", "pending"] = "accepted"
    invited_by: str
    created: datetime
    modified: datetime


class Comment(Record):
    """A comment on a file."""

    id: str
    file_id: str
    author: str
    message: str
    created: datetime


class BoxState(AppState):
    """Every folder, file, version, collaboration and comment, keyed by id."""

    folders: dict[str, Folder] = {}
    files: dict[str, BoxFile] = {}
    versions: dict[str, FileVersion] = {}
    collaborations: dict[str, Collaboration] = {}
    comments: dict[str, Comment] = {}


app = App(
    "box",
    BoxState,
    "Box, the company's file store for contracts, invoices and partner files: folders, versions, "
    "collaborators, shared links and comments.",
)

Item = Folder | BoxFile
Ctx = Context[BoxState]


# ---- lookups and access -------------------------------------------------------------------------


def kind_of(item: Item) -> str:
    """``"folder"`` or ``"file"``."""
    return "folder" if isinstance(item, Folder) else "file"


def ancestors(state: BoxState, item: Item) -> list[Folder]:
    """The folders above ``item``, nearest first (the root is not a record)."""
    out: list[Folder] = []
    pid = item.parent_id
    while pid != ROOT and pid in state.folders and len(out) < 100:
        out.append(state.folders[pid])
        pid = state.folders[pid].parent_id
    return out


def in_trash(state: BoxState, item: Item) -> bool:
    """True when the item or a folder above it is in the trash."""
    return item.trashed or any(f.trashed for f in ancestors(state, item))


def role_of(ctx: Ctx, item: Item | None, user: str = "") -> str | None:
    """A person's role on ``item`` (None is All Files, where everyone owns their own space)."""
    who = (user or ctx.user).lower()
    if item is None:
        return "owner"
    chain: list[Item] = [item, *ancestors(ctx.state, item)]
    found: set[str] = set()
    for node in chain:
        if node.owner.lower() == who:
            found.add("owner")
        if isinstance(node, Folder):
            found.update(
                c.role for c in ctx.state.collaborations.values() if c.folder_id == node.id and c.email.lower() == who
            )
    return next((r for r in _ORDER if r in found), None)


def require(ctx: Ctx, item: Item | None, capability: str, parameter: str) -> None:
    """Refuse when the acting user's role on ``item`` does not allow ``capability``."""
    role = role_of(ctx, item)
    if role is None or capability not in _CAN[role]:
        assert item is not None  # the root always allows everything
        owner = item.owner
        raise Conflict(
            f"you are {_article(role)} on '{item.name}' ({item.id}) and cannot {_WHAT[capability]}; "
            f"ask its owner {owner} for editor access",
            parameter,
        )


def _article(role: str | None) -> str:
    if role is None:
        return "not a collaborator"
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"


def get_item(ctx: Ctx, item_id: str, parameter: str = "item_id", trashed_ok: bool = False) -> Item:
    """The live file or folder ``item_id`` that the user can see.

    Raises:
        NotFound: no such item, no access, or (unless ``trashed_ok``) it is in the trash.
    """
    key = item_id.strip()
    item: Item | None = ctx.state.folders.get(key) or ctx.state.files.get(key)
    if item is None or role_of(ctx, item) is None:
        raise NotFound(
            f"no file or folder with id '{item_id}'; use box search or box list-folder to find ids", parameter
        )
    if not trashed_ok and in_trash(ctx.state, item):
        raise NotFound(f"'{item.name}' ({item.id}) is in the trash; see box list-trash and box restore-item", parameter)
    return item


def get_file(ctx: Ctx, file_id: str, parameter: str = "file_id") -> BoxFile:
    """The live file ``file_id``; a folder id is refused with a pointer to list-folder."""
    item = get_item(ctx, file_id, parameter)
    if isinstance(item, Folder):
        raise InvalidArgument(f"'{item.name}' ({item.id}) is a folder; use box list-folder to see it", parameter)
    return item


def get_folder(ctx: Ctx, folder_id: str, parameter: str = "folder_id") -> Folder | None:
    """The live folder ``folder_id``; ``None`` for "0" (All Files) or empty."""
    if folder_id.strip() in ("", ROOT):
        return None
    item = get_item(ctx, folder_id, parameter)
    if isinstance(item, BoxFile):
        raise InvalidArgument(f"'{item.name}' ({item.id}) is a file, not a folder", parameter)
    return item


def children(state: BoxState, folder_id: str) -> list[Item]:
    """Items directly inside ``folder_id`` (trashed ones included)."""
    kids: list[Item] = [f for f in state.folders.values() if f.parent_id == folder_id]
    kids += [f for f in state.files.values() if f.parent_id == folder_id]
    return kids


def descendants(state: BoxState, folder_id: str) -> list[Item]:
    """Every item below ``folder_id``, at any depth."""
    out: list[Item] = []
    todo = [folder_id]
    while todo:
        for kid in children(state, todo.pop()):
            out.append(kid)
            if isinstance(kid, Folder):
                todo.append(kid.id)
    return out


def owner_for(ctx: Ctx, folder: Folder | None) -> str:
    """Box gives new items the owner of the folder they land in (your own space: you)."""
    return folder.owner if folder else ctx.user


def add_version(ctx: Ctx, f: BoxFile, number: int, promoted_from: int | None = None) -> FileVersion:
    """Record ``f``'s current blob as its version ``number``."""
    v = FileVersion(
        id=ctx.new_id("ver"),
        file_id=f.id,
        number=number,
        blob=f.blob,
        size=f.size,
        uploaded_by=ctx.user,
        uploaded_at=ctx.now,
        promoted_from=promoted_from,
    )
    ctx.state.versions[v.id] = v
    return v


# ---- names --------------------------------------------------------------------------------------


def check_name(name: str, parameter: str) -> str:
    """A valid Box item name, stripped."""
    text = (name or "").strip()
    if not text:
        raise InvalidArgument("must not be empty", parameter)
    if "/" in text or "\\" in text or text in (".", ".."):
        raise InvalidArgument(f"'{text}' is not a valid name; names cannot contain / or \\", parameter)
    if len(text) > 255:
        raise InvalidArgument("must be at most 255 characters", parameter)
    return text


def check_free(ctx: Ctx, folder_id: str, name: str, parameter: str, skip: str = "") -> None:
    """Refuse when a live item in ``folder_id`` already has ``name`` (case-insensitive)."""
    for other in children(ctx.state, folder_id):
        if other.id != skip and not other.trashed and fold(other.name) == fold(name):
            where = ROOT_NAME if folder_id == ROOT else f"folder {folder_id}"
            hint = (
                f"; to add a new version use box upload-version with file_id={other.id}"
                if isinstance(other, BoxFile) and parameter in ("name", "path")
                else ""
            )
            raise Conflict(
                f"{where} already has {kind_of(other)} '{other.name}' ({other.id}); pick another name{hint}",
                parameter,
            )


def suffix(name: str) -> str:
    """The lower-case extension of ``name`` (``".docx"``), or ``""``."""
    return PurePosixPath(name).suffix.lower()


# ---- uploads ------------------------------------------------------------------------------------



def refuse_encoded(content: str, parameter: str = "content") -> None:
    """Refuse pasted base64 or a ``data:`` URI: file content must come from a workspace file.

    Raises:
        InvalidArgument: naming ``parameter`` and the way to upload instead.
    """
    if looks_encoded(content or ""):
        raise InvalidArgument(
            "looks like base64 or a data: URI; file content cannot be pasted encoded; save the file in your "
            "workspace and pass path=<its path> instead",
            parameter,
        )


def check_kind(data: bytes, name: str, parameter: str) -> None:
    """Refuse bytes that are not the kind of document ``name``'s extension promises."""
    ext = suffix(name)
    magic = {".pdf": b"%PDF", ".png": b"\x89PNG", ".docx": b"PK", ".xlsx": b"PK", ".pptx": b"PK", ".zip": b"PK"}
    if ext in magic and not data.startswith(magic[ext]):
        raise InvalidArgument(f"the uploaded bytes are not a {ext} file; upload the real {ext} document", parameter)


# ---- people -------------------------------------------------------------------------------------


def resolve_person(ctx: Ctx, who: str, parameter: str) -> str:
    """An email address from an address or a colleague's full name; company addresses must exist."""
    from tools.kits.people import DirectoryState, find_person

    text = (who or "").strip()
    if not text:
        raise InvalidArgument("give an email address (or a colleague's full name)", parameter)
    directory = ctx.other("directory")
    if not _EMAIL_RE.match(text):
        if isinstance(directory, DirectoryState):
            return find_person(directory, text, parameter).email.lower()
        raise InvalidArgument(f"'{text}' is not an email address; write it like name@northwind.example", parameter)
    email = text.lower()
    domain = ctx.user.split("@")[-1].lower()
    known = isinstance(directory, DirectoryState) and any(p.email.lower() == email for p in directory.people.values())
    if isinstance(directory, DirectoryState) and email.endswith("@" + domain) and not known:
        raise NotFound(f"no one at {domain} has the address '{text}'; use directory search-people", parameter)
    return email


def is_internal(ctx: Ctx, email: str) -> bool:
    """True for an address at the company's own domain."""
    return email.lower().endswith("@" + ctx.user.split("@")[-1].lower())


# ---- views --------------------------------------------------------------------------------------


def path_of(state: BoxState, item: Item) -> str:
    """``/Legal/Contracts/...`` from All Files down to the item."""
    names = [a.name for a in reversed(ancestors(state, item))]
    return "/" + "/".join([*names, item.name])


def link_view(ctx: Ctx, link: SharedLink | None) -> dict[str, Any] | None:
    """A shared link as callers see it (never a password)."""
    if link is None:
        return None
    return {
        "url": link.url,
        "access": link.access,
        "password_protected": link.password_protected,
        "expires": link.expires.isoformat() if link.expires else None,
        "can_download": link.can_download,
        "created_by": link.created_by,
        "created": format_instant(link.created, ctx.tz),
    }


def folder_size(state: BoxState, folder: Folder) -> int:
    """Bytes of every live file below ``folder``."""
    return sum(i.size for i in descendants(state, folder.id) if isinstance(i, BoxFile) and not in_trash(state, i))


def summary(ctx: Ctx, item: Item) -> dict[str, Any]:
    """The short view of an item used in lists and search results."""
    out: dict[str, Any] = {
        "id": item.id,
        "type": kind_of(item),
        "name": item.name,
        "parent_id": item.parent_id,
        "owner": item.owner,
        "modified": format_instant(item.modified, ctx.tz),
    }
    if isinstance(item, BoxFile):
        out.update(
            size=item.size,
            extension=suffix(item.name).lstrip("."),
            version_number=item.version_number,
            modified_by=item.modified_by,
        )
    out["shared_link_access"] = item.shared_link.access if item.shared_link else None
    return out


def detail(ctx: Ctx, item: Item) -> dict[str, Any]:
    """The full view of an item: its place, role, link and counts."""
    state = ctx.state
    out = summary(ctx, item)
    trail = [{"id": ROOT, "name": ROOT_NAME}] + [{"id": a.id, "name": a.name} for a in reversed(ancestors(state, item))]
    out.update(
        path=path_of(state, item),
        path_collection=trail,
        description=item.description,
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        your_role=role_of(ctx, item),
        shared_link=link_view(ctx, item.shared_link),
    )
    if isinstance(item, BoxFile):
        out.update(
            mime_type=item.mime_type,
            versions=sum(v.file_id == item.id for v in state.versions.values()),
            comments=sum(c.file_id == item.id for c in state.comments.values()),
        )
    else:
        live = [k for k in children(state, item.id) if not k.trashed]
        out.update(
            size=folder_size(state, item),
            item_count=len(live),
            collaborators=sum(c.folder_id == item.id for c in state.collaborations.values()),
        )
    return out


# ---- text of documents (for search) ---------------------------------------------------------------

def text_of(ctx: Ctx, f: BoxFile) -> str:
    """The folded text of a file's current version ("" for images and unreadable files)."""
    return fold(blob_text(ctx.blobs, f.blob, f.name))
