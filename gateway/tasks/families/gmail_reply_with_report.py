"""Answer a colleague's request for a month's report by replying with the right workbook (a real .xlsx) attached.

Varies: the colleague, the report, the month asked for, the figures in the workbooks, the analyst who sent
them, the phrasing. Distractors: the same report for the month before (same sender, same file name but the
month; control: ``month-before``), another report for the month asked for (``other-report``), so attaching
the newest workbook or the first one found fails.

Scenario shapes (picked by the seed):

- ``separate_mails``: only the distractors above; the request is a mail of its own.
- ``revised``: the analyst later sent a corrected workbook for the month, saying the first had an error
  (control: ``unrevised`` attaches the first).
- ``in_old_thread``: the request is a reply in the thread where the user sent the colleague the month
  before's workbook, so the thread's own attachment is the wrong month (control: ``month-before``).

Phrasing composed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

REPORTS = ("Pipeline report", "Churn report", "Support volume report", "Freight cost report", "Headcount report")


SHAPES = ("separate_mails", "revised", "in_old_thread")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    asker, analyst = inst.people(2)
    report, other_report = inst.rng.sample(REPORTS, 2)
    last = inst.now.replace(day=1) - timedelta(days=1)  # a day of last month
    month = last if inst.rng.random() < 0.5 else (last.replace(day=1) - timedelta(days=1))
    before = month.replace(day=1) - timedelta(days=1)
    label, before_label = f"{month:%B %Y}", f"{before:%B %Y}"

    def workbook(name: str, when: str) -> tuple[dict[str, Any], int]:
        total = inst.amount(10_000, 990_000, 10)
        att = attachment(
            inst,
            f"{name.replace(' ', '_')}_{when.replace(' ', '_')}.xlsx",
            {
                "kind": "xlsx",
                "sheets": {
                    "Summary": [
                        ["Metric", "Value"],
                        ["Month", when],
                        ["Total", total],
                        ["Change vs prior month", f"{inst.rng.randint(-12, 15)}%"],
                    ]
                },
            },
        )
        return att, total

    wanted, total = workbook(report, label)
    prior, _ = workbook(report, before_label)
    other_att, _ = workbook(other_report, label)
    message(
        inst,
        sender=analyst["email"],
        subject=f"{report} - {label}",
        body=f"Hi,\n\nThe {report.lower()} for {label} is attached.\n\n{inst.first(analyst)}",
        when=min(month.replace(day=1) + timedelta(days=34), inst.day(-1, 8, 30)),
        attachments=[wanted],
    )
    old = message(
        inst,
        sender=analyst["email"],
        subject=f"{report} - {before_label}",
        body=f"Hi,\n\nThe {report.lower()} for {before_label} is attached.\n\n{inst.first(analyst)}",
        when=before.replace(day=1) + timedelta(days=34),
        attachments=[prior],
    )
    other = message(
        inst,
        sender=analyst["email"],
        subject=f"{other_report} - {label}",
        body=f"Hi,\n\nHere is the {other_report.lower()} for {label}.\n\n{inst.first(analyst)}",
        when=min(month.replace(day=1) + timedelta(days=35), inst.day(-1, 8, 45)),
        attachments=[other_att],
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra = []
    if shape == "in_old_thread":
        sent_att, _ = workbook(report, before_label)
        sent = message(inst, sender=user, to=[asker["email"]], subject=f"{report} for {before:%B}",
                       body=f"Hi {inst.first(asker)},\n\nHere you go.", when=before.replace(day=1) + timedelta(days=36),
                       attachments=[sent_att], labels=("SENT",))  # fmt: skip
        request = message(inst, sender=asker["email"], subject=f"Re: {report} for {before:%B}",
                          body=f"Thanks! Could you send me the {report.lower()} for {label} too? I need the workbook"
                          f" itself for my deck.\n\n{inst.first(asker)}", when=inst.day(-1, 10, 0),
                          thread=sent["id"], in_reply_to=sent["id"])  # fmt: skip
    else:
        request = message(
            inst,
            sender=asker["email"],
            subject=f"{report} for {month:%B}?",
            body=f"Hi {inst.first(inst.user)},\n\nCould you send me the {report.lower()} for {label}? I need the"
            f" workbook itself for my deck.\n\nThanks,\n{inst.first(asker)}",
            when=inst.day(-1, 10, 0),
        )
    if shape == "revised":
        first_att = wanted
        wanted, total = workbook(report, label)
        first_msg = next(m for m in inst.overrides["gmail"]["messages"].values()
                         if first_att in m["attachments"])  # fmt: skip
        message(inst, sender=analyst["email"], subject=f"{report} - {label} (revised)",
                body=f"Hi,\n\nThe {report.lower()} for {label} I sent had an error in the total; the corrected"
                f" workbook is attached. Please use this one.\n\n{inst.first(analyst)}", when=inst.day(0, 7, 50),
                attachments=[wanted])  # fmt: skip
        extra.append(("unrevised", "attaches the first workbook, which the analyst corrected", first_msg, first_att))
    who, analyst_first, mon, kind = inst.first(asker), inst.first(analyst), f"{month:%B}", report.lower()
    instruction = compose(
        inst,
        [
            (
                f"reply to {who}'s email with the {mon} {kind} workbook attached",
                f"answer {who}'s mail asking for the {kind} - reply with the {mon} spreadsheet attached",
                f"reply to {who} with the {kind} workbook they asked for ({mon})",
                f"send {who} the {mon} {kind} as a reply to their request, workbook attached",
            ),
        ],
        (
            f"{asker['name']} asked me for the {mon} {kind}",
            f"{analyst_first} sent me the {kind} a while back",
            f"{who} needs the {kind} for a deck",
            "",
        ),
        by=asker["name"],
        tail=("the workbook itself, not a summary", f"the {mon} one", ""),
    )  # fmt: skip
    path = f"reports/{wanted['filename']}"

    def save(msg: dict[str, Any], att: dict[str, Any]) -> dict[str, Any]:
        return {
            "tool": "gmail.get_attachment",
            "args": {"message_id": msg["id"], "attachment_id": att["id"], "save_as": f"reports/{att['filename']}"},
        }

    def reply(att: dict[str, Any]) -> dict[str, Any]:
        return {
            "tool": "gmail.reply_to_message",
            "args": {"message_id": request["id"], "body": "Attached.", "attachments": [f"reports/{att['filename']}"]},
        }

    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "right_workbook_in_reply",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "thread_id": request["thread_id"],
                    "to": {"includes": [asker["email"]]},
                    "attachments": {
                        "any": {
                            "filename": {"regex": r"\.xlsx$"},
                            "blob": {"same_bytes_as": wanted["blob"]},  # the analyst's workbook itself
                        }
                    },
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "thread_id": request["thread_id"], "to": {"includes": [asker["email"]]}},
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{asker['email']} {report}"},
                "save": {"rid": "results.0.id"},
            },
            {
                "tool": "gmail.search_messages",
                "args": {"query": f'from:{analyst["email"]} subject:"{report} - {label}" has:attachment'},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}, "save": {"aid": "attachments.0.id"}},
            {
                "tool": "gmail.get_attachment",
                "args": {"message_id": "{mid}", "attachment_id": "{aid}", "save_as": path},
            },
            {
                "tool": "gmail.reply_to_message",
                "args": {
                    "message_id": "{rid}",
                    "body": f"Hi {inst.first(asker)},\n\nHere is the {report.lower()} for {label}.",
                    "attachments": [path],
                },
            },
        ],
        "negative_controls": [
            {
                "name": "month-before",
                "why": "attaches the same report for the month before",
                "steps": [save(old, prior), reply(prior)],
            },
            {
                "name": "other-report",
                "why": "attaches another report for that month",
                "steps": [save(other, other_att), reply(other_att)],
            },
            *({"name": name, "why": why, "steps": [save(msg, att), reply(att)]} for name, why, msg, att in extra),
            {
                "name": "no-attachment",
                "why": "replies without the workbook",
                "steps": [
                    {
                        "tool": "gmail.reply_to_message",
                        "args": {"message_id": request["id"], "body": f"The total for {label} is {total:,}."},
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="gmail-reply-with-report",
    apps=("gmail",),
    summary="reply to a colleague's request with the month's report workbook attached",
    build=_build,
)
