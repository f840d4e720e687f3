"""Share a project document in Drive with a colleague, with the role they need (view, comment or edit).

Varies: the project and its code, the document, the colleague, the role asked for (in words: "look at",
"leave comments", "make changes"), the phrasing (composed). Distractors in every shape: an older copy of the
same document (same name) in an Archive folder (control: ``archived-copy``), and another project's document
of the same kind (``other-project``).

Scenario shapes (picked by the seed):

- ``archive_copy``: only the distractors above.
- ``namesake``: another colleague shares the first name of the one to share with, so the instruction names
  them in full (control: ``namesake`` shares with the other one).
- ``template_beside``: the project folder also holds a blank template of the same kind of document (control:
  ``template`` shares the template).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.people import namesakes
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

PROJECTS = ("Harbor", "Summit", "Beacon", "Meridian", "Granite", "Aurora", "Cascade", "Orchard", "Falcon")
DOCS = ("Project charter", "Rollout plan", "Risk register", "Vendor shortlist", "Kickoff notes", "Budget memo")
SHAPES = ("archive_copy", "namesake", "template_beside")
ROLES = {
    "reader": ("read it", "look it over", "view it"),
    "commenter": ("leave comments on it", "comment on it", "add comments"),
    "writer": ("edit it", "make changes to it", "work on it directly"),
}


def _doc(title: str, code: str, note: str) -> dict[str, Any]:
    return {"kind": "docx", "title": f"{code} {title}", "paragraphs": [f"Project {code}.", note]}


def _build(inst: Instance) -> dict[str, Any]:
    project, other_project = inst.rng.sample(PROJECTS, 2)
    title = inst.pick(DOCS)
    code, other_code = inst.code("PRJ"), inst.code("PRJ")
    role = inst.pick(sorted(ROLES))
    shape = SHAPES[inst.seed % len(SHAPES)]
    twin = None
    if shape == "namesake":
        colleague, twin = namesakes(inst)
    else:
        colleague = inst.person()
    folder = drive_folder(inst, f"{project} {code}")
    archive = drive_folder(inst, "Archive")
    other_folder = drive_folder(inst, f"{other_project} {other_code}")
    name = f"{code} {title}.docx"
    current = drive_file(
        inst, name, folder["id"], _doc(title, code, "Current version, agreed with the sponsor."),
        inst.workday(-inst.rng.randint(1, 6), 11),
    )  # fmt: skip
    old = drive_file(
        inst, name, archive["id"], _doc(title, code, "Superseded draft kept for reference."),
        inst.workday(-inst.rng.randint(40, 90), 15),
    )  # fmt: skip
    other = drive_file(
        inst, f"{other_code} {title}.docx", other_folder["id"], _doc(title, other_code, "Current version."),
        inst.workday(-inst.rng.randint(1, 6), 16),
    )  # fmt: skip
    who = colleague["name"] if inst.rng.random() < 0.5 else inst.first(colleague)
    extra = []
    if twin is not None:
        share = {"file_id": current["id"], "email": twin["email"], "role": role}
        extra.append({"name": "namesake", "why": "shares with the other colleague of the same first name",
                      "steps": [{"tool": "drive.share_file", "args": share}]})  # fmt: skip
    elif shape == "template_beside":
        blank = {"kind": "docx", "title": f"{title} template", "paragraphs": ["Template: fill in each section."]}
        template = drive_file(inst, f"{title} template.docx", folder["id"], blank, inst.workday(-30, 10))
        share = {"file_id": template["id"], "email": colleague["email"], "role": role}
        extra.append({"name": "template", "why": "shares the blank template in the same folder",
                      "steps": [{"tool": "drive.share_file", "args": share}]})  # fmt: skip
    doc, can = title.lower(), inst.pick(ROLES[role])
    instruction = compose(
        inst,
        [
            (
                f"share the {doc} for {project} ({code}) in Drive with {who} so they can {can}",
                f"give {who} access to our {doc} for project {code} ({project}); they should be able to {can}",
                f"share the {project} {doc} ({code}) with {who} - they need to {can}",
                f"let {who} {can}: share the {doc} in the {project} {code} folder in Drive with them",
            ),
        ],
        (
            f"{who} asked for the {project} {doc}",
            f"it's in the {project} {code} folder in Drive",
            f"{who} is joining the {project} work",
            "",
        ),
        by=who,
        tail=("nothing more than that", "just that document", ""),
    )  # fmt: skip
    email = colleague["email"]
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "colleague_has_the_role",
                "kind": "outcome",
                "app": "drive",
                "outcome": "effective_role",
                "args": {"item": current["id"], "person": email},
                "match": role,
            }
        ],
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": current["id"]},
                "fields": ["permissions"],
                "added": {"permissions": {"email": email, "role": role}},
            }
        ],
        "solution": [
            {
                "tool": "drive.search_files",
                "args": {"query": f"{project} {code}", "kind": "folder"},
                "save": {"folder": "results.0.id"},
            },
            {
                "tool": "drive.search_files",
                "args": {"query": code, "folder_id": "{folder}", "kind": "file"},
                "save": {"fid": "results.0.id"},
            },
            {"tool": "drive.share_file", "args": {"file_id": "{fid}", "email": email, "role": role}},
            {"tool": "complete_task", "args": {"summary": f"Shared {name} with {colleague['name']} ({role})."}},
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "archived-copy",
                "why": "shares the superseded copy of the same name in Archive",
                "steps": [{"tool": "drive.share_file", "args": {"file_id": old["id"], "email": email, "role": role}}],
            },
            {
                "name": "wrong-role",
                "why": "gives a role other than the one asked for",
                "steps": [
                    {
                        "tool": "drive.share_file",
                        "args": {
                            "file_id": current["id"],
                            "email": email,
                            "role": inst.pick(sorted(set(ROLES) - {role})),
                        },
                    }
                ],
            },
            {
                "name": "other-project",
                "why": "shares the other project's document of the same kind",
                "steps": [{"tool": "drive.share_file", "args": {"file_id": other["id"], "email": email, "role": role}}],
            },
            {
                "name": "whole-folder",
                "why": "shares the whole project folder instead of the document",
                "steps": [
                    {"tool": "drive.share_file", "args": {"file_id": folder["id"], "email": email, "role": role}}
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="drive-share-file-with-role",
    apps=("drive",),
    summary="share one project document in Drive with a colleague, with the role they need",
    build=_build,
)
