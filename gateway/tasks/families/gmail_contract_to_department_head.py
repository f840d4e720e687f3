"""Mail a vendor's countersigned agreement (a real PDF) to the head of the department that owns it, manager on copy.

Varies: the vendor, the agreement and its reference, the signer, the department (hence its head, found in
the directory by title), the user's manager, the phrasing. Distractors: the same vendor's earlier draft of
the agreement (a Word file, unsigned), another vendor's countersigned agreement, the department's managers
(a title below the head's).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
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

    def signed(name: str, ref: str, what: str, by: str) -> dict[str, Any]:
        return attachment(
            inst,
            f"{ref}_{name.split()[0]}_signed.pdf",
            {
                "kind": "pdf",
                "title": f"{name} {what} agreement {ref}",
                "lines": [
                    f"Agreement {ref} between {inst.company.name} and {name}",
                    f"Service: {what}; term {term} months; annual fee ${fee:,}",
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
    got = message(
        inst,
        sender=f"legal@{domain}",
        subject=f"Agreement {code} countersigned",
        body=f"Hello,\n\nPlease find attached agreement {code}, now countersigned by {signer}.\n\n{vendor} legal",
        when=inst.day(-1, 15, 30),
        attachments=[signed(vendor, code, service, signer)],
    )
    other = message(
        inst,
        sender=f"legal@{other_domain}",
        subject=f"Agreement {other_code} countersigned",
        body=f"Hello,\n\nAgreement {other_code} is attached, countersigned.\n\n{other_vendor} legal",
        when=inst.day(-1, 16, 10),
        attachments=[signed(other_vendor, other_code, other_service, inst.pick(SIGNERS))],
    )

    instruction = inst.phrase(
        "{vendor} sent back the countersigned {service} agreement. Save the signed PDF and email it, as an"
        " attachment in a new message, to the head of {dept}; copy my manager.",
        "Please send the head of {dept} the signed {vendor} agreement - the countersigned PDF, attached to a new"
        " email - with my manager on copy.",
        "The {service} agreement with {vendor} is signed now. Get the signed PDF from their mail and send it to"
        " whoever heads {dept}, cc my manager.",
    ).format(vendor=vendor, service=service, dept=dept)
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
