"""Change one deliverable's status and due date on a project's SharePoint tracker, leaving its other columns alone.

Varies: the project, the deliverable and its code, the owner, the new status and due date, the colleague who
asks, the phrasing. Distractors: a deliverable of the same name on another project's tracker, another
deliverable on the same tracker owned by the same person, other items whose status already reads the target.

Scenario shapes (picked by the seed):

- ``other_project_namesake``: the near-misses above (control: updates the other project's item of the same
  name).
- ``phase_two``: the same tracker holds a "phase 2" item of the same deliverable, same owner (control: updates
  the phase 2 item).
- ``copied_list``: the project's site keeps last year's copy of the tracker, with the same code on it
  (control: updates the copy's item).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import list_item, project_names, site, sp_list

__all__ = ["FAMILY"]

DELIVERABLES = (
    "Data migration plan", "Vendor security review", "Training materials", "Go-live checklist",
    "Pilot feedback report", "Budget reforecast", "Integration test plan", "Stakeholder briefing",
)  # fmt: skip
SHAPES = ("other_project_namesake", "phase_two", "copied_list")
STATUSES = ("Not started", "In progress", "Blocked", "Done")

COLUMNS: list[dict[str, Any]] = [
    {"name": "Code", "type": "text", "required": True},
    {"name": "Deliverable", "type": "text", "required": True},
    {"name": "Owner", "type": "person"},
    {"name": "Status", "type": "choice", "choices": list(STATUSES)},
    {"name": "Due", "type": "date"},
    {"name": "Notes", "type": "text"},
]


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    project, other_project = project_names(inst, 2)
    owner, asker, other_owner = inst.people(3)
    home = site(inst, f"Project {project}", [(me, "edit"), (asker["email"], "full_control"), (owner["email"], "edit")])
    away = site(inst, f"Project {other_project}", [(me, "contribute"), (other_owner["email"], "full_control")])
    tracker = sp_list(inst, home, "Deliverables", COLUMNS)
    away_tracker = sp_list(inst, away, "Deliverables", COLUMNS)
    target_name, same_owner_name, *rest = inst.rng.sample(DELIVERABLES, len(DELIVERABLES))
    code, sibling_code, away_code, *more_codes = (inst.code("DLV", 4) for _ in range(6))
    old_due = inst.workday(inst.rng.randint(3, 12)).date()
    new_status = inst.pick(("Done", "Blocked", "In progress"))
    new_due = inst.workday((old_due - inst.now.date()).days + inst.rng.randint(5, 20)).date()
    before = {
        "Code": code,
        "Deliverable": target_name,
        "Owner": owner["email"],
        "Status": inst.pick([s for s in STATUSES if s != new_status]),
        "Due": old_due.isoformat(),
        "Notes": inst.pick(("Draft shared with the steering group", "Waiting on finance input", "First pass done")),
    }
    target = list_item(inst, tracker, before, asker["email"], inst.rng.randint(10, 30))
    sibling = list_item(
        inst,
        tracker,
        {"Code": sibling_code, "Deliverable": same_owner_name, "Owner": owner["email"], "Status": "In progress",
         "Due": inst.workday(inst.rng.randint(4, 15)).date().isoformat()},
        asker["email"],
        inst.rng.randint(10, 30),
    )  # fmt: skip
    for name, c in zip(rest[:2], more_codes[:2], strict=True):
        list_item(
            inst,
            tracker,
            {"Code": c, "Deliverable": name, "Owner": inst.person()["email"], "Status": new_status,
             "Due": inst.workday(inst.rng.randint(-10, 20)).date().isoformat()},
            asker["email"],
            inst.rng.randint(10, 40),
        )  # fmt: skip
    away_item = list_item(
        inst,
        away_tracker,
        {"Code": away_code, "Deliverable": target_name, "Owner": other_owner["email"], "Status": "In progress",
         "Due": old_due.isoformat()},
        other_owner["email"],
        inst.rng.randint(10, 30),
    )  # fmt: skip
    after = {**before, "Status": new_status, "Due": new_due.isoformat()}
    due_words = f"{new_due:%A %B} {new_due.day}"
    shape = SHAPES[inst.seed % len(SHAPES)]
    look_alike: dict[str, Any] | None = None
    if shape == "phase_two":
        phase = {**before, "Code": more_codes[2], "Deliverable": f"{target_name} (phase 2)",
                 "Due": new_due.isoformat(), "Notes": "Starts after phase 1"}  # fmt: skip
        look_alike = list_item(inst, tracker, phase, asker["email"], inst.rng.randint(10, 30))
    elif shape == "copied_list":
        copy = sp_list(inst, home, "Deliverables 2025", COLUMNS)
        look_alike = list_item(inst, copy, {**before, "Notes": "Last year's plan"}, asker["email"],
                               inst.rng.randint(200, 300))  # fmt: skip
    who, owner_first = inst.first(asker), inst.first(owner)
    instruction = compose(
        inst,
        [
            (
                f"update the {target_name} ({code}) on the Project {project} deliverables tracker: status"
                f" {new_status}, due {due_words}",
                f"on Project {project}'s SharePoint tracker, set {target_name} to {new_status} and push its due date"
                f" to {due_words}",
                f"fix {code} ({target_name}, {owner_first}'s) on the {project} deliverables list so it reads"
                f" {new_status}, due {due_words}",
            ),
        ],  # fmt: skip
        (
            f"{who} asked me to update the {project} tracker",
            f"{who} confirmed the new plan for {target_name} this morning",
            f"{owner_first}'s {target_name} has slipped",
            "",
        ),
        by=who,
        tail=("change just those two fields", "leave the rest of the row as it is", ""),
    )
    fields = [f"Status={new_status}", f"Due={new_due.isoformat()}"]
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "deliverable_updated_rest_kept",
                "kind": "record",
                "app": "sharepoint",
                "collection": "items",
                "count": 1,
                "where": {"id": target["id"], "values": {"eq": after}},
            }
        ],
        "allowed_changes": [
            {
                "app": "sharepoint",
                "collection": "items",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["values", "modified", "modified_by"],
                "values": {"values": {"eq": after}},
            }
        ],
        "solution": [
            {
                "tool": "sharepoint.query_items",
                "args": {"site": home["name"], "list_name": "Deliverables", "equals": [f"Code={code}"]},
                "save": {"iid": "results.0.id"},
            },
            {"tool": "sharepoint.update_item", "args": {"item_id": "{iid}", "fields": fields}},
        ],
        "alternative_solutions": [
            [
                {
                    "tool": "sharepoint.query_items",
                    "args": {
                        "site": home["name"],
                        "list_name": "Deliverables",
                        "filter": f"Deliverable eq '{target_name}'",
                    },
                    "save": {"iid": "results.0.id"},
                },
                {"tool": "sharepoint.update_item", "args": {"item_id": "{iid}", "fields": [fields[1]]}},
                {"tool": "sharepoint.update_item", "args": {"item_id": "{iid}", "fields": [fields[0]]}},
            ]
        ],
        "no_controls": {
            "over_reach": "update_item has no person or choice parameter to vary and repeating it changes nothing;"
            " the clears-notes and other-project controls play the extra write"
        },
        "negative_controls": [
            {
                "name": "other-project",
                "why": "updates the deliverable of the same name on the other project's tracker",
                "steps": [{"tool": "sharepoint.update_item", "args": {"item_id": away_item["id"], "fields": fields}}],
            },
            {
                "name": "same-owner-sibling",
                "why": "updates the owner's other deliverable",
                "steps": [{"tool": "sharepoint.update_item", "args": {"item_id": sibling["id"], "fields": fields}}],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "updates the deliverable's phase 2 item"
                  if shape == "phase_two"
                  else "updates the item of the same code on last year's copy of the tracker",
                  "steps": [{"tool": "sharepoint.update_item",
                             "args": {"item_id": look_alike["id"], "fields": fields}}]}]
                if look_alike
                else []
            ),  # fmt: skip
            {
                "name": "status-only",
                "why": "leaves the due date where it was",
                "steps": [{"tool": "sharepoint.update_item", "args": {"item_id": target["id"], "fields": fields[:1]}}],
            },
            {
                "name": "clears-notes",
                "why": "also blanks the notes column",
                "steps": [
                    {
                        "tool": "sharepoint.update_item",
                        "args": {"item_id": target["id"], "fields": [*fields, "Notes="]},
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="sharepoint-update-tracker-item",
    apps=("sharepoint",),
    summary="set one deliverable's status and due date on a project's SharePoint tracker, nothing else",
    build=_build,
)
