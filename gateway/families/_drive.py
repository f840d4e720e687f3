"""Drive scenario records the families share: folders owned by the acting user."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gateway.families.base import Instance

__all__ = ["folder"]

_FOLDER_MIME = "application/vnd.google-apps.folder"


def folder(inst: Instance, name: str, parent: str = "root", *, created: datetime | None = None) -> dict[str, Any]:
    """Write a folder in the user's My Drive (under ``parent``, a folder id or ``"root"``); returns the record."""
    me = inst.user["email"]
    when = (created or inst.day(-90)).isoformat()
    return inst.add(
        "drive",
        "files",
        inst.uid("fld"),
        {
            "name": name,
            "kind": "folder",
            "mime_type": _FOLDER_MIME,
            "parent_id": parent,
            "owner": me,
            "created": when,
            "modified": when,
            "modified_by": me,
            "permissions": [{"email": me, "role": "owner"}],
        },
    )
