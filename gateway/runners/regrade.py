"""``company-gateway regrade``: grade saved episodes again from their change sets, without running them again.

For each episode record (:mod:`gateway.runners.episodes`):

1. the row: the one saved with the episode (``rows="saved"``, the default), or today's row of the same task
   id (``rows="current"``: the built-in rows, or a tasks file), which is *changed* when its
   :func:`~gateway.control.rows.row_hash` differs from the one saved;
2. the initial world: :func:`~gateway.control.worlds.world_template` of that row, as a seed builds it;
3. the final world: the change set applied to it (:func:`~gateway.grading.changeset.apply_change_set`), the
   files the session created read back from the change set;
4. the grade: today's :func:`~gateway.grading.grade` of the row's checks on those two worlds and what the
   session said, with today's ``grader_version``.

A masked episode stays masked (reward 0.0). An episode is not guessed at: it *cannot be regraded* when it
has no change set (no session, or a record from before change sets), when its change set is incomplete
(file content past the 1 MiB saved is ``file content not saved``), when the row is missing or invalid
today, or when the change set does not fit the row's initial world (a row whose world changed).

The new record carries ``regrade``: ``{"rows", "row_changed", "from": {"reward", "grader_version",
"row_hash"}, "flipped": [{"name", "was", "now", "detail"}], "error"}`` (``was``/``now``: passed or not,
null where the check did not exist).
"""

from __future__ import annotations

import base64
import binascii
import copy
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from gateway.control.rows import Task, parse_task, row_hash, task_facts
from gateway.control.worlds import WorldTemplate, world_template
from gateway.exceptions import TaskError
from gateway.grading import AnswerText, Request, grade
from gateway.grading.changeset import (
    CHANGE_SET_MAX_FILE_BYTES,
    CHANGE_SET_MAX_RECORD_BYTES,
    ChangeSetError,
    apply_change_set,
    blob_ids,
)
from gateway.grading.version import grader_version
from gateway.runners.episodes import EpisodeRecord
from tools.kernel.blobs import BlobStore, blob_id

__all__ = ["Regrader", "RegradeSummary", "Rows", "flipped_checks", "summarize_regrade"]

Rows = Literal["saved", "current"]


def flipped_checks(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The checks whose outcome differs: ``{"name", "was", "now", "detail"}`` (None: the check was not there).

    ``detail`` is the new detail (the old one for a check no longer graded). In the new checks' order, then
    the checks that are gone.
    """
    was = {c.get("name"): c for c in old}
    now = {c.get("name"): c for c in new}
    out = []
    for name in [*now, *(n for n in was if n not in now)]:
        before, after = was.get(name), now.get(name)
        passed_before = None if before is None else bool(before.get("passed"))
        passed_after = None if after is None else bool(after.get("passed"))
        if passed_before != passed_after:
            detail = str((after or before or {}).get("detail", ""))
            out.append({"name": name, "was": passed_before, "now": passed_after, "detail": detail})
    return out


class Regrader:
    """Grades episode records again; worlds are built once per row.

    Args:
        rows: ``"saved"`` (each episode's own row) or ``"current"`` (``current`` by task id).
        current: Today's rows by task id (needed for ``rows="current"``).
    """

    def __init__(self, rows: Rows = "saved", current: dict[str, Task] | None = None) -> None:
        self.rows = rows
        self.current = current or {}
        self._templates: dict[str, WorldTemplate] = {}

    def _row(self, record: EpisodeRecord) -> Task:
        """The row to grade with.

        Raises:
            TaskError: there is none, or it is not a valid row today.
        """
        if self.rows == "current":
            task = self.current.get(record.task_id)
            if task is None:
                raise TaskError(f"no task {record.task_id!r} today")
            return task
        if record.row is None:
            raise TaskError("the row was not saved with the episode (try --rows current)")
        return parse_task(record.row, f"the saved row of {record.task_id}")

    def _template(self, task: Task) -> WorldTemplate:
        key = row_hash(task)
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = world_template(task)
        return template

    def regrade(self, record: EpisodeRecord) -> EpisodeRecord:
        """The record graded again: new ``reward``, ``checks``, ``grader_version`` (and row), and ``regrade``."""
        out = copy.deepcopy(record)
        out.regrade = {
            "rows": self.rows,
            "row_changed": None,
            "from": {"reward": record.reward, "grader_version": record.grader_version, "row_hash": record.row_hash},
            "flipped": [],
            "error": None,
        }
        try:
            task = self._row(record)
            if self.rows == "current" and record.row_hash is not None:
                out.regrade["row_changed"] = row_hash(task) != record.row_hash
            final, initial, blobs, template = self._worlds(record, task)
        except (TaskError, _CannotRegrade) as exc:
            out.regrade["error"] = f"cannot regrade: {exc}"
            return out
        assert record.changes is not None
        saved = record.changes.get("said") or {}
        said = AnswerText(**{k: saved.get(k) for k in ("answer", "summary", "response")})
        request = Request(task.instruction, template.user, template.now.year)
        result = grade(task.checks, task.allowed_changes, initial, final, said, blobs, request)
        out.checks = [c.as_dict() for c in result.checks]
        out.reward = 0.0 if record.mask_sample else result.reward
        out.grader_version = grader_version(task.checks, task.allowed_changes)
        facts = task_facts(task)
        for name in ("family", "company", "seed", "split", "tier", "apps", "row_hash", "row"):
            setattr(out, name, facts[name])
        out.regrade["flipped"] = flipped_checks(record.checks, out.checks)
        return out

    def _worlds(self, record: EpisodeRecord, task: Task) -> tuple[dict[str, Any], dict[str, Any], BlobStore,
                                                                   WorldTemplate]:  # fmt: skip
        """The final and initial snapshots, the final world's files, and the template.

        Raises:
            _CannotRegrade: the change set is missing, incomplete or does not fit the row's initial world.
            TaskError: the row's world cannot be built.
        """
        changes = record.changes
        if changes is None:
            raise _CannotRegrade("no change set saved (the episode had no session, or was recorded before them)")
        left = changes.get("left_out") or {}
        if left.get("files"):
            raise _CannotRegrade(f"file content not saved ({len(left['files'])} file(s) past the "
                                 f"{CHANGE_SET_MAX_FILE_BYTES} bytes saved)")  # fmt: skip
        if left.get("changes"):
            raise _CannotRegrade(f"the change set is incomplete ({left['changes']} change(s) past the "
                                 f"{CHANGE_SET_MAX_RECORD_BYTES} bytes of records saved)")  # fmt: skip
        if left.get("texts") or not changes.get("complete", False):
            raise _CannotRegrade(f"what the session said was not saved whole ({', '.join(left.get('texts', []))})")
        template = self._template(task)
        try:
            final = apply_change_set(template.snapshot, changes)
        except (ChangeSetError, AttributeError, TypeError) as exc:
            raise _CannotRegrade(f"the change set does not fit the row's initial world: {exc}") from None
        blobs = template.instantiate().blobs
        for key, text in (changes.get("files") or {}).items():
            try:
                data = base64.b64decode(text, validate=True)
            except (binascii.Error, ValueError, TypeError):
                raise _CannotRegrade(f"the saved content of {key[:20]}... is not base64") from None
            if blob_id(data) != key:
                raise _CannotRegrade(f"the saved content of {key[:20]}... does not match its id")
            blobs.put(data)
        named = set()
        for collections in changes.get("records", {}).values():
            for parts in collections.values():
                named |= blob_ids(parts.get("added", {}))
                named |= blob_ids([s.get("after") for fields in parts.get("changed", {}).values()
                                   for s in fields.values()])  # fmt: skip
        missing = sorted(key for key in named if key not in blobs)
        if missing:
            raise _CannotRegrade(f"file content not saved ({missing[0][:20]}... and {len(missing) - 1} more)"
                                 if len(missing) > 1 else f"file content not saved ({missing[0][:20]}...)")  # fmt: skip
        return final, template.snapshot, blobs, template


class _CannotRegrade(Exception):
    """Why an episode cannot be graded again (the text follows ``cannot regrade:``)."""


@dataclass
class RegradeSummary:
    """A regrade's figures.

    Attributes:
        episodes: Records read.
        regraded: Records graded again.
        changed: Regraded records whose reward or checks' outcomes changed.
        cannot: Records that could not be graded again.
        masked: Masked records (they stay masked).
        versions_changed: Regraded records whose grader version is not the one saved.
        old_mean: Mean reward of the unmasked regraded records, as saved (None: none).
        new_mean: The same, as graded again.
        rows_changed: Task ids whose row changed since the run (``--rows current``), in order.
    """

    episodes: int = 0
    regraded: int = 0
    changed: int = 0
    cannot: int = 0
    masked: int = 0
    versions_changed: int = 0
    old_mean: float | None = None
    new_mean: float | None = None
    rows_changed: list[str] = dataclasses.field(default_factory=list)


def summarize_regrade(pairs: Iterable[tuple[EpisodeRecord, EpisodeRecord]]) -> RegradeSummary:
    """Figures of ``(old, new)`` record pairs."""
    s = RegradeSummary()
    old_rewards: list[float] = []
    new_rewards: list[float] = []
    for old, new in pairs:
        info = new.regrade or {}
        s.episodes += 1
        s.masked += new.mask_sample
        if info.get("row_changed") and new.task_id not in s.rows_changed:
            s.rows_changed.append(new.task_id)
        if info.get("error"):
            s.cannot += 1
            continue
        s.regraded += 1
        s.changed += bool(info.get("flipped")) or new.reward != old.reward
        s.versions_changed += new.grader_version != old.grader_version
        if not new.mask_sample:
            old_rewards.append(old.reward)
            new_rewards.append(new.reward)
    if old_rewards:
        s.old_mean = sum(old_rewards) / len(old_rewards)
        s.new_mean = sum(new_rewards) / len(new_rewards)
    return s
