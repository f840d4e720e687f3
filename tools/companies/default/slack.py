"""The chat's part of the default company on Monday March 9, 2026: channels, messages, files and statuses."""

# Authored, not generated: every message agrees with tools.companies.default.facts and with the mail,
# calendar and drive data (the Atlas cutover on Saturday April 18, INV-20417, the Contoso renewal,
# the April offsite at Lakeside Lodge, the Q1 budget review, hiring for REQ-1042 and REQ-1048, ...).
# Message ids (msg_0001 ...) follow the order in which the messages were posted.

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    ATLAS_GO_NO_GO,
    ATLAS_WINDOW,
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
from tools.kernel.documents import make_docx, make_pdf, make_png, make_xlsx, mime_type_for

__all__ = ["build"]

_TZ = ZoneInfo("America/New_York")


def _at(when: str, year: int = 2026) -> datetime:
    """``"03-06 13:25"`` -> 2026-03-06 13:25 in New York."""
    day, clock = when.split()
    month, dom = (int(x) for x in day.split("-"))
    hour, minute = (int(x) for x in clock.split(":"))
    return datetime(year, month, dom, hour, minute, tzinfo=_TZ)


# ---- channels ---------------------------------------------------------------------------------
# (id, name, kind, creator, created, topic, purpose, members: "ALL" or first names)

_CHANNELS: list[tuple[str, str, str, str, str, str, str, str]] = [
    ("ch_general", "general", "public", "dana", "2019-04-01",
     "Company-wide announcements. March all-hands: Thursday March 12, 16:00 ET, Main Hall and video.",
     "Announcements and news for everyone at Northwind Traders.", "ALL"),
    ("ch_random", "random", "public", "dana", "2019-04-01",
     "Lunch plans, pets and everything else", "Non-work chat and the water cooler.", "ALL"),
    ("ch_atlas_cutover", "atlas-cutover", "public", "liam", "2026-01-12",
     f"Production cutover {ATLAS_CUTOVER}, {ATLAS_WINDOW} | go/no-go {ATLAS_GO_NO_GO} | runbook pinned",
     "Coordinating the move of the order and inventory services onto Atlas.",
     "liam elena sofia noah ava ethan mia lucas chloe kai alex david olivia"),
    ("ch_ops", "ops", "public", "victor", "2021-06-14",
     "Facilities, IT and purchasing | Ops sync Thursdays 11:00, Room 4B",
     "Day-to-day operations: offices, vendors, IT and purchasing.", "victor ruby leo maya alex amelia kai"),
    ("ch_finance", "finance", "public", "marcus", "2020-02-03",
     "Q1 budget: final numbers to Marcus by Friday March 13, noon | invoices $5,000-$25,000: Priya or Owen",
     "Budgets, invoices, approvals and the month-end close.", "marcus priya owen grace tomas alex"),
    ("ch_sales", "sales", "public", "james", "2020-02-03",
     "Q1 pipeline review: Friday March 20, 15:00, Room 3C", "Deals, pipeline and customer wins.",
     "james isabella benjamin harper daniel olivia ryan emma"),
    ("ch_offsite_2026", "offsite-2026", "public", "alex", "2026-01-20",
     f"{OFFSITE_VENUE}, Cold Spring NY | Wed-Fri {OFFSITE_DATES} | booking {OFFSITE_BOOKING}",
     "Planning the 2026 leadership offsite.", "alex amelia ruby dana marcus nora victor"),
    ("ch_hiring", "hiring", "public", "samuel", "2021-03-01",
     "Open roles: see Open roles 2026.csv on the drive | debriefs within 24 hours",
     "Requisitions, interview loops and offers.",
     "samuel nora ella liam ethan james zoe victor olivia priya alex elena"),
    ("ch_it_help", "it-help", "public", "leo", "2020-05-11",
     "Security keys required from Monday March 16 | laptop refresh choices due Friday March 13",
     "Ask IT anything: access, laptops, Wi-Fi, software.", "ALL"),
    ("ch_leadership", "leadership", "private", "dana", "2022-01-10",
     "Exec staff Tuesdays 14:00, Hudson Room | board meeting Wednesday April 29",
     "Private channel for the leadership team.",
     "dana alex marcus elena james zoe nora victor isaac olivia amelia"),
    ("ch_contoso_renewal", "contoso-renewal", "public", "isabella", "2026-02-16",
     f"{CONTOSO_CONTRACT} ends March 31 | pricing sign-off by {CONTOSO_SIGN_OFF} | legal comments by March 16",
     "Contoso Ltd renewal: pricing, terms and paperwork.",
     "isabella maya james marcus alex isaac hannah daniel ryan emma olivia"),
    ("ch_marketing", "marketing", "public", "zoe", "2020-02-03",
     "Spring launch April 7 | launch review Monday March 16, 15:00, Harbor Room",
     "Campaigns, content, brand and events.", "zoe henry lily jack"),
    ("ch_people_ops", "people-ops", "private", "nora", "2021-09-01",
     "Benefits open enrollment closes Friday March 20", "People team: benefits, policies, reviews.",
     "nora samuel ella"),
    ("ch_offsite_2025", "offsite-2025", "public", "alex", "2025-01-15",
     "Leadership offsite 2025: May 14-15, Mill River Conference Center, Stamford CT",
     "Planning the 2025 leadership offsite.", "alex amelia dana ruby"),
    ("dm_dana", "", "dm", "dana", "2024-05-01", "", "", "alex dana"),
    ("dm_priya", "", "dm", "priya", "2024-06-17", "", "", "alex priya"),
    ("dm_amelia_ruby", "", "group_dm", "amelia", "2026-01-21", "", "", "alex amelia ruby"),
]  # fmt: skip

_ARCHIVED = {"ch_offsite_2025"}


# ---- files ------------------------------------------------------------------------------------


def _variance_workbook() -> bytes:
    lines = [
        ("Engineering", "Cloud hosting", 186000, 131400, "Atlas migration credits applied in February"),
        ("Engineering", "Software licenses", 42000, 39850, ""),
        ("Engineering", "Contractors", 60000, 48200, "Two contractors through March 31"),
        ("Marketing", "Events", 48000, 61250, "Spring launch booth upsized; over budget"),
        ("Marketing", "Paid media", 75000, 52300, ""),
        ("Marketing", "Content production", 18000, 11900, ""),
        ("Sales", "Travel", 36000, 24780, "10% cut for the rest of Q1 under review"),
        ("Sales", "Sales tools", 22000, 21400, ""),
        ("People", "Recruiting fees", 45000, 30500, "No recruiter fees on two hires"),
        ("People", "Benefits administration", 12000, 8000, ""),
        ("Operations", "Facilities", 94000, 70150, "Chicago lease renewal pending"),
        ("Operations", "IT equipment", 28000, 26920, "Laptop refresh for new hires"),
        ("Finance", "Audit and tax", 40000, 12500, "Audit fieldwork starts April 6"),
        ("Executive", "Leadership offsite", 38500, 4000, "Deposit paid to Lakeside Lodge"),
    ]
    detail: list[list[Any]] = [
        ["Department", "Category", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)", "Variance (%)", "Notes"]
    ]
    totals: dict[str, list[int]] = {}
    for dept, cat, budget, actual, note in lines:
        variance = budget - actual
        detail.append([dept, cat, budget, actual, variance, round(100 * variance / budget, 1), note])
        t = totals.setdefault(dept, [0, 0])
        t[0] += budget
        t[1] += actual
    summary: list[list[Any]] = [["Department", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)"]]
    summary += [[d, b, a, b - a] for d, (b, a) in totals.items()]
    all_b, all_a = sum(t[0] for t in totals.values()), sum(t[1] for t in totals.values())
    summary.append(["Total", all_b, all_a, all_b - all_a])
    notes = [
        ["Prepared by", "Grace Kim"],
        ["Source", "Q1 budget review draft numbers (Priya Shah, March 3)"],
        ["Final numbers due", "Friday March 13, noon, to Marcus Reed"],
        ["Over budget", f"Marketing Events, {MARKETING_OVERRUN} over (spring launch booth)"],
    ]
    return make_xlsx({"Q1 variance": detail, "Summary": summary, "Notes": notes})


def _cutover_checklist() -> bytes:
    return make_pdf(
        "Atlas cutover checklist",
        [
            f"Cutover: {ATLAS_CUTOVER}, {ATLAS_WINDOW}. Fallback window: 4 hours after the switch.",
            f"Go/no-go call: {ATLAS_GO_NO_GO}. Deploy freeze from Friday April 17, 06:00 ET.",
            "Full dry run on the staging copy: Wednesday March 11 at 16:00 ET.",
            "Roles: incident lead Liam Chen; runbook Mia Thompson; on call Mia Thompson (primary),",
            "Noah Williams (secondary); checkout error dashboard: owner to be named.",
            "[ ] T-24h  deploys frozen on order and inventory services",
            "[ ] T-2h   announce in #atlas-cutover; confirm on-call coverage",
            "[ ] T-0    legacy order database read-only",
            "[ ] Final replication; row counts match for orders, order_lines, stock_levels",
            "[ ] DNS for orders.internal switched to the Atlas load balancer (TTL 60 s)",
            "[ ] Smoke checks: test order placed, stock reserved, order cancelled",
            "Fallback trigger: checkout errors above 2% for 10 minutes -> DNS back to legacy.",
        ],
    )


def _lodge_confirmation() -> bytes:
    return make_pdf(
        f"{OFFSITE_VENUE} - booking confirmation {OFFSITE_BOOKING}",
        [
            "Guest: Northwind Traders (contact: Ruby Walker, Office Manager).",
            f"Dates: Wednesday April 22 to Friday April 24, 2026 ({OFFSITE_DATES}), 2 nights.",
            f"Group: {OFFSITE_PEOPLE} guests, single rooms, all meals, the Lakeview meeting room and AV",
            "(two projectors and a video bar).",
            "Total: $38,500 all in. Deposit: $4,000 (invoice INV-20441).",
            "Arrival by coach from Grand Central around 11:45; check-in from 12:00.",
            "Kitchen needs dietary requirements by Friday April 3.",
        ],
    )


def _scorecard() -> bytes:
    return make_docx(
        "Interview scorecard - Chief of Staff Associate (REQ-1045)",
        [
            "Rate each area from 1 (weak) to 4 (exceptional) and add one example for every score.",
            "Submit before the debrief; debriefs happen within 24 hours of the final interview.",
        ],
        table=[
            ["Area", "What good looks like", "Score (1-4)", "Example"],
            ["Structured thinking", "Breaks an ambiguous problem into a plan with owners and dates", "", ""],
            ["Written communication", "A one-page memo a busy executive can act on", "", ""],
            ["Stakeholder management", "Moves work forward across teams without authority", "", ""],
            ["Judgment", "Knows what to escalate to the Chief of Staff and what to decide", "", ""],
        ],
    )


def _key_guide() -> bytes:
    return make_pdf(
        "Security key setup",
        [
            "From Monday March 16, 2026, signing in to email, files and the admin consoles needs a",
            "hardware security key.",
            "1. Pick up your key at the IT desk (New York, 3rd floor). Remote staff: Leo Hall ships keys.",
            "2. Open the IT portal and choose 'Security keys'.",
            "3. Insert the key, touch it when it blinks, and name it (for example 'Blue key').",
            "4. Register a second method (the authenticator app) as a backup.",
            "Lost key? Tell IT in #it-help the same day; the key is disabled within the hour.",
            "Questions: Kai Nakamura (Security) or Leo Hall (IT).",
        ],
    )


# key: (file id, name, title, builder)
_FILES: dict[str, tuple[str, str, str, Callable[[], bytes]]] = {
    "variance": ("file_q1_variance", "Q1 budget variance.xlsx", "Q1 budget variance - first pass", _variance_workbook),
    "checklist": ("file_atlas_checklist", "Atlas cutover checklist.pdf", "Atlas cutover checklist",
                  _cutover_checklist),
    "render": ("file_booth_render", "Spring launch booth render.png", "Booth render 20x20",
               lambda: make_png(640, 400, (31, 94, 168))),
    "lodge": ("file_lodge_confirmation", f"Lakeside Lodge confirmation {OFFSITE_BOOKING}.pdf",
              "Lakeside Lodge booking confirmation", _lodge_confirmation),
    "scorecard": ("file_scorecard_req1045", "Interview scorecard - Chief of Staff Associate.docx",
                  "Scorecard template (REQ-1045)", _scorecard),
    "keys": ("file_security_key_guide", "Security key setup.pdf", "Security key setup", _key_guide),
    "offsite_photo": ("file_offsite_2025_photo", "Offsite 2025 group photo.png", "Group photo, Stamford",
                      lambda: make_png(800, 500, (64, 128, 96))),
}  # fmt: skip


# ---- messages ---------------------------------------------------------------------------------
# A thread: (when, who, text, options). Options: react {emoji: "first names"}, pin "first name",
# files (keys of _FILES), edited "MM-DD HH:MM", replies [(when, who, text[, options])].

Thread = tuple[str, str, str, dict[str, Any]]


def t(when: str, who: str, text: str, **opts: Any) -> Thread:
    """One authored message (and, through ``replies=``, its thread)."""
    return (when, who, text, opts)


# fmt: off
_GENERAL: list[Thread] = [
    t("02-17 10:02", "nora", "Benefits open enrollment is open until Friday March 20. Ella is running drop-in "
      "Q&A sessions on Tuesdays at 12:30; details in your inbox.",
      react={"+1": "ryan emma samuel ava"},
      replies=[("02-17 10:15", "ryan", "Does the dental plan change this year?"),
               ("02-17 10:31", "ella", "Same carrier, slightly lower deductible. The comparison sheet is in the "
                "enrollment email.")]),
    t("02-20 16:12", "benjamin", "Wingtip Toys signed a 6-month pilot worth $48,000, starting April 1! :tada: "
      "Thanks Harper and Daniel for the legwork.",
      react={"tada": "james dana harper daniel alex zoe olivia isabella", "raised_hands": "marcus ryan"},
      replies=[("02-20 16:20", "james", "Huge. Great work, Ben."),
               ("02-20 16:31", "dana", "Well done, team!")]),
    t("02-21 15:05", "leo", "Heads-up: email and calendar maintenance on Saturday night. Expect short blips; "
      "nothing to do on your side."),
    t("02-25 11:00", "olivia", "Shout-out to Emma and David: support closed 42 tickets this week with no "
      "escalations.", react={"clap": "ryan emma david dana"}),
    t("02-27 17:15", "dana", "Happy Friday. The inventory service is fully on Atlas and Wingtip Toys signed. "
      "Great week, everyone.", react={"heart": "alex amelia elena liam", "rocket": "lucas sofia"}),
    t("03-02 08:22", "hannah", "Policy reminder: the document retention policy applies to chat too. Please keep "
      "customer contracts in the drive, not in DMs."),
    t("03-02 13:40", "ella", "Lunch & learn this Thursday at 12:30 in the Main Hall: negotiating with vendors, "
      "with Maya Young. Lunch provided.", react={"pizza": "owen tomas samuel"}),
    t("03-04 09:30", "ella", "Manager check-ins this quarter: your manager books 30 minutes with you before "
      "March 27.", react={"+1": "nora samuel"}),
    t("03-06 12:05", "zoe", "The spring launch is April 7. Teaser posts go out Monday March 30; please reshare "
      "them.", react={"rocket": "lily jack henry james"},
      replies=[("03-06 12:20", "james", "Sales will share with every open opportunity."),
               ("03-06 12:26", "zoe", "Perfect, thanks James.")]),
    t("03-04 14:05", "leo", "Laptop refresh: if your laptop is due, choose your model by Friday March 13. "
      "Pickup from the IT desk (3rd floor) the week of March 23. Questions in #it-help."),
    t("03-05 10:02", "kai", "From Monday March 16, signing in to email, files and the admin consoles needs a "
      "hardware security key. Keys are at the IT desk (New York, 3rd floor); register yours in the IT portal "
      "under 'Security keys'. Anyone not registered by March 16 is locked out until IT resets them.",
      pin="kai", react={"+1": "leo alex dana", "eyes": "noah lucas"},
      replies=[("03-05 10:20", "noah", "I'm remote - can mine be mailed?"),
               ("03-05 10:26", "leo", "Yes, I'm shipping keys to everyone who works remotely this week. "
                "Tracking numbers by DM.")]),
    t("03-06 17:12", "dana", "Friday note: Contoso is close to renewing, Atlas is on schedule for the "
      f"{ATLAS_CUTOVER} cutover, and two engineering offers are out. Thank you all.",
      react={"heart": "alex amelia nora zoe james", "clap": "elena marcus"}),
    t("03-06 17:36", "maya", "FYI the new printer on the 4th floor is set up. Scan to email works too.",
      react={"printer": "ruby"}),
    t("03-09 08:30", "amelia", "Reminder: the March all-hands is this Thursday, March 12 at 16:00 ET in the "
      "Main Hall and on video. Questions for Dana to Alex by Wednesday.",
      pin="amelia", react={"+1": "nora samuel ruby", "calendar": "victor"}),
]

_RANDOM: list[Thread] = [
    t("02-18 12:10", "jack", "Taco place on 3rd Ave today? Leaving at 12:30.",
      replies=[("02-18 12:12", "henry", "In."), ("02-18 12:40", "lily", "Jealous from Denver.")]),
    t("02-20 09:40", "ava", "My cat discovered the standing desk button. We are now at maximum height.",
      react={"joy": "sofia noah liam chloe", "cat": "mia"}),
    t("02-24 15:20", "ruby", "Cake in the 4th-floor kitchen for the February birthdays :birthday:",
      react={"cake": "samuel owen amelia"},
      replies=[("02-24 15:31", "owen", "Thank you Ruby!")]),
    t("03-02 10:30", "david", "14 people at the Saturday run club in SF. Next one is March 14, 8am at the Marina.",
      react={"runner": "chloe mia kai"}, replies=[("03-02 10:45", "chloe", "I'm in for the 14th.")]),
    t("03-04 16:45", "ava", "Collecting ideas for the April hackathon. Reply in the thread!",
      replies=[("03-04 16:52", "lucas", "A replication lag heatmap for Atlas."),
               ("03-04 17:05", "sofia", "Self-serve test data for the order service."),
               ("03-04 17:30", "chloe", "A flaky-test leaderboard :smiling_imp:",
                {"react": {"joy": "ava noah"}})]),
    t("03-05 12:55", "daniel", "Anyone know a good spot for a customer dinner in Chicago? Eight people, quiet "
      "enough to talk.",
      replies=[("03-05 13:10", "benjamin", "The place on Kinzie by the office has a private room for ten."),
               ("03-05 13:12", "harper", "+1, and they do a vegetarian tasting menu.")]),
    t("03-06 12:30", "emma", "Book club for March: 'The Goal'. We meet March 27 on video.",
      react={"books": "ryan lily grace"},
      replies=[("03-06 12:40", "grace", "I'm in."), ("03-06 12:52", "owen", "Me too, if I finish it.")]),
    t("03-06 16:40", "samuel", "Whoever left the sourdough starter in the 4th-floor fridge: it is alive and "
      "growing.", react={"joy": "ruby amelia jack henry"}),
    t("03-09 08:15", "harper", "Donuts on 11 in Chicago this morning!", react={"doughnut": "tomas grace benjamin"}),
]

_ATLAS: list[Thread] = [
    t("01-12 10:00", "liam", "Welcome to #atlas-cutover. This channel coordinates the move of the order and "
      "inventory services onto Atlas. Plan and milestones: 'Atlas migration plan' on the drive.", pin="liam"),
    t("02-20 16:35", "liam", "Status #4 is out by email. Inventory migration on track for February 27."),
    t("02-24 11:00", "lucas", "Inventory rehearsal on staging done: 0 row mismatches across 4.2M stock_levels "
      "rows.", react={"white_check_mark": "liam mia sofia"},
      replies=[("02-24 11:12", "mia", "Nice. Same comparison for orders during the dry run.")]),
    t("02-27 16:40", "liam", "The inventory service is fully on Atlas as of today :rocket: Thanks Lucas and Sofia.",
      react={"rocket": "elena sofia lucas mia alex", "tada": "ethan kai"},
      replies=[("02-27 16:55", "elena", "Great milestone. Same discipline for orders, please.")]),
    t("03-02 09:05", "ava", "Smoke checks for step 6 (test order, reserve stock, cancel) are scripted; the dry "
      "run will use them.",
      replies=[("03-02 09:20", "chloe", "I'll add the cancel-order path to the regression suite too.")]),
    t("03-02 10:15", "mia", "Runbook draft is up: 'Atlas cutover runbook' on the drive (Engineering > Atlas "
      "migration). Reviews from Liam and Kai please by Thursday.", pin="mia",
      replies=[("03-02 11:02", "kai", "Will review. I'll check the egress IP step for the payment provider."),
               ("03-02 11:30", "liam", "On it.")]),
    t("03-03 08:45", "elena", f"The cutover date is set: {ATLAS_CUTOVER}, {ATLAS_WINDOW}, with a 4-hour "
      f"fallback window after the switch. Go/no-go call {ATLAS_GO_NO_GO}. Deploy freeze on the order and "
      "inventory services from Friday April 17, 06:00 ET.", pin="elena",
      react={"white_check_mark": "liam mia sofia kai ethan alex olivia", "rocket": "noah ava"},
      replies=[("03-03 09:10", "olivia", "Thanks. My team sends the maintenance notice to customers on Tuesday "
                "April 14."),
               ("03-03 09:25", "david", "I'll brief the support team the same day.")]),
    t("03-04 08:10", "sofia", "Does anyone have access to the Atlas production console yet? My request is stuck.",
      replies=[("03-04 09:02", "kai", "Approved now - it needed a security sign-off. Try again.")]),
    t("03-04 16:05", "liam", "From today's status meeting: the load test moved from March 13 to March 20 (test "
      "environment quota still pending). Replication lag on orders peaks above 20 s around midday; Sofia is "
      "tuning the connection pools.",
      replies=[("03-04 16:20", "sofia", "Target: done by Thursday March 12.")]),
    t("03-05 16:52", "mia", "Runbook updated after review. Full dry run on the staging copy: Wednesday March 11 "
      "at 16:00 ET, bridge details in the invite.", react={"+1": "liam noah ava"}),
    t("03-05 17:00", "mia", "One-page checklist version of the runbook, for the bridge.", files=("checklist",),
      react={"pray": "liam chloe"},
      replies=[("03-05 17:12", "liam", "I'll fill in the dashboard owner line once we have one.")]),
    t("03-05 19:35", "sofia", "Replica lag from Wednesday: peak 24.1 s at 12:00, under 7 s after 18:00. An "
      "evening final sync would be safer.",
      replies=[("03-05 19:50", "liam", "Agree. Mia, can we look at an evening pre-sync?"),
               ("03-05 20:05", "mia", "Yes - I'll bring a Friday-evening pre-sync proposal to the dry run.")]),
    t("03-06 10:20", "liam", "Need an owner for the checkout error dashboard during the cutover window. The "
      "fallback trigger is checkout errors above 2% for 10 minutes, so someone has to watch it from 06:00.",
      replies=[("03-06 10:31", "david", "Support can watch it until 08:00; after that we're on customer tickets."),
               ("03-06 10:44", "chloe", "I'll own it for the whole window, 06:00-10:00, and call the fallback if "
                "we cross the threshold.", {"react": {"raised_hands": "liam mia"}}),
               ("03-06 10:50", "liam", "Chloe it is - thanks! Adding you to the runbook.")]),
    t("03-06 11:30", "kai", "New egress IPs went to the payment provider this morning; their reference is "
      "CASE-48213. They confirm allow-list changes within 3 business days.",
      react={"white_check_mark": "liam mia elena"},
      replies=[("03-06 11:42", "elena", "Thanks Kai. Please post here when they confirm.")]),
    t("03-06 14:10", "ethan", "Reminder: Mia (primary) and Noah (secondary) are on call for the cutover "
      "weekend, as in the runbook."),
    t("03-06 16:35", "liam", f"Weekly status #6 is out by email: cutover confirmed for {ATLAS_CUTOVER}, "
      f"{ATLAS_WINDOW}; go/no-go {ATLAS_GO_NO_GO}; dry run Wednesday March 11 at 16:00 ET; readiness review "
      "with Dana on Tuesday March 17."),
    t("03-09 08:05", "mia", "Bridge for Wednesday's dry run: https://meet.northwind.example/atlas-dryrun (the "
      "same link on cutover day). Please join 10 minutes early.", react={"eyes": "noah ava chloe"},
      replies=[("03-09 08:20", "chloe", "Will the dry run include the fallback drill?"),
               ("03-09 08:26", "mia", "Yes, we rehearse the DNS fallback at the end.")]),
    t("03-09 08:40", "noah", "Dry-run prep: the row-count comparison for orders, order_lines and stock_levels "
      "will be ready by Tuesday.", react={"+1": "mia"}),
]

_OPS: list[Thread] = [
    t("02-23 10:15", "victor", "Parking changes in Chicago from March 1: the garage on Kinzie moves to monthly "
      "passes. Ruby has the sign-up sheet.",
      replies=[("02-23 10:30", "leo", "Does the monthly pass cover bikes?"),
               ("02-23 10:36", "ruby", "Bike racks stay free.")]),
    t("02-24 10:45", "maya", "PO-7790 for the Q1 office supplies restock is waiting for approval.",
      replies=[("02-24 12:05", "alex", "Approved by email."), ("02-24 12:10", "maya", "Thanks!")]),
    t("02-27 09:40", "victor", "Starting a shipping carrier review. Maya, can you pull last quarter's volumes?",
      replies=[("02-27 10:02", "maya", "Yes, by next Friday.")]),
    t("03-04 10:30", "ruby", "Chicago lease: I'm checking the Kinzie St floor plan for 45 desks.",
      replies=[("03-04 10:40", "victor", "Thanks. Marcus and I decide by March 31.")]),
    t("03-05 11:45", "alex", "Notes from today's ops sync are in the Operations folder. Next one is Thursday "
      "March 12 at 11:00 in Room 4B.", react={"+1": "victor ruby leo"},
      replies=[("03-05 12:02", "leo", "I'll add security key registrations to Thursday's list.")]),
    t("03-06 11:05", "ruby", "Coach booked for the offsite: leaves Grand Central at 10:30 on Wednesday April 22.",
      react={"bus": "alex amelia"}),
    t("03-06 14:30", "leo", "Two laptops are ready for the REQ-1042 hires (NW-LT-0517 and NW-LT-0518). CRM "
      "licenses renew March 28; 11 of 12 seats are in use.",
      replies=[("03-06 14:41", "victor", "Keep the 12th seat for the new AE."),
               ("03-06 14:43", "leo", "Will do.")]),
    t("03-06 15:20", "kai", "Vendor access review on Tuesday at 16:00 with Leo and Alex. I'll bring the list "
      "of vendor accounts that haven't signed in for 90 days."),
    t("03-06 17:40", "maya", "New printer on 4 is live; the old one goes to recycling on Tuesday."),
    t("03-09 08:10", "ruby", "Reminder: the 4th-floor kitchen is being deep-cleaned Wednesday morning; coffee "
      "is on 3 until noon.", react={"coffee": "amelia leo"},
      replies=[("03-09 08:22", "amelia", "Thanks for the heads-up!")]),
]

_FINANCE: list[Thread] = [
    t("02-19 14:00", "owen", "Approval limits reminder: up to $5,000 - Tomas; $5,000 to $25,000 - Priya or me; "
      "above $25,000 - Marcus. Payments run every Tuesday and Friday.", pin="owen"),
    t("02-24 09:10", "marcus", "The Q1 budget review kicked off today. Department submissions by Wednesday "
      "March 4; final numbers to me by Friday March 13.", react={"+1": "priya grace owen"}),
    t("02-25 14:45", "owen", "February close checklist is on the drive. Aiming for 4 business days again.",
      replies=[("02-25 15:02", "priya", "Thanks Owen.")]),
    t("02-27 11:25", "marcus", "Tailspin Toys paid their invoice; that receivable is cleared.",
      react={"moneybag": "priya tomas"}),
    t("03-02 06:55", "tomas", f"{INVOICE_VENDOR} sent a reminder for {INVOICE} ({INVOICE_AMOUNT}, due "
      f"{INVOICE_DUE}). It's logged and waiting for approval.",
      replies=[("03-02 08:40", "owen", "That one is Priya's to approve - it's over $5,000.")]),
    t("03-02 16:00", "tomas", "The Lakeside Lodge deposit (INV-20441, $4,000) is paid.",
      react={"white_check_mark": "alex"}),
    t("03-03 10:15", "priya", f"Draft Q1 numbers are out to Alex. Headline: Marketing Events is "
      f"{MARKETING_OVERRUN} over its line (spring launch booth upsized); every other line is under. Cloud "
      "hosting is $54,600 under thanks to the Atlas credits.",
      react={"eyes": "marcus", "+1": "owen"},
      replies=[("03-03 10:22", "grace", "I'll build the variance workbook off these."),
               ("03-03 10:25", "priya", "Thanks Grace.")]),
    t("03-04 11:30", "tomas", "Tailspin Travel INV-20436 ($4,310.75) is approved and in Friday's run."),
    t("03-04 12:15", "grace", "February expense summary is out. Travel was $41,230 in total, about half of it "
      "Sales.", replies=[("03-04 12:30", "marcus", "Sales travel is the line to watch.")]),
    t("03-05 15:50", "grace", "Q1 budget variance workbook, first pass. Sheet 'Q1 variance' has every line; "
      "'Summary' rolls it up by department.", files=("variance",), react={"+1": "priya marcus"},
      replies=[("03-06 09:20", "marcus", "Per my email: model a 10% cut to every travel line for the rest of "
                "the quarter."),
               ("03-06 09:40", "grace", "Will do by Wednesday.")]),
    t("03-06 09:10", "marcus", "Final Q1 numbers to me no later than Friday March 13, noon. They go straight into "
      "the board deck.", pin="marcus"),
    t("03-06 10:05", "owen", "Adatum Security INV-20430 ($8,750.00) is waiting for my approval; I'll get to it "
      "Monday."),
    t("03-06 11:50", "tomas", "INV-20422 Northwind Office Supply ($1,892.40) is approved and in Friday's run."),
    t("03-06 13:25", "tomas", f"{INVOICE} ({INVOICE_VENDOR}, {INVOICE_AMOUNT}) is queued for Priya's approval. "
      f"It matches {INVOICE_PO} except four expedited courier runs ($1,640) that were added after the PO. "
      "@Alex Morgan you wanted to see it before approval - any concerns? If not, I'll pay it in the Friday "
      f"March 13 run, ahead of the {INVOICE_DUE} due date.",
      react={"eyes": "priya"},
      replies=[("03-06 13:40", "priya", "Happy to approve once Alex confirms.")]),
    t("03-09 08:35", "priya", "Morning! Final numbers meeting at 11:00 in the Hudson Room. Grace, please bring "
      "the variance workbook.",
      replies=[("03-09 08:41", "grace", "Will do.")]),
]

_SALES: list[Thread] = [
    t("02-20 16:15", "benjamin", "Wingtip Toys: 6-month pilot, $48,000, starts April 1. Sponsor is Luis Ortega, "
      "their VP of Operations.", react={"tada": "james isabella harper daniel"}),
    t("02-23 08:00", "daniel", "Pipeline report for the week of February 23 is in your inbox."),
    t("02-27 11:15", "ryan", "Customer advisory board: we want 8 customers. Nominations close Wednesday "
      "March 18. So far: Contoso, Litware and Adventure Works.",
      replies=[("02-27 11:40", "isabella", "Adding Tailspin Toys once their renewal closes.")]),
    t("02-27 14:00", "emma", "Litware QBR is Thursday March 12 at 14:00 ET. Agenda draft next week."),
    t("03-02 08:00", "daniel", "Pipeline report for the week of March 2 is out."),
    t("03-03 12:20", "benjamin", "Fabrikam pushed their decision to next quarter; I moved the close date to "
      "April 30.", replies=[("03-03 12:31", "isabella", "Thanks. I'll flag it for the Q1 forecast.")]),
    t("03-04 11:35", "isabella", f"Contoso renewal pricing is with Alex, James and Marcus for sign-off by "
      f"{CONTOSO_SIGN_OFF}. Details in #contoso-renewal.",
      replies=[("03-04 11:50", "olivia", "Customer Success is ready for their new warehouse team.")]),
    t("03-05 09:55", "james", "Pricing calculator: send me any case where it picked the wrong discount tier.",
      replies=[("03-05 10:20", "daniel", "Two cases from last week; sending them over.")]),
    t("03-06 10:45", "harper", "Fabrikam sent a 140-question security questionnaire. Kai is helping; it's due "
      "back in two weeks.",
      replies=[("03-06 11:00", "benjamin", "I'll take the commercial sections."),
               ("03-06 11:02", "harper", "Thank you!")]),
    t("03-06 15:30", "james", "Q1 pipeline review: Friday March 20 at 15:00 in Room 3C. Bring your top 3 deals.",
      pin="james", replies=[("03-06 15:41", "isabella", "Will do.")]),
    t("03-09 08:00", "daniel", "Pipeline report for the week of March 9 is out.", react={"+1": "james"}),
]

_OFFSITE: list[Thread] = [
    t("01-20 10:00", "alex", "Kicking off offsite planning: three days in April, 11 people, within two hours of "
      "the city. Ruby and Amelia are on logistics.", react={"+1": "dana amelia ruby"}),
    t("02-26 14:25", "ruby", "Venue shortlist is in Alex's inbox. Lakeside Lodge is the easiest trip (75 minutes "
      "from Grand Central by coach) with all meals; Pine Ridge is cheaper but 5 hours away."),
    t("02-27 09:20", "alex", f"Decision: {OFFSITE_VENUE}, Cold Spring NY, Wednesday-Friday {OFFSITE_DATES}. "
      "Ruby, please book.", react={"tada": "dana amelia nora"},
      replies=[("02-27 13:45", "ruby", f"Booked! Confirmation {OFFSITE_BOOKING}: $38,500 all in for "
                f"{OFFSITE_PEOPLE} people (rooms, meals, AV). The $4,000 deposit invoice is with Tomas.",
                {"files": ("lodge",), "react": {"raised_hands": "alex amelia"}})],
      pin="alex"),
    t("03-02 14:05", "alex", "Agenda draft is on the drive (Shared > Offsite 2026). Comments welcome before I "
      "send it to Dana on Wednesday.",
      replies=[("03-02 14:30", "marcus", "Thursday 09:00 for the financial plan works for me.")]),
    t("03-04 09:00", "dana", "Note the board meeting moved to Wednesday April 29 because of the offsite.",
      replies=[("03-04 09:12", "amelia", "Invites are updated.")]),
    t("03-06 11:00", "ruby", "Coach: leaves Grand Central at 10:30 on Wednesday April 22; back at Grand Central "
      "around 16:00 on Friday.", react={"bus": "alex nora"}),
    t("03-06 11:20", "amelia", "Dietary needs: reply here or DM me by Friday April 3. So far: Elena vegetarian, "
      "Zoe gluten free, Olivia vegan.",
      replies=[("03-06 11:35", "nora", "No restrictions for me."), ("03-06 12:10", "dana", "None for me either.")]),
    t("03-06 14:00", "nora", "The people plan session on Thursday at 16:00 works for me."),
    t("03-09 08:20", "amelia", "Still waiting on confirmations from Victor and Olivia.",
      replies=[("03-09 08:28", "alex", "I'll nudge them at exec staff tomorrow.")]),
]

_HIRING: list[Thread] = [
    t("02-16 10:00", "samuel", "REQ-1053 Accounts Receivable Specialist (Chicago) is open. Referrals welcome.",
      replies=[("02-16 10:40", "priya", "Tomas knows a couple of people; I'll ask him to refer them.")]),
    t("03-02 09:00", "ethan", "REQ-1051 Data Engineer opens April 1; the job description is in review."),
    t("03-02 16:50", "samuel", "March pipeline is on the drive: 'Candidate pipeline March.csv'."),
    t("03-03 11:00", "liam", "Both REQ-1042 offers are out: Jordan Blake (expires March 12) and Priyanka Rao "
      "(expires March 13).", react={"crossed_fingers": "samuel ethan elena alex"},
      replies=[("03-03 11:20", "samuel", "If both accept, they start April 13. Leo has two laptops ready.")]),
    t("03-05 11:10", "samuel", "Marco Bianchi (REQ-1045): case exercise Thursday March 12 at 13:00 in Room 2A "
      "with Alex and Elena."),
    t("03-05 15:30", "samuel", "Scorecard template for the Chief of Staff Associate loop. Please submit before "
      "Monday's debrief for Samira Haddad (14:00, Room 2A, Alex and Nora).", files=("scorecard",),
      replies=[("03-05 16:10", "nora", "Mine is in.")]),
    t("03-06 09:30", "ethan", "REQ-1043: Rita Okoye's system design is Tuesday with me and Lucas; Marco Silva "
      "on Wednesday.", replies=[("03-06 09:45", "samuel", "Rooms are booked.")]),
    t("03-06 16:00", "james", "REQ-1047: Tom Becker meets me and Benjamin on Wednesday at 13:00; Chris Obi "
      "meets me on Thursday."),
    t("03-09 08:12", "nora", "Offer approval for Camille Dubois (REQ-1048) is with Alex and Dana; we need it "
      "by end of day Tuesday - she has another offer expiring on the 11th.", react={"eyes": "zoe samuel"},
      replies=[("03-09 08:20", "zoe", "Thanks Nora - she's excited about the role.")]),
]

_IT: list[Thread] = [
    t("02-23 09:15", "grace", "Excel keeps crashing when I open the budget workbook. Anyone else?",
      replies=[("02-23 09:30", "leo", "Install the latest Office from Self Service and restart; that fixed it for "
                "Owen."),
               ("02-23 10:05", "grace", "That did it, thanks!")]),
    t("02-26 10:30", "harper", "I can't get on the guest Wi-Fi in Chicago.",
      replies=[("02-26 10:41", "leo", "The guest network is NW-Guest; the password is on the card at reception "
                "on 11 and changes every Monday.")]),
    t("03-02 09:40", "henry", "Can a contractor get a Figma seat for the launch?",
      replies=[("03-02 09:55", "leo", "Figma has 8 seats and 7 are used. Jack owns it; ask him to approve.")]),
    t("03-03 13:10", "ava", "Zoom keeps signing me out every hour.",
      replies=[("03-03 13:25", "leo", "Known issue after Saturday's maintenance; sign out everywhere once and it "
                "stops.")]),
    t("03-04 14:10", "leo", "Laptop refresh options: 14-inch ThinkPad X1 Carbon (32 GB) or 14-inch MacBook Pro "
      "(36 GB). Choose by Friday March 13; pickup the week of March 23.", pin="leo",
      replies=[("03-04 14:30", "sofia", "Can engineers get the 16-inch?"),
               ("03-04 14:41", "leo", "With your manager's OK, yes.")]),
    t("03-05 10:15", "kai", "Setup guide for security keys. Deadline is Monday March 16.", files=("keys",),
      pin="kai", react={"+1": "leo ella"},
      replies=[("03-05 10:40", "ava", "Does it work with my phone too?"),
               ("03-05 10:48", "kai", "Yes, over NFC on most phones.")]),
    t("03-06 15:05", "leo", "VPN maintenance Saturday March 14, 22:00-23:30 ET. Expect short interruptions.",
      replies=[("03-06 15:20", "noah", "Noted, thanks.")]),
    t("03-06 16:20", "owen", "The old printer on 4 says 'out of toner' but it's full.",
      replies=[("03-06 16:35", "maya", "That one is being recycled; use the new one next to Room 4B.")]),
    t("03-09 08:25", "ella", "The April 13 joiners need accounts; the onboarding checklist says IT setup three "
      "days before.", replies=[("03-09 08:33", "leo", "They'll be ready by April 8.")]),
]

_LEADERSHIP: list[Thread] = [
    t("02-24 14:30", "dana", "The board meeting moves from April 22 to Wednesday April 29 because of the offsite. "
      "Amelia is updating the invites.", pin="dana", react={"+1": "marcus elena james"}),
    t("03-03 15:10", "amelia", "Notes from today's leadership meeting are on the drive (Leadership meetings)."),
    t("03-04 15:30", "james", f"Contoso proposal v3 is with them: 3 years from April 1 at {CONTOSO_RENEWAL} a "
      "year (+3%), fixed in years 2 and 3. They want Net 45. Sign-off from Alex, Marcus and me by "
      f"{CONTOSO_SIGN_OFF}.",
      replies=[("03-05 12:45", "marcus", "Net 45 means about $18,300 more in receivables at any time. I can "
                "live with it for a 3-year term; final answer by Wednesday.")]),
    t("03-05 17:30", "elena", "Atlas is on track. Dry run Wednesday; the load test moved to March 20 because of "
      "the test environment quota."),
    t("03-06 09:10", "amelia", "Agenda for Tuesday's exec staff: Q1 forecast, offsite, hiring. Alex briefs the "
      f"{ATLAS_CUTOVER} Atlas date."),
    t("03-06 16:00", "zoe", f"Heads-up: Marketing Events is {MARKETING_OVERRUN} over for Q1 because we upsized "
      "the spring launch booth. I'll bring a note for Finance.",
      replies=[("03-06 16:20", "marcus", "Thanks Zoe; send it to Priya and me by Wednesday.")]),
    t("03-06 17:00", "victor", "Chicago lease: the Kinzie St floor plan fits 45 desks. Marcus and I decide by "
      "March 31.", replies=[("03-06 17:15", "dana", "Let's take it to the offsite if it isn't settled.")]),
    t("03-06 18:25", "dana", "Board deck: your sections to Alex by end of day Wednesday March 11; full "
      "read-through Wednesday March 18 at 10:00 in the Boardroom.", react={"+1": "alex marcus elena"},
      replies=[("03-06 18:40", "amelia", "The template is in the Board folder on the drive.")]),
    t("03-08 19:30", "isaac", "Contoso redlines: review meeting Tuesday at 10:00; my comments by March 16.",
      replies=[("03-08 20:05", "james", "Thanks Isaac.")]),
    t("03-09 07:50", "marcus", "Could someone share Grace's Q1 variance workbook here before Tuesday's exec "
      "staff? I'd like everyone to look at their own lines.", react={"+1": "dana elena"}),
]

_CONTOSO: list[Thread] = [
    t("02-16 09:30", "isabella", f"Opening this channel for the Contoso Ltd renewal. {CONTOSO_CONTRACT} ends "
      f"March 31 at {CONTOSO_CURRENT} a year. Maya owns the contract and the paperwork; I'm leading the talks.",
      pin="isabella"),
    t("03-03 11:15", "isabella", "Call notes: Contoso asked to keep the price flat for a 3-year term. We'll "
      "counter at +3% with years 2 and 3 fixed.",
      replies=[("03-03 11:30", "james", "Agree, go to +3%."),
               ("03-03 11:42", "maya", "I'll draft the order form.")]),
    t("03-04 11:40", "isabella", f"Proposal v3 sent: 3 years from April 1 at {CONTOSO_RENEWAL} a year (+3%), "
      f"fixed for years 2 and 3. Pricing sign-off needed from Alex, James and Marcus by {CONTOSO_SIGN_OFF}.",
      react={"eyes": "alex marcus"},
      replies=[("03-05 17:20", "james", "I'm fine with 3% and the fixed price. Net 45 is Marcus's call.")]),
    t("03-05 09:50", "isabella", "Contoso wants Net 45 instead of our standard Net 30. Their procurement lead, "
      "Megan Harlow, confirmed the fixed price by phone.",
      replies=[("03-05 12:50", "marcus", "Looking at the cash forecast; answer by Wednesday.")]),
    t("03-06 10:00", "maya", f"Contoso's purchase order for the renewal will be {CONTOSO_PO}; they send it once "
      "we sign off on pricing.", pin="maya",
      replies=[("03-06 10:12", "isaac", "Please send me a copy when it arrives.")]),
    t("03-06 14:20", "hannah", "Legal review Tuesday March 10 at 10:00 in Room 4B. Isaac's comments on the "
      "redlines are due March 16."),
    t("03-06 15:00", "ryan", "Contoso's new warehouse team onboards Thursday March 12 at 10:00; Emma and I are "
      "running it.", react={"+1": "isabella emma"}),
    t("03-06 15:45", "daniel", "Pipeline has Contoso at $444,960 closing March 31.", edited="03-06 15:47",
      replies=[("03-06 15:52", "isabella", "Correct.")]),
    t("03-09 08:45", "isabella", "Next call with Contoso is Friday March 13 at 11:00. Goal: agree payment terms "
      "and the signature date (it has to be signed by March 31).", react={"+1": "maya james"}),
]

_MARKETING: list[Thread] = [
    t("02-25 13:20", "zoe", "Spring launch brief is out: launch April 7, $50,000 budget. Lily owns the "
      "messaging, Henry content, Jack design.", pin="zoe", react={"rocket": "lily henry jack"}),
    t("02-27 16:00", "zoe", "The Contoso customer story is ready except their legal sign-off on the logo. Henry "
      "is chasing it through Ryan.", replies=[("02-27 16:20", "henry", "Ryan expects an answer next week.")]),
    t("03-02 11:10", "zoe", f"Events will land {MARKETING_OVERRUN} over for Q1 because we upsized the launch "
      "booth. I'm writing it up for Finance."),
    t("03-04 15:00", "jack", "Booth render for the spring launch (the upsized 20x20).", files=("render",),
      react={"heart_eyes": "zoe lily henry"},
      replies=[("03-04 15:20", "zoe", "Love it. To the printer by March 20, please.")]),
    t("03-06 15:10", "henry", "Blog draft 'How we cut month-end close to 4 days' is in the editor; Priya checked "
      "the numbers. It's on the calendar for March 24.",
      replies=[("03-06 15:30", "zoe", "Alex is reviewing it by Thursday.")]),
    t("03-06 16:30", "lily", "I'm out from Monday through Friday March 13. The launch messaging doc is final "
      "except the pricing line. Henry has edit access and is covering.",
      replies=[("03-06 16:41", "zoe", "Enjoy the break!")]),
    t("03-09 08:50", "jack", "Photo shoot Friday March 13, 09:00-12:00 in Studio B. Henry and Zoe, please bring "
      "the product samples.", replies=[("03-09 08:55", "henry", "On it.")]),
]

_PEOPLE_OPS: list[Thread] = [
    t("03-02 09:30", "nora", "Benefits renewal with the broker is Friday March 13 at 10:00 in Room 2A."),
    t("03-04 17:25", "ella", "Manager check-ins this quarter: reminders go out next week.",
      replies=[("03-04 17:40", "nora", "Thanks Ella.")]),
    t("03-06 11:15", "samuel", "Scorecards for Samira Haddad are in; debrief Monday at 14:00.",
      replies=[("03-06 11:30", "nora", "Thanks, I'll be there.")]),
]

_OFFSITE_2025: list[Thread] = [
    t("01-15 09:00", "alex", "Offsite 2025 planning: May 14-15 at the Mill River Conference Center, Stamford.",
      year=2025),
    t("05-16 10:00", "ruby", "Group photo from Stamford!", files=("offsite_photo",),
      react={"heart": "alex dana amelia"}, year=2025),
]

_DM_DANA: list[Thread] = [
    t("03-05 18:30", "dana", "Can you take the Atlas paragraph for the board deck? Elena's cutover plan email has "
      "everything."),
    t("03-05 18:40", "alex", "Yes, I'll draft it from her plan and send it with my sections on Wednesday."),
    t("03-06 18:30", "dana", "Also: the all-hands talking points to me Monday, please."),
    t("03-06 19:02", "alex", "Will do - you'll have them before our 1:1."),
    t("03-09 07:45", "dana", "Morning. Can we use part of our 1:1 to go through the offsite agenda?"),
    t("03-09 07:52", "alex", "Sure - I'll bring the latest draft."),
]

_DM_PRIYA: list[Thread] = [
    t("03-03 14:45", "priya", "Sent you the draft Q1 numbers. Could you check the Executive line before Friday "
      "the 13th?"),
    t("03-03 15:02", "alex", "Will do."),
    t("03-06 16:10", "priya", "Could we do 30 minutes on Wednesday at 10:00 to go through the Executive line "
      "before the numbers go to Marcus?"),
    t("03-09 08:30", "priya", "Also, I can't find Fabrikam's invoice PDF for INV-20417. Tomas says you have "
      "the email from their billing team - could you drop it in #finance?"),
]

_DM_GROUP: list[Thread] = [
    t("03-04 16:00", "amelia", "Offsite logistics check-in Wednesday 09:30 in Room 2A?"),
    t("03-04 16:05", "ruby", "Works for me."),
    t("03-04 16:30", "alex", "Booked. Let's cover the coach, dietary list and the AV for the strategy sessions."),
]

_THREADS: dict[str, list[Thread]] = {
    "ch_general": _GENERAL,
    "ch_random": _RANDOM,
    "ch_atlas_cutover": _ATLAS,
    "ch_ops": _OPS,
    "ch_finance": _FINANCE,
    "ch_sales": _SALES,
    "ch_offsite_2026": _OFFSITE,
    "ch_hiring": _HIRING,
    "ch_it_help": _IT,
    "ch_leadership": _LEADERSHIP,
    "ch_contoso_renewal": _CONTOSO,
    "ch_marketing": _MARKETING,
    "ch_people_ops": _PEOPLE_OPS,
    "ch_offsite_2025": _OFFSITE_2025,
    "dm_dana": _DM_DANA,
    "dm_priya": _DM_PRIYA,
    "dm_amelia_ruby": _DM_GROUP,
}

# ---- statuses ---------------------------------------------------------------------------------
# (first name, text, emoji, expires "MM-DD HH:MM" or "")

_STATUSES: list[tuple[str, str, str, str]] = [
    ("dana", "Board deck week", ":memo:", ""),
    ("marcus", "Q1 budget review - final numbers due Friday", ":bar_chart:", ""),
    ("priya", "Heads down on the Q1 close; slow to reply until 15:00", ":abacus:", "03-09 15:00"),
    ("elena", "Atlas cutover prep", ":rocket:", ""),
    ("sofia", "Primary on call (week of March 9)", ":rotating_light:", "03-16 09:00"),
    ("mia", "Secondary on call (week of March 9)", ":pager:", "03-16 09:00"),
    ("lily", "On vacation until Friday March 13 - launch messaging questions to Henry Scott", ":palm_tree:",
     "03-14 00:00"),
    ("noah", "Working remotely (Mountain Time)", ":house_with_garden:", ""),
    ("kai", "Security keys required from March 16 - ask me anything", ":closed_lock_with_key:", ""),
    ("leo", "Shipping security keys to remote staff this week", ":package:", ""),
    ("isabella", "Contoso renewal - back-to-back calls", ":briefcase:", ""),
    ("ruby", "Offsite logistics", ":bus:", ""),
    ("chloe", "Writing the dry-run test plan", ":test_tube:", ""),
]
# fmt: on


@functools.cache
def _document(key: str) -> bytes:
    """The bytes of a shared file (made once per process; the builders are deterministic)."""
    return _FILES[key][3]()


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """The chat's initial state as plain JSON values (``SlackState.model_validate`` accepts it).

    Args:
        people: The directory's people keyed by id.
        now: The frozen current instant (every message is earlier).
        user: The acting user's email address.

    Returns:
        ``{"channels": {...}, "messages": {...}, "files": {...}, "statuses": {...}}``.
    """
    email: dict[str, str] = {p["name"].split()[0].lower(): p["email"] for p in people.values()}
    everyone = [p["email"] for p in people.values()]

    def who(first: str) -> str:
        return email[first]

    def group(names: str) -> list[str]:
        return [who(n) for n in names.split()]

    channels: dict[str, Any] = {}
    for cid, name, kind, creator, created, topic, purpose, members in _CHANNELS:
        year, month, day = (int(x) for x in created.split("-"))
        channels[cid] = {
            "id": cid,
            "name": name,
            "kind": kind,
            "topic": topic,
            "purpose": purpose,
            "creator": who(creator),
            "created": datetime(year, month, day, 9, 0, tzinfo=_TZ).isoformat(),
            "members": list(everyone) if members == "ALL" else group(members),
            "archived": cid in _ARCHIVED,
        }

    # Flatten threads into posts with a temporary key; ids follow posting order.
    posts: list[dict[str, Any]] = []
    for cid, threads in _THREADS.items():
        for when, author, text, opts in threads:
            year = opts.get("year", 2026)
            parent = {"cid": cid, "ts": _at(when, year), "who": author, "text": text, "opts": opts, "parent": None}
            posts.append(parent)
            for reply in opts.get("replies", ()):
                r_when, r_who, r_text, *rest = reply
                posts.append({"cid": cid, "ts": _at(r_when, year), "who": r_who, "text": r_text,
                              "opts": rest[0] if rest else {}, "parent": parent})  # fmt: skip
    posts.sort(key=lambda p: p["ts"])
    for n, post in enumerate(posts, 1):
        post["id"] = f"msg_{n:04d}"

    files: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    for post in posts:
        opts = post["opts"]
        if post["ts"] >= now:
            raise ValueError(f"message in {post['cid']} at {post['ts']} is not before now")
        file_ids = []
        for key in opts.get("files", ()):
            fid, fname, title, _ = _FILES[key]
            data = _document(key)
            files[fid] = {
                "id": fid,
                "name": fname,
                "title": title,
                "mime_type": mime_type_for(fname),
                "size": len(data),
                "blob": keep(data),
                "user": who(post["who"]),
                "channel_id": post["cid"],
                "message_id": post["id"],
                "created": post["ts"].isoformat(),
            }
            file_ids.append(fid)
        pin = opts.get("pin")
        messages[post["id"]] = {
            "id": post["id"],
            "channel_id": post["cid"],
            "user": who(post["who"]),
            "text": post["text"],
            "ts": post["ts"].isoformat(),
            "thread_id": post["parent"]["id"] if post["parent"] else "",
            "edited": _at(opts["edited"]).isoformat() if opts.get("edited") else None,
            "reactions": [{"name": k, "users": group(v)} for k, v in opts.get("react", {}).items()],
            "pinned_by": who(pin) if pin else "",
            "pinned_at": (post["ts"] + timedelta(minutes=5)).isoformat() if pin else None,
            "files": file_ids,
        }

    statuses = {}
    for first, text, emoji, expires in _STATUSES:
        addr = who(first)
        pid = addr.split("@")[0]
        statuses[pid] = {
            "id": pid,
            "email": addr,
            "text": text,
            "emoji": emoji,
            "expires": _at(expires).isoformat() if expires else None,
        }
    return {"channels": channels, "messages": messages, "files": files, "statuses": statuses}
