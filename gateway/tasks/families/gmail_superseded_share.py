"""Share a Drive file with whoever a colleague's mails finally name, after they changed who it is for.

Ambiguity the world resolves: the instruction says only "do what <colleague> asked"; the mailbox holds the
request and a later correction ("scratch that, share it with <other> instead"). Sharing with the first
person named, or with both, scores 0.

Scenario shapes (picked by the seed):

- ``same_thread``: the correction is a reply in the request's thread.
- ``new_mail``: the correction is a separate, later mail with its own subject.
- ``two_files``: the request asks for two files to be shared with two people; the correction changes only
  this file's person (the other file is not asked for).

Varies: the colleague, the people, the file and its folder, the role (comment or edit), dates, the
phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

DOCS = ("pricing model", "launch checklist", "board memo", "hiring plan", "vendor scorecard", "travel budget",
        "partner brief", "renewal tracker")  # fmt: skip
ROLES = {"commenter": "comment on it", "writer": "edit it"}
SHAPES = ("same_thread", "new_mail", "two_files")


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    asker, first_pick, final, third = inst.people(4)
    (project,) = project_names(inst, 1)
    doc, other_doc = (f"{project} {d}" for d in inst.rng.sample(DOCS, 2))
    role = inst.pick(sorted(ROLES))
    ext = inst.pick(("docx", "xlsx"))
    name = f"{doc.title()}.{ext}"  # "Kestrel Pricing Model.xlsx": a code name no background file shares
    folder = drive_folder(inst, inst.pick(("Planning", "Shared work", "Team files", "Projects")))
    spec: dict[str, Any] = (
        {"kind": "docx", "title": doc.title(), "paragraphs": [f"{doc.title()}: working draft."]}
        if ext == "docx"
        else {"kind": "xlsx", "sheets": {"Sheet1": [["Item", "Value"], [doc.title(), 1]]}}
    )
    target = drive_file(inst, name, folder["id"], spec, inst.day(-inst.rng.randint(3, 20), 14))
    other = drive_file(inst, f"{other_doc.title()}.docx", folder["id"],
                       {"kind": "docx", "title": other_doc.title(), "paragraphs": ["Draft."]},
                       inst.day(-inst.rng.randint(3, 20), 11))  # fmt: skip
    sign = inst.first(asker)
    asked = inst.workday(-inst.rng.randint(3, 5), 10, 20)
    wrong_for_file = first_pick
    if shape == "two_files":
        body = (f"Hi,\n\nTwo shares please: the {doc} with {first_pick['name']} and the {other_doc} with"
                f" {third['name']}, both so they can {ROLES[role]}.\n\n{sign}")  # fmt: skip
    else:
        body = f"Hi,\n\nCould you share the {doc} with {first_pick['name']}? They need to {ROLES[role]}.\n\n{sign}"
    request = message(inst, sender=asker["email"], subject=f"Sharing the {doc}", body=body, when=asked)
    fix = inst.pick(("Scratch that", "Change of plan", "Correction"))
    why = inst.pick((f"{inst.first(first_pick)} moved to another project", "I mixed up the names",
                     f"{inst.first(final)} owns this now"))  # fmt: skip
    later = inst.workday(-inst.rng.randint(1, 2), 15, 40)
    if shape == "same_thread":
        message(inst, sender=asker["email"], subject=f"Re: Sharing the {doc}",
                body=f"{fix}: please share it with {final['name']} instead, not {inst.first(first_pick)} - {why}."
                f"\n\n{sign}", when=later, thread=request["id"], in_reply_to=request["id"])  # fmt: skip
    elif shape == "new_mail":
        message(inst, sender=asker["email"], subject=f"{doc.capitalize()} access",
                body=f"Hi,\n\n{fix} on the {doc}: it should go to {final['name']}, not {first_pick['name']}"
                f" ({why}).\n\n{sign}", when=later)  # fmt: skip
    else:
        message(inst, sender=asker["email"], subject=f"Re: Sharing the {doc}",
                body=f"{fix} for the {doc} only: {final['name']} instead of {inst.first(first_pick)}. The"
                f" {other_doc} part stands.\n\n{sign}", when=later, thread=request["id"],
                in_reply_to=request["id"])  # fmt: skip
        wrong_for_file = third
    who = inst.pick((asker["name"], sign))
    instruction = compose(
        inst,
        [
            (
                f"share the {doc} in Drive the way {who} asked by mail",
                f"do what {who} asked about sharing the {doc}",
                f"sort out the {doc} sharing {who} mailed me about",
            ),
        ],  # fmt: skip
        (f"{who} wants the {doc} shared with someone", f"the details are in {who}'s mails", ""),
        by=who,
        tail=("check the latest mail on it first", "only that file", ""),
    )

    def share(person: str, fid: str = target["id"]) -> dict[str, Any]:
        return {"tool": "drive.share_file", "args": {"file_id": fid, "email": person, "role": role}}

    done = {"tool": "complete_task", "args": {"summary": f"Shared the {doc} with {final['name']}."}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "shared_with_final_person",
                "kind": "outcome",
                "app": "drive",
                "outcome": "effective_role",
                "args": {"item": target["id"], "person": final["email"]},
                "match": role,
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["permissions"],
                "added": {"permissions": {"email": final["email"], "role": role}},
            },
        ],  # fmt: skip
        "solution": [
            {"tool": "gmail.search_messages", "args": {"query": f"from:{asker['email']}"}},
            {"tool": "gmail.get_thread", "args": {"thread_id": request["thread_id"]}},
            {"tool": "drive.search_files", "args": {"query": doc, "kind": "file"}, "save": {"fid": "results.0.id"}},
            share(final["email"], "{fid}"),
            done,
        ],
        "negative_controls": [
            {
                "name": "first-request",
                "why": "shares with the person the first mail named, since corrected",
                "steps": [share(first_pick["email"]), done],
            },
            {
                "name": "both",
                "why": "shares with the first and the corrected person",
                "steps": [share(first_pick["email"]), share(final["email"]), done],
            },
            {
                "name": "mixed-up",
                "why": "shares the file with the wrong person for it",
                "steps": [share(wrong_for_file["email"]), done],
            }
            if shape == "two_files"
            else {
                "name": "other-file",
                "why": "shares another file of the folder with the right person",
                "steps": [share(final["email"], other["id"]), done],
            },
            {
                "name": "whole-folder",
                "why": "shares the folder, and every file in it",
                "steps": [share(final["email"], folder["id"]), done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="gmail-superseded-share",
    apps=("gmail", "drive"),
    summary="share a Drive file with the person a colleague's later mail names, not the one they first asked for",
    build=_build,
    decision=True,
    kind="ambiguity",
)
