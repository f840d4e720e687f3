"""Turn the change a colleague asked for by mail into a comment on the right Drive document.

Varies: the colleague, the document and its code, the change asked for (a cost centre, a PO number or a
project code replaced by another), the phrasing. The reference reads the mail to learn the change.
Distractors in every shape: the same colleague's mail asking a change to another document (control:
``other-change``), and that other document, which has the same title (``other-document``).

Scenario shapes (picked by the seed):

- ``two_requests``: only the distractors above.
- ``corrected_value``: the request names a wrong new value, then the colleague corrects it in a reply in
  the same thread (control: ``first-value`` comments the value they corrected).
- ``overruled_in_thread``: another colleague first asks for a different value in the thread, and the
  colleague overrules them (control: ``overruled-value``).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

DOCS = ("Statement of work", "Purchase request", "Services order", "Budget request")
SHAPES = ("two_requests", "corrected_value", "overruled_in_thread")
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
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong = inst.code(prefix) if shape != "two_requests" else ""
    asked = wrong if shape == "corrected_value" else new_value
    if shape == "overruled_in_thread":
        peer = inst.person(exclude=[sender["email"]])
        start = message(inst, sender=peer["email"], subject=f"Change needed on {code}",
                        body=f"Hi,\n\nOn the {title.lower()} {code}, the {field} should be {wrong}, not {old_value}."
                        f"\n\n{inst.first(peer)}", when=inst.workday(-2, 10))  # fmt: skip
        request = message(inst, sender=sender["email"], subject=f"Re: Change needed on {code}",
                          body=f"No - {wrong} is closed. On {code} the {field} should be {new_value}, not {old_value}."
                          f" Could you flag it on the document?\n\n{first}", when=inst.workday(-1, 13),
                          thread=start["id"], in_reply_to=start["id"])  # fmt: skip
    else:
        request = message(
            inst,
            sender=sender["email"],
            subject=f"Change needed on {code}",
            body=f"Hi,\n\nOn the {title.lower()} {code}, the {field} should be {asked}, not {old_value}. Could you"
            f" flag it on the document?\n\nThanks,\n{first}",
            when=inst.workday(-1, 13),
        )
    if shape == "corrected_value":
        message(inst, sender=sender["email"], subject=f"Re: Change needed on {code}", thread=request["id"],
                body=f"Sorry, typo: {new_value}, not {wrong}.\n\n{first}", when=inst.workday(-1, 15),
                in_reply_to=request["id"])  # fmt: skip
    message(
        inst,
        sender=sender["email"],
        subject=f"Change needed on {other_code}",
        body=f"Hi,\n\nOn {other_code}, please switch the {field} to {other_new}.\n\n{first}",
        when=inst.workday(-3, 9),
    )
    who = sender["name"] if inst.rng.random() < 0.5 else first
    doc_kind = title.lower()
    instruction = compose(
        inst,
        [
            (
                f"leave the change {who} asked for on the {doc_kind} {code} as a comment on the document in Drive",
                f"put {who}'s requested change to {code} ({doc_kind}) on the Drive doc as a comment",
                f"add a comment on the {code} file in Drive saying what {who} wants changed",
                f"flag {who}'s change to the {doc_kind} {code} with a comment on it in Drive",
            ),
        ],
        (
            f"{who} emailed me a change they need on the {doc_kind} {code}",
            f"{who} wants something fixed in our {doc_kind} {code}",
            f"the details are in {who}'s email",
            "",
        ),
        by=who,
        tail=("the owner should see it there", "go by their latest word on it", ""),
    )  # fmt: skip
    note = f"Please change the {field} from {old_value} to {new_value} (requested by {sender['name']})."
    values = [old_value, new_value, other_old, other_new, *([wrong] if wrong else [])]
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
                # resolved, the comment is hidden from the owner who should act on it
                "where": {"file_id": doc["id"], "author": inst.company.user, "body": asks_change, "resolved": False},
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
            *(
                [{
                    "name": "first-value" if shape == "corrected_value" else "overruled-value",
                    "why": "comments the value the colleague corrected" if shape == "corrected_value"
                    else "comments the value the other colleague asked for, which was overruled",
                    "steps": [{"tool": "drive.add_comment",
                               "args": {"file_id": doc["id"], "text": f"Please change the {field} to {wrong}."}}],
                }] if wrong else []
            ),  # fmt: skip
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
                "name": "resolves-its-comment",
                "why": "leaves the comment, then resolves it, so the owner never sees it open",
                "steps": [
                    {"tool": "drive.add_comment", "args": {"file_id": doc["id"], "text": note}, "save": {"cid": "id"}},
                    {"tool": "drive.resolve_comment", "args": {"comment_id": "{cid}"}},
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
