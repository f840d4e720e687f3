r"""Answers graded on what they assert: every expected value named, and no other candidate of its kind.

An answer check declares the values the user asked for, each with its kind, and where the
candidates of a kind come from::

    {"name": "answer", "kind": "answer",
     "expect": [{"kind": "person", "value": "priya.shah@northwind.example"},
                {"kind": "number", "value": 5},
                {"kind": "id", "value": "HD-1026"}],
     "candidates": {"id": {"pattern": "HD-\\d{4}"}}}

Kinds and their candidates:

- ``person``: everyone in the world's directory (a name and an email are the same person); a
  person is named by full name, email address, or a first name no one else in the directory has.
- ``number``: every number the text states (``5``, ``five``, ``3,400,000``, ``$3.4M``, ``2%``);
  with ``candidates.number.values`` only those numbers count; with ``candidates.number.unit`` (``"%"`` or
  ``"$"``) only percentages or amounts.
- ``date``: every calendar date the text states (``2026-03-12``, ``March 12``, ``12 March 2026``,
  ``3/12/2026``), read in the expected value's year when the text gives none.
- ``id``: strings matching ``candidates.id.pattern``, or the values of ``candidates.id.from``
  (``{"app", "collection", "field"}``) found in the text.
- ``text``: short phrases from ``candidates.text.values`` or ``candidates.text.from``.

The text graded is the ``answer`` given to ``complete_task``; without one, its ``summary``; without
either, the final ``response`` sent to ``/verify``. Beside an answer the summary is free context, but it
may not contradict the answer (:func:`summary_contradicts`): take it back (``correction``, ``ignore the
answer``), deny a value the answer gives (``it is not Tessa``) or state another value as the answer
(``actually the answer is Quentin``). For each kind the check passes when the claims of
that kind, less the values the request itself names (its subjects, the acting user), equal the
expected values: listing every candidate fails, and so does leaving one out. Context belongs in the
summary, which is not graded when an answer is given.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from gateway.grading import polarity
from gateway.grading import wording as w
from gateway.grading.kept import KeptByIdentity
from gateway.grading.results import CheckResult

__all__ = [
    "ANSWER_KINDS", "AnswerText", "candidate_values", "claims_of", "directory_people", "grade_answer",
    "summary_contradicts",
]  # fmt: skip

#: The kinds of value an answer check may expect.
ANSWER_KINDS = ("person", "number", "date", "id", "text")


@dataclass(frozen=True)
class AnswerText:
    """What a session said at the end: the ``answer`` and ``summary`` of complete_task, the final response."""

    answer: str | None = None
    summary: str | None = None
    response: str | None = None

    def graded(self) -> tuple[str, str]:
        """The text to grade and where it came from (``answer``, ``summary``, ``response`` or ``none``).

        Only a string with a word in it counts: a number or a list (from a hand-edited episode record) is no text.
        """
        for source in ("answer", "summary", "response"):
            text = getattr(self, source)
            if isinstance(text, str) and text.strip():
                return text, source
        return "", "none"


# ---- reading claims -------------------------------------------------------------------------------

_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "a dozen": 12, "dozen": 12,
}  # fmt: skip
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "million": 1e6, "bn": 1e9, "b": 1e9, "billion": 1e9}
_NUMBER = re.compile(
    r"(?<![\w.\-/:])[$€£]?\s?(\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0]\d{3})+(?![\d])|\d+)(\.\d+)?"
    r"\s?(thousand|million|billion|bn|mm|k|m|b)?(?![\w\-/:])"
    r"|\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}  # fmt: skip
_MONTHS |= {name[:3]: n for name, n in list(_MONTHS.items())} | {"sept": 9}
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATE_PATTERNS = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("mdy", re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", re.IGNORECASE)),
    ("dmy", re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+(\d{4}))?\b", re.IGNORECASE)),
    ("slash", re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{4}))?(?![\d/])")),
]
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b", re.IGNORECASE)


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def _mentions(text: str, phrase: str) -> bool:
    """Whether ``phrase`` stands in ``text`` as whole words (case and white space folded)."""
    return _mentions_folded(_fold(text), phrase)


def _mentions_folded(folded: str, phrase: str) -> bool:
    """:func:`_mentions` of a text already folded (``_fold``): fold once, ask about many phrases."""
    phrase = _fold(phrase)
    if phrase not in folded:  # the pattern is the phrase itself between word bounds: no need to search
        return False
    pattern = _phrase_pattern(phrase)
    return pattern is not None and pattern.search(folded) is not None


@functools.lru_cache(maxsize=8192)
def _phrase_pattern(phrase: str) -> re.Pattern[str] | None:
    """The whole-words pattern of a folded phrase, compiled once (``re``'s own cache holds only 512)."""
    return re.compile(r"(?<![\w@.])" + re.escape(phrase) + r"(?![\w@])") if phrase else None


@functools.lru_cache(maxsize=8192)
def _word_pattern(word: str) -> re.Pattern[str]:
    return re.compile(r"\b" + re.escape(word) + r"\b")


def _dates(text: str, year: int) -> tuple[set[str], str]:
    """The dates ``text`` states (ISO strings), and the text with them blanked out."""
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for kind, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            try:
                if kind == "iso":
                    d = date(int(m[1]), int(m[2]), int(m[3]))
                elif kind == "mdy":
                    d = date(int(m[3] or year), _MONTHS[m[1].lower().rstrip(".")], int(m[2]))
                elif kind == "dmy":
                    d = date(int(m[3] or year), _MONTHS[m[2].lower().rstrip(".")], int(m[1]))
                elif int(m[1]) > 12:  # 16/11/2026 can only be day first
                    d = date(int(m[3] or year), int(m[2]), int(m[1]))
                else:  # month first where both would do (11/06: November 6)
                    d = date(int(m[3] or year), int(m[1]), int(m[2]))
            except ValueError:
                continue
            found.add(d.isoformat())
            spans.append((m.start(), m.end()))
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return found, text


_PERCENT = re.compile(r"\s?(%|percent\b|per cent\b)", re.IGNORECASE)
_MONEY_AFTER = re.compile(r"\s?(dollars\b|usd\b|eur\b|gbp\b)", re.IGNORECASE)
_MONEY_BEFORE = re.compile(r"(usd|eur|gbp)\s?$", re.IGNORECASE)
_OTHER_UNIT = re.compile(
    r"\s?(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|people|persons?|employees?|tickets?|times|x)\b",
    re.IGNORECASE,
)


def _unit_of(text: str, m: re.Match[str]) -> str:
    """The unit a number is written with: ``"%"``, ``"$"`` (any currency), ``"other"`` or ``""`` (none)."""
    after, before = text[m.end() :], text[: m.start()]
    if _PERCENT.match(after):
        return "%"
    if m.group(0).lstrip()[:1] in ("$", "€", "£") or _MONEY_AFTER.match(after) or _MONEY_BEFORE.search(before):
        return "$"
    return "other" if _OTHER_UNIT.match(after) else ""


def _numbers(text: str, unit: str = "") -> set[float]:
    """Every number ``text`` states; with a ``unit`` (``"%"`` or ``"$"``) only numbers in it or in none."""
    out: set[float] = set()
    for m in _NUMBER.finditer(text):
        if unit and _unit_of(text, m) not in (unit, ""):
            continue
        if m[4]:
            out.add(float(_WORDS[m[4].lower()]))
            continue
        value = float(re.sub(r"[,\s\u00a0]", "", m[1]) + (m[2] or ""))
        if m[3]:
            value *= _SCALE[m[3].lower()]
        out.add(round(value, 6))
    return out


def directory_people(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone in the world's directory (with an email); without the directory app, the default company's."""
    people = snapshot.get("directory", {}).get("people", {})
    if not people:  # a world without the directory app: the company's people all the same
        from tools.companies import company

        people = company("default").people
    return [p for p in people.values() if isinstance(p, dict) and p.get("email")]


def _person_claims(text: str, people: list[dict[str, Any]]) -> set[str]:
    firsts: dict[str, int] = {}
    for p in people:
        first = _fold(str(p.get("name", ""))).split(" ")[0]
        firsts[first] = firsts.get(first, 0) + 1
    initials: dict[str, int] = {}
    for p in people:
        initials[_initialled(str(p.get("name", "")))] = initials.get(_initialled(str(p.get("name", ""))), 0) + 1
    out = set()
    folded = _fold(text)
    for p in people:
        name = str(p.get("name", ""))
        first = name.split(" ")[0]
        local = p["email"].split("@")[0]
        short = _initialled(name)
        if (
            _mentions_folded(folded, p["email"])
            or _mentions_folded(folded, name)
            or ("." in local and _mentions_folded(folded, local))  # a directory id such as marcus.reed
            or (initials.get(short) == 1 and _initial_pattern(short).search(text) is not None)
            or (firsts.get(_fold(first)) == 1 and first in text and _word_pattern(first).search(text) is not None)
        ):
            out.add(p["email"].lower())
    return out


@functools.lru_cache(maxsize=8192)
def _initial_pattern(short: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(short).replace(r"\ ", r"\s*"), re.IGNORECASE)


def _initialled(name: str) -> str:
    """``"Marcus Reed"`` as ``"M. Reed"``."""
    parts = name.split()
    return f"{parts[0][0]}. {' '.join(parts[1:])}" if len(parts) > 1 else name


def _field_values(snapshot: dict[str, Any], source: dict[str, Any]) -> list[str]:
    records = snapshot.get(source["app"], {}).get(source["collection"], {})
    out = []
    for rec in records.values():
        value = rec.get(source["field"]) if isinstance(rec, dict) else None
        if isinstance(value, str) and value.strip():
            out.append(value.strip())
    return sorted(set(out))


#: Words that name a role in a job title, for text candidates with ``role_words``.
_ROLE_WORDS = frozenset(
    [
        "ceo", "coo", "cfo", "cto", "cio", "cmo", "vp", "svp", "evp", "head", "lead", "manager", "director",
        "coordinator", "admin", "administrator", "specialist", "engineer", "analyst", "officer", "associate",
        "assistant", "president", "chief", "intern", "consultant", "architect", "designer", "recruiter",
        "accountant", "controller", "supervisor", "executive", "representative", "technician", "developer",
        "counsel", "paralegal", "clerk",
    ]
)

_PREFIXED = re.compile(r"^([A-Za-z]+-?)(\d+)$")


def _id_claims(text: str, spec: dict[str, Any], snapshot: dict[str, Any], expected: list[Any]) -> set[str]:
    out: set[str] = set()
    if "pattern" in spec:
        text = re.sub(r"(?<=\d)[Oo]|[Oo](?=\d)", "0", text)  # a letter O among digits is a zero: REQ-1O48
        out |= {m.group(0).upper() for m in re.finditer(spec["pattern"], text, re.IGNORECASE)}
        forms = {(m[1].upper(), len(m[2])) for v in expected if (m := _PREFIXED.match(str(v)))}
        if len(forms) == 1:  # "1026" for HD-1026: the bare number of an id written with one prefix
            prefix, digits = forms.pop()
            rest = _TIME.sub(" ", _dates(text, 2000)[1])
            bare_id = re.compile(r"(?<![\w\-$.])\d{" + str(digits) + r"}(?![\w\-%]|[.,]\d)")
            known = _scan(snapshot, re.compile(spec["pattern"], re.IGNORECASE), limit=5000)
            out |= {prefix + m.group(0) for m in bare_id.finditer(rest)} & (known | {str(v).upper() for v in expected})
    if "from" in spec:
        out |= {v.upper() for v in _field_values(snapshot, spec["from"]) if _mentions(text, v)}
    return out


def _text_values(spec: dict[str, Any], snapshot: dict[str, Any]) -> list[str]:
    values = [str(v) for v in spec.get("values", [])]
    if "from" in spec:
        values += _field_values(snapshot, spec["from"])
    return sorted(set(values))


def _norm(kind: str, value: Any) -> Any:
    """An expected value in the form claims take."""
    if kind == "number":
        return round(float(value), 6)
    if kind in ("person", "id"):
        return str(value).lower() if kind == "person" else str(value).upper()
    if kind == "text":
        return _fold(str(value))
    return str(value)


def claims_of(kind: str, text: str, check: dict[str, Any], snapshot: dict[str, Any], year: int) -> set[Any]:
    """Every candidate of ``kind`` that ``text`` names, in normal form (emails, upper-case ids, ISO dates, floats).

    Args:
        kind: One of :data:`ANSWER_KINDS`.
        text: The text to read.
        check: The answer check (its ``candidates``).
        snapshot: The final world (``{app: {collection: {id: record}}}``), where candidates come from.
        year: The year of dates that give none.
    """
    spec = check.get("candidates", {}).get(kind, {})
    if kind == "person":
        return _person_claims(text, directory_people(snapshot))
    if kind == "id":
        expected = [e["value"] for e in check.get("expect", []) if e["kind"] == "id"]
        return _id_claims(text, spec, snapshot, expected)
    if kind == "text":
        named = {_fold(v) for v in _text_values(spec, snapshot) if _mentions(text, v)}
        if spec.get("role_words"):  # a title the world does not hold still names a role: "acting Lead", "COO"
            covered = {w for value in named for w in value.split()}
            stray = {w for w in re.findall(r"[a-z]+", text.lower()) if w in _ROLE_WORDS and w not in covered}
            named |= {f"role word {w!r}" for w in stray}
        return named
    dates, rest = _dates(text, year)
    if kind == "date":
        return dates
    # numbers: not the digits of ids, dates or times
    id_pattern = check.get("candidates", {}).get("id", {}).get("pattern")
    if id_pattern:
        rest = re.sub(id_pattern, " ", rest, flags=re.IGNORECASE)
    rest = _TIME.sub(" ", rest)
    numbers = _numbers(rest, spec.get("unit", ""))
    if "values" in spec:
        allowed = {round(float(v), 6) for v in spec["values"]}
        numbers &= allowed
    return numbers


def candidate_values(kind: str, check: dict[str, Any], snapshot: dict[str, Any]) -> list[str]:
    """Every candidate of ``kind`` as text an answer could name (for the *list everything* control).

    People by full name, ids from their source (or every string in the world matching the pattern),
    text values, numbers from ``candidates.number.values`` (else the expected numbers and their
    neighbours), dates as the expected dates and the days around them.
    """
    spec = check.get("candidates", {}).get(kind, {})
    expected = [e["value"] for e in check.get("expect", []) if e["kind"] == kind]
    if kind == "person":
        return [str(p["name"]) for p in directory_people(snapshot)]
    if kind == "text":
        return _text_values(spec, snapshot)
    if kind == "id":
        values = set(_field_values(snapshot, spec["from"])) if "from" in spec else set()
        if "pattern" in spec:
            values |= _scan(snapshot, re.compile(spec["pattern"], re.IGNORECASE))
        return sorted(values | {str(v) for v in expected})
    if kind == "number":
        unit = spec.get("unit", "")
        numbers = [float(v) for v in spec["values"]] if "values" in spec else sorted(
            {float(v) + d for v in expected for d in (-1, 0, 1)} | {float(v) * 2 for v in expected}
        )
        return [("$" if unit == "$" else "") + _show(v) + ("%" if unit == "%" else "") for v in numbers]
    days = {date.fromisoformat(str(v)).toordinal() + d for v in expected for d in (-1, 0, 1)}
    return sorted(date.fromordinal(n).isoformat() for n in days)


def _show(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


#: The last scans, by the scanned value's identity and the pattern, flags and limit.
_SCANS: KeptByIdentity[frozenset[str]] = KeptByIdentity(16)


def _scan(value: Any, pattern: re.Pattern[str], limit: int = 500) -> set[str]:
    """Upper-cased matches of ``pattern`` in every string of ``value`` (a snapshot, read only), until ``limit``.

    A grade reads the same snapshot for each part of an answer: the last few scans are kept (by the
    snapshot's identity; a snapshot is never changed once taken).
    """
    key = (pattern.pattern, pattern.flags, limit)
    known = _SCANS.get(value, key)
    if known is not None:
        return set(known)
    found: set[str] = set()
    todo = [value]
    add = found.add
    while todo and len(found) < limit:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            for m in pattern.finditer(item):
                add(m.group(0).upper())
    _SCANS.put(value, frozenset(found), key)
    return found


def grade_answer(
    check: dict[str, Any], said: AnswerText, instruction: str, snapshot: dict[str, Any], user: str = "",
    year: int = 2026,
) -> CheckResult:
    """Grade one answer check (with ``expect``) against what the session said.

    Args:
        check: ``{"name", "kind": "answer", "expect": [{"kind", "value"}], "candidates": {...}}``.
        said: The answer, summary and response of the session.
        instruction: The request; values it names are its subjects and never count as extra claims.
        snapshot: The final world, where the candidates come from.
        user: The acting user's email; naming oneself is never an extra claim.
        year: The world's year, for dates written without one when no date is expected (an expected date's
            year is used for the dates of its kind).

    Returns:
        Passed when, for every expected kind, the claims less the request's own values equal the expected values.
    """
    text, source = said.graded()
    expect = check["expect"]
    problems: list[str] = []
    if m := (_taken_back(text, check, snapshot, year) or w.FORWARD.search(text) or polarity.SAYS_WRONG.search(text)):
        problems.append(f"takes it back ({m.group(0)!r})")
    asked = polarity.asked_words(instruction)
    affirmed, negated = polarity.split_negated(text, asked)
    for kind in sorted({e["kind"] for e in expect}):
        want = {_norm(kind, e["value"]) for e in expect if e["kind"] == kind}
        # a date written without its year is read in the expected date's year (a December world asked
        # about "January 14" means next January), as the module docstring says
        in_year = min(int(str(v)[:4]) for v in want) if kind == "date" else year
        subjects = claims_of(kind, instruction, check, snapshot, in_year)
        if kind == "person" and user:
            subjects.add(user.lower())
        denied = claims_of(kind, negated, check, snapshot, in_year) & want
        got = claims_of(kind, affirmed, check, snapshot, in_year) - (subjects - want)
        # a parenthesis is context (who proposed, what was excluded), except for a text value, where
        # "Specialist (acting Lead)" states a second title
        aside = affirmed if kind == "text" else w.PAREN.sub(_context, affirmed)
        stated = claims_of(kind, aside, check, snapshot, in_year) - subjects
        missing, extra = want - got, stated - want
        if denied:
            problems.append(f"{kind}: denies {sorted(map(_show_claim, denied))}")
        elif missing:
            problems.append(f"{kind}: does not name {sorted(map(_show_claim, missing))}")
        if extra:
            problems.append(f"{kind}: also names {sorted(map(_show_claim, extra))}, which was not asked for")
    if source == "answer" and isinstance(said.summary, str) and said.summary:
        against = summary_contradicts(said.summary, check, snapshot, year) or _restates_otherwise(
            said.summary, text, check, snapshot, instruction, asked, year
        )
        if against:
            problems.append(f"the summary contradicts the answer ({against})")
    unremarked = w.PAREN.sub(lambda m: " " if w.side_remark(m.group(0)[1:-1]) else m.group(0), text)
    hedge = (_HEDGE_IN_ANSWER if source == "answer" else _HEDGE).search(unremarked) or _TILDE.search(unremarked)
    hedge = hedge or _HOPE_LAST.search(text)
    if hedge:
        problems.append(f"hedges ({hedge.group(0)!r}): an answer states one thing")
    elif doubt := w.doubting(unremarked):
        problems.append(f"doubts it ({doubt!r}): an answer states one thing")
    if text.rstrip().endswith("?"):
        problems.append("asks rather than answers (it ends in '?')")
    problems += _pairing_problems(check, text, snapshot)
    shown = (text[:80] + "...") if len(text) > 80 else text
    if problems:
        return CheckResult(check["name"], False, f"{source} {shown!r}: " + "; ".join(problems))
    return CheckResult(check["name"], True, f"{source} {shown!r} names exactly what was asked")


#: A parenthesis correcting the answer, whatever it then ignores: "(actually $142,750 - ignore that)".
_CORRECTS = re.compile(r"\b(?:actually|correct\w*|really|real|right|should be|instead|meant|i mean)\b", re.IGNORECASE)


def _taken_back(text: str, check: dict[str, Any], snapshot: dict[str, Any], year: int) -> re.Match[str] | None:
    """The first retraction in ``text`` aimed at the answer, or ``None``.

    One inside a parenthesis that names another value of an asked kind before it, and none after it, points at
    that value: ``(the draft still shows $142,750, so ignore that one)`` sets the draft aside, not the answer.
    """
    kinds = {e["kind"] for e in check["expect"]}
    want = {_norm(e["kind"], e["value"]) for e in check["expect"]}
    for m in w.BACK.finditer(text):
        paren = next((p for p in w.PAREN.finditer(text) if p.start() < m.start() < p.end()), None)
        if paren is None:
            return m
        before = text[paren.start() : m.start()]
        after = re.sub(r"^\s*ones?\b", " ", text[m.end() : paren.end()])  # "ignore that one": not the number 1
        other = any(claims_of(k, before, check, snapshot, year) - want for k in kinds)
        if _CORRECTS.search(before) or not other or any(claims_of(k, after, check, snapshot, year) for k in kinds):
            return m
    return None


def summary_contradicts(summary: str, check: dict[str, Any], snapshot: dict[str, Any], year: int = 2026) -> str:
    """How a summary contradicts the answer it comes with, or ``""``; context about other values is free.

    It contradicts when it takes the answer back (a retraction such as ``correction`` or ``scratch that``,
    ``the answer above is wrong``), doubts it (``not 100% sure this is right``), denies an expected value
    (``not Tessa``, ``Tessa isn't right``), or
    states another candidate as the answer (``the answer is Quentin``, ``actually it's HD-1039``, ``it
    should be 12``) where it names no expected value of that kind there. Naming other values as context
    (``Aisha's manager is Quentin, whose manager is Tessa``) is not stating them as the answer.
    """
    if m := (w.BACK.search(summary) or w.FORWARD.search(summary) or polarity.SAYS_WRONG.search(summary)):
        return f"takes it back: {m.group(0)!r}"
    if doubt := w.doubting(summary):
        return f"doubts it: {doubt!r}"  # "Not 100% sure this is right though."
    for m in polarity.SUMMARY_DOUBT.finditer(summary):  # "it could also be Quentin": doubt beside another candidate
        end = polarity.CLAUSE_END.search(summary, m.end())
        doubted = summary[m.end() : end.start() if end else len(summary)]
        for kind in sorted({e["kind"] for e in check["expect"]}):
            want = {_norm(kind, e["value"]) for e in check["expect"] if e["kind"] == kind}
            if claims_of(kind, doubted, check, snapshot, year) - want:
                return f"doubts it: {m.group(0)!r}"
    for e in check["expect"]:
        for at in _forms_at(e["kind"], e["value"], summary, snapshot):
            before = summary[max(0, at - 40) : at]
            clause = re.split(r"[,;:.!?\n]|\b(?:and|but)\b", before)[-1]
            if w.NEG.search(w.NOT_NEG.sub(" ", clause)) and not re.search(r"\bnot (?:only|just)\b", clause):
                return f"denies {e['value']}"
            if polarity.DENIED_AFTER.match(summary, at + len(_word_at(summary, at))):
                return f"denies {e['value']}"
    kinds = sorted({e["kind"] for e in check["expect"]})
    for cue in polarity.ANSWER_CUE.finditer(summary):
        end = polarity.CLAUSE_END.search(summary, cue.end())
        stated = summary[cue.end() : end.start() if end else len(summary)]
        if not stated.strip() or w.NEG.match(stated.strip()):
            continue
        for kind in kinds:
            want = {_norm(kind, e["value"]) for e in check["expect"] if e["kind"] == kind}
            got = claims_of(kind, stated, check, snapshot, year)
            if got and not got & want:
                return f"states {sorted(map(_show_claim, got))[0]} as the answer"
    return ""


def _restates_otherwise(summary: str, answer: str, check: dict[str, Any], snapshot: dict[str, Any],
                        instruction: str, asked: frozenset[str], year: int = 2026) -> str:  # fmt: skip
    """How a summary restates the answer with other values, or ``""``.

    - The words that place an answer's value (``2 unresolved``, ``oldest HD-3149``) stand in the summary beside
      another value of that kind (``3 unresolved``, ``the oldest being HD-9530``).
    - A clause of the summary names an expected person or id with another one of its kind and a word of what was
      asked, unnegated (``both PR-4530 and PR-8920 are pending``): it answers with both. The request's own
      subjects (``Owen Bell's manager is Priya``) are not a second value (``asked``: the request's
      :func:`~gateway.grading.polarity.asked_words`).
    """
    for e in check["expect"]:
        kind = e["kind"]
        want = {_norm(kind, x["value"]) for x in check["expect"] if x["kind"] == kind}
        for side, word in polarity.neighbours(kind, _forms_at(kind, e["value"], answer, snapshot), answer):
            for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", summary, re.IGNORECASE):
                if side == "after":
                    window = polarity.SUMMARY_CLAUSE.split(summary[max(0, m.start() - 25) : m.start()])[-1]
                else:
                    window = polarity.SUMMARY_CLAUSE.split(summary[m.end() : m.end() + 40])[0]
                got = claims_of(kind, window, check, snapshot, year)
                if got and not got & want:
                    return f"says {word!r} of {sorted(map(_show_claim, got))[0]}"
    wanted = {k: {_norm(k, e["value"]) for e in check["expect"] if e["kind"] == k} for k in ("person", "id")}
    subjects = {kind: claims_of(kind, instruction, check, snapshot, year) for kind, want in wanted.items() if want}
    for clause in polarity.SUMMARY_CLAUSE.split(summary) if subjects else []:
        if w.NEG.search(w.NOT_NEG.sub(" ", clause)) or not asked & set(polarity.WORD.findall(clause.lower())):
            continue
        if _chain_ends_at(clause, wanted["person"], check, snapshot, year):
            continue  # "his manager Nadia Almeida reports to Carmen Ferrari": the way to the answer
        for kind, own in subjects.items():
            got = claims_of(kind, clause, check, snapshot, year)
            other = got - wanted[kind] - own
            if got & wanted[kind] and other:
                return f"answers {sorted(map(_show_claim, other))[0]} too"
    return ""


#: What links a person to the next one up a reporting chain: "reports to", "whose manager is".
_CHAIN = re.compile(r"\b(?:(?:reports?|reporting|reported)\s+(?:directly\s+|up\s+)?to|whose manager is|managed by)\s+$",
                    re.IGNORECASE)  # fmt: skip


def _chain_ends_at(clause: str, want: set[Any], check: dict[str, Any], snapshot: dict[str, Any], year: int) -> bool:
    """Whether ``clause`` climbs a reporting chain up to an expected person, naming no one after them."""
    for value in want:
        for at in _forms_at("person", value, clause, snapshot):
            if _CHAIN.search(clause[max(0, at - 40) : at]):
                rest = clause[at + len(_word_at(clause, at)) :]
                if not claims_of("person", rest, check, snapshot, year) - want:
                    return True
    return False


def _word_at(text: str, at: int) -> str:
    m = re.match(r"[\w@.'’-]+", text[at:])
    return m.group(0) if m else ""


def _forms_at(kind: str, value: Any, text: str, snapshot: dict[str, Any]) -> list[int]:
    """Where ``text`` names the expected ``value`` (as :func:`_position` reads it), every place."""
    forms = [str(value)]
    if kind == "person":
        person = next((p for p in directory_people(snapshot) if p["email"].lower() == str(value).lower()), None)
        if person is not None:
            forms += [str(person["name"]), str(person["name"]).split(" ")[0]]
    elif kind == "id" and (m := _PREFIXED.match(str(value))):
        forms.append(m[2])
    pattern = "|".join(re.escape(f) for f in forms)
    return [m.start() for m in re.finditer(r"(?<![\w@.])(?:" + pattern + r")(?![\w@])", text, re.IGNORECASE)]


_UNSURE = (rf"{w.UNSURE}|{w.SEEMS}|either|(?:best |educated )?guess|can(?:no|['’])?t say"
           r"|could(?:n['’]t| not) (?:fully )?(?:determine|tell|find out|verify|confirm)|rather not"
           r"|roughly|approximately|(?:around|about|at least|nearly|almost|something like|up to|at most|no more than"
           r")(?=\s+[$€£]?\d)"
           r"|unverified|not (?:yet )?verified|to be confirmed|tbc|needs? (?:confirmation|confirming)")  # fmt: skip
#: An amount given about with a tilde, or as a floor: "~$156,750", "3+".
_TILDE = re.compile(r"~\s*[$€£]?\d|(?<=\d)\+(?![\d\w])")
#: "hopefully" closing the answer doubts it ("Carmen Ferrari, 3, hopefully"); elsewhere it is mostly a pleasantry.
_HOPE_LAST = re.compile(r"\bhopefully\W*$", re.IGNORECASE)
_HEDGE = re.compile(rf"\b({_UNSURE})\b", re.IGNORECASE)
_HEDGE_IN_ANSWER = re.compile(rf"\b(or|might|{_UNSURE}|if\b[^.;()]{{0,60}}\binstead)\b", re.IGNORECASE)
#: A parenthesis offering another answer, not context: "(and PR-4739)", "(If you meant the draft instead: ...)".
_OFFERS = re.compile(r"^\(\W*(?:and|or|plus|also)\b|\binstead\b(?! of)", re.IGNORECASE)


def _context(m: re.Match[str]) -> str:
    """A parenthesis as context (blank), unless it offers another answer (kept: its values are stated)."""
    return m.group(0) if _OFFERS.search(m.group(0)) else " "


def _kind_of(check: dict[str, Any], value: Any) -> str:
    for e in check["expect"]:
        if e["value"] == value:
            return str(e["kind"])
    raise ValueError(f"{value!r} is not an expected value")


def _position(kind: str, value: Any, text: str, snapshot: dict[str, Any]) -> int | None:
    """Where ``text`` first names the expected ``value``; None when it does not.

    A person by email, full or first name; an id with or without its prefix; anything else as written.
    """
    forms = [str(value)]
    if kind == "person":
        person = next((p for p in directory_people(snapshot) if p["email"].lower() == str(value).lower()), None)
        if person is not None:
            forms += [str(person["name"]), str(person["name"]).split(" ")[0]]
    elif kind == "id" and (m := _PREFIXED.match(str(value))):
        forms.append(m[2])
    hits = [
        m.start()
        for form in forms
        for m in re.finditer(r"(?<![\w@.])" + re.escape(form) + r"(?![\w@])", text, re.IGNORECASE)
    ]
    return min(hits, default=None)


def _pairing_problems(check: dict[str, Any], text: str, snapshot: dict[str, Any]) -> list[str]:
    """Problems with how the values go together.

    ``pairs`` (``[[left, right], ...]``): the k-th left value named goes with the k-th right value named
    (``HD-1026 (Tomas Rivera), HD-1039 (Owen Bell)`` or ``Tomas has HD-1026 and Owen HD-1039``).
    ``order`` (``[first, second, ...]``): the values are named in that order, e.g. who commented, then
    their manager.
    """
    problems = []
    if check.get("pairs"):
        lefts, rights = [a for a, _ in check["pairs"]], [b for _, b in check["pairs"]]
        pos = {v: _position(_kind_of(check, v), v, text, snapshot) for v in lefts + rights}
        if all(at is not None for at in pos.values()):
            placed_lefts = sorted(lefts, key=lambda v: pos[v] or 0)
            said = set(zip(placed_lefts, sorted(rights, key=lambda v: pos[v] or 0), strict=True))
            if said != {(a, b) for a, b in check["pairs"]}:
                problems.append("pairs the values wrongly: " + ", ".join(f"{a} with {b}" for a, b in sorted(said)))
    if check.get("order"):
        pos = {v: _position(_kind_of(check, v), v, text, snapshot) for v in check["order"]}
        named = sorted(check["order"], key=lambda v: pos[v] or 0)
        if all(at is not None for at in pos.values()) and named != check["order"]:
            asked = ", ".join(check["order"])
            problems.append(f"names the values in the wrong roles (asked in this order: {asked})")
    return problems


def _show_claim(value: Any) -> str:
    return _show(value) if isinstance(value, float) else str(value)
