"""The helpdesk on Monday March 9, 2026: four queues and two months of requests.

Authored, not generated: each ticket agrees with :mod:`tools.companies.default.facts` and with the mail,
calendar, drive and chat data (laptops for the REQ-1042 hires, the offsite AV at Lakeside Lodge,
Fabrikam's INV-20417, the Atlas cutover change request, the CRM renewal on March 28, ...).

Ticket keys (``HD-1001`` ...) follow the order in which the tickets were opened. Tickets resolved
more than seven days ago are closed, as the helpdesk does automatically.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tools.companies.default.documents import atlas_runbook_pdf
from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    ATLAS_GO_NO_GO,
    ATLAS_WINDOW,
    CONTOSO_CONTRACT,
    CONTOSO_PO,
    CONTOSO_RENEWAL,
    INVOICE,
    INVOICE_AMOUNT,
    INVOICE_DUE,
    INVOICE_PO,
    INVOICE_VENDOR,
    MARKETING_OVERRUN,
    OFFSITE_BOOKING,
    OFFSITE_DATES,
    OFFSITE_VENUE,
)
from tools.companies.shared import keep
from tools.kernel.documents import make_pdf, make_png, make_xlsx, mime_type_for

__all__ = ["build"]

_TZ = ZoneInfo("America/New_York")

#: Hours from creation to the due time, by priority (the same in every queue).
_SLA_HOURS = {"urgent": 8, "high": 24, "normal": 72, "low": 120}

# (id, name, lead, staff, description)
_QUEUES = [
    ("it", "IT", "leo.hall", ["leo.hall", "kai.nakamura", "mia.thompson"],
     "Laptops and equipment, accounts and access, software and licenses, networks, and change requests."),
    ("facilities", "Facilities", "ruby.walker", ["ruby.walker", "maya.young", "victor.alvarez"],
     "Offices, meeting rooms, furniture, printers, visitors, and event logistics."),
    ("people_ops", "People Ops", "ella.moore", ["ella.moore", "samuel.green", "nora.patel"],
     "Payroll, benefits, time off, letters, onboarding, and review cycles."),
    ("finance_ops", "Finance Ops", "priya.shah", ["priya.shah", "owen.bell", "tomas.rivera"],
     "Vendor payments and invoices, expenses, corporate cards, budgets, and billing set-up."),
]  # fmt: skip


def _at(when: str) -> datetime:
    """``"03-06 13:25"`` -> 2026-03-06 13:25 in New York."""
    day, clock = when.split()
    month, dom = (int(x) for x in day.split("-"))
    hour, minute = (int(x) for x in clock.split(":"))
    return datetime(2026, month, dom, hour, minute, tzinfo=_TZ)


def _t(key: str, queue: str, created: str, requester: str, title: str, description: str, **kw: Any) -> dict[str, Any]:
    return {"key": key, "queue": queue, "created": created, "requester": requester, "title": title,
            "description": description, **kw}  # fmt: skip


# ---- tickets ----------------------------------------------------------------------------------
# keyword fields: assignee, status, priority, category, due ("MM-DD HH:MM"), resolution, resolved, watchers

_TICKETS = [
    # IT
    _t("vpn_drops", "it", "01-13 09:20", "noah.williams", "VPN drops every 20 minutes when working from home",
       "Since the holidays my VPN connection drops about every 20 minutes when I work from Denver. Reconnecting "
       "works, but I lose my SSH sessions each time.",
       assignee="leo.hall", status="closed", category="Network", resolved="01-14 11:00",
       resolution="Moved Noah to the split-tunnel VPN profile; no drops in 24 hours of testing."),
    _t("qa_monitor", "it", "01-20 10:05", "chloe.nguyen", "Second monitor for the QA test bench",
       "I test the checkout flow on two browsers side by side; a second 27-inch monitor would help a lot.",
       assignee="leo.hall", status="closed", priority="low", category="Hardware", resolved="01-27 15:00",
       resolution="27-inch monitor (asset NW-MN-0231) set up at Chloe's desk in San Francisco."),
    _t("mfa_phone", "it", "02-03 08:50", "tomas.rivera", "New phone: move my sign-in authenticator",
       "I replaced my phone over the weekend and can't approve sign-ins any more. Payment run is at noon.",
       assignee="kai.nakamura", status="closed", priority="high", category="Access", resolved="02-03 10:15",
       resolution="Reset Tomas's multi-factor sign-in and enrolled his new phone."),
    _t("replica_access", "it", "02-10 14:00", "lucas.martin", "Read access to the orders replica for Atlas data checks",
       "For the Atlas row-count comparisons I need read-only access to the legacy orders replica.",
       assignee="kai.nakamura", status="closed", category="Access", resolved="02-11 09:30",
       resolution="Granted read-only access to the orders replica until April 30; Liam Chen approved."),
    _t("cert_monitor", "it", "02-12 09:30", "mia.thompson",
       "Add the payments-adapter certificate to expiry monitoring (INC-3021 follow-up)",
       "INC-3021 (checkout outage on February 11, 14:06-14:53 ET) was caused by an expired certificate on the "
       "payments adapter. Add every certificate on the payments adapter and both load balancers to the expiry "
       "monitor, with a warning 30 days ahead.",
       assignee="mia.thompson", status="closed", priority="high", category="Change request", resolved="02-18 16:00",
       resolution="All certificates on the payments adapter and the two load balancers now alert 30 days before "
       "they expire."),
    _t("lockout", "it", "02-17 08:05", "isabella.rossi", "Locked out of email before a customer call at 9",
       "My account says it is locked after too many attempts. I have the Contoso call at 9:00.",
       assignee="leo.hall", status="closed", priority="urgent", category="Access", resolved="02-17 08:20",
       resolution="Unlocked the account and reset the password; Isabella signed in at 08:18."),
    _t("excel_crash", "it", "02-23 09:15", "grace.kim", "Excel crashes when I open the Q1 budget workbook",
       "Excel closes without an error whenever I open Q1 budget.xlsx from the drive. Other workbooks open fine.",
       assignee="leo.hall", status="closed", category="Software", resolved="02-23 10:05",
       resolution="Installed the latest Office from Self Service and restarted; the workbook opens again."),
    _t("slow_laptop", "it", "02-24 11:10", "benjamin.clark", "Laptop very slow since the February update",
       "My laptop takes about 10 minutes to start since the February update, and the browser freezes during "
       "video calls.",
       assignee="leo.hall", status="waiting", priority="low", category="Hardware"),
    _t("guest_wifi", "it", "02-26 10:30", "harper.lewis", "Can't get on the guest Wi-Fi in Chicago",
       "A visitor needs the guest Wi-Fi in the Chicago office and the password we have is rejected.",
       assignee="leo.hall", status="closed", category="Network", resolved="02-26 10:41",
       resolution="The guest network is NW-Guest; the password is on the card at reception on 11 and changes "
       "every Monday."),
    _t("figma_seat", "it", "03-02 09:40", "henry.scott", "Figma seat for a contractor on the spring launch",
       "A contract designer joins us for the spring launch from March 16 to April 30. Can they get a Figma seat?",
       assignee="leo.hall", status="waiting", category="Licenses", watchers=["jack.hughes"]),
    _t("crm_renewal", "it", "03-02 10:15", "daniel.wright", "CRM license renewal on March 28 (12 seats)",
       "Our CRM subscription renews on March 28, 2026: 12 seats at $21,600 a year, 11 of them in use. Please get "
       "the renewal quote from the vendor and send it to Finance for the purchase order.",
       assignee="leo.hall", category="Licenses", due="03-20 17:00", watchers=["victor.alvarez"]),
    _t("req1042_laptops", "it", "03-03 11:30", "samuel.green", "Laptops for the two REQ-1042 hires starting April 13",
       "Both Senior Software Engineer offers for REQ-1042 are out (Jordan Blake and Priyanka Rao). If both accept, "
       "they start Monday April 13 in Boston. Please set aside two laptops, image them and get them to the Boston "
       "office by April 8.",
       assignee="leo.hall", status="in_progress", category="Hardware", due="04-08 17:00",
       watchers=["liam.chen", "ella.moore"]),
    _t("zoom_signout", "it", "03-03 13:10", "ava.johnson", "Zoom keeps signing me out every hour",
       "Since Saturday Zoom signs me out roughly every hour, sometimes in the middle of a call.",
       assignee="leo.hall", status="resolved", category="Software", resolved="03-03 13:25",
       resolution="Known issue after Saturday's maintenance: sign out of Zoom everywhere once and it stops."),
    _t("shared_mailbox", "it", "03-04 09:00", "olivia.baker", "Shared mailbox for Customer Success escalations",
       "Could we get a shared mailbox, escalations@northwind.example, for Emma Foster, Ryan Cooper, David Kim and "
       "me? Fabrikam Inc asked for one address to write to after INC-3021.",
       assignee="leo.hall", category="Access"),
    _t("chg_atlas", "it", "03-04 10:00", "liam.chen",
       "CHG-0318 Atlas cutover: move orders and inventory to Atlas (Saturday April 18)",
       f"Change request for the Atlas migration cutover.\n"
       f"Window: {ATLAS_CUTOVER}, {ATLAS_WINDOW}, followed by a 4-hour fallback window.\n"
       f"Deploy freeze: from Friday April 17, 06:00.\n"
       f"Go/no-go call: {ATLAS_GO_NO_GO} (Elena Petrova, sponsor).\n"
       f"Runbook: Atlas cutover runbook v1.2 (attached), owner Mia Thompson.\n"
       f"Before approval: load test at 2x peak on March 20; readiness review on Tuesday March 17.\n"
       f"Fallback: if checkout errors exceed 2% for 10 minutes, point DNS for orders.internal back to legacy and "
       f"reopen writes.\nRisk: medium.",
       assignee="mia.thompson", status="waiting", priority="high", category="Change request", due="04-16 15:00",
       watchers=["elena.petrova", "kai.nakamura"]),
    _t("key_noah", "it", "03-05 11:30", "noah.williams", "Security key for remote staff: please ship mine to Denver",
       "I work remotely and can't collect a key at the IT desk before the March 16 deadline. Can you ship one? "
       "My address is in the HR system.",
       assignee="kai.nakamura", status="in_progress", priority="high", category="Access", due="03-13 17:00"),
    _t("laptop_alex", "it", "03-05 16:30", "alex.morgan", "Laptop refresh: 14-inch MacBook Pro for Alex Morgan",
       "Replacing NW-LT-0412 (MacBook Pro 14, 2024). I chose the 14-inch MacBook Pro with 36 GB. Pickup from the "
       "IT desk on the 3rd floor the week of March 23.",
       assignee="leo.hall", category="Hardware", due="03-27 17:00"),
    _t("key_lily", "it", "03-06 10:20", "lily.turner", "Security key: I'm remote and can't collect mine",
       "I'm in Denver until April. Could my security key be shipped before March 16 so I'm not locked out?",
       assignee="kai.nakamura", priority="high", category="Access", due="03-13 17:00"),
    _t("chg_vpn", "it", "03-06 15:05", "leo.hall", "CHG-0317 VPN maintenance: Saturday March 14, 22:00-23:30 ET",
       "Firmware update on both VPN concentrators. Expect short interruptions between 22:00 and 23:30 ET. "
       "Fallback: roll back to the current firmware image (15 minutes).",
       assignee="leo.hall", category="Change request", due="03-14 23:30"),
    _t("vendor_review", "it", "03-06 15:20", "kai.nakamura", "Vendor access review: accounts unused for 90 days",
       "Vendor accounts that haven't signed in for 90 days (list attached), for the review with Leo and Alex on "
       "Tuesday at 16:00. Anything nobody claims gets disabled.",
       assignee="kai.nakamura", status="in_progress", category="Access", due="03-13 17:00",
       watchers=["alex.morgan", "leo.hall"]),
    _t("room4b_audio", "it", "03-06 17:00", "amelia.ward", "Room 4B video bar: remote people can't hear the room",
       "In Wednesday's Atlas status meeting in Room 4B the people on video could only hear whoever sat next to "
       "the video bar. Can it be fixed before this Wednesday's meeting at 15:00?",
       assignee="leo.hall", priority="high", category="Meeting rooms", due="03-11 14:00"),
    _t("accounts_joiners", "it", "03-09 08:35", "ella.moore", "Accounts for the April 13 joiners (REQ-1042)",
       "The onboarding checklist has IT setup done three days before the start date. Two Senior Software "
       "Engineers (REQ-1042) start April 13: email, chat, GitHub, the password manager and a security key each.",
       assignee="leo.hall", category="Access", due="04-08 17:00"),
    _t("whiteboard", "it", "02-05 10:00", "ryan.cooper", "Online whiteboard for customer workshops",
       "I run onboarding workshops with customers and need a whiteboard tool they can join without an account.",
       assignee="leo.hall", status="closed", priority="low", category="Software", resolved="02-06 12:00",
       resolution="Added Ryan to the company whiteboard workspace; guests join by link, no extra license needed."),
    _t("laptop_16", "it", "03-09 08:52", "sofia.garcia", "Laptop refresh: 16-inch MacBook Pro (manager approved)",
       "Leo said engineers can pick the 16-inch with their manager's OK. Liam approved it this morning. It "
       "replaces NW-LT-0433.",
       category="Hardware", watchers=["liam.chen"]),
    # Facilities
    _t("chair", "facilities", "01-15 09:00", "daniel.wright", "Broken desk chair on 12",
       "The gas lift on my chair (12th floor, desk 12-14) is gone; it sinks within minutes.",
       assignee="ruby.walker", status="closed", category="Furniture", resolved="01-16 14:00",
       resolution="Replaced the chair; the supplier collected the old one."),
    _t("chicago_cold", "facilities", "01-22 13:30", "ryan.cooper", "Chicago 11th floor too cold near the windows",
       "The desks along the windows on 11 are at about 17°C in the mornings.",
       assignee="victor.alvarez", status="closed", category="Heating and cooling", resolved="01-26 10:00",
       resolution="Building engineers rebalanced the heating on 11; 21°C measured at the window desks."),
    _t("legal_cabinet", "facilities", "02-09 10:00", "hannah.wood", "Locking cabinet for signed contracts",
       "We need a locking cabinet for the signed paper contracts in the Legal area on 12.",
       assignee="ruby.walker", status="closed", priority="low", category="Furniture", resolved="02-13 11:00",
       resolution="Two-drawer locking cabinet delivered to the Legal area on 12; keys with Hannah and Isaac."),
    _t("parking", "facilities", "02-19 12:00", "grace.kim", "Parking pass for the Chicago garage",
       "I'll drive in twice a week from March. How do I get a monthly pass for the garage?",
       assignee="victor.alvarez", status="closed", priority="low", category="Parking", resolved="02-20 09:30",
       resolution="Monthly pass for March issued (garage level 2); it renews unless you cancel."),
    _t("coffee_leak", "facilities", "02-27 08:45", "isaac.king", "Coffee machine on 12 is leaking",
       "Water is pooling under the coffee machine in the 12th-floor kitchen.",
       assignee="ruby.walker", status="closed", priority="low", category="Kitchen", resolved="02-27 14:00",
       resolution="The supplier replaced the water line; the machine is back in service."),
    _t("printer_replace", "facilities", "03-02 10:00", "maya.young", "Replace the 4th-floor printer",
       "The old 4th-floor printer jams every day and the toner sensor is broken. A new one is ordered; the old "
       "one goes to recycling once the new one works.",
       assignee="maya.young", status="in_progress", category="Office equipment", due="03-10 17:00"),
    _t("coach", "facilities", "03-03 09:00", "alex.morgan", "Coach from Grand Central to Lakeside Lodge on April 22",
       f"Please book a coach for the leadership offsite ({OFFSITE_VENUE}, {OFFSITE_DATES}) leaving Grand Central "
       "in the morning of Wednesday April 22.",
       assignee="ruby.walker", status="resolved", category="Events", resolved="03-06 11:05",
       resolution="Coach booked: it leaves Grand Central at 10:30 on Wednesday April 22."),
    _t("kinzie_plan", "facilities", "03-04 10:30", "victor.alvarez",
       "Chicago office: check the Kinzie St floor plan for 45 desks",
       "Before Marcus and I decide on the Chicago lease (by March 31), check whether the Kinzie St floor plan "
       "fits 45 desks plus two meeting rooms.",
       assignee="ruby.walker", status="in_progress", category="Workplace", due="03-20 17:00"),
    _t("offsite_av", "facilities", "03-04 16:40", "alex.morgan",
       "AV for the leadership offsite strategy sessions (Lakeside Lodge, April 22-24)",
       f"For the strategy sessions at {OFFSITE_VENUE} (booking {OFFSITE_BOOKING}) please confirm the AV: two "
       "projectors and a video bar in the main room are part of the package. We also need a wireless presenter, "
       "USB-C and HDMI adapters, and a lapel microphone for Dana's opening session on Wednesday at 14:30.",
       assignee="ruby.walker", status="waiting", priority="high", category="Events", due="04-15 17:00",
       watchers=["amelia.ward"]),
    _t("kitchen_clean", "facilities", "03-05 15:00", "ruby.walker",
       "Deep clean of the 4th-floor kitchen on Wednesday morning",
       "The cleaners come Wednesday 07:00-11:00; coffee will be on the 3rd floor until then.",
       assignee="ruby.walker", priority="low", category="Cleaning", due="03-11 12:00"),
    _t("visitor_marco", "facilities", "03-06 09:30", "samuel.green",
       "Visitor registration: Marco Bianchi, Thursday March 12 at 13:00",
       "Final-round interview with Alex Morgan and Elena Petrova in Room 2A. Visitors have to be registered a "
       "day ahead.",
       assignee="ruby.walker", category="Visitors", due="03-11 17:00"),
    _t("boardroom", "facilities", "03-06 11:00", "amelia.ward", "Boardroom setup for the board meeting on April 29",
       "The board meeting moved from April 22 to Wednesday April 29 because of the offsite. Please move the "
       "Boardroom setup (16 seats, video for two remote directors) and the lunch order to the new date.",
       assignee="ruby.walker", category="Events", due="04-24 17:00"),
    _t("standing_desk", "facilities", "03-06 13:00", "jack.hughes", "Standing desk in the San Francisco office",
       "My back specialist recommends a sit-stand desk. Is there one free on the 3rd floor in San Francisco?",
       priority="low", category="Furniture"),
    _t("printer_toner", "facilities", "03-06 16:20", "owen.bell", "Printer on 4 says 'out of toner' but it's full",
       "The printer by the 4th-floor kitchen shows 'out of toner' although I put a new cartridge in on Friday. "
       "Photo of the panel attached.",
       assignee="maya.young", priority="low", category="Office equipment"),
    # People Ops
    _t("w2", "people_ops", "01-21 11:00", "chloe.nguyen", "Corrected W-2 for 2025 (wrong state withholding)",
       "My 2025 W-2 shows New York withholding, but I have worked from San Francisco all year.",
       assignee="ella.moore", status="closed", category="Payroll", resolved="01-30 16:00",
       resolution="Corrected W-2c issued through the payroll portal on January 30."),
    _t("address", "people_ops", "02-02 09:30", "grace.kim", "Update my home address for payroll and tax forms",
       "I moved within Chicago on February 1. New address is in my HR profile draft.",
       assignee="ella.moore", status="closed", category="Payroll", resolved="02-03 10:00",
       resolution="Address updated in payroll from the February 13 pay date."),
    _t("emergency_contact", "people_ops", "02-16 10:00", "emma.foster", "Update my emergency contact",
       "My emergency contact has changed; I can't edit the field in the HR system myself.",
       assignee="ella.moore", status="closed", priority="low", category="Personal details", resolved="02-17 09:00",
       resolution="Field unlocked; Emma updated the contact herself."),
    _t("parental_leave", "people_ops", "02-20 16:00", "ethan.brooks", "Parental leave dates for June",
       "Our baby is due in late May. What do I need to send, and by when, to take leave from June 1?",
       assignee="nora.patel", status="closed", category="Leave", resolved="02-23 11:00",
       resolution="Leave booked from June 1 to August 21 under the parental leave policy; Elena informed."),
    _t("pto_balance", "people_ops", "02-27 10:00", "harper.lewis", "PTO balance looks wrong after January",
       "My balance went down by 5 days on February 1 but I only took 1 day in January.",
       assignee="ella.moore", status="closed", priority="low", category="Time off", resolved="02-27 15:30",
       resolution="The January carry-over was missing; balance corrected to 14.5 days."),
    _t("dental", "people_ops", "03-02 11:00", "noah.williams", "Add my spouse to dental coverage",
       "I got married on February 21 and would like to add my spouse to my dental plan.",
       assignee="ella.moore", status="waiting", category="Benefits"),
    _t("onboarding_req1042", "people_ops", "03-03 11:25", "liam.chen",
       "Onboarding for the REQ-1042 engineers starting April 13",
       "Jordan Blake and Priyanka Rao have offers out (expiring March 12 and 13). If they sign, both start Monday "
       "April 13 in Boston. Please run the onboarding checklist: buddy, day-1 schedule, benefits walkthrough.",
       assignee="ella.moore", status="in_progress", category="Onboarding", due="04-10 17:00"),
    _t("self_review", "people_ops", "03-05 14:10", "henry.scott", "Can't find the self-review form for the 2026 cycle",
       "The review cycle email says the self-review is open, but I don't see the form in the HR system.",
       assignee="nora.patel", priority="low", category="Performance"),
    _t("mortgage_letter", "people_ops", "03-06 09:00", "lucas.martin", "Employment letter for my mortgage application",
       "My lender needs a letter confirming my title, start date and salary by Wednesday March 11.",
       assignee="ella.moore", status="in_progress", priority="high", category="Letters", due="03-10 17:00"),
    _t("stipend", "people_ops", "03-06 13:30", "lily.turner", "Home office stipend: does a monitor count?",
       "The remote work policy mentions a yearly home office stipend. Can I use it for a monitor?",
       assignee="ella.moore", category="Remote work"),
    _t("background_checks", "people_ops", "03-09 08:20", "samuel.green", "Background checks for the REQ-1042 offers",
       "Start the background checks for Jordan Blake and Priyanka Rao as soon as each offer is signed.",
       assignee="samuel.green", status="in_progress", category="Recruiting", due="03-16 17:00"),
    # Finance Ops
    _t("per_diem", "finance_ops", "01-29 13:00", "james.okafor", "Per diem for the Chicago customer visits, Feb 2-4",
       "Three days in Chicago with customers. Which per diem applies, and do I claim it on the expense report?",
       assignee="tomas.rivera", status="closed", category="Expenses", resolved="02-05 10:00",
       resolution="Per diem of $79 a day applies; claim it on the expense report, paid in the next run."),
    _t("mileage", "finance_ops", "02-10 12:00", "emma.foster", "Mileage for the Denver customer visit",
       "I drove 186 miles for the customer visit on February 6. How do I claim it?",
       assignee="tomas.rivera", status="closed", priority="low", category="Expenses", resolved="02-12 09:00",
       resolution="Mileage reimbursed in the February 13 expense run."),
    _t("missing_receipt", "finance_ops", "02-16 09:15", "benjamin.clark",
       "Client dinner receipt missing from my February expenses",
       "I lost the receipt for a client dinner on February 10 ($186.40). What can I do?",
       assignee="tomas.rivera", status="closed", category="Expenses", resolved="02-18 14:00",
       resolution="Missing-receipt form accepted; $186.40 reimbursed."),
    _t("w9", "finance_ops", "02-25 15:00", "maya.young", "W-9 for Wide World Importers before their first payment",
       "Wide World Importers (event merchandise) sends their first invoice in March. We need their W-9 first.",
       assignee="owen.bell", status="resolved", category="Vendors", resolved="03-04 10:00",
       resolution="W-9 received and on file; vendor set up for payments."),
    _t("lodge_deposit", "finance_ops", "02-27 14:00", "ruby.walker",
       "Pay the Lakeside Lodge deposit (INV-20441, $4,000, due March 5)",
       f"Deposit for the leadership offsite booking {OFFSITE_BOOKING}. The invoice is in the shared inbox.",
       assignee="tomas.rivera", status="resolved", priority="high", category="Payments", resolved="03-03 11:00",
       resolution="Paid by ACH on March 3; approved by Marcus Reed."),
    _t("travel_reimb", "finance_ops", "02-27 16:30", "ryan.cooper", "February customer visit expenses not reimbursed",
       "My expenses for the February 18-19 customer visit ($642.30) were approved on February 24 but haven't "
       "arrived.",
       assignee="tomas.rivera", category="Expenses"),
    _t("marketing_over", "finance_ops", "03-02 15:30", "zoe.adams",
       f"Q1: Marketing Events is {MARKETING_OVERRUN} over (spring launch booth)",
       f"The upsized spring launch booth put Marketing Events {MARKETING_OVERRUN} over its Q1 line. Can we move "
       "the unspent Content production budget against it before the final numbers go to Marcus on March 13? "
       "Proposal attached.",
       assignee="owen.bell", status="in_progress", category="Budget", due="03-13 12:00"),
    _t("adatum_invoice", "finance_ops", "03-03 09:45", "kai.nakamura",
       "Approve Adatum Security's pen test invoice INV-20430 ($8,750)",
       "Adatum Security finished the February penetration test and the report is in. Their invoice INV-20430 "
       "for $8,750.00 is due March 21.",
       assignee="owen.bell", category="Payments", due="03-18 17:00"),
    _t("tailspin_bank", "finance_ops", "03-04 10:00", "maya.young",
       "Tailspin Travel changed bank details: confirm before the next payment",
       "Tailspin Travel emailed new bank details. Please confirm them by phone with Ben Ortiz (the number on "
       "file, not the one in the email) before we pay INV-20436 ($4,310.75, due March 25).",
       assignee="owen.bell", status="in_progress", priority="high", category="Vendors"),
    _t("inv20417", "finance_ops", "03-05 09:10", "alex.morgan",
       f"{INVOICE} from {INVOICE_VENDOR}: is it scheduled for payment?",
       f"The billing team at {INVOICE_VENDOR} emailed me a reminder: invoice {INVOICE} of February 13 for "
       f"{INVOICE_AMOUNT} (February freight, {INVOICE_PO}) is due on {INVOICE_DUE}. Is it scheduled for payment?",
       assignee="tomas.rivera", status="waiting", category="Payments", due="03-13 17:00", watchers=["priya.shah"]),
    _t("contoso_net45", "finance_ops", "03-06 11:00", "maya.young",
       f"Contoso renewal: Net 45 terms and {CONTOSO_PO} on the billing account",
       f"Contoso asks for Net 45 on the renewal of {CONTOSO_CONTRACT} (3 years from April 1 at {CONTOSO_RENEWAL} a "
       f"year). Their purchase order is {CONTOSO_PO}. Please set up the billing account once the renewal is "
       "signed (by March 31).",
       assignee="priya.shah", status="waiting", category="Billing", due="03-31 17:00"),
    _t("proseware_dispute", "finance_ops", "03-06 14:00", "samuel.green",
       "Proseware invoice INV-20470 disputed: placement fee billed twice",
       "Proseware Recruiting's INV-20470 ($11,500.00) bills a placement fee we already paid on INV-20388. "
       "Please hold the payment while I sort it out with Alicia Gomez.",
       assignee="owen.bell", status="in_progress", priority="high", category="Payments", due="03-12 17:00"),
    _t("card_limit", "finance_ops", "03-06 16:00", "alex.morgan", "Raise my corporate card limit for the offsite",
       f"I'll pay the offsite incidentals ({OFFSITE_VENUE}, {OFFSITE_DATES}) on my card. Please raise the limit "
       "from $5,000 to $10,000 for April.",
       assignee="priya.shah", category="Cards", due="03-20 17:00"),
]  # fmt: skip

# (ticket key, "MM-DD HH:MM", author, body, internal)
_COMMENTS = [
    ("slow_laptop", "02-24 15:00", "leo.hall",
     "Please run the diagnostics app from Self Service and reply here with the report code it shows.", False),
    ("guest_wifi", "02-26 10:41", "leo.hall",
     "The guest network is NW-Guest; the password is on the card at reception on 11 and changes every Monday.",
     False),
    ("figma_seat", "03-02 09:55", "leo.hall",
     "Figma has 8 seats and 7 are used. Jack owns the subscription: please get his approval on this ticket and "
     "I'll add the seat.", False),
    ("crm_renewal", "03-02 11:30", "leo.hall", "Asked the vendor for the renewal quote.", False),
    ("marketing_over", "03-03 10:10", "owen.bell",
     "Only $6,100 of Content production is unspent, so $7,150 of the overrun stays and needs a line in the "
     "review notes.", True),
    ("req1042_laptops", "03-03 14:02", "leo.hall",
     "Set aside NW-LT-0517 and NW-LT-0518 (MacBook Pro 14, bought February 26); allocation sheet attached. I'll "
     "image them once the offers are signed.", False),
    ("onboarding_req1042", "03-04 09:15", "ella.moore",
     "Checklist started for both. Day 1 in Boston: welcome breakfast 9:30, IT setup 11:00, benefits walkthrough "
     "14:00 (I'll join by video).", False),
    ("chg_atlas", "03-04 16:10", "mia.thompson",
     "Runbook v1.2 attached. On call for the window: Mia primary, Noah secondary.", False),
    ("offsite_av", "03-05 10:20", "ruby.walker",
     "The lodge sent their AV inventory (attached). Projectors, screens and the video bar are included; lapel "
     "microphones cost extra. I asked them to hold one for Dana's session and am waiting for their answer.", False),
    ("offsite_av", "03-05 11:00", "amelia.ward",
     "Dana would also like a confidence monitor facing the stage, if they have one.", False),
    ("chg_atlas", "03-05 09:20", "kai.nakamura",
     "Security review done. No objection, as long as the new load balancer certificates are in the expiry "
     "monitor (lesson from INC-3021).", True),
    ("inv20417", "03-05 11:40", "tomas.rivera",
     "It's in the approval queue: invoices between $5,000 and $25,000 need Priya or Owen, and this one is with "
     "Priya. We don't have Fabrikam's PDF on file though. Could you attach the copy they emailed you? Then "
     "Priya can approve it for the March 12 payment run.", False),
    ("inv20417", "03-05 11:45", "tomas.rivera", "Waiting on Alex for the PDF.", True),
    ("dental", "03-02 14:00", "ella.moore",
     "Happy to. Please attach a copy of your marriage certificate here so the insurer can process it.", False),
    ("key_noah", "03-06 09:10", "kai.nakamura",
     "Shipping keys to remote staff this week; yours goes out by courier on Tuesday.", False),
    ("chg_atlas", "03-06 10:00", "mia.thompson",
     "Waiting on the readiness review (March 17) and the load test (March 20) before asking for approval.", False),
    ("offsite_av", "03-06 09:45", "ruby.walker", "The lodge's events desk says they will answer by March 11.", True),
    ("kinzie_plan", "03-06 12:15", "ruby.walker",
     "Floor plan attached. It fits 45 desks at 6 ft spacing, but only one meeting room unless we give up 6 desks.",
     False),
    ("crm_renewal", "03-06 14:41", "victor.alvarez", "Keep the 12th seat for the new AE.", False),
    ("crm_renewal", "03-06 14:43", "leo.hall",
     "Will do. Quote Q-55817 attached: same price per seat as last year, valid until March 20.", False),
    ("printer_toner", "03-06 16:35", "maya.young",
     "That one is being recycled; please use the new printer next to Room 4B.", False),
    ("printer_replace", "03-06 17:40", "maya.young",
     "The new printer next to Room 4B is live and scan to email works. The old one goes to recycling on "
     "Tuesday March 10.", False),
    ("contoso_net45", "03-06 15:30", "priya.shah",
     "Net 45 needs Marcus's OK. Waiting for the pricing sign-off on March 12 before I set it up.", False),
    ("proseware_dispute", "03-06 14:20", "owen.bell", "Payment on hold; it won't go out in the March 12 run.", False),
    ("accounts_joiners", "03-09 08:45", "leo.hall", "They'll be ready by April 8.", False),
    ("req1042_laptops", "03-09 08:40", "samuel.green",
     "Jordan's offer expires March 12 and Priyanka's March 13; I'll post here as soon as they sign.", False),
    ("vendor_review", "03-06 15:25", "kai.nakamura",
     "Four accounts on the list. I'd keep Adatum's until their contract ends in June.", False),
]  # fmt: skip

# (from ticket, relation, to ticket)
_LINKS = [
    ("onboarding_req1042", "relates_to", "req1042_laptops", "03-04 09:20", "ella.moore"),
    ("key_lily", "relates_to", "key_noah", "03-06 10:30", "kai.nakamura"),
    ("accounts_joiners", "relates_to", "req1042_laptops", "03-09 08:46", "leo.hall"),
]


# ---- attachments ------------------------------------------------------------------------------


@functools.cache
def _crm_quote_pdf() -> bytes:
    """The CRM vendor's renewal quote."""
    return make_pdf(
        "CRM subscription renewal - quote Q-55817",
        [
            "Prepared for: Northwind Traders, attention Leo Hall",
            "Product: CRM subscription, Business edition",
            "Term: March 28, 2026 to March 27, 2027",
            "Seats: 12 at $1,800.00 per seat per year",
            "Total: $21,600.00 per year (unchanged from last year)",
            "Quote valid until: March 20, 2026",
            "Payment terms: Net 30 from the invoice date",
        ],
    )


@functools.cache
def _laptop_allocation_xlsx() -> bytes:
    """Which laptop goes to which REQ-1042 hire."""
    return make_xlsx(
        {
            "Allocation": [
                ["Asset tag", "Model", "For", "Start date", "Ship to", "Status"],
                ["NW-LT-0517", "MacBook Pro 14", "Jordan Blake", "2026-04-13", "Boston office", "Set aside"],
                ["NW-LT-0518", "MacBook Pro 14", "Priyanka Rao", "2026-04-13", "Boston office", "Set aside"],
            ]
        }
    )


@functools.cache
def _vendor_accounts_xlsx() -> bytes:
    """Vendor accounts with no sign-in for 90 days."""
    return make_xlsx(
        {
            "Inactive accounts": [
                ["Account", "Vendor", "Last sign-in", "Sponsor", "Proposed action"],
                ["svc-adatum-pentest", "Adatum Security", "2025-11-20", "Kai Nakamura", "Keep until June 30"],
                ["lit-support-02", "Litware Cloud Services", "2025-10-02", "Ethan Brooks", "Disable"],
                ["prose-ats-sync", "Proseware Recruiting", "2025-12-01", "Samuel Green", "Disable"],
                ["wwi-merch-portal", "Wide World Importers", "2025-09-15", "Zoe Adams", "Disable"],
            ]
        }
    )


@functools.cache
def _lodge_av_pdf() -> bytes:
    """Lakeside Lodge's AV inventory for the offsite booking."""
    return make_pdf(
        f"{OFFSITE_VENUE} - AV inventory",
        [
            f"Booking {OFFSITE_BOOKING}: Northwind Traders, April 22-24, 2026.",
            "Included with the package (main meeting room):",
            "- 2 ceiling projectors, 5,000 lumens, with 120-inch screens",
            "- Video bar with camera and speakerphone",
            "- 2 handheld wireless microphones",
            "- Wireless presenter (ask at the events desk)",
            "On request, charged extra:",
            "- Lapel microphone: $45 per day each",
            "- Confidence monitor: $120 per day",
            "AV technician on call 08:00-18:00 each day, extension 214.",
            "Wi-Fi: network NWT-Offsite, code on the welcome card.",
        ],
    )


@functools.cache
def _marketing_reclass_xlsx() -> bytes:
    """Zoe's proposal to move unspent Content production budget against Events."""
    return make_xlsx(
        {
            "Reclass": [
                ["Line", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)", "Proposed move (USD)"],
                ["Events", 48000, 61250, -13250, 6100],
                ["Content production", 18000, 11900, 6100, -6100],
                ["Events after the move", 54100, 61250, -7150, ""],
            ]
        }
    )


@functools.cache
def _proseware_invoice_pdf() -> bytes:
    """Proseware Recruiting's disputed invoice."""
    return make_pdf(
        "Proseware Recruiting - invoice INV-20470",
        [
            "Invoice date: March 5, 2026. Due: April 4, 2026.",
            "Bill to: Northwind Traders, People team (Samuel Green)",
            "Placement fee, Senior Account Executive hire, February 2026: $11,500.00",
            "Total due: $11,500.00",
        ],
    )


# (ticket key, name, bytes, uploaded by, "MM-DD HH:MM")
def _attachments() -> list[tuple[str, str, bytes, str, str]]:
    return [
        ("marketing_over", "Marketing Q1 reclass request.xlsx", _marketing_reclass_xlsx(), "zoe.adams", "03-02 15:30"),
        ("req1042_laptops", "REQ-1042 laptop allocation.xlsx", _laptop_allocation_xlsx(), "leo.hall", "03-03 14:02"),
        ("chg_atlas", "Atlas cutover runbook v1.2.pdf", atlas_runbook_pdf(), "mia.thompson", "03-04 16:10"),
        ("offsite_av", "Lakeside Lodge AV inventory.pdf", _lodge_av_pdf(), "ruby.walker", "03-05 10:20"),
        ("kinzie_plan", "Kinzie St floor plan.png", make_png(640, 400, (222, 228, 235)), "ruby.walker", "03-06 12:15"),
        ("proseware_dispute", "INV-20470 Proseware.pdf", _proseware_invoice_pdf(), "samuel.green", "03-06 14:00"),
        ("crm_renewal", "CRM renewal quote Q-55817.pdf", _crm_quote_pdf(), "leo.hall", "03-06 14:43"),
        ("vendor_review", "Vendor accounts inactive 90 days.xlsx", _vendor_accounts_xlsx(), "kai.nakamura",
         "03-06 15:20"),
        ("printer_toner", "printer panel.png", make_png(320, 240, (40, 44, 52)), "owen.bell", "03-06 16:20"),
    ]  # fmt: skip


# ---- build ------------------------------------------------------------------------------------


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """The helpdesk's initial state as JSON-able values (see ``tools.apps.helpdesk.state.HelpdeskState``).

    Args:
        people: The directory's people by id (``tools.companies.default.people.people_records()``).
        now: The frozen current instant.
        user: The acting user's email address.
    """

    def email(pid: str) -> str:
        return str(people[pid]["email"])

    queues = {
        qid: {"id": qid, "name": name, "description": text, "lead": email(lead),
              "staff": [email(s) for s in staff], "sla_hours": dict(_SLA_HOURS)}
        for qid, name, lead, staff, text in _QUEUES
    }  # fmt: skip
    specs = sorted(_TICKETS, key=lambda s: (_at(s["created"]), s["key"]))
    key_of = {s["key"]: f"HD-{1001 + n}" for n, s in enumerate(specs)}
    tickets: dict[str, dict[str, Any]] = {}
    for s in specs:
        created = _at(s["created"])
        priority = s.get("priority", "normal")
        status = s.get("status", "open")
        due = _at(s["due"]) if "due" in s else created + timedelta(hours=_SLA_HOURS[priority])
        resolved = _at(s["resolved"]) if "resolved" in s else None
        closed = resolved + timedelta(days=7) if status == "closed" and resolved else None
        last = max(
            [created, *(_at(c[1]) for c in _COMMENTS if c[0] == s["key"]), *(x for x in (resolved, closed) if x)]
        )
        tid = key_of[s["key"]]
        tickets[tid] = {
            "id": tid,
            "queue_id": s["queue"],
            "title": s["title"],
            "description": s["description"],
            "category": s.get("category", ""),
            "status": status,
            "priority": priority,
            "requester": email(s["requester"]),
            "assignee": email(s["assignee"]) if s.get("assignee") else "",
            "watchers": [email(w) for w in s.get("watchers", [])],
            "created": created.isoformat(),
            "updated": min(last, now).isoformat(),
            "due": due.isoformat(),
            "resolution": s.get("resolution", ""),
            "resolved_at": resolved.isoformat() if resolved else None,
            "closed_at": closed.isoformat() if closed else None,
        }
    comments = {}
    for n, (key, when, author, body, internal) in enumerate(sorted(_COMMENTS, key=lambda c: (_at(c[1]), c[0])), 1):
        cid = f"cmt_{n:03d}"
        comments[cid] = {"id": cid, "ticket_id": key_of[key], "author": email(author), "body": body,
                         "internal": internal, "created": _at(when).isoformat()}  # fmt: skip
    attachments = {}
    for n, (key, name, data, who, when) in enumerate(_attachments(), 1):
        aid = f"att_{n:03d}"
        attachments[aid] = {"id": aid, "ticket_id": key_of[key], "name": name, "mime_type": mime_type_for(name),
                            "size": len(data), "blob": keep(data), "uploaded_by": email(who),
                            "created": _at(when).isoformat()}  # fmt: skip
    links = {}
    for n, (src, kind, dst, when, who) in enumerate(_LINKS, 1):
        lid = f"lnk_{n:03d}"
        links[lid] = {"id": lid, "source_id": key_of[src], "target_id": key_of[dst], "kind": kind,
                      "created": _at(when).isoformat(), "created_by": email(who)}  # fmt: skip
    return {"queues": queues, "tickets": tickets, "comments": comments, "attachments": attachments, "links": links}
