"""The drive's records: files and folders with their permissions and versions, comments, shared drives."""

# Items live in My Drive (``drive_id`` empty: the acting user's own items and those shared with
# them) or in a shared drive (``drive_id`` is the shared drive's id; access comes from its
# members). A file's bytes are a blob; earlier contents are kept as versions with their own blobs.

from __future__ import annotations

from datetime import datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = [
    "FOLDER_MIME",
    "ROOT",
    "Comment",
    "DriveFile",
    "DriveState",
    "Member",
    "Permission",
    "RemovedPermission",
    "Reply",
    "SharedDrive",
    "Version",
]

#: The parent id of the items at the top of My Drive.
ROOT = "root"
#: The content type of a folder.
FOLDER_MIME = "application/vnd.google-apps.folder"


class Permission(Record):
    """One person's access to a file or folder; the owner appears with role "owner"."""

    email: str
    role: Literal["owner", "reader", "commenter", "writer"]


class RemovedPermission(Record):
    """A person's access taken off a file or folder: who had which role, and when and by whom it was removed."""

    email: str
    role: Literal["owner", "reader", "commenter", "writer"]  # never "owner": the owner's access is not removed
    removed_at: datetime
    removed_by: str


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
    removed_permissions: list[RemovedPermission] = []  # the sharing history keeps every access removed, oldest first
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
