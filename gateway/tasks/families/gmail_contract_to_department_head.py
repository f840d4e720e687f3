"""Mail a vendor's countersigned agreement (a real PDF) to the head of the department that owns it, manager on copy.

Varies: the vendor, the agreement and its reference, the signer, the department (hence its head, found in
the directory by title), the user's manager, the phrasing. Distractors: the same vendor's earlier draft of
the agreement (a Word file, unsigned; control: ``draft-forwarded``), another vendor's countersigned agreement
(``other-vendor``), the department's managers (a title below the head's; ``a-manager-not-the-head``).

Scenario shapes (picked by the seed):

- ``draft_earlier``: only the distractors above.
- ``reissued``: the vendor first sent a countersigned copy with the wrong term, then a corrected one
  (control: ``superseded-copy`` sends the first).
- ``second_agreement``: the same vendor also sent back another agreement of theirs, countersigned the same
  day (control: ``same-vendor-other-agreement``).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, department_head, message

__all__ = ["FAMILY"]

VENDORS = (
    ("Fabrikam Logistics", "fabrikam.example", "freight services"),
    ("Contoso Software", "contoso.example", "software licence"),
    ("Tailspin Print", "tailspin.example", "print services"),
    ("Litware Cloud", "litware.example", "cloud hosting"),
    ("Adatum Facilities", "adatum.example", "facilities maintenance"),
    ("Wingtip Staffing", "wingtip.example", "contract staffing"),
)
SHAPES = ("draft_earlier", "reissued", "second_agreement")
SIGNERS = ("Dana Oduya", "Marek Holm", "Priscilla Vance", "Tobias Lind", "Ruth Okafor", "Sam Whitcombe")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    boss = inst.manager_of(inst.user) or inst.person()
    depts = sorted({p["department"] for p in inst.company.people.values()} - {"Executive", inst.user["department"]})
    dept = inst.pick(depts)
    head = department_head(inst, dept)
    (vendor, domain, service), (other_vendor, other_domain, other_service) = inst.rng.sample(VENDORS, 2)
    code, other_code = inst.code("CT", 4), inst.code("CT", 4)
    signer = inst.pick(SIGNERS)
    fee = inst.amount(12_000, 240_000, 500)
    term = inst.pick((12, 24, 36))

    def signed(name: str, ref: str, what: str, by: str, months: int = term) -> dict[str, Any]:
        return attachment(
            inst,
            f"{ref}_{name.split()[0]}_signed.pdf",
            {
                "kind": "pdf",
                "title": f"{name} {what} agreement {ref}",
                "lines": [
                    f"Agreement {ref} between {inst.company.name} and {name}",
                    f"Service: {what}; term {months} months; annual fee ${fee:,}",
                    f"Countersigned for {name} by {by}",
                ],
            },
        )

    draft = attachment(
        inst,
        f"{code}_{vendor.split()[0]}_draft.docx",
        {
            "kind": "docx",
            "title": f"{vendor} {service} agreement {code} (draft)",
            "paragraphs": [f"DRAFT agreement {code} for {service}", "Not signed; for review only."],
        },
    )
    drafted = message(
        inst,
        sender=f"legal@{domain}",
        subject=f"Draft agreement {code} for review",
        body=f"Hello,\n\nAttached is our draft of agreement {code} ({service}) for your review.\n\n{vendor} legal",
        when=inst.day(-inst.rng.randint(12, 25), 11, 0),
        attachments=[draft],
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    got = message(
        inst,
        sender=f"legal@{domain}",
        subject=f"Agreement {code} countersigned",
        body=f"Hello,\n\nPlease find attached agreement {code}, now countersigned by {signer}.\n\n{vendor} legal",
        when=inst.day(-1, 15, 30),
        attachments=[signed(vendor, code, service, signer, term + 12 if shape == "reissued" else term)],
    )
    other = message(
        inst,
        sender=f"legal@{other_domain}",
        subject=f"Agreement {other_code} countersigned",
        body=f"Hello,\n\nAgreement {other_code} is attached, countersigned.\n\n{other_vendor} legal",
        when=inst.day(-1, 16, 10),
        attachments=[signed(other_vendor, other_code, other_service, inst.pick(SIGNERS))],
    )

    extra = []
    if shape == "reissued":
        first_copy = got
        got = message(
            inst,
            sender=f"legal@{domain}",
            subject=f"Agreement {code} countersigned - corrected copy",
            body=f"Hello,\n\nApologies: the copy of {code} we sent yesterday showed the wrong term. The corrected,"
            f" countersigned agreement is attached; please use this one.\n\n{vendor} legal",
            when=inst.day(0, 8, 15),
            attachments=[signed(vendor, code, service, signer)],
        )
        extra.append(("superseded-copy", "sends the first copy, which the vendor corrected", first_copy["id"]))
    elif shape == "second_agreement":
        code2, service2 = inst.code("CT", 4), inst.pick([v[2] for v in VENDORS if v[2] != service])
        second = message(
            inst,
            sender=f"legal@{domain}",
            subject=f"Agreement {code2} countersigned",
            body=f"Hello,\n\nAgreement {code2} ({service2}) is attached, countersigned.\n\n{vendor} legal",
            when=inst.day(-1, 16, 40),
            attachments=[signed(vendor, code2, service2, signer)],
        )
        extra.append(("same-vendor-other-agreement", "sends the vendor's other countersigned agreement", second["id"]))
    instruction = compose(
        inst,
        [
            (
                f"save the signed {vendor} {service} PDF and email it, as an attachment in a new message, to the head"
                f" of {dept}",
                f"send the head of {dept} the signed {vendor} {service} agreement, the countersigned PDF attached to"
                " a new email",
                f"get the signed {service} PDF from {vendor}'s mail and send it to whoever heads {dept}",
                f"mail the countersigned {service} agreement from {vendor} to {dept}'s department head",
            ),
            ("copy my manager", "put my manager on copy", "cc my manager"),
        ],
        (
            f"{vendor} sent back the countersigned {service} agreement",
            f"the {service} agreement with {vendor} is signed now",
            f"{dept} owns the {vendor} contract",
            "",
        ),
        tail=("the signed PDF, not the draft", "one new message", ""),
    )  # fmt: skip
    path = f"contracts/{code}_signed.pdf"
    mailed = {"app": "gmail", "collection": "messages", "id": got["id"], "attachment": got["attachments"][0]["id"]}
    file_check = {"any": {"blob": {"same_bytes_as": mailed}}}  # the mailed PDF itself, not a file made to look like it
    alt_forward = {"message_id": got["id"], "to": [head["email"]], "cc": [boss["email"]], "note": "Signed copy."}
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "signed_agreement_to_head",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"to": {"includes": [head["email"]]}, "attachments": file_check},
            },
            {
                "name": "manager_copied",
                "kind": "any_of",
                "checks": [
                    {
                        "name": f"manager_{field}",
                        "kind": "record",
                        "app": "gmail",
                        "collection": "messages",
                        "new": True,
                        "count": 1,
                        "where": {field: {"includes": [boss["email"]]}, "attachments": file_check},
                    }
                    for field in ("cc", "to")
                ],
            },
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "to": {"includes": [head["email"]]}},
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:legal@{domain} {code} countersigned has:attachment"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}, "save": {"aid": "attachments.0.id"}},
            {
                "tool": "gmail.get_attachment",
                "args": {"message_id": "{mid}", "attachment_id": "{aid}", "save_as": path},
            },
            {
                "tool": "directory.search_people",
                "args": {"department": dept, "title": head["title"]},
                "save": {"head": "results.0.email"},
            },
            {"tool": "directory.get_manager", "args": {"person": user}, "save": {"boss": "manager.email"}},
            {
                "tool": "gmail.send_message",
                "args": {
                    "to": ["{head}"],
                    "cc": ["{boss}"],
                    "subject": f"Signed {vendor} agreement {code}",
                    "body": f"Hi,\n\nAttached is the countersigned {service} agreement {code} with {vendor}.",
                    "attachments": [path],
                },
            },
        ],
        "alternative_solutions": [[{"tool": "gmail.forward_message", "args": alt_forward}]],
        "negative_controls": [
            {
                "name": "draft-forwarded",
                "why": "sends the unsigned draft",
                "steps": [
                    {
                        "tool": "gmail.forward_message",
                        "args": {**alt_forward, "message_id": drafted["id"]},
                    }
                ],
            },
            {
                "name": "other-vendor",
                "why": "sends another vendor's signed agreement",
                "steps": [{"tool": "gmail.forward_message", "args": {**alt_forward, "message_id": other["id"]}}],
            },
            *(
                {"name": name, "why": why,
                 "steps": [{"tool": "gmail.forward_message", "args": {**alt_forward, "message_id": mid}}]}
                for name, why, mid in extra
            ),  # fmt: skip
            {
                "name": "a-manager-not-the-head",
                "why": "sends it to someone in the department below its head",
                "steps": [
                    {
                        "tool": "gmail.forward_message",
                        "args": {**alt_forward, "to": [inst.person(department=dept, exclude=[head["email"]])["email"]]},
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="gmail-contract-to-department-head",
    apps=("gmail", "directory"),
    summary="save a countersigned agreement PDF and mail it to the head of the owning department, manager on copy",
    build=_build,
)
