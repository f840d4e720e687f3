"""The mail search language: parse a query such as ``from:priya has:attachment "Q1 budget"`` and match messages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from tools.apps.gmail.state import Message
from tools.kernel.exceptions import InvalidArgument
from tools.kits.text import fold

__all__ = ["Term", "matches", "parse_query", "wants_trash"]

#: Operators the search language understands; any other ``word:`` is read as plain text.
_OPERATORS = (
    "from",
    "to",
    "cc",
    "subject",
    "filename",
    "label",
    "has",
    "is",
    "in",
    "after",
    "before",
    "newer_than",
    "older_than",
)

_TOKEN = re.compile(r'\s*(-?)(?:([A-Za-z_]+):)?(?:"([^"]*)"?|(\S*))')
_DATE = re.compile(r"^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$")
_AGE = re.compile(r"^(\d{1,4})([dmy])$")
_AGE_DAYS = {"d": 1, "m": 30, "y": 365}
_IS = {"unread": "UNREAD", "starred": "STARRED", "important": "IMPORTANT"}
_IN = {"inbox": "INBOX", "sent": "SENT", "trash": "TRASH", "starred": "STARRED", "important": "IMPORTANT"}


@dataclass(frozen=True)
class Term:
    """One condition of a query.

    Attributes:
        field: ``"text"`` for plain words and phrases, else the operator name.
        value: The value as written (for dates, already checked), or a cut-off instant for date operators.
        negated: True when the term was written with a leading ``-``.
        instant: The cut-off for ``after``/``before``/``newer_than``/``older_than``.
    """

    field: str
    value: str
    negated: bool = False
    instant: datetime | None = None


def _bad(message: str) -> InvalidArgument:
    return InvalidArgument(message, "query")


def _parse_day(value: str, tz: ZoneInfo) -> datetime:
    m = _DATE.match(value)
    try:
        if not m:
            raise ValueError(value)
        day = date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise _bad(f"'{value}' is not a date; write dates as YYYY/MM/DD, e.g. after:2026/03/01") from None
    return datetime.combine(day, time(0, 0), tzinfo=tz)


def parse_query(query: str, tz: ZoneInfo, now: datetime, resolve_label: Callable[[str], str]) -> list[Term]:
    """Split a query into terms, checking every operator's value.

    Supported terms (any may be negated with a leading ``-``; all terms must match):

    * plain words and ``"quoted phrases"``: found in the sender, recipients, subject, body or attachment names;
    * ``from:`` ``to:`` ``cc:`` ``subject:`` ``filename:`` ``label:``: the value is found in that part of the message;
    * ``has:attachment``, ``is:unread`` / ``is:read`` / ``is:starred`` / ``is:important``;
    * ``in:inbox`` / ``in:sent`` / ``in:trash`` / ``in:starred`` / ``in:anywhere``;
    * ``after:YYYY/MM/DD`` (that day included), ``before:YYYY/MM/DD`` (that day excluded),
      ``newer_than:7d`` / ``older_than:2m`` (``d`` days, ``m`` months of 30 days, ``y`` years of 365 days).

    Messages in the trash are left out unless the query asks for ``in:trash`` or ``in:anywhere``
    (see :func:`wants_trash`).

    Args:
        query: The query text, e.g. ``from:priya subject:"Q1 budget" after:2026/03/01``.
        tz: Zone in which dates such as ``after:2026/03/01`` start.
        now: The current instant, for ``newer_than``/``older_than``.
        resolve_label: Maps a label as written to its exact name; raises InvalidArgument for unknown labels.

    Returns:
        The terms, in the order written.

    Raises:
        InvalidArgument: (parameter ``query``) an operator has an empty or unusable value.
    """
    terms: list[Term] = []
    pos = 0
    text = query.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:  # pragma: no cover - the pattern always consumes a character
            break
        pos = m.end()
        neg, op, quoted, bare = m[1] == "-", (m[2] or "").lower(), m[3], m[4]
        value = quoted if quoted is not None else (bare or "")
        if op and op not in _OPERATORS:
            value, op = f"{m[2]}:{value}", ""
        if not op:
            if value.strip() and value.upper() != "OR":
                terms.append(Term("text", fold(value), neg))
            elif not value.strip() and neg:
                raise _bad("a '-' must be followed by a word, phrase or operator")
            continue
        value = value.strip()
        if not value:
            raise _bad(f"'{op}:' needs a value, e.g. {op}:{_EXAMPLES[op]}")
        terms.append(_operator_term(op, value, neg, tz, now, resolve_label))
    return terms


_EXAMPLES = {
    "from": "priya.shah@northwind.example",
    "to": "owen.bell",
    "cc": "marcus",
    "subject": '"Q1 budget"',
    "filename": "csv",
    "label": "Finance",
    "has": "attachment",
    "is": "unread",
    "in": "trash",
    "after": "2026/03/01",
    "before": "2026/03/01",
    "newer_than": "7d",
    "older_than": "30d",
}


def _operator_term(
    op: str, value: str, neg: bool, tz: ZoneInfo, now: datetime, resolve_label: Callable[[str], str]
) -> Term:
    low = value.lower()
    if op == "has":
        if low not in ("attachment", "attachments"):
            raise _bad(f"has:{value} is not supported; use has:attachment")
        return Term("has", "attachment", neg)
    if op == "is":
        if low not in (*_IS, "read"):
            raise _bad(f"is:{value} is not supported; use is:unread, is:read, is:starred or is:important")
        return Term("is", low, neg)
    if op == "in":
        if low not in (*_IN, "anywhere"):
            raise _bad(f"in:{value} is not supported; use in:inbox, in:sent, in:trash, in:starred or in:anywhere")
        return Term("in", low, neg)
    if op == "label":
        return Term("label", resolve_label(value), neg)
    if op in ("after", "before"):
        return Term(op, value, neg, _parse_day(value, tz))
    if op in ("newer_than", "older_than"):
        m = _AGE.match(low)
        if not m:
            raise _bad(f"{op}:{value} is not an age; write a number and d, m or y, e.g. {op}:7d")
        return Term(op, low, neg, now - timedelta(days=int(m[1]) * _AGE_DAYS[m[2]]))
    return Term(op, fold(value), neg)


def wants_trash(terms: Iterable[Term]) -> bool:
    """True when the query asks for trashed messages (``in:trash`` or ``in:anywhere``, not negated)."""
    return any(t.field == "in" and t.value in ("trash", "anywhere") and not t.negated for t in terms)


def _addresses_text(addresses: Iterable[str], names: dict[str, str]) -> str:
    return " ".join(f"{fold(names.get(a, ''))} {a.lower()}" for a in addresses)


def _message_text(msg: Message, names: dict[str, str]) -> str:
    """Everything plain words are looked for in: people, subject, body and attachment names, folded."""
    return " ".join(
        [
            _addresses_text([msg.sender, *msg.to, *msg.cc, *msg.bcc], names),
            fold(msg.subject),
            fold(msg.body),
            " ".join(fold(a.filename) for a in msg.attachments),
        ]
    )


def _holds(term: Term, msg: Message, names: dict[str, str], text: Callable[[], str]) -> bool:
    f, v = term.field, term.value
    if f == "text":
        return v in text()
    if f == "from":
        return v in _addresses_text([msg.sender], names)
    if f == "to":
        return v in _addresses_text([*msg.to, *msg.cc, *msg.bcc], names)
    if f == "cc":
        return v in _addresses_text(msg.cc, names)
    if f == "subject":
        return v in fold(msg.subject)
    if f == "filename":
        return any(v in fold(a.filename) for a in msg.attachments)
    if f == "label":
        return v in msg.labels
    if f == "has":
        return bool(msg.attachments)
    if f == "is":
        return ("UNREAD" not in msg.labels) if v == "read" else (_IS[v] in msg.labels)
    if f == "in":
        return v == "anywhere" or _IN[v] in msg.labels
    if term.instant is None:  # pragma: no cover - parse_query sets it for every date operator
        return False
    if f in ("after", "newer_than"):
        return bool(msg.date >= term.instant)
    return bool(msg.date < term.instant)


def matches(terms: Iterable[Term], msg: Message, names: dict[str, str]) -> bool:
    """True when the message meets every term.

    Args:
        terms: From :func:`parse_query`.
        msg: The message to test.
        names: Email address to the person's name, so ``from:"Priya Shah"`` finds her mail.
    """
    made: list[str] = []

    def text() -> str:  # built once per message, however many words the query holds
        if not made:
            made.append(_message_text(msg, names))
        return made[0]

    return all(_holds(t, msg, names, text) != t.negated for t in terms)
