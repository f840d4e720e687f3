"""The bubblewrap command line of a local sandbox's command, and the status bubblewrap reports back.

The command's environment (session tokens among it) never appears on the command line, where
every host user could read it in ``ps``: bubblewrap reads its ``--setenv`` options from a
memory file passed as ``--args FD`` (:func:`env_file`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path, PurePosixPath
from typing import Any

from sandbox.base import COMMANDS_DIR, WORKSPACE

__all__ = ["BASE_PATH", "bwrap_argv", "env_file", "read_status"]

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
    env_fd: int,
    status_fd: int,
    sockets: dict[str, str] | None = None,
    hidden: tuple[str, ...] = (),
) -> list[str]:
    """The bubblewrap command line (without ``--`` and the command) for one sandbox's command.

    Args:
        hidden: Host paths the command must not see although a bound tree holds them (e.g. data of a
            package installed under ``/usr``): a folder is covered by an empty tmpfs, a file by ``/dev/null``.
        env_fd: The file descriptor of :func:`env_file`'s options, inherited by bubblewrap, which reads
            and closes it.
        status_fd: The write end of the pipe bubblewrap reports the child's pid and exit code on.
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
    for path in hidden:
        real = os.path.realpath(path)
        if not real.startswith(("/usr/", "/etc/")) or not os.path.exists(real):
            continue  # outside every bound tree: the command cannot see it anyway
        args += ["--tmpfs", real] if os.path.isdir(real) else ["--ro-bind", "/dev/null", real]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    args += ["--bind", str(home / "workspace"), WORKSPACE]
    args += ["--dir", "/opt", "--dir", "/opt/company", "--ro-bind", str(home / "bin"), COMMANDS_DIR]
    made: set[PurePosixPath] = set()
    for inside, host in sorted((sockets or {}).items()):
        parents = [p for p in reversed(PurePosixPath(inside).parents) if p != PurePosixPath("/") and p not in made]
        for parent in parents:
            args += ["--dir", str(parent)]
            made.add(parent)
        # Read-only: a command can connect to it, but not chmod or replace the host's socket.
        args += ["--ro-bind", host, inside]
    args += ["--chdir", str(cwd), "--unshare-all"]
    if network == "host":
        args.append("--share-net")
    args += ["--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv", "--args", str(env_fd)]
    args += ["--json-status-fd", str(status_fd)]
    return args


def env_file(variables: dict[str, str]) -> int:
    """A memory file holding bubblewrap's ``--setenv`` options for ``variables``, read position at its start.

    Args:
        variables: ``{name: value}`` set in the command's environment over ``PATH`` and ``HOME``.

    Returns:
        The file's descriptor (not inheritable; the caller passes it on and closes it).

    Raises:
        ValueError: A name or value holds NUL (it would end the option early), or a name holds ``=``.
    """
    base = {"PATH": f"{COMMANDS_DIR}:{BASE_PATH}", "HOME": WORKSPACE}
    parts: list[str] = []
    for key, value in {**base, **variables}.items():
        if "\0" in key or "\0" in value or "=" in key or not key:
            raise ValueError(f"environment variable {key[:40]!r}: names and values must not hold NUL")
        parts += ["--setenv", key, value]
    fd = os.memfd_create("sandbox-env", os.MFD_CLOEXEC)
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
