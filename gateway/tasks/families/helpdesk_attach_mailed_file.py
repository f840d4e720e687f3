"""Attach the signed form a requester emailed to their helpdesk ticket, and tell them on the ticket.

Varies: the requester, the form (kind and reference code), the queue, dates, the phrasing. Distractors: the
same requester's earlier email with the unsigned draft of the form, another colleague's email with the same
kind of form for their own ticket, and the requester's other open ticket. The file moves through the
workspace (mail attachment -> workspace -> ticket) and is judged by provenance: the ticket must hold the
mailed bytes, not text typed under the form's name.

Scenario shapes (picked by the seed):

- ``separate_draft``: the unsigned draft came in an earlier mail of its own (control: attaches the draft).
- ``draft_in_thread``: the signed form is the requester's reply in the thread that carried the draft, so the
  thread holds two PDFs of the same form (control: attaches the thread's first PDF, the draft).
- ``last_years_form``: besides the draft, the requester mailed a signed form of the same kind months ago for a
  ticket long closed (control: attaches last year's signed form).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, comment, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("separate_draft", "draft_in_thread", "last_years_form")

FORMS = (
    ("equipment loan agreement", "EQ", "it", "Laptop loan for travel"),
    ("parking permit application", "PK", "facilities", "Parking permit for the garage"),
    ("bank details change form", "BD", "finance_ops", "Update my reimbursement bank account"),
    ("remote work agreement", "RW", "people_ops", "Remote work arrangement from next month"),
    ("building access request", "BA", "facilities", "After-hours building access"),
)


def _mail(inst: Instance, person: dict[str, Any], code: str, form: str, signed: bool, days: int) -> dict[str, Any]:
    state = f"Signed by {person['name']}" if signed else "DRAFT - not signed"
    fname = f"{form.title().replace(' ', '_')}_{code}{'_signed' if signed else '_draft'}.pdf"
    blob, size = inst.document(
        {
            "kind": "pdf",
            "title": f"{form.capitalize()} {code}",
            "lines": [f"{form.capitalize()} {code}", f"Employee: {person['name']}", state],
        }
    )
    mid = inst.uid("msg")
    body = (
        f"Hi,\n\nHere is the signed {form} ({code}) for my ticket.\n\n{inst.first(person)}"
        if signed
        else f"Hi,\n\nDraft of the {form} ({code}) - I still need to put my signature on it.\n\n{inst.first(person)}"
    )
    return inst.add(
        "gmail",
        "messages",
        mid,
        {
            "thread_id": mid,
            "sender": person["email"],
            "to": [inst.company.user],
            "subject": f"{'Signed' if signed else 'Draft'} {form} {code}",
            "body": body,
            "date": inst.day(-days, 9 + inst.rng.randrange(8), inst.pick((0, 15, 30, 45))).isoformat(),
            "labels": ["INBOX"],
            "attachments": [
                {
                    "id": inst.uid("att"),
                    "filename": fname,
                    "mime_type": "application/pdf",
                    "size": size,
                    "blob": blob,
                }
            ],
        },
    )


def _build(inst: Instance) -> dict[str, Any]:
    (form, tag, queue, title), (_, _, other_queue, other_title) = inst.rng.sample(FORMS, 2)
    requester, other = inst.people(2)
    me = inst.user["email"]
    queues(inst, {queue: [inst.user]})
    code, other_code = inst.code(tag, 5), inst.code(tag, 5)
    opened = inst.workday(-inst.rng.randint(3, 8), 10)
    target = ticket(
        inst,
        queue,
        title,
        f"{title}. Reference {code}. The {form} will follow once it is signed.",
        requester["email"],
        opened,
        status="waiting",
        assignee=me,
        category="Forms",
    )
    comment(inst, target["id"], me, f"Please send the signed {form} so we can go ahead.", opened.replace(hour=14))
    second = ticket(
        inst,
        other_queue,
        other_title,
        f"{other_title}. No form needed.",
        requester["email"],
        inst.workday(-inst.rng.randint(1, 3), 11),
        category="Request",
    )
    theirs = ticket(
        inst,
        queue,
        title,
        f"{title}. Reference {other_code}. The {form} will follow.",
        other["email"],
        inst.workday(-inst.rng.randint(2, 6), 15),
        status="waiting",
        assignee=me,
        category="Forms",
    )
    signed = _mail(inst, requester, code, form, True, inst.rng.randint(0, 1))
    draft = _mail(inst, requester, code, form, False, inst.rng.randint(3, 6))
    _mail(inst, other, other_code, form, True, inst.rng.randint(0, 2))
    fname = signed["attachments"][0]["filename"]
    # the very file that was mailed: typed text under its name, or another file, is not it
    att = signed["attachments"][0]["id"]
    mailed = {"app": "gmail", "collection": "messages", "id": signed["id"], "attachment": att}
    first = inst.first(requester)
    who = called(inst, requester)
    shape = SHAPES[inst.seed % len(SHAPES)]
    stale: dict[str, Any] | None = None
    if shape == "draft_in_thread":  # the signed form answers the draft's thread
        signed.update(thread_id=draft["thread_id"], subject=f"Re: {draft['subject']}")
    elif shape == "last_years_form":
        old_code = inst.code(tag, 5)
        ticket(inst, queue, title, f"{title}. Reference {old_code}.", requester["email"], inst.workday(-300, 10),
               status="closed", assignee=me, category="Forms", resolution="Form received.")  # fmt: skip
        stale = _mail(inst, requester, old_code, form, True, inst.rng.randint(280, 320))
    instruction = compose(
        inst,
        [
            (
                f"attach the signed {form} {who} emailed me to their helpdesk ticket",
                f"put the signed {form} that {who} sent me by email onto their ticket",
                f"get the {form} PDF from {who}'s mail onto the ticket they opened for it",
                f"attach the signed {code} form from my inbox to the matching ticket",
            ),
            (
                "reply there so they know it's in",
                "leave them a reply on the ticket saying it's attached",
                f"let {who} know on the ticket",
            ),
        ],  # fmt: skip
        (
            f"{who} emailed me the signed {form}",
            f"{who}'s signed {form} came in by mail",
            f"the {form} for {code} is finally signed",
            "",
        ),
        by=who,
        tail=("the signed one, not the draft", "just their ticket", ""),
    )
    fetch = [
        {
            "tool": "gmail.search_messages",
            "args": {"query": f"from:{requester['email']} has:attachment signed"},
            "save": {"mid": "results.0.id"},
        },
        {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}, "save": {"att": "attachments.0.id"}},
        {
            "tool": "gmail.get_attachment",
            "args": {"message_id": "{mid}", "attachment_id": "{att}", "save_as": f"forms/{fname}"},
        },
    ]
    find = {
        "tool": "helpdesk.search_tickets",
        "args": {"text": code, "requester": requester["email"]},
        "save": {"tid": "results.0.id"},
    }
    reply = f"Hi {first}, the signed {form} is attached to this ticket now."

    def attach(tid: str, path: str = f"forms/{fname}", words: str = reply) -> list[dict[str, Any]]:
        return [
            {"tool": "helpdesk.attach_file", "args": {"ticket_id": tid, "path": path}},
            {"tool": "helpdesk.add_comment", "args": {"ticket_id": tid, "body": words}},
        ]

    draft_name = draft["attachments"][0]["filename"]
    fetch_draft = [
        {
            "tool": "gmail.get_attachment",
            "args": {
                "message_id": draft["id"],
                "attachment_id": draft["attachments"][0]["id"],
                "save_as": f"forms/{draft_name}",
            },
        }
    ]
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "signed_form_attached",
                "kind": "record",
                "app": "helpdesk",
                "collection": "attachments",
                "new": True,
                "count": 1,
                "where": {
                    "ticket_id": target["id"],
                    "blob": {"same_bytes_as": mailed},
                },
            },
            {
                "name": "reply_on_ticket",
                "kind": "record",
                "app": "helpdesk",
                "collection": "comments",
                "new": True,
                "where": {  # says the file is in: a reply asking for it again does not do
                    "ticket_id": target["id"],
                    "author": me,
                    "internal": False,
                    "body": {"claims": {"kind": "attached"}},
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "attachments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"], "uploaded_by": me},
            },
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"], "author": me},
            },
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["updated"],
            },
        ],
        "solution": [*fetch, find, *attach("{tid}")],
        "alternative_solutions": [
            [
                {
                    "tool": "gmail.search_messages",
                    "args": {"query": f"{code} has:attachment"},
                    "save": {"mid": "results.0.id"},
                },
                *fetch[1:],
                {
                    "tool": "helpdesk.search_tickets",
                    "args": {"text": code, "status": "waiting"},
                    "save": {"tid": "results.0.id"},
                },
                *attach("{tid}"),
            ],
            [*fetch, find, *attach("{tid}", words=f"Thanks {first} - got your signed {form}, it's on the ticket now.")],
        ],
        "negative_controls": [
            {
                "name": "attaches-draft",
                "why": "attaches the unsigned draft the requester mailed first",
                "steps": [*fetch_draft, *attach(target["id"], f"forms/{draft_name}")],
            },
            {
                "name": "wrong-ticket",
                "why": "attaches the signed form to the requester's other ticket",
                "steps": [*fetch, *attach(second["id"])],
            },
            {
                "name": "other-requesters-ticket",
                "why": "attaches it to the same kind of ticket of another colleague",
                "steps": [*fetch, *attach(theirs["id"])],
            },
            {
                "name": "asks-again",
                "why": "attaches the file but asks the requester to send it again",
                "steps": [*fetch, find, *attach("{tid}", words=f"Hi {first}, can you send the signed {form} again?")],
            },
            *(
                [
                    {
                        "name": "last-years-form",
                        "why": "attaches the signed form of the same kind the requester mailed months ago",
                        "steps": [
                            {
                                "tool": "gmail.get_attachment",
                                "args": {
                                    "message_id": stale["id"],
                                    "attachment_id": stale["attachments"][0]["id"],
                                    "save_as": "forms/old.pdf",
                                },
                            },
                            *attach(target["id"], "forms/old.pdf"),
                        ],
                    }
                ]
                if stale
                else []
            ),
            {
                "name": "no-reply",
                "why": "attaches the file but never tells the requester",
                "steps": [*fetch, find, attach("{tid}")[0]],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-attach-mailed-file",
    apps=("gmail", "helpdesk"),
    summary="attach the signed form a requester emailed to their ticket and reply there",
    build=_build,
)
