"""Share a project document in Drive with a colleague, with the role they need (view, comment or edit).

Varies: the project and its code, the document, the colleague, the role asked for (in words: "look at",
"leave comments", "make changes"), the phrasing. Distractors: an older copy of the same document (same
name) in an Archive folder, and another project's document of the same kind.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder

__all__ = ["FAMILY"]

PROJECTS = ("Harbor", "Summit", "Beacon", "Meridian", "Granite", "Aurora", "Cascade", "Orchard", "Falcon")
DOCS = ("Project charter", "Rollout plan", "Risk register", "Vendor shortlist", "Kickoff notes", "Budget memo")
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
    instruction = inst.phrase(
        "Please share the {title} for {project} ({code}) in Drive with {who} - they need to {can}.",
        "{who} asked for the {project} {title}; it's in the {project} {code} folder in Drive. Share it so they can"
        " {can}, nothing more.",
        "Can you give {who} access to our {title} for project {code} ({project})? They should be able to {can}.",
    ).format(title=title.lower(), project=project, code=code, who=who, can=inst.pick(ROLES[role]))
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
        ],
    }


FAMILY = Family(
    name="drive-share-file-with-role",
    apps=("drive",),
    summary="share one project document in Drive with a colleague, with the role they need",
    build=_build,
)
