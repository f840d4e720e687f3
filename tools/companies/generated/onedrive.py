"""The user's OneDrive in a generated company: folders per department they work with, and files shared with them.

``build(company, rng)`` returns the OneDrive state as JSON values: ``/Documents`` holds a folder for the
user's own department (all its documents) and for three to five departments they work with (some of
theirs), plus ``/Desktop``; a few colleagues' files are shared with the user (read or write). Every
file is a real document with one saved version. Ids start with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Doc, Life

__all__ = ["build"]


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """OneDrive: ``{"items": {id: item}, "links": {}}`` as JSON values.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = str(company.user)
    items: dict[str, dict[str, Any]] = {}

    def add(
        name: str, parent: str, doc: Doc | None, owner: str, days_ago: int, permissions: list[dict[str, Any]]
    ) -> str:
        iid = f"bg_itm_{len(items) + 1:04d}"
        when = life.past(owner, days_ago)
        created = (when - timedelta(days=rng.randint(0, 30))).isoformat()
        record: dict[str, Any] = {
            "id": iid,
            "name": name,
            "kind": "file" if doc else "folder",
            "parent_id": parent,
            "owner": owner,
            "created": created,
            "created_by": owner,
            "modified": when.isoformat(),
            "modified_by": owner,
            "permissions": permissions,
        }
        if doc:
            record |= {
                "mime_type": doc.mime_type,
                "blob": doc.blob,
                "size": doc.size,
                "versions": [
                    {
                        "number": 1,
                        "blob": doc.blob,
                        "size": doc.size,
                        "modified": when.isoformat(),
                        "modified_by": owner,
                    }
                ],
            }
        items[iid] = record
        return iid

    mine = [{"email": me, "role": "owner", "granted": life.past(me, 400).isoformat()}]
    documents = add("Documents", "root", None, me, rng.randint(300, 600), mine)
    desktop = add("Desktop", "root", None, me, rng.randint(300, 600), mine)
    own = str(life.user["department"])
    others = [d for d in life.departments if d != own]
    for department in [own, *rng.sample(others, min(len(others), rng.randint(3, 5)))]:
        folder = add(department, documents, None, me, rng.randint(100, 300), mine)
        docs = life.documents(department)
        if department != own:
            docs = rng.sample(docs, max(4, len(docs) * 2 // 3))
        for doc in docs:
            add(doc.name, folder, doc, me, doc.days_ago, mine)
    for doc in rng.sample(life.all_documents(), 4):
        add(doc.name, desktop, doc, me, rng.randint(1, 20), mine)
    shared = [d for d in life.all_documents() if d.owner != me and d.department != own]
    for doc in rng.sample(shared, min(len(shared), rng.randint(8, 14))):
        granted = life.past(doc.owner, rng.randint(1, 40)).isoformat()
        perms = [
            {"email": doc.owner, "role": "owner", "granted": granted},
            {"email": me, "role": rng.choice(("read", "write")), "granted": granted},
        ]
        add(doc.name, "", doc, doc.owner, doc.days_ago, perms)
    return {"items": items, "links": {}}
