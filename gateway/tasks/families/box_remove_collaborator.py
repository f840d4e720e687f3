"""Take a colleague who moved off an account out of that account's Box folder, and leave everyone else.

Varies: the client and its folder code, the colleague leaving, their role, the others on the folder, the
phrasing (composed). Distractors in every shape: the same colleague on another client's folder (they stay
there; control: ``every-folder``), a second collaborator on the folder (control: ``wrong-person``), and a
same-looking folder for the client's previous year.

Scenario shapes (picked by the seed):

- ``plain``: the instruction names the colleague; the second collaborator is anyone.
- ``namesake``: the second collaborator on the folder shares the leaving colleague's first name (another
  department), so the instruction names them in full (control: ``wrong-person`` removes the namesake).
- ``handover_note``: the instruction names nobody; a handover note in the client's folder says who leaves
  the account and who takes it over (control: ``wrong-person`` removes the one taking over).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import box_file, box_folder
from gateway.tasks.kit.people import namesakes
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

CLIENTS = ("Alder Health", "Brightline Retail", "Copperleaf Energy", "Dunmore Foods", "Everstone Labs",
           "Foxglove Media", "Glenrock Mining", "Hollis Marine")  # fmt: skip
SHAPES = ("plain", "namesake", "handover_note")
ROLES = ("editor", "viewer", "uploader", "co-owner", "previewer")


def _collab(inst: Instance, folder: dict[str, Any], email: str, role: str) -> dict[str, Any]:
    at = inst.day(-inst.rng.randint(30, 150), 10).isoformat()
    return inst.add(
        "box",
        "collaborations",
        inst.uid("collab"),
        {
            "folder_id": folder["id"],
            "email": email,
            "role": role,
            "invited_by": inst.company.user,
            "created": at,
            "modified": at,
        },
    )


def _build(inst: Instance) -> dict[str, Any]:
    client, other_client = inst.rng.sample(CLIENTS, 2)
    code, last_code, other_code = inst.code("ACC"), inst.code("ACC"), inst.code("ACC")
    shape = SHAPES[inst.seed % len(SHAPES)]
    if shape == "namesake":
        leaving, stays = namesakes(inst)
        third = inst.person(exclude=[leaving["email"], stays["email"]])
    else:
        leaving, stays, third = inst.people(3)
    year = inst.now.year
    folder = box_folder(inst, f"{client} {code} ({year})")
    last_year = box_folder(inst, f"{client} {last_code} ({year - 1})")
    other = box_folder(inst, f"{other_client} {other_code} ({year})")
    gone = _collab(inst, folder, leaving["email"], inst.pick(ROLES))
    _collab(inst, folder, stays["email"], inst.pick(ROLES))
    _collab(inst, last_year, leaving["email"], "viewer")
    kept = _collab(inst, other, leaving["email"], inst.pick(ROLES))
    _collab(inst, other, third["email"], "editor")
    who = leaving["name"]
    name = inst.pick((who, inst.first(leaving)))
    if shape == "handover_note":
        note = (f"{client} account handover ({code}): {who} moves to other accounts from this week; {stays['name']}"
                " takes over as account lead.")  # fmt: skip
        box_file(inst, f"Handover - {client}.txt", folder["id"],
                 [({"kind": "text", "text": note}, inst.workday(-2, 16), stays["email"])])  # fmt: skip
        name = inst.pick(("the colleague leaving", "whoever is leaving"))
    instruction = compose(
        inst,
        [
            (
                f"remove {name} from this year's {client} folder in Box ({code})",
                f"take {name}'s access away from the {client} {code} folder in Box",
                f"drop {name} from the {client} ({code}) Box folder",
                f"get {name} off the Box folder for {client}, {code}",
            )
            if shape != "handover_note"
            else (
                f"remove {name} from the {client} {code} folder in Box, going by the handover note in it",
                f"check the handover note in Box's {client} ({code}) folder and take {name} off that folder",
                f"drop the person the {client} handover note says is leaving from this year's {client} folder in Box"
                f" ({code})",
            ),
        ],
        (
            f"{name} has moved off the {client} account",
            f"{client} ({code}) is being handed over and {name} isn't on it any more",
            f"{name} is no longer on the {client} account",
            "",
        )
        if shape != "handover_note"
        else (f"the {client} account ({code}) has been handed over", f"{client} has a new account lead", ""),
        by=stays["name"],
        tail=("they keep their other accounts", "don't touch anyone else", "leave their other client folders as they"
              " are", ""),
    )  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "no_access_to_the_account_folder",
                "kind": "no_record",
                "app": "box",
                "collection": "collaborations",
                "where": {"folder_id": folder["id"], "email": {"ieq": leaving["email"]}},
            },
            {
                "name": "keeps_other_accounts",
                "kind": "record",
                "app": "box",
                "collection": "collaborations",
                "count": 1,
                "where": {"id": kept["id"], "email": leaving["email"]},
            },
        ],
        "allowed_changes": [
            {"app": "box", "collection": "collaborations", "kinds": ["delete"], "where": {"id": gone["id"]}},
        ],
        "solution": [
            {"tool": "box.search", "args": {"query": code, "item_type": "folder"}, "save": {"folder": "results.0.id"}},
            {"tool": "box.list_collaborations", "args": {"folder_id": "{folder}"}},
            {"tool": "box.remove_collaboration", "args": {"collaboration_id": gone["id"]}},
            {"tool": "complete_task", "args": {"summary": f"Removed {who} from the {client} {code} folder."}},
        ],
        "no_controls": {
            "over_reach": "the one write removes a collaboration by id and every other collaboration is the"
            " scenario's own; removing one more is what the wrong-person and every-folder controls play",
        },
        "negative_controls": [
            {
                "name": "wrong-person",
                "why": "removes the colleague who stays on the account",
                "steps": [{"tool": "box.remove_collaboration", "args": {"collaboration_id": _id(inst, folder, stays)}}],
            },
            {
                "name": "every-folder",
                "why": "also removes them from another client's folder",
                "steps": [
                    {"tool": "box.remove_collaboration", "args": {"collaboration_id": gone["id"]}},
                    {"tool": "box.remove_collaboration", "args": {"collaboration_id": kept["id"]}},
                ],
            },
            {
                "name": "downgrade-only",
                "why": "makes them a previewer instead of removing them",
                "steps": [
                    {"tool": "box.update_collaboration", "args": {"collaboration_id": gone["id"], "role": "previewer"}}
                ]
                if inst.overrides["box"]["collaborations"][gone["id"]]["role"] != "previewer"
                else [{"tool": "box.update_collaboration", "args": {"collaboration_id": gone["id"], "role": "viewer"}}],
            },
        ],
    }


def _id(inst: Instance, folder: dict[str, Any], person: dict[str, Any]) -> str:
    return next(
        rid
        for rid, c in inst.overrides["box"]["collaborations"].items()
        if c["folder_id"] == folder["id"] and c["email"] == person["email"]
    )


FAMILY = Family(
    name="box-remove-collaborator",
    apps=("box",),
    summary="remove one colleague from one client's Box folder, leaving their other folders and everyone else",
    build=_build,
)
