"""Scenario records the file-store families share: Drive, OneDrive and Box items, and mail with an attachment.

Each helper writes one record through :meth:`Instance.add` and returns it (ids from :meth:`Instance.uid`);
times are ISO strings in the company's zone. Files hold real documents made from a spec
(:meth:`Instance.document`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from gateway.tasks.kit.base import Instance
from tools.kernel.documents import mime_type_for

__all__ = [
    "box_file",
    "box_folder",
    "drive_file",
    "drive_folder",
    "long_date",
    "onedrive_file",
    "onedrive_folder",
]

_DRIVE_FOLDER = "application/vnd.google-apps.folder"


def long_date(when: date) -> str:
    """``"March 20"``: a date as a colleague writes it."""
    return f"{when:%B} {when.day}"


def drive_folder(
    inst: Instance,
    name: str,
    parent: str = "root",
    *,
    shared: tuple[tuple[str, str], ...] = (),
    created: datetime | None = None,
) -> dict[str, Any]:
    """A Drive folder the user owns; ``shared`` gives ``(email, role)`` permissions beside the owner's.

    ``created`` defaults to a random day 60-200 days ago.
    """
    at = (created or inst.day(-inst.rng.randint(60, 200), 10)).isoformat()
    perms = [{"email": inst.company.user, "role": "owner"}, *({"email": e, "role": r} for e, r in shared)]
    return inst.add(
        "drive",
        "files",
        inst.uid("fld"),
        {
            "name": name,
            "kind": "folder",
            "mime_type": _DRIVE_FOLDER,
            "parent_id": parent,
            "owner": inst.company.user,
            "created": at,
            "modified": at,
            "modified_by": inst.company.user,
            "permissions": perms,
        },
    )


def drive_file(
    inst: Instance,
    name: str,
    parent: str,
    spec: dict[str, Any],
    modified: datetime,
    *,
    by: str = "",
    earlier: Sequence[tuple[dict[str, Any], datetime, str]] = (),
) -> dict[str, Any]:
    """A Drive file the user owns, holding ``spec``'s document; ``earlier``: ``(spec, when, by)`` older versions."""
    blob, size = inst.document(spec)
    who = by or inst.company.user
    versions = []
    for n, (old_spec, when, old_by) in enumerate(earlier, start=1):
        old_blob, old_size = inst.document(old_spec)
        versions.append(
            {
                "number": n,
                "name": name,
                "blob": old_blob,
                "size": old_size,
                "mime_type": mime_type_for(name),
                "modified": when.isoformat(),
                "modified_by": old_by,
            }
        )
    created = (earlier[0][1] if earlier else modified).isoformat()
    return inst.add(
        "drive",
        "files",
        inst.uid("file"),
        {
            "name": name,
            "kind": "file",
            "mime_type": mime_type_for(name),
            "parent_id": parent,
            "owner": inst.company.user,
            "created": created,
            "modified": modified.isoformat(),
            "modified_by": who,
            "size": size,
            "blob": blob,
            "permissions": [{"email": inst.company.user, "role": "owner"}],
            "versions": versions,
        },
    )


def _onedrive_item(inst: Instance, name: str, parent: str, when: str, extra: dict[str, Any]) -> dict[str, Any]:
    me = inst.company.user
    return inst.add(
        "onedrive",
        "items",
        inst.uid("itm"),
        {
            "name": name,
            "parent_id": parent,
            "owner": me,
            "created": when,
            "created_by": me,
            "modified": when,
            "modified_by": me,
            "permissions": [{"email": me, "role": "owner", "granted": when}],
            **extra,
        },
    )


def onedrive_folder(inst: Instance, name: str, parent: str = "root") -> dict[str, Any]:
    """A folder in the user's OneDrive."""
    return _onedrive_item(inst, name, parent, inst.day(-inst.rng.randint(60, 200), 10).isoformat(), {"kind": "folder"})


def onedrive_file(inst: Instance, name: str, parent: str, spec: dict[str, Any], modified: datetime) -> dict[str, Any]:
    """A file in the user's OneDrive (one version) holding ``spec``'s document."""
    blob, size = inst.document(spec)
    when = modified.isoformat()
    version = {"number": 1, "blob": blob, "size": size, "modified": when, "modified_by": inst.company.user}
    extra = {"kind": "file", "mime_type": mime_type_for(name), "blob": blob, "size": size, "versions": [version]}
    return _onedrive_item(inst, name, parent, when, extra)


def box_folder(inst: Instance, name: str, parent: str = "0") -> dict[str, Any]:
    """A Box folder the user owns."""
    at = inst.day(-inst.rng.randint(60, 200), 10).isoformat()
    me = inst.company.user
    return inst.add(
        "box",
        "folders",
        inst.uid("folder"),
        {"name": name, "parent_id": parent, "owner": me, "created_by": me, "created": at, "modified": at},
    )


def box_file(
    inst: Instance, name: str, parent: str, versions: list[tuple[dict[str, Any], datetime, str]]
) -> dict[str, Any]:
    """A Box file the user owns with its versions ``(spec, uploaded at, uploaded by)``, oldest first."""
    fid = inst.uid("file")
    made = []
    for n, (spec, when, by) in enumerate(versions, start=1):
        blob, size = inst.document(spec)
        made.append((blob, size, when, by))
        inst.add(
            "box",
            "versions",
            f"ver_{fid}_{n}",
            {
                "file_id": fid,
                "number": n,
                "blob": blob,
                "size": size,
                "uploaded_by": by,
                "uploaded_at": when.isoformat(),
            },
        )
    blob, size, when, by = made[-1]
    return inst.add(
        "box",
        "files",
        fid,
        {
            "name": name,
            "parent_id": parent,
            "owner": inst.company.user,
            "created_by": made[0][3],
            "created": made[0][2].isoformat(),
            "modified": when.isoformat(),
            "modified_by": by,
            "mime_type": mime_type_for(name),
            "size": size,
            "blob": blob,
            "version_number": len(made),
        },
    )
