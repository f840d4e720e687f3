"""SharePoint of a generated company: a team site per department with its document library and two lists.

``build(company, rng)`` returns the SharePoint state as JSON values. Each department's site (its head
has full control, its people edit, the user reads, or edits their own department's) has a
"Documents" library with "Plans", "Reports" and "Archive" folders holding the department's real
documents, an "Action items" list and a "Requests" list with rows from the last two months. Ids
start with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Life, slug

__all__ = ["build"]

_STATUS = ["Not started", "In progress", "Done"]
_PRIORITY = ["Low", "Normal", "High"]


def _col(name: str, kind: str, required: bool = False, choices: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "type": kind, "required": required, "choices": choices or []}


_LISTS: tuple[tuple[str, str, list[dict[str, Any]]], ...] = (
    (
        "Action items",
        "Follow-ups from team meetings, with an owner and a due date.",
        [
            _col("Title", "text", True),
            _col("Owner", "person", True),
            _col("Status", "choice", True, _STATUS),
            _col("Due", "date"),
            _col("Notes", "text"),
        ],
    ),
    (
        "Requests",
        "Requests other teams sent to this team.",
        [
            _col("Request", "text", True),
            _col("Requested by", "person", True),
            _col("Priority", "choice", True, _PRIORITY),
            _col("Submitted", "date", True),
            _col("Done", "boolean"),
        ],
    ),
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """SharePoint: ``{"sites", "libraries", "files", "lists", "items"}``, each ``{id: record}``.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = str(company.user)
    base = f"https://{company.domain.split('.')[0]}.sharepoint.example/sites"
    out: dict[str, dict[str, dict[str, Any]]] = {"sites": {}, "libraries": {}, "files": {}, "lists": {}, "items": {}}
    for department, people in life.departments.items():
        key = slug(department)
        sid, lib = f"bg_site_{key}", f"bg_lib_{key}_documents"
        head = life.head_of(department)
        members = [{"email": str(head["email"]), "role": "full_control"}]
        members += [{"email": str(p["email"]), "role": "edit"} for p in people if p is not head]
        if me not in (m["email"] for m in members):
            members.append({"email": me, "role": "read"})
        created = life.past(head, rng.randint(300, 900))
        out["sites"][sid] = {
            "id": sid,
            "name": department,
            "url": f"{base}/{department.replace(' ', '')}",
            "description": f"The {department} team's site: documents, action items, requests.",
            "created": created.isoformat(),
            "members": members,
        }
        out["libraries"][lib] = {
            "id": lib,
            "site_id": sid,
            "name": "Documents",
            "description": f"{department} documents.",
        }
        folders: dict[str, str] = {}
        for name in ("Plans", "Reports", "Archive"):
            fid = f"bg_spf_{len(out['files']) + 1:04d}"
            stamp = life.past(head, rng.randint(150, 299)).isoformat()
            folders[name] = fid
            out["files"][fid] = {
                "id": fid,
                "site_id": sid,
                "library_id": lib,
                "name": name,
                "kind": "folder",
                "created": stamp,
                "created_by": head["email"],
                "modified": stamp,
                "modified_by": head["email"],
            }
        for doc in life.documents(department):
            fid = f"bg_spf_{len(out['files']) + 1:04d}"
            when = life.past(doc.owner, doc.days_ago)
            out["files"][fid] = {
                "id": fid,
                "site_id": sid,
                "library_id": lib,
                "name": doc.name,
                "kind": "file",
                "parent_id": folders["Archive" if doc.days_ago > 80 else rng.choice(("Plans", "Reports"))],
                "mime_type": doc.mime_type,
                "blob": doc.blob,
                "size": doc.size,
                "version": "1.0",
                "created": (when - timedelta(days=rng.randint(0, 30))).isoformat(),
                "created_by": doc.owner,
                "modified": when.isoformat(),
                "modified_by": doc.owner,
            }
        for n, (name, description, columns) in enumerate(_LISTS, start=1):
            lid = f"bg_list_{key}_{n}"
            out["lists"][lid] = {
                "id": lid,
                "site_id": sid,
                "name": name,
                "description": description,
                "columns": columns,
                "created": created.isoformat(),
            }
            for _ in range(rng.randint(6, 14)):
                author = rng.choice(people)
                when = life.past(author, rng.randint(1, 60))
                iid = f"bg_item_{len(out['items']) + 1:04d}"
                out["items"][iid] = {
                    "id": iid,
                    "list_id": lid,
                    "values": _row(life, department, n, when.date()),
                    "created": when.isoformat(),
                    "created_by": author["email"],
                    "modified": when.isoformat(),
                    "modified_by": author["email"],
                }
    return out


def _row(life: Life, department: str, which: int, day: Any) -> dict[str, Any]:
    rng = life.rng
    topic = life.topic(department)
    if which == 1:
        verb = rng.choice(("draft", "review", "send", "agree"))
        what = rng.choice(("plan", "numbers", "summary", "next steps"))
        values: dict[str, Any] = {
            "Title": f"{topic.capitalize()}: {verb} {what}",
            "Owner": life.colleague(department)["email"],
            "Status": rng.choice(_STATUS),
        }
        if rng.random() < 0.8:
            values["Due"] = (day + timedelta(days=rng.randint(3, 30))).isoformat()
        return values
    requester = life.colleague()
    return {
        "Request": f"Help with the {life.topic(str(requester['department']))}",
        "Requested by": requester["email"],
        "Priority": rng.choice(_PRIORITY),
        "Submitted": day.isoformat(),
        "Done": rng.random() < 0.5,
    }
