"""Award a purchase order to the right supplier from mailed quotes, then carry it through five apps.

Long horizon: the reference reads three quotes (and any later word from the suppliers), decides the winner
(the cheapest quote that delivers by the deadline and still stands), and that one decision picks who is
replied to, which quote goes to the project lead's manager (a directory lookup), what the Finance Ops ticket
names, whose account manager is invited to the kickoff and what the project channel is told: 12 calls over
gmail, directory, helpdesk, calendar and slack. Every outcome is checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``late_cheapest``: the cheapest quote delivers after the deadline; the winner is the next cheapest.
- ``withdrawn``: the cheapest quote meets the deadline but its supplier withdrew it by a later mail.
- ``plain``: the cheapest quote wins; another purchase order's quote is cheaper still, and a third
  supplier is dearer.

Varies: the suppliers, their account managers, prices and delivery dates, the purchase order, the item,
the project and its lead, the kickoff's day and time, the phrasing (composed: register, clause order,
wordings).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import long_date
from gateway.tasks.kit.helpdesk import queue_id, queues
from gateway.tasks.kit.people import managed_person
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message
from gateway.tasks.kit.workplace import channel, project_names
from gateway.tasks.kit.workplace import message as chat

__all__ = ["FAMILY"]

#: Words that accept a quote in a reply to it ("We accept your quote", "we'd like to go ahead with it").
ACCEPTS = (
    r"\baccept\w*|\bgo(?:ing)? ahead\b|\bgo(?:ing)? with (?:you|your)\b|\bwon\b(?!['’]t)|\bawarded?\b|\bconfirm\w*"
    r"|\bproceed\w*|\bplace (?:the|an|our) order\b|\bpick(?:ed)? (?:you|your)\b|\bchose (?:you|your)\b"
)

SUPPLIERS = (
    ("Fabrikam Logistics", "fabrikam.example"),
    ("Contoso Supplies", "contoso.example"),
    ("Tailspin Print", "tailspin.example"),
    ("Litware Cloud", "litware.example"),
    ("Adatum Facilities", "adatum.example"),
    ("Proseware Office", "proseware.example"),
    ("Coho Freight", "coho.example"),
    ("Wingtip Furniture", "wingtip.example"),
)
CONTACTS = ("Priya Anand", "Tomasz Wojcik", "Grace Okafor", "Luis Herrera", "Hannah Berg", "Kenji Mori",
            "Sofia Russo", "Owen Gallagher", "Amara Diallo", "Nils Lindqvist")  # fmt: skip
ITEMS = ("standing desks", "laptop docks", "office chairs", "monitor arms", "label printers", "conference phones")
SHAPES = ("late_cheapest", "withdrawn", "plain")


def _contact(inst: Instance, name: str, domain: str) -> str:
    return f"{name.lower().replace(' ', '.')}@{domain}"


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    lead, boss = managed_person(inst)
    (project,) = project_names(inst, 1)
    slug = project.lower()
    item, other_item = inst.rng.sample(ITEMS, 2)
    po, other_po = inst.code("PO", 5), inst.code("PO", 5)
    qty = inst.amount(6, 40)
    (win, win_dom), (trap, trap_dom), (dear, dear_dom) = inst.rng.sample(SUPPLIERS, 3)
    contacts = dict(zip((win, trap, dear), inst.rng.sample(CONTACTS, 3), strict=True))
    deadline = inst.workday(inst.rng.randint(14, 24)).date()
    price = inst.amount(4_000, 30_000, 50)
    prices = {win: price, trap: price - inst.amount(150, 900, 50), dear: price + inst.amount(200, 1_500, 50)}
    on_time = {s: deadline - timedelta(days=inst.rng.randint(1, 6)) for s in (win, trap, dear)}
    if shape == "late_cheapest":
        on_time[trap] = deadline + timedelta(days=inst.rng.randint(3, 10))
    if shape == "plain":
        prices[trap] = price + inst.amount(2_000, 4_000, 50)  # the trap is another PO's cheaper quote (below)
    asked = inst.workday(-inst.rng.randint(5, 8), 9, 30)
    message(
        inst,
        sender=lead["email"],
        subject=f"{po}: quotes for the {item}",
        body=f"Hi,\n\nI asked three suppliers to quote {qty} {item} for Project {project} ({po}). They'll mail"
        f" you directly. We need delivery by {long_date(deadline)}.\n\n{inst.first(lead)}",
        when=asked,
    )
    quotes: dict[str, dict[str, Any]] = {}
    domains = {win: win_dom, trap: trap_dom, dear: dear_dom}
    for n, supplier in enumerate(sorted((win, trap, dear), key=lambda _: inst.rng.random())):
        if shape == "plain" and supplier == trap:
            continue
        who = contacts[supplier]
        quotes[supplier] = message(
            inst,
            sender=f"quotes@{domains[supplier]}",
            subject=f"Quote for {po}: {qty} {item}",
            body=f"Hello,\n\nOur quote for {po}: {qty} {item}, ${prices[supplier]:,} in total, delivered by"
            f" {long_date(on_time[supplier])}.\n\nYour account manager is {who}"
            f" ({_contact(inst, who, domains[supplier])}).\n\n{supplier}",
            when=asked + timedelta(days=1 + n, hours=n),
        )
    if shape == "withdrawn":
        message(
            inst,
            sender=f"quotes@{trap_dom}",
            subject=f"Re: Quote for {po}: {qty} {item}",
            body=f"Hello,\n\nApologies: we have to withdraw our quote for {po}. Our warehouse can no longer"
            f" supply the {item} at that price.\n\n{trap}",
            when=inst.workday(-1, 16, 10),
            thread=quotes[trap]["id"],
            in_reply_to=quotes[trap]["id"],
        )
    if shape == "plain":  # a cheaper quote, but for another purchase order
        quotes[trap] = message(
            inst,
            sender=f"quotes@{trap_dom}",
            subject=f"Quote for {other_po}: {other_item}",
            body=f"Hello,\n\nOur quote for {other_po}: {other_item}, ${price - 500:,} in total, delivered by"
            f" {long_date(deadline)}.\n\nYour account manager is {contacts[trap]}"
            f" ({_contact(inst, contacts[trap], trap_dom)}).\n\n{trap}",
            when=asked + timedelta(days=2, hours=3),
        )
    chan = channel(inst, f"proj-{slug}", [lead["email"], me, boss["email"], *(p["email"] for p in inst.people(3))])
    chat(inst, chan, lead["email"], f"Quotes for the {item} ({po}) should be in by now.", inst.workday(-2, 11))
    queues(inst)
    kickoff = inst.workday(inst.rng.randint(3, 8), inst.rng.randint(10, 15), inst.pick((0, 30)))
    when = f"{kickoff:%A %B} {kickoff.day} at {kickoff:%-I:%M %p}".replace(":00 ", " ")
    lead_name = inst.pick((lead["name"], inst.first(lead)))
    instruction = compose(
        inst,
        [
            (
                f"go with the cheapest quote that still stands and delivers by {long_date(deadline)}",
                f"pick the lowest-priced supplier whose quote is still valid and delivers by {long_date(deadline)}",
            ),
            ("reply to the winning supplier's quote to accept it", "accept the winner by replying to their quote mail"),
            (
                f"forward that quote to {lead_name}'s manager for sign-off",
                f"send the winning quote on to {lead_name}'s manager to approve",
            ),
            (
                "open a Finance Ops ticket to raise the purchase order, naming the supplier in its description",
                "raise the PO with a Finance Ops ticket whose description names the supplier",
            ),
            (
                f"book a 30-minute kickoff on {when} with the supplier's account manager and {lead_name}",
                f"set up a 30-minute kickoff for {when}: the winner's account manager and {lead_name}",
            ),
            (f"post the decision in #proj-{slug}", f"let #proj-{slug} know which supplier we picked"),
        ],
        (
            f"the quotes for {po} ({qty} {item}) are in my inbox",
            f"{lead_name} had three suppliers quote the {item} for {po}",
        ),
        by=lead["name"],
    )
    choice = {"kind": "choice", "value": win, "candidates": [[s, s.split()[0]] for s, _ in SUPPLIERS]}
    named = {**choice, "required": False}
    fin = queue_id(inst, "finance_ops")
    end = kickoff + timedelta(minutes=30)

    def plan(supplier: str, *, post: str | None = None, kick: str | None = None, upto: int = 5) -> list[Any]:
        quote = quotes[supplier]
        steps: list[dict[str, Any]] = [
            {"tool": "gmail.reply_to_message", "args": {"message_id": quote["id"], "body": f"We accept your"
             f" quote for {po}. {contacts[supplier]} will hear from us about the kickoff."}},
            {"tool": "gmail.forward_message", "args": {"message_id": quote["id"], "to": [boss["email"]],
             "note": f"{supplier} wins {po}; please sign off."}},
            {"tool": "helpdesk.create_ticket", "args": {"queue": "finance_ops", "title": f"Purchase order {po}",
             "description": f"Please raise {po} with {supplier}: {qty} {item}, ${prices[supplier]:,}."}},
            {"tool": "calendar.create_event", "args": {"title": f"{po} kickoff", "start": kickoff.isoformat(),
             "end": end.isoformat(), "attendees": [kick or _contact(inst, contacts[supplier], domains[supplier]),
                                                   lead["email"]]}},
            {"tool": "slack.post_message", "args": {"channel": f"#proj-{slug}",
             "text": post or f"Decision for {po}: we're going with {supplier}."}},
        ]  # fmt: skip
        return steps[:upto]

    win_contact = _contact(inst, contacts[win], win_dom)
    reads = [
        {"tool": "gmail.search_messages", "args": {"query": po}},
        *({"tool": "gmail.get_message", "args": {"message_id": q["id"]}} for q in quotes.values()),
        {"tool": "gmail.search_messages", "args": {"query": f"withdraw {po}"}},
        {"tool": "directory.get_manager", "args": {"person": lead["email"]}},
    ]
    done = {"tool": "complete_task", "args": {"summary": f"Awarded {po} to {win} and set everything up."}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "winner_accepted",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"thread_id": quotes[win]["thread_id"], "to": {"includes": [f"quotes@{win_dom}"]},
                          "body": {"claims": [{"kind": "states", "detail": [ACCEPTS]}, named]}},
            },
            {
                "name": "quote_to_manager",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"forwarded_from": quotes[win]["id"], "to": {"includes": [boss["email"]]},
                          "body": {"claims": named}},  # a note may be left out, but may not name another
            },
            {
                "name": "po_ticket_names_winner",
                "kind": "record",
                "app": "helpdesk",
                "collection": "tickets",
                "new": True,
                "count": 1,
                "where": {"queue_id": fin, "description": {"claims": choice}},
            },
            {
                "name": "kickoff_booked",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {
                    "organizer": me,
                    "start": {"instant": kickoff.isoformat()},
                    "end": {"instant": end.isoformat()},
                    "attendees": {"any": {"email": win_contact}},
                },
            },
            {
                "name": "lead_at_kickoff",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "where": {"organizer": me, "attendees": {"any": {"email": lead["email"]}}},
            },
            {
                "name": "channel_told",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": chan["id"], "user": me, "text": {"claims": choice}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": me, "thread_id": quotes[win]["thread_id"]},
            },
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": me, "forwarded_from": quotes[win]["id"]},
                "values": {"to": [boss["email"]]},
            },
            {"app": "helpdesk", "collection": "tickets", "kinds": ["add"], "where": {"queue_id": fin}},
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["add"],
                "where": {"organizer": me},
                "values": {"attendees": {"len": 3}},
            },
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "user": me},
            },
        ],  # fmt: skip
        "solution": [*reads, *plan(win), done],
        "negative_controls": [
            {
                "name": "cheapest-regardless",
                "why": f"awards {trap}: late, withdrawn or another PO's quote",
                "steps": [*plan(trap), done],
            },
            {
                "name": "stops-halfway",
                "why": "accepts, forwards and raises the ticket, then stops",
                "steps": [*plan(win, upto=3), done],
            },
            {
                "name": "no-channel-post",
                "why": "does everything but tell the project channel",
                "steps": [*plan(win, upto=4), done],
            },
            {
                "name": "kickoff-with-loser",
                "why": "invites the passed-over supplier's account manager",
                "steps": [*plan(win, kick=_contact(inst, contacts[trap], trap_dom)), done],
            },
            {
                "name": "hedged-post",
                "why": "tells the channel two suppliers without saying which",
                "steps": [*plan(win, post=f"{po}: {win} or {trap}, whichever is cheaper."), done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="gmail-quote-award-rollout",
    apps=("gmail", "directory", "helpdesk", "calendar", "slack"),
    summary="pick the winning quote from mail, then accept, forward, raise the PO, book the kickoff and post it",
    build=_build,
    decision=True,
    kind="long_horizon",
)
