"""The ordinary life of a generated company, shared by every app's ``background`` module.

An app's background (``tools/companies/generated/<app>.py``) builds its records from a :class:`Life`:
the company's people by department, working hours in each person's time zone, the outside
organisations it deals with, and its department documents (real files, made once per company
and kept in the shared blobs). Everything is a pure function of the company and the random
source handed in: no clock, no set order, no ``hash()``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tools.companies.base import Company
from tools.companies.shared import keep_document
from tools.kernel.documents import mime_type_for

__all__ = ["OUTSIDE", "Doc", "Life", "slug"]

#: Organisations outside the company that write in: (name, domain, what they do, sender's local part).
OUTSIDE: tuple[tuple[str, str, str, str], ...] = (
    ("Brightline Travel", "brightline-travel.example", "travel booking", "trips"),
    ("Quillstone Conferences", "quillstone.example", "industry conferences", "events"),
    ("Harbourview Insurance Brokers", "harbourview-brokers.example", "insurance broking", "service"),
    ("Cedarpoint Office Supply", "cedarpoint-supply.example", "office supplies", "orders"),
    ("Tidewell Recruiting", "tidewell.example", "recruiting", "talent"),
    ("Orchard Lane Catering", "orchardlane.example", "catering", "hello"),
    ("Summit Ridge Analysts", "summitridge.example", "market research", "research"),
    ("Lumenfield Learning", "lumenfield.example", "online training", "courses"),
)


def slug(text: str) -> str:
    """``text`` as lower-case words joined by ``-`` ("Customer Success" -> "customer-success")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Doc:
    """One department document: a real file kept in the shared blobs.

    Attributes:
        name: File name with its extension, e.g. "Hiring plan 2026.xlsx".
        department: The department that keeps it.
        owner: Email of the person who wrote it.
        blob: Blob id of its bytes; size: their length in bytes; mime_type: by extension.
        days_ago: Whole days before the company's clock it was last changed (1 or more).
    """

    name: str
    department: str
    owner: str
    blob: str
    size: int
    mime_type: str
    days_ago: int


# department -> (title, kind) of the documents it keeps; kind is docx, xlsx, pdf or csv
_DOCS: dict[str, tuple[tuple[str, str], ...]] = {
    "Executive": (
        ("Company priorities {year}", "docx"),
        ("Leadership meeting notes", "docx"),
        ("Board calendar {year}", "xlsx"),
        ("Strategy offsite agenda", "pdf"),
    ),
    "Finance": (
        ("Budget vs actual {quarter}", "xlsx"),
        ("Travel and expense policy", "docx"),
        ("Vendor payments {month}", "csv"),
        ("Month-end close checklist", "pdf"),
        ("Cash forecast {quarter}", "xlsx"),
        ("Audit request list", "docx"),
    ),
    "Engineering": (
        ("Architecture overview", "docx"),
        ("On-call rotation {quarter}", "csv"),
        ("Release notes {version}", "pdf"),
        ("Service inventory", "xlsx"),
        ("Incident review {month}", "docx"),
        ("Capacity plan {quarter}", "xlsx"),
    ),
    "Sales": (
        ("Pipeline review {month}", "xlsx"),
        ("Territory plan {year}", "docx"),
        ("Price list {year}", "pdf"),
        ("Top accounts", "csv"),
        ("Deal desk guidelines", "docx"),
    ),
    "Marketing": (
        ("Campaign calendar {quarter}", "xlsx"),
        ("Brand guidelines", "pdf"),
        ("Newsletter draft {month}", "docx"),
        ("Event leads {month}", "csv"),
        ("Website traffic {month}", "xlsx"),
    ),
    "People": (
        ("Onboarding checklist", "docx"),
        ("Hiring plan {year}", "xlsx"),
        ("Holiday calendar {year}", "pdf"),
        ("Open roles", "csv"),
        ("Review cycle guide", "docx"),
    ),
    "Operations": (
        ("Office moves {quarter}", "docx"),
        ("Supplier contacts", "csv"),
        ("Facilities costs {quarter}", "xlsx"),
        ("Building safety procedures", "pdf"),
        ("Shipping schedule {month}", "xlsx"),
    ),
    "Legal": (
        ("Contract register", "xlsx"),
        ("Signature authority matrix", "docx"),
        ("Privacy notice review", "pdf"),
        ("Trademark filings", "csv"),
        ("Standard terms notes", "docx"),
    ),
    "Customer Success": (
        ("Renewals tracker {quarter}", "xlsx"),
        ("Business review template", "docx"),
        ("Support playbook", "pdf"),
        ("Account health {month}", "csv"),
        ("Escalation guide", "docx"),
    ),
    "IT": (
        ("Laptop inventory", "csv"),
        ("Access review {quarter}", "xlsx"),
        ("Password and sign-in policy", "pdf"),
        ("Network notes", "docx"),
        ("Software catalogue", "xlsx"),
    ),
    "Product": (
        ("Roadmap {quarter}", "xlsx"),
        ("Feature brief {version}", "docx"),
        ("User research summary {month}", "pdf"),
        ("Feature requests", "csv"),
        ("Launch checklist", "docx"),
    ),
}

# department -> the work its people talk about (nouns that fill mail subjects, chat lines and rows)
_TOPICS: dict[str, tuple[str, ...]] = {
    "Executive": ("quarterly priorities", "leadership offsite", "board pack", "all-hands agenda", "annual plan"),
    "Finance": (
        "month-end close",
        "expense reports",
        "budget reforecast",
        "vendor payments",
        "audit requests",
        "purchase orders",
        "cash forecast",
    ),
    "Engineering": (
        "release train",
        "on-call handover",
        "service upgrade",
        "test coverage",
        "incident follow-ups",
        "database migration",
        "build times",
    ),
    "Sales": (
        "pipeline review",
        "territory plan",
        "pricing approvals",
        "pilot proposal",
        "quarter-end deals",
        "partner referrals",
    ),
    "Marketing": (
        "campaign launch",
        "newsletter",
        "webinar series",
        "website refresh",
        "trade show booth",
        "case study",
    ),
    "People": (
        "hiring plan",
        "onboarding",
        "review cycle",
        "benefits enrolment",
        "training budget",
        "internship programme",
    ),
    "Operations": (
        "office move",
        "supplier review",
        "shipping schedule",
        "facilities budget",
        "safety drill",
        "desk booking",
    ),
    "Legal": ("contract register", "privacy review", "trademark renewal", "signature authority", "policy update"),
    "Customer Success": (
        "renewals",
        "business reviews",
        "support backlog",
        "customer onboarding",
        "health scores",
        "escalations",
    ),
    "IT": (
        "laptop refresh",
        "access review",
        "sign-in policy",
        "network upgrade",
        "software catalogue",
        "backup tests",
    ),
    "Product": ("roadmap", "feature brief", "user research", "launch checklist", "beta feedback", "pricing page"),
}

_STATUS = ("Done", "In progress", "Not started", "Blocked", "In review")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


class Life:
    """A company's people, clock and documents as app backgrounds read them.

    Args:
        company: The generated company.
        rng: The app's random source (seeded by company and app); every draw comes from it.
    """

    def __init__(self, company: Company, rng: random.Random) -> None:
        self.company = company
        self.rng = rng
        self.now = company.now
        self.people: list[dict[str, Any]] = sorted(company.people.values(), key=lambda p: str(p["id"]))
        self.by_email = {str(p["email"]): p for p in self.people}
        self.user = company.user_record
        departments: dict[str, list[dict[str, Any]]] = {}
        for p in self.people:
            departments.setdefault(str(p["department"]), []).append(p)
        #: department -> its people (sorted by id); "Executive" included.
        self.departments = dict(sorted(departments.items()))

    # -- people ---------------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of people in the company."""
        return len(self.people)

    def others(self) -> list[dict[str, Any]]:
        """Everyone but the acting user."""
        return [p for p in self.people if p["email"] != self.company.user]

    def colleague(self, department: str | None = None, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
        """A random person other than the user (of ``department`` when it has one to spare)."""
        skip = (self.company.user, *exclude)
        pool = [p for p in self.departments.get(department or "", []) if p["email"] not in skip]
        return self.rng.choice(pool or [p for p in self.people if p["email"] not in skip])

    def manager_of(self, person: dict[str, Any]) -> dict[str, Any] | None:
        """The person's manager's record, or None at the top."""
        return self.by_email.get(str(person.get("manager") or ""))

    def reports_of(self, person: dict[str, Any]) -> list[dict[str, Any]]:
        """The people whose manager is ``person``."""
        return [p for p in self.people if p.get("manager") == person["email"]]

    def head_of(self, department: str) -> dict[str, Any]:
        """The department's most senior person (the one whose manager is outside it)."""
        members = self.departments[department]
        return next((p for p in members if self.manager_of(p) not in members), members[0])

    def first(self, person: dict[str, Any]) -> str:
        """A person's first name."""
        return str(person["name"]).split()[0]

    def topic(self, department: str) -> str:
        """Something the department works on."""
        return self.rng.choice(_TOPICS.get(department, _TOPICS["Executive"]))

    # -- time -----------------------------------------------------------------------------------------
    def workday(self, days: int) -> date:
        """The date ``days`` from the company's today (negative: past), moved off weekends away from today."""
        day = self.now.date() + timedelta(days=days)
        step = -1 if days <= 0 else 1
        while day.weekday() >= 5:
            day += timedelta(days=step)
        return day

    def at(
        self, person: dict[str, Any] | str, day: date, hour: int | None = None, minute: int | None = None
    ) -> datetime:
        """A moment on ``day`` in the person's working hours (09:00-17:45 in their zone) unless given."""
        record = self.by_email.get(person, self.user) if isinstance(person, str) else person
        zone = ZoneInfo(str(record.get("timezone") or self.company.timezone))
        h = self.rng.randint(9, 17) if hour is None else hour
        m = self.rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50)) if minute is None else minute
        return datetime.combine(day, time(h, m), tzinfo=zone)

    def past(self, person: dict[str, Any] | str, days_ago: int) -> datetime:
        """A working-hours moment ``days_ago`` workdays back (or earlier), always before the company's clock."""
        moment = self.at(person, self.workday(-max(1, days_ago)))
        while moment >= self.now:
            moment -= timedelta(days=1)
        return moment

    def after(self, person: dict[str, Any], earlier: datetime, minutes: int) -> datetime:
        """The first working moment (Mon-Fri 09:00-18:00 in the person's zone) ``minutes`` after ``earlier``."""
        local = (earlier + timedelta(minutes=minutes)).astimezone(ZoneInfo(str(person["timezone"])))
        if local.hour < 9:
            local = local.replace(hour=9, minute=self.rng.choice((5, 15, 30)))
        elif local.hour >= 18:
            local = self.at(person, local.date() + timedelta(days=1), 9, self.rng.choice((5, 30)))
        while local.weekday() >= 5:
            local += timedelta(days=1)
        return local

    # -- documents ------------------------------------------------------------------------------------
    def documents(self, department: str) -> list[Doc]:
        """The department's documents (the same for every app of the company; made once per process)."""
        return _documents(self.company)[department]

    def all_documents(self) -> list[Doc]:
        """Every department's documents, department by department."""
        return [d for docs in _documents(self.company).values() for d in docs]


_CACHE: dict[str, dict[str, list[Doc]]] = {}


def _documents(company: Company) -> dict[str, list[Doc]]:
    """Every department's documents of ``company``, drawn from their own seed so app build order never matters."""
    if company.key not in _CACHE:
        life = Life(company, random.Random(f"documents:{company.key}"))
        _CACHE[company.key] = {d: _department_docs(life, d) for d in life.departments}
    return _CACHE[company.key]


def _department_docs(life: Life, department: str) -> list[Doc]:
    rng = life.rng
    people = life.departments[department]
    titles = _DOCS.get(department, _DOCS["Executive"])
    want = min(20, 8 + len(people) // 2)
    year = life.now.year
    out: list[Doc] = []
    names: list[str] = []
    while len(out) < want:
        title, kind = titles[len(out) % len(titles)]
        back = len(out) // len(titles)  # later rounds of the same title are older editions
        m_index, q_index = life.now.month - 1 - back, (life.now.month - 1) // 3 - back
        name = title.format(
            year=year - back,
            quarter=f"Q{q_index % 4 + 1} {year + q_index // 4}",
            month=f"{_MONTHS[m_index % 12]} {year + m_index // 12}",
            version=f"{rng.randint(2, 9)}.{rng.randint(0, 12)}",
        )
        owner = rng.choice(people)
        if name in names:  # an older or personal copy of a document without a date in its title
            name = f"{name} - {rng.choice(('draft', 'archive', 'old', 'copy', life.first(owner)))}"
        if name in names:
            name = f"{name} {back + 1}"
        names.append(name)
        spec = _spec(life, department, name, kind, owner)
        blob, size = keep_document(spec)
        filename = f"{name}.{kind}"
        out.append(
            Doc(filename, department, str(owner["email"]), blob, size, mime_type_for(filename), rng.randint(1, 120))
        )
    return out


def _rows(life: Life, department: str, count: int) -> list[list[str | int]]:
    rng, people = life.rng, life.departments[department]
    rows: list[list[str | int]] = [["Item", "Owner", "Amount (USD)", "Status", "Due"]]
    for _ in range(count):
        due = life.now.date() + timedelta(days=rng.randint(-40, 60))
        rows.append(
            [
                life.topic(department).capitalize(),
                str(rng.choice(people)["name"]),
                rng.randrange(5, 400) * 50,
                rng.choice(_STATUS),
                due.isoformat(),
            ]
        )
    return rows


def _spec(life: Life, department: str, name: str, kind: str, owner: dict[str, Any]) -> dict[str, Any]:
    rng = life.rng
    company = life.company.name
    if kind in ("xlsx", "csv"):
        rows = _rows(life, department, rng.randint(6, 14))
        if kind == "xlsx":
            return {"kind": "xlsx", "sheets": {name[:31]: rows}}
        text = "\n".join(",".join(str(c) for c in r) for r in rows) + "\n"
        return {"kind": "text", "text": text}
    topics = rng.sample(_TOPICS.get(department, _TOPICS["Executive"]), 3)
    lines = [
        f"{company} - {department}",
        f"Owner: {owner['name']} ({owner['title']})",
        f"This document covers {topics[0]} for the {department} team.",
        f"Open points: {topics[1]}; {topics[2]}.",
        f"Questions go to {owner['name']} ({owner['email']}).",
    ]
    if kind == "pdf":
        return {"kind": "pdf", "title": name, "lines": lines}
    table = [["Topic", "Owner", "Status"]] + [
        [t.capitalize(), str(rng.choice(life.departments[department])["name"]), rng.choice(_STATUS)] for t in topics
    ]
    return {"kind": "docx", "title": name, "paragraphs": lines, "table": table}
