"""Turn the change a colleague asked for by mail into a comment on the right Drive document.

Varies: the colleague, the document and its code, the change asked for (a cost centre, a PO number or a
project code replaced by another), the phrasing. The reference reads the mail to learn the change.
Distractors: the same colleague's mail asking a change to another document, and that other document,
which has the same title.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

DOCS = ("Statement of work", "Purchase request", "Services order", "Budget request")
FIELDS = (("cost centre", "CC"), ("purchase order", "PO"), ("billing code", "BC"))


def _doc(title: str, code: str, field: str, value: str) -> dict[str, Any]:
    return {
        "kind": "docx",
        "title": f"{code} {title}",
        "paragraphs": [f"{title} {code}", f"Charge to {field} {value}.", "Approved by the budget owner."],
    }


def _build(inst: Instance) -> dict[str, Any]:
    title = inst.pick(DOCS)
    field, prefix = inst.pick(FIELDS)
    code, other_code = inst.code("DOC"), inst.code("DOC")
    old_value, new_value, other_old, other_new = (inst.code(prefix) for _ in range(4))
    sender = inst.person()
    first = inst.first(sender)
    folder = drive_folder(inst, f"Requests {inst.now.year}")
    doc = drive_file(inst, f"{code} {title}.docx", folder["id"], _doc(title, code, field, old_value),
                     inst.workday(-6, 10))  # fmt: skip
    other = drive_file(inst, f"{other_code} {title}.docx", folder["id"], _doc(title, other_code, field, other_old),
                       inst.workday(-4, 10))  # fmt: skip
    request = message(
        inst,
        sender=sender["email"],
        subject=f"Change needed on {code}",
        body=f"Hi,\n\nOn the {title.lower()} {code}, the {field} should be {new_value}, not {old_value}. Could you"
        f" flag it on the document?\n\nThanks,\n{first}",
        when=inst.workday(-1, 13),
    )
    message(
        inst,
        sender=sender["email"],
        subject=f"Change needed on {other_code}",
        body=f"Hi,\n\nOn {other_code}, please switch the {field} to {other_new}.\n\n{first}",
        when=inst.workday(-3, 9),
    )
    who = sender["name"] if inst.rng.random() < 0.5 else first
    instruction = inst.phrase(
        "{who} emailed me a change they need on the {title} {code}. Please leave it as a comment on the document"
        " in Drive so the owner sees it.",
        "Can you put {who}'s requested change to {code} ({title}) on the Drive doc as a comment? The details are"
        " in their email.",
        "{who} wants something fixed in our {title} {code} - see their mail. Add a comment on the file in Drive"
        " saying what should change.",
    ).format(who=who, title=title.lower(), code=code)
    note = f"Please change the {field} from {old_value} to {new_value} (requested by {sender['name']})."
    values = [old_value, new_value, other_old, other_new]
    asks_change = {"claims": {"kind": "choice", "value": new_value, "candidates": values}}  # the new value, asserted
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "change_commented",
                "kind": "record",
                "app": "drive",
                "collection": "comments",
                "new": True,
                "count": 1,
                "where": {"file_id": doc["id"], "author": inst.company.user, "body": asks_change},
            }
        ],
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"file_id": doc["id"], "body": asks_change},
            },
            {  # a short "done" back to the colleague, in their thread, is ordinary courtesy
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": inst.company.user, "thread_id": request["thread_id"]},
                "values": {"to": [sender["email"]]},
            },
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{sender['email']} {code}"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}},
            {"tool": "drive.search_files", "args": {"query": code, "kind": "file"}, "save": {"fid": "results.0.id"}},
            {"tool": "drive.add_comment", "args": {"file_id": "{fid}", "text": note}},
            {"tool": "complete_task", "args": {"summary": f"Commented on {code}: {field} to {new_value}."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [
                {"tool": "gmail.search_messages", "args": {"query": f"{code} {field}"}},
                {
                    "tool": "drive.add_comment",
                    "args": {
                        "file_id": doc["id"],
                        "text": f"{new_value} should replace {old_value} here.",
                        "quote": old_value,
                    },
                },
                {"tool": "complete_task", "args": {"summary": "Done."}},
            ],
            [  # the other document's change, named as context
                {
                    "tool": "drive.add_comment",
                    "args": {
                        "file_id": doc["id"],
                        "text": f"Please change the {field} to {new_value}. ({other_new} is for {other_code}, not this"
                        " document.)",
                    },
                },
                {"tool": "complete_task", "args": {"summary": "Done."}},
            ],
            [  # the comment, and a short "done" back to the colleague in their thread
                {"tool": "drive.add_comment", "args": {"file_id": doc["id"], "text": note}},
                {"tool": "gmail.reply_to_message",
                 "args": {"message_id": request["id"], "body": "Done, it's on the doc."}},
                {"tool": "complete_task", "args": {"summary": "Commented and told them."}},
            ],
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "other-document",
                "why": "comments on the other document of the same title",
                "steps": [{"tool": "drive.add_comment", "args": {"file_id": other["id"], "text": note}}],
            },
            {
                "name": "other-change",
                "why": "comments the change asked for on the other document",
                "steps": [
                    {
                        "tool": "drive.add_comment",
                        "args": {"file_id": doc["id"], "text": f"Please change the {field} to {other_new}."},
                    }
                ],
            },
            {
                "name": "change-negated",
                "why": "names the new value, but as the change not to make",
                "steps": [
                    {
                        "tool": "drive.add_comment",
                        "args": {"file_id": doc["id"], "text": f"Do not change the {field} to {new_value}."},
                    }
                ],
            },
            {
                "name": "mail-instead",
                "why": "replies by mail and leaves no comment on the document",
                "steps": [
                    {
                        "tool": "gmail.send_message",
                        "args": {"to": [sender["email"]], "subject": f"Re: {code}", "body": note},
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="gmail-change-request-drive-comment",
    apps=("drive", "gmail"),
    summary="comment on a Drive document with the change a colleague asked for by mail",
    build=_build,
)
