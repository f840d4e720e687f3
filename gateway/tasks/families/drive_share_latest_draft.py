"""Pick the most recently edited of several drafts of a proposal in Drive and share that one with a colleague.

The drafts are named after who edited them, not numbered, so the reference must read when each was last
changed to decide. Varies: the client and code, how many drafts (3 to 5) and their editors and times,
which draft is newest, the colleague and the role (comment or edit), the phrasing (composed). Distractors in
every shape: the older drafts (control: ``oldest-draft``), the draft whose name sorts first
(``first-by-name``), and another client's proposal changed even more recently (``other-client``).

Scenario shapes (picked by the seed):

- ``by_editor``: the drafts are named after who edited them.
- ``final_in_name``: as ``by_editor``, but the second newest draft is named FINAL (control: ``named-final``).
- ``version_numbers``: the drafts are numbered v1, v2, ..., but the highest number is not the one edited
  last (control: ``highest-number``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

CLIENTS = ("Alder Health", "Brightline Retail", "Copperleaf Energy", "Dunmore Foods", "Everstone Labs",
           "Foxglove Media", "Glenrock Mining", "Hollis Marine")  # fmt: skip
SHAPES = ("by_editor", "final_in_name", "version_numbers")
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
    shape = SHAPES[inst.seed % len(SHAPES)]
    numbers = [*range(1, count - 1), count, count - 1]  # by age, oldest first: the newest is not the highest
    for n, (editor, ago) in enumerate(zip(editors, hours, strict=True)):
        when = inst.now - timedelta(hours=ago, minutes=inst.rng.choice((0, 15, 30, 45)))
        name = f"{code} {client} proposal ({inst.first(editor)} edits).docx"
        if shape == "final_in_name" and n == count - 2:
            name = f"{code} {client} proposal FINAL.docx"
        elif shape == "version_numbers":
            name = f"{code} {client} proposal v{numbers[n]}.docx"
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
    decoy = next((f for _, f in drafts if "FINAL" in f["name"] or f["name"].endswith(f" v{count}.docx")), None)
    extra = []
    if decoy is not None:
        extra.append({
            "name": "named-final" if shape == "final_in_name" else "highest-number",
            "why": "shares the draft named FINAL" if shape == "final_in_name" else "shares the highest-numbered draft",
            "steps": [{"tool": "drive.share_file", "args": {"file_id": decoy["id"], "email": email, "role": role}}],
        })  # fmt: skip
    can = inst.pick(ROLES[role])
    instruction = compose(
        inst,
        [
            (
                f"share whichever draft of the {client} proposal ({code}) was edited most recently with {who} so they"
                f" can {can}",
                f"send {who} the latest draft of our {client} proposal, {code} - the one changed last - so they can"
                f" {can}",
                f"find the most recently edited draft of the {code} proposal for {client} in Drive and share just"
                f" that one with {who}, who needs to {can}",
                f"give {who} access to the {client} proposal draft ({code}) that was touched last; they need to {can}",
            ),
        ],
        (
            f"there are a few drafts of the {client} proposal floating around in Drive",
            f"{who} should {can} on the newest version of the {code} proposal",
            f"{who} is reviewing the {client} proposal",
            "",
        ),
        by=who,
        tail=("go by when each was last edited, not by its name", "only that draft", ""),
    )  # fmt: skip
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
            *extra,
        ],
    }


FAMILY = Family(
    name="drive-share-latest-draft",
    apps=("drive",),
    summary="share the most recently edited of several proposal drafts in Drive with a colleague",
    build=_build,
    decision=True,
)
