"""Make a colleague's mailed price list (a real .xlsx) the new version of the one in Drive, keeping its history.

The file moves through the workspace: the attachment is saved there, then uploaded as the Drive file's
new content, which must be the mailed bytes. Varies: the colleague, the product line and its code, the
revision numbers and prices, the phrasing. Distractors: the colleague's earlier mail with the previous
revision (control: ``previous-revision``), the copy of the same name in an Archive folder
(``archived-copy``), and adding the attachment as a second file beside the first (``second-file``).

Scenario shapes (picked by the seed):

- ``separate_mails``: the previous revision came in an earlier mail of its own.
- ``same_thread``: the new revision is a reply in the previous revision's thread, so the thread's first
  attachment is the old one (control: ``previous-revision``).
- ``other_line``: the colleague also mailed another product line's price list later the same day (control:
  ``other-line`` uploads that one).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

LINES = ("Cold chain", "Parcel", "Freight forwarding", "Warehousing", "Last mile", "Customs brokerage")
SHAPES = ("separate_mails", "same_thread", "other_line")
ITEMS = ("Base rate", "Fuel surcharge", "Handling fee", "Pallet storage", "Express upgrade", "Insurance")


def _prices(inst: Instance, code: str, rev: int) -> dict[str, Any]:
    rows: list[list[Any]] = [["Revision", f"{code}-R{rev}"], ["Item", "Price"]]
    rows += [[item, inst.amount(20, 900, 5)] for item in inst.rng.sample(ITEMS, 4)]
    return {"kind": "xlsx", "sheets": {"Prices": rows}}


def _build(inst: Instance) -> dict[str, Any]:
    line = inst.pick(LINES)
    code = inst.code("PL")
    sender = inst.person()
    rev = inst.rng.randint(3, 7)
    name = f"{code} {line} price list.xlsx"
    folder = drive_folder(inst, f"Pricing {code}")
    archive = drive_folder(inst, "Archive")
    older = [(_prices(inst, code, n), inst.workday(-90 + 12 * n, 10), sender["email"]) for n in range(1, rev - 1)]
    current = drive_file(
        inst, name, folder["id"], _prices(inst, code, rev - 1), inst.workday(-14, 15), by=sender["email"], earlier=older
    )
    archived = drive_file(inst, name, archive["id"], _prices(inst, code, rev - 2), inst.workday(-60, 9))
    first = inst.first(sender)
    shape = SHAPES[inst.seed % len(SHAPES)]

    def new_mail(**thread: str) -> dict[str, Any]:
        return message(
            inst,
            sender=sender["email"],
            subject=f"{line} price list {code}, revision {rev}" if not thread else f"Re: {line} price list {code}",
            body=f"Hi,\n\nAttached is revision {rev} of the {line.lower()} price list.\n\n{first}",
            when=inst.workday(-1, 16),
            attachments=[attachment(inst, f"{code} price list R{rev}.xlsx", _prices(inst, code, rev))],
            **thread,
        )

    def old_mail() -> dict[str, Any]:
        return message(
            inst,
            sender=sender["email"],
            subject=f"{line} price list {code}, revision {rev - 1}" if shape != "same_thread"
            else f"{line} price list {code}",
            body=f"Hi,\n\nHere is revision {rev - 1}.\n\n{first}",
            when=inst.workday(-15, 11),
            attachments=[attachment(inst, f"{code} price list R{rev - 1}b.xlsx", _prices(inst, code, rev - 1))],
        )  # fmt: skip

    if shape == "same_thread":
        old = old_mail()
        new = new_mail(thread=old["id"], in_reply_to=old["id"])
    else:
        new, old = new_mail(), old_mail()
    extra = []
    if shape == "other_line":
        other_line, other_code = inst.pick([x for x in LINES if x != line]), inst.code("PL")
        other_name = f"{other_code} price list R{rev}.xlsx"
        message(inst, sender=sender["email"], subject=f"{other_line} price list {other_code}, revision {rev}",
                body=f"Hi,\n\nAnd the {other_line.lower()} list, revision {rev}.\n\n{first}",
                when=inst.workday(-1, 17), attachments=[attachment(inst, other_name,
                                                                   _prices(inst, other_code, rev))])  # fmt: skip
        extra.append({"name": "other-line", "why": "uploads the other product line's price list, mailed later",
                      "steps": [
                          {"tool": "gmail.search_messages", "args": {"query": f"from:{sender['email']} has:attachment"},
                           "save": {"mid": "results.0.id"}},
                          {"tool": "gmail.get_attachment",
                           "args": {"message_id": "{mid}", "attachment_id": other_name, "save_as": "other.xlsx"}},
                          {"tool": "drive.update_file", "args": {"file_id": current["id"], "path": "other.xlsx"}},
                      ]})  # fmt: skip
    new_file = new["attachments"][0]["id"]
    mailed = {"app": "gmail", "collection": "messages", "id": new["id"], "attachment": new_file}
    who = sender["name"] if inst.rng.random() < 0.5 else first
    low = line.lower()
    instruction = compose(
        inst,
        [
            (
                f"put the new {low} price list ({code}) from {who} into Drive as the new version of the one in the"
                f" Pricing {code} folder",
                f"update our copy of the {code} price list in Drive (Pricing {code}) with the latest one from {who}"
                " so it becomes the current version",
                f"replace the {low} price list in Drive's Pricing {code} folder with the revision {who} just sent",
                f"make the {code} revision {who} mailed the current version of the price list in Pricing {code}",
            ),
        ],
        (
            f"{who} mailed me the new {low} price list ({code})",
            f"the latest {code} price list from {who} is in my inbox",
            f"{who} sent a new revision of the {low} prices",
            "",
        ),
        by=who,
        tail=("keep the old versions", "don't make a second file", "history should stay", ""),
    )  # fmt: skip
    versions = len(older)
    path = f"downloads/{code} price list R{rev}.xlsx"
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "new_revision_is_current",
                "kind": "record",
                "app": "drive",
                "collection": "files",
                "count": 1,
                "where": {"id": current["id"], "blob": {"same_bytes_as": mailed}, "versions": {"len": versions + 1}},
            }
        ],
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": current["id"]},
                "fields": ["blob", "size", "versions", "modified", "modified_by", "mime_type"],
                "values": {"blob": {"same_bytes_as": mailed}},
            },
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{sender['email']} {code} has:attachment"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}, "save": {"att": "attachments.0.id"}},
            {
                "tool": "gmail.get_attachment",
                "args": {"message_id": "{mid}", "attachment_id": "{att}", "save_as": path},
                "save": {"path": "saved_to"},
            },
            {
                "tool": "drive.search_files",
                "args": {"query": f"Pricing {code}", "kind": "folder"},
                "save": {"folder": "results.0.id"},
            },
            {
                "tool": "drive.upload_file",
                "args": {"path": "{path}", "parent_id": "{folder}", "name": name, "conflict": "replace"},
            },
            {"tool": "complete_task", "args": {"summary": f"{name} is now revision {rev}."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [
                {
                    "tool": "gmail.get_attachment",
                    "args": {"message_id": new["id"], "attachment_id": new_file, "save_as": "new.xlsx"},
                },
                {
                    "tool": "drive.search_files",
                    "args": {"query": code, "folder_id": folder["id"]},
                    "save": {"fid": "results.0.id"},
                },
                {"tool": "drive.update_file", "args": {"file_id": "{fid}", "path": "new.xlsx"}},
                {"tool": "complete_task", "args": {"summary": "Updated."}},
            ]
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "previous-revision",
                "why": "uploads the attachment of the earlier mail",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {
                            "message_id": old["id"],
                            "attachment_id": f"{code} price list R{rev - 1}b.xlsx",
                            "save_as": "old.xlsx",
                        },
                    },
                    {"tool": "drive.update_file", "args": {"file_id": current["id"], "path": "old.xlsx"}},
                ],  # fmt: skip
            },
            {
                "name": "second-file",
                "why": "keeps both: adds the new list as another file beside the old one",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {"message_id": new["id"], "attachment_id": new_file, "save_as": "new.xlsx"},
                    },
                    {
                        "tool": "drive.upload_file",
                        "args": {"path": "new.xlsx", "parent_id": folder["id"], "name": name, "conflict": "keep_both"},
                    },
                ],  # fmt: skip
            },
            {
                "name": "archived-copy",
                "why": "updates the copy of the same name in Archive",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {"message_id": new["id"], "attachment_id": new_file, "save_as": "new.xlsx"},
                    },
                    {"tool": "drive.update_file", "args": {"file_id": archived["id"], "path": "new.xlsx"}},
                ],  # fmt: skip
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="gmail-attachment-new-drive-version",
    apps=("drive", "gmail"),
    summary="make a mailed price list (xlsx) the new version of its Drive file through the workspace",
    build=_build,
)
