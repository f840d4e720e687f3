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
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Generic, TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

from tools.blobs import BlobStore
from tools.exceptions import InvalidArgument

__all__ = [
    "AppState",
    "Context",
    "FileStore",
    "Record",
    "World",
    "format_instant",
    "parse_date",
    "parse_instant",
    "snapshot_state",
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


class World:
    """Every app's state for one session, plus the frozen clock and the acting user.

    Args:
        now: The frozen current instant (timezone-aware).
        timezone: IANA name of the company's time zone (e.g. ``"America/New_York"``).
        user: Email address of the person the agent acts as.
        states: One state model per app, keyed by app name.
        blobs: File bytes by blob id (records hold ids); an empty store when None.
        shared: Apps whose state object is shared with other worlds and must not be written:
            :meth:`writable` gives this world its own copy first (copy on write).
    """

    def __init__(
        self,
        now: datetime,
        timezone: str,
        user: str,
        states: dict[str, AppState],
        blobs: BlobStore | None = None,
        shared: set[str] | None = None,
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
        self._counter = 0
        #: The summary given to ``company_complete_task``; ``None`` until it is called.
        self.completion: str | None = None

    def new_id(self, prefix: str) -> str:
        """Return a fresh id such as ``msg_n3``: unique within this world, deterministic per session."""
        self._counter += 1
        return f"{prefix}_n{self._counter}"

    def writable(self, app: str) -> AppState:
        """This world's own state of ``app``, copied from the shared one on first use (copy on write)."""
        if app in self.shared:
            self.states[app] = copy.deepcopy(self.states[app])
            self.shared.discard(app)
        return self.states[app]

    def state(self, app: str) -> AppState:
        """Return the state model of ``app``.

        Raises:
            KeyError: The app is not part of this world.
        """
        return self.states[app]

    def snapshot(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Return ``{app: {collection: {record_id: record_dict}}}`` as plain JSON values.

        Settings (fields that are not collections) appear as the collection
        ``_settings`` with the single id ``_``.
        """
        return {app: snapshot_state(state) for app, state in self.states.items()}

    def copy(self) -> World:
        """Return an independent deep copy (states, clock and id counter)."""
        twin = World(self.now, self.timezone, self.user, copy.deepcopy(self.states), self.blobs.copy())
        twin._counter = self._counter
        twin.completion = self.completion
        return twin


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


def parse_instant(value: str, tz: ZoneInfo, parameter: str) -> datetime:
    """Parse an ISO 8601 date-time; a value without an offset is read in ``tz``.

    Args:
        value: e.g. ``"2026-03-10T14:00:00-05:00"``, ``"2026-03-10T19:00:00Z"`` or ``"2026-03-10 14:00"``.
        tz: Zone for values without an offset.
        parameter: Parameter name for the error message.

    Returns:
        A timezone-aware datetime.

    Raises:
        InvalidArgument: The text is not an ISO 8601 date-time.
    """
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidArgument(
            f"'{value}' is not a date-time; use ISO 8601 such as 2026-03-10T14:00:00-05:00", parameter
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=tz)
    return parsed


def parse_date(value: str, parameter: str) -> date:
    """Parse a calendar date ``YYYY-MM-DD`` (``YYYY/MM/DD`` also accepted).

    Raises:
        InvalidArgument: The text is not such a date.
    """
    try:
        return date.fromisoformat(value.strip().replace("/", "-"))
    except ValueError:
        raise InvalidArgument(f"'{value}' is not a date; use YYYY-MM-DD such as 2026-03-10", parameter) from None


def format_instant(value: datetime, tz: ZoneInfo) -> str:
    """Render an instant in ``tz`` as ISO 8601 with its offset, to the second."""
    return value.astimezone(tz).isoformat(timespec="seconds")


def daterange(start: date, end: date) -> Iterator[date]:
    """Yield each date from ``start`` up to but not including ``end``."""
    day = start
    while day < end:
        yield day
        day += timedelta(days=1)
