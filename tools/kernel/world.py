"""The world one session works on: every app's state, a frozen clock and an id counter.

A :class:`World` holds one pydantic state model per enabled app. Each state model
keeps its records in ``dict[str, Model]`` fields keyed by id (a *collection*);
any other field is a setting. :meth:`World.snapshot` turns the whole world into
plain JSON-able dicts, which is what grading compares.

Time: the world's clock is frozen at ``now`` (timezone-aware). Instants are
stored as aware ``datetime`` values; text from a caller is parsed with
:func:`parse_instant`, where a time without an offset is read in the company's
time zone.
"""

from __future__ import annotations

import copy
import functools
import operator
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

from tools.kernel.blobs import BlobStore
from tools.kernel.exceptions import InvalidArgument

__all__ = [
    "AppState",
    "Collection",
    "Context",
    "FileStore",
    "Record",
    "World",
    "format_instant",
    "matching",
    "parse_date",
    "parse_instant",
    "snapshot_state",
    "view",
]


class Record(BaseModel):
    """Base of every stored record: forbids unknown fields, validates assignments."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class AppState(BaseModel):
    """Base of every app's state model.

    Fields typed ``dict[str, <Record>]`` are collections keyed by record id; the
    rest are settings. Subclasses add nothing but fields.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


S = TypeVar("S", bound=AppState)
P = ParamSpec("P")
R = TypeVar("R")


class FileStore:
    """Where file bytes go when a sandbox is lent (the session's workspace).

    The gateway supplies an implementation; apps only call these two methods.
    Without a sandbox the context's ``files`` is ``None`` and apps return small
    text content inline instead.
    """

    def save(self, path: str, data: bytes, parameter: str = "save_as") -> str:  # pragma: no cover - interface
        """Write ``data`` to the workspace at ``path`` and return the path as the caller should see it.

        Raises:
            InvalidArgument: naming ``parameter``: the path leaves the workspace or the workspace blocks it.
        """
        raise NotImplementedError

    def load(self, path: str, parameter: str = "path") -> bytes:  # pragma: no cover - interface
        """Read a workspace file.

        Raises:
            NotFound: naming ``parameter``: the path holds no regular file.
            InvalidArgument: naming ``parameter``: the path leaves the workspace.
        """
        raise NotImplementedError

    def exists(self, path: str) -> bool:
        """Whether the workspace already holds a file at ``path`` (default: not known, so False)."""
        return False


class World:
    """Every app's state for one session, plus the frozen clock and the acting user.

    Args:
        now: The frozen current instant (timezone-aware).
        timezone: IANA name of the company's time zone (e.g. ``"America/New_York"``).
        user: Email address of the person the agent acts as.
        states: One state model per app, keyed by app name.
        blobs: File bytes by blob id (records hold ids); an empty store when None.
        shared: Apps whose state object is shared with other worlds (a template's) and must not
            be written; :meth:`begin_write` gives this world its own state object first, and
            copies each record the write reaches (copy on write, record by record).
        base: App name to ``(state, snapshot)`` of the template this world started from (``snapshot`` is
            :func:`snapshot_state` of ``state``): :meth:`snapshot` reuses the dump of every app and record
            still shared with it instead of dumping them again.
    """

    def __init__(
        self,
        now: datetime,
        timezone: str,
        user: str,
        states: dict[str, AppState],
        blobs: BlobStore | None = None,
        shared: set[str] | None = None,
        base: Mapping[str, tuple[AppState, dict[str, dict[str, Any]]]] | None = None,
    ) -> None:
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        self.now = now
        self.timezone = timezone
        self.tz = ZoneInfo(timezone)
        self.user = user
        self.states = states
        self.blobs = blobs if blobs is not None else BlobStore()
        self.shared: set[str] = set(shared or ())
        self._base = base or {}
        self._counter = 0
        self._gate = _WriteGate()
        #: App name to ``(state, its snapshot)``: the last snapshot taken of a written app outside a write.
        self._dumps: dict[str, tuple[AppState, dict[str, dict[str, Any]]]] = {}
        #: The summary given to ``company_complete_task``; ``None`` until it is called.
        self.completion: str | None = None
        #: The answer given to ``company_complete_task``; ``None`` when none was given.
        self.answer: str | None = None

    def new_id(self, prefix: str) -> str:
        """Return a fresh id such as ``msg_n3``: unique within this world, deterministic per session."""
        self._counter += 1
        return f"{prefix}_n{self._counter}"

    def begin_write(self, app: str) -> AppState:
        """Prepare a write to ``app``: give it a fresh state object and return the one it replaces.

        The fresh state shares every record with the old one; while the write runs (until
        :meth:`end_write`), a record is copied the first time it is reached through its
        :class:`Collection`, so the old state, which may be a template's shared by other worlds,
        is never changed, and is the backup to put back (:meth:`rollback`) if the write fails.
        Settings (fields that are not collections) are copied whole: they are small.
        """
        old = self.states[app]
        update: dict[str, Any] = {}
        for name, value in old.__dict__.items():
            update[name] = Collection(self._gate, app, value) if isinstance(value, dict) else copy.deepcopy(value)
        self.states[app] = old.model_copy(update=update)
        self.shared.discard(app)
        self._gate.writing = app
        return old

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Read records as they are, without taking copies, even while a write runs.

        For code that builds an answer and changes nothing (a view of a message with its thread, of a
        ticket with its comments): a write's own copy of every record it reached is needed only for
        records it may change.
        """
        writing, self._gate.writing = self._gate.writing, None
        try:
            yield
        finally:
            self._gate.writing = writing

    def end_write(self) -> None:
        """The write is over: records reached from now on are read, not copied."""
        self._gate.writing = None

    def rollback(self, app: str, old: AppState, shared: bool) -> None:
        """Put back the state :meth:`begin_write` returned (``shared``: it belongs to a template)."""
        self._gate.writing = None
        self.states[app] = old
        if shared:
            self.shared.add(app)

    def state(self, app: str) -> AppState:
        """Return the state model of ``app``.

        Raises:
            KeyError: The app is not part of this world.
        """
        return self.states[app]

    def snapshot(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Return ``{app: {collection: {record_id: record_dict}}}`` as plain JSON values.

        Settings (fields that are not collections) appear as the collection
        ``_settings`` with the single id ``_``. An app or record still shared with the template the
        world started from (``base``) is given as the template's own dump, not a copy: callers only read
        it. A snapshot of a world that wrote a few records of one app costs a dump of those records alone,
        and one with no write since the last snapshot costs nothing: a write gives its app a new state object
        (:meth:`begin_write`), and a state is never changed once its write is over, so the last snapshot of
        the same state object outside a write is given again (the same dicts: callers only read them).
        """
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for app, state in self.states.items():
            known = self._base.get(app)
            if known is None:
                out[app] = snapshot_state(state)
            elif known[0] is state:  # never written: the template's state object itself
                out[app] = known[1]
            elif self._gate.writing == app:  # its write may change it yet
                out[app] = _snapshot_over(state, known[0], known[1])
            else:
                last = self._dumps.get(app)
                if last is None or last[0] is not state:
                    last = self._dumps[app] = (state, _snapshot_over(state, known[0], known[1]))
                out[app] = last[1]
        return out

    def fork(self) -> World:
        """Return a world that goes on from this one as it stands now, sharing its state objects (no copy).

        Both worlds then treat every app as shared: a write to either gives it a fresh state object first and
        copies each record it reaches (:meth:`begin_write`), so neither ever sees the other's later writes. The
        fork carries the id counter, ``completion``, ``answer``, the template it started from (``base``) and the
        last snapshots taken (``snapshot`` reuses them); its blobs are its own copy of the ones this world added,
        over the same shared base. Costs O(apps + blobs added), not the world's size.

        Raises:
            RuntimeError: a write is under way (its state may change yet).
        """
        if self._gate.writing is not None:
            raise RuntimeError(f"cannot fork a world while it writes to {self._gate.writing!r}")
        self.shared = set(self.states)
        twin = World(self.now, self.timezone, self.user, dict(self.states), self.blobs.copy(), self.shared, self._base)
        twin._counter = self._counter
        twin._dumps = dict(self._dumps)
        twin.completion = self.completion
        twin.answer = self.answer
        return twin

    def copy(self) -> World:
        """Return an independent deep copy (states, clock and id counter)."""
        twin = World(self.now, self.timezone, self.user, copy.deepcopy(self.states), self.blobs.copy())
        twin._counter = self._counter
        twin.completion = self.completion
        twin.answer = self.answer
        return twin


class _WriteGate:
    """Which app of the world that owns it a write is changing, if any (read by each of its collections)."""

    __slots__ = ("writing",)

    def __init__(self) -> None:
        self.writing: str | None = None


#: Values a record's copy shares with the original: they cannot be changed in place.
_ATOMIC = (str, int, float, bool, type(None), datetime, date, timedelta)


def _own_copy(value: Any) -> Any:
    """A deep copy of a record, as ``model_copy(deep=True)`` makes but ~5x faster (no memo: records hold no cycles).

    Immutable values are shared; models, lists, dicts, sets and tuples are copied; anything else is deep-copied.
    """
    if isinstance(value, _ATOMIC):
        return value
    if isinstance(value, BaseModel):
        twin = value.__class__.__new__(value.__class__)
        private = value.__pydantic_private__
        object.__setattr__(twin, "__dict__", {k: _own_copy(v) for k, v in value.__dict__.items()})
        object.__setattr__(twin, "__pydantic_extra__", _own_copy(value.__pydantic_extra__))
        object.__setattr__(twin, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(twin, "__pydantic_private__", None if private is None else copy.deepcopy(private))
        return twin
    if isinstance(value, list):
        return [_own_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _own_copy(v) for k, v in value.items()}
    if isinstance(value, tuple | set | frozenset):
        return type(value)(_own_copy(v) for v in value)
    return copy.deepcopy(value)


_R = TypeVar("_R")


def matching(records: Mapping[str, _R], keep: Callable[[_R], bool]) -> list[_R]:
    """The records of a collection that ``keep`` accepts, in order (see :meth:`Collection.matching`).

    Args:
        records: A state's collection (a :class:`Collection` in a world, a plain dict elsewhere).
        keep: A test that only reads a record.

    Returns:
        The accepted records: a writing world's own copies, so they may be changed.
    """
    if isinstance(records, Collection):
        return records.matching(keep)
    return [r for r in records.values() if keep(r)]


class Collection(dict):  # type: ignore[type-arg]
    """A collection of records (``id -> record``) of one app, whose records may be shared with other worlds.

    While its world writes to its app (see :meth:`World.begin_write`), every way of reaching a record
    (``c[id]``, ``get``, ``values``, ``items``, ``pop``, ``setdefault``, ``dict(c)``, ``{**c}``,
    ``copy``) first replaces a shared record with this world's own copy, once; records stored
    during the write are the world's own. Outside a write it is an ordinary dict, read as is.
    ``__iter__`` is overridden (to the same keys) so that ``dict(c)`` and ``{**c}`` take the
    per-key path through ``__getitem__`` instead of CPython's direct copy of a plain dict.
    """

    __slots__ = ("_app", "_gate", "_owned")

    def __init__(self, gate: _WriteGate, app: str, records: dict[str, Any]) -> None:
        super().__init__(records)
        self._gate = gate
        self._app = app
        self._owned: set[str] = set()

    def _mine(self, key: str) -> Any:
        record = dict.__getitem__(self, key)
        if self._gate.writing == self._app and key not in self._owned:
            record = _own_copy(record)
            dict.__setitem__(self, key, record)
            self._owned.add(key)
        return record

    def __getitem__(self, key: str) -> Any:
        return self._mine(key)

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self)

    def get(self, key: str, default: Any = None) -> Any:
        """The record with id ``key`` (this world's own while it writes), else ``default``."""
        return self._mine(key) if dict.__contains__(self, key) else default

    def values(self) -> list[Any]:  # type: ignore[override]
        """The records, as a list (this world's own while it writes)."""
        if self._gate.writing != self._app:
            return list(dict.values(self))
        return [self._mine(k) for k in list(dict.keys(self))]

    def matching(self, keep: Callable[[Any], bool]) -> list[Any]:
        """The records ``keep`` accepts, in order: while its world writes, only those become its own.

        ``keep`` reads each record as it is (it must not change it); :meth:`values` would first copy every
        record of the collection, so a write that scans one (a room's bookings, a folder's children) made its
        world hold a copy of all of them.
        """
        if self._gate.writing != self._app:
            return [r for r in dict.values(self) if keep(r)]
        return [self._mine(k) for k, r in list(dict.items(self)) if keep(r)]

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        """``(id, record)`` pairs, as a list (this world's own records while it writes)."""
        if self._gate.writing != self._app:
            return list(dict.items(self))
        return [(k, self._mine(k)) for k in list(dict.keys(self))]

    def pop(self, key: str, *default: Any) -> Any:
        """Remove and return the record with id ``key`` (``default`` if absent and given, else KeyError)."""
        if dict.__contains__(self, key):
            record = self._mine(key)
            dict.__delitem__(self, key)
            self._owned.discard(key)
            return record
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self) -> tuple[str, Any]:
        """Remove and return the last ``(id, record)`` pair; KeyError when empty."""
        if not dict.__len__(self):
            raise KeyError("popitem(): collection is empty")
        key = next(reversed(list(dict.keys(self))))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """The record with id ``key``, storing ``default`` under it first if absent."""
        if dict.__contains__(self, key):
            return self._mine(key)
        self[key] = default
        return default

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self._owned.add(key)

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)
        self._owned.discard(key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Store records as ``dict.update`` does (each becomes this world's own)."""
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        """Remove every record."""
        dict.clear(self)
        self._owned.clear()

    def copy(self) -> dict[str, Any]:
        """A plain dict of the records (this world's own copies while it writes)."""
        return dict(self.items())

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: copy.deepcopy(v, memo) for k, v in dict.items(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(dict.items(self)),))


def _snapshot_over(state: AppState, base: AppState, dumped: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """:func:`snapshot_state` of ``state``, reusing ``dumped`` (``base``'s) for each record shared with ``base``.

    Falls back to a whole dump when a collection holds values that are not records.
    """
    colls: dict[str, dict[str, Any]] = {}
    settings: list[str] = []
    for name in type(state).model_fields:
        value = getattr(state, name)
        if not isinstance(value, dict):
            settings.append(name)
            continue
        theirs = getattr(base, name, None)
        theirs = theirs if isinstance(theirs, dict) else {}
        old = dumped.get(name, {})
        keys = list(dict.keys(value))
        if keys == list(dict.keys(theirs)) == list(old):  # the same ids in the same order: compare in C
            same = list(map(operator.is_, dict.values(value), dict.values(theirs)))
            if all(same):
                colls[name] = old  # nothing of it written: the template's own dump
                continue
            records = dict(old)
            for rid, record, kept in zip(keys, dict.values(value), same, strict=True):
                if kept:
                    continue
                if not isinstance(record, BaseModel):
                    return snapshot_state(state)
                records[rid] = record.model_dump(mode="json")
            colls[name] = records
            continue
        records = {}
        shared = 0
        for rid, record in dict.items(value):
            if rid in old and dict.get(theirs, rid) is record:
                records[rid] = old[rid]
                shared += 1
            elif isinstance(record, BaseModel):
                records[rid] = record.model_dump(mode="json")
            else:
                return snapshot_state(state)
        # nothing of it written: the template's own dump (unless records moved: then the order differs)
        colls[name] = old if shared == len(old) == len(records) and list(old) == list(records) else records
    if settings:
        colls["_settings"] = {"_": state.model_dump(mode="json", include=set(settings))}
    return colls


def snapshot_state(state: AppState) -> dict[str, dict[str, Any]]:
    """One app's part of :meth:`World.snapshot`: ``{collection: {record_id: record_dict}}``."""
    dumped = state.model_dump(mode="json")
    colls: dict[str, dict[str, Any]] = {}
    settings: dict[str, Any] = {}
    for name, value in dumped.items():
        if isinstance(getattr(state, name), dict):
            colls[name] = value
        else:
            settings[name] = value
    if settings:
        colls["_settings"] = {"_": settings}
    return colls


@dataclass
class Context(Generic[S]):
    """What an app action receives besides its parameters.

    Attributes:
        world: The session's world (other apps may be read, e.g. the directory).
        app: Name of the app whose action runs.
        files: The workspace file store when a sandbox is lent, else ``None``.
    """

    world: World
    app: str
    files: FileStore | None = None
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def state(self) -> S:
        """This app's state model."""
        return self.world.states[self.app]  # type: ignore[return-value]

    @property
    def now(self) -> datetime:
        """The frozen current instant."""
        return self.world.now

    @property
    def user(self) -> str:
        """Email address of the acting user."""
        return self.world.user

    @property
    def tz(self) -> ZoneInfo:
        """The company's time zone."""
        return self.world.tz

    @property
    def blobs(self) -> BlobStore:
        """File bytes by blob id: ``put(data) -> id``, ``get(id) -> bytes``."""
        return self.world.blobs

    def new_id(self, prefix: str) -> str:
        """A fresh id, see :meth:`World.new_id`."""
        return self.world.new_id(prefix)

    def other(self, app: str) -> AppState | None:
        """Another app's state, or ``None`` when that app is not in this world."""
        return self.world.states.get(app)


def view(fn: Callable[Concatenate[Context[Any], P], R]) -> Callable[Concatenate[Context[Any], P], R]:
    """Mark a function of ``(ctx, ...)`` that reads and never changes a record: it runs under :meth:`World.reading`."""

    def reading(ctx: Context[Any], /, *args: P.args, **kwargs: P.kwargs) -> R:
        with ctx.world.reading():
            return fn(ctx, *args, **kwargs)

    functools.update_wrapper(reading, fn)
    return reading


def parse_instant(value: str, tz: ZoneInfo, parameter: str) -> datetime:
    """Parse an ISO 8601 date-time; a value without an offset is read in ``tz``.

    A wall time without an offset that ``tz`` skips (a daylight-saving gap, e.g. 02:30 on 2026-03-08 in
    New York) is moved forward by the gap (to 03:30, ``-04:00``); one that ``tz`` passes twice (e.g. 01:30
    on 2026-11-01 in New York) is the first of the two (``-04:00``). A value with an offset is kept as given.

    Args:
        value: e.g. ``"2026-03-10T14:00:00-04:00"``, ``"2026-03-10T18:00:00Z"`` or ``"2026-03-10 14:00"``.
        tz: Zone for values without an offset.
        parameter: Parameter name for the error message.

    Returns:
        A timezone-aware datetime.

    Raises:
        InvalidArgument: The text is not an ISO 8601 date-time, or its year is outside :data:`YEARS`.
    """
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        example = datetime(2026, 3, 10, 14, tzinfo=tz).isoformat(timespec="seconds")  # the zone's offset that day
        raise InvalidArgument(f"'{value}' is not a date-time; use ISO 8601 such as {example}", parameter) from None
    _check_year(parsed.year, value, parameter)
    if parsed.tzinfo is None:
        # fold=0: an ambiguous time is the first; a skipped one takes the offset before the change, and the
        # round trip through UTC moves it forward by the gap (02:30 -> 03:30) with the offset after it.
        parsed = parsed.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)
    return parsed


#: Years a date may fall in: wide enough for any office record, narrow enough that arithmetic on it
#: (a week later, the day before, another time zone) stays inside Python's datetime range (years 1-9999).
YEARS = (1900, 2199)


def _check_year(year: int, value: str, parameter: str) -> None:
    if not YEARS[0] <= year <= YEARS[1]:
        raise InvalidArgument(f"'{value}' is out of range; give a date between {YEARS[0]} and {YEARS[1]}", parameter)


def parse_date(value: str, parameter: str) -> date:
    """Parse a calendar date ``YYYY-MM-DD`` (``YYYY/MM/DD`` also accepted).

    Raises:
        InvalidArgument: The text is not such a date, or its year is outside :data:`YEARS`.
    """
    try:
        parsed = date.fromisoformat(value.strip().replace("/", "-"))
    except ValueError:
        raise InvalidArgument(f"'{value}' is not a date; use YYYY-MM-DD such as 2026-03-10", parameter) from None
    _check_year(parsed.year, value, parameter)
    return parsed


def format_instant(value: datetime, tz: ZoneInfo) -> str:
    """Render an instant in ``tz`` as ISO 8601 with its offset, to the second."""
    return value.astimezone(tz).isoformat(timespec="seconds")


def daterange(start: date, end: date) -> Iterator[date]:
    """Yield each date from ``start`` up to but not including ``end``."""
    day = start
    while day < end:
        yield day
        day += timedelta(days=1)
