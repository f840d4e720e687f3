"""Forward a vendor's latest invoice (a real PDF) to the colleague in Finance who pays it.

Varies: the vendor, the invoice number and amount, the colleague, dates, the phrasing (composed).
Distractors in every shape: the same vendor's older invoice (control: ``older-invoice``), another vendor's
invoice, and anyone but the colleague who pays it (``wrong-person``).

Scenario shapes (picked by the seed):

- ``two_invoices``: only the distractors above.
- ``reminder``: a later payment reminder for the same invoice, without the PDF (control:
  ``forwards-reminder``).
- ``quote_pdf``: the vendor's sales team sent a newer mail with a quote PDF (control: ``forwards-quote``,
  the newest PDF from the vendor, not an invoice).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

SHAPES = ("two_invoices", "reminder", "quote_pdf")
VENDORS = (
    ("Fabrikam Logistics", "fabrikam.example"),
    ("Contoso Supplies", "contoso.example"),
    ("Tailspin Print", "tailspin.example"),
    ("Litware Cloud", "litware.example"),
    ("Adatum Facilities", "adatum.example"),
    ("Proseware Legal", "proseware.example"),
)


def _invoice(inst: Instance, vendor: tuple[str, str], number: str, amount: int, days_ago: int) -> dict[str, Any]:
    """A vendor's invoice mail in the user's inbox, the invoice a real PDF attached (the kit's builders)."""
    name, domain = vendor
    pdf = {
        "kind": "pdf",
        "title": f"{name} invoice {number}",
        "lines": [f"Invoice {number}", f"Bill to: {inst.company.name}", f"Amount due: ${amount:,}.00"],
    }
    return message(
        inst,
        sender=f"billing@{domain}",
        subject=f"Invoice {number} from {name}",
        body=f"Hello,\n\nPlease find attached invoice {number} for ${amount:,}.00.\n\n{name} billing",
        when=inst.day(-days_ago, 8 + inst.rng.randrange(8), inst.pick((0, 15, 30, 45))),
        attachments=[attachment(inst, f"{number}.pdf", pdf)],
    )


def _build(inst: Instance) -> dict[str, Any]:
    vendor, other = inst.rng.sample(VENDORS, 2)
    payer = inst.person(department="Finance")
    latest_no, older_no, other_no = (inst.code("INV", 5) for _ in range(3))
    latest = _invoice(inst, vendor, latest_no, inst.amount(800, 40_000, 10), inst.rng.randint(1, 3))
    older = _invoice(inst, vendor, older_no, inst.amount(800, 40_000, 10), inst.rng.randint(20, 40))
    _invoice(inst, other, other_no, inst.amount(800, 40_000, 10), inst.rng.randint(1, 3))
    first = inst.first(payer)
    shape = SHAPES[inst.seed % len(SHAPES)]
    decoy: dict[str, Any] | None = None
    if shape == "reminder":
        decoy = message(inst, sender=f"billing@{vendor[1]}", subject=f"Reminder: invoice {latest_no}",
                        body=f"Hello,\n\nA friendly reminder that invoice {latest_no} is due in 14 days.\n\n"
                        f"{vendor[0]} billing", when=inst.day(0, 7, 30))  # fmt: skip
    elif shape == "quote_pdf":
        quote_no = inst.code("QT", 5)
        spec = {"kind": "pdf", "title": f"{vendor[0]} quote {quote_no}",
                "lines": [f"Quote {quote_no}", f"Prepared for: {inst.company.name}", "Valid for 30 days"]}
        decoy = message(inst, sender=f"sales@{vendor[1]}", subject=f"Quote {quote_no} from {vendor[0]}",
                        body=f"Hello,\n\nAs discussed, our quote {quote_no} is attached.\n\n{vendor[0]} sales",
                        when=inst.day(0, 7, 45), attachments=[attachment(inst, f"{quote_no}.pdf", spec)])  # fmt: skip
    who = payer["name"] if inst.rng.random() < 0.5 else first
    name, dept = vendor[0], payer["department"]
    instruction = compose(
        inst,
        [
            (
                f"forward the latest {name} invoice, PDF included, to {who} in {dept}",
                f"pass the newest {name} invoice on to {who} ({dept})",
                f"forward {who} the most recent invoice we got from {name}",
                f"send {who} in {dept} the newest invoice from {name} by forwarding the mail it came in",
            ),
        ],
        (
            f"{name} just sent their latest invoice",
            f"{who} pays the {name} bills",
            f"{dept} needs the {name} invoice to get it paid",
            "",
        ),
        by=who,
        tail=("forward the email itself so the PDF goes with it", "the one with the PDF attached",
              "only the newest one", ""),
    )  # fmt: skip
    query = f"from:billing@{vendor[1]} has:attachment"
    extra = []
    if decoy is not None:
        forward = {"message_id": decoy["id"], "to": [payer["email"]], "note": "For payment."}
        extra.append({
            "name": "forwards-reminder" if shape == "reminder" else "forwards-quote",
            "why": "forwards the newer reminder, which has no PDF" if shape == "reminder"
            else "forwards the vendor's newest PDF, a quote, not the invoice",
            "steps": [{"tool": "gmail.forward_message", "args": forward}],
        })  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "latest_invoice_forwarded",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "forwarded_from": latest["id"],
                    "to": {"includes": [payer["email"]]},
                    "attachments": {"any": {"blob": {"text": {"contains": latest_no}}}},
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": inst.company.user, "forwarded_from": latest["id"]},
                "values": {"to": [payer["email"]]},
            }
        ],
        "solution": [
            {"tool": "gmail.search_messages", "args": {"query": query}, "save": {"mid": "results.0.id"}},
            {
                "tool": "gmail.forward_message",
                "args": {"message_id": "{mid}", "to": [payer["email"]], "note": f"Hi {first}, for payment."},
            },
        ],
        "negative_controls": [
            {
                "name": "older-invoice",
                "why": "forwards the vendor's older invoice",
                "steps": [
                    {
                        "tool": "gmail.forward_message",
                        "args": {"message_id": older["id"], "to": [payer["email"]], "note": "For payment."},
                    }
                ],
            },
            *extra,
            {
                "name": "wrong-person",
                "why": "forwards it to someone else",
                "steps": [
                    {
                        "tool": "gmail.forward_message",
                        "args": {
                            "message_id": latest["id"],
                            "to": [inst.person(exclude=[payer["email"]])["email"]],
                            "note": "For payment.",
                        },
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="gmail-forward-invoice",
    apps=("gmail", "directory"),
    summary="forward a vendor's latest invoice email, PDF attached, to the colleague who pays it",
    build=_build,
)
