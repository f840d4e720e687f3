"""Box of a generated company: a folder per department, shared with its people and with the user.

``build(company, rng)`` returns the Box state as JSON values: at the top of All Files, one folder per
department owned by its head, with "Working" and "Final" folders inside holding the department's
documents (real files, one version each, some with comments). The department's people collaborate as
editors; the user is an editor of their own department's folder and a viewer of the others. Ids start
with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Life

__all__ = ["build"]

_COMMENTS = (
    "Final numbers are in.",
    "Please review before Friday.",
    "Updated after the team meeting.",
    "Who signs this off?",
    "Shared with the partner team.",
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """Box: ``{"folders", "files", "versions", "collaborations", "comments"}``, each ``{id: record}``.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = str(company.user)
    out: dict[str, dict[str, dict[str, Any]]] = {
        "folders": {},
        "files": {},
        "versions": {},
        "collaborations": {},
        "comments": {},
    }

    def folder(name: str, parent: str, owner: str, days_ago: int, description: str = "") -> str:
        fid = f"bg_folder_{len(out['folders']) + 1:03d}"
        when = life.past(owner, days_ago).isoformat()
        out["folders"][fid] = {
            "id": fid,
            "name": name,
            "parent_id": parent,
            "owner": owner,
            "created_by": owner,
            "created": when,
            "modified": when,
            "description": description,
        }
        return fid

    for department, people in life.departments.items():
        head = str(life.head_of(department)["email"])
        top = folder(department, "0", head, rng.randint(300, 700), f"{department} team files")
        subs = {name: folder(name, top, head, rng.randint(100, 290)) for name in ("Working", "Final")}
        collaborators = [p for p in people if p["email"] != head]
        for p in collaborators:
            _collaborate(life, out, top, str(p["email"]), "editor", head)
        if me != head and me not in (p["email"] for p in collaborators):
            _collaborate(life, out, top, me, "viewer", head)
        for doc in life.documents(department):
            fid = f"bg_file_{len(out['files']) + 1:04d}"
            when = life.past(doc.owner, doc.days_ago)
            created = (when - timedelta(days=rng.randint(0, 40))).isoformat()
            out["files"][fid] = {
                "id": fid,
                "name": doc.name,
                "parent_id": subs["Final" if doc.days_ago > 45 else "Working"],
                "owner": head,
                "created_by": doc.owner,
                "created": created,
                "modified": when.isoformat(),
                "modified_by": doc.owner,
                "mime_type": doc.mime_type,
                "size": doc.size,
                "blob": doc.blob,
            }
            vid = f"bg_ver_{fid.removeprefix('bg_file_')}_1"
            out["versions"][vid] = {
                "id": vid,
                "file_id": fid,
                "number": 1,
                "blob": doc.blob,
                "size": doc.size,
                "uploaded_by": doc.owner,
                "uploaded_at": when.isoformat(),
            }
            if rng.random() < 0.12:
                author = rng.choice(people)
                cid = f"bg_comment_{len(out['comments']) + 1:03d}"
                out["comments"][cid] = {
                    "id": cid,
                    "file_id": fid,
                    "author": str(author["email"]),
                    "message": rng.choice(_COMMENTS),
                    "created": min(
                        when + timedelta(hours=rng.randint(1, 20)), life.now - timedelta(minutes=30)
                    ).isoformat(),
                }
    return out


def _collaborate(
    life: Life, out: dict[str, dict[str, dict[str, Any]]], folder: str, email: str, role: str, by: str
) -> None:
    cid = f"bg_collab_{len(out['collaborations']) + 1:04d}"
    when = life.past(by, life.rng.randint(100, 400)).isoformat()
    out["collaborations"][cid] = {
        "id": cid,
        "folder_id": folder,
        "email": email,
        "role": role,
        "status": "accepted",
        "invited_by": by,
        "created": when,
        "modified": when,
    }
