"""Box's records (folders, files, versions, collaborations, comments, shared links) and its state."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = [
    "ROOT",
    "ROOT_NAME",
    "BoxFile",
    "BoxState",
    "Collaboration",
    "Comment",
    "FileVersion",
    "Folder",
    "Item",
    "Role",
    "SharedLink",
]

#: Id of the top of the file tree ("All Files"), as in Box.
ROOT = "0"
#: Name of the top of the file tree.
ROOT_NAME = "All Files"

#: The roles a collaboration gives on a folder (the owner's role is not one of them).
Role = Literal["viewer", "previewer", "uploader", "editor", "co-owner"]


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
    restored_at: datetime | None = None  # when it last came back from the trash (the trash keeps this trace)
    restored_by: str = ""
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
    restored_at: datetime | None = None  # when it last came back from the trash (the trash keeps this trace)
    restored_by: str = ""
    shared_link: SharedLink | None = None


#: A file or a folder: what most actions take as ``item_id``.
Item = Folder | BoxFile


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
