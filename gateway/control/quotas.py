"""A session's quotas on what it writes, and the backup that undoes a write whole when one is passed.

Before a write: :func:`check_text` (valid Unicode), :func:`check_written` (the written-text quota,
``session_max_written_chars``) and :func:`backup`. After it: :func:`check_written` again with the text of the
files it took from the workspace (:func:`stored_text`), :func:`check_quotas` (stored bytes, new records); on any
refusal or failure :func:`restore` puts the world back as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tools import Action, Conflict, InvalidArgument, World
from tools.kernel.blobs import blob_id
from tools.kernel.documents import blob_text

if TYPE_CHECKING:
    from gateway.control.sessions import Session
    from gateway.settings import Settings

__all__ = [
    "MAX_NESTING",
    "Backup",
    "QuotaExceeded",
    "backup",
    "check_quotas",
    "check_text",
    "check_written",
    "restore",
    "stored_text",
    "text_size",
]


class QuotaExceeded(Conflict):
    """A write would take the session past one of its quotas (stored bytes, new records); it was undone whole."""


def check_written(settings: Settings, session: Session, written: int, uploaded: int = 0) -> None:
    """Refuse a change that would take the session's written text past its quota.

    Args:
        settings: The server's settings (``session_max_written_chars``).
        session: The caller's session (``written_chars`` so far).
        written: Characters of text in the call's arguments (checked before it runs).
        uploaded: Characters of text in the files it took from the workspace and stored (checked after it ran;
            the caller then undoes it whole).

    Raises:
        QuotaExceeded: naming ``session_max_written_chars``.
    """
    most = settings.session_max_written_chars
    if uploaded and session.written_chars + written + uploaded > most:
        raise QuotaExceeded(
            f"text limit reached: this account may write or upload at most {most:,} characters of text in all, "
            f"and the files of this request would bring it to {session.written_chars + written + uploaded:,}; "
            "nothing was saved or changed. Upload less text, or leave long files in your workspace."
        )
    if written and session.written_chars + written > most:
        raise QuotaExceeded(
            f"text limit reached: this account may write at most {most:,} characters of text in all, and "
            f"this request would bring it to {session.written_chars + written:,}; nothing was changed. "
            "Write less, or keep long text in files in your workspace."
        )


def check_quotas(settings: Settings, session: Session, backup: Backup) -> None:
    """Refuse a write that took the session past a quota (the caller then undoes it whole).

    Raises:
        QuotaExceeded: the file content the session added, or the records it created, now exceed
            ``session_max_stored_bytes`` or ``session_max_new_records``, and this write added to them.
    """
    world = session.world
    stored, limit = world.blobs.own_size(), settings.session_max_stored_bytes
    if stored > limit and stored > backup.stored_bytes:
        raise QuotaExceeded(
            f"storage limit reached: this account may add at most {_size(limit)} of file content "
            f"({limit:,} bytes), and this request would bring it to {_size(stored)}; nothing was saved or "
            "changed. Store fewer or smaller files."
        )
    created, most = world._counter, settings.session_max_new_records
    if created > most and created > backup.counter:
        raise QuotaExceeded(
            f"item limit reached: this account may create at most {most:,} new items (messages, events, "
            f"files, comments and the like), and this request would bring it to {created:,}; nothing was "
            "changed. Carry on without creating more."
        )


def text_size(value: Any) -> int:
    """Characters of text in ``value`` (strings at any depth of lists and objects, keys included)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(len(str(k)) + text_size(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(text_size(v) for v in value)
    return 0


def stored_text(world: World, files: list[tuple[str, bytes]]) -> int:
    """Characters of text in the files a call read from the workspace and stored in ``world`` (uploads, attachments).

    The text is what searches will read (:func:`tools.kernel.documents.blob_text`, which keeps it); a file read
    but not stored (a refused call) counts nothing. Runs where the call ran (a worker thread).
    """
    return sum(len(blob_text(world.blobs, blob_id(data), path)) for path, data in files)


#: Deepest nesting of lists and objects one argument may have (the argument itself is level 1).
MAX_NESTING = 100


def check_text(arguments: dict[str, Any]) -> None:
    """Refuse text that is not valid Unicode (a lone surrogate, e.g. the JSON escape u+D800 on its own).

    Such text could be stored but never sent back (UTF-8 cannot encode it): every later answer showing it fails.
    Every string and object key is checked, at any depth, by encoding it (C speed: ~1 ms for 5 MB of text).

    Raises:
        InvalidArgument: naming the first parameter that holds such text, or that nests lists and objects more
            than :data:`MAX_NESTING` deep.
    """
    for name, value in arguments.items():
        if isinstance(value, (int, float, bool)) or value is None:
            continue
        _check_value(name, value)


def _check_value(name: str, value: Any) -> None:
    """Refuse ``value`` (the argument ``name``) when a string in it (keys too) is not UTF-8, or it nests too deeply."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidArgument(
                    "the text is not valid Unicode (it holds a lone surrogate); send UTF-8 text", name
                ) from None
        elif isinstance(item, (list, tuple, dict)):
            if depth > MAX_NESTING:
                raise InvalidArgument(
                    f"the value nests too deeply (at most {MAX_NESTING} levels of lists and objects)", name
                )
            if isinstance(item, dict):
                todo.extend((key, depth) for key in item)
                todo.extend((sub, depth + 1) for sub in item.values())
            else:
                todo.extend((sub, depth + 1) for sub in item)


@dataclass(frozen=True)
class Backup:
    """What a write may have to put back: the app's old state, the counters, completion and the blob mark."""

    app: str
    state: Any  # the state to put back, or None (the app-less action)
    was_shared: bool
    counter: int
    completion: str | None
    answer: str | None
    blobs: int  # BlobStore.mark() before the write
    stored_bytes: int  # BlobStore.own_size() before the write


def backup(session: Session, action: Action) -> Backup:
    """Prepare a write: the world writes to a fresh state object (records copied as reached); keep the old one.

    See :meth:`tools.kernel.world.World.begin_write`: the old state, shared with a template or not, is never changed.
    """
    world = session.world
    app = action.app
    mark, stored = world.blobs.mark(), world.blobs.own_size()
    if not app:
        return Backup(app, None, False, world._counter, world.completion, world.answer, mark, stored)
    was_shared = app in world.shared
    state = world.begin_write(app)
    return Backup(app, state, was_shared, world._counter, world.completion, world.answer, mark, stored)


def restore(session: Session, backup: Backup | None) -> None:
    """Put back what :func:`backup` kept (nothing when ``backup`` is None): the write is undone whole."""
    if backup is None:
        return
    world = session.world
    if backup.state is not None:
        world.rollback(backup.app, backup.state, backup.was_shared)
    world._counter = backup.counter
    world.completion = backup.completion
    world.answer = backup.answer
    world.blobs.rollback(backup.blobs)


def _size(n: int) -> str:
    """``n`` bytes for a reader: ``"100 MiB"``, ``"2.5 MiB"``, ``"512 KiB"``, ``"17 bytes"``."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"
