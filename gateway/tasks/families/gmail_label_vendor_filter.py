"""Create a label for a vendor and a filter that files the vendor's mail under it, skipping the inbox, old mail too.

Varies: the vendor and its mail domain, the label's name, how many of its mails are already here (2 to 4,
from billing, support and account addresses), the phrasing. Distractors: a look-alike domain with the
vendor's name in it (an events company), a colleague's mail about the vendor, so a filter on the vendor's
name rather than its domain (control: ``by-vendor-name``), or filing by hand without a filter
(``by-hand-no-filter``), or leaving the mail already here (``future-mail-only``), fails.

Scenario shapes (picked by the seed):

- ``lookalike_domain``: only the distractors above.
- ``colleague_forward``: a colleague forwarded one of the vendor's mails, so the vendor's address is in
  its text (control: ``domain-anywhere`` filters on the domain as free text, not as the sender).
- ``existing_label``: the mailbox already has a label for the look-alike events company (control:
  ``existing-label`` files the vendor's mail under it).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

VENDORS = (
    ("Fabrikam", "fabrikam.example"),
    ("Contoso", "contoso.example"),
    ("Tailspin", "tailspin.example"),
    ("Litware", "litware.example"),
    ("Adatum", "adatum.example"),
    ("Proseware", "proseware.example"),
    ("Wingtip", "wingtip.example"),
)
SHAPES = ("lookalike_domain", "colleague_forward", "existing_label")
MAILBOXES = ("billing", "support", "accounts", "renewals")


def _build(inst: Instance) -> dict[str, Any]:
    vendor, domain = inst.pick(VENDORS)
    label = inst.pick((vendor, f"Vendors/{vendor}", f"{vendor} mail"))
    colleague = inst.person()
    theirs = []
    for n, box in enumerate(inst.rng.sample(MAILBOXES, inst.rng.randint(2, 4))):
        ref = inst.code("REF", 5)
        theirs.append(
            message(
                inst,
                sender=f"{box}@{domain}",
                subject=f"{vendor} {box} update {ref}",
                body=f"Hello,\n\nAn update from {vendor} {box} about {ref}.\n\n{vendor}",
                when=inst.day(-(n * 3 + 1), 9 + n, 15),
            )
        )
    message(
        inst,
        sender=f"invites@{vendor.lower()}-events.example",
        subject=f"You're invited: {vendor} Events summer gala",
        body=f"{vendor} Events (no relation to {vendor}) invites you to our summer gala.",
        when=inst.day(-2, 13, 0),
    )
    message(
        inst,
        sender=colleague["email"],
        subject=f"Notes from the {vendor} call",
        body=f"Hi,\n\nMy notes from today's call with {vendor} are below.\n\n{inst.first(colleague)}",
        when=inst.day(-1, 17, 0),
    )

    shape = SHAPES[inst.seed % len(SHAPES)]
    extra: list[dict[str, Any]] = []
    if shape == "colleague_forward":
        quoted = theirs[0]
        message(inst, sender=colleague["email"], subject=f"Fwd: {quoted['subject']}",
                body=f"FYI, see below.\n\n---------- Forwarded message ----------\nFrom: {quoted['sender']}\n"
                f"Subject: {quoted['subject']}\n\n{quoted['body']}", when=inst.day(0, 8, 20))  # fmt: skip
        extra.append({"name": "domain-anywhere", "why": "filters on the domain anywhere in the text, which also"
                      " files the colleague's forward", "steps": [
                          {"tool": "gmail.create_label", "args": {"name": label}},
                          {"tool": "gmail.create_filter", "args": {"query": domain, "add_labels": [label],
                                                                   "archive": True, "apply_to_existing": True}}]})
    elif shape == "existing_label":
        events = f"{vendor} Events"
        inst.add("gmail", "labels", inst.uid("label"), {"name": events})
        extra.append({"name": "existing-label", "why": "files the vendor's mail under the events company's label",
                      "steps": [{"tool": "gmail.create_filter", "args": {"sender": domain, "add_labels": [events],
                                                                         "archive": True, "apply_to_existing": True}}]})
    instruction = compose(
        inst,
        [
            (
                f'make a label called "{label}"',
                f'create a new "{label}" label',
                f'set up a label named "{label}"',
            ),
            (
                f"set up a filter so that everything from {vendor}'s domain ({domain}) gets that label and skips my"
                " inbox",
                f"add a filter that files mail from {domain} under it, out of my inbox",
                f"make a filter for anything from {domain} that applies the label and archives it",
            ),
            (
                f"apply it to the {vendor} mail I already have as well",
                "sort what's already there the same way",
                "run it over the mail that's already here too",
            ),
        ],
        (
            f"{vendor}'s mail keeps cluttering my inbox",
            f"from now on, mail from {domain} should be filed on its own",
            "",
        ),
        tail=("keep it to that vendor", "both the ones I have and future ones", ""),
    )  # fmt: skip
    escaped = domain.replace(".", r"\.")
    filed = {"labels": {"includes": [label], "excludes": ["INBOX"]}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "filter_created",
                "kind": "any_of",
                "checks": [
                    {
                        "name": "by_sender",
                        "kind": "record",
                        "app": "gmail",
                        "collection": "filters",
                        "new": True,
                        "count": 1,
                        "where": {"sender": {"regex": rf"^@?{escaped}$"}, "add_labels": [label], "archive": True},
                    },
                    {
                        "name": "by_query",
                        "kind": "record",
                        "app": "gmail",
                        "collection": "filters",
                        "new": True,
                        "count": 1,
                        "where": {
                            "add_labels": [label],
                            "archive": True,
                            "query": {"regex": rf"from:\s*@?{escaped}(\s|$)"},
                        },
                    },
                ],
            },
            *(
                {
                    "name": f"existing_mail_filed_{n + 1}",
                    "kind": "record",
                    "app": "gmail",
                    "collection": "messages",
                    "count": 1,
                    "where": {"id": m["id"], **filed},
                }
                for n, m in enumerate(theirs)
            ),
        ],
        "allowed_changes": [
            {"app": "gmail", "collection": "labels", "kinds": ["add"], "where": {"name": label}},
            {
                "app": "gmail",
                "collection": "filters",
                "kinds": ["add"],
                "where": {"add_labels": [label], "forward_to": "", "mark_read": False},
            },
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["update"],
                "where": {"sender": {"regex": rf"@{escaped}$"}},
                "fields": ["labels"],
                "added": {"labels": label},
                "removed": {"labels": "INBOX"},
            },
        ],
        "solution": [
            {"tool": "gmail.create_label", "args": {"name": label}},
            {
                "tool": "gmail.create_filter",
                "args": {"sender": domain, "add_labels": [label], "archive": True, "apply_to_existing": True},
            },
        ],
        "negative_controls": [
            {
                "name": "future-mail-only",
                "why": "creates the filter but leaves the mail already here in the inbox",
                "steps": [
                    {"tool": "gmail.create_label", "args": {"name": label}},
                    {"tool": "gmail.create_filter", "args": {"sender": domain, "add_labels": [label], "archive": True}},
                ],
            },
            {
                "name": "by-vendor-name",
                "why": "filters on the vendor's name, which also catches the look-alike events company",
                "steps": [
                    {"tool": "gmail.create_label", "args": {"name": label}},
                    {
                        "tool": "gmail.create_filter",
                        "args": {
                            "sender": vendor.lower(),
                            "add_labels": [label],
                            "archive": True,
                            "apply_to_existing": True,
                        },
                    },
                ],
            },
            {
                "name": "by-hand-no-filter",
                "why": "files today's mail by hand but sets up nothing for future mail",
                "steps": [
                    {"tool": "gmail.create_label", "args": {"name": label}},
                    *(
                        {
                            "tool": "gmail.modify_labels",
                            "args": {"message_id": m["id"], "add": [label], "remove": ["INBOX"]},
                        }
                        for m in theirs
                    ),
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="gmail-label-vendor-filter",
    apps=("gmail",),
    summary="create a label and a filter filing a vendor's mail by domain, skipping the inbox, old mail too",
    build=_build,
)
