"""A task's initial world: its company's app states with the row's overrides and documents, shared by its sessions.

:func:`world_template` builds it (a company's records, 0.1-4 s the first time; run it off the event loop), checking
the row first: what its overrides name, then the overrides, then its document specs. A row's documents live in its
template (:attr:`WorldTemplate.blobs`), not in the companies' shared blobs, so a template dropped or a row refused
leaves nothing behind. :func:`lint_task` refuses a row whose grader cannot be right.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from gateway.exceptions import TaskError
from tools import REGISTRY, World
from tools.companies import company, company_cache_size, company_state
from tools.companies.shared import BLOBS, make_document
from tools.kernel.blobs import BlobStore, blob_id
from tools.kernel.documents import read_texts
from tools.kernel.exceptions import shorten
from tools.kernel.world import snapshot_state

if TYPE_CHECKING:
    from gateway.control.schema import Task

__all__ = [
    "MAX_INLINE_TEMPLATES",
    "MAX_TEMPLATES",
    "Templates",
    "WorldTemplate",
    "build_world",
    "lint_task",
    "world_template",
]

#: Most world templates a :class:`Templates` keeps (served tasks' and inline rows'), the one used longest ago out.
MAX_TEMPLATES = 512
#: Most of them that are inline rows' (each may carry its own documents, up to a request's size and more).
MAX_INLINE_TEMPLATES = 64


@dataclass(frozen=True)
class WorldTemplate:
    """A task's initial world, built once and shared read-only by every session of that task.

    Attributes:
        states: App name to validated state; never written (sessions copy an app's state on first write).
        snapshot: ``World.snapshot()`` of these states: the initial snapshot grading compares against.
        blobs: The files' bytes by blob id (the row's documents, then the companies' shared blobs).
    """

    now: datetime
    timezone: str
    user: str
    states: dict[str, Any]
    snapshot: dict[str, Any]
    #: Blob id -> bytes of every file the world starts with: the row's own documents over the companies' blobs.
    blobs: Mapping[str, bytes] = dataclasses.field(default_factory=lambda: BLOBS)

    def instantiate(self) -> World:
        """A new world that shares every app state with this template until it writes to it."""
        states = dict(self.states)
        base = {app: (state, self.snapshot[app]) for app, state in self.states.items()}
        blobs = BlobStore(self.blobs)
        return World(self.now, self.timezone, self.user, states, blobs, shared=set(self.states), base=base)


def world_template(task: Task, *, cache_documents: bool = True) -> WorldTemplate:
    """Build the initial world of ``task``: its company's state of its apps (plus the directory), overrides applied.

    Only the records a row overrides are validated again; the rest of an app's state is the company's,
    validated once while the company is kept (:func:`tools.companies.company_cache_size`) and shared. The row is
    checked before its documents are made: every file its overrides name must be the companies' or one of its
    ``documents``, and the overrides must hold; only then is each document made from its spec (0.1-5 s for a
    large one), kept in the template alone.

    Args:
        task: The row.
        cache_documents: Keep the documents made in the on-disk cache of made documents; False for a row
            that may be refused or seen once (an inline row), so it leaves no file behind.

    Raises:
        TaskError: an override names unknown file content or an unknown collection, or makes a record invalid;
            a document spec is invalid or makes other bytes than its blob id; ``user`` is no one in the directory.
    """
    key = task.world.fixture
    info = company(key)
    missing = [b for b in _blob_ids(task.world.overrides) if b not in BLOBS and b not in task.documents]
    if missing:
        raise TaskError(
            f"task {task.id}: world.overrides name file content {missing[0][:20]}... that neither the company nor the "
            "row's documents hold; give its spec in documents"
        )
    apps = list(dict.fromkeys([*task.apps, "directory"]))
    states: dict[str, Any] = {}
    snapshot: dict[str, Any] = {}
    for app in apps:
        base, base_snapshot = _company_app(key, app)
        overrides = task.world.overrides.get(app)
        if not overrides:  # the company's own state of this app, shared by every template
            states[app], snapshot[app] = base, base_snapshot
            continue
        states[app], snapshot[app] = _apply_overrides(task.id, app, base, base_snapshot, overrides)
    documents: dict[str, bytes] = {}
    for blob, spec in task.documents.items():
        if blob in BLOBS:
            continue
        try:
            data = make_document(spec, cache=cache_documents)
        except ValueError as exc:
            raise TaskError(shorten(f"task {task.id}: documents[{blob!r}]: {exc}")) from None
        made = blob_id(data)
        if made != blob:
            said = f"task {task.id}: documents: the spec under {blob!r} makes {made!r}; key it by that id"
            raise TaskError(shorten(said))
        documents[blob] = data
    blobs: Mapping[str, bytes] = collections.ChainMap(documents, BLOBS) if documents else BLOBS
    now, zone, user = task.now or info.now, task.timezone or info.timezone, task.user or info.user
    people = getattr(states["directory"], "people", {})
    if task.user is not None and people and not any(p.email == task.user for p in people.values()):
        raise TaskError(
            f"task {task.id}: user: no one in the directory of {info.name} has the address {task.user[:60]!r}; give a "
            f"person's email such as {info.user!r}, or add the person in world.overrides.directory"
        )
    return WorldTemplate(now, zone, user, states, snapshot, blobs)


def _blob_ids(value: Any) -> list[str]:
    """Every blob id (``sha256:...`` in a ``blob`` field) in a row's overrides."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "blob" and isinstance(v, str) and v.startswith("sha256:"):
                found.append(v)
            else:
                found += _blob_ids(v)
    elif isinstance(value, list):
        for v in value:
            found += _blob_ids(v)
    return found


def _apply_overrides(
    task_id: str, app: str, base: Any, base_snapshot: dict[str, Any], overrides: dict[str, dict[str, Any]]
) -> tuple[Any, dict[str, Any]]:
    """``base`` (a validated app state) with a row's overrides, and its snapshot.

    Only the new and changed records are validated and dumped; the rest (and every collection the row
    leaves alone) is shared with the company's state and snapshot.
    """
    model = REGISTRY.apps[app].state
    partial: dict[str, Any] = {}
    removed: dict[str, set[str]] = {}
    for collection, records in overrides.items():
        if collection == "_settings":
            partial.update(records.get("_") or {})
            continue
        current = getattr(base, collection, None)
        if not isinstance(current, dict):
            raise TaskError(shorten(f"task {task_id}: world override for {app}: {collection}: no such collection"))
        out = partial.setdefault(collection, {})
        for rid, record in records.items():
            if record is None:
                removed.setdefault(collection, set()).add(rid)
                continue
            old = current.get(rid)
            out[rid] = {"id": rid, **(old.model_dump() if old is not None else {}), **record}
    try:
        fresh = model.model_validate(partial)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise TaskError(shorten(f"task {task_id}: world override for {app}: {loc}: {first['msg']}")) from None
    update: dict[str, Any] = {}
    for field in partial:
        value = getattr(fresh, field)
        if field in overrides and isinstance(value, dict):
            value = {**getattr(base, field), **value}
        update[field] = value
    for collection, rids in removed.items():
        kept = update.get(collection, getattr(base, collection))
        update[collection] = {rid: rec for rid, rec in kept.items() if rid not in rids}
    state = base.model_copy(update=update)
    snapshot = dict(base_snapshot)
    settings = [f for f in update if not isinstance(getattr(state, f), dict)]
    if settings:
        snapshot["_settings"] = {"_": {**base_snapshot.get("_settings", {}).get("_", {}),
                                       **state.model_dump(mode="json", include=set(settings))}}  # fmt: skip
    for collection in update:
        if collection in settings:
            continue
        records = dict(base_snapshot.get(collection, {}))
        for rid in partial.get(collection, {}):
            records[rid] = update[collection][rid].model_dump(mode="json")
        for rid in removed.get(collection, ()):
            records.pop(rid, None)
        snapshot[collection] = records
    return state, snapshot


#: Company key -> app -> (validated state, snapshot): kept for as many companies as the catalogue keeps built.
_COMPANY_APPS: collections.OrderedDict[str, dict[str, tuple[Any, dict[str, Any]]]] = collections.OrderedDict()
_COMPANY_APPS_LOCK = threading.Lock()


def _company_app(key: str, app: str) -> tuple[Any, dict[str, Any]]:
    """Company ``key``'s validated state of ``app`` and its snapshot (built once while kept; never written).

    Kept for the :func:`tools.companies.company_cache_size` companies used last, least recently used out.
    """
    with _COMPANY_APPS_LOCK:
        apps = _COMPANY_APPS.setdefault(key, {})
        _COMPANY_APPS.move_to_end(key)
        known = apps.get(app)
    if known is not None:
        return known
    state = REGISTRY.apps[app].state.model_validate(company_state(key, app, copy=False))
    known = state, snapshot_state(state)
    with _COMPANY_APPS_LOCK:
        apps[app] = known
        while len(_COMPANY_APPS) > company_cache_size():
            _COMPANY_APPS.popitem(last=False)
    return known


def build_world(task: Task) -> World:
    """A fresh world for ``task`` (its own template, nothing shared with other worlds).

    Raises:
        TaskError: see :func:`world_template`.
    """
    template = world_template(task)
    return World(template.now, template.timezone, template.user, template.states, BlobStore(template.blobs))


def lint_task(task: Task, where: str = "task", template: WorldTemplate | None = None) -> None:
    """Refuse a row whose grader cannot be right: checks that pass on the initial world, or ids that do not exist.

    Raises:
        TaskError: naming the row and what is wrong.
    """
    from gateway.grading import grade

    template = template or world_template(task)
    snapshot = template.snapshot
    if grade(task.checks, task.allowed_changes, snapshot, snapshot, None, BlobStore(template.blobs)).reward > 0:
        raise TaskError(f"{where} ({task.id}): its checks already pass on the initial world; doing nothing would score")
    goals = [c for c in task.checks if c["kind"] != "answer"]
    if goals and grade(goals, [], snapshot, snapshot, None, BlobStore(template.blobs)).reward > 0:
        raise TaskError(
            f"{where} ({task.id}): what it asks for is already so in the initial world (directly or inherited, "
            "e.g. access through a folder); the work would change nothing"
        )
    for n, rule in enumerate(task.allowed_changes):
        rid = rule.get("where", {}).get("id")
        if not isinstance(rid, str) or "add" in rule.get("kinds", ["add"]):
            continue  # a rule that allows adding may name the id the work creates
        if rid not in snapshot.get(rule["app"], {}).get(rule["collection"], {}):
            item, label = rule, f"allowed_changes[{n}]"
            raise TaskError(
                f"{where} ({task.id}): {label}: no {item['app']}.{item['collection']} record has id {rid!r}"
            )


class Templates:
    """The tasks' world templates, kept for the sessions that start from them.

    At most :data:`MAX_TEMPLATES` in all and :data:`MAX_INLINE_TEMPLATES` of inline rows, the one used longest
    ago dropped first.

    Args:
        served: The served tasks by id: a served task's template is kept under its id, an inline row's under its JSON.
    """

    def __init__(self, served: Mapping[str, Task]) -> None:
        self._served = served
        self._kept: dict[str, WorldTemplate] = {}  # key -> template, the one used last at the end
        self._builds = asyncio.Lock()  # one build at a time, in a worker thread

    def __len__(self) -> int:
        return len(self._kept)

    def _key(self, task: Task) -> str:
        if self._served.get(task.id) is task:
            return task.id
        return "row:" + hashlib.sha256(task.model_dump_json().encode()).hexdigest()

    def _keep(self, key: str, template: WorldTemplate) -> None:
        self._kept[key] = template
        while len(self._kept) > MAX_TEMPLATES:
            self._kept.pop(next(iter(self._kept)))
        if not key.startswith("row:"):
            return  # the inline rows kept are as many as before (at most their bound): none to drop
        rows = [k for k in self._kept if k.startswith("row:")]
        for old in rows[: max(0, len(rows) - MAX_INLINE_TEMPLATES)]:
            self._kept.pop(old)

    def get(self, task: Task) -> WorldTemplate:
        """``task``'s template, built in this thread if it is not kept (for callers off the event loop).

        Raises:
            TaskError: see :func:`world_template`.
        """
        key = self._key(task)
        template = self._kept.pop(key, None) or world_template(task)
        self._keep(key, template)
        return template

    async def for_seed(self, task: Task, inline: bool) -> WorldTemplate:
        """``task``'s template for a seed: built in a worker thread when not kept, one build at a time.

        A build makes the company's records when they are not kept (0.1-4 s), the row's documents and, for an
        inline row, checks it as a tasks file's rows are checked (:func:`lint_task`); then it reads the world's
        files' text into the shared text cache (0.35-0.84 s for a company's files), so that no search reads them
        on the event loop. Only a template whose row passed is kept: a refused row leaves no template, document
        or text behind.

        Args:
            task: The row.
            inline: The row came in the seed's body (checked, and its documents not cached on disk).

        Raises:
            TaskError: the row is refused.
        """
        key = self._key(task)
        template = self._kept.pop(key, None)
        if template is None:
            async with self._builds:
                template = self._kept.pop(key, None)
                if template is None:
                    template = await asyncio.to_thread(_build_checked, task, inline)
        self._keep(key, template)
        return template


def _build_checked(task: Task, inline: bool) -> WorldTemplate:
    """Build ``task``'s template (checking an inline row) and read its files' text; runs in a worker thread."""
    template = world_template(task, cache_documents=not inline)
    if inline:
        lint_task(task, "task", template)  # the rules a task file gets, for an inline row too
    read_texts(template.snapshot, BlobStore(template.blobs))
    return template
