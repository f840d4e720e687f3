"""The bubblewrap options of a local sandbox's command, and the status bubblewrap reports back.

Neither the command's environment (session tokens among it) nor the host paths of its binds appear on a
command line, where every host user could read them in ``ps`` and the command itself in ``/proc/1/cmdline``
(bubblewrap's own process is pid 1 of the sandbox): bubblewrap reads all its options from a memory file
passed as ``--args FD`` (:func:`args_file`), so its command line is ``bwrap --args FD -- <command>``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

from sandbox.base import COMMANDS_DIR, TOOLS_DIR, WORKSPACE

__all__ = ["BASE_PATH", "args_file", "bwrap_argv", "command_path", "read_status", "supports_size"]

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The ``PATH`` after the commands folder, with or without bubblewrap."""

_READ_CHUNK = 65536
# Host /etc entries a command commonly needs (names, DNS, TLS roots, Debian's alternatives symlinks).
_ETC = (
    "/etc/alternatives",
    "/etc/group",
    "/etc/hosts",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/resolv.conf",
    "/etc/ssl",
)
_ROOT_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def bwrap_argv(
    bwrap: str,
    home: Path,
    network: str,
    cwd: PurePosixPath,
    status_fd: int,
    sockets: dict[str, str] | None = None,
    hidden: tuple[str, ...] = (),
    tmp_bytes: int | None = None,
    tools: Path | None = None,
) -> list[str]:
    """``[bwrap, *options]`` for one sandbox's command (without ``--`` and the command).

    Args:
        hidden: Host paths the command must not see although a bound tree (``/usr``, ``/etc``, ``/lib``...)
            holds them, e.g. the files of a package installed under ``/usr``: the folder holding each is
            rebuilt on a tmpfs from its other entries, so the hidden ones are not even listed.
        status_fd: The write end of the pipe bubblewrap reports the child's pid and exit code on.
        tmp_bytes: Size of the command's ``/tmp`` and ``/dev/shm`` (each a tmpfs; bubblewrap's ``--size``), or
            None for the tmpfs default (half of the host's memory). Nothing else is writable: ``/`` and ``/dev``
            are made read-only once built (their devices still open for writing).
        tools: A host folder shown read-only at ``TOOLS_DIR`` (its ``bin`` on ``PATH``: :func:`command_path`).
    """
    args = [bwrap, "--ro-bind", "/usr", "/usr"]
    for name in _ROOT_DIRS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    args += ["--dir", "/etc"]
    for name in _ETC:
        args += ["--ro-bind-try", name, name]
    args += _hiding(hidden)
    sized = ["--size", str(tmp_bytes)] if tmp_bytes else []
    args += ["--proc", "/proc", "--dev", "/dev", *sized, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += [*sized, "--tmpfs", "/tmp"]
    args += ["--bind", str(home / "workspace"), WORKSPACE]
    args += ["--dir", "/opt", "--dir", "/opt/company", "--ro-bind", str(home / "bin"), COMMANDS_DIR]
    if tools is not None:
        args += ["--ro-bind", str(tools), TOOLS_DIR]
    made: set[PurePosixPath] = set()
    for inside, host in sorted((sockets or {}).items()):
        parents = [p for p in reversed(PurePosixPath(inside).parents) if p != PurePosixPath("/") and p not in made]
        for parent in parents:
            args += ["--dir", str(parent)]
            made.add(parent)
        # Read-only: a command can connect to it, but not chmod or replace the host's socket.
        args += ["--ro-bind", host, inside]
    # Last: the root bubblewrap built (``/run``, ``/opt``, the folders above each bind) becomes read-only, so a
    # command writes only where a bound mount takes it: the workspace, /tmp and /dev/shm.
    args += ["--remount-ro", "/", "--chdir", str(cwd), "--unshare-all"]
    if network == "host":
        args.append("--share-net")
    args += ["--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv"]
    args += ["--json-status-fd", str(status_fd)]
    return args


#: Host trees bound into every sandbox (read-only): a hidden path outside them is out of sight anyway.
_BOUND = ("/usr/", "/etc/", *(f"{name}/" for name in _ROOT_DIRS))


def _hiding(hidden: tuple[str, ...]) -> list[str]:
    """Options that take ``hidden`` out of the bound trees: each folder holding one is rebuilt without it."""
    gone = {os.path.realpath(path) for path in hidden}
    gone = {p for p in gone if p.startswith(_BOUND) and os.path.lexists(p)}
    gone = {p for p in gone if not any(p.startswith(other + "/") for other in gone)}  # inside another: gone with it
    args: list[str] = []
    for folder in sorted({os.path.dirname(p) for p in gone}, key=len):
        args += ["--tmpfs", folder]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.path in gone:
                continue
            if entry.is_symlink():
                args += ["--symlink", os.readlink(entry.path), entry.path]
            else:
                args += ["--ro-bind-try", entry.path, entry.path]
        args += ["--remount-ro", folder]
    return args


@functools.cache
def supports_size(bwrap: str) -> bool:
    """Whether this bubblewrap takes ``--size`` (a sized tmpfs; bubblewrap 0.8 and later)."""
    try:
        shown = subprocess.run([bwrap, "--help"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return b"--size" in shown.stdout + shown.stderr


def command_path(commands: str, tools: str | None) -> str:
    """A command's ``PATH``: the app commands' folder, the tools' ``bin`` when tools are lent, the system's folders."""
    return ":".join([commands, *([f"{tools}/bin"] if tools else []), BASE_PATH])


def args_file(options: list[str], variables: dict[str, str], path: str = f"{COMMANDS_DIR}:{BASE_PATH}") -> int:
    """A memory file holding bubblewrap's ``options`` and the ``--setenv`` options for ``variables``.

    Args:
        options: Options as :func:`bwrap_argv` gives them (without the ``bwrap`` in front).
        variables: ``{name: value}`` set in the command's environment over ``PATH`` and ``HOME``.
        path: The command's ``PATH`` (:func:`command_path`).

    Returns:
        The file's descriptor, read position at its start (not inheritable; the caller passes it on as
        ``--args FD`` and closes it).

    Raises:
        ValueError: An option, name or value holds NUL (it would end the option early), or a name holds ``=``.
    """
    base = {"PATH": path, "HOME": WORKSPACE}
    parts: list[str] = list(options)
    if any("\0" in part for part in parts):
        raise ValueError("a bubblewrap option holds NUL")
    for key, value in {**base, **variables}.items():
        if "\0" in key or "\0" in value or "=" in key or not key:
            raise ValueError(f"environment variable {key[:40]!r}: names and values must not hold NUL")
        parts += ["--setenv", key, value]
    fd = os.memfd_create("sandbox-args", os.MFD_CLOEXEC)
    try:
        data = b"".join(os.fsencode(part) + b"\0" for part in parts)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_status(fd: int) -> dict[str, Any]:
    """Merge the JSON lines bubblewrap wrote to its status pipe (``child-pid``, then ``exit-code``)."""
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, _READ_CHUNK):
            data += chunk
    status: dict[str, Any] = {}
    for line in data.splitlines():
        with contextlib.suppress(ValueError):
            status.update(json.loads(line))
    return status
