"""Answer a colleague's request for a month's report by replying with the right workbook (a real .xlsx) attached.

Varies: the colleague, the report, the month asked for, the figures in the workbooks, the analyst who sent
them, the phrasing. Distractors: the same report for the month before (same sender, same file name but the
month), another report for the month asked for, so attaching the newest workbook or the first one found fails.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

REPORTS = ("Pipeline report", "Churn report", "Support volume report", "Freight cost report", "Headcount report")


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
    request = message(
        inst,
        sender=asker["email"],
        subject=f"{report} for {month:%B}?",
        body=f"Hi {inst.first(inst.user)},\n\nCould you send me the {report.lower()} for {label}? I need the"
        f" workbook itself for my deck.\n\nThanks,\n{inst.first(asker)}",
        when=inst.day(-1, 10, 0),
    )

    instruction = inst.phrase(
        "{asker} asked me for the {month} {report}. Reply to their email with the workbook attached.",
        "Can you answer {asker_first}'s mail asking for the {report} - reply with the {month} spreadsheet attached?",
        "Please reply to {asker_first} with the {report} workbook they asked for ({month}); {analyst_first}"
        " sent it to me a while back.",
    ).format(
        asker=asker["name"],
        asker_first=inst.first(asker),
        analyst_first=inst.first(analyst),
        month=f"{month:%B}",
        report=report.lower(),
    )
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
