"""List columns: typed values from "Column=value" text, and the filter language of list queries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tools.apps.sharepoint.state import Column, SharePointState, Value
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context, parse_date
from tools.kits.people import directory_of, find_person
from tools.kits.text import fold

__all__ = ["Clause", "find_column", "matches", "parse_assignments", "parse_equals", "parse_filter", "sort_key"]

_TRUE = ("true", "yes", "y", "1")
_FALSE = ("false", "no", "n", "0")
_OPS = ("eq", "ne", "gt", "ge", "lt", "le", "contains")
_CLAUSE = re.compile(r"^\s*(?P<col>.+?)\s+(?P<op>eq|ne|gt|ge|lt|le|contains)\s+(?P<val>.+?)\s*$", re.IGNORECASE)


def find_column(columns: list[Column], name: str, parameter: str) -> Column:
    """The column called ``name`` (case-insensitive).

    Raises:
        InvalidArgument: No such column; the message lists the list's columns.
    """
    key = fold(name)
    hit = next((c for c in columns if fold(c.name) == key), None)
    if hit is None:
        names = ", ".join(f"'{c.name}'" for c in columns)
        raise InvalidArgument(f"the list has no column '{name.strip()}'; its columns: {names}", parameter)
    return hit


def _person(ctx: Context[SharePointState], column: Column, raw: str, parameter: str) -> str:
    directory = directory_of(ctx)
    if directory is not None:
        try:
            return find_person(directory, raw, parameter).email
        except InvalidArgument:
            raise InvalidArgument(
                f"column '{column.name}' takes a person in the directory (name or email); no one matches '{raw}'",
                parameter,
            ) from None
    if re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", raw):
        return raw.lower()
    raise InvalidArgument(f"column '{column.name}' takes a person's email address, not '{raw}'", parameter)


def _convert(ctx: Context[SharePointState], column: Column, raw: str, parameter: str) -> Value | None:
    """Check ``raw`` against ``column`` and return the value to store (None: blank).

    A value is stored as JSON: text, choice and dates (``YYYY-MM-DD``) as strings, people as
    their email address, numbers as int or float, booleans as bool.

    Raises:
        InvalidArgument: naming the column, the expected type or choices, and what was given.
    """
    text = raw.strip()
    if not text:
        if column.required:
            raise InvalidArgument(f"column '{column.name}' is required and cannot be blank", parameter)
        return None
    kind = column.type
    if kind == "number":
        try:
            number = float(text.replace(",", "").replace("$", "").strip())
        except ValueError:
            raise InvalidArgument(
                f"column '{column.name}' takes a number such as 12480.50, not '{text}'", parameter
            ) from None
        return int(number) if number.is_integer() else number
    if kind == "date":
        try:
            return parse_date(text, parameter).isoformat()
        except InvalidArgument:
            raise InvalidArgument(
                f"column '{column.name}' takes a date YYYY-MM-DD such as 2026-03-27, not '{text}'", parameter
            ) from None
    if kind == "boolean":
        low = text.lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise InvalidArgument(f"column '{column.name}' takes yes or no (true/false), not '{text}'", parameter)
    if kind == "choice":
        hit = next((c for c in column.choices if fold(c) == fold(text)), None)
        if hit is None:
            choices = ", ".join(f"'{c}'" for c in column.choices)
            raise InvalidArgument(f"column '{column.name}' must be one of {choices}, not '{text}'", parameter)
        return hit
    if kind == "person":
        return _person(ctx, column, text, parameter)
    if len(text) > 255:
        raise InvalidArgument(f"column '{column.name}' holds at most 255 characters ({len(text)} given)", parameter)
    if column.pattern and not re.fullmatch(column.pattern, text):
        hint = column.description or f"the pattern {column.pattern}"
        raise InvalidArgument(f"column '{column.name}' must be {hint}, not '{text}'", parameter)
    return text


def parse_assignments(
    ctx: Context[SharePointState], columns: list[Column], fields: list[str], parameter: str = "fields"
) -> dict[str, Value | None]:
    """Turn ``["Column=value", ...]`` into ``{column name: value or None}``, every value checked.

    Raises:
        InvalidArgument: an entry without "=", an unknown or repeated column, or a value its column refuses.
    """
    out: dict[str, Value | None] = {}
    for entry in fields:
        name, eq, raw = entry.partition("=")
        if not eq or not name.strip():
            raise InvalidArgument(f"'{entry}' is not Column=value, e.g. \"Status=In progress\"", parameter)
        column = find_column(columns, name, parameter)
        if column.name in out:
            raise InvalidArgument(f"column '{column.name}' is given twice; give each column once", parameter)
        out[column.name] = _convert(ctx, column, raw, parameter)
    return out


# ---- filters --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    """One comparison of a filter: the column, the operator and the value to compare with (None: null)."""

    column: Column
    op: str
    value: Any


def _split(text: str, word: str) -> list[str]:
    """Split on `` word `` outside single quotes (case-insensitive)."""
    parts: list[str] = []
    buf: list[str] = []
    quoted, i = False, 0
    pat = re.compile(rf"\s+{word}\s+", re.IGNORECASE)
    while i < len(text):
        ch = text[i]
        if ch == "'":
            quoted = not quoted
        if not quoted:
            m = pat.match(text, i)
            if m and buf:
                parts.append("".join(buf))
                buf, i = [], m.end()
                continue
        buf.append(ch)
        i += 1
    parts.append("".join(buf))
    return parts


def _literal(ctx: Context[SharePointState], column: Column, raw: str, op: str, parameter: str) -> Any:
    raw = raw.strip()
    if raw.lower() == "null":
        if op not in ("eq", "ne"):
            raise InvalidArgument(f"null can only be compared with eq or ne (column '{column.name}')", parameter)
        return None
    if raw.startswith("'"):
        if len(raw) < 2 or not raw.endswith("'"):
            raise InvalidArgument(f"the text {raw} is missing its closing quote", parameter)
        raw = raw[1:-1].replace("''", "'")
    if op == "contains":
        if column.type not in ("text", "choice", "person"):
            raise InvalidArgument(
                f"contains works on text, choice and person columns; '{column.name}' is a {column.type} column",
                parameter,
            )
        return fold(raw)
    if column.type == "person":
        try:
            return _person(ctx, column, raw, parameter)
        except InvalidArgument:
            return fold(raw)
    if column.type in ("text", "choice"):
        return fold(raw)
    probe = column.model_copy(update={"required": False, "pattern": "", "choices": []})
    value = _convert(ctx, probe, raw, parameter)
    if column.type == "boolean" and op not in ("eq", "ne"):
        raise InvalidArgument(f"'{column.name}' is a yes/no column; compare it with eq or ne", parameter)
    return value


def parse_filter(
    ctx: Context[SharePointState], columns: list[Column], text: str, parameter: str = "filter"
) -> list[list[Clause]]:
    """Parse a filter into groups joined by ``or``, each a list of clauses joined by ``and``.

    A filter is clauses ``<Column> <op> <value>`` joined by ``and`` / ``or`` (``and`` binds tighter),
    e.g. ``Status eq 'In progress' and Due lt '2026-03-20'``. Operators: eq, ne, gt, ge, lt, le,
    contains; values are 'quoted text' (two quotes for one), numbers, true/false, or null (blank).

    Raises:
        InvalidArgument: a clause that is not ``<Column> <op> <value>``, an unknown column, or a value
            that does not fit the column.
    """
    groups: list[list[Clause]] = []
    for part in _split(text.strip(), "or"):
        group: list[Clause] = []
        for clause in _split(part, "and"):
            m = _CLAUSE.match(clause)
            if not m:
                raise InvalidArgument(
                    f"cannot read '{clause.strip()}'; write <Column> <op> <value> with op one of "
                    f"{', '.join(_OPS)}, e.g. Status eq 'In progress'",
                    parameter,
                )
            column = find_column(columns, m.group("col").strip().strip('"'), parameter)
            op = m.group("op").lower()
            group.append(Clause(column, op, _literal(ctx, column, m.group("val"), op, parameter)))
        groups.append(group)
    return groups


def parse_equals(
    ctx: Context[SharePointState], columns: list[Column], entries: list[str], parameter: str = "equals"
) -> list[list[Clause]]:
    """Parse ``["Column=value", ...]`` pairs that must all match exactly ("Column=" matches a blank).

    Raises:
        InvalidArgument: an entry without "=", an unknown column, or a value that does not fit the column.
    """
    exact: list[str] = []
    for entry in entries:
        name, eq, value = entry.partition("=")
        if not eq or not name.strip():
            raise InvalidArgument(f"'{entry}' is not Column=value, e.g. \"Status=Done\"", parameter)
        quoted = value.strip().replace("'", "''")
        exact.append(f"{name.strip()} eq '{quoted}'" if value.strip() else f"{name.strip()} eq null")
    return parse_filter(ctx, columns, " and ".join(exact), parameter) if exact else []


def _compare(ctx: Context[SharePointState], clause: Clause, value: Value | None) -> bool:
    want, op = clause.value, clause.op
    if want is None:
        return (value is None) == (op == "eq")
    if value is None:
        return op == "ne"
    if clause.column.type == "person":
        names = {fold(str(value)), fold(_name(ctx, str(value)))}
        if op == "contains":
            return any(want in n for n in names)
        hit = want in names
        return hit if op == "eq" else not hit if op == "ne" else False
    got: Any = fold(value) if isinstance(value, str) else value
    if op == "contains":
        return want in got
    if op == "eq":
        return bool(got == want)
    if op == "ne":
        return bool(got != want)
    try:
        return bool({"gt": got > want, "ge": got >= want, "lt": got < want, "le": got <= want}[op])
    except TypeError:
        return False


def _name(ctx: Context[SharePointState], email: str) -> str:
    directory = directory_of(ctx)
    if directory is None:
        return ""
    return next((p.name for p in directory.people.values() if p.email.lower() == email.lower()), "")


def matches(ctx: Context[SharePointState], values: dict[str, Value], groups: list[list[Clause]]) -> bool:
    """Whether an item's values satisfy the filter (an empty filter matches everything)."""
    if not groups:
        return True
    return any(all(_compare(ctx, c, values.get(c.column.name)) for c in group) for group in groups)


def sort_key(value: Value | None) -> tuple[int, Any]:
    """A key that sorts values of one column, blanks last."""
    if value is None:
        return (2, "")
    if isinstance(value, bool | int | float):
        return (0, float(value))
    return (1, fold(value))
