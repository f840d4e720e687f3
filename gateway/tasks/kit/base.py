"""The shape every task family has: a :class:`Family` whose ``build`` writes one row from an :class:`Instance`.

A family is a module ``gateway/tasks/families/<name with underscores>.py`` holding ``FAMILY = Family(...)``.
``build(inst)`` reads the company (``inst.company``: people, clock, user), draws what varies from
``inst.rng`` (people, dates, amounts, files, phrasing), writes the scenario's records as world
overrides (``inst.add``) and returns the row's fields: ``instruction``, ``checks``,
``allowed_changes``, ``solution``, ``negative_controls`` and optionally ``alternative_solutions``,
``workspace``, ``sandbox``, ``exposure``, ``no_controls``, ``image``. The id, company, seed, split
and tier are filled in by :func:`instance_row`; the same family, company and seed give a
byte-identical row.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any, Literal

from tools.companies import Company, Split
from tools.companies.shared import keep_document

__all__ = [
    "DEFAULT_SEEDS",
    "KINDS",
    "SPLITS",
    "Family",
    "Instance",
    "Kind",
    "Tier",
    "default_seeds",
    "distractors_of",
    "instance_row",
    "tier_of",
]

Tier = Literal["easy", "medium", "hard"]
Kind = Literal["task", "refusal", "document", "long_horizon", "ambiguity"]
#: The kinds of work, in the order ``tasks --stats`` lists them.
KINDS: tuple[Kind, ...] = ("task", "refusal", "document", "long_horizon", "ambiguity")
SPLITS: tuple[Split, ...] = ("train", "validation", "test")
_EXPOSURES = ("mcp", "cli", "http")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
#: Instances per company of every family that sets no ``seeds`` of its own: 74 families x 11 generated companies x
#: 13 seeds = 10,582 instances (seeds 0 .. 12; seeds 0 .. 2 are the instances of the first releases, unchanged).
DEFAULT_SEEDS = 13


def default_seeds() -> int:
    """Instances per company of a family that names no count: ``GATEWAY_TASKS_SEEDS`` (1-1000), else 13.

    The variable exists for measuring (the bench builds 10,000 rows from fewer families with it); an id's row
    does not depend on it, only how many ids there are.

    Raises:
        ValueError: ``GATEWAY_TASKS_SEEDS`` is not a whole number from 1 to 1000.
    """
    raw = os.environ.get("GATEWAY_TASKS_SEEDS", "").strip()
    if not raw:
        return DEFAULT_SEEDS
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ValueError(f"GATEWAY_TASKS_SEEDS must be a whole number from 1 to 1000, not {raw[:20]!r}")
    return int(raw)


@dataclass(frozen=True)
class Family:
    """A kind of work, instantiated over companies and seeds.

    Attributes:
        name: Lower-case words joined by ``-``; the module is the name with ``_`` (``gmail-file-invoice`` ->
            ``gateway/tasks/families/gmail_file_invoice.py``).
        apps: The apps every instance enables (the first is where the work mostly happens).
        summary: One line: what the work is.
        build: Writes one instance's row fields (see the module docstring).
        split: The split of every instance of a held-out family (``validation`` or ``test``); ``train``
            families' instances take their company's split.
        decision: Whether the reference must read the world to decide what to do (hard, whatever its length).
        seeds: Instances per company (seeds ``0 .. seeds-1``); leave it unset for :func:`default_seeds` (13), the
            count every family shares, so the task set's size is set in one place.
        kind: What the work is (the row's ``kind``): ``task`` (default), ``refusal`` (decline what is
            forbidden), ``document`` (document work in the shell), ``long_horizon`` (12+ calls over 3+ apps with
            a decision in the middle) or ``ambiguity`` (clear only once the world is read).
    """

    name: str
    apps: tuple[str, ...]
    summary: str
    build: Callable[[Instance], dict[str, Any]]
    split: Split = "train"
    decision: bool = False
    seeds: int = field(default_factory=default_seeds)
    kind: Kind = "task"

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"family name {self.name!r}: lower-case words joined by '-', at most 48 characters")
        if self.kind not in KINDS:
            raise ValueError(f"family {self.name}: kind {self.kind!r} is not one of {list(KINDS)}")


@dataclass
class Instance:
    """What a family's ``build`` reads and writes for one instance.

    Attributes:
        company: The company the instance lives in (people, clock, user, domain).
        seed: The instance seed (0, 1, ...).
        rng: The instance's random source (seeded by family, company and seed); draw everything from it.
        overrides: World overrides written by :meth:`add`: ``{app: {collection: {id: record}}}``.
        documents: The row's documents (blob id -> spec) written by :meth:`document`.
    """

    family: str
    company: Company
    seed: int
    rng: random.Random = field(init=False)
    overrides: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    _ids: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.family}:{self.company.key}:{self.seed}")

    # -- people -------------------------------------------------------------------------------------------
    @property
    def user(self) -> dict[str, Any]:
        """The acting user's directory record (``name``, ``email``, ``department``, ``manager``, ...)."""
        return self.company.user_record

    def person(self, *, department: str | None = None, exclude: Iterable[str] = (), titled: str = "") -> dict[str, Any]:
        """A random colleague (never the user, nor anyone whose email is in ``exclude``).

        Args:
            department: Only people of this department (falls back to anyone when it has none left).
            exclude: Emails not to pick.
            titled: Only people whose title contains this text (case-insensitive), when any.
        """
        return self.people(1, department=department, exclude=exclude, titled=titled)[0]

    def people(
        self, k: int, *, department: str | None = None, exclude: Iterable[str] = (), titled: str = ""
    ) -> list[dict[str, Any]]:
        """``k`` distinct random colleagues (see :meth:`person`), in a random order."""
        skip = {self.company.user, *exclude}
        pool = [p for p in self.company.people.values() if p["email"] not in skip]
        narrowed = [p for p in pool if department is None or p["department"] == department]
        narrowed = [p for p in narrowed if titled.lower() in p["title"].lower()]
        if len(narrowed) < k:
            narrowed = pool
        return self.rng.sample(sorted(narrowed, key=lambda p: p["id"]), k)

    def manager_of(self, person: dict[str, Any]) -> dict[str, Any] | None:
        """``person``'s manager's record, or None for the top of the company."""
        return next((p for p in self.company.people.values() if p["email"] == person.get("manager")), None)

    @staticmethod
    def given_name(person: dict[str, Any]) -> str:
        """A colleague's first name as written, shared or not (a namesake scenario names people by it on purpose)."""
        return str(person["name"]).split()[0]

    def first(self, person: dict[str, Any]) -> str:
        """How a request names a colleague in passing: the first name, or the full name when the first is shared.

        A first name two people of the company share names neither of them (the directory cannot tell
        which is meant), so every family that names people by this helper stays unambiguous.
        """
        name = str(person["name"])
        first = name.split()[0]
        shared = sum(1 for p in self.company.people.values() if str(p["name"]).split()[0].lower() == first.lower())
        return name if shared > 1 else first

    # -- choices ------------------------------------------------------------------------------------------
    def pick(self, options: Sequence[Any]) -> Any:
        """One of ``options``."""
        return self.rng.choice(list(options))

    def phrase(self, *options: str) -> str:
        """One of several phrasings of the same request (``str.format`` them with the instance's values)."""
        return str(self.rng.choice(options))

    def amount(self, low: int, high: int, step: int = 1) -> int:
        """A whole amount in ``[low, high]`` on a multiple of ``step``."""
        return self.rng.randrange(low // step, high // step + 1) * step

    def code(self, prefix: str, digits: int = 4) -> str:
        """A business reference such as ``INV-48213`` (``prefix`` plus ``digits`` random digits)."""
        return f"{prefix}-{self.rng.randrange(10 ** (digits - 1), 10**digits)}"

    # -- time ---------------------------------------------------------------------------------------------
    @property
    def now(self) -> datetime:
        """The company's clock (aware, in the user's zone)."""
        return self.company.now

    def day(self, offset: int, hour: int = 9, minute: int = 0) -> datetime:
        """The day ``offset`` days from today at ``hour:minute``, in the user's zone (aware)."""
        date = (self.company.now + timedelta(days=offset)).date()
        return datetime.combine(date, time(hour, minute), tzinfo=self.company.now.tzinfo)

    def workday(self, offset: int, hour: int = 9, minute: int = 0) -> datetime:
        """Like :meth:`day`, moved forward (or back, for a negative offset) to the nearest Monday-Friday."""
        when = self.day(offset, hour, minute)
        step = 1 if offset >= 0 else -1
        while when.weekday() >= 5:
            when = self.day((when.date() - self.company.now.date()).days + step, hour, minute)
        return when

    # -- records ------------------------------------------------------------------------------------------
    def uid(self, prefix: str) -> str:
        """A fresh record id, unique in the instance and unlike the company's background ids."""
        self._ids += 1
        return f"{prefix}_x{self.seed}{self._ids:03d}"

    def document(self, spec: dict[str, Any]) -> tuple[str, int]:
        """A real file for a record (a PDF invoice, a Word contract, a spreadsheet, a CSV).

        Args:
            spec: ``{"kind": "pdf"|"docx"|"xlsx"|"text", ...}`` (see :mod:`tools.companies.shared`).

        Returns:
            ``(blob id, size in bytes)`` to put in the record's ``blob`` and ``size``; the row carries
            the spec, so any process serving the row makes the same bytes.
        """
        blob, size = keep_document(spec)
        self.documents[blob] = spec
        return blob, size

    def add(self, app: str, collection: str, rid: str, record: dict[str, Any]) -> dict[str, Any]:
        """Put ``record`` (with ``"id": rid``) into the world's ``app.collection``; returns it."""
        record = {"id": rid, **record}
        self.overrides.setdefault(app, {}).setdefault(collection, {})[rid] = record
        return record


def tier_of(calls: int, decision: bool, distractors: int = 0) -> Tier:
    """A row's difficulty from the work its reference does: its length, what it reads past, the decision it makes.

    Points are the reference's steps (``complete_task`` included), plus one for every 4 distractors (records of
    the scenario that neither the reference nor the checks name: look-alikes, older versions, other people's
    requests, read past to reach the right one), plus 3 when the reference must read the world to decide what to
    do. ``easy``: at most 4 points; ``medium``: 5-8; ``hard``: 9 or more. A hand-written row (no family, no
    distractors counted) is tiered by its length alone.

    Args:
        calls: Steps in the reference solution (``complete_task`` included).
        decision: Whether the reference must read the world to decide what to do (the family's ``decision``).
        distractors: Scenario records the reference reads past (:func:`distractors_of`).
    """
    points = calls + distractors // 4 + (3 if decision else 0)
    if points >= 9:
        return "hard"
    return "medium" if points >= 5 else "easy"


def distractors_of(fields: dict[str, Any], overrides: dict[str, dict[str, dict[str, Any]]]) -> int:
    """The scenario records (``overrides``) whose ids neither the row's solution, checks nor allowed changes name."""
    named = json.dumps([fields.get("solution", []), fields.get("checks", []), fields.get("allowed_changes", [])])
    return sum(1 for records in overrides.values() for coll in records.values() for rid in coll if rid not in named)


def instance_row(family: Family, company: Company, seed: int) -> dict[str, Any]:
    """The task row of ``family``'s instance ``seed`` in ``company``: a JSON-able dict, the same on every run.

    The id is ``<family>.<company>.<seed>``; the split is the later of the family's and the company's
    (train < validation < test), so held-out families and held-out companies never reach training rows.
    """
    inst = Instance(family.name, company, seed)
    fields = family.build(inst)
    split = max(family.split, company.split, key=SPLITS.index)
    exposure = fields.pop("exposure", None) or _EXPOSURES[seed % len(_EXPOSURES)]
    row: dict[str, Any] = {
        "id": f"{family.name}.{company.key}.{seed}",
        "family": family.name,
        "seed": seed,
        "split": split,
        "tier": tier_of(len(fields.get("solution", [])), family.decision, distractors_of(fields, inst.overrides)),
        "apps": list(family.apps),
        "exposure": exposure,
        **({"kind": family.kind} if family.kind != "task" else {}),
        "world": {"fixture": company.key, "overrides": inst.overrides},
        **fields,
    }
    if inst.documents:
        row["documents"] = inst.documents
    return row
