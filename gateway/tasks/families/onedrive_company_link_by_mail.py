"""Make a company-only, view-only OneDrive link to a report that stops working on a given day, and mail it.

Varies: the report and its code, the colleague, the expiry day (1 to 6 weeks out), the phrasing.
Distractors: the report's draft of the same name in a Drafts folder, and the previous quarter's report
in the same folder.

Scenario shapes (picked by the seed):

- ``draft_and_last_quarter``: the near-misses above (control: links the draft of the same name).
- ``old_open_link``: the final report already has an old link anyone can open, with no expiry (control: mails
  that link instead of making the one asked for).
- ``asked_with_cc``: the colleague's request for the report is in the inbox, copied to their manager (control:
  mails the link to both).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import long_date, onedrive_file, onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

SHAPES = ("draft_and_last_quarter", "old_open_link", "asked_with_cc")
REPORTS = ("Board pack", "Pipeline review", "Cost review", "Headcount report", "Churn analysis", "Pricing study")


def _spec(title: str, code: str, note: str) -> dict[str, Any]:
    return {"kind": "pdf", "title": f"{code} {title}", "lines": [f"{code} {title}", note]}


def _build(inst: Instance) -> dict[str, Any]:
    title = inst.pick(REPORTS)
    quarter = inst.rng.randint(2, 4)
    code = inst.code("RPT")
    colleague = inst.person()
    until = inst.day(inst.rng.randint(7, 42)).date()
    reports = onedrive_folder(inst, f"Reports {code}")
    drafts = onedrive_folder(inst, "Drafts")
    name = f"{code} {title} Q{quarter}.pdf"
    final = onedrive_file(
        inst, name, reports["id"], _spec(title, code, "Final."), inst.workday(-inst.rng.randint(1, 5), 10)
    )
    draft = onedrive_file(inst, name, drafts["id"], _spec(title, code, "Draft."), inst.workday(-12, 10))
    earlier = onedrive_file(
        inst,
        f"{code} {title} Q{quarter - 1}.pdf",
        reports["id"],
        _spec(title, code, f"Q{quarter - 1} final."),
        inst.workday(-80, 10),
    )
    who = colleague["name"] if inst.rng.random() < 0.5 else inst.first(colleague)
    day = long_date(until) if inst.rng.random() < 0.6 else until.isoformat()
    expires = until.isoformat()
    email = colleague["email"]
    domain = inst.company.user.rsplit("@", 1)[-1].lower()
    bogus = f"https://onedrive.{domain}/s/lnk_{inst.rng.getrandbits(40):010x}"  # the form of a link, not one made
    doc = f"Q{quarter} {title.lower()} ({code})"
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong_mail: dict[str, Any] | None = None
    if shape == "old_open_link":
        lid = inst.uid("lnk")
        old_url = f"https://onedrive.{domain}/s/{lid}"
        inst.add("onedrive", "links", lid, {"item_id": final["id"], "type": "view", "scope": "anyone",
                 "recipients": [], "expires": None, "created": inst.workday(-1, 15).isoformat(),
                 "created_by": inst.company.user, "url": old_url})  # fmt: skip
        wrong_mail = {"to": [email], "subject": title, "body": f"Here it is: {old_url}"}
    elif shape == "asked_with_cc":
        boss = inst.manager_of(colleague)
        if boss is None or boss["email"] == inst.company.user:
            boss = inst.person(exclude=[email])
        message(inst, sender=email, subject=f"Q{quarter} {title.lower()}", cc=[boss["email"]],
                body=f"Hi,\n\nCould you send me the final Q{quarter} {title.lower()} when you can?\n\n"
                f"{inst.first(colleague)}", when=inst.workday(-1, 11))  # fmt: skip
        wrong_mail = {"to": [email], "cc": [boss["email"]], "subject": title, "body": "{url}"}
    instruction = compose(
        inst,
        [
            (
                f"send {who} a link to the final {doc} in my OneDrive",
                f"email {who} a view-only link to the {doc} from OneDrive",
                f"make a company-only view link to our {doc} and mail it to {who}",
            ),
        ],  # fmt: skip
        (
            f"{who} needs to read our {doc}",
            f"{who} asked for the final {doc}",
            "",
        ),
        by=who,
        tail=(
            f"only people in the company should be able to open it, view only, and the link should stop working"
            f" after {day}",
            f"keep it inside the company, view only, and let it run until {day}",
            f"view only, company people only, working until {day}",
        ),
    )
    link = {
        "item_id": final["id"],
        "type": "view",
        "scope": "organization",
        "expires": expires,
    }
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "company_view_link",
                "kind": "record",
                "app": "onedrive",
                "collection": "links",
                "new": True,
                "count": 1,
                "where": link,
            },
            {
                "name": "link_mailed",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {  # the mail gives the link made, and does not take it back
                    "to": {"includes": [email]},
                    "body": {
                        "claims": {
                            "kind": "states",
                            "value_of": {"app": "onedrive", "collection": "links", "field": "url", "where": link},
                        }
                    },
                },
            },
        ],
        "allowed_changes": [
            {"app": "onedrive", "collection": "links", "kinds": ["add"], "where": link},
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": inst.company.user, "to": {"set_eq": [email]},
                          "cc": {"within": [inst.company.user]}},  # a copy to oneself is harmless
            },
        ],
        "solution": [
            {
                "tool": "onedrive.search_items",
                "args": {"query": f"{code} Q{quarter}", "folder": f"/Reports {code}"},
                "save": {"item": "results.0.id"},
            },
            {
                "tool": "onedrive.create_sharing_link",
                "args": {"item": "{item}", "type": "view", "scope": "organization", "expires": expires},
                "save": {"url": "url"},
            },
            {
                "tool": "gmail.send_message",
                "args": {
                    "to": [email],
                    "subject": f"{title} Q{quarter}",
                    "body": f"Hi {inst.first(colleague)}, here is the Q{quarter} {title.lower()}: {{url}}",
                },
            },
            {"tool": "complete_task", "args": {"summary": f"Mailed {colleague['name']} a company-only view link."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [  # a copy of the mail to oneself
                {
                    "tool": "onedrive.create_sharing_link",
                    "args": {"item": final["id"], "type": "view", "scope": "organization", "expires": expires},
                    "save": {"url": "url"},
                },
                {"tool": "gmail.send_message",
                 "args": {"to": [email], "cc": [inst.company.user], "subject": title, "body": "Here it is: {url}"}},
                {"tool": "complete_task", "args": {"summary": "Sent."}},
            ],
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "anyone-link",
                "why": "a link anyone can open",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": final["id"], "type": "view", "scope": "anyone", "expires": expires},
                        "save": {"url": "url"},
                    },
                    {"tool": "gmail.send_message", "args": {"to": [email], "subject": title, "body": "{url}"}},
                ],  # fmt: skip
            },
            {
                "name": "draft-linked",
                "why": "links the draft of the same name",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": draft["id"], "type": "view", "scope": "organization", "expires": expires},
                        "save": {"url": "url"},
                    },
                    {"tool": "gmail.send_message", "args": {"to": [email], "subject": title, "body": "{url}"}},
                ],  # fmt: skip
            },
            {
                "name": "last-quarter",
                "why": "links the previous quarter's report",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": earlier["id"], "type": "view", "scope": "organization", "expires": expires},
                        "save": {"url": "url"},
                    },
                    {"tool": "gmail.send_message", "args": {"to": [email], "subject": title, "body": "{url}"}},
                ],  # fmt: skip
            },
            *(
                [
                    {
                        "name": shape.replace("_", "-"),
                        "why": "mails the report's old link that anyone can open and that never expires"
                        if shape == "old_open_link"
                        else "mails the link to the colleague and, as their request did, their manager",
                        "steps": [
                            {
                                "tool": "onedrive.create_sharing_link",
                                "args": {"item": final["id"], "type": "view", "scope": "organization",
                                         "expires": expires},
                                "save": {"url": "url"},
                            },
                            {"tool": "gmail.send_message", "args": wrong_mail},
                        ],
                    }
                ]
                if wrong_mail
                else []
            ),  # fmt: skip
            {
                "name": "no-expiry",
                "why": "the link never expires",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": final["id"], "type": "view", "scope": "organization"},
                        "save": {"url": "url"},
                    },
                    {"tool": "gmail.send_message", "args": {"to": [email], "subject": title, "body": "{url}"}},
                ],  # fmt: skip
            },
            {
                "name": "link-disowned",
                "why": "mails the right link, then says to ignore it",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": final["id"], "type": "view", "scope": "organization", "expires": expires},
                        "save": {"url": "url"},
                    },
                    {
                        "tool": "gmail.send_message",
                        "args": {"to": [email], "subject": title, "body": "{url}\n\nSorry, please ignore that link."},
                    },
                ],  # fmt: skip
            },
            {
                "name": "made-up-link",
                "why": "makes the right link but mails a link id it made up",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": final["id"], "type": "view", "scope": "organization", "expires": expires},
                    },
                    {
                        "tool": "gmail.send_message",
                        "args": {
                            "to": [email],
                            "subject": title,
                            "body": f"Here is the link: {bogus}",
                        },
                    },
                ],  # fmt: skip
            },
            {
                "name": "link-not-sent",
                "why": "makes the right link but never mails it",
                "steps": [
                    {
                        "tool": "onedrive.create_sharing_link",
                        "args": {"item": final["id"], "type": "view", "scope": "organization", "expires": expires},
                    },
                ],  # fmt: skip
            },
        ],
    }


FAMILY = Family(
    name="onedrive-company-link-by-mail",
    apps=("onedrive", "gmail", "directory"),
    summary="make a company-only view link to a OneDrive report that expires on a day, and mail it to a colleague",
    build=_build,
)
