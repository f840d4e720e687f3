"""Which gateway runs on this host have ended: a locked file per running gateway.

A serving gateway holds an exclusive ``flock`` on ``<cache>/company-gateway/runs/<hash>.lock`` for as long
as its process lives (:class:`RunMark`). The kernel drops the lock when the process ends however it ends, kill -9
included, so at start another gateway can tell a killed run from a running one: a mark whose lock it can take is a
run that ended without removing it (:func:`ended_runs`). The sandboxes carrying that run's incarnation are then
reaped at once instead of at their expiry (:func:`gateway.control.reaping.reapable`).

A mark is made under a temporary name, locked, then renamed into place, so no gateway ever sees it unlocked while
its run lives. An ended run's mark stays until the newest sandbox it can have lent has expired (the file's time,
touched at each lend, plus the run's ``sandbox_ttl_s``, written in the file): until then another gateway of the
host, with another owner or provider, may still find that run's sandboxes. A run on another host has no mark
here; its sandboxes are kept until their expiry.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import secrets
import time
from pathlib import Path

__all__ = ["RunMark", "ended_runs", "runs_folder"]

logger = logging.getLogger(__name__)

_SUFFIX = ".lock"


def runs_folder() -> Path:
    """``$XDG_CACHE_HOME/company-gateway/runs`` (``~/.cache`` without it); not made here."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "company-gateway" / "runs"


class RunMark:
    """This run's mark: a file locked while the process lives.

    Args:
        incarnation: The run's id (the file is named after its SHA-256, so any text is fine).
        ttl_s: The run's ``sandbox_ttl_s``, kept in the file for :func:`ended_runs`.
        folder: Where the marks are (:func:`runs_folder` by default).

    Raises:
        OSError: The folder or the file could not be made (the caller goes on without a mark: a killed run's
            sandboxes are then reaped at their expiry, as without this module).
    """

    def __init__(self, incarnation: str, ttl_s: float, folder: Path | None = None) -> None:
        self.folder = folder or runs_folder()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / f"{hashlib.sha256(incarnation.encode()).hexdigest()[:32]}{_SUFFIX}"
        draft = self.folder / f".{secrets.token_hex(8)}.draft"
        fd = os.open(draft, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(fd, json.dumps({"incarnation": incarnation, "ttl_s": ttl_s, "pid": os.getpid()}).encode())
            os.rename(draft, self.path)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(draft)
            raise
        self._fd: int | None = fd

    def touch(self) -> None:
        """Note that a sandbox was lent now: the mark outlives the run by ``ttl_s`` from the newest lend."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.utime(self._fd)

    def release(self) -> None:
        """Remove the mark and drop its lock (a clean stop: the run reaped what it lent). Safe to call twice."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self._fd)
        self._fd = None


def ended_runs(folder: Path | None = None, now: float | None = None) -> set[str]:
    """The incarnations of this host's runs that ended without removing their mark.

    A mark whose lock can be taken is an ended run's; one past its ``ttl_s`` from its newest lend is removed
    (every sandbox it lent has expired: the expiry rule reaps them). Marks another user owns are skipped.

    Args:
        folder: :func:`runs_folder` by default; a missing folder means none.
        now: Unix seconds (``time.time()`` by default).

    Returns:
        The incarnations, as written in their marks.
    """
    folder = folder or runs_folder()
    now = time.time() if now is None else now
    try:
        paths = sorted(p for p in folder.iterdir() if p.name.endswith(_SUFFIX))
    except OSError:
        return set()
    ended: set[str] = set()
    for path in paths:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if os.fstat(fd).st_uid != os.getuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its run is alive
            info = _read(fd)
            if info is None:
                continue
            incarnation, ttl_s = info
            if os.fstat(fd).st_mtime + ttl_s < now:
                with contextlib.suppress(OSError):
                    os.unlink(path)
                continue
            ended.add(incarnation)
        except OSError:
            continue
        finally:
            os.close(fd)
    return ended


def _read(fd: int) -> tuple[str, float] | None:
    try:
        info = json.loads(os.pread(fd, 4096, 0))
        incarnation, ttl_s = info["incarnation"], float(info["ttl_s"])
    except (ValueError, KeyError, TypeError, OSError):
        return None
    return (incarnation, ttl_s) if isinstance(incarnation, str) else None
