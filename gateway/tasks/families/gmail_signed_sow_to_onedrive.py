"""File a client's signed statement of work, mailed by a colleague (a real PDF), in that client's OneDrive folder.

The file moves through the workspace: the attachment is saved there and uploaded into OneDrive; the filed
file must carry the mailed bytes (typed text under its name is not it). Varies:
the client (and a client with a look-alike name), the SOW code and fee, the colleague who mailed it, the
phrasing. Distractors: the same colleague's earlier mail with the unsigned draft, the client's Drafts
folder beside Signed (control: ``drafts-folder``), and the look-alike client's Signed folder
(``look-alike-client``). Held out as the test family.

Scenario shapes (picked by the seed):

- ``draft_first``: the draft came in an earlier mail of its own (control: ``unsigned-draft``).
- ``reply_in_thread``: the signed copy is a reply in the draft's thread, so the thread's first attachment
  is the draft (control: ``unsigned-draft``).
- ``two_attachments``: the signed mail also carries the client's rate card PDF (control:
  ``wrong-attachment`` files the rate card).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

NAMES = ("Northgate", "Bluewater", "Redfern", "Silverton", "Oakridge", "Kingsley", "Ashford", "Pinecrest")
SHAPES = ("draft_first", "reply_in_thread", "two_attachments")
SUFFIXES = ("Health", "Holdings", "Partners", "Logistics", "Capital", "Foods")


def _sow(code: str, client: str, fee: int, status: str) -> dict[str, Any]:
    return {
        "kind": "pdf",
        "title": f"{code} statement of work",
        "lines": [f"Statement of work {code}", f"Client: {client}", f"Fee: ${fee:,}", status],
    }


def _build(inst: Instance) -> dict[str, Any]:
    base = inst.pick(NAMES)
    suffix, other_suffix = inst.rng.sample(SUFFIXES, 2)
    client, lookalike = f"{base} {suffix}", f"{base} {other_suffix}"
    code = inst.code("SOW")
    sender = inst.person()
    fee = inst.amount(15_000, 250_000, 500)
    first = inst.first(sender)
    clients = onedrive_folder(inst, "Clients")
    mine = onedrive_folder(inst, client, clients["id"])
    signed = onedrive_folder(inst, "Signed", mine["id"])
    drafts = onedrive_folder(inst, "Drafts", mine["id"])
    other = onedrive_folder(inst, lookalike, clients["id"])
    other_signed = onedrive_folder(inst, "Signed", other["id"])
    countersigned = f"Countersigned by {client}"
    shape = SHAPES[inst.seed % len(SHAPES)]

    def signed_mail(**thread: str) -> dict[str, Any]:
        files = [attachment(inst, f"{code} SOW signed.pdf", _sow(code, client, fee, countersigned))]
        if shape == "two_attachments":
            card = {"kind": "pdf", "title": f"{client} rate card", "lines": [f"{client} rate card", f"SOW {code}"]}
            files.append(attachment(inst, f"{client} rate card.pdf", card))
        return message(
            inst,
            sender=sender["email"],
            subject=f"Signed SOW {code} - {client}" if not thread else f"Re: SOW {code} draft for {client}",
            body=f"Hi,\n\n{client} signed the SOW. Copy attached.\n\n{first}",
            when=inst.workday(-1, 17),
            attachments=files,
            **thread,
        )

    def draft_mail() -> dict[str, Any]:
        return message(
            inst,
            sender=sender["email"],
            subject=f"SOW {code} draft for {client}",
            body=f"Hi,\n\nDraft SOW for review.\n\n{first}",
            when=inst.workday(-12, 10),
            attachments=[attachment(inst, f"{code} SOW draft.pdf", _sow(code, client, fee, "Draft for review"))],
        )

    if shape == "reply_in_thread":
        old = draft_mail()
        new = signed_mail(thread=old["id"], in_reply_to=old["id"])
    else:
        new, old = signed_mail(), draft_mail()
    extra = []
    if shape == "two_attachments":
        card_id = new["attachments"][1]["id"]
        extra.append({
            "name": "wrong-attachment",
            "why": "files the rate card that came with the signed SOW",
            "steps": [
                {"tool": "gmail.get_attachment",
                 "args": {"message_id": new["id"], "attachment_id": card_id, "save_as": "card.pdf"}},
                {"tool": "onedrive.upload_file", "args": {"path": "card.pdf", "folder": signed["id"]}},
            ],
        })  # fmt: skip
    new_file = new["attachments"][0]["id"]
    old_file = old["attachments"][0]["id"]
    mailed = {"app": "gmail", "collection": "messages", "id": new["id"], "attachment": new_file}
    who = sender["name"] if inst.rng.random() < 0.5 else first
    instruction = compose(
        inst,
        [
            (
                f"save the signed SOW from {client} ({code}) in OneDrive under Clients > {client} > Signed",
                f"file the signed {code} statement of work for {client} in the client's Signed folder in OneDrive",
                f"put the countersigned {code} PDF in OneDrive, in {client}'s Signed folder",
                f"upload the signed {client} SOW {code} that {who} mailed into OneDrive (Clients/{client}/Signed)",
            ),
        ],
        (
            f"{who} forwarded the signed SOW from {client} ({code})",
            f"the countersigned SOW {code} from {client} is in my inbox (from {who})",
            f"{client} signed {code} and {who} emailed it over",
            "",
        ),
        by=who,
        tail=("the signed PDF, not the draft", "keep it out of Drafts", ""),
    )  # fmt: skip
    path = f"downloads/{code} SOW signed.pdf"
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "signed_sow_filed",
                "kind": "record",
                "app": "onedrive",
                "collection": "items",
                "new": True,
                "count": 1,
                "where": {
                    "parent_id": signed["id"],
                    "kind": "file",
                    "blob": {"same_bytes_as": mailed},
                },
            }
        ],
        "allowed_changes": [
            {"app": "onedrive", "collection": "items", "kinds": ["add"], "where": {"parent_id": signed["id"]}},
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
                "tool": "onedrive.search_items",
                "args": {"query": "Signed", "folder": f"/Clients/{client}", "file_type": "folder"},
                "save": {"folder": "results.0.id"},
            },
            {"tool": "onedrive.upload_file", "args": {"path": "{path}", "folder": "{folder}"}},
            {"tool": "complete_task", "args": {"summary": f"Filed the signed SOW {code} in Clients/{client}/Signed."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [
                {
                    "tool": "gmail.get_attachment",
                    "args": {"message_id": new["id"], "attachment_id": f"{code} SOW signed.pdf", "save_as": "sow.pdf"},
                },
                {
                    "tool": "onedrive.upload_file",
                    "args": {
                        "path": "sow.pdf",
                        "folder": f"/Clients/{client}/Signed",
                        "name": f"{code} SOW signed.pdf",
                    },
                },
                {"tool": "complete_task", "args": {"summary": "Filed."}},
            ]
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "unsigned-draft",
                "why": "files the draft from the earlier mail",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {"message_id": old["id"], "attachment_id": old_file, "save_as": "sow.pdf"},
                    },
                    {"tool": "onedrive.upload_file", "args": {"path": "sow.pdf", "folder": signed["id"]}},
                ],  # fmt: skip
            },
            {
                "name": "drafts-folder",
                "why": "files it in the client's Drafts folder",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {"message_id": new["id"], "attachment_id": new_file, "save_as": "sow.pdf"},
                    },
                    {"tool": "onedrive.upload_file", "args": {"path": "sow.pdf", "folder": drafts["id"]}},
                ],  # fmt: skip
            },
            {
                "name": "look-alike-client",
                "why": "files it under the client with the look-alike name",
                "steps": [
                    {
                        "tool": "gmail.get_attachment",
                        "args": {"message_id": new["id"], "attachment_id": new_file, "save_as": "sow.pdf"},
                    },
                    {"tool": "onedrive.upload_file", "args": {"path": "sow.pdf", "folder": other_signed["id"]}},
                ],  # fmt: skip
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="gmail-signed-sow-to-onedrive",
    apps=("onedrive", "gmail"),
    summary="save a mailed signed SOW (PDF) into the client's Signed folder in OneDrive through the workspace",
    build=_build,
    split="test",
)
