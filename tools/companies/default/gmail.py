"""The mail app's part of the default company: the acting user's mailbox at Northwind Traders."""

from __future__ import annotations

import csv
import functools
import io
import random
from datetime import date, datetime, time, timedelta
from typing import Any

from tools.companies.default.documents import CAMPAIGN_BRIEF, POSTMORTEM, Q1_BUDGET
from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    ATLAS_GO_NO_GO,
    ATLAS_WINDOW,
    BOARD_MEETING,
    CONTOSO_CONTRACT,
    CONTOSO_CURRENT,
    CONTOSO_PO,
    CONTOSO_RENEWAL,
    CONTOSO_SIGN_OFF,
    INVOICE,
    INVOICE_AMOUNT,
    INVOICE_DUE,
    INVOICE_PO,
    INVOICE_VENDOR,
    MARKETING_OVERRUN,
    OFFSITE_BOOKING,
    OFFSITE_DATES,
    OFFSITE_PEOPLE,
    OFFSITE_VENUE,
)
from tools.companies.shared import keep
from tools.kernel.documents import make_docx, make_pdf, make_xlsx, mime_type_for

__all__ = ["build"]

#: Custom labels of the mailbox, id to name.
_LABELS = {
    "label_finance": "Finance",
    "label_vendors": "Vendors",
    "label_hiring": "Hiring",
    "label_travel": "Travel",
    "label_board": "Board",
}

#: Filters the user set up months ago; the mail they sorted already carries their labels.
_FILTERS: dict[str, dict[str, Any]] = {
    "filter_0001": {"sender": "no-reply@expensely.example", "add_labels": ["Finance"], "created": "2025-10-06T10:15"},
    "filter_0002": {
        "sender": "billing@fabrikam.example",
        "add_labels": ["Vendors", "Finance"],
        "created": "2025-11-03T16:40",
    },
}
#: The vacation reply used for the January sales kickoff, saved and switched off.
_VACATION = {
    "enabled": False,
    "subject": "At the sales kickoff",
    "body": "I'm at our sales kickoff in Chicago through Wednesday January 28, with limited email. For anything "
    "urgent, please contact Amelia Ward (amelia.ward@northwind.example).",
    "start_date": "2026-01-26",
    "end_date": "2026-01-28",
    "company_only": False,
    "updated": "2026-01-23T16:05:00-05:00",
}
_ACCOUNTS = ["Contoso", "Fabrikam", "Litware", "Tailspin Toys", "Wingtip Toys", "Adventure Works", "Proseware"]


class _Mailbox:
    """Collects messages with local thread keys, then numbers everything in date order."""

    def __init__(self, people: dict[str, dict[str, Any]], now: datetime, user: str) -> None:
        self.people = people
        self.now = now
        self.user = user
        self.messages: list[dict[str, Any]] = []

    def addr(self, who: str) -> str:
        if who == "me":
            return self.user
        return who if "@" in who else str(self.people[who]["email"])

    def at(self, days_ago: int, clock: str) -> datetime:
        hour, minute = (int(x) for x in clock.split(":"))
        day = self.now.date() - timedelta(days=days_ago)
        return datetime.combine(day, time(hour, minute), tzinfo=self.now.tzinfo)

    def add(self, thread: str, spec: dict[str, Any], subject: str, labels: list[str]) -> None:
        sender = self.addr(spec["from"])
        flags = spec.get("flags", "").split()
        if sender == self.user:
            tags = ["SENT"]
        else:
            tags = [] if "archived" in flags else ["INBOX"]
            tags += [f.upper() for f in flags if f in ("unread", "starred", "important")]
        tags += [f.upper() for f in flags if f == "trash"]
        self.messages.append(
            {
                "thread": thread,
                "sender": sender,
                "to": [self.addr(w) for w in spec["to"]],
                "cc": [self.addr(w) for w in spec.get("cc", ())],
                "subject": spec.get("subject", subject),
                "body": spec["body"].strip() + "\n",
                "date": self.at(*spec["at"]),
                "labels": tags + labels,
                "files": list(spec.get("files", ())),
            }
        )

    def state(self) -> dict[str, Any]:
        self.messages.sort(key=lambda m: m["date"])
        threads: dict[str, str] = {}
        last_in_thread: dict[str, str] = {}
        out: dict[str, dict[str, Any]] = {}
        n_att = 0
        for n, m in enumerate(self.messages, start=1):
            msg_id = f"msg_{n:04d}"
            thread_id = threads.setdefault(m["thread"], f"thr_{len(threads) + 1:04d}")
            attachments = []
            for filename, content in m["files"]:
                n_att += 1
                attachments.append(_attachment(f"att_{n_att:04d}", filename, content))
            out[msg_id] = {
                "id": msg_id,
                "thread_id": thread_id,
                "sender": m["sender"],
                "to": m["to"],
                "cc": m["cc"],
                "bcc": [],
                "subject": m["subject"],
                "body": m["body"],
                "date": m["date"].isoformat(),
                "labels": m["labels"],
                "attachments": attachments,
                "in_reply_to": last_in_thread.get(m["thread"], ""),
                "forwarded_from": "",
            }
            last_in_thread[m["thread"]] = msg_id
        self.thread_ids = threads
        self.last_in_thread = last_in_thread
        return out


def _recurring(box: _Mailbox, rng: random.Random) -> None:
    """Weekly reports, newsletters and notices that arrive on a schedule."""
    for week in range(8):
        days = 7 * week
        monday = box.now.date() - timedelta(days=days)
        box.add(
            f"pipeline-{week}",
            {
                "from": "daniel.wright",
                "to": ["me", "james.okafor"],
                "at": (days, "07:55"),
                "body": f"Hi all,\n\nAttached is the pipeline snapshot for the week of {monday:%B %-d}. "
                "Stages are as of Sunday night; amounts are contract value in USD.\n\nDaniel",
                "files": [(f"pipeline_{monday:%Y-%m-%d}.csv", _pipeline_csv(monday))],
                "flags": "unread" if week == 0 else ("archived" if week >= 4 else ""),
            },
            f"Weekly pipeline report - week of {monday:%b %-d}",
            [],
        )
        _keep_draws(rng)
    notes = [
        "Staging environment is live on Atlas. Cutover runbook drafted; replica lag on the orders database "
        "still above target.",
        "Schema migration for billing tables finished in staging; two reports still read the old views.",
        "Inventory service rehearsal passed in staging; p95 latency 210 ms against a 250 ms target.",
        "Read-only mode tested end to end in staging; the inventory service moves to Atlas on Friday February 27.",
        "Inventory service is live on Atlas. The load test at 2x peak moves from March 13 to March 20 while the "
        "test environment quota is pending.",
        f"Production cutover confirmed for {ATLAS_CUTOVER}, {ATLAS_WINDOW}; go/no-go call {ATLAS_GO_NO_GO}. "
        "Cutover dry run on Wednesday March 11 at 16:00 ET; readiness review with Dana on Tuesday March 17.",
    ]
    for i, note in enumerate(notes):
        days = 3 + 7 * (len(notes) - 1 - i)
        box.add(
            f"atlas-status-{i}",
            {
                "from": "liam.chen",
                "to": ["me", "elena.petrova"],
                "cc": ["ethan.brooks"],
                "at": (days, "16:30"),
                "body": f"Atlas migration status #{i + 1}\n\nThis week: {note}\n\nRisks and asks are in the tracker. "
                "Shout if anything needs a decision from you.\n\nLiam",
                "flags": "archived" if days > 20 else "",
            },
            f"Atlas migration - weekly status #{i + 1}",
            [],
        )
    topics = [
        "Why mid-market buyers are consolidating vendors",
        "Freight costs ease for the third straight month",
        "Five metrics CFOs watch in Q1",
        "Remote teams and the return of the offsite",
        "The quiet comeback of annual contracts",
        "Security keys go mainstream",
        "What procurement teams want from suppliers",
        "Planning headcount in an uncertain year",
    ]
    for i, topic in enumerate(topics):
        days = 6 + 7 * i
        box.add(
            f"pulse-{i}",
            {
                "from": "newsletter@industrypulse.example",
                "to": ["me"],
                "at": (days, "06:00"),
                "body": f"Industry Pulse - this week: {topic}.\n\nRead the full story and more on our site. "
                "You are receiving this because you subscribed with your work address.",
                "flags": "trash" if i >= 5 else ("unread" if i == 0 else ""),
            },
            f"Industry Pulse: {topic}",
            [],
        )
    for i, (days, report, amount) in enumerate(
        [(4, "ER-3381", "412.60"), (12, "ER-3307", "1,284.15"), (19, "ER-3250", "96.00"), (33, "ER-3129", "2,037.48")]
    ):
        box.add(
            f"expense-{i}",
            {
                "from": "no-reply@expensely.example",
                "to": ["me"],
                "at": (days, "11:20"),
                "body": f"Your expense report {report} for ${amount} was approved by Dana Whitfield. "
                "Reimbursement will arrive with the next payroll run.",
                "flags": "archived" if days > 15 else "",
            },
            f"Expense report {report} approved",
            ["Finance"],
        )
    for i, (days, system, when) in enumerate(
        [
            (3, "VPN", "Saturday March 14, 22:00-23:30 ET"),
            (16, "email and calendar", "Saturday February 28, 21:00-22:00 ET"),
            (30, "file shares", "Saturday February 14, 20:00-23:00 ET"),
        ]
    ):
        box.add(
            f"maint-{i}",
            {
                "from": "leo.hall",
                "to": ["me"],
                "at": (days, "15:00"),
                "body": f"Hi everyone,\n\nScheduled maintenance on {system}: {when}. Expect short interruptions. "
                "No action is needed on your side.\n\nLeo (IT)",
                "flags": "archived" if days > 20 else "",
            },
            f"Scheduled maintenance: {system}",
            [],
        )
    for i, days in enumerate((3, 10, 17, 24)):
        box.add(
            f"friday-note-{i}",
            {
                "from": "dana.whitfield",
                "to": ["me"],
                "at": (days, "17:10"),
                "body": [
                    "Team,\n\nGood week. Contoso is close to renewing, Atlas is on schedule for the "
                    f"{ATLAS_CUTOVER} cutover, and two engineering offers are out. Please get your board deck "
                    "sections to Alex by Wednesday.\n\nDana",
                    "Team,\n\nThanks to everyone who helped with the INC-3021 checkout outage; the postmortem is "
                    "honest and the fixes are the right ones. Wingtip Toys signed a pilot. Have a restful weekend."
                    "\n\nDana",
                    "Team,\n\nQ1 is half done. Spend discipline matters: Finance will share the Q1 budget review "
                    "soon. Thank you for the care you put into the customer work this month.\n\nDana",
                    "Team,\n\nWelcome to our new teammates in Sales and Customer Success. Leadership offsite planning "
                    "is under way for late April; Ruby will share details.\n\nDana",
                ][i],
                "flags": "" if days < 10 else "archived",
            },
            "Friday note from Dana",
            [],
        )


def _filler(box: _Mailbox, rng: random.Random) -> None:
    """Everyday mail from colleagues, and notes the user sent, spread over the last two months."""
    by_dept: dict[str, list[str]] = {}
    for pid, p in sorted(box.people.items()):
        if p["email"] != box.user:
            by_dept.setdefault(p["department"], []).append(pid)
    weekdays = [d for d in range(1, 62) if (box.now.date() - timedelta(days=d)).weekday() < 5]
    for i, (dept, subject, body) in enumerate(_FILLER_RECEIVED):
        sender = rng.choice(by_dept[dept])
        days = rng.choice(weekdays if i % 3 else weekdays[:8])
        clock = f"{rng.randint(8, 17):02d}:{rng.choice((5, 12, 20, 34, 41, 48, 55)):02d}"
        first = box.people[sender]["name"].split()[0]
        account = rng.choice(_ACCOUNTS)
        flags = "unread" if days <= 6 else ("archived" if days > 35 and i % 3 else "")
        if i % 11 == 5:
            flags += " starred"
        box.add(
            f"filler-{i}",
            {
                "from": sender,
                "to": ["me"],
                "at": (days, clock),
                "body": body.format(sender=first, account=account),
                "flags": flags,
            },
            subject.format(account=account),
            [],
        )
    for i, (to, subject, body) in enumerate(_FILLER_SENT):
        days = rng.choice(weekdays)
        first = box.people[to[0]]["name"].split()[0]
        box.add(
            f"sent-{i}",
            {
                "from": "me",
                "to": to,
                "at": (days, f"{rng.randint(9, 18):02d}:{rng.randint(0, 59):02d}"),
                "body": body.format(first=first),
            },
            subject,
            [],
        )


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Return the mailbox state (messages, drafts, labels) as plain JSON values.

    About two months of mail, a few drafts and custom labels. Authored conversations carry the
    details people ask about (invoice numbers, deadlines, rooms, amounts); recurring mail (weekly
    reports, newsletters, notices) and everyday notes from colleagues fill the rest. The output
    depends only on the arguments: a fixed random seed, no wall clock. Facts shared with the
    calendar and the drive are listed in ``tools.companies.default.facts``. Attachments are real files kept
    as shared blobs (``tools.companies.shared.keep``): CSV, Markdown and text notes, Fabrikam's
    INV-20417 invoice as a PDF, Priya's Q1 budget as an Excel workbook and Legal's Contoso redline
    as a Word document. Two filters and a saved (switched-off) vacation reply complete the
    mailbox's settings.

    Args:
        people: The directory's people keyed by id, as ``tools.companies.default.people.people_records()`` returns them.
        now: The frozen current instant; every message is dated before it.
        user: The mailbox owner's address.

    Returns:
        ``{"messages", "drafts", "labels", "filters"}`` (each keyed by id) and the ``"vacation"`` reply settings.
    """
    rng = random.Random(90210)
    box = _Mailbox(people, now, user)
    for key, thread in _THREADS.items():
        for spec in thread["messages"]:
            subject = thread["subject"] if spec is thread["messages"][0] else "Re: " + thread["subject"]
            box.add(key, spec, subject, list(thread.get("labels", ())))
    _recurring(box, rng)
    _filler(box, rng)
    messages = box.state()
    if any(datetime.fromisoformat(m["date"]) >= now for m in messages.values()):
        raise ValueError("every message must be dated before now")
    drafts: dict[str, Any] = {}
    for n, spec in enumerate(_DRAFTS, start=1):
        thread_key = spec.get("thread", "")
        drafts[f"draft_{n:04d}"] = {
            "id": f"draft_{n:04d}",
            "thread_id": box.thread_ids.get(thread_key, ""),
            "to": [box.addr(w) for w in spec["to"]],
            "cc": [box.addr(w) for w in spec.get("cc", ())],
            "bcc": [],
            "subject": spec["subject"],
            "body": spec["body"].strip() + "\n",
            "attachments": [
                _attachment(f"att_d{n}_{k}", f, c) for k, (f, c) in enumerate(spec.get("files", ()), start=1)
            ],
            "in_reply_to": box.last_in_thread.get(thread_key, ""),
            "updated": box.at(*spec["at"]).isoformat(),
            "sent_message_id": "",
        }
    labels = {lid: {"id": lid, "name": name} for lid, name in _LABELS.items()}
    filters = {
        fid: {
            "id": fid,
            **spec,
            "created": datetime.fromisoformat(spec["created"]).replace(tzinfo=now.tzinfo).isoformat(),
        }
        for fid, spec in _FILTERS.items()
    }
    return {"messages": messages, "drafts": drafts, "labels": labels, "filters": filters, "vacation": dict(_VACATION)}


def _attachment(att_id: str, filename: str, content: str | bytes) -> dict[str, Any]:
    """An attachment record whose bytes are kept as a shared blob."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return {
        "id": att_id,
        "filename": filename,
        "mime_type": mime_type_for(filename),
        "size": len(data),
        "blob": keep(data),
    }


# ---------------------------------------------------------------------------------------------
# Content. Each thread: subject, optional custom labels, messages oldest first. A message names
# its sender and recipients by directory id, "me" (the mailbox owner) or an outside address;
# "at" is (days before now, "HH:MM" local time); flags: unread, starred, important, archived, trash.
# ---------------------------------------------------------------------------------------------

_CONTOSO_TERMS_MD = f"""# Contoso renewal - proposed terms

- Account: Contoso Ltd (Northwind Live customer since 2024)
- Renews contract {CONTOSO_CONTRACT}: {CONTOSO_CURRENT} a year, ends March 31, 2026
- Term: 3 years, starting April 1, 2026
- Annual fee: {CONTOSO_RENEWAL} (3% increase), fixed for years 2 and 3
- Payment terms: Net 45 (Contoso asked; our standard is Net 30)
- Scope: live inventory view for all 14 warehouses, quarterly business reviews
- Contoso's purchase order: {CONTOSO_PO}
- Sign-off needed from: Chief of Staff, VP of Sales, CFO - by {CONTOSO_SIGN_OFF}
- Signature needed by March 31, 2026
"""

_INV_20417_TXT = f"""FABRIKAM LOGISTICS
Invoice: {INVOICE}
Invoice date: 2026-02-13
Due date: 2026-03-15
Bill to: Northwind Traders, Accounts Payable
PO number: {INVOICE_PO}

Pallet freight, February 2026 (14 shipments) .... $9,800.00
Fuel surcharge .................................. $1,040.00
Expedited courier runs (4 at $410) .............. $1,640.00

Total due: {INVOICE_AMOUNT}
Pay by ACH to the account on file. Questions: billing@fabrikam.example
"""


@functools.cache
def _invoice_pdf() -> bytes:
    """Fabrikam Logistics' invoice INV-20417 as the PDF they mailed."""
    return make_pdf(f"{INVOICE_VENDOR} - Invoice {INVOICE}", _INV_20417_TXT.splitlines())


@functools.cache
def _q1_budget_workbook() -> bytes:
    """Priya's draft Q1 budget review as an Excel workbook: the drive's Q1 budget lines plus a total row."""
    rows: list[list[Any]] = []
    for n, row in enumerate(csv.reader(io.StringIO(Q1_BUDGET))):
        rows.append(row if n == 0 else [*row[:2], int(row[2]), int(row[3]), int(row[4]), row[5]])
    totals = [sum(r[k] for r in rows[1:]) for k in (2, 3, 4)]
    rows.append(["Total", "", *totals, "Draft - final numbers to Marcus Reed by Friday March 13"])
    return make_xlsx({"Q1 budget": rows})


@functools.cache
def _contoso_redline_docx() -> bytes:
    """Legal's redline of the Contoso renewal, with the clauses still open before signature."""
    return make_docx(
        f"Contoso Ltd - {CONTOSO_CONTRACT} renewal - Northwind redline",
        [
            f"Agreement: renewal of contract {CONTOSO_CONTRACT} between Northwind Traders and Contoso Ltd "
            "(Northwind Live subscription for all 14 Contoso warehouses).",
            "Term: 3 years, from April 1, 2026 to March 31, 2029.",
            f"Annual fee: {CONTOSO_RENEWAL} (3% over the current {CONTOSO_CURRENT}), fixed in years 2 and 3.",
            "Payment terms: Net 45, as Contoso asked; our template default is Net 30, so Finance must approve.",
            f"Purchase order: Contoso issues {CONTOSO_PO} once the renewal is signed.",
            "Legal review: Tuesday March 10, 10:00. Comments due Monday March 16. Signature needed by March 31, 2026.",
            "Prepared by Isaac King and Hannah Wood (Legal).",
        ],
        [
            ["Clause", "Contoso draft", "Northwind redline", "Status"],
            ["4.1 Payment terms", "Net 45", "Net 45, subject to Finance approval", "Agreed in principle"],
            ["7.2 Limitation of liability", "24 months of fees", "12 months of fees (template v3)", "Open"],
            ["9.4 Security incident notice", "24 hours", "72 hours", "Open"],
            ["12.3 Auto-renewal notice", "30 days", "60 days (template v3)", "Open"],
        ],
    )


_INV_20436_CSV = """booking_id,travel_date,traveller,trip,amount_usd
TT-51820,2026-02-03,Isabella Rossi,New York - Chicago return,612.40
TT-51847,2026-02-09,James Okafor,New York - Atlanta return,1184.90
TT-51873,2026-02-12,Benjamin Clark,Chicago - Denver return,798.25
TT-51902,2026-02-18,Zoe Adams,San Francisco - Chicago return,1023.60
TT-51935,2026-02-24,Harper Lewis,Chicago - Minneapolis return,691.60
"""

_ATLAS_PLAN_MD = f"""# Atlas migration - cutover plan

Owner: Liam Chen. Sponsor: Elena Petrova. Runbook: Mia Thompson.

## Timeline (all times ET)
- Wed March 11, 16:00 - full dry run on the staging copy
- Fri March 20 - load test at 2x peak
- Tue April 14 - support team briefed; maintenance notice goes to customers
- {ATLAS_GO_NO_GO} - go/no-go call
- Fri April 17, 06:00 - deploy freeze on the order and inventory services
- {ATLAS_CUTOVER}, 06:00 - legacy order database read-only; final replication starts
- {ATLAS_CUTOVER}, by 10:00 - DNS switched to Atlas; the cutover window ({ATLAS_WINDOW}) closes

## Fallback
A 4-hour fallback window follows the switch. If checkout errors exceed 2% for 10 minutes, DNS points
back to the legacy data centre and writes reopen there.
"""

_VENUES_CSV = """venue,location,nights,price_per_person_usd,total_for_11_usd,travel_from_nyc,notes
Lakeside Lodge,"Cold Spring, NY",2,3500,38500,75 min by coach,all meals and AV included; deposit $4000
Harbor Inn,"Newport, RI",2,3900,42900,3h 30m,no direct train
Pine Ridge Retreat,"Lake Placid, NY",2,3300,36300,5h 00m,cheapest but far
Mill River Conference Center,"Stamford, CT",2,3100,34100,1h by train,last year's venue; feels like an office
"""

_INTERVIEW_TXT = """Interview loop - Marco Bianchi, Chief of Staff Associate (REQ-1045)
Date: Thursday March 12, 2026
Location: Room 2A, New York office (video link in the invite for remote panelists)

11:30-12:15  Planning and prioritisation   Nora Patel
12:15-13:00  Lunch with the team           Amelia Ward
13:00-14:00  Case exercise: plan a leadership offsite on a budget   Alex Morgan, Elena Petrova
14:00-14:15  Wrap-up                       Samuel Green

Scorecards due in the recruiting system by Friday March 13, 12:00.
"""

_OPEN_ROLES_CSV = """requisition,role,team,hiring_manager,applicants,phone_screens,onsites,offers
REQ-1042,Senior Software Engineer,Engineering,Liam Chen,71,10,4,2
REQ-1043,Senior Software Engineer,Engineering,Ethan Brooks,64,9,2,0
REQ-1045,Chief of Staff Associate,Executive,Alex Morgan,45,6,2,0
REQ-1046,Operations Analyst,Operations,Victor Alvarez,39,5,1,0
REQ-1047,Account Executive,Sales,James Okafor,88,12,4,0
REQ-1048,Staff Product Designer,Marketing,Zoe Adams,41,7,3,0
REQ-1049,Customer Success Manager,Customer Success,Olivia Baker,52,3,0,0
REQ-1053,Accounts Receivable Specialist,Finance,Priya Shah,18,2,0,0
"""

_EXPENSES_CSV = """department,travel_usd,meals_usd,software_usd,other_usd,total_usd
Executive,6480,1210,0,340,8030
Finance,1120,260,2400,90,3870
Engineering,5230,880,18750,1420,26280
Sales,19870,4310,1200,640,26020
Marketing,4410,760,6350,2100,13620
People,1890,450,900,300,3540
Operations,1240,220,3100,5400,9960
Customer Success,990,180,2050,120,3340
Total,41230,8270,34750,10410,94660
"""

_ITINERARY_TXT = """Tailspin Travel - itinerary for Alex Morgan
Confirmation: QX7P2L

Tue March 31  Skyway Air 482  New York LGA 07:15 -> Chicago ORD 08:55  Seat 7C
Thu April 2   Skyway Air 517  Chicago ORD 18:40 -> New York LGA 21:55  Seat 8A

Hotel: The Lakeshore Hotel, 401 N Lake Shore Dr, Chicago
Check-in March 31, check-out April 2, confirmation 88412
"""

_LEASE_MD = """# Chicago office lease - options

Current lease: 225 W Wacker Dr, 11th floor, 9,800 sq ft, expires June 30, 2026.

| option | address | size | rent per sq ft per year | term | move cost |
|---|---|---|---|---|---|
| A. Renew | 225 W Wacker Dr | 9,800 sq ft | $46 | 5 years | none |
| B. Move | 220 W Kinzie St | 8,600 sq ft | $41 | 7 years | about $180,000 |

Landlord needs our answer on option A by March 31.
"""

_QBR_MD = """# Litware quarterly business review - agenda

Thursday March 12, 14:00-15:30 ET, Litware HQ (and video)

1. Adoption: active users up 18% quarter over quarter
2. Support: 41 tickets, median first response 2h 10m
3. Roadmap: bulk order import, carrier tracking
4. Renewal timeline: contract ends September 30, 2026
5. Asks from Litware: SSO for their contractors
"""

_VENDOR_TEMPLATE_TXT = """Changes in vendor contract template v3 (from v2)
- Limitation of liability now 12 months of fees (was 6)
- Data processing addendum attached by default
- Payment terms default to Net 30; Net 45 needs Finance approval
- Auto-renewal notice period shortened to 60 days
"""

_SOC2_CSV = """request_id,control,evidence,owner,due
CR-01,Access reviews,Q4 access review sign-offs,Kai Nakamura,2026-03-13
CR-02,Change management,10 sample pull requests with approvals,Liam Chen,2026-03-13
CR-03,Incident response,INC-3021 postmortem and timeline,Mia Thompson,2026-03-16
CR-04,Vendor management,Vendor risk reviews for top 10 vendors,Maya Young,2026-03-18
CR-05,HR security,Signed handbook acknowledgements,Ella Moore,2026-03-18
CR-06,Encryption,Key rotation logs,Kai Nakamura,2026-03-20
"""

_SKO_MD = """# Q1 sales kickoff - recap

- Attendance: 14 in person (Chicago), 5 remote
- Q1 target: $3.2M new annual contract value; $1.1M closed so far
- Top asks from the field: faster security questionnaires, a pricing calculator, more customer stories
- Winners: Isabella Rossi (largest deal of 2025), Harper Lewis (most meetings booked)
"""

_TABLES_CSV = """table,owner,last_read,size_gb,action
orders_legacy_2019,Lucas Martin,2025-06-02,412,archive then drop
tmp_inventory_sync,Lucas Martin,2025-11-20,38,drop
marketing_leads_old,Henry Scott,2025-03-14,12,drop
finance_ap_snapshot,Owen Bell,2026-02-27,55,keep
"""

_REPLICA_CSV = """hour_et,avg_lag_seconds,max_lag_seconds
2026-03-04 09:00,4.2,11.8
2026-03-04 12:00,7.9,24.1
2026-03-04 15:00,6.1,19.6
2026-03-04 18:00,2.3,6.4
"""

_HEADCOUNT_CSV = """department,current,q2_requested,q2_approved
Engineering,9,3,2
Sales,5,2,1
Customer Success,4,1,1
Marketing,4,1,0
"""

_THREADS: dict[str, dict[str, Any]] = {
    "q1-budget": {
        "subject": "Q1 budget review - draft numbers",
        "labels": ["Finance"],
        "messages": [
            {
                "from": "priya.shah",
                "to": ["me"],
                "cc": ["marcus.reed"],
                "at": (6, "10:12"),
                "body": f"""
Hi Alex,

Attached are the draft numbers for the Q1 budget review. Headlines:
- Marketing Events is {MARKETING_OVERRUN} over its line, because the spring launch booth was upsized.
- Every other line is under; Cloud hosting is $54,600 under thanks to the Atlas migration credits.

Marcus wants the final numbers by Friday March 13 so they can go in the board deck.
Could you check the Executive line before then?

Thanks,
Priya""",
                "files": [("q1_budget_draft.xlsx", _q1_budget_workbook())],
                "flags": "starred",
            },
            {
                "from": "me",
                "to": ["priya.shah"],
                "cc": ["marcus.reed"],
                "at": (6, "14:40"),
                "body": """
Thanks Priya. The Executive line looks right: only the $4,000 Lakeside Lodge deposit is paid so far,
and the rest of the offsite bill comes in April. Let's ask Zoe how she will cover the Events overspend
before we send anything to the board.

Alex""",
            },
            {
                "from": "marcus.reed",
                "to": ["me", "priya.shah"],
                "at": (3, "09:05"),
                "body": """
Agreed on Marketing. Let's also cut the travel line by 10% across all departments for the rest of
the quarter. Alex, please send the final numbers to me no later than Friday March 13, noon.

Marcus""",
                "flags": "unread important",
            },
        ],
    },
    "contoso": {
        "subject": "Contoso renewal - pricing approval needed",
        "messages": [
            {
                "from": "isabella.rossi",
                "to": ["me"],
                "cc": ["james.okafor"],
                "at": (5, "11:30"),
                "body": f"""
Hi Alex,

Contoso is ready to renew {CONTOSO_CONTRACT} for 3 years at {CONTOSO_RENEWAL} a year, a 3% increase on today's
{CONTOSO_CURRENT}. They also want Net 45 payment terms. Proposed terms are attached. I need sign-off from you,
James and Marcus by {CONTOSO_SIGN_OFF}, so Contoso can sign well before the contract ends on March 31.

Isabella""",
                "files": [("contoso_renewal_terms.md", _CONTOSO_TERMS_MD)],
                "flags": "starred",
            },
            {
                "from": "me",
                "to": ["isabella.rossi"],
                "cc": ["james.okafor"],
                "at": (5, "15:02"),
                "body": "Thanks Isabella. Is the price fixed in years 2 and 3? Marcus will ask.\n\nAlex",
            },
            {
                "from": "isabella.rossi",
                "to": ["me"],
                "cc": ["james.okafor"],
                "at": (4, "09:48"),
                "body": f"Yes - fixed for all three years. Their procurement lead, Megan Harlow, confirmed by phone "
                f"and will send purchase order {CONTOSO_PO} once we sign off.\n\nIsabella",
            },
            {
                "from": "james.okafor",
                "to": ["me", "isabella.rossi"],
                "at": (4, "17:15"),
                "body": "I'm fine with 3% and the fixed price. Net 45 is Marcus's call.\n\nJames",
                "flags": "unread",
            },
        ],
    },
    "contoso-redline": {
        "subject": "Contoso renewal - our redline for Tuesday's legal review",
        "messages": [
            {
                "from": "isaac.king",
                "to": ["me"],
                "cc": ["hannah.wood", "james.okafor"],
                "at": (0, "08:35"),
                "body": f"""
Alex,

Our redline of the {CONTOSO_CONTRACT} renewal is attached for tomorrow's legal review (Tuesday March 10, 10:00,
Room 4B). Two points are still open: Contoso wants liability capped at 24 months of fees (we hold at 12, as
in template v3) and security incident notice within 24 hours (we offer 72). Net 45 is fine by us once
Finance approves.

Please send any comments by Monday March 16 so I can send the final draft to Megan Harlow.

Isaac""",
                "files": [(f"Contoso_{CONTOSO_CONTRACT}_renewal_redline.docx", _contoso_redline_docx())],
                "flags": "unread",
            },
        ],
    },
    "fabrikam-invoice": {
        "subject": f"Invoice {INVOICE} from {INVOICE_VENDOR}",
        "labels": ["Vendors", "Finance"],
        "messages": [
            {
                "from": "billing@fabrikam.example",
                "to": ["me"],
                "at": (7, "06:40"),
                "body": f"""
Hello,

A reminder that invoice {INVOICE} of February 13 for {INVOICE_AMOUNT} (pallet freight for February 2026,
fuel surcharge and expedited courier runs) is due on {INVOICE_DUE}. A copy is attached.
Reference {INVOICE_PO} on your payment.

{INVOICE_VENDOR} - Billing""",
                "files": [("INV-20417.pdf", _invoice_pdf())],
                "flags": "unread",
            },
        ],
    },
    "fabrikam-approval": {
        "subject": f"Fabrikam invoice {INVOICE} - any concerns before approval?",
        "labels": ["Vendors", "Finance"],
        "messages": [
            {
                "from": "tomas.rivera",
                "to": ["me"],
                "cc": ["priya.shah"],
                "at": (3, "13:22"),
                "body": f"""
Hi Alex,

Victor said you wanted to see {INVOICE} before it is approved. Fabrikam's invoice is {INVOICE_AMOUNT}, so
Priya approves it (invoices of $5,000 to $25,000 go to her or Owen). It matches {INVOICE_PO} except four
expedited courier runs ($1,640), which were added after the PO. Unless you have concerns, Priya will
approve it and I'll pay it in the Friday March 13 run, ahead of the {INVOICE_DUE} due date.

Tomas""",
                "flags": "unread",
            },
        ],
    },
    "tailspin-invoice": {
        "subject": "Invoice INV-20436 - February travel bookings",
        "labels": ["Vendors", "Finance"],
        "messages": [
            {
                "from": "ben.ortiz@tailspin.example",
                "to": ["me"],
                "cc": ["tomas.rivera"],
                "at": (8, "10:05"),
                "body": """
Dear Northwind Traders,

Invoice INV-20436 for February travel bookings totals $4,310.75 across 5 trips (detail attached).
Payment due March 25, 2026.

Ben Ortiz
Tailspin Travel - Corporate accounts""",
                "files": [("INV-20436_bookings.csv", _INV_20436_CSV)],
            },
        ],
    },
    "paperworks-po": {
        "subject": "PO-7790 approval: office supplies Q1 restock",
        "labels": ["Vendors"],
        "messages": [
            {
                "from": "maya.young",
                "to": ["me"],
                "at": (13, "10:40"),
                "body": """
Hi Alex,

PO-7790 is ready for Northwind Office Supply: $2,146.75 for the Q1 restock of the New York and Chicago
offices (paper, toner, whiteboard supplies, 12 monitor arms). Could you approve?

Maya""",
            },
            {
                "from": "me",
                "to": ["maya.young"],
                "at": (13, "12:02"),
                "body": "Approved. Please make sure the monitor arms go to Chicago first.\n\nAlex",
            },
        ],
    },
    "atlas-plan": {
        "subject": "Atlas migration: cutover plan for April 18",
        "messages": [
            {
                "from": "elena.petrova",
                "to": ["me"],
                "cc": ["liam.chen", "mia.thompson"],
                "at": (6, "08:30"),
                "body": f"""
Alex,

Attached is the cutover plan for Atlas. Key points: go/no-go call {ATLAS_GO_NO_GO}, deploy freeze
from Friday April 17 at 06:00 ET, cutover window {ATLAS_CUTOVER}, {ATLAS_WINDOW}, then a 4-hour
fallback window. Dana asked for a one-paragraph summary for the board; could you write it from this?

Elena""",
                "files": [("atlas_cutover_plan.md", _ATLAS_PLAN_MD)],
            },
            {
                "from": "liam.chen",
                "to": ["elena.petrova", "me"],
                "cc": ["mia.thompson"],
                "at": (5, "10:14"),
                "body": """
One concern: replica lag on the orders database peaked at 24 seconds last week. If it stays above
10 seconds on the day, the final sync may push the switch past 10:00. Sofia is looking into it.

Liam""",
            },
            {
                "from": "mia.thompson",
                "to": ["elena.petrova", "me"],
                "cc": ["liam.chen"],
                "at": (4, "16:50"),
                "body": "Runbook is updated. Full dry run is Wednesday March 11 at 16:00 ET; "
                "bridge details in the invite.\n\nMia",
            },
            {
                "from": "me",
                "to": ["elena.petrova"],
                "cc": ["liam.chen", "mia.thompson"],
                "at": (4, "18:05"),
                "body": "Thanks all. I'll brief Dana after the dry run and draft the board summary this week.\n\nAlex",
            },
        ],
    },
    "offsite-venues": {
        "subject": "Leadership offsite - venue shortlist",
        "messages": [
            {
                "from": "ruby.walker",
                "to": ["me"],
                "cc": ["amelia.ward"],
                "at": (11, "14:20"),
                "body": f"""
Hi Alex,

Here is the shortlist for the leadership offsite, {OFFSITE_DATES}, for {OFFSITE_PEOPLE} people. Lakeside Lodge
is the easiest trip (75 minutes from Grand Central by coach) and includes all meals; Pine Ridge is
cheaper but 5 hours away. Lakeside can hold the dates until Friday against a $4,000 deposit.

Ruby""",
                "files": [("offsite_venues.csv", _VENUES_CSV)],
            },
            {
                "from": "me",
                "to": ["ruby.walker"],
                "cc": ["amelia.ward"],
                "at": (10, "09:15"),
                "body": "Let's go with Lakeside Lodge. Please check the AV setup for the strategy sessions.\n\nAlex",
            },
            {
                "from": "ruby.walker",
                "to": ["me"],
                "cc": ["amelia.ward"],
                "at": (10, "13:40"),
                "body": f"""
Done - {OFFSITE_VENUE} is booked for {OFFSITE_DATES}, confirmation {OFFSITE_BOOKING}. Their $4,000 deposit
invoice (INV-20441, due March 5) is with Tomas. AV is included: two projectors and a video bar in
the main room.

Ruby""",
            },
        ],
    },
    "interview-marco": {
        "subject": "Interview loop: Marco Bianchi, Chief of Staff Associate",
        "labels": ["Hiring"],
        "messages": [
            {
                "from": "samuel.green",
                "to": ["me"],
                "cc": ["elena.petrova"],
                "at": (4, "11:05"),
                "body": """
Hi Alex,

Marco Bianchi comes in on Thursday March 12 for the final round of the Chief of Staff Associate
loop (REQ-1045), in Room 2A. You and Elena have the case exercise, 13:00-14:00. The schedule is
attached. Scorecards are due Friday March 13 at noon.

Samuel""",
                "files": [("interview_schedule_marco_bianchi.txt", _INTERVIEW_TXT)],
            },
            {
                "from": "me",
                "to": ["samuel.green"],
                "cc": ["elena.petrova"],
                "at": (4, "12:30"),
                "body": "Works for me - I'll be in 2A at 13:00.\n\nAlex",
            },
        ],
    },
    "offer-camille": {
        "subject": "Offer approval: Staff Product Designer - Camille Dubois",
        "labels": ["Hiring"],
        "messages": [
            {
                "from": "nora.patel",
                "to": ["me"],
                "cc": ["zoe.adams"],
                "at": (0, "08:10"),
                "body": """
Hi Alex,

We'd like to make an offer to Camille Dubois for the Staff Product Designer role (REQ-1048):
- Base salary: $168,000
- Sign-on bonus: $10,000
- Start date: Monday April 20

This is within the approved band. I need your approval and Dana's by end of day Tuesday March 10;
she has another offer expiring on the 11th.

Nora""",
                "flags": "unread starred important",
            },
        ],
    },
    "open-roles": {
        "subject": "Recruiting pipeline - open roles",
        "labels": ["Hiring"],
        "messages": [
            {
                "from": "samuel.green",
                "to": ["me", "nora.patel"],
                "at": (7, "16:45"),
                "body": "Here is where every open role stands as of today. Both Senior Software Engineer offers "
                "(REQ-1042) are out, and the Staff Product Designer offer should be ready next week.\n\nSamuel",
                "files": [("open_roles.csv", _OPEN_ROLES_CSV)],
            },
        ],
    },
    "talentbridge": {
        "subject": "Candidate referral: Accounts Receivable Specialist",
        "labels": ["Hiring"],
        "messages": [
            {
                "from": "jobs@talentbridge.example",
                "to": ["me"],
                "at": (18, "09:30"),
                "body": """
Hi Alex,

We have a candidate with 8 years of distribution experience who would be a strong fit for your
Accounts Receivable Specialist opening. Our fee is 18% of first-year base salary. Shall I send the profile?

Best,
Renee Carter
TalentBridge Recruiting""",
            },
            {
                "from": "me",
                "to": ["jobs@talentbridge.example"],
                "at": (17, "10:10"),
                "body": "Thanks Renee, but we are not working with agencies for this role.\n\nAlex",
            },
        ],
    },
    "security-keys": {
        "subject": "Action required: register a hardware security key by March 16",
        "messages": [
            {
                "from": "kai.nakamura",
                "to": ["me"],
                "at": (4, "10:00"),
                "body": """
Hi Alex,

Starting Monday March 16, sign-in to email, files and the admin consoles will require a hardware
security key. Your key is at the IT desk (New York, 3rd floor). Register it at the IT portal under
"Security keys". Anyone not registered by March 16 will be locked out until IT resets them.

Kai (Security)""",
                "flags": "important",
            },
        ],
    },
    "laptop-refresh": {
        "subject": "Laptop refresh: choose your model by March 13",
        "messages": [
            {
                "from": "leo.hall",
                "to": ["me"],
                "at": (5, "14:00"),
                "body": """
Hi Alex,

Your laptop is due for replacement. Choose one by Friday March 13:
1. 14-inch ThinkPad X1 Carbon, 32 GB
2. 14-inch MacBook Pro, 36 GB
Pickup from the IT desk (3rd floor) the week of March 23.

Leo""",
            },
            {
                "from": "me",
                "to": ["leo.hall"],
                "at": (5, "16:20"),
                "body": "The MacBook Pro, please.\n\nAlex",
            },
        ],
    },
    "fabrikam": {
        "subject": "Fabrikam escalation - outage postmortem",
        "messages": [
            {
                "from": "olivia.baker",
                "to": ["me"],
                "cc": ["david.kim"],
                "at": (9, "15:30"),
                "body": """
Alex,

Fabrikam Inc was one of the 37 accounts hit by INC-3021, the February 11 checkout outage; the
postmortem is attached. Short version: an expired certificate on the payments adapter stopped
checkout for 47 minutes. We're offering Fabrikam a 5% service credit ($2,350) as part of the
apology credits. Their CIO wants to hear from someone senior.

Olivia""",
                "files": [("INC-3021_postmortem.md", POSTMORTEM)],
            },
            {
                "from": "me",
                "to": ["olivia.baker"],
                "cc": ["david.kim"],
                "at": (9, "17:05"),
                "body": "Thanks Olivia - happy to join. Please find a slot early next week.\n\nAlex",
            },
            {
                "from": "olivia.baker",
                "to": ["me"],
                "cc": ["david.kim"],
                "at": (6, "09:40"),
                "body": "Their CIO, Helen Brandt, is away until March 16. I'll send you an invite for that week "
                "once she picks a time.\n\nOlivia",
            },
        ],
    },
    "tailspin-nda": {
        "subject": "NDA with Tailspin Toys - signature needed",
        "messages": [
            {
                "from": "isaac.king",
                "to": ["me"],
                "cc": ["hannah.wood"],
                "at": (20, "11:00"),
                "body": """
Alex,

The mutual NDA with Tailspin Toys (NDA-2026-014) is ready for your signature in the e-signature
queue. It's our standard template with no changes.

Isaac""",
            },
            {
                "from": "me",
                "to": ["isaac.king"],
                "cc": ["hannah.wood"],
                "at": (20, "14:25"),
                "body": "Signed. Thanks Isaac.\n\nAlex",
            },
        ],
    },
    "spring-launch": {
        "subject": "Spring launch campaign brief",
        "messages": [
            {
                "from": "zoe.adams",
                "to": ["me"],
                "cc": ["henry.scott", "lily.turner"],
                "at": (12, "13:15"),
                "body": "Hi Alex,\n\nThe brief for the April 7 spring launch is attached, with a $50,000 budget "
                "($32,000 paid search and LinkedIn, $18,000 for the Supply Chain Summit booth). "
                "Feedback welcome by Friday.\n\nZoe",
                "files": [("spring_launch_brief.md", CAMPAIGN_BRIEF)],
            },
            {
                "from": "lily.turner",
                "to": ["me", "zoe.adams"],
                "cc": ["henry.scott"],
                "at": (11, "10:05"),
                "body": "Adding one thing: the Wingtip Toys pilot could be our launch customer "
                "story, if they agree.\n\nLily",
            },
        ],
    },
    "board-deck": {
        "subject": "Board deck - your sections by Wednesday",
        "labels": ["Board"],
        "messages": [
            {
                "from": "dana.whitfield",
                "to": ["me"],
                "cc": ["amelia.ward"],
                "at": (3, "18:20"),
                "body": f"""
Alex,

The board meets Wednesday {BOARD_MEETING}. I need your sections by end of day Wednesday March 11, so we
can do the full read-through on March 18:
1. Operating plan update (include the Q1 budget review numbers)
2. Hiring plan for Q2
3. A short paragraph on the Atlas migration
Amelia has the template.

Dana""",
                "flags": "unread starred important",
            },
        ],
    },
    "feb-expenses": {
        "subject": "February expense summary",
        "labels": ["Finance"],
        "messages": [
            {
                "from": "grace.kim",
                "to": ["me"],
                "cc": ["priya.shah"],
                "at": (5, "12:10"),
                "body": "Hi Alex,\n\nFebruary expenses by department are attached. Travel was $41,230 in total, "
                "about half of it Sales.\n\nGrace",
                "files": [("expense_summary_feb.csv", _EXPENSES_CSV)],
            },
        ],
    },
    "chicago-trip": {
        "subject": "Your trip to Chicago - confirmation QX7P2L",
        "labels": ["Travel"],
        "messages": [
            {
                "from": "travel@tailspin.example",
                "to": ["me"],
                "at": (8, "19:02"),
                "body": "Your trip is booked with Tailspin Travel. Confirmation QX7P2L: New York to Chicago on "
                "Tuesday March 31, back Thursday April 2. Your itinerary is attached.",
                "files": [("itinerary_QX7P2L.txt", _ITINERARY_TXT)],
            },
        ],
    },
    "saasconnect": {
        "subject": "Your SaaSConnect 2026 registration",
        "labels": ["Travel"],
        "messages": [
            {
                "from": "events@saasconnect.example",
                "to": ["me"],
                "at": (26, "12:00"),
                "body": "Thanks for registering for SaaSConnect 2026 in Austin, May 12-14. Your badge code is "
                "SC26-5208. The early hotel rate ends March 27.",
                "flags": "archived",
            },
        ],
    },
    "chicago-lease": {
        "subject": "Chicago office lease - renewal options",
        "messages": [
            {
                "from": "victor.alvarez",
                "to": ["me"],
                "cc": ["marcus.reed"],
                "at": (14, "10:30"),
                "body": "Alex,\n\nOur Chicago lease ends June 30. The two options are attached; the landlord needs "
                "an answer on renewal by March 31.\n\nVictor",
                "files": [("chicago_lease_options.md", _LEASE_MD)],
            },
            {
                "from": "me",
                "to": ["victor.alvarez"],
                "cc": ["marcus.reed"],
                "at": (13, "09:20"),
                "body": "Thanks Victor. What would option B cost over five years, move included?\n\nAlex",
            },
            {
                "from": "victor.alvarez",
                "to": ["me"],
                "cc": ["marcus.reed"],
                "at": (12, "15:45"),
                "body": "Over five years: option A is $2,254,000, option B is $1,763,000 plus about $180,000 to "
                "move, so $1,943,000. Option B saves roughly $311,000.\n\nVictor",
            },
        ],
    },
    "wingtip": {
        "subject": "Wingtip Toys pilot - signed!",
        "messages": [
            {
                "from": "benjamin.clark",
                "to": ["me"],
                "cc": ["james.okafor"],
                "at": (17, "16:10"),
                "body": "Wingtip Toys signed a 6-month pilot worth $48,000, starting April 1. Their sponsor is "
                "Luis Ortega, VP of Operations.\n\nBen",
            },
            {
                "from": "me",
                "to": ["benjamin.clark"],
                "cc": ["james.okafor"],
                "at": (17, "17:30"),
                "body": "Great work, Ben. Let's make sure Customer Success is in the kickoff.\n\nAlex",
            },
        ],
    },
    "litware-qbr": {
        "subject": "Litware QBR agenda - March 12",
        "messages": [
            {
                "from": "emma.foster",
                "to": ["me"],
                "cc": ["olivia.baker"],
                "at": (3, "11:45"),
                "body": "Hi Alex,\n\nHere is the agenda for the Litware QBR on Thursday March 12 at 14:00 ET. "
                "Could you cover the roadmap item by video? I'll add you to the invite if so.\n\nEmma",
                "files": [("litware_qbr_agenda.md", _QBR_MD)],
            },
        ],
    },
    "blog-post": {
        "subject": "Blog post draft: how we cut month-end close to 4 days",
        "messages": [
            {
                "from": "henry.scott",
                "to": ["me"],
                "at": (3, "15:05"),
                "body": "Hi Alex,\n\nThe draft is in the blog editor (it is on the editorial calendar for March 24). "
                "Could you review it by Thursday March 12? Priya has already checked the numbers.\n\nHenry",
                "flags": "unread",
            },
        ],
    },
    "vendor-template": {
        "subject": "Updated vendor contract template (v3)",
        "labels": ["Vendors"],
        "messages": [
            {
                "from": "hannah.wood",
                "to": ["me", "maya.young"],
                "cc": ["isaac.king"],
                "at": (19, "13:30"),
                "body": "Hi both,\n\nVersion 3 of the vendor contract template is live. The changes are listed in "
                "the attached note.\n\nHannah",
                "files": [("vendor_template_v3_changes.txt", _VENDOR_TEMPLATE_TXT)],
            },
        ],
    },
    "soc2": {
        "subject": "SOC 2 audit - evidence requests",
        "messages": [
            {
                "from": "ethan.brooks",
                "to": ["me"],
                "cc": ["kai.nakamura"],
                "at": (7, "13:50"),
                "body": "Alex,\n\nCrestview Assurance sent 6 evidence requests for the SOC 2 audit (attached). "
                "Everything is due by March 20. Could you nudge the owners outside Engineering?\n\nEthan",
                "files": [("soc2_evidence_requests.csv", _SOC2_CSV)],
            },
            {
                "from": "me",
                "to": ["ethan.brooks"],
                "cc": ["kai.nakamura"],
                "at": (6, "09:10"),
                "body": "Will do - I'll raise it at today's staff meeting.\n\nAlex",
            },
        ],
    },
    "dana-calendar": {
        "subject": "Dana's calendar next week",
        "messages": [
            {
                "from": "amelia.ward",
                "to": ["me"],
                "at": (3, "10:25"),
                "body": "Hi Alex,\n\nHeads up: Dana is out on Friday March 13 and again March 19-20 (family). "
                "She flies to Chicago with you on March 31.\n\nAmelia",
            },
        ],
    },
    "advisory-board": {
        "subject": "Customer advisory board - nominations",
        "messages": [
            {
                "from": "ryan.cooper",
                "to": ["me"],
                "cc": ["olivia.baker"],
                "at": (10, "11:10"),
                "body": "Hi Alex,\n\nWe're forming a customer advisory board of 8 customers. Nominations close "
                "Wednesday March 18. So far: Contoso, Litware and Adventure Works.\n\nRyan",
            },
        ],
    },
    "insurance": {
        "subject": "Policy renewal notice - general liability",
        "labels": ["Vendors", "Finance"],
        "messages": [
            {
                "from": "renewals@northbridge-insurance.example",
                "to": ["me"],
                "at": (15, "08:00"),
                "body": "Your general liability policy GL-448210 renews on April 1, 2026. The renewal premium "
                "is $27,940, up 6% from last year. Please confirm by March 25.",
            },
        ],
    },
    "cash-forecast": {
        "subject": "Cash forecast and Contoso payment terms",
        "labels": ["Finance"],
        "messages": [
            {
                "from": "marcus.reed",
                "to": ["me"],
                "at": (4, "12:40"),
                "body": "Alex,\n\nIf we give Contoso Net 45 instead of Net 30, we carry about $18,300 more in "
                "receivables at any time. I can live with it for a 3-year term. Your view?\n\nMarcus",
            },
            {
                "from": "me",
                "to": ["marcus.reed"],
                "at": (4, "14:05"),
                "body": "Agreed - the 3-year term is worth it. I'll tell Isabella once you give the final yes.\n\nAlex",
            },
        ],
    },
    "sko-recap": {
        "subject": "Q1 sales kickoff recap",
        "messages": [
            {
                "from": "james.okafor",
                "to": ["me"],
                "at": (40, "17:00"),
                "body": "Alex,\n\nRecap of the sales kickoff attached. Thanks for the opening talk.\n\nJames",
                "files": [("sko_recap.md", _SKO_MD)],
                "flags": "archived",
            },
        ],
    },
    "warehouse-cleanup": {
        "subject": "Data warehouse cleanup - tables to retire",
        "messages": [
            {
                "from": "lucas.martin",
                "to": ["me"],
                "cc": ["ethan.brooks"],
                "at": (21, "14:45"),
                "body": "Hi Alex,\n\nThese are the tables I plan to retire on March 31 (list attached). It frees "
                "about 462 GB. Shout if Finance still needs any of them.\n\nLucas",
                "files": [("tables_to_retire.csv", _TABLES_CSV)],
            },
        ],
    },
    "release-412": {
        "subject": "Release 4.12 QA sign-off",
        "messages": [
            {
                "from": "chloe.nguyen",
                "to": ["me"],
                "cc": ["liam.chen"],
                "at": (3, "17:40"),
                "body": "Hi Alex,\n\nRelease 4.12 is signed off except one blocking bug, NW-2291 (order export "
                "drops the last line). The fix is expected Tuesday; release moves to Wednesday March 11.\n\nChloe",
            },
        ],
    },
    "open-enrollment": {
        "subject": "Benefits open enrollment closes March 20",
        "messages": [
            {
                "from": "ella.moore",
                "to": ["me"],
                "at": (8, "09:00"),
                "body": "Hi Alex,\n\nReminder: benefits open enrollment closes Friday March 20. The new dental "
                "plan starts April 1.\n\nElla",
            },
        ],
    },
    "replica-lag": {
        "subject": "Atlas: replica lag numbers",
        "messages": [
            {
                "from": "sofia.garcia",
                "to": ["me", "liam.chen"],
                "at": (4, "19:30"),
                "body": "Numbers from Wednesday attached. Peak lag was 24.1 seconds at noon; after 18:00 it "
                "stays under 7 seconds, so an evening final sync would be safer.\n\nSofia",
                "files": [("atlas_replica_lag.csv", _REPLICA_CSV)],
            },
        ],
    },
    "q2-headcount": {
        "subject": "Q2 headcount plan",
        "labels": ["Hiring"],
        "messages": [
            {
                "from": "me",
                "to": ["nora.patel"],
                "cc": ["marcus.reed"],
                "at": (14, "16:00"),
                "body": "Hi Nora,\n\nCan you pull together the Q2 headcount requests by department? I'd like to "
                "review them before the board deck.\n\nAlex",
            },
            {
                "from": "nora.patel",
                "to": ["me"],
                "cc": ["marcus.reed"],
                "at": (11, "12:25"),
                "body": "Here you go: 7 requested in total (Engineering 3, Sales 2, Customer Success 1, "
                "Marketing 1). Marcus has approved 4 so far.\n\nNora",
                "files": [("q2_headcount_requests.csv", _HEADCOUNT_CSV)],
            },
        ],
    },
}

_DRAFTS: list[dict[str, Any]] = [
    {
        "thread": "contoso",
        "to": ["isabella.rossi"],
        "cc": ["james.okafor"],
        "subject": "Re: Contoso renewal - pricing approval needed",
        "body": f"Isabella,\n\nApproved on my side: 3 years at {CONTOSO_RENEWAL} a year, fixed for all three years. "
        "Net 45 is fine once Marcus confirms.\n\nAlex",
        "at": (4, "18:30"),
    },
    {
        "to": ["nora.patel"],
        "cc": ["marcus.reed"],
        "subject": "Q2 headcount plan - revised",
        "body": "Nora,\n\nRevised numbers attached: Engineering 2, Sales 1, Customer Success 1, Marketing 0. "
        "Let's discuss at our 1:1.\n\nAlex",
        "files": [("q2_headcount_revised.csv", _HEADCOUNT_CSV)],
        "at": (2, "20:15"),
    },
    {
        "to": [],
        "subject": "Board deck notes",
        "body": f"- Operating plan: Q1 forecast, Marketing Events over by {MARKETING_OVERRUN}\n"
        "- Hiring: 4 of 7 Q2 requests approved\n"
        f"- Atlas: cutover {ATLAS_CUTOVER}, {ATLAS_WINDOW}; 4-hour fallback window",
        "at": (1, "21:40"),
    },
    {
        "to": ["ruby.walker"],
        "cc": ["amelia.ward"],
        "subject": "Offsite dinner options",
        "body": f"Hi Ruby,\n\nFor the Wednesday dinner at {OFFSITE_VENUE}, could you ask them for a private dining "
        f"room for the {OFFSITE_PEOPLE} of us? Dinner is at 19:00.\n\nAlex",
        "at": (9, "12:00"),
    },
]

# (department of the sender, subject, body); {sender} is the sender's first name, {account} a customer.
_FILLER_RECEIVED: list[tuple[str, str, str]] = [
    (
        "Finance",
        "Month-end close checklist",
        "Hi Alex,\n\nThe close checklist for last month is done except the "
        "Chicago office accruals, which should land tomorrow.\n\n{sender}",
    ),
    (
        "Finance",
        "Vendor payment run this Friday",
        "Hi Alex,\n\nThe next vendor payment run goes out Friday. Invoices from $5,000 to $25,000 need my "
        "or Owen's approval by Thursday noon; tell me if anything should be held back.\n\n{sender}",
    ),
    (
        "Finance",
        "Travel policy question",
        "Alex, quick one: does the new travel policy allow premium economy on "
        "flights over 6 hours? Two people in Sales asked.\n\n{sender}",
    ),
    ("Finance", "{account} invoice paid", "FYI - {account} paid their open invoice in full this morning.\n\n{sender}"),
    (
        "Finance",
        "Corporate card limits",
        "Hi Alex,\n\nWe are raising the standard corporate card limit to $7,500 "
        "from next month. Let me know if the Executive team needs exceptions.\n\n{sender}",
    ),
    (
        "Engineering",
        "Incident summary: INC-3021 checkout outage",
        "Hi Alex,\n\nYesterday from 14:06 to 14:53 ET checkout was down (INC-3021): a certificate on the "
        "payments adapter expired. It is renewed and Mia is writing the postmortem.\n\n{sender}",
    ),
    (
        "Engineering",
        "On-call handoff notes",
        "Handoff from this week's on-call (Ava and Sofia): two pages, both noise from the disk alert. "
        "Tuning it on Monday.\n\n{sender}",
    ),
    (
        "Engineering",
        "Design review: customer portal search",
        "Hi Alex,\n\nThe design review for portal search is "
        "on Thursday at 13:00. The doc is linked in the invite if you want to skim it.\n\n{sender}",
    ),
    (
        "Engineering",
        "Quick question about Atlas access",
        "Alex, do you still need admin access to the old cluster "
        "after the cutover? If not I'll remove it with everyone else's.\n\n{sender}",
    ),
    (
        "Engineering",
        "Dependency updates this sprint",
        "FYI - we are updating the payment library this sprint; no customer-facing change expected.\n\n{sender}",
    ),
    (
        "Engineering",
        "Hackathon ideas",
        "Hi Alex,\n\nWe're collecting ideas for the April hackathon. Anything you'd love to see built?\n\n{sender}",
    ),
    (
        "Sales",
        "Deal desk request: {account}",
        "Hi Alex,\n\n{account} asked for a 10% discount on a 2-year deal. "
        "Deal desk is fine with it; need your OK for anything above 8%.\n\n{sender}",
    ),
    (
        "Sales",
        "Pipeline question on Fabrikam",
        "Alex, Fabrikam pushed their decision to next quarter, so Benjamin has moved the close date to April 30. "
        "Should we take it out of the Q1 forecast?\n\n{sender}",
    ),
    (
        "Sales",
        "Security questionnaire for {account}",
        "Hi Alex,\n\n{account} sent a 140-question security "
        "questionnaire. Kai is helping; we need it back within two weeks.\n\n{sender}",
    ),
    (
        "Sales",
        "Customer dinner in Chicago",
        "Hi Alex,\n\nWould you join a dinner with {account} while you're in "
        "Chicago? Their COO will be there.\n\n{sender}",
    ),
    (
        "Sales",
        "Pricing calculator feedback",
        "The new pricing calculator saves us a lot of back and forth. Two small bugs logged already.\n\n{sender}",
    ),
    (
        "Marketing",
        "Website refresh - homepage copy",
        "Hi Alex,\n\nNew homepage copy is ready for review. We kept "
        "it short: one headline, three proof points.\n\n{sender}",
    ),
    (
        "Marketing",
        "Webinar series dates",
        "FYI - the webinar series is set: April 15 with Contoso's VP of Operations, May 13 with Litware, "
        "June 10 a customer panel. Registration opens three weeks before each one.\n\n{sender}",
    ),
    (
        "Marketing",
        "Customer story: Contoso",
        "Hi Alex,\n\nThe Contoso customer story is ready except their legal sign-off on the logo. Henry is "
        "chasing it through Ryan Cooper. Could you be quoted in the press release?\n\n{sender}",
    ),
    (
        "Marketing",
        "Brand voice guide",
        "Jack's brand voice guide and logo notes are in Marketing > Brand. Main point: the product is always "
        "Northwind Live.\n\n{sender}",
    ),
    (
        "People",
        "Interview refresher for panelists",
        "Hi Alex,\n\nA refresher on structured interviews for panelists "
        "runs next Wednesday at 15:00. Optional but encouraged.\n\n{sender}",
    ),
    (
        "People",
        "Welcome chats for the April joiners",
        "Hi Alex,\n\nIf both REQ-1042 offers are accepted, the two engineers start on April 13. Would you do a "
        "15-minute welcome chat on their first afternoon?\n\n{sender}",
    ),
    (
        "People",
        "Engagement survey results",
        "Hi Alex,\n\nThe engagement survey closed with an 86% response rate. Summary coming next week.\n\n{sender}",
    ),
    (
        "People",
        "Manager check-ins this quarter",
        "Reminder: quarterly check-ins with your direct reports should be logged by the end of the month.\n\n{sender}",
    ),
    (
        "Operations",
        "New printer on 4th floor",
        "FYI - the new printer on the 4th floor is set up. Scan to email works too.\n\n{sender}",
    ),
    (
        "Operations",
        "Badge access for visitors",
        "Hi Alex,\n\nVisitors now need to be registered a day ahead at the "
        "front desk. Let me know if you expect guests this week.\n\n{sender}",
    ),
    (
        "Operations",
        "Office closure on Presidents' Day",
        "Hi all,\n\nThe New York and Chicago offices are closed "
        "on Presidents' Day. Building security remains on site.\n\n{sender}",
    ),
    (
        "Operations",
        "Shipping carrier review",
        "Hi Alex,\n\nBefore the Fabrikam Logistics renewal talks on March 25 we are comparing their rates "
        "with two other carriers. First results next week.\n\n{sender}",
    ),
    (
        "Operations",
        "Conference room booking changes",
        "Room bookings longer than 2 hours now need a reason in the "
        "invite. Room 4B stays bookable for interviews first.\n\n{sender}",
    ),
    (
        "Legal",
        "Contract review queue",
        "Hi Alex,\n\nThere are 6 contracts in the review queue; 2 are urgent "
        "({account} and a reseller agreement).\n\n{sender}",
    ),
    (
        "Legal",
        "Trademark filing update",
        "FYI - the trademark for our new product name was filed; expect about 8 months to registration.\n\n{sender}",
    ),
    (
        "Legal",
        "Data processing addendum for {account}",
        "Hi Alex,\n\n{account} asked for changes to our data "
        "processing addendum. Nothing unusual; I'll handle it.\n\n{sender}",
    ),
    (
        "Customer Success",
        "Renewal risk: Adventure Works",
        "Hi Alex,\n\nAdventure Works usage dropped 30% this month, two months before their renewal. "
        "Ryan set up a call with their admin to find out why.\n\n{sender}",
    ),
    (
        "Customer Success",
        "Customer feedback roundup",
        "Top three asks this month: bulk order import, carrier tracking, SSO for contractors.\n\n{sender}",
    ),
    (
        "Customer Success",
        "Support queue update",
        "FYI - support backlog is down to 23 tickets; median first response 1h 50m.\n\n{sender}",
    ),
    (
        "Customer Success",
        "Litware onboarding complete",
        "Hi Alex,\n\nLitware's new Denver team finished onboarding a week early. They have 120 active users "
        "now.\n\n{sender}",
    ),
    (
        "Executive",
        "Staff meeting agenda",
        "Hi Alex,\n\nAgenda for Tuesday's staff meeting: Q1 forecast, offsite, hiring. Anything to add?\n\n{sender}",
    ),
    (
        "Executive",
        "Thank-you note from Litware",
        "Alex - Litware sent a kind note about the support team. "
        "Forwarding the gist: fast, friendly, fixed it.\n\n{sender}",
    ),
    (
        "Finance",
        "Audit firm selection",
        "Hi Alex,\n\nWe received three proposals for next year's financial audit. "
        "I'll summarize fees and timelines next week.\n\n{sender}",
    ),
    (
        "Engineering",
        "Status page wording",
        "Hi Alex,\n\nCould you look over the wording for status page notices? "
        "We want them plain and short.\n\n{sender}",
    ),
    (
        "Sales",
        "Referral from {account}",
        "Hi Alex,\n\n{account} referred a partner of theirs. First call is next Tuesday.\n\n{sender}",
    ),
    (
        "Marketing",
        "Event booth for SaaSConnect",
        "Hi Alex,\n\nWe reserved a small booth at SaaSConnect in Austin. "
        "Would you speak on the partner panel?\n\n{sender}",
    ),
    (
        "People",
        "Lunch & learn: negotiating with vendors",
        "Hi all,\n\nThis month's lunch & learn is on negotiating "
        "with vendors, Thursday 12:30 in the Main Hall. Lunch provided.\n\n{sender}",
    ),
    (
        "Customer Success",
        "Quarterly review schedule",
        "Hi Alex,\n\nHere is the QBR schedule for this quarter: Tailspin Toys on March 6, Litware on March 12 "
        "and Adventure Works later in March.\n\n{sender}",
    ),
    (
        "Operations",
        "Parking changes in Chicago",
        "FYI - the Chicago garage moves to app-based entry on the 1st.\n\n{sender}",
    ),
    (
        "Legal",
        "Policy reminder: document retention",
        "Hi all,\n\nA reminder that contracts are kept for 7 years after "
        "they end. Please don't delete signed copies.\n\n{sender}",
    ),
]

# (recipient ids, subject, body); {first} is the first recipient's first name.
_FILLER_SENT: list[tuple[list[str], str, str]] = [
    (
        ["james.okafor", "marcus.reed", "elena.petrova", "zoe.adams", "nora.patel"],
        "Staff meeting agenda - Tuesday",
        "Hi all,\n\nTuesday's staff meeting: Q1 forecast, SOC 2 audit owners, offsite logistics.\n\nAlex",
    ),
    (
        ["daniel.wright"],
        "Pipeline report format",
        "Hi {first},\n\nCould the weekly pipeline report also show the "
        "expected close date? That would help the board slides.\n\nAlex",
    ),
    (
        ["amelia.ward"],
        "Dana's travel to Chicago",
        "Hi {first},\n\nDana will join my Chicago trip, March 31 to April 2. Please book her on the same "
        "flights once Tailspin Travel confirms mine.\n\nAlex",
    ),
    (
        ["isaac.king"],
        "Reseller agreement",
        "Hi {first},\n\nWhere are we with the reseller agreement? Sales is asking.\n\nAlex",
    ),
    (
        ["olivia.baker"],
        "Customer advisory board",
        "Hi {first},\n\nFor the customer advisory board idea, I'd start with Contoso, Litware and "
        "Adventure Works.\n\nAlex",
    ),
    (
        ["priya.shah"],
        "Expense policy exceptions",
        "Hi {first},\n\nPlease send me the list of expense policy exceptions from last quarter.\n\nAlex",
    ),
    (
        ["elena.petrova"],
        "Engineering offsite attendance",
        "Hi {first},\n\nWill both engineering managers join the leadership offsite, or just you?\n\nAlex",
    ),
    (
        ["ella.moore"],
        "Interview panel refresher",
        "Hi {first},\n\nThanks for organizing the panel refresher. I'll be there on Wednesday.\n\nAlex",
    ),
    (
        ["zoe.adams"],
        "Marketing budget",
        f"Hi {{first}},\n\nMarketing Events is running {MARKETING_OVERRUN} over its Q1 line. Could you bring "
        "a plan to cover it to tomorrow's budget review?\n\nAlex",
    ),
    (
        ["victor.alvarez"],
        "Office move-in checklist",
        "Hi {first},\n\nCan you share the checklist from the last "
        "office move? I'd like to reuse it if we go with the Kinzie option.\n\nAlex",
    ),
    (
        ["kai.nakamura"],
        "Security keys for the executive team",
        "Hi {first},\n\nCan you do a 10-minute walkthrough of the security keys at the next staff meeting?\n\nAlex",
    ),
    (
        ["ruby.walker"],
        "Visitors on Thursday",
        "Hi {first},\n\nTwo visitors from Contoso on Thursday at 10:00. "
        "Could you register them at the front desk?\n\nAlex",
    ),
    (
        ["lily.turner"],
        "Launch customer story",
        "Hi {first},\n\nI spoke with Wingtip Toys; they are open to a "
        "customer story after the pilot's first month.\n\nAlex",
    ),
    (
        ["dana.whitfield"],
        "Weekly update",
        "Hi {first},\n\nThis week: Contoso renewal talks are starting, Atlas staging is on track, and the "
        "offsite is heading for late April.\n\nAlex",
    ),
    (
        ["grace.kim"],
        "Travel spend by month",
        "Hi {first},\n\nCould you add a month-by-month view of travel spend to the expense summary?\n\nAlex",
    ),
]


def _pipeline_csv(monday: date) -> str:
    """A weekly pipeline snapshot: the open deals as they stood that Monday.

    The snapshot of March 9 matches the drive's "Sales pipeline Q1.csv"; older weeks show each deal's
    earlier stage, amount or close date.
    """

    def since(day: str) -> bool:
        return monday >= date.fromisoformat(day)

    deals = [
        ("Contoso Ltd", "Renewal", 444960 if since("2026-03-09") else 432000, "2026-03-31", "Isabella Rossi"),
        ("Fabrikam Inc", "Proposal", 96000, "2026-04-30" if since("2026-03-09") else "2026-03-27", "Benjamin Clark"),
        ("Tailspin Toys", "Negotiation" if since("2026-02-16") else "Proposal", 58000, "2026-03-20", "Isabella Rossi"),
    ]
    if since("2026-02-09"):
        deals.append(("Alpine Ski House", "Discovery", 42000, "2026-04-30", "Harper Lewis"))
    coho_stage = "Proposal" if since("2026-02-09") else "Discovery"
    deals.append(("Coho Winery", coho_stage, 23000, "2026-03-25", "Benjamin Clark"))
    if since("2026-02-23"):
        deals.append(("Woodgrove Bank", "Qualified", 120000, "2026-05-29", "Isabella Rossi"))
    else:  # the Wingtip Toys pilot was signed on February 20
        deals.append(("Wingtip Toys", "Negotiation", 48000, "2026-02-27", "Benjamin Clark"))
    rows = ["account,stage,amount_usd,expected_close,owner"]
    rows += [",".join(str(v) for v in deal) for deal in deals]
    return "\n".join(rows) + "\n"


def _keep_draws(rng: random.Random) -> None:
    """Draw the numbers an older random pipeline snapshot drew, so later mail keeps its dates and ids."""
    for _ in rng.sample(range(len(_ACCOUNTS)), 5):
        rng.choice(range(4))
        rng.choice(range(4))
        rng.randrange(20, 200)
        rng.choice(range(3))
