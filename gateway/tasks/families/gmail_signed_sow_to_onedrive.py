"""File a client's signed statement of work, mailed by a colleague (a real PDF), in that client's OneDrive folder.

The file moves through the workspace: the attachment is saved there and uploaded into OneDrive; the filed
file must carry the mailed bytes (typed text under its name is not it). Varies:
the client (and a client with a look-alike name), the SOW code and fee, the colleague who mailed it, the
phrasing. Distractors: the same colleague's earlier mail with the unsigned draft, the client's Drafts
folder beside Signed, and the look-alike client's Signed folder. Held out as the test family.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

NAMES = ("Northgate", "Bluewater", "Redfern", "Silverton", "Oakridge", "Kingsley", "Ashford", "Pinecrest")
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
    new = message(
        inst,
        sender=sender["email"],
        subject=f"Signed SOW {code} - {client}",
        body=f"Hi,\n\n{client} signed the SOW. Copy attached.\n\n{first}",
        when=inst.workday(-1, 17),
        attachments=[attachment(inst, f"{code} SOW signed.pdf", _sow(code, client, fee, countersigned))],
    )
    old = message(
        inst,
        sender=sender["email"],
        subject=f"SOW {code} draft for {client}",
        body=f"Hi,\n\nDraft SOW for review.\n\n{first}",
        when=inst.workday(-12, 10),
        attachments=[attachment(inst, f"{code} SOW draft.pdf", _sow(code, client, fee, "Draft for review"))],
    )
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
        ],
    }


FAMILY = Family(
    name="gmail-signed-sow-to-onedrive",
    apps=("onedrive", "gmail"),
    summary="save a mailed signed SOW (PDF) into the client's Signed folder in OneDrive through the workspace",
    build=_build,
    split="test",
)
