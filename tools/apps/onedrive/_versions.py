"""OneDrive's item making and version keeping: new items, copies, and saving a new version of a file."""

from __future__ import annotations

from typing import Any

from tools.apps.onedrive.state import DriveItem, OneDriveState, Permission, Version
from tools.kernel.documents import mime_type_for
from tools.kernel.world import Context

__all__ = ["add_version", "copy_of", "new_item", "save_version"]


def new_item(ctx: Context[OneDriveState], name: str, parent_id: str, data: bytes | None) -> DriveItem:
    """A new item owned by the user, not yet in the state.

    Args:
        ctx: The action's context.
        name: The item's name.
        parent_id: The folder it goes in (``ROOT`` for the top of your OneDrive).
        data: The file's bytes (stored as version 1), or None for a folder.

    Returns:
        The new file or folder record.
    """
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


def copy_of(ctx: Context[OneDriveState], src: DriveItem, name: str, parent_id: str) -> DriveItem:
    """A copy of ``src`` owned by the user, not yet in the state: a file keeps only its current content.

    Args:
        ctx: The action's context.
        src: The file or folder to copy (a folder's contents are copied one by one by the caller).
        name: The copy's name.
        parent_id: The folder the copy goes in.

    Returns:
        The copy's record, shared with no one, at version 1 for a file.
    """
    new = new_item(ctx, name, parent_id, None)
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


def add_version(ctx: Context[OneDriveState], item: DriveItem, blob: str, size: int) -> None:
    """Make stored content ``blob`` (of ``size`` bytes) the file's new current version, saved by the user now."""
    number = (item.versions[-1].number if item.versions else 0) + 1
    version = Version(number=number, blob=blob, size=size, modified=ctx.now, modified_by=ctx.user)
    item.versions = [*item.versions, version]
    item.blob, item.size, item.modified, item.modified_by = blob, size, ctx.now, ctx.user


def save_version(ctx: Context[OneDriveState], item: DriveItem, data: bytes) -> None:
    """Store ``data`` and make it the file's new current version (see :func:`add_version`)."""
    add_version(ctx, item, ctx.blobs.put(data), len(data))
