"""SharePoint's records, state and the helpers its actions share (sites, roles, paths, views).

Records: a :class:`Site` keeps its members and their roles; a :class:`Library`
belongs to a site; a :class:`LibraryItem` is a file or a folder in a library
(file bytes are a blob; earlier versions keep their own blob ids); a
:class:`SpList` has typed :class:`Column` s and its :class:`ListItem` s keep
their values by column name.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal
from urllib.parse import quote

from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.registry import App
from tools.kernel.world import AppState, Context, Record, format_instant
from tools.kits.files import looks_encoded
from tools.kits.people import DirectoryState
from tools.kits.text import fold, require_text

__all__ = [
    "ROLES",
    "Column",
    "Library",
    "LibraryItem",
    "ListItem",
    "Member",
    "Role",
    "SharePointState",
    "Site",
    "SpList",
    "Version",
    "ancestors",
    "app",
    "check_name",
    "descendants",
    "document_text",
    "find_site",
    "item_detail",
    "item_path",
    "item_summary",
    "person_name",
    "refuse_encoded",
    "require_role",
    "role_of",
]

Role = Literal["read", "contribute", "edit", "full_control"]
#: Roles from least to most access.
ROLES: tuple[str, ...] = ("read", "contribute", "edit", "full_control")
ColumnType = Literal["text", "number", "date", "choice", "person", "boolean"]


class Member(Record):
    """One person's access to a site."""

    email: str
    role: Role


class Site(Record):
    """A team site: its address and who can use it."""

    id: str
    name: str
    url: str
    description: str = ""
    created: datetime
    members: list[Member] = []


class Library(Record):
    """A document library of a site (every site has "Documents")."""

    id: str
    site_id: str
    name: str
    description: str = ""


class Version(Record):
    """An earlier version of a file."""

    version: str
    blob: str
    size: int
    modified: datetime
    modified_by: str


class LibraryItem(Record):
    """A file or a folder in a document library."""

    id: str
    site_id: str
    library_id: str
    parent_id: str = ""  # the folder holding it; "" at the top of the library
    name: str
    kind: Literal["file", "folder"]
    mime_type: str = ""
    blob: str = ""  # file bytes (blob id); "" for folders
    size: int = 0
    version: str = ""  # current version label, e.g. "3.0"; "" for folders
    versions: list[Version] = []  # earlier versions, oldest first
    created: datetime
    created_by: str
    modified: datetime
    modified_by: str
    deleted: bool = False  # in the site's recycle bin
    deleted_at: datetime | None = None
    deleted_by: str = ""
    deleted_with: str = ""  # id of the folder whose deletion took this item along


class Column(Record):
    """A typed column of a list."""

    name: str
    type: ColumnType
    required: bool = False
    choices: list[str] = []  # for choice columns
    pattern: str = ""  # for text columns: a regular expression the value must match
    description: str = ""


class SpList(Record):
    """A list on a site, with typed columns."""

    id: str
    site_id: str
    name: str
    description: str = ""
    columns: list[Column]
    created: datetime


class ListItem(Record):
    """One row of a list: values by column name (columns left blank are absent)."""

    id: str
    list_id: str
    values: dict[str, bool | int | float | str] = {}
    created: datetime
    created_by: str
    modified: datetime
    modified_by: str


class SharePointState(AppState):
    """Sites, document libraries, files and folders, lists and list items, each keyed by id."""

    sites: dict[str, Site] = {}
    libraries: dict[str, Library] = {}
    files: dict[str, LibraryItem] = {}
    lists: dict[str, SpList] = {}
    items: dict[str, ListItem] = {}


app = App(
    "sharepoint",
    SharePointState,
    "Team sites: document libraries with files and folders, lists with typed columns, and site permissions.",
)


# ---- sites and roles --------------------------------------------------------------------------


def role_of(site: Site, email: str) -> str | None:
    """The role ``email`` holds on ``site``, or None when they are not a member."""
    who = email.lower()
    return next((m.role for m in site.members if m.email.lower() == who), None)


def find_site(ctx: Context[SharePointState], site: str, parameter: str = "site") -> Site:
    """The site named by id, name or address, among the sites the user belongs to.

    Raises:
        NotFound: No such site, or the user is not a member (the message lists the user's sites).
    """
    key = fold(require_text(site, parameter)).rstrip("/").replace(" and ", " & ")
    for s in ctx.state.sites.values():
        slug = s.url.rstrip("/").rsplit("/", 1)[-1].lower()
        if key in (s.id.lower(), fold(s.name), s.url.lower().rstrip("/"), slug) and role_of(s, ctx.user):
            return s
    names = ", ".join(f"'{s.name}'" for s in ctx.state.sites.values() if role_of(s, ctx.user))
    raise NotFound(f"no site '{site}' that you can open; your sites: {names}", parameter)


def require_role(ctx: Context[SharePointState], site: Site, needed: str, parameter: str) -> None:
    """Refuse when the user's role on ``site`` is below ``needed``.

    Raises:
        Conflict: naming the user's role and the site's owners to ask.
    """
    have = role_of(site, ctx.user) or "no"
    if have != "no" and ROLES.index(have) >= ROLES.index(needed):
        return
    owners = ", ".join(m.email for m in site.members if m.role == "full_control") or "a site owner"
    raise Conflict(f"you have {have} access to the site '{site.name}' and this needs {needed}; ask {owners}", parameter)


def person_name(ctx: Context[SharePointState], email: str) -> str:
    """The directory's name for ``email``, or ``""`` for a guest or when there is no directory."""
    directory = ctx.other("directory")
    if not isinstance(directory, DirectoryState):
        return ""
    who = email.lower()
    return next((p.name for p in directory.people.values() if p.email.lower() == who), "")


# ---- names, content and paths -----------------------------------------------------------------

_BAD_CHARS = re.compile(r'[\\/:*?"<>|#%]')


def check_name(name: str, parameter: str) -> str:
    r"""A file or folder name, trimmed; refuses characters SharePoint does not allow.

    Raises:
        InvalidArgument: empty, or contains one of \\ / : * ? " < > | # %.
    """
    name = require_text(name, parameter)
    bad = _BAD_CHARS.search(name)
    if bad:
        raise InvalidArgument(
            f"'{name}' contains '{bad.group()}'; names cannot contain \\ / : * ? \" < > | # %", parameter
        )
    if name.endswith("."):
        raise InvalidArgument(f"'{name}' ends with a period; remove it", parameter)
    return name


def refuse_encoded(content: str, parameter: str, path_parameter: str = "path") -> None:
    """Refuse pasted base64 or a ``data:`` URI: file content comes from the workspace instead.

    Raises:
        InvalidArgument: naming ``parameter`` and telling the caller to pass a workspace path.
    """
    if looks_encoded(content):
        raise InvalidArgument(
            "looks like encoded file content; save the file in your workspace and pass "
            f"{path_parameter}=<workspace path> instead",
            parameter,
        )


def document_text(ctx: Context[SharePointState], item: LibraryItem) -> str:
    """The text of a file (docx, xlsx, pdf, csv, plain), cached by content; ``""`` for folders."""
    if item.kind != "file":
        return ""
    return blob_text(ctx.blobs, item.blob, item.name)


def ancestors(state: SharePointState, item: LibraryItem) -> list[LibraryItem]:
    """The folders above ``item``, nearest first."""
    out: list[LibraryItem] = []
    pid = item.parent_id
    while pid and pid in state.files and len(out) < 100:
        out.append(state.files[pid])
        pid = state.files[pid].parent_id
    return out


def descendants(state: SharePointState, folder_id: str) -> list[LibraryItem]:
    """Everything inside a folder, at any depth."""
    out: list[LibraryItem] = []
    todo = [folder_id]
    while todo:
        pid = todo.pop()
        for f in state.files.values():
            if f.parent_id == pid:
                out.append(f)
                if f.kind == "folder":
                    todo.append(f.id)
    return out


def item_path(state: SharePointState, item: LibraryItem) -> str:
    """``<library>/<folders>/<name>``, e.g. ``Documents/Invoices/INV-20401.pdf``."""
    lib = state.libraries[item.library_id].name
    names = [a.name for a in reversed(ancestors(state, item))]
    return "/".join([lib, *names, item.name])


def item_summary(ctx: Context[SharePointState], item: LibraryItem) -> dict[str, Any]:
    """How a file or folder appears in listings."""
    site = ctx.state.sites[item.site_id]
    return {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "site": site.name,
        "library": ctx.state.libraries[item.library_id].name,
        "folder_id": item.parent_id,
        "path": item_path(ctx.state, item),
        "mime_type": item.mime_type,
        "size": item.size,
        "version": item.version,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
    }


def item_detail(ctx: Context[SharePointState], item: LibraryItem) -> dict[str, Any]:
    """A file's or folder's full details: address, creation, versions (files) or item count (folders)."""
    site = ctx.state.sites[item.site_id]
    out = item_summary(ctx, item)
    out.update(
        url=site.url + "/" + quote(item_path(ctx.state, item)),
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        in_recycle_bin=item.deleted,
    )
    if item.kind == "file":
        out["versions"] = [
            {
                "version": v.version,
                "size": v.size,
                "modified": format_instant(v.modified, ctx.tz),
                "modified_by": v.modified_by,
            }
            for v in item.versions
        ]
    else:
        out["items"] = sum(1 for f in ctx.state.files.values() if f.parent_id == item.id and not f.deleted)
    return out
