"""Share the final one of several numbered versions of a document in Drive, which is not always the newest.

Ambiguity the world resolves: the instruction asks for "the final" document; the folder holds three or four
numbered versions, and only the world says which one is final (a status line in each file, or the owner's
mail). Sharing the newest or highest-numbered version, or the one whose name says FINAL when a later
version superseded it, scores 0.

Scenario shapes (picked by the seed):

- ``final_not_newest``: each file carries a status line; the approved one is not the newest (a draft for
  the next round was started after it).
- ``named_final_stale``: a file named ``... FINAL`` says it was superseded; a later version is the approved
  final.
- ``mail_decides``: the files carry no status; the owner's mail says which version was signed off and that
  a later one is only a scratch copy.

Varies: the project and document, the owner, the colleague and the role (comment or edit), how many
versions and which is final, dates, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder, long_date
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

DOCS = ("pricing proposal", "statement of work", "launch plan", "board update", "hiring plan", "vendor brief",
        "rollout plan", "budget memo")  # fmt: skip
ROLES = {"commenter": ("comment on", "leave comments on"), "writer": ("edit", "make changes to")}
SHAPES = ("final_not_newest", "named_final_stale", "mail_decides")


def _spec(title: str, status: str) -> dict[str, Any]:
    lines = [title, *([status] if status else []), "Sections: summary, scope, timeline, costs."]
    return {"kind": "docx", "title": title, "paragraphs": lines}


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    owner, colleague, approver = inst.people(3)
    (project,) = project_names(inst, 1)
    doc = f"{project} {inst.pick(DOCS)}"
    title = doc[:1].upper() + doc[1:]
    role = inst.pick(sorted(ROLES))
    count = inst.rng.randint(3, 4)
    final_no = count - 1 if shape != "named_final_stale" else count
    folder = drive_folder(inst, f"{project} documents")
    start = inst.day(-inst.rng.randint(20, 30), 10)
    approved = start + timedelta(days=count * 3 - 2)
    files: dict[int, dict[str, Any]] = {}
    for n in range(1, count + 1):
        when = start + timedelta(days=3 * (n - 1), hours=inst.rng.randint(0, 6))
        name = f"{title} v{n}.docx"
        status = f"Status: Draft {n}, not approved."
        if n == final_no:
            status = f"Status: FINAL - approved by {approver['name']} on {long_date(approved.date())}."
        if shape == "final_not_newest" and n > final_no:
            status = "Status: Draft for the next round - not approved."
        if shape == "named_final_stale" and n == final_no - 1:
            name = f"{title} v{n} FINAL.docx"
            status = f"Status: superseded by v{final_no} after review."
        if shape == "mail_decides":
            status = ""
        files[n] = drive_file(inst, name, folder["id"], _spec(f"{title} (v{n})", status), when, by=owner["email"])
    final, newest = files[final_no], files[count]
    decoy = files[final_no - 1] if shape == "named_final_stale" else newest
    sign = inst.first(owner)
    if shape == "mail_decides":
        body = (f"Hi,\n\nFor the record: v{final_no} of the {doc} is the one {inst.first(approver)} signed off,"
                f" so that's our final. v{count} is just my scratch copy for the next round.\n\n{sign}")  # fmt: skip
    else:
        body = f"Hi,\n\nAll versions of the {doc} are in the {project} documents folder in Drive.\n\n{sign}"
    message(inst, sender=owner["email"], subject=f"{title} versions", body=body, when=approved + timedelta(hours=3))
    who = inst.pick((colleague["name"], inst.first(colleague)))
    instruction = compose(
        inst,
        [
            (
                f"share the final {doc} with {who} so they can {inst.pick(ROLES[role])} it",
                f"give {who} access to the final version of the {doc} in Drive; they need to {ROLES[role][0]} it",
                f"make sure {who} can {ROLES[role][1]} the final {doc} in Drive",
            ),
        ],
        (f"there are several versions of the {doc} in Drive", f"{who} is picking up the {doc}", ""),
        by=str(owner["name"]),
        tail=("only the final one, not the drafts", "just that one file", ""),
    )

    def share(fid: str) -> dict[str, Any]:
        return {"tool": "drive.share_file", "args": {"file_id": fid, "email": colleague["email"], "role": role}}

    done = {"tool": "complete_task", "args": {"summary": f"Shared {final['name']} with {colleague['name']}."}}
    controls = [
        {"name": "first-version", "why": "shares the first draft", "steps": [share(files[1]["id"]), done]},
        {"name": "whole-folder", "why": "shares every version through the folder", "steps": [share(folder["id"]),
                                                                                            done]},
        {"name": "final-and-decoy", "why": "shares the final and the newest or FINAL-named version too",
         "steps": [share(final["id"]), share(decoy["id"]), done]},
    ]  # fmt: skip
    if decoy is newest:
        controls.append({"name": "newest-version", "why": "shares the newest, highest-numbered version",
                         "steps": [share(newest["id"]), done]})  # fmt: skip
    else:
        controls.append({"name": "named-final", "why": "shares the file named FINAL, since superseded",
                         "steps": [share(decoy["id"]), done]})  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {"name": "final_shared", "kind": "outcome", "app": "drive", "outcome": "effective_role",
             "args": {"item": final["id"], "person": colleague["email"]}, "match": role},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "drive", "collection": "files", "kinds": ["update"], "where": {"id": final["id"]},
             "fields": ["permissions"], "added": {"permissions": {"email": colleague["email"], "role": role}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "drive.search_files", "args": {"query": title, "kind": "file"}},
            *({"tool": "drive.read_file", "args": {"file_id": f["id"]}} for f in files.values()),
            {"tool": "gmail.search_messages", "args": {"query": f"from:{owner['email']}"}},
            share(final["id"]),
            done,
        ],
        "negative_controls": controls,
    }


FAMILY = Family(
    name="drive-latest-of-versions",
    apps=("drive", "gmail"),
    summary="share the one final version of a document among several numbered versions in Drive",
    build=_build,
    decision=True,
    kind="ambiguity",
)
