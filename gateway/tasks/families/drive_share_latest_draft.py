"""Pick the most recently edited of several drafts of a proposal in Drive and share that one with a colleague.

The drafts are named after who edited them, not numbered, so the reference must read when each was last
changed to decide. Varies: the client and code, how many drafts (3 to 5) and their editors and times,
which draft is newest, the colleague and the role (comment or edit), the phrasing. Distractors: the
older drafts, the draft whose name sorts first, and another client's proposal changed even more recently.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder

__all__ = ["FAMILY"]

CLIENTS = ("Alder Health", "Brightline Retail", "Copperleaf Energy", "Dunmore Foods", "Everstone Labs",
           "Foxglove Media", "Glenrock Mining", "Hollis Marine")  # fmt: skip
ROLES = {"commenter": ("comment on it", "leave comments"), "writer": ("edit it", "make changes")}


def _build(inst: Instance) -> dict[str, Any]:
    client, other_client = inst.rng.sample(CLIENTS, 2)
    code, other_code = inst.code("PRP"), inst.code("PRP")
    count = inst.rng.randint(3, 5)
    editors = inst.people(count + 1)
    colleague = editors.pop()
    role = inst.pick(sorted(ROLES))
    folder = drive_folder(inst, f"{client} proposal {code}")
    hours = sorted(inst.rng.sample(range(8, 24 * 9), count), reverse=True)  # hours ago, oldest first
    drafts = []
    for editor, ago in zip(editors, hours, strict=True):
        when = inst.now - timedelta(hours=ago, minutes=inst.rng.choice((0, 15, 30, 45)))
        name = f"{code} {client} proposal ({inst.first(editor)} edits).docx"
        spec = {
            "kind": "docx",
            "title": f"{code} proposal",
            "paragraphs": [f"Proposal for {client}.", f"Edits by {editor['name']}."],
        }
        drafts.append((when, drive_file(inst, name, folder["id"], spec, when, by=editor["email"])))
    drafts.sort(key=lambda d: d[0])
    latest = drafts[-1][1]
    oldest = drafts[0][1]
    first_named = min((d[1] for d in drafts[:-1]), key=lambda f: f["name"])
    other_folder = drive_folder(inst, f"{other_client} proposal {other_code}")
    other = drive_file(
        inst,
        f"{other_code} {other_client} proposal.docx",
        other_folder["id"],
        {"kind": "docx", "title": f"{other_code} proposal", "paragraphs": [f"Proposal for {other_client}."]},
        inst.day(0, 7),
    )
    email = colleague["email"]
    who = colleague["name"] if inst.rng.random() < 0.5 else inst.first(colleague)
    instruction = inst.phrase(
        "There are a few drafts of the {client} proposal ({code}) floating around in Drive. Share whichever was"
        " edited most recently with {who} so they can {can}.",
        "Please send {who} the latest draft of our {client} proposal, {code} - the one changed last - in Drive."
        " They need to {can}.",
        "{who} should {can} on the newest version of the {code} proposal for {client}. Find the most recently"
        " edited draft in Drive and share just that one.",
    ).format(client=client, code=code, who=who, can=inst.pick(ROLES[role]))
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "latest_draft_shared",
                "kind": "outcome",
                "app": "drive",
                "outcome": "effective_role",
                "args": {"item": latest["id"], "person": email},
                "match": role,
            }
        ],
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": latest["id"]},
                "fields": ["permissions"],
                "added": {"permissions": {"email": email, "role": role}},
            }
        ],
        "solution": [
            {
                "tool": "drive.search_files",
                "args": {"query": f"{code} proposal", "kind": "file"},
                "save": {"fid": "results.0.id"},
            },
            {"tool": "drive.get_file", "args": {"file_id": "{fid}"}},
            {"tool": "drive.share_file", "args": {"file_id": "{fid}", "email": email, "role": role}},
            {"tool": "complete_task", "args": {"summary": f"Shared {latest['name']} with {colleague['name']}."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [
                {
                    "tool": "drive.search_files",
                    "args": {"query": f"{client} proposal", "kind": "folder"},
                    "save": {"folder": "results.0.id"},
                },
                {"tool": "drive.list_folder", "args": {"folder_id": "{folder}"}},
                {"tool": "drive.share_file", "args": {"file_id": latest["id"], "email": email, "role": role}},
                {"tool": "complete_task", "args": {"summary": "Shared the latest draft."}},
            ]
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "oldest-draft",
                "why": "shares the oldest draft",
                "steps": [
                    {"tool": "drive.share_file", "args": {"file_id": oldest["id"], "email": email, "role": role}}
                ],
            },
            {
                "name": "first-by-name",
                "why": "shares the older draft whose name sorts first",
                "steps": [
                    {"tool": "drive.share_file", "args": {"file_id": first_named["id"], "email": email, "role": role}}
                ],
            },
            {
                "name": "other-client",
                "why": "shares another client's proposal, changed even more recently",
                "steps": [{"tool": "drive.share_file", "args": {"file_id": other["id"], "email": email, "role": role}}],
            },
            {
                "name": "whole-folder",
                "why": "shares every draft through the folder",
                "steps": [
                    {"tool": "drive.share_file", "args": {"file_id": folder["id"], "email": email, "role": role}}
                ],
            },
        ],
    }


FAMILY = Family(
    name="drive-share-latest-draft",
    apps=("drive",),
    summary="share the most recently edited of several proposal drafts in Drive with a colleague",
    build=_build,
    decision=True,
)
