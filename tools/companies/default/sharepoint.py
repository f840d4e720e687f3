"""SharePoint's part of the default company: four team sites with their document libraries and lists."""

# Libraries hold real Word, Excel, PDF and CSV files; lists are vendor onboarding, room bookings,
# open requisitions, Atlas risks and the invoice tracker. Every fact agrees with
# tools.companies.default.facts and with the drive, mail and calendar data.

from __future__ import annotations

import functools
import random
from datetime import date, datetime, time, timedelta
from typing import Any

from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    ATLAS_GO_NO_GO,
    CONTOSO_CONTRACT,
    CONTOSO_PO,
    INVOICE,
    INVOICE_AMOUNT,
    INVOICE_PO,
    MARKETING_OVERRUN,
    OFFSITE_BOOKING,
    OFFSITE_DATES,
    OFFSITE_PEOPLE,
    OFFSITE_PLACE,
    OFFSITE_VENUE,
)
from tools.companies.shared import keep
from tools.kernel.documents import make_docx, make_pdf, make_xlsx, mime_type_for

__all__ = ["build"]

_BASE_URL = "https://northwind.sharepoint.example/sites"

# (id, name, url slug, description, created day, members [(who, role)])
# fmt: off
_SITES: list[tuple[str, str, str, str, str, list[tuple[str, str]]]] = [
    ("site_operations", "Operations", "Operations", "Vendors, facilities, meeting rooms and the leadership offsite.",
     "2023-04-03",
     [("victor.alvarez", "full_control"), ("leo.hall", "full_control"), ("me", "full_control"),
      ("ruby.walker", "edit"), ("maya.young", "edit"), ("amelia.ward", "contribute"), ("marcus.reed", "read"),
      ("priya.shah", "read"), ("tomas.rivera", "read"), ("zoe.adams", "read"),
      ("events@lakesidelodge.example", "read")]),
    ("site_people", "People & Culture", "PeopleCulture", "Hiring, headcount, onboarding and people policies.",
     "2023-04-03",
     [("nora.patel", "full_control"), ("leo.hall", "full_control"), ("samuel.green", "edit"), ("ella.moore", "edit"),
      ("me", "edit"), ("dana.whitfield", "read"), ("liam.chen", "read"), ("ethan.brooks", "read"),
      ("victor.alvarez", "read"), ("james.okafor", "read"), ("zoe.adams", "read"), ("olivia.baker", "read"),
      ("priya.shah", "read"), ("alicia.gomez@proseware.example", "read")]),
    ("site_atlas", "Atlas Program", "AtlasProgram",
     "The Atlas migration: plans, runbooks, status reports and the risk log.", "2025-09-15",
     [("liam.chen", "full_control"), ("elena.petrova", "full_control"), ("leo.hall", "full_control"),
      ("me", "full_control"), ("mia.thompson", "edit"), ("ethan.brooks", "edit"), ("sofia.garcia", "contribute"),
      ("noah.williams", "contribute"), ("ava.johnson", "contribute"), ("kai.nakamura", "contribute"),
      ("lucas.martin", "read"), ("olivia.baker", "read"), ("dana.whitfield", "read"),
      ("kim.lau@adatum.example", "contribute"), ("rachel.stone@litware.example", "read")]),
    ("site_finance", "Finance", "Finance", "Budgets, invoices, contracts and the month-end close.", "2023-04-03",
     [("marcus.reed", "full_control"), ("priya.shah", "full_control"), ("leo.hall", "full_control"),
      ("owen.bell", "edit"), ("grace.kim", "edit"), ("tomas.rivera", "contribute"), ("me", "contribute"),
      ("dana.whitfield", "read"), ("zoe.adams", "read"), ("maya.young", "read")]),
]
# fmt: on

# (id, site id, name, description)
_LIBRARIES = [
    ("lib_operations_documents", "site_operations", "Documents", "Operations documents."),
    ("lib_people_documents", "site_people", "Documents", "People & Culture documents."),
    ("lib_atlas_documents", "site_atlas", "Documents", "Atlas Program documents."),
    ("lib_finance_documents", "site_finance", "Documents", "Finance documents."),
    ("lib_finance_audit", "site_finance", "Audit evidence", "Evidence for the FY2025 audit (fieldwork from April 6)."),
]


# ---- documents --------------------------------------------------------------------------------


def _vendor_checklist(version: int) -> bytes:
    steps = [
        ("Step", "What", "Who"),
        ("1", "Vendor sends legal company name and address", "Vendor"),
        ("2", "Tax form received (W-9 for US vendors)", "Procurement"),
        ("3", "Bank details on company letterhead, confirmed by phone", "Accounts Payable"),
        ("4", "Named contact for invoices", "Vendor"),
        ("5", "Security questionnaire for vendors that touch customer data", "Kai Nakamura"),
    ]
    paragraphs = [
        "Owner: Maya Young (Procurement). Track every new vendor on the Vendor onboarding list.",
        "New vendors are set up within 5 business days after all documents arrive.",
    ]
    if version >= 2:
        steps.append(("6", "Certificate of insurance, at least $2,000,000 general liability, if on site", "Vendor"))
    if version >= 3:
        paragraphs.append("Contracts above $25,000 also need a signed order form approved by Victor Alvarez.")
    return make_docx("Vendor onboarding checklist", paragraphs, steps)


def _contacts(people: dict[str, dict[str, Any]]) -> bytes:
    """The Atlas cutover contact sheet (CSV), with names, emails and phones from the directory."""
    rows = ["Role,Name,Email,Phone,On duty (ET)"]
    for role, pid, duty in [
        ("Cutover lead", "mia.thompson", "Sat April 18 04:00-14:00"),
        ("Engineering owner", "liam.chen", "Sat April 18 05:00-14:00"),
        ("Secondary on-call", "noah.williams", "Sat April 18 05:00-14:00"),
        ("Database", "sofia.garcia", "Sat April 18 05:00-12:00"),
        ("Security and egress IPs", "kai.nakamura", "On call"),
        ("Support lead", "olivia.baker", "Sat April 18 08:00-12:00"),
        ("Executive sponsor", "elena.petrova", "Go/no-go and escalations"),
    ]:
        p = people[pid]
        rows.append(f"{role},{p['name']},{p['email']},{p['phone']},{duty}")
    return ("\n".join(rows) + "\n").encode("utf-8")


@functools.cache
def _documents() -> dict[str, bytes]:
    """Every other document's bytes by key (made once: they depend on nothing but this module)."""
    return {
        "vendor_checklist_v1": _vendor_checklist(1),
        "vendor_checklist_v2": _vendor_checklist(2),
        "vendor_checklist": _vendor_checklist(3),
        "vendor_scorecard": make_xlsx(
            {
                "Q4 2025": [
                    ("Vendor", "On-time delivery (%)", "Quality (1-5)", "Open issues", "Score"),
                    ("Fabrikam Logistics", 96.5, 4, 1, 88),
                    ("Northwind Office Supply", 99.1, 4, 0, 91),
                    ("Tailspin Travel", 92.0, 3, 2, 74),
                    ("Litware Cloud Services", 99.9, 5, 0, 97),
                    ("Proseware Recruiting", 85.0, 3, 3, 68),
                ]
            }
        ),
        "vendor_list_2024": make_xlsx(
            {
                "Vendors": [
                    ("Vendor", "Category", "Contract end"),
                    ("Fabrikam Logistics", "Freight and courier", "2025-09-30"),
                    ("Tailspin Travel", "Corporate travel", "2025-08-31"),
                ]
            }
        ),
        "lease_comparison": make_xlsx(
            {
                "Options": [
                    (
                        "Option",
                        "Address",
                        "Square feet",
                        "Rate (USD per sq ft a year)",
                        "Term (years)",
                        "One-time cost (USD)",
                        "Five-year cost (USD)",
                    ),
                    ("A - renew", "225 W Wacker Dr, 11th floor", 9800, 46, 5, 48000, 2254000),
                    ("B - move", "220 W Kinzie St", 8600, 41, 7, 180000, 1943000),
                ]
            }
        ),
        "room_guide": make_pdf(
            "Meeting room guide",
            [
                "New York: Main Hall (floor 2, 60 people) for all-hands; Room 2A (6) for interviews and 1:1s;",
                "Room 3C (8); Room 4B (10, interviews have priority); Harbor Room (10) for customer meetings;",
                "Studio B (6, no video) for photo and video; Hudson Room (12th floor, 12) for exec staff;",
                "Boardroom (12th floor, 16) for board meetings and auditors.",
                "Hudson Room and Boardroom are booked through Amelia Ward; every booking goes on the",
                "Room bookings list on this site.",
                "Chicago: Lakeview (10), Wacker (4). San Francisco: Golden Gate (8), Presidio (4, no video).",
            ],
        ),
        "lodge_agreement": make_pdf(
            f"{OFFSITE_VENUE} group agreement {OFFSITE_BOOKING}",
            [
                f"Client: Northwind Traders. Venue: {OFFSITE_VENUE}, {OFFSITE_PLACE}.",
                f"Dates: Wednesday-Friday {OFFSITE_DATES}, 2026 (two nights). Group size: {OFFSITE_PEOPLE} people.",
                "Package: rooms, meals, the Boathouse meeting room and one guided hike: $38,500 all in.",
                "Deposit: $4,000, paid February 27 (invoice INV-20441). Balance of $34,500 due April 8, 2026.",
                "Cancellation after March 23 forfeits the deposit. Final headcount due April 1.",
                "Contact: events@lakesidelodge.example. Signed for Northwind by Alex Morgan.",
            ],
        ),
        "ops_weekly": make_docx(
            "Operations weekly (2026-03-06)",
            [
                "Attendees: Victor Alvarez, Ruby Walker, Leo Hall, Maya Young.",
                "Contoso renewal: proposal at +3% ($444,960 a year) is with Contoso; pricing sign-off due March 12.",
                "Chicago lease: Ruby is checking the Kinzie St floor plan for 45 desks; decision by March 31.",
                "Offsite: final headcount to Lakeside Lodge by April 1.",
            ],
        ),
        "headcount_plan": make_xlsx(
            {
                "Plan": [
                    ("Department", "Today", "Open requisitions", "Planned by Dec 31"),
                    ("Customer Success", 4, 1, 5),
                    ("Engineering", 10, 3, 14),
                    ("Executive", 3, 1, 4),
                    ("Finance", 5, 1, 6),
                    ("Legal", 2, 0, 3),
                    ("Marketing", 4, 1, 5),
                    ("Operations", 4, 1, 5),
                    ("People", 3, 0, 3),
                    ("Sales", 5, 1, 6),
                    ("Total", 40, 9, 51),
                ],
                "Notes": [
                    ("Note",),
                    ("Engineering adds a Security Engineer (REQ-1055) in September, not yet open.",),
                    ("Legal adds a Commercial Counsel in H2, not yet open.",),
                    ("Owner: Nora Patel. Approved by Marcus Reed on January 14, 2026.",),
                ],
            }
        ),
        "scorecard_template": make_docx(
            "Interview scorecard",
            [
                "Rate each area from 1 (no evidence) to 4 (strong evidence) and write what you saw.",
                "Submit in the HR system within 24 hours of the interview; the debrief is within 2 business days.",
            ],
            [
                ("Area", "Rating (1-4)", "Evidence"),
                ("Role skills", "", ""),
                ("Problem solving", "", ""),
                ("Collaboration", "", ""),
                ("Values", "", ""),
            ],
        ),
        "handbook": make_pdf(
            "Employee handbook 2026",
            [
                "Core hours: 10:00-16:00 in your time zone. Anchor days in the office: Tuesday and Thursday.",
                "Home office stipend: $600 per calendar year for remote and hybrid employees.",
                "Working from another country: up to 20 working days a year with manager approval.",
                "Performance reviews: self reviews April 1-15; manager reviews due May 1.",
                "Questions: Ella Moore (People Operations) or Nora Patel (Head of People).",
            ],
        ),
        "onboarding_checklist": make_docx(
            "New hire onboarding checklist",
            [
                "Owner: Ella Moore (People Operations). One copy per new hire.",
                "Before day 1: offer signed (Samuel Green); laptop ordered 10 business days ahead (Leo Hall).",
                "Day 1: welcome breakfast at 9:30, IT setup at 11:00, benefits walkthrough at 14:00.",
                "Laptops NW-LT-0517 and NW-LT-0518 are set aside for the REQ-1042 hires.",
            ],
        ),
        "runbook": make_pdf(
            "Atlas cutover runbook",
            [
                "Owner: Mia Thompson (SRE). Reviewers: Liam Chen, Kai Nakamura.",
                f"Cutover: {ATLAS_CUTOVER}, 06:00-10:00 ET, then a 4-hour fallback window.",
                f"Go/no-go call: {ATLAS_GO_NO_GO}. Deploy freeze from Friday April 17, 06:00.",
                "1. T-24h: freeze deploys to order and inventory services.",
                "2. T-2h: announce in #atlas-cutover; confirm on-call coverage (Mia primary, Noah secondary).",
                "3. T-0: set the legacy order database to read-only.",
                "4. Final replication; compare row counts for orders, order_lines and stock_levels.",
                "5. Switch DNS for orders.internal to the Atlas load balancer (TTL already 60 s).",
                "6. Smoke checks: place a test order, reserve stock, cancel the order.",
                "7. Fallback: if checkout errors exceed 2% for 10 minutes, point DNS back to legacy.",
            ],
        ),
        "architecture": make_docx(
            "Atlas target architecture",
            [
                "Order and inventory services run on the Atlas platform: managed Kubernetes and Postgres 16.",
                "Events flow over the event bus chosen in ADR-014; Postgres 16 per ADR-015.",
                "The legacy data centre contract ends May 31, 2026; legacy shutdown is planned for May 15.",
            ],
        ),
        "status_0225": make_docx(
            "Atlas status report (2026-02-25)",
            [
                "Inventory service migrated on February 27 as planned (dry run done).",
                "Load test booked for March 13 at 2x peak (1,850 orders a minute at peak, so 3,700).",
            ],
        ),
        "status_0304": make_docx(
            "Atlas status report (2026-03-04)",
            [
                "Inventory service has run on Atlas for a week with no incidents; p95 latency 310 ms -> 190 ms.",
                "Order service: replication lag peaks above 20 seconds around midday; Sofia Garcia is tuning pools.",
                "The load test moved from March 13 to March 20 because the test environment quota is pending.",
                f"Cutover stays on {ATLAS_CUTOVER}.",
            ],
        ),
        "load_test": make_xlsx(
            {
                "Scenarios": [
                    ("Scenario", "Target orders per minute", "Duration (minutes)", "Pass if", "Date"),
                    ("Baseline", 1850, 30, "p95 under 250 ms", "2026-03-20"),
                    ("2x peak", 3700, 60, "p95 under 400 ms, errors under 0.5%", "2026-03-20"),
                    ("Failover", 1850, 20, "recovery under 5 minutes", "2026-03-20"),
                ]
            }
        ),
        "q1_review": make_xlsx(
            {
                "Q1": [
                    ("Department", "Line", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)"),
                    ("Engineering", "Cloud hosting", 186000, 131400, 54600),
                    ("Engineering", "Contractors", 60000, 48200, 11800),
                    ("Marketing", "Events", 48000, 61250, -13250),
                    ("Marketing", "Paid media", 75000, 52300, 22700),
                    ("Sales", "Travel", 36000, 24780, 11220),
                    ("People", "Recruiting fees", 45000, 30500, 14500),
                    ("Operations", "Facilities", 94000, 70150, 23850),
                    ("Finance", "Audit and tax", 40000, 12500, 27500),
                    ("Executive", "Leadership offsite", 38500, 4000, 34500),
                ],
                "Summary": [
                    ("Item", "Value"),
                    ("Only line over budget", f"Marketing Events ({MARKETING_OVERRUN})"),
                    ("Final numbers to Marcus Reed", "2026-03-13"),
                ],
            }
        ),
        "inv_20401": make_pdf(
            "Litware Cloud Services - invoice INV-20401",
            [
                "Invoice date: 2026-02-05. Due: 2026-03-07.",
                "Cloud hosting, January 2026: $14,210.55. Status: paid.",
            ],
        ),
        "inv_20422": make_pdf(
            "Northwind Office Supply - invoice INV-20422",
            [
                "Invoice date: 2026-02-16. Due: 2026-03-18.",
                "Office supplies, February 2026: $1,892.40. Approved by Tomas Rivera.",
            ],
        ),
        "contoso_pricing": make_xlsx(
            {
                "Renewal": [
                    ("Term", "Start", "Annual value (USD)", "Note"),
                    (f"Current ({CONTOSO_CONTRACT})", "2023-04-01", 432000, "Ends 2026-03-31"),
                    ("Renewal year 1", "2026-04-01", 444960, "+3%"),
                    ("Renewal year 2", "2027-04-01", 444960, "Fixed"),
                    ("Renewal year 3", "2028-04-01", 444960, "Fixed"),
                ],
                "Terms": [
                    ("Item", "Value"),
                    ("Payment terms asked", "Net 45 (standard Net 30); Marcus Reed decides"),
                    ("Purchase order", CONTOSO_PO),
                    ("Pricing sign-off", "Alex Morgan, James Okafor, Marcus Reed by March 12"),
                ],
            }
        ),
        "close_calendar": make_docx(
            "March close calendar",
            [
                "Final Q1 budget review numbers to Marcus Reed by Friday March 13.",
                f"Invoice {INVOICE} ({INVOICE_AMOUNT}, {INVOICE_PO}) must be approved before the March 15 due date.",
                "Month-end close: accruals by April 2, close meeting April 6 (audit fieldwork starts the same day).",
            ],
        ),
        "audit_requests": make_xlsx(
            {
                "Requests": [
                    ("Request", "Owner", "Due", "Status"),
                    ("Bank reconciliations, December", "Tomas Rivera", "2026-03-20", "Done"),
                    ("Fixed asset register", "Owen Bell", "2026-03-27", "In progress"),
                    ("Contracts over $100K (Contoso, Litware)", "Priya Shah", "2026-03-27", "Not started"),
                ]
            }
        ),
    }


# (id, site, library, folder id or "", name, doc key or None for a folder, author, day)
# fmt: off
_ITEMS: list[tuple[str, str, str, str, str, str | None, str, str]] = [
    ("folder_ops_vendor_management", "site_operations", "lib_operations_documents", "", "Vendor management", None,
     "maya.young", "2025-06-02"),
    ("doc_vendor_onboarding_checklist", "site_operations", "lib_operations_documents", "folder_ops_vendor_management",
     "Vendor onboarding checklist.docx", "vendor_checklist", "maya.young", "2026-02-18"),
    ("doc_vendor_scorecard_q4_2025", "site_operations", "lib_operations_documents", "folder_ops_vendor_management",
     "Vendor scorecard Q4 2025.xlsx", "vendor_scorecard", "maya.young", "2026-01-09"),
    ("doc_vendor_list_2024", "site_operations", "lib_operations_documents", "folder_ops_vendor_management",
     "Vendor list 2024.xlsx", "vendor_list_2024", "maya.young", "2024-11-20"),
    ("folder_ops_facilities", "site_operations", "lib_operations_documents", "", "Facilities", None, "ruby.walker",
     "2024-01-15"),
    ("doc_chicago_lease_comparison", "site_operations", "lib_operations_documents", "folder_ops_facilities",
     "Chicago lease comparison.xlsx", "lease_comparison", "ruby.walker", "2026-03-02"),
    ("doc_meeting_room_guide", "site_operations", "lib_operations_documents", "folder_ops_facilities",
     "Meeting room guide.pdf", "room_guide", "ruby.walker", "2026-01-20"),
    ("folder_ops_offsite_2026", "site_operations", "lib_operations_documents", "", "Offsite 2026", None, "me",
     "2026-01-22"),
    ("doc_lakeside_lodge_agreement", "site_operations", "lib_operations_documents", "folder_ops_offsite_2026",
     "Lakeside Lodge agreement NWT-4471.pdf", "lodge_agreement", "me", "2026-02-26"),
    ("doc_ops_weekly_2026_03_06", "site_operations", "lib_operations_documents", "",
     "Operations weekly 2026-03-06.docx", "ops_weekly", "victor.alvarez", "2026-03-06"),
    ("folder_people_hiring", "site_people", "lib_people_documents", "", "Hiring", None, "nora.patel", "2024-02-01"),
    ("doc_headcount_plan_2026", "site_people", "lib_people_documents", "folder_people_hiring",
     "Headcount plan 2026.xlsx", "headcount_plan", "nora.patel", "2026-01-14"),
    ("doc_interview_scorecard", "site_people", "lib_people_documents", "folder_people_hiring",
     "Interview scorecard template.docx", "scorecard_template", "samuel.green", "2025-10-06"),
    ("folder_people_policies", "site_people", "lib_people_documents", "", "Policies", None, "nora.patel",
     "2024-02-01"),
    ("doc_employee_handbook_2026", "site_people", "lib_people_documents", "folder_people_policies",
     "Employee handbook 2026.pdf", "handbook", "nora.patel", "2026-01-02"),
    ("doc_new_hire_onboarding_checklist", "site_people", "lib_people_documents", "",
     "New hire onboarding checklist.docx", "onboarding_checklist", "ella.moore", "2026-02-27"),
    ("doc_atlas_cutover_runbook", "site_atlas", "lib_atlas_documents", "", "Atlas cutover runbook.pdf", "runbook",
     "mia.thompson", "2026-03-05"),
    ("doc_atlas_cutover_contacts", "site_atlas", "lib_atlas_documents", "", "Atlas cutover contacts.csv", "contacts",
     "mia.thompson", "2026-03-05"),
    ("doc_atlas_status_2026_03_04", "site_atlas", "lib_atlas_documents", "", "Atlas status 2026-03-04.docx",
     "status_0304", "liam.chen", "2026-03-04"),
    ("folder_atlas_status_reports", "site_atlas", "lib_atlas_documents", "", "Status reports", None, "liam.chen",
     "2025-10-01"),
    ("doc_atlas_status_2026_02_25", "site_atlas", "lib_atlas_documents", "folder_atlas_status_reports",
     "Atlas status 2026-02-25.docx", "status_0225", "liam.chen", "2026-02-25"),
    ("folder_atlas_architecture", "site_atlas", "lib_atlas_documents", "", "Architecture", None, "elena.petrova",
     "2025-09-15"),
    ("doc_atlas_target_architecture", "site_atlas", "lib_atlas_documents", "folder_atlas_architecture",
     "Atlas target architecture.docx", "architecture", "elena.petrova", "2026-01-28"),
    ("folder_atlas_testing", "site_atlas", "lib_atlas_documents", "", "Testing", None, "mia.thompson", "2025-12-01"),
    ("doc_atlas_load_test_plan", "site_atlas", "lib_atlas_documents", "folder_atlas_testing",
     "Atlas load test plan.xlsx", "load_test", "mia.thompson", "2026-03-04"),
    ("folder_finance_budgets", "site_finance", "lib_finance_documents", "", "Budgets", None, "priya.shah",
     "2023-05-01"),
    ("doc_q1_budget_review", "site_finance", "lib_finance_documents", "folder_finance_budgets",
     "Q1 budget review.xlsx", "q1_review", "grace.kim", "2026-03-06"),
    ("folder_finance_invoices", "site_finance", "lib_finance_documents", "", "Invoices", None, "priya.shah",
     "2023-05-01"),
    ("doc_inv_20401", "site_finance", "lib_finance_documents", "folder_finance_invoices",
     "INV-20401 Litware Cloud Services.pdf", "inv_20401", "tomas.rivera", "2026-02-06"),
    ("doc_inv_20422", "site_finance", "lib_finance_documents", "folder_finance_invoices",
     "INV-20422 Northwind Office Supply.pdf", "inv_20422", "tomas.rivera", "2026-02-17"),
    ("folder_finance_contracts", "site_finance", "lib_finance_documents", "", "Contracts", None, "priya.shah",
     "2023-05-01"),
    ("doc_contoso_renewal_pricing", "site_finance", "lib_finance_documents", "folder_finance_contracts",
     "Contoso renewal pricing.xlsx", "contoso_pricing", "maya.young", "2026-03-04"),
    ("doc_march_close_calendar", "site_finance", "lib_finance_documents", "", "March close calendar.docx",
     "close_calendar", "priya.shah", "2026-03-02"),
    ("doc_fy2025_audit_requests", "site_finance", "lib_finance_audit", "", "FY2025 audit request list.xlsx",
     "audit_requests", "owen.bell", "2026-03-03"),
]
# fmt: on

#: Files that start in their site's recycle bin: id -> (deleted by, day).
_RECYCLED = {"doc_vendor_list_2024": ("maya.young", "2026-02-20")}
#: Earlier versions: file id -> [(doc key, author, day)], oldest first.
_VERSIONS = {
    "doc_vendor_onboarding_checklist": [
        ("vendor_checklist_v1", "maya.young", "2025-06-02"),
        ("vendor_checklist_v2", "victor.alvarez", "2025-11-12"),
    ],
}


# ---- lists ------------------------------------------------------------------------------------

_ROOMS = [
    "Main Hall",
    "Room 2A",
    "Room 3C",
    "Room 4B",
    "Harbor Room",
    "Studio B",
    "Hudson Room",
    "Boardroom",
    "Lakeview",
    "Wacker",
    "Golden Gate",
    "Presidio",
]
_HHMM = r"([01]\d|2[0-3]):[0-5]\d"


def _col(
    name: str,
    kind: str,
    required: bool = False,
    choices: list[str] | None = None,
    pattern: str = "",
    description: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "required": required,
        "choices": choices or [],
        "pattern": pattern,
        "description": description,
    }


# (id, site, name, description, columns, item id prefix, rows as {column: value}, creator, day)
# fmt: off
_LISTS: list[tuple[str, str, str, str, list[dict[str, Any]], str, list[dict[str, Any]], str, str]] = [
    ("list_vendor_onboarding", "site_operations", "Vendor onboarding",
     "New vendors being set up, with their owner and paperwork.",
     [_col("Vendor", "text", True), _col("Owner", "person", True),
      _col("Status", "choice", True, ["Not started", "In progress", "Done"]), _col("Due", "date"),
      _col("Contract value", "number"), _col("W-9 received", "boolean"), _col("Notes", "text")],
     "vendor", [
         {"Vendor": "Lakeside Lodge", "Owner": "alex.morgan", "Status": "Done", "Due": "2026-02-20",
          "Contract value": 38500, "W-9 received": True, "Notes": "Offsite venue, booking NWT-4471"},
         {"Vendor": "Wide World Importers", "Owner": "zoe.adams", "Status": "In progress", "Due": "2026-03-13",
          "Contract value": 15000, "W-9 received": False, "Notes": "Event merchandise for the spring launch"},
         {"Vendor": "Adatum Security", "Owner": "kai.nakamura", "Status": "Done", "Due": "2026-01-30",
          "Contract value": 35000, "W-9 received": True, "Notes": "Penetration test of the Atlas platform"},
         {"Vendor": "Proseware Recruiting", "Owner": "samuel.green", "Status": "In progress", "Due": "2026-03-20",
          "Contract value": 60000, "W-9 received": True, "Notes": "Bank details letter still missing"},
         {"Vendor": "Fourth Coffee", "Owner": "ruby.walker", "Status": "In progress", "Due": "2026-03-16",
          "Contract value": 6400, "W-9 received": False, "Notes": "Office coffee service, New York and Chicago"},
         {"Vendor": "Southridge Video", "Owner": "henry.scott", "Status": "In progress", "Due": "2026-03-18",
          "Contract value": 12500, "W-9 received": True, "Notes": "Webinar series production"},
         {"Vendor": "Trey Research", "Owner": "lily.turner", "Status": "Not started", "Due": "2026-03-27",
          "Contract value": 24000, "Notes": "Market research for the spring launch"},
         {"Vendor": "Graphic Design Institute", "Owner": "jack.hughes", "Status": "Not started", "Due": "2026-04-03",
          "Contract value": 9000},
         {"Vendor": "Coho Winery", "Owner": "ruby.walker", "Status": "Not started", "Due": "2026-04-10",
          "Contract value": 3200, "Notes": "Offsite dinner on April 23"},
     ], "maya.young", "2025-06-02"),
    ("list_room_bookings", "site_operations", "Room bookings",
     "Bookings of the New York rooms; Hudson Room and Boardroom go through Amelia Ward.",
     [_col("Title", "text", True), _col("Room", "choice", True, _ROOMS), _col("Date", "date", True),
      _col("Start", "text", True, pattern=_HHMM, description="a 24-hour time HH:MM such as 14:00"),
      _col("End", "text", True, pattern=_HHMM, description="a 24-hour time HH:MM such as 15:30"),
      _col("Booked by", "person", True), _col("Attendees", "number"), _col("Catering", "boolean")],
     "room", [
         {"Title": "Contoso renewal: legal review", "Room": "Room 4B", "Date": "2026-03-10", "Start": "10:00",
          "End": "11:00", "Booked by": "isaac.king", "Attendees": 5, "Catering": False},
         {"Title": "Exec staff meeting", "Room": "Hudson Room", "Date": "2026-03-10", "Start": "14:00", "End": "15:00",
          "Booked by": "amelia.ward", "Attendees": 9, "Catering": True},
         {"Title": "Offsite logistics check-in", "Room": "Room 2A", "Date": "2026-03-11", "Start": "09:30",
          "End": "10:00", "Booked by": "ruby.walker", "Attendees": 3, "Catering": False},
         {"Title": "Atlas migration status", "Room": "Room 4B", "Date": "2026-03-11", "Start": "15:00", "End": "15:45",
          "Booked by": "elena.petrova", "Attendees": 6, "Catering": False},
         {"Title": "Northwind all-hands (March)", "Room": "Main Hall", "Date": "2026-03-12", "Start": "16:00",
          "End": "17:00", "Booked by": "amelia.ward", "Attendees": 40, "Catering": True},
         {"Title": "Spring launch photo shoot", "Room": "Studio B", "Date": "2026-03-13", "Start": "09:00",
          "End": "12:00", "Booked by": "jack.hughes", "Attendees": 4, "Catering": False},
         {"Title": "Benefits renewal with broker", "Room": "Room 2A", "Date": "2026-03-13", "Start": "10:00",
          "End": "11:00", "Booked by": "nora.patel", "Attendees": 3, "Catering": False},
         {"Title": "Atlas migration go/no-go", "Room": "Hudson Room", "Date": "2026-03-17", "Start": "10:00",
          "End": "11:00", "Booked by": "elena.petrova", "Attendees": 8, "Catering": False},
         {"Title": "Board deck review", "Room": "Boardroom", "Date": "2026-03-18", "Start": "10:00", "End": "11:30",
          "Booked by": "amelia.ward", "Attendees": 6, "Catering": True},
         {"Title": "Office furniture quotes", "Room": "Room 3C", "Date": "2026-03-18", "Start": "15:00",
          "End": "15:45", "Booked by": "maya.young", "Attendees": 3, "Catering": False},
         {"Title": "Team lunch: executive office", "Room": "Hudson Room", "Date": "2026-03-20", "Start": "12:00",
          "End": "13:30", "Booked by": "amelia.ward", "Attendees": 4, "Catering": True},
     ], "amelia.ward", "2024-01-08"),
    ("list_open_requisitions", "site_people", "Open requisitions",
     "Every approved requisition for 2026 and where it stands.",
     [_col("Req ID", "text", True, pattern=r"REQ-\d{4}", description="REQ- and four digits, e.g. REQ-1042"),
      _col("Title", "text", True),
      _col("Department", "choice", True, ["Customer Success", "Engineering", "Executive", "Finance", "Legal",
                                          "Marketing", "Operations", "People", "Sales"]),
      _col("Hiring manager", "person", True),
      _col("Location", "choice", False, ["New York", "Boston", "Chicago", "San Francisco", "Remote"]),
      _col("Status", "choice", True, ["Not yet open", "Sourcing", "Interviewing", "Final interviews",
                                      "Offer being prepared", "Offer out", "Filled", "On hold"]),
      _col("Opened", "date"), _col("Target start", "date"), _col("Backfill", "boolean"), _col("Notes", "text")],
     "req", [
         {"Req ID": "REQ-1042", "Title": "Senior Software Engineer", "Department": "Engineering",
          "Hiring manager": "liam.chen", "Location": "Boston", "Status": "Offer out", "Opened": "2026-01-12",
          "Target start": "2026-04-13", "Backfill": False,
          "Notes": "Offers out to Jordan Blake (expires March 12) and Priyanka Rao (March 13)"},
         {"Req ID": "REQ-1043", "Title": "Senior Software Engineer", "Department": "Engineering",
          "Hiring manager": "ethan.brooks", "Location": "San Francisco", "Status": "Interviewing",
          "Opened": "2026-01-19", "Target start": "2026-05-04", "Backfill": False},
         {"Req ID": "REQ-1045", "Title": "Chief of Staff Associate", "Department": "Executive",
          "Hiring manager": "alex.morgan", "Location": "New York", "Status": "Final interviews",
          "Opened": "2026-01-26", "Backfill": False, "Notes": "Samira Haddad and Marco Bianchi in finals"},
         {"Req ID": "REQ-1046", "Title": "Operations Analyst", "Department": "Operations",
          "Hiring manager": "victor.alvarez", "Location": "New York", "Status": "Final interviews",
          "Opened": "2026-02-09", "Backfill": False, "Notes": "Nina Kowalski final round March 16"},
         {"Req ID": "REQ-1047", "Title": "Account Executive", "Department": "Sales", "Hiring manager": "james.okafor",
          "Location": "Chicago", "Status": "Interviewing", "Opened": "2026-02-02", "Backfill": True},
         {"Req ID": "REQ-1048", "Title": "Staff Product Designer", "Department": "Marketing",
          "Hiring manager": "zoe.adams", "Location": "San Francisco", "Status": "Offer being prepared",
          "Opened": "2026-01-20", "Backfill": False, "Notes": "Camille Dubois; offer approval March 10"},
         {"Req ID": "REQ-1049", "Title": "Customer Success Manager", "Department": "Customer Success",
          "Hiring manager": "olivia.baker", "Location": "Remote", "Status": "Sourcing", "Opened": "2026-02-16",
          "Backfill": False},
         {"Req ID": "REQ-1051", "Title": "Data Engineer", "Department": "Engineering",
          "Hiring manager": "ethan.brooks", "Location": "Remote", "Status": "Not yet open", "Opened": "2026-03-02",
          "Target start": "2026-07-06", "Backfill": False, "Notes": "Opens April 1"},
         {"Req ID": "REQ-1053", "Title": "Accounts Receivable Specialist", "Department": "Finance",
          "Hiring manager": "priya.shah", "Location": "Chicago", "Status": "Sourcing", "Opened": "2026-02-16",
          "Backfill": False},
     ], "nora.patel", "2026-01-05"),
    ("list_atlas_risks", "site_atlas", "Atlas risks",
     "The Atlas migration risk log, reviewed every Wednesday.",
     [_col("Risk ID", "text", True), _col("Description", "text", True),
      _col("Likelihood", "choice", True, ["Low", "Medium", "High"]),
      _col("Impact", "choice", True, ["Low", "Medium", "High"]), _col("Owner", "person", True),
      _col("Mitigation", "text"), _col("Status", "choice", True, ["Open", "Mitigating", "Closed"]),
      _col("Review by", "date")],
     "risk", [
         {"Risk ID": "ATL-R1", "Description": "Replication lag during cutover", "Likelihood": "Medium",
          "Impact": "High", "Owner": "sofia.garcia", "Mitigation": "Final sync with writes paused", "Status": "Open",
          "Review by": "2026-03-18"},
         {"Risk ID": "ATL-R2", "Description": "Payment provider blocks new egress IPs", "Likelihood": "Medium",
          "Impact": "High", "Owner": "kai.nakamura", "Mitigation": "Send IPs three weeks ahead (by March 11)",
          "Status": "Mitigating", "Review by": "2026-03-11"},
         {"Risk ID": "ATL-R3", "Description": "Load test environment quota not approved", "Likelihood": "High",
          "Impact": "Medium", "Owner": "mia.thompson", "Mitigation": "Escalate to Ethan Brooks", "Status": "Open",
          "Review by": "2026-03-13"},
         {"Risk ID": "ATL-R4", "Description": "Reporting jobs break on new schema", "Likelihood": "Low",
          "Impact": "Medium", "Owner": "lucas.martin", "Mitigation": "Dry run reports in staging", "Status": "Open",
          "Review by": "2026-03-25"},
         {"Risk ID": "ATL-R5", "Description": "Support not briefed on cutover", "Likelihood": "Low", "Impact": "Low",
          "Owner": "olivia.baker", "Mitigation": "Briefing on April 14", "Status": "Open", "Review by": "2026-04-14"},
         {"Risk ID": "ATL-R6", "Description": "Legacy data centre contract ends May 31 before shutdown",
          "Likelihood": "Low", "Impact": "High", "Owner": "elena.petrova",
          "Mitigation": "Legacy shutdown planned for May 15", "Status": "Open", "Review by": "2026-04-22"},
         {"Risk ID": "ATL-R7", "Description": "Inventory service migration slips", "Likelihood": "Low",
          "Impact": "Medium", "Owner": "liam.chen", "Mitigation": "Migrated on February 27", "Status": "Closed"},
     ], "liam.chen", "2025-10-01"),
    ("list_invoice_tracker", "site_finance", "Invoice tracker",
     "Vendor invoices and their approval; $5,000-$25,000 is approved by Priya Shah or Owen Bell.",
     [_col("Invoice", "text", True), _col("Vendor", "text", True), _col("Amount", "number", True),
      _col("Invoice date", "date"), _col("Due", "date"),
      _col("Status", "choice", True, ["Received", "Awaiting approval", "Approved", "Paid", "Disputed"]),
      _col("Approver", "person"), _col("PO", "text")],
     "inv", [
         {"Invoice": "INV-20388", "Vendor": "Proseware Recruiting", "Amount": 19000, "Invoice date": "2026-02-02",
          "Due": "2026-03-04", "Status": "Paid", "Approver": "priya.shah"},
         {"Invoice": "INV-20401", "Vendor": "Litware Cloud Services", "Amount": 14210.55, "Invoice date": "2026-02-05",
          "Due": "2026-03-07", "Status": "Paid", "Approver": "owen.bell"},
         {"Invoice": "INV-20417", "Vendor": "Fabrikam Logistics", "Amount": 12480, "Invoice date": "2026-02-13",
          "Due": "2026-03-15", "Status": "Awaiting approval", "Approver": "priya.shah", "PO": "PO-7781"},
         {"Invoice": "INV-20422", "Vendor": "Northwind Office Supply", "Amount": 1892.4, "Invoice date": "2026-02-16",
          "Due": "2026-03-18", "Status": "Approved", "Approver": "tomas.rivera"},
         {"Invoice": "INV-20430", "Vendor": "Adatum Security", "Amount": 8750, "Invoice date": "2026-02-19",
          "Due": "2026-03-21", "Status": "Awaiting approval", "Approver": "owen.bell"},
         {"Invoice": "INV-20436", "Vendor": "Tailspin Travel", "Amount": 4310.75, "Invoice date": "2026-02-23",
          "Due": "2026-03-25", "Status": "Approved", "Approver": "tomas.rivera"},
         {"Invoice": "INV-20441", "Vendor": "Lakeside Lodge", "Amount": 4000, "Invoice date": "2026-02-27",
          "Due": "2026-03-05", "Status": "Paid", "Approver": "marcus.reed"},
         {"Invoice": "INV-20455", "Vendor": "Litware Cloud Services", "Amount": 13987.2, "Invoice date": "2026-03-02",
          "Due": "2026-04-01", "Status": "Received", "Approver": "owen.bell"},
         {"Invoice": "INV-20459", "Vendor": "Wide World Importers", "Amount": 2640, "Invoice date": "2026-03-03",
          "Due": "2026-04-02", "Status": "Received", "Approver": "tomas.rivera"},
         {"Invoice": "INV-20463", "Vendor": "Fabrikam Logistics", "Amount": 9125, "Invoice date": "2026-03-04",
          "Due": "2026-04-03", "Status": "Received", "Approver": "priya.shah"},
         {"Invoice": "INV-20470", "Vendor": "Proseware Recruiting", "Amount": 11500, "Invoice date": "2026-03-05",
          "Due": "2026-04-04", "Status": "Disputed", "Approver": "owen.bell"},
     ], "priya.shah", "2025-01-06"),
]
# fmt: on


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Return SharePoint's initial state as JSON-able values.

    Args:
        people: The directory's people keyed by id (``tools.companies.default.people.people_records()``).
        now: The frozen current instant; every timestamp lies before it.
        user: Email address of the acting user ("me" in the tables above).

    Returns:
        ``{"sites", "libraries", "files", "lists", "items"}``, each ``{id: record}``.
    """
    rng = random.Random(20260310)
    tz = now.tzinfo

    def email(who: str) -> str:
        if who == "me":
            return user
        return who if "@" in who else str(people[who]["email"])

    def stamp(day: str) -> datetime:
        at = datetime.combine(date.fromisoformat(day), time(rng.randint(8, 17), rng.choice([3, 16, 24, 38, 51])), tz)
        return min(at, now - timedelta(hours=2))

    sites = {
        sid: {
            "id": sid,
            "name": name,
            "url": f"{_BASE_URL}/{slug}",
            "description": desc,
            "created": stamp(day).isoformat(),
            "members": [{"email": email(w), "role": r} for w, r in members],
        }
        for sid, name, slug, desc, day, members in _SITES
    }
    libraries = {
        lid: {"id": lid, "site_id": sid, "name": name, "description": desc} for lid, sid, name, desc in _LIBRARIES
    }
    docs = {**_documents(), "contacts": _contacts(people)}
    files: dict[str, dict[str, Any]] = {}
    for fid, sid, lid, parent, name, key, author, day in _ITEMS:
        modified = stamp(day)
        rec: dict[str, Any] = {
            "id": fid,
            "site_id": sid,
            "library_id": lid,
            "parent_id": parent,
            "name": name,
            "kind": "file" if key else "folder",
            "created": modified.isoformat(),
            "created_by": email(author),
            "modified": modified.isoformat(),
            "modified_by": email(author),
        }
        if key:
            data = docs[key]
            history = _VERSIONS.get(fid, [])
            rec.update(mime_type=mime_type_for(name), blob=keep(data), size=len(data), version=f"{len(history) + 1}.0")
            rec["versions"] = []
            for n, (old_key, who, old_day) in enumerate(history, 1):
                old = docs[old_key]
                rec["versions"].append(
                    {
                        "version": f"{n}.0",
                        "blob": keep(old),
                        "size": len(old),
                        "modified": stamp(old_day).isoformat(),
                        "modified_by": email(who),
                    }
                )
            if history:
                rec["created"], rec["created_by"] = rec["versions"][0]["modified"], rec["versions"][0]["modified_by"]
        if fid in _RECYCLED:
            who, gone = _RECYCLED[fid]
            rec.update(deleted=True, deleted_at=stamp(gone).isoformat(), deleted_by=email(who))
        files[fid] = rec
    lists: dict[str, dict[str, Any]] = {}
    items: dict[str, dict[str, Any]] = {}
    for lid, sid, name, desc, columns, prefix, rows, creator, day in _LISTS:
        created = stamp(day)
        lists[lid] = {
            "id": lid,
            "site_id": sid,
            "name": name,
            "description": desc,
            "columns": columns,
            "created": created.isoformat(),
        }
        people_cols = {c["name"] for c in columns if c["type"] == "person"}
        for n, row in enumerate(rows, 1):
            day_of = (now - timedelta(days=3 * (len(rows) - n + 1))).date()
            at = max(created, datetime.combine(day_of, time(rng.randint(8, 17), rng.choice([5, 20, 35, 50])), tz))
            values = {k: (email(v) if k in people_cols else v) for k, v in row.items()}
            iid = f"{prefix}_{n:02d}"
            items[iid] = {
                "id": iid,
                "list_id": lid,
                "values": values,
                "created": at.isoformat(),
                "created_by": email(creator),
                "modified": at.isoformat(),
                "modified_by": email(creator),
            }
    return {"sites": sites, "libraries": libraries, "files": files, "lists": lists, "items": items}
