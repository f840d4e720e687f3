"""Files in a local sandbox: opened without ever leaving its folder, and the folder's removal."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from sandbox.base import Sandbox
from sandbox.checks import FILE_IN_THE_WAY_REASON, FOLDER_IN_THE_WAY_REASON, NOT_A_FILE_REASON, SYMLINK_OUT_REASON
from sandbox.exceptions import (
    FileMissing,
    FileTooLarge,
    ProviderUnavailable,
    SandboxGone,
    TooManyEntries,
    WorkspacePathError,
)

__all__ = ["MAX_ENTRIES", "disk_usage", "empty_folder", "guard", "read", "remove_tree", "write"]


def guard(sandbox: Sandbox, base: Path, shown: str, action: Callable[..., Any], *args: Any) -> Any:
    """Run ``action(*args)`` on files under ``base``, turning ``OSError`` into errors a caller can act on."""
    if not base.is_dir():
        raise SandboxGone(f"local sandbox {sandbox.id} is gone")
    try:
        return action(*args)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            if not base.is_dir():
                raise SandboxGone(f"local sandbox {sandbox.id} is gone") from exc
            raise FileMissing(shown) from exc
        reason = {
            errno.EISDIR: FOLDER_IN_THE_WAY_REASON,
            errno.ENOTDIR: FILE_IN_THE_WAY_REASON,
            errno.ELOOP: SYMLINK_OUT_REASON,
            errno.ENAMETOOLONG: "a name on the path is too long",
            errno.EACCES: "permission denied",
            errno.EPERM: "permission denied",
        }.get(exc.errno or 0)
        if reason is None:
            raise ProviderUnavailable(f"I/O error in local sandbox {sandbox.id} at {shown!r}: {exc}") from exc
        raise WorkspacePathError(shown, reason) from exc


#: Most files and folders :func:`disk_usage` walks: a shell can make 300,000 empty files in seconds, and walking
#: them took 1.2-5.4 s of the host's CPU on each save into the workspace.
MAX_ENTRIES = 20_000


def disk_usage(folder: Path, stop_at: int | None = None, max_entries: int | None = None) -> int:
    """Bytes the files and folders under ``folder`` take on disk (512-byte blocks allocated, as ``du``).

    Symlinks are counted, never followed; a hard-linked file counts once; an entry that vanishes meanwhile
    counts nothing.

    Args:
        stop_at: The walk stops once it has counted more than this many bytes (what it returns is then at least
            that much, enough to refuse a save past a bound); None walks everything.
        max_entries: Most entries walked (:data:`MAX_ENTRIES` when None).

    Raises:
        TooManyEntries: ``folder`` holds more than ``max_entries`` files and folders.
    """
    limit = MAX_ENTRIES if max_entries is None else max_entries
    total, seen = 0, set()
    stack = [str(folder)]
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except (FileNotFoundError, NotADirectoryError):
            continue
        with entries:  # read as walked: a folder of 300,000 entries is not listed whole first
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                if len(seen) > limit:
                    raise TooManyEntries(limit)
                total += info.st_blocks * 512
                if stop_at is not None and total > stop_at:
                    return total
                if stat.S_ISDIR(info.st_mode):
                    stack.append(entry.path)
    return total


def _open_inside(base: Path, rel: PurePosixPath, flags: int, mode: int, shown: str, *, make_dirs: bool) -> int:
    """Open ``base/rel`` without ever leaving ``base``.

    Symlinks are resolved first and refused if they lead out; the resolved path is then
    opened one component at a time with ``O_NOFOLLOW``, so a symlink swapped in meanwhile
    fails (``ELOOP``) instead of being followed.

    A path with no symlink on it (nearly every one) is opened that way at once, without resolving it first
    (resolving costs a ``stat`` per component of the whole host path); any error there, a symlink met
    included, opens it the careful way below, which answers what the path is.
    """
    parts = rel.parts
    if parts and ".." not in parts:
        with contextlib.suppress(OSError):
            return _open_plain(base, parts, flags, mode, make_dirs)
    real_base = base.resolve(strict=True)
    try:
        target = (real_base / rel).resolve()
    except (RuntimeError, OSError) as exc:  # a symlink loop (RuntimeError before Python 3.13)
        raise WorkspacePathError(shown, "a symlink on the path loops") from exc
    if not target.is_relative_to(real_base):
        raise WorkspacePathError(shown, SYMLINK_OUT_REASON)
    parts = target.relative_to(real_base).parts
    if not parts:
        raise IsADirectoryError(errno.EISDIR, "the workspace itself")
    return _open_plain(real_base, parts, flags, mode, make_dirs)


def _open_plain(base: Path, parts: tuple[str, ...], flags: int, mode: int, make_dirs: bool) -> int:
    """``base/parts`` opened one component at a time, never following a symlink (``OSError`` at one)."""
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            if make_dirs:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = child
        # O_NONBLOCK: opening a FIFO must not hang; regular files ignore it.
        return os.open(parts[-1], flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode, dir_fd=fd)
    finally:
        os.close(fd)


def read(base: Path, rel: PurePosixPath, shown: str, max_bytes: int | None) -> bytes:
    """The file's content; over ``max_bytes`` (by ``fstat``, or by a read of ``max_bytes + 1``) is ``FileTooLarge``."""
    try:
        fd = _open_inside(base, rel, os.O_RDONLY, 0, shown, make_dirs=False)
    except IsADirectoryError as exc:
        raise FileMissing(shown, "folder") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise FileMissing(shown, "folder" if stat.S_ISDIR(info.st_mode) else "special")
    with os.fdopen(fd, "rb") as file:
        if max_bytes is None:
            return file.read()
        if info.st_size > max_bytes:
            raise FileTooLarge(shown, info.st_size, max_bytes)
        data = file.read(max_bytes + 1)  # the file may have grown since the fstat
        if len(data) > max_bytes:
            raise FileTooLarge(shown, max(len(data), os.fstat(fd).st_size), max_bytes)
        return data


def write(base: Path, rel: PurePosixPath, data: bytes, mode: int, shown: str) -> None:
    try:
        fd = _open_inside(base, rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode, shown, make_dirs=True)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise WorkspacePathError(shown, NOT_A_FILE_REASON) from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise WorkspacePathError(shown, NOT_A_FILE_REASON)
    with os.fdopen(fd, "wb") as file:
        os.fchmod(file.fileno(), mode)
        file.write(data)


def remove_tree(home: Path) -> None:
    """Delete a sandbox folder of any depth; if a command made folders unreadable, reopen them and retry.

    coreutils ``rm -rf`` walks iteratively (a command can nest folders deeper than Python's recursion
    limit, which ``shutil.rmtree`` and ``os.walk`` hit), never follows symlinks, and with
    ``--one-file-system`` never leaves the sandbox's file system.

    Raises:
        OSError: the folder is still there after both tries.
    """
    if not os.path.lexists(home):
        return
    if _rm_rf(home) is None:
        return
    subprocess.run(["chmod", "-R", "u+rwx", "--", str(home)], capture_output=True, check=False)
    error = _rm_rf(home)
    if error is not None:
        raise OSError(f"could not remove {home}: {error}")


def _rm_rf(home: Path) -> str | None:
    """``rm -rf`` ``home``; None when it is gone, else rm's complaint."""
    done = subprocess.run(
        ["rm", "-rf", "--one-file-system", "--", str(home)], capture_output=True, text=True, check=False
    )
    if not os.path.lexists(home):
        return None
    return done.stderr.strip() or f"rm exited with {done.returncode}"


def empty_folder(folder: Path) -> None:
    """Remove everything in ``folder``, keeping the folder (links are removed, never followed).

    Raises:
        OSError: something could not be removed (permissions a command changed, folders nested deeper than
            Python's recursion limit): :func:`remove_tree` removes such a folder whole.
    """
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
    except RecursionError as exc:
        raise OSError(f"{folder} holds folders nested too deep to walk here") from exc
    if os.listdir(folder):
        raise OSError(f"{folder} is not empty")
