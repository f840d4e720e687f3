"""OneDrive's records: items (files and folders) with their versions and permissions, sharing links, the state."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = [
    "FORBIDDEN",
    "ROOT",
    "DriveItem",
    "OneDriveState",
    "Permission",
    "RevokedLink",
    "SharingLink",
    "Version",
    "link_base",
]

#: Parent id of the items at the top of the user's own OneDrive.
ROOT = "root"
#: Characters OneDrive refuses in item names.
FORBIDDEN = '/\\:*?"<>|'


def link_base(user: str) -> str:
    """Where sharing links in ``user``'s company point: ``https://onedrive.<mail domain>/s/``; the link id ends it."""
    return f"https://onedrive.{user.rsplit('@', 1)[-1].lower()}/s/"


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


class RevokedLink(Record):
    """A sharing link taken off an item: what it opened to whom, and when and by whom it was revoked."""

    id: str
    type: Literal["view", "edit"]
    scope: Literal["anyone", "organization", "specific_people"]
    recipients: list[str] = []
    created_by: str
    revoked_at: datetime
    revoked_by: str


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
    revoked_links: list[RevokedLink] = []  # the item's link history keeps every link revoked, oldest first
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
