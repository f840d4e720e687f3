"""The drive of a generated company: a shared drive per department with its documents, and the user's My Drive.

``build(company, rng)`` returns the drive state as JSON values. Each department's shared drive holds
folders (plans, reports, archive) with the department's documents (real docx, xlsx, pdf and csv
files); its head manages it, its people contribute, and the user reads it (and manages their own
department's). My Drive holds a few folders of the user's own copies and files colleagues shared with
them; a few files carry an earlier version or a comment. Ids start with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Doc, Life, slug

__all__ = ["build"]

_FOLDER_MIME = "application/vnd.google-apps.folder"
_FOLDERS = ("Plans", "Reports", "Archive")
_COMMENTS = (
    "Can we double-check these numbers?",
    "Looks good to me.",
    "Please add the owner for each line.",
    "Is this the latest version?",
    "Let's go through this on Thursday.",
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """The drive: ``{"files": {id: item}, "comments": {id: comment}, "shared_drives": {id: drive}}``.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = str(company.user)
    files: dict[str, dict[str, Any]] = {}
    comments: dict[str, dict[str, Any]] = {}
    drives: dict[str, dict[str, Any]] = {}

    def item(
        name: str,
        parent: str,
        drive: str,
        owner: str,
        days_ago: int,
        doc: Doc | None = None,
        permissions: list[dict[str, str]] | None = None,
    ) -> str:
        fid = f"bg_{'file' if doc else 'fld'}_{len(files) + 1:04d}"
        when = life.past(owner, days_ago)
        files[fid] = {
            "id": fid,
            "name": name,
            "kind": "file" if doc else "folder",
            "mime_type": doc.mime_type if doc else _FOLDER_MIME,
            "parent_id": parent,
            "drive_id": drive,
            "owner": owner,
            "created": (when - timedelta(days=rng.randint(0, 60))).isoformat(),
            "modified": when.isoformat(),
            "modified_by": owner,
            "size": doc.size if doc else 0,
            "blob": doc.blob if doc else "",
            "permissions": permissions or [],
        }
        return fid

    for department, people in life.departments.items():
        did = f"bg_drive_{slug(department)}"
        head = life.head_of(department)
        members = [{"email": str(head["email"]), "role": "manager"}]
        members += [{"email": str(p["email"]), "role": "contributor"} for p in people if p is not head]
        if me not in (m["email"] for m in members):
            members.append({"email": me, "role": "reader"})
        elif department == life.user["department"]:
            members = [{**m, "role": "content_manager"} if m["email"] == me else m for m in members]
        drives[did] = {
            "id": did,
            "name": department,
            "members": members,
            "created": life.past(head, rng.randint(200, 700)).isoformat(),
        }
        folders = {f: item(f, did, did, str(head["email"]), rng.randint(60, 300)) for f in _FOLDERS}
        for doc in life.documents(department):
            folder = "Archive" if doc.days_ago > 80 else rng.choice(("Plans", "Reports"))
            fid = item(doc.name, folders[folder], did, doc.owner, doc.days_ago, doc)
            if rng.random() < 0.1:
                _comment(life, comments, fid, people)

    own = [d for d in life.all_documents() if d.department == life.user["department"]]
    mine = {
        f: item(f, "root", "", me, rng.randint(30, 200), permissions=[{"email": me, "role": "owner"}])
        for f in ("Notes", "Drafts")
    }
    for doc in rng.sample(own, min(len(own), 6)):
        item(
            f"Copy of {doc.name}",
            mine[rng.choice(sorted(mine))],
            "",
            me,
            doc.days_ago,
            doc,
            [{"email": me, "role": "owner"}],
        )
    for doc in rng.sample(life.all_documents(), min(8, len(life.all_documents()))):
        if doc.owner == me:
            continue
        role = rng.choice(("reader", "commenter", "writer"))
        item(
            doc.name,
            "root",
            "",
            doc.owner,
            doc.days_ago,
            doc,
            [{"email": doc.owner, "role": "owner"}, {"email": me, "role": role}],
        )
    return {"files": files, "comments": comments, "shared_drives": drives}


def _comment(life: Life, comments: dict[str, dict[str, Any]], fid: str, people: list[dict[str, Any]]) -> None:
    rng = life.rng
    author = rng.choice(people)
    cid = f"bg_cmt_{len(comments) + 1:03d}"
    comments[cid] = {
        "id": cid,
        "file_id": fid,
        "author": str(author["email"]),
        "body": rng.choice(_COMMENTS),
        "created": life.past(author, rng.randint(1, 30)).isoformat(),
        "resolved": rng.random() < 0.4,
    }
