"""Scenario records for the SharePoint and Slack families: sites, libraries, lists, channels, messages, files.

Every helper writes one record through :meth:`Instance.add` (ids from :meth:`Instance.uid`) and returns it
as stored, so a family can name its ids in checks and controls. Times are aware datetimes from
``inst.day``/``inst.workday``; records hold them as ISO 8601 text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from gateway.tasks.kit.base import Instance
from tools.companies import company_state
from tools.kernel.documents import mime_type_for

__all__ = [
    "PROJECTS",
    "channel",
    "dm",
    "folder",
    "library_file",
    "list_item",
    "message",
    "project_names",
    "site",
    "slack_file",
    "sp_list",
]

#: Project code names: distinctive enough that a company's own records never share them.
PROJECTS = (
    "Kestrel", "Osprey", "Heron", "Plover", "Merlin", "Avocet", "Curlew", "Dunlin", "Godwit", "Lapwing",
    "Siskin", "Bittern", "Shrike", "Whimbrel", "Petrel", "Redstart",
)  # fmt: skip


def project_names(inst: Instance, k: int) -> list[str]:
    """``k`` distinct project code names."""
    return list(inst.rng.sample(PROJECTS, k))


def site(inst: Instance, name: str, members: list[tuple[str, str]], description: str = "") -> dict[str, Any]:
    """A team site named ``name`` with its "Documents" library; ``members`` are ``(email, role)``.

    Returns:
        The site record plus ``"library"``: the Documents library's id.
    """
    sid = inst.uid("site")
    slug = name.replace(" ", "")
    rec = inst.add(
        "sharepoint",
        "sites",
        sid,
        {
            "name": name,
            "url": f"https://{inst.company.domain.split('.')[0]}.sharepoint.example/sites/{slug}",
            "description": description or f"{name}: plans, documents and trackers.",
            "created": inst.day(-inst.rng.randint(120, 400), 10).isoformat(),
            "members": [{"email": e, "role": r} for e, r in members],
        },
    )
    lib = inst.uid("lib")
    inst.add("sharepoint", "libraries", lib, {"site_id": sid, "name": "Documents", "description": f"{name} documents."})
    return {**rec, "library": lib}


def folder(inst: Instance, where: dict[str, Any], name: str, author: str, parent: str = "") -> dict[str, Any]:
    """A folder called ``name`` in ``where``'s Documents library (under folder id ``parent``, or at the top)."""
    when = inst.day(-inst.rng.randint(60, 110), 11).isoformat()
    return inst.add(
        "sharepoint",
        "files",
        inst.uid("fold"),
        {
            "site_id": where["id"],
            "library_id": where["library"],
            "parent_id": parent,
            "name": name,
            "kind": "folder",
            "created": when,
            "created_by": author,
            "modified": when,
            "modified_by": author,
        },
    )


def library_file(
    inst: Instance,
    where: dict[str, Any],
    name: str,
    spec: dict[str, Any],
    author: str,
    modified: datetime,
    parent: str = "",
    older: Sequence[tuple[dict[str, Any], str, datetime]] = (),
) -> dict[str, Any]:
    """A file in ``where``'s Documents library made from a document spec.

    Args:
        older: Earlier versions, oldest first, as ``(spec, author, modified)``; the file's version label is
            ``<len(older) + 1>.0``.
    """
    blob, size = inst.document(spec)
    versions: list[dict[str, Any]] = []
    for n, (old_spec, who, when) in enumerate(older, 1):
        old_blob, old_size = inst.document(old_spec)
        versions.append(
            {"version": f"{n}.0", "blob": old_blob, "size": old_size, "modified": when.isoformat(), "modified_by": who}
        )
    created = str(versions[0]["modified"]) if versions else modified.isoformat()
    created_by = str(versions[0]["modified_by"]) if versions else author
    return inst.add(
        "sharepoint",
        "files",
        inst.uid("doc"),
        {
            "site_id": where["id"],
            "library_id": where["library"],
            "parent_id": parent,
            "name": name,
            "kind": "file",
            "mime_type": mime_type_for(name),
            "blob": blob,
            "size": size,
            "version": f"{len(versions) + 1}.0",
            "versions": versions,
            "created": created,
            "created_by": created_by,
            "modified": modified.isoformat(),
            "modified_by": author,
        },
    )


def sp_list(inst: Instance, where: dict[str, Any], name: str, columns: list[dict[str, Any]]) -> dict[str, Any]:
    """A list called ``name`` on site ``where`` with ``columns`` (``{"name", "type", ...}``)."""
    return inst.add(
        "sharepoint",
        "lists",
        inst.uid("list"),
        {
            "site_id": where["id"],
            "name": name,
            "description": f"{name} for {where['name']}.",
            "columns": columns,
            "created": inst.day(-inst.rng.randint(90, 150), 9).isoformat(),
        },
    )


def list_item(inst: Instance, of: dict[str, Any], values: dict[str, Any], author: str, days_ago: int) -> dict[str, Any]:
    """An item of list ``of`` with ``values`` (people as emails, dates as ``YYYY-MM-DD``)."""
    when = inst.day(-days_ago, 9 + inst.rng.randrange(8), inst.pick((5, 20, 35, 50))).isoformat()
    return inst.add(
        "sharepoint",
        "items",
        inst.uid("item"),
        {
            "list_id": of["id"],
            "values": values,
            "created": when,
            "created_by": author,
            "modified": when,
            "modified_by": author,
        },
    )


def channel(
    inst: Instance, name: str, members: list[str], *, private: bool = False, topic: str = "", purpose: str = ""
) -> dict[str, Any]:
    """A channel called ``name`` (without #) whose first member is its creator."""
    return inst.add(
        "slack",
        "channels",
        inst.uid("ch"),
        {
            "name": name,
            "kind": "private" if private else "public",
            "topic": topic,
            "purpose": purpose,
            "creator": members[0],
            "created": inst.day(-inst.rng.randint(60, 200), 10).isoformat(),
            "members": members,
        },
    )


def dm(inst: Instance, other: str) -> dict[str, Any]:
    """The user's direct-message conversation with ``other``: the company's own when it has one, else a new one.

    A world holds one DM per pair of people, so a family's messages go into the existing conversation (and
    its checks name that conversation's id) rather than a second one that ``@person`` would not find.
    """
    pair = {inst.company.user.lower(), other.lower()}
    for rec in company_state(inst.company.key, "slack").get("channels", {}).values():
        if rec.get("kind") == "dm" and {str(m).lower() for m in rec.get("members", [])} == pair:
            return dict(rec)
    return inst.add(
        "slack",
        "channels",
        inst.uid("dm"),
        {
            "kind": "dm",
            "creator": other,
            "created": inst.day(-inst.rng.randint(60, 200), 10).isoformat(),
            "members": [inst.company.user, other],
        },
    )


def message(
    inst: Instance, where: dict[str, Any], user: str, text: str, when: datetime, thread: str = ""
) -> dict[str, Any]:
    """A message by ``user`` in conversation ``where`` at ``when`` (a reply when ``thread`` names the parent)."""
    return inst.add(
        "slack",
        "messages",
        inst.uid("msg"),
        {"channel_id": where["id"], "user": user, "text": text, "ts": when.isoformat(), "thread_id": thread},
    )


def slack_file(
    inst: Instance, where: dict[str, Any], user: str, name: str, spec: dict[str, Any], when: datetime, comment: str
) -> dict[str, Any]:
    """A file ``name`` that ``user`` shared in ``where`` with a message saying ``comment``; returns the file."""
    blob, size = inst.document(spec)
    fid = inst.uid("file")
    msg = message(inst, where, user, comment, when)
    inst.overrides["slack"]["messages"][msg["id"]]["files"] = [fid]
    return inst.add(
        "slack",
        "files",
        fid,
        {
            "name": name,
            "title": name,
            "mime_type": mime_type_for(name),
            "size": size,
            "blob": blob,
            "user": user,
            "channel_id": where["id"],
            "message_id": msg["id"],
            "created": when.isoformat(),
        },
    )
