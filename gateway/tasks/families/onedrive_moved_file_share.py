"""Share a OneDrive file that has moved since the user last saw it: the current copy, not a stale one.

Ambiguity the world resolves: the instruction names the folder the file used to live in; a colleague's
mail (or a note left in the old folder) says where it went. Sharing the copy left behind, the archived
copy, or the old folder scores 0.

Scenario shapes (picked by the seed):

- ``stale_copy``: a colleague moved the file and mailed so; a stale copy of the same name stays behind.
- ``note_left``: the old folder holds only a note naming the new folder; an archived copy of the same name
  sits in an Archive folder.
- ``renamed_copy``: the colleague's mail says it moved; the copy left behind was renamed "(old)".

Varies: the document, the folders, the colleague, the person shared with and the role, the phrasing.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import onedrive_file, onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

DOCS = ("rollout plan", "cost model", "pilot summary", "training schedule", "risk register", "supplier list")
ROLES = {"read": ("view it", "read it"), "write": ("edit it", "make changes")}
SHAPES = ("stale_copy", "note_left", "renamed_copy")


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (project,) = project_names(inst, 1)
    doc = f"{project} {inst.pick(DOCS)}"
    mover, grantee = inst.people(2)
    role = inst.pick(sorted(ROLES))
    old_name, new_name = inst.rng.sample(("Drafts", "Working", "In progress", "Shared out", "Team review"), 2)
    old = onedrive_folder(inst, f"{project} {old_name}")
    new = onedrive_folder(inst, f"{project} {new_name}")
    file_name = f"{doc.title()}.docx"

    def spec(text: str) -> dict[str, Any]:
        return {"kind": "docx", "title": doc.title(), "paragraphs": [f"{doc.title()}.", text]}

    current = onedrive_file(inst, file_name, new["id"], spec("Current version."), inst.day(-1, 15))
    stale: dict[str, Any]
    if shape == "note_left":
        archive = onedrive_folder(inst, "Archive")
        stale = onedrive_file(inst, file_name, archive["id"], spec("Archived version."), inst.day(-90, 10))
        note = {"kind": "text", "text": f"{doc.title()} moved to '{project} {new_name}'.\n"}
        onedrive_file(inst, "MOVED.txt", old["id"], note, inst.day(-3, 9))
    else:
        left = file_name if shape == "stale_copy" else f"{doc.title()} (old).docx"
        stale = onedrive_file(inst, left, old["id"], spec("Stale draft."), inst.day(-20, 10))
        message(inst, sender=mover["email"], subject=f"Moved the {doc}",
                body=f"Hi,\n\nI moved the {doc} into '{project} {new_name}'. The copy left in '{project}"
                f" {old_name}' is out of date - please don't use it.\n\n{inst.first(mover)}",
                when=inst.workday(-3, 11))  # fmt: skip
    who = inst.pick((grantee["name"], inst.first(grantee)))
    instruction = compose(
        inst,
        [
            (
                f"share the {doc} from my '{project} {old_name}' folder with {who} so they can"
                f" {inst.pick(ROLES[role])}",
                f"give {who} access to the {doc} in '{project} {old_name}' ({inst.pick(ROLES[role])})",
                f"open the {doc} in my {project} {old_name} folder up to {who}; they need to {inst.pick(ROLES[role])}",
            ),
        ],  # fmt: skip
        (f"{who} is picking up the {doc}", f"{who} asked for the {doc}", ""),
        by=inst.first(grantee),
        tail=("just that file", "make sure it's the current version", ""),
    )

    def grant(item: str) -> dict[str, Any]:
        return {"tool": "onedrive.grant_access", "args": {"item": item, "recipients": [grantee["email"]], "role": role}}

    done = {"tool": "complete_task", "args": {"summary": f"Shared the current {doc} with {grantee['name']}."}}
    reads: list[dict[str, Any]] = [{"tool": "onedrive.list_children", "args": {"folder": old["id"]}}]
    if shape != "note_left":
        reads.append({"tool": "gmail.search_messages", "args": {"query": doc}})
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "current_copy_shared",
                "kind": "record",
                "app": "onedrive",
                "collection": "items",
                "where": {"id": current["id"], "permissions": {"any": {"email": grantee["email"], "role": role}}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "onedrive",
                "collection": "items",
                "kinds": ["update"],
                "where": {"id": current["id"]},
                "fields": ["permissions"],
                "added": {"permissions": {"email": grantee["email"], "role": role}},
            },
        ],  # fmt: skip
        "solution": [
            *reads,
            {"tool": "onedrive.search_items", "args": {"query": doc}},
            grant(current["id"]),
            done,
        ],
        "negative_controls": [
            {
                "name": "stale-copy",
                "why": "shares the copy left behind or archived",
                "steps": [grant(stale["id"]), done],
            },
            {"name": "old-folder", "why": "shares the old folder", "steps": [grant(old["id"]), done]},
            {"name": "new-folder", "why": "shares the whole new folder", "steps": [grant(new["id"]), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="onedrive-moved-file-share",
    apps=("onedrive", "gmail", "directory"),
    summary="share the current copy of a OneDrive file that moved, not the stale one left behind",
    build=_build,
    decision=True,
    kind="ambiguity",
)
