"""SharePoint's records (sites, libraries, files and folders, lists, list items) and its state."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = [
    "ROLES",
    "Column",
    "ColumnType",
    "Library",
    "LibraryItem",
    "ListItem",
    "Member",
    "Role",
    "SharePointState",
    "Site",
    "SpList",
    "Value",
    "Version",
]

Role = Literal["read", "contribute", "edit", "full_control"]
#: Roles from least to most access.
ROLES: tuple[str, ...] = ("read", "contribute", "edit", "full_control")
ColumnType = Literal["text", "number", "date", "choice", "person", "boolean"]
#: A list item's stored value: text, choice, dates (``YYYY-MM-DD``) and people (email) as str.
Value = bool | int | float | str


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
    """A file or a folder in a document library (file bytes are a blob; earlier versions keep their own)."""

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
    values: dict[str, Value] = {}
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
