"""Bring back the version of a Box contract from just before a colleague's unwanted edit, keeping the history.

Varies: the vendor, the contract code, how many versions there are (3 to 5) and who uploaded each, the
colleague whose edit is undone, the liability cap each version states, the phrasing. The reference must
read the version history to decide which number to restore. Distractors in every shape: the first draft
(control: ``first-draft``), the PDF sent to the vendor in the same folder, and another vendor's contract
edited by the same colleague (``other-contract``).

Scenario shapes (picked by the seed):

- ``named_editor``: the instruction names the colleague whose edit is undone.
- ``flagged_comment``: the instruction names nobody; a comment on the contract in Box says whose edit
  changed the cap (control: ``first-draft``, the version a reader who skips the history would pick).
- ``sibling_file``: the same vendor's NDA, also last edited by the colleague, sits in the same folder
  (control: ``sibling-nda`` restores the NDA's earlier version instead).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import box_file, box_folder
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("named_editor", "flagged_comment", "sibling_file")
VENDORS = ("Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
           "Proseware Legal", "Wingtip Security", "Lucerne Analytics")  # fmt: skip


def _contract(code: str, vendor: str, cap: int, stage: str) -> dict[str, Any]:
    return {
        "kind": "docx",
        "title": f"{code} {vendor} master services agreement",
        "paragraphs": [stage, f"Liability cap: ${cap:,} per contract year.", "Payment terms: net 30 days."],
    }


def _build(inst: Instance) -> dict[str, Any]:
    vendor, other_vendor = inst.rng.sample(VENDORS, 2)
    code, other_code = inst.code("CT"), inst.code("CT")
    editor, *authors = inst.people(3)
    count = inst.rng.randint(3, 5)
    caps = inst.rng.sample(range(100_000, 2_000_000, 25_000), count)
    start = inst.rng.randint(25, 40)
    history = []
    for n in range(1, count + 1):
        by = editor["email"] if n == count else authors[n % 2]["email"]
        stage = "First draft." if n == 1 else ("Edited." if n == count else f"Revision {n}, agreed wording.")
        when = inst.workday(-start + 5 * n, 9 + n)
        history.append((_contract(code, vendor, caps[n - 1], stage), when, by))
    folder = box_folder(inst, f"Contracts - {vendor}")
    name = f"{code} {vendor} MSA.docx"
    contract = box_file(inst, name, folder["id"], history)
    pdf_spec = {"kind": "pdf", "title": f"{code} as sent", "lines": [f"{code}", f"Liability cap: ${caps[0]:,}"]}
    box_file(inst, f"{code} {vendor} MSA (sent).pdf", folder["id"], [(pdf_spec, history[0][1], authors[0]["email"])])
    other_folder = box_folder(inst, f"Contracts - {other_vendor}")
    other_caps = inst.rng.sample(range(100_000, 2_000_000, 25_000), 2)
    other = box_file(
        inst,
        f"{other_code} {other_vendor} MSA.docx",
        other_folder["id"],
        [
            (_contract(other_code, other_vendor, other_caps[0], "Agreed."), inst.workday(-20, 10), authors[0]["email"]),
            (_contract(other_code, other_vendor, other_caps[1], "Edited."), inst.workday(-2, 10), editor["email"]),
        ],
    )
    wanted, bad = caps[count - 2], caps[count - 1]
    before_edit = f"ver_{contract['id']}_{count - 1}"
    who = editor["name"] if inst.rng.random() < 0.5 else inst.first(editor)
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra: list[dict[str, Any]] = []
    if shape == "flagged_comment":
        inst.add("box", "comments", inst.uid("comment"), {
            "file_id": contract["id"], "author": authors[0]["email"], "created": inst.workday(-1, 11).isoformat(),
            "message": f"{who}'s last edit changed the liability cap to ${bad:,}. That was never agreed with"
            f" {vendor}; we need the version from before it back.",
        })  # fmt: skip
    elif shape == "sibling_file":
        nda_caps = inst.rng.sample(range(100_000, 2_000_000, 25_000), 2)
        nda_code = inst.code("NDA")
        nda = box_file(inst, f"{nda_code} {vendor} NDA.docx", folder["id"], [
            (_contract(nda_code, vendor, nda_caps[0], "Agreed."), inst.workday(-15, 10), authors[1]["email"]),
            (_contract(nda_code, vendor, nda_caps[1], "Edited."), inst.workday(-3, 10), editor["email"]),
        ])  # fmt: skip
        extra.append({
            "name": "sibling-nda",
            "why": "restores the earlier version of the same vendor's NDA, edited by the same colleague",
            "steps": [{"tool": "box.promote_version", "args": {"file_id": nda["id"], "version": 1}}],
        })  # fmt: skip
    asks: list[tuple[str, ...]] = [
        (
            f"make the version of the {vendor} MSA ({code}) from just before {who}'s last edit the current one"
            " again",
            f"undo {who}'s change to our {vendor} contract {code} in Box by making the version right before"
            " their edit current again",
            f"restore the {code} agreement with {vendor} in Box to the version that came right before {who}'s"
            " edit",
            f"roll the {vendor} contract {code} in Box back to where it was before {who} edited it",
        ),
    ]  # fmt: skip
    about: tuple[str, ...] = (
        f"{who}'s last edit to the {vendor} MSA in Box changed the liability cap, and that wasn't agreed",
        f"the cap in {code} is wrong since {who} edited it",
        f"{who} edited the {vendor} agreement by mistake",
        "",
    )
    if shape == "flagged_comment":
        asks = [
            (
                f"undo the edit flagged in the comment on the {vendor} MSA ({code}) in Box by making the version"
                " from just before it current again",
                f"read the comment on our {vendor} contract {code} in Box and restore the version from right before"
                " the edit it complains about",
                f"roll the {code} agreement with {vendor} back to the version before the edit someone flagged in its"
                " Box comments",
            ),
        ]
        about = (f"someone flagged a bad edit on the {vendor} contract in Box", f"the cap in {code} looks wrong", "")
    instruction = compose(
        inst,
        asks,
        about,
        by=authors[0]["name"],
        tail=("keep the history", "don't delete any versions", "only that contract", ""),
    )  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "agreed_cap_is_current",
                "kind": "record",
                "app": "box",
                "collection": "files",
                "count": 1,
                "where": {
                    "id": contract["id"],
                    "version_number": count + 1,
                    # the bytes of the version before the edit, not a copy typed or edited to look like it
                    "blob": {
                        "same_bytes_as": {"app": "box", "collection": "versions", "id": before_edit},
                        "text": {"contains": f"${wanted:,}", "not_contains": f"${bad:,}"},
                    },
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "box",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": contract["id"]},
                "fields": ["blob", "size", "version_number", "modified", "modified_by"],
                "values": {"version_number": count + 1},
            },
            {"app": "box", "collection": "versions", "kinds": ["add"], "where": {"file_id": contract["id"]}},
        ],
        "solution": [
            {
                "tool": "box.search",
                "args": {"query": code, "file_extensions": ["docx"]},
                "save": {"fid": "results.0.id"},
            },
            {"tool": "box.list_versions", "args": {"file_id": "{fid}"}},
            {"tool": "box.promote_version", "args": {"file_id": "{fid}", "version": count - 1}},
            {"tool": "complete_task", "args": {"summary": f"Version {count - 1} of {name} is current again."}},
        ],
        "negative_controls": [
            {
                "name": "first-draft",
                "why": "restores the first draft instead of the version just before the edit",
                "steps": [{"tool": "box.promote_version", "args": {"file_id": contract["id"], "version": 1}}],
            },
            {
                "name": "other-contract",
                "why": "undoes the same colleague's edit on another vendor's contract",
                "steps": [{"tool": "box.promote_version", "args": {"file_id": other["id"], "version": 1}}],
            },
            {
                "name": "restore-and-comment",
                "why": "restores the right version but also posts a comment nobody asked for",
                "steps": [
                    {"tool": "box.promote_version", "args": {"file_id": contract["id"], "version": count - 1}},
                    {"tool": "box.add_comment", "args": {"file_id": contract["id"], "message": "Restored."}},
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="box-restore-before-bad-edit",
    apps=("box",),
    summary="restore the version of a Box contract from just before a colleague's edit, keeping the history",
    build=_build,
    decision=True,
)
