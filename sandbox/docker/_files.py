"""Files in a docker sandbox: paths resolved inside the container, content moved as tar archives.

Files go in and out as tar archives, after the path was resolved inside the container with
``readlink -f``, so symlinks are followed only while they stay inside the workspace. A path is
checked, then copied, in two engine calls, so a command running meanwhile could swap a symlink
in between (the engine still confines the copy to the container).
"""

from __future__ import annotations

import io
import os
import tarfile
import time
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from docker.utils import decode_json_header

from sandbox.base import COMMANDS_DIR, Sandbox
from sandbox.checks import FILE_IN_THE_WAY_REASON, FOLDER_IN_THE_WAY_REASON, NOT_A_FILE_REASON, SYMLINK_OUT_REASON
from sandbox.docker._engine import Engine, exec_quick
from sandbox.exceptions import FileMissing, FileTooLarge, ProviderUnavailable, SandboxGone, WorkspacePathError

__all__ = ["install_commands", "read_file", "write_files"]

_READ_CHUNK = 65536
# Bytes a one-file tar adds to the file: its header and PAX header blocks (a long name), padding to
# 512, two end blocks, and the padding to a 10240-byte record (POSIX ustar/pax); 64 KiB covers them.
_TAR_OVERHEAD = 65536

# Resolves workspace paths: $1 workspace, then relative paths. For each path prints, NUL-separated:
# the kind of its longest existing prefix once resolved (f file, d folder, o other, m a dangling
# symlink's missing target, x unresolvable: a loop or a target in a missing folder), how many
# trailing components do not exist, and the resolved prefix. (The cd: busybox's readlink -f reads
# a dangling symlink's relative target from the current folder, not from the link's own.)
_RESOLVE = r"""ws=$1
shift
[ -d "$ws" ] || exit 3
for p in "$@"; do
  cur=$ws/$p n=0
  while [ ! -e "$cur" ] && [ ! -L "$cur" ]; do cur=${cur%/*} n=$((n + 1)); done
  if r=$(cd -- "${cur%/*}/" && readlink -f -- "$cur"); then
    if [ -f "$r" ]; then k=f; elif [ -d "$r" ]; then k=d; elif [ -e "$r" ]; then k=o; else k=m; fi
  else
    k=x r=
  fi
  printf '%s\000%s\000%s\000' "$k" "$n" "$r"
done
"""


@dataclass(frozen=True)
class _Resolved:
    kind: str  # f, d, o, m, x: see _RESOLVE
    missing: int  # trailing components that do not exist
    real: str  # the resolved existing prefix, absolute in the container


async def read_file(engine: Engine, sandbox: Sandbox, path: str, rel: PurePosixPath, max_bytes: int | None) -> bytes:
    """Read the workspace file at ``rel`` (``path`` as the caller gave it) through ``get_archive``.

    With ``max_bytes``, the size in the archive response's stat header
    (``X-Docker-Container-Path-Stat``) is checked before the archive is streamed, and the
    stream is cut off once it runs past ``max_bytes`` plus the tar format's own overhead.
    """
    (found,) = await _resolve(engine, sandbox, [rel])
    real = _inside(sandbox, path, found)
    if found.missing:
        if found.kind in ("f", "o"):
            raise WorkspacePathError(path, FILE_IN_THE_WAY_REASON)
        raise FileMissing(path)
    if found.kind != "f":
        raise FileMissing(path, "folder" if found.kind == "d" else "special")
    api = await engine.api()
    try:
        archive, size = await engine.call(
            _fetch_archive, api, sandbox.id, str(PurePosixPath(sandbox.workspace, real)), max_bytes,
            what="read a file", sandbox=sandbox,
        )  # fmt: skip
    except SandboxGone as exc:  # a 404 on the path itself (removed meanwhile) or on the container
        if await engine.exists(sandbox):
            raise FileMissing(path) from exc
        raise
    if archive is None:
        raise FileTooLarge(path, size, max_bytes or 0)  # only with a max_bytes
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        member = tar.next()
        if member is None or not member.isreg():
            raise FileMissing(path, "folder" if member is not None and member.isdir() else "special")
        if max_bytes is not None and member.size > max_bytes:
            raise FileTooLarge(path, member.size, max_bytes)
        extracted = tar.extractfile(member)
        return extracted.read() if extracted is not None else b""


async def write_files(
    engine: Engine, sandbox: Sandbox, targets: list[tuple[str, PurePosixPath, bytes]], mode: int
) -> None:
    """Write ``(shown path, workspace-relative path, content)`` files with one ``put_archive``.

    Paths are resolved in the container first; missing parent folders go into the archive
    (Docker refuses an archive whose target folder is missing). A path refused stops the
    batch there, after the files before it were written.
    """
    if not targets:
        return
    resolved = await _resolve(engine, sandbox, [rel for _, rel, _ in targets])
    planned: dict[PurePosixPath, str] = {}  # workspace-relative path -> "d" or "f", in archive order
    refused: WorkspacePathError | None = None
    entries: list[tuple[PurePosixPath, bytes | None]] = []
    for (shown, rel, data), found in zip(targets, resolved, strict=True):
        try:
            file_rel, new_dirs = _plan_write(sandbox, shown, rel, found, planned)
        except WorkspacePathError as exc:
            refused = exc
            break
        for folder in new_dirs:
            planned[folder] = "d"
            entries.append((folder, None))
        planned[file_rel] = "f"
        entries.append((file_rel, data))
    if entries:
        api = await engine.api()
        tar = _archive(entries, mode)
        await engine.call(api.put_archive, sandbox.id, sandbox.workspace, tar, what="write files", sandbox=sandbox)
    if refused is not None:
        raise refused


def _plan_write(
    sandbox: Sandbox, shown: str, rel: PurePosixPath, found: _Resolved, planned: dict[PurePosixPath, str]
) -> tuple[PurePosixPath, list[PurePosixPath]]:
    """Where one file goes (workspace-relative) and which folders must be made for it."""
    prefix = _inside(sandbox, shown, found)
    rest = rel.parts[len(rel.parts) - found.missing :] if found.missing else ()
    if found.kind == "m":  # a dangling symlink inside the workspace: its target is the first missing part
        prefix, rest = prefix.parent, (prefix.name, *rest)
    elif found.kind == "d" and not rest:
        raise WorkspacePathError(shown, FOLDER_IN_THE_WAY_REASON)
    elif found.kind == "o" and not rest:
        raise WorkspacePathError(shown, NOT_A_FILE_REASON)
    elif found.kind in ("f", "o") and rest:
        raise WorkspacePathError(shown, FILE_IN_THE_WAY_REASON)
    if not rest:
        target, folders = prefix, []
    else:
        folders = [prefix.joinpath(*rest[:i]) for i in range(1, len(rest))]
        target = prefix.joinpath(*rest)
    for folder in folders:
        if planned.get(folder) == "f":
            raise WorkspacePathError(shown, FILE_IN_THE_WAY_REASON)
    if planned.get(target) == "d":
        raise WorkspacePathError(shown, FOLDER_IN_THE_WAY_REASON)
    return target, [folder for folder in folders if folder not in planned]


async def install_commands(engine: Engine, sandbox: Sandbox, files: dict[str, bytes]) -> None:
    """Put executables (mode 0o755) into ``COMMANDS_DIR`` with one ``put_archive``, making its folders."""
    bin_dir = PurePosixPath(COMMANDS_DIR.lstrip("/"))
    folders = [PurePosixPath(*bin_dir.parts[:i]) for i in range(1, len(bin_dir.parts) + 1)]
    entries: list[tuple[PurePosixPath, bytes | None]] = [(folder, None) for folder in folders]
    entries += [(bin_dir / name, data) for name, data in files.items()]
    api = await engine.api()
    await engine.call(
        api.put_archive, sandbox.id, "/", _archive(entries, 0o755), what="install commands", sandbox=sandbox
    )


async def _resolve(engine: Engine, sandbox: Sandbox, rels: list[PurePosixPath]) -> list[_Resolved]:
    """Resolve workspace paths inside the container (``readlink -f`` on each longest existing prefix)."""
    api = await engine.api()
    cmd = ["/bin/sh", "-c", _RESOLVE, "sh", sandbox.workspace, *(str(rel) for rel in rels)]
    for _ in range(3):  # a busy podman can lose a quick exec's output (nothing on either stream): read-only, so retry
        out, err = await engine.call(exec_quick, api, sandbox.id, cmd, what="resolve paths", sandbox=sandbox)
        fields = out.split(b"\0")[:-1]
        if fields or err.strip():
            break
    if len(fields) != 3 * len(rels):  # the script prints three fields per path, or failed
        detail = err.decode(errors="replace").strip()
        raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: resolving paths failed: {detail}")
    return [
        _Resolved(fields[i].decode(), int(fields[i + 1]), os.fsdecode(fields[i + 2])) for i in range(0, len(fields), 3)
    ]


def _inside(sandbox: Sandbox, shown: str, found: _Resolved) -> PurePosixPath:
    """The resolved prefix relative to the workspace, refusing one that resolves outside it."""
    if found.kind == "x":
        raise WorkspacePathError(shown, "a symlink on the path loops or leads out of the workspace")
    real = PurePosixPath(found.real)
    if not real.is_relative_to(sandbox.workspace):
        raise WorkspacePathError(shown, SYMLINK_OUT_REASON)
    return real.relative_to(sandbox.workspace)


def _fetch_archive(api: Any, container: str, path: str, max_bytes: int | None) -> tuple[bytes | None, int]:
    """``GET /containers/{id}/archive``: the tar and the file's size, or ``(None, size)`` over ``max_bytes``.

    The SDK's ``get_archive`` with its own response in hand, so that a file over the limit is
    refused on the stat header alone and its response closed unread; a stream that runs past
    ``max_bytes`` plus the tar overhead (the file grew meanwhile) is cut off the same way.
    """
    response = api._get(
        api._url("/containers/{0}/archive", container),
        params={"path": path}, stream=True, headers={"Accept-Encoding": "identity"},
    )  # fmt: skip
    try:
        api._raise_for_status(response)
        header = response.headers.get("X-Docker-Container-Path-Stat")
        size = int((decode_json_header(header) if header else {}).get("size", -1))
        if max_bytes is None:
            return response.content, size
        if size > max_bytes:
            return None, size
        bound = max_bytes + _TAR_OVERHEAD
        chunks, total = [], 0
        for chunk in response.iter_content(_READ_CHUNK, decode_unicode=False):
            total += len(chunk)
            if total > bound:
                return None, max(size, total - _TAR_OVERHEAD)
            chunks.append(chunk)
        return b"".join(chunks), size
    finally:
        response.close()


def _archive(entries: list[tuple[PurePosixPath, bytes | None]], mode: int) -> bytes:
    """A tar of ``(relative path, content)``; ``None`` content makes a folder (mode 0o755)."""
    buffer = io.BytesIO()
    now = time.time()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, data in entries:
            info = tarfile.TarInfo(str(path))
            info.mtime = now
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), mode
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()
