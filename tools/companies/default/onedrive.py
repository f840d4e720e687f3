"""OneDrive's part of the default company: Alex Morgan's folders and documents, shared files, links, recycle bin."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from tools.companies.default import facts
from tools.companies.shared import keep
from tools.kernel.documents import make_docx, make_pdf, make_png, make_xlsx, mime_type_for

__all__ = ["build"]

_DOMAIN = "northwind.example"
_LINK_BASE = "https://onedrive.northwind.example/s/"


def _mail(person: str) -> str:
    return f"{person}@{_DOMAIN}"


class _Builder:
    """Collects items and links as JSON-able dicts."""

    def __init__(self, now: datetime, user: str) -> None:
        self.tz = now.tzinfo
        self.user = user
        self.items: dict[str, dict[str, Any]] = {}
        self.links: dict[str, dict[str, Any]] = {}

    def at(self, month: int, day: int, hour: int = 9, minute: int = 0, year: int = 2026) -> datetime:
        return datetime(year, month, day, hour, minute, tzinfo=self.tz)

    def folder(
        self,
        iid: str,
        name: str,
        parent: str,
        created: datetime,
        shares: Sequence[tuple[str, str, datetime]] = (),
    ) -> str:
        self.items[iid] = {
            "id": iid,
            "name": name,
            "kind": "folder",
            "parent_id": parent,
            "owner": self.user,
            "created": created.isoformat(),
            "created_by": self.user,
            "modified": created.isoformat(),
            "modified_by": self.user,
            "permissions": [_perm(self.user, "owner", created)] + [_perm(e, r, w) for e, r, w in shares],
        }
        return iid

    def file(
        self,
        iid: str,
        name: str,
        parent: str,
        versions: list[tuple[bytes, datetime, str]],
        *,
        owner: str = "",
        shares: list[tuple[str, str, datetime]] | None = None,
        description: str = "",
    ) -> str:
        """A file whose versions are ``(bytes, saved at, saved by)``, oldest first; the last is current."""
        owner = owner or self.user
        data, modified, modified_by = versions[-1]
        created = versions[0][1]
        rows = [
            {"number": n, "blob": keep(b), "size": len(b), "modified": when.isoformat(), "modified_by": who}
            for n, (b, when, who) in enumerate(versions, 1)
        ]
        perms = [_perm(owner, "owner", created)] + [_perm(e, r, w) for e, r, w in shares or []]
        self.items[iid] = {
            "id": iid,
            "name": name,
            "kind": "file",
            "parent_id": parent,
            "owner": owner,
            "created": created.isoformat(),
            "created_by": versions[0][2],
            "modified": modified.isoformat(),
            "modified_by": modified_by,
            "mime_type": mime_type_for(name),
            "blob": keep(data),
            "size": len(data),
            "description": description,
            "versions": rows,
            "permissions": perms,
        }
        return iid

    def delete(self, top: str, when: datetime) -> None:
        """Put ``top`` (and, for a folder, what it holds) in the recycle bin."""
        group = [top] + [i for i, it in self.items.items() if it["parent_id"] == top]
        for iid in group:
            self.items[iid].update(deleted=when.isoformat(), deleted_by=self.user, deleted_with=top)

    def link(self, lid: str, item: str, kind: str, scope: str, created: datetime, **extra: Any) -> None:
        expires: date | None = extra.pop("expires", None)
        self.links[lid] = {
            "id": lid,
            "item_id": item,
            "type": kind,
            "scope": scope,
            "recipients": extra.pop("recipients", []),
            "expires": expires.isoformat() if expires else None,
            "created": created.isoformat(),
            "created_by": self.user,
            "url": _LINK_BASE + lid,
        }


def _perm(email: str, role: str, when: datetime) -> dict[str, Any]:
    return {"email": email, "role": role, "granted": when.isoformat()}


def _csv(rows: list[list[Any]]) -> bytes:
    return ("\n".join(",".join(str(c) for c in row) for row in rows) + "\n").encode()


# ---- documents --------------------------------------------------------------------------------

_Q1_LINES: list[list[Any]] = [
    ["Engineering", "Cloud hosting", 186000, 131400, "Atlas migration credits applied in February"],
    ["Engineering", "Software licenses", 42000, 39850, ""],
    ["Engineering", "Contractors", 60000, 48200, "Two contractors through March 31"],
    ["Marketing", "Events", 48000, 61250, "Spring launch booth upsized; over budget"],
    ["Marketing", "Paid media", 75000, 52300, ""],
    ["Marketing", "Content production", 18000, 11900, ""],
    ["Sales", "Travel", 36000, 24780, ""],
    ["Sales", "Sales tools", 22000, 21400, ""],
    ["People", "Recruiting fees", 45000, 30500, "No recruiter fees on two hires"],
    ["People", "Benefits administration", 12000, 8000, ""],
    ["Operations", "Facilities", 94000, 70150, "Chicago lease renewal pending"],
    ["Operations", "IT equipment", 28000, 26920, "Laptop refresh for new hires"],
    ["Finance", "Audit and tax", 40000, 12500, "Audit fieldwork starts April 6"],
    ["Executive", "Leadership offsite", 38500, 4000, "Deposit paid to Lakeside Lodge"],
]


def _q1_budget(actual_scale: float, events_actual: int) -> bytes:
    head = ["Department", "Category", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)", "Notes"]
    rows: list[list[Any]] = [head]
    for dept, cat, budget, actual, note in _Q1_LINES:
        got = events_actual if cat == "Events" else round(actual * actual_scale / 10) * 10
        rows.append([dept, cat, budget, got, budget - got, note])
    total_b = sum(r[2] for r in rows[1:])
    total_a = sum(r[3] for r in rows[1:])
    rows.append(["Total", "", total_b, total_a, total_b - total_a, ""])
    return make_xlsx({"Q1 2026": rows})


def _q2_budget() -> bytes:
    rows = [
        ["Department", "Category", "Q2 proposed (USD)", "Q1 budget (USD)", "Notes"],
        ["Engineering", "Cloud hosting", 174000, 186000, "Atlas credits run through June"],
        ["Engineering", "Contractors", 30000, 60000, "One contractor after March"],
        ["Marketing", "Events", 52000, 48000, "Northwind Live roadshow, three cities"],
        ["Marketing", "Paid media", 80000, 75000, ""],
        ["Sales", "Travel", 41000, 36000, "Chicago office visits"],
        ["People", "Recruiting fees", 60000, 45000, "Eleven hires planned by year end"],
        ["Operations", "Facilities", 96000, 94000, "Chicago lease renewal"],
        ["Executive", "Leadership offsite", 34500, 38500, "Balance due to Lakeside Lodge April 8"],
    ]
    return make_xlsx({"Q2 2026 draft": rows})


def _forecast() -> bytes:
    monthly = [
        ["Month", "Bookings forecast (USD)", "Revenue forecast (USD)", "Confidence"],
        ["2026-01", 1210000, 1015000, "Actual"],
        ["2026-02", 1185000, 1042000, "Actual"],
        ["2026-03", 1320000, 1088000, "High"],
        ["2026-04", 1290000, 1102000, "High"],
        ["2026-05", 1350000, 1131000, "Medium"],
        ["2026-06", 1475000, 1167000, "Medium"],
        ["2026-07", 1300000, 1180000, "Low"],
        ["2026-08", 1280000, 1192000, "Low"],
        ["2026-09", 1420000, 1215000, "Low"],
    ]
    summary = [
        ["Quarter", "Revenue forecast (USD)", "Bookings forecast (USD)", "Confidence"],
        ["Q1 2026", 3145000, 3715000, "High"],
        ["Q2 2026", 3400000, 4115000, "Medium"],
        ["Q3 2026", 3587000, 4000000, "Low"],
    ]
    notes = [
        ["Note"],
        ["Prepared by Priya Shah for the Q1 budget review; final numbers to Marcus Reed by Friday March 13."],
        ["Q2 assumes the Contoso renewal at $444,960 a year from April 1 (contract CT-2291)."],
    ]
    return make_xlsx({"Summary": summary, "Monthly": monthly, "Notes": notes})


def _contoso_pricing() -> bytes:
    pricing = [
        ["Period", "Term", "Annual fee (USD)", "Change"],
        ["Current contract", "Apr 2023 - Mar 31 2026", 432000, ""],
        ["Renewal year 1", "Apr 2026 - Mar 2027", 444960, "+3%"],
        ["Renewal year 2", "Apr 2027 - Mar 2028", 444960, "fixed"],
        ["Renewal year 3", "Apr 2028 - Mar 2029", 444960, "fixed"],
        ["Renewal total", "3 years", 1334880, ""],
    ]
    terms = [
        ["Term", "Value"],
        ["Contract", facts.CONTOSO_CONTRACT],
        ["Customer purchase order", facts.CONTOSO_PO],
        ["Payment terms asked", "Net 45 (our standard is Net 30; Marcus Reed decides)"],
        ["Pricing sign-off", f"Alex Morgan, James Okafor, Marcus Reed by {facts.CONTOSO_SIGN_OFF}"],
        ["Signature", "by March 31, 2026"],
    ]
    return make_xlsx({"Pricing": pricing, "Terms": terms})


def _seating() -> bytes:
    dinner = [
        ["Table", "Seat", "Guest"],
        ["Table 1 (window)", 1, "Dana Whitfield"],
        ["Table 1 (window)", 2, "Marcus Reed"],
        ["Table 1 (window)", 3, "Zoe Adams"],
        ["Table 1 (window)", 4, "Isaac King"],
        ["Table 1 (window)", 5, "Amelia Ward"],
        ["Table 2 (fireplace)", 1, "Alex Morgan"],
        ["Table 2 (fireplace)", 2, "Elena Petrova"],
        ["Table 2 (fireplace)", 3, "James Okafor"],
        ["Table 2 (fireplace)", 4, "Nora Patel"],
        ["Table 2 (fireplace)", 5, "Victor Alvarez"],
        ["Table 2 (fireplace)", 6, "Olivia Baker"],
    ]
    coach = [
        ["Seat", "Guest", "Note"],
        ["1A", "Dana Whitfield", ""],
        ["1B", "Amelia Ward", "Carries the welcome packs"],
        ["2A", "Alex Morgan", ""],
        ["2B", "Marcus Reed", ""],
        ["3A", "Elena Petrova", "Joins from Boston by train; meets the coach at Cold Spring"],
    ]
    return make_xlsx({"Dinner April 22": dinner, "Coach": coach})


def _scorecards() -> bytes:
    rows = [
        ["Candidate", "Requisition", "Interviewer", "Structured thinking", "Writing", "Stakeholder sense", "Overall"],
        ["Samira Haddad", "REQ-1045", "Nora Patel", 4, 5, 4, "Strong yes"],
        ["Samira Haddad", "REQ-1045", "Amelia Ward", 4, 4, 5, "Yes"],
        ["Marco Bianchi", "REQ-1045", "Samuel Green", 5, 3, 4, "Yes"],
        ["Marco Bianchi", "REQ-1045", "Elena Petrova", 4, 3, 3, "Case exercise March 12 decides"],
    ]
    return make_xlsx({"Scorecards": rows})


def _expenses() -> bytes:
    rows = [
        ["Date", "Merchant", "Category", "Amount (USD)", "Note"],
        ["2026-02-03", "Yellow Cab NYC", "Taxi", 46.20, "Board prep with Dana"],
        ["2026-02-10", "Amtrak", "Travel", 212.00, "Boston, Atlas review with Liam"],
        ["2026-02-10", "Harborview Hotel", "Lodging", 289.00, "Boston, one night"],
        ["2026-02-18", "Blue Plate Diner", "Meals", 84.35, "Interview lunch, REQ-1045"],
        ["2026-02-26", "Lakeside Lodge", "Site visit", 152.00, "Offsite venue walk-through"],
        ["Total", "", "", 783.55, "Submit by March 10"],
    ]
    return make_xlsx({"February": rows})


def _png(rng: random.Random, width: int, height: int) -> bytes:
    return make_png(width, height, (rng.randrange(40, 220), rng.randrange(40, 220), rng.randrange(40, 220)))


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Alex's OneDrive at ``now``: ``{"items": {...}, "links": {...}}`` as JSON values.

    Documents, Desktop and Pictures, files colleagues shared, links and a recycle bin. Every file is
    a real document (.docx, .xlsx, .pdf, .csv, .md, .txt, .png) whose bytes are kept with
    :func:`tools.companies.shared.keep`; the numbers agree with :mod:`tools.companies.default.facts`.

    Args:
        people: The directory's people by id (colleagues' addresses are taken from here when present).
        now: The frozen current instant.
        user: The owner's email address.
    """
    rng = random.Random(4471)
    b = _Builder(now, user)
    at = b.at
    who: dict[str, str] = {pid: p["email"] for pid, p in people.items()}

    def m(pid: str) -> str:
        return who.get(pid, _mail(pid))

    amelia, ruby, priya, liam = m("amelia.ward"), m("ruby.walker"), m("priya.shah"), m("liam.chen")

    # ---- top-level folders --------------------------------------------------------------------
    docs = b.folder("itm_documents", "Documents", "root", at(9, 2, 10, year=2024))
    desk = b.folder("itm_desktop", "Desktop", "root", at(9, 2, 10, year=2024))
    pics = b.folder("itm_pictures", "Pictures", "root", at(9, 2, 10, year=2024))

    # ---- Documents/Budgets --------------------------------------------------------------------
    budgets = b.folder("itm_budgets", "Budgets", docs, at(1, 6, 11))
    b.file(
        "itm_q1_budget",
        "Q1 budget.xlsx",
        budgets,
        [
            (_q1_budget(0.55, 29800), at(2, 10, 15, 20), user),
            (_q1_budget(0.9, 58900), at(2, 24, 8, 45), user),
            (_q1_budget(1.0, 61250), at(3, 5, 17, 10), priya),
        ],
        shares=[(priya, "write", at(2, 24, 8, 50))],
        description="Q1 2026 budget against actuals; Marketing Events is the only line over.",
    )
    b.file("itm_q2_budget_draft", "Q2 budget draft.xlsx", budgets, [(_q2_budget(), at(3, 4, 13, 5), user)])
    b.file(
        "itm_budget_review_notes",
        "Budget review notes 2026-02-24.docx",
        budgets,
        [
            (
                make_docx(
                    "Q1 budget review kickoff - February 24, 2026",
                    [
                        "Attendees: Marcus Reed, Priya Shah, Grace Kim, Alex Morgan.",
                        f"Marketing Events is {facts.MARKETING_OVERRUN} over its Q1 line because the spring launch "
                        "booth was upsized. Zoe Adams to send Priya a written overspend note.",
                        "Every other line is under budget; Cloud hosting is $54,600 under thanks to the Atlas credits.",
                        "Final numbers go to Marcus by Friday March 13 so they can go into the board deck.",
                        "Alex to check the Executive line (offsite deposit of $4,000 already booked).",
                    ],
                ),
                at(2, 24, 16, 30),
                user,
            )
        ],
    )
    b.file(
        "itm_q1_budget_old",
        "Q1 budget draft (old).xlsx",
        budgets,
        [(_q1_budget(0.3, 14200), at(1, 20, 9, 40), user)],
    )
    b.delete("itm_q1_budget_old", at(3, 2, 11, 5))

    # ---- Documents/Atlas ----------------------------------------------------------------------
    atlas = b.folder("itm_atlas", "Atlas", docs, at(1, 12, 14))
    b.file(
        "itm_atlas_board_summary",
        "Atlas board summary.docx",
        atlas,
        [
            (
                make_docx(
                    "Atlas migration - summary for the board",
                    [
                        "The order and inventory services move off the legacy data centre onto Atlas before its "
                        "contract ends on May 31. Staging went live on January 30 and the inventory service moved "
                        "on February 27.",
                        f"Next: a load test at 2x peak on March 20, the go/no-go call on {facts.ATLAS_GO_NO_GO}, "
                        f"and the production cutover on {facts.ATLAS_CUTOVER}, {facts.ATLAS_WINDOW}, followed by "
                        "a 4-hour fallback window. Legacy shutdown is planned for May 15.",
                        "Cloud migration credits cover $120,000 of hosting through June. Owner: Liam Chen; "
                        "sponsor: Elena Petrova; runbook: Mia Thompson.",
                    ],
                ),
                at(3, 5, 18, 20),
                user,
            )
        ],
        shares=[(m("elena.petrova"), "write", at(3, 5, 18, 25)), (m("dana.whitfield"), "read", at(3, 6, 8, 10))],
    )

    # ---- Documents/Contoso --------------------------------------------------------------------
    contoso = b.folder("itm_contoso", "Contoso", docs, at(2, 16, 9, 30))
    b.file(
        "itm_contoso_pricing",
        "Contoso renewal pricing.xlsx",
        contoso,
        [(_contoso_pricing(), at(3, 4, 12, 0), user)],
        shares=[(m("isabella.rossi"), "write", at(3, 4, 12, 5)), (m("maya.young"), "read", at(3, 4, 12, 5))],
    )
    b.file(
        "itm_contoso_term_sheet",
        "Contoso term sheet CT-2291.pdf",
        contoso,
        [
            (
                make_pdf(
                    "Contoso Ltd - renewal term sheet",
                    [
                        f"Contract: {facts.CONTOSO_CONTRACT} (warehouse software partnership)",
                        f"Current fee: {facts.CONTOSO_CURRENT} a year, ends March 31, 2026",
                        f"Renewal: 3 years from April 1, 2026 at {facts.CONTOSO_RENEWAL} a year (+3%)",
                        "Years 2 and 3: fixed at the year 1 fee",
                        "Payment terms: Net 30 standard; Contoso requests Net 45",
                        f"Contoso purchase order: {facts.CONTOSO_PO}",
                        "Legal review: comments by March 16; signature by March 31, 2026",
                        "Contacts: Isabella Rossi (Northwind), procurement@contoso.example (Contoso)",
                    ],
                ),
                at(3, 4, 16, 45),
                user,
            )
        ],
    )
    b.file(
        "itm_contoso_signoff",
        "Contoso sign-off tracker.csv",
        contoso,
        [
            (
                _csv(
                    [
                        ["Approver", "Role", "Status", "Date", "Note"],
                        ["James Okafor", "VP of Sales", "Approved", "2026-03-06", ""],
                        ["Marcus Reed", "Chief Financial Officer", "Pending", "", "Decides Net 45"],
                        ["Alex Morgan", "Chief of Staff", "Pending", "", "Due Thursday March 12"],
                    ]
                ),
                at(3, 6, 11, 20),
                user,
            )
        ],
    )

    # ---- Documents/Offsite 2026 (shared with Amelia) ---------------------------------------------
    offsite = b.folder("itm_offsite", "Offsite 2026", docs, at(2, 3, 10), shares=[(amelia, "write", at(2, 27, 9, 15))])
    b.file(
        "itm_offsite_budget",
        "Offsite budget.xlsx",
        offsite,
        [
            (
                make_xlsx(
                    {
                        "Budget": [
                            ["Item", "Vendor", "Amount (USD)", "Status"],
                            ["Package: rooms, meals, AV and coach for 11", facts.OFFSITE_VENUE, 38500, "Booked"],
                            ["Deposit (INV-20441)", facts.OFFSITE_VENUE, -4000, "Paid 2026-02-27"],
                            ["Balance due April 8", facts.OFFSITE_VENUE, 34500, "Open"],
                        ],
                        "Per person": [["People", "Per person (USD)", "Total (USD)"], [11, 3500, 38500]],
                    }
                ),
                at(2, 27, 10, 5),
                user,
            )
        ],
    )
    b.file(
        "itm_lodge_contract",
        f"{facts.OFFSITE_VENUE} contract {facts.OFFSITE_BOOKING}.pdf",
        offsite,
        [
            (
                make_pdf(
                    f"{facts.OFFSITE_VENUE} - group booking {facts.OFFSITE_BOOKING}",
                    [
                        f"Guest: Northwind Traders (Alex Morgan). Venue: {facts.OFFSITE_VENUE}, {facts.OFFSITE_PLACE}.",
                        f"Dates: April 22-24, 2026 (Wednesday to Friday, 2 nights), {facts.OFFSITE_PEOPLE} guests.",
                        "Package: rooms, all meals, the Birch meeting room with AV, coach from Grand Central.",
                        "Total: $38,500. Deposit: $4,000 (invoice INV-20441), received February 27, 2026.",
                        "Balance of $34,500 due April 8, 2026.",
                        "Cancellation: free until March 23, 2026; 50% of the total after that date.",
                        "Check-in from 15:00 on April 22; check-out by 11:00 on April 24.",
                    ],
                ),
                at(2, 27, 9, 50),
                user,
            )
        ],
    )
    agenda_v1 = make_docx(
        "Leadership offsite 2026 - agenda",
        [
            f"{facts.OFFSITE_DATES}, {facts.OFFSITE_VENUE}, {facts.OFFSITE_PLACE} (booking {facts.OFFSITE_BOOKING}).",
            "Wednesday: arrive, strategy session with Dana.",
            "Thursday: financial plan, Atlas roadmap, go-to-market, people plan.",
            "Friday: decisions and owners; coach back by 16:00.",
        ],
    )
    agenda_v2 = make_docx(
        "Leadership offsite 2026 - agenda",
        [
            f"{facts.OFFSITE_DATES}, {facts.OFFSITE_VENUE}, {facts.OFFSITE_PLACE} (booking {facts.OFFSITE_BOOKING}).",
            "Coach leaves Grand Central at 10:30 on Wednesday April 22.",
        ],
        table=[
            ["Day", "Time", "Session", "Lead"],
            ["Wed April 22", "13:00", "Lunch and welcome", "Dana Whitfield"],
            ["Wed April 22", "14:30", "2026 strategy: where we win", "Dana Whitfield"],
            ["Thu April 23", "09:00", "Financial plan and Q2 budget", "Marcus Reed"],
            ["Thu April 23", "11:00", "Atlas migration and platform roadmap", "Elena Petrova"],
            ["Thu April 23", "14:00", "Go-to-market for Northwind Live", "James Okafor, Zoe Adams"],
            ["Thu April 23", "16:00", "People plan: hiring and the review cycle", "Nora Patel"],
            ["Fri April 24", "09:00", "Decisions and owners", "Alex Morgan"],
        ],
    )
    b.file(
        "itm_offsite_agenda",
        "Offsite agenda.docx",
        offsite,
        [(agenda_v1, at(2, 20, 15, 0), user), (agenda_v2, at(3, 2, 17, 35), amelia)],
    )
    b.file(
        "itm_offsite_attendees",
        "Attendees.csv",
        offsite,
        [
            (
                _csv(
                    [
                        ["Name", "Email", "Role", "Dietary needs", "Confirmed"],
                        ["Dana Whitfield", m("dana.whitfield"), "CEO", "", "Yes"],
                        ["Alex Morgan", user, "Chief of Staff", "", "Yes"],
                        ["Marcus Reed", m("marcus.reed"), "CFO", "", "Yes"],
                        ["Elena Petrova", m("elena.petrova"), "VP Engineering", "Vegetarian", "Yes"],
                        ["James Okafor", m("james.okafor"), "VP Sales", "", "Yes"],
                        ["Zoe Adams", m("zoe.adams"), "Head of Marketing", "Gluten free", "Yes"],
                        ["Nora Patel", m("nora.patel"), "Head of People", "", "Yes"],
                        ["Victor Alvarez", m("victor.alvarez"), "Head of Operations", "", "No reply"],
                        ["Isaac King", m("isaac.king"), "General Counsel", "", "Yes"],
                        ["Olivia Baker", m("olivia.baker"), "Head of Customer Success", "Vegan", "No reply"],
                        ["Amelia Ward", amelia, "Executive Assistant", "", "Yes"],
                    ]
                ),
                at(3, 3, 9, 30),
                amelia,
            )
        ],
    )

    # ---- Documents/Hiring ---------------------------------------------------------------------
    hiring = b.folder("itm_hiring", "Hiring", docs, at(1, 26, 9))
    b.file(
        "itm_req_1045_jd",
        "REQ-1045 Chief of Staff Associate - job description.docx",
        hiring,
        [
            (
                make_docx(
                    "REQ-1045 - Chief of Staff Associate",
                    [
                        "Department: Executive. Hiring manager: Alex Morgan. Location: New York. Opened 2026-01-26.",
                        "You will run the operating rhythm of the leadership team: exec staff agendas, board "
                        "preparation, the quarterly offsite and cross-team projects such as the Atlas migration.",
                        "You have 4+ years in strategy, operations or consulting, write clearly, and are comfortable "
                        "with budgets and spreadsheets.",
                        "Interview loop: recruiter screen (Samuel Green), hiring manager, case exercise, final with "
                        "Nora Patel.",
                    ],
                ),
                at(1, 26, 9, 30),
                user,
            )
        ],
        shares=[(m("samuel.green"), "write", at(1, 26, 9, 45))],
    )
    b.file(
        "itm_notes_marco_bianchi",
        "Interview notes - Marco Bianchi.docx",
        hiring,
        [
            (
                make_docx(
                    "Interview notes - Marco Bianchi (REQ-1045)",
                    [
                        "Hiring manager interview, March 3. Strong on structure; former operations consultant.",
                        "Case exercise with Alex Morgan and Elena Petrova on Thursday March 12: plan the Atlas "
                        "cutover communications.",
                        "Open question: writing sample came in late; ask for a second one.",
                    ],
                ),
                at(3, 3, 15, 10),
                user,
            )
        ],
    )
    b.file(
        "itm_notes_samira_haddad",
        "Interview notes - Samira Haddad.docx",
        hiring,
        [
            (
                make_docx(
                    "Interview notes - Samira Haddad (REQ-1045)",
                    [
                        "Final round on March 5 with Nora Patel and Amelia Ward. Excellent written summary of the "
                        "Contoso renewal case.",
                        "Debrief with Nora on Monday March 9. Lean: hire.",
                    ],
                ),
                at(3, 5, 17, 50),
                user,
            )
        ],
    )

    # ---- Documents/Invoices -------------------------------------------------------------------
    invoices = b.folder("itm_invoices", "Invoices", docs, at(1, 8, 10))
    b.file(
        "itm_inv_20417",
        f"{facts.INVOICE} {facts.INVOICE_VENDOR}.pdf",
        invoices,
        [
            (
                make_pdf(
                    f"{facts.INVOICE_VENDOR} - invoice {facts.INVOICE}",
                    [
                        "Invoice date: 2026-02-13. Due date: 2026-03-15.",
                        f"Bill to: Northwind Traders, Accounts Payable. PO number: {facts.INVOICE_PO}.",
                        "Pallet freight, February 2026 (14 shipments): $9,800.00",
                        "Fuel surcharge: $1,040.00",
                        "Expedited courier runs (4 at $410): $1,640.00",
                        f"Total due: {facts.INVOICE_AMOUNT}",
                        "Approval: Priya Shah (invoices of $5,000-$25,000).",
                    ],
                ),
                at(3, 2, 8, 15),
                user,
            )
        ],
    )
    b.file(
        "itm_inv_20441",
        "INV-20441 Lakeside Lodge deposit.pdf",
        invoices,
        [
            (
                make_pdf(
                    f"{facts.OFFSITE_VENUE} - invoice INV-20441",
                    [
                        f"Booking {facts.OFFSITE_BOOKING}: deposit for the leadership offsite, April 22-24, 2026.",
                        "Amount: $4,000.00. Paid by card on February 27, 2026. Balance of $34,500 due April 8.",
                    ],
                ),
                at(2, 27, 11, 0),
                user,
            )
        ],
    )

    # ---- Documents (loose) --------------------------------------------------------------------
    b.file(
        "itm_board_prep",
        "Board meeting April 29 - prep notes.docx",
        docs,
        [
            (
                make_docx(
                    "Board meeting - prep notes",
                    [
                        f"The board meeting moved from April 22 to Wednesday {facts.BOARD_MEETING} because of the "
                        "leadership offsite.",
                        "Deck owners: Dana (highlights), Marcus (Q1 actuals and FY2026 outlook), Elena (Atlas), "
                        "James (pipeline and the Contoso renewal), Nora (headcount 40 today, 51 planned).",
                        "Pre-read goes out Wednesday April 22 through Amelia Ward.",
                    ],
                ),
                at(3, 6, 14, 0),
                user,
            )
        ],
    )
    b.file(
        "itm_cos_okrs",
        "Chief of staff OKRs 2026.docx",
        docs,
        [
            (
                make_docx(
                    "Chief of staff - OKRs 2026",
                    [
                        "Objective 1: a leadership rhythm that runs itself.",
                        "Objective 2: land the big cross-team projects on time.",
                    ],
                    table=[
                        ["Key result", "Target", "Status"],
                        ["Exec staff decisions logged within 24 hours", "90%", "On track"],
                        ["Atlas cutover on April 18 with no customer-facing outage", "Done by April 18", "On track"],
                        ["Chief of Staff Associate hired (REQ-1045)", "By April 30", "Final interviews"],
                        ["Offsite run within $38,500", "April 22-24", "Booked"],
                    ],
                ),
                at(1, 9, 12, 0),
                user,
            )
        ],
    )

    # ---- Desktop ------------------------------------------------------------------------------
    b.file(
        "itm_scratch_notes",
        "Scratch notes.txt",
        desk,
        [
            (
                b"Call with Ruby: coach company wants the final headcount by April 1.\n"
                b"Ask Marcus about Net 45 for Contoso before Thursday.\n"
                b"Wi-Fi at Lakeside Lodge: network NWT-Offsite, code on the welcome card.\n",
                at(3, 6, 16, 5),
                user,
            )
        ],
    )
    b.file(
        "itm_todo",
        "To do this week.md",
        desk,
        [
            (
                b"# Week of March 9\n\n"
                b"- [ ] Contoso pricing sign-off (by Thursday March 12)\n"
                b"- [ ] Send final Q1 numbers check to Priya (Marcus needs them by Friday March 13)\n"
                b"- [ ] Offsite seating: review Ruby's plan\n"
                b"- [ ] Atlas board summary to Dana\n"
                b"- [x] Book Chicago trip (March 31 - April 2)\n",
                at(3, 8, 20, 15),
                user,
            )
        ],
    )
    b.file("itm_feb_expenses", "February expenses - Alex.xlsx", desk, [(_expenses(), at(3, 1, 10, 30), user)])
    b.file(
        "itm_receipts_feb",
        "Expense receipts February.pdf",
        desk,
        [
            (
                make_pdf(
                    "Receipts - February 2026 - Alex Morgan",
                    [
                        "2026-02-03 Yellow Cab NYC $46.20",
                        "2026-02-10 Amtrak $212.00",
                        "2026-02-10 Harborview Hotel $289.00",
                        "2026-02-18 Blue Plate Diner $84.35",
                        "2026-02-26 Lakeside Lodge $152.00",
                    ],
                ),
                at(3, 1, 10, 40),
                user,
            )
        ],
    )
    b.file(
        "itm_untitled",
        "Untitled document.docx",
        desk,
        [(make_docx("Untitled", ["Notes"]), at(2, 19, 17, 0), user)],
    )
    b.delete("itm_untitled", at(2, 20, 9, 10))

    # ---- Pictures -----------------------------------------------------------------------------
    photos = b.folder("itm_offsite_2025_photos", "Offsite 2025", pics, at(10, 17, 18, year=2025))
    b.file(
        "itm_photo_group", "Mill River group photo.png", photos, [(_png(rng, 96, 64), at(10, 17, 18, 5, 2025), user)]
    )
    b.file(
        "itm_photo_whiteboard",
        "Mill River whiteboard.png",
        photos,
        [(_png(rng, 96, 64), at(10, 17, 18, 6, 2025), user)],
    )
    shots = b.folder("itm_screenshots", "Screenshots", pics, at(11, 3, 9, year=2025))
    b.file(
        "itm_inc_3021_screenshot",
        "INC-3021 checkout error.png",
        shots,
        [(_png(rng, 120, 80), at(2, 11, 14, 12), user)],
        description="Checkout error page during INC-3021, February 11, 14:12 ET.",
    )
    b.file(
        "itm_atlas_dashboard",
        "Atlas dashboard 2026-03-04.png",
        shots,
        [(_png(rng, 120, 80), at(3, 4, 10, 2), user)],
        description="Replica lag on the Atlas dashboard, March 4.",
    )
    b.file("itm_headshot", "Headshot.png", pics, [(_png(rng, 64, 64), at(9, 3, 11, year=2024), user)])
    old = b.folder("itm_screenshots_2025", "Screenshots 2025", pics, at(1, 5, 9, year=2025))
    b.file("itm_old_shot_1", "Screenshot 2025-11-03.png", old, [(_png(rng, 80, 60), at(11, 3, 9, 30, 2025), user)])
    b.file("itm_old_shot_2", "Screenshot 2025-12-15.png", old, [(_png(rng, 80, 60), at(12, 15, 16, 0, 2025), user)])
    b.delete("itm_screenshots_2025", at(2, 2, 8, 40))

    # ---- Shared with me (they live in colleagues' OneDrives) ------------------------------------
    b.file(
        "itm_shared_q1_forecast",
        "Q1 forecast.xlsx",
        "",
        [(_forecast(), at(2, 23, 11, 0), priya), (_forecast(), at(3, 6, 15, 30), priya)],
        owner=priya,
        shares=[
            (user, "read", at(3, 6, 15, 35)),
            (m("grace.kim"), "write", at(2, 23, 11, 5)),
            (m("marcus.reed"), "read", at(3, 6, 15, 35)),
        ],
    )
    b.file(
        "itm_shared_cutover_checklist",
        "Atlas cutover checklist.docx",
        "",
        [
            (
                make_docx(
                    "Atlas cutover checklist",
                    [
                        f"Cutover: {facts.ATLAS_CUTOVER}, {facts.ATLAS_WINDOW}; go/no-go {facts.ATLAS_GO_NO_GO}.",
                        "Tick each step in the bridge channel as it completes.",
                    ],
                    table=[
                        ["Step", "Owner", "When (ET)"],
                        ["Deploy freeze on order and inventory services", "Liam Chen", "Fri April 17, 06:00"],
                        ["Legacy order database read-only", "Mia Thompson", "Sat April 18, 06:00"],
                        ["Final replication and row-count compare", "Sofia Garcia", "Sat April 18, 06:15"],
                        ["DNS switch for orders.internal", "Mia Thompson", "Sat April 18, 09:15"],
                        ["Smoke checks: order, stock reservation, cancel", "Chloe Nguyen", "Sat April 18, 09:30"],
                        ["Customer notice: maintenance complete", "Alex Morgan", "Sat April 18, 10:00"],
                    ],
                ),
                at(3, 5, 11, 40),
                liam,
            )
        ],
        owner=liam,
        shares=[
            (user, "write", at(3, 5, 11, 45)),
            (m("mia.thompson"), "write", at(3, 5, 11, 45)),
            (m("elena.petrova"), "read", at(3, 5, 11, 45)),
        ],
    )
    b.file(
        "itm_shared_offsite_seating",
        "Offsite seating.xlsx",
        "",
        [(_seating(), at(3, 6, 16, 40), ruby)],
        owner=ruby,
        shares=[(user, "write", at(3, 6, 16, 45)), (amelia, "write", at(3, 6, 16, 45))],
    )
    b.file(
        "itm_shared_contoso_negotiation",
        "Contoso negotiation notes.docx",
        "",
        [
            (
                make_docx(
                    "Contoso renewal - negotiation notes",
                    [
                        "March 3 call: Contoso asked to keep the price flat for a 3-year term; we held at +3%.",
                        f"Our position: {facts.CONTOSO_RENEWAL} a year, fixed for years 2 and 3.",
                        "Net 45 only if Contoso commits to the full 3 years; otherwise Net 30.",
                        "Walk-away: no discount below $440,000 a year.",
                    ],
                ),
                at(3, 5, 9, 20),
                m("isabella.rossi"),
            )
        ],
        owner=m("isabella.rossi"),
        shares=[(user, "read", at(3, 5, 9, 25)), (m("james.okafor"), "read", at(3, 5, 9, 25))],
    )
    b.file(
        "itm_shared_req_1045_scorecards",
        "REQ-1045 interview scorecards.xlsx",
        "",
        [(_scorecards(), at(3, 6, 10, 15), m("samuel.green"))],
        owner=m("samuel.green"),
        shares=[(user, "read", at(3, 6, 10, 20)), (m("nora.patel"), "read", at(3, 6, 10, 20))],
    )
    b.file(
        "itm_shared_exec_agenda",
        "Exec staff agenda template.docx",
        "",
        [
            (
                make_docx(
                    "Exec staff - agenda",
                    [
                        "Tuesdays 14:00-15:00, Hudson Room. Chair: Dana Whitfield. Notes: Amelia Ward.",
                        "1. Decisions needed (10 min)",
                        "2. Metrics: pipeline, cash, hiring (15 min)",
                        "3. Deep dive (25 min)",
                        "4. Owners and dates (10 min)",
                    ],
                ),
                at(1, 13, 9, 0),
                amelia,
            )
        ],
        owner=amelia,
        shares=[(user, "write", at(1, 13, 9, 5)), (m("dana.whitfield"), "write", at(1, 13, 9, 5))],
    )

    # ---- sharing links ------------------------------------------------------------------------
    b.link("lnk_q1_budget_org", "itm_q1_budget", "view", "organization", at(2, 25, 9, 0))
    b.link(
        "lnk_offsite_agenda_edit",
        "itm_offsite_agenda",
        "edit",
        "specific_people",
        at(3, 2, 14, 30),
        recipients=[ruby, amelia],
    )
    b.link(
        "lnk_lodge_contract_public",
        "itm_lodge_contract",
        "view",
        "anyone",
        at(2, 20, 10, 0),
        expires=date(2026, 2, 28),
    )
    b.link("lnk_lodge_contract_org", "itm_lodge_contract", "view", "organization", at(2, 27, 10, 0))
    b.link(
        "lnk_term_sheet_contoso",
        "itm_contoso_term_sheet",
        "view",
        "specific_people",
        at(3, 4, 17, 0),
        recipients=["procurement@contoso.example"],
        expires=date(2026, 3, 31),
    )
    b.link("lnk_offsite_2025_photos", "itm_offsite_2025_photos", "view", "anyone", at(10, 20, 9, 0, 2025))
    return {"items": b.items, "links": b.links}
