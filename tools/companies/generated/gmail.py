"""The mailbox of a generated company's user: threads with colleagues, mail from outside, real attachments.

``build(company, rng)`` returns the gmail state as JSON values: 50-300 messages (more in bigger
companies) in threads of one to four messages over the last ten weeks, each sent in its sender's
working hours; the user's own replies carry SENT, recent unanswered mail is UNREAD. About one
thread in six carries a department document. Ids start with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import OUTSIDE, Doc, Life

__all__ = ["build"]

_ASKS = (
    (
        "{topic}: can you take a look?",
        "Hi {to},\n\nCould you look over where we are on the {topic} before {day}? "
        "I'd like to close the open points this week.\n\nThanks,\n{me}",
    ),
    (
        "Quick question about the {topic}",
        "Hi {to},\n\nDo you know who owns the next step on the {topic}? "
        "{dept} asked me and I want to point them to the right person.\n\n{me}",
    ),
    (
        "Update: {topic}",
        "Hi all,\n\nShort update on the {topic}: the first part is done and the rest is on track "
        "for {day}. Shout if anything looks off.\n\nBest,\n{me}",
    ),
    (
        "Notes from our {topic} sync",
        "Hi {to},\n\nNotes from today: we agreed on the scope, {dept} will send "
        "numbers by {day}, and we meet again next week.\n\n{me}",
    ),
    (
        "{topic} - input needed by {day}",
        "Hi {to},\n\nI need your input on the {topic} by {day}. A few lines are enough.\n\nThanks!\n{me}",
    ),
    (
        "FYI: {topic}",
        "{to},\n\nFor your information: the {topic} has moved to the {dept} team's plan for this "
        "quarter. Nothing needed from you yet.\n\n{me}",
    ),
)
_REPLIES = (
    "Thanks {to}, I'll have a look today.",
    "Got it. I'll come back to you by {day}.",
    "Looks good to me. One small comment: let's keep {dept} in the loop.",
    "Done - see the latest version. Let me know if anything is missing.",
    "Can we talk about this in our next 1:1?",
    "Sounds good, thank you!",
)
_OUTSIDE = (
    (
        "Your {what} newsletter for {month}",
        "Hello,\n\nHere is this month's round-up from {org}: news, dates "
        "and offers for teams like yours.\n\nThe {org} team",
    ),
    (
        "Invitation: {org} spring event",
        "Hello {to},\n\n{org} would be glad to see you at our next event. "
        "Reply to this mail to save a seat.\n\nKind regards,\n{org}",
    ),
    (
        "Your account summary from {org}",
        "Hello,\n\nYour account summary for {month} is ready. No action is needed.\n\n{org} customer service",
    ),
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """The user's mailbox: ``{"messages": {id: message}, "labels": {id: label}}`` as JSON values.

    Args:
        company: A generated company (people, clock, user).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = life.user
    threads: list[list[dict[str, Any]]] = []
    for key in range(25 + life.size):
        if rng.random() < 0.15:
            threads.append(_outside(life, key))
        else:
            threads.append(_colleague_thread(life, key, rng.random() < 0.4))
    messages: list[dict[str, Any]] = [m for t in threads for m in t]
    messages.sort(key=lambda m: (m["date"], m["sender"]))
    out: dict[str, dict[str, Any]] = {}
    thread_ids: dict[int, str] = {}
    last: dict[int, str] = {}
    n_att = 0
    for n, m in enumerate(messages, start=1):
        mid = f"bg_msg_{n:04d}"
        key = m.pop("thread")
        thread_ids.setdefault(key, f"bg_thr_{len(thread_ids) + 1:04d}")
        attachments = []
        for doc in m.pop("docs"):
            n_att += 1
            attachments.append(
                {
                    "id": f"bg_att_{n_att:04d}",
                    "filename": doc.name,
                    "mime_type": doc.mime_type,
                    "size": doc.size,
                    "blob": doc.blob,
                }
            )
        out[mid] = {
            **m,
            "id": mid,
            "thread_id": thread_ids[key],
            "in_reply_to": last.get(key, ""),
            "date": m["date"].isoformat(),
            "attachments": attachments,
        }
        last[key] = mid
    labels = {
        "bg_label_newsletters": {"id": "bg_label_newsletters", "name": "Newsletters"},
        "bg_label_team": {"id": "bg_label_team", "name": f"{me['department']} team"},
    }
    return {"messages": out, "labels": labels}


def _colleague_thread(life: Life, key: int, team: bool) -> list[dict[str, Any]]:
    rng, me = life.rng, life.user
    other = life.colleague(str(me["department"]) if team else None)
    subject_t, body_t = rng.choice(_ASKS)
    dept = str(other["department"])
    topic = life.topic(dept)
    user_starts = rng.random() < 0.3
    a, b = (me, other) if user_starts else (other, me)
    start = life.past(a, rng.randint(1, 50))
    due = start.date() + timedelta(days=rng.randint(2, 6))
    day = f"{due:%A} {due:%B} {due.day}"
    cc = [str(life.colleague(dept, (str(other["email"]),))["email"])] if rng.random() < 0.3 else []
    values = {"topic": topic, "to": life.first(b), "me": life.first(a), "day": day, "dept": dept}
    subject = subject_t.format(**values)
    subject = subject[0].upper() + subject[1:]
    docs = [rng.choice(life.documents(dept))] if rng.random() < 0.18 else []
    thread = [_message(life, key, a, [b], cc, subject, body_t.format(**values), start, docs)]
    when = start
    for turn in range(rng.choice((0, 0, 1, 1, 2, 3))):
        sender, to = (b, a) if turn % 2 == 0 else (a, b)
        when = life.after(sender, thread[-1]["date"], rng.randint(60, 2400))
        if when >= life.now:
            break
        reply = rng.choice(_REPLIES).format(to=life.first(to), day=day, dept=dept)
        thread.append(
            _message(life, key, sender, [to], cc, f"Re: {subject}", f"{reply}\n\n{life.first(sender)}", when, [])
        )
    _unread(life, thread)
    return thread


def _message(
    life: Life,
    key: int,
    sender: dict[str, Any],
    to: list[dict[str, Any]],
    cc: list[str],
    subject: str,
    body: str,
    when: datetime,
    docs: list[Doc],
) -> dict[str, Any]:
    mine = sender["email"] == life.company.user
    labels = ["SENT"] if mine else ["INBOX"]
    if not mine and life.rng.random() < 0.08:
        labels.append("STARRED")
    if not mine and life.rng.random() < 0.1:
        labels.append("IMPORTANT")
    return {
        "thread": key,
        "sender": str(sender["email"]),
        "to": [str(p["email"]) for p in to],
        "cc": cc,
        "subject": subject,
        "body": body.strip() + "\n",
        "date": when,
        "labels": labels,
        "docs": docs,
    }


def _unread(life: Life, thread: list[dict[str, Any]]) -> None:
    """The last message of a thread is unread when it came in during the last few days and is not the user's."""
    last = thread[-1]
    if "INBOX" in last["labels"] and (life.now - last["date"]).days < 4 and life.rng.random() < 0.7:
        last["labels"].append("UNREAD")


def _outside(life: Life, key: int) -> list[dict[str, Any]]:
    rng = life.rng
    org, domain, what, local = rng.choice(OUTSIDE)
    subject_t, body_t = rng.choice(_OUTSIDE)
    when = life.past(life.user, rng.randint(1, 60))
    values = {"org": org, "what": what, "month": when.strftime("%B"), "to": life.first(life.user)}
    sender = {"email": f"{local}@{domain}", "name": org}
    message = _message(
        life, key, sender, [life.user], [], subject_t.format(**values), body_t.format(**values), when, []
    )
    if "newsletter" in subject_t:
        message["labels"].append("Newsletters")
    _unread(life, [message])
    return [message]
