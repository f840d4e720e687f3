"""The company API on a unix socket, for sandboxes that have no network of their own.

With ``sandbox_network="isolated"`` (the default) a local or docker sandbox runs in a
network namespace of its own (only ``lo``), so it cannot reach this server over TCP, and
in particular not the control routes. It reaches the company API through a unix socket
instead: this module serves the server's ASGI app on an ``AF_UNIX`` socket in a
private folder (``0700``, the socket ``0600``; the docker provider opens the socket to
every uid, ``0666``, since a container's user may differ, while the folder keeps
everyone else on the host out), and the provider binds that socket
read-only into every sandbox at :data:`gateway.control.workspace.SANDBOX_API_SOCKET`, which
:data:`gateway.control.workspace.SOCKET_ENV` names in the sandbox's environment.

The socket's server is a second ``uvicorn.Server`` on the same app, without lifespan
events and without signal handlers: the main server runs the lifespan and handles
signals, and the app's lifespan starts and stops this one. Every request that comes
in through it carries :data:`SANDBOX_PEER` in its scope (uvicorn gives a unix-socket
peer no address: ``scope["client"]`` is ``None``), and the control routes refuse
both.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import uvicorn

from gateway.surfaces.protocol import http_protocol

__all__ = ["SANDBOX_PEER", "from_sandbox", "remove_stale_sockets", "serve_on_unix_socket"]

logger = logging.getLogger(__name__)

#: Scope key set on every request that came in through the unix socket.
SANDBOX_PEER = "company.sandbox_peer"
#: Seconds the socket's server waits for open requests when it stops (sandboxes are gone by then).
STOP_GRACE_S = 2.0
#: Longest parent folder path used as given: the socket's path (parent + ``/company-api-XXXXXXXX/api.sock``)
#: must stay under the 108 bytes of ``sun_path``.
_MAX_PARENT = 76
_PREFIX = "company-api-"

Scope = MutableMapping[str, Any]

#: True in the socket server's task: uvicorn's lines about the process are the main server's to say.
_IN_SOCKET_SERVER = contextvars.ContextVar("in_socket_server", default=False)


class _OnceAProcess(logging.Filter):
    """Drops uvicorn's "Started/Finished server process" from the socket's server (the log said them twice)."""

    def filter(self, record: logging.LogRecord) -> bool:
        process_line = str(record.msg).startswith(("Started server process", "Finished server process"))
        return not (process_line and _IN_SOCKET_SERVER.get())


_uvicorn_log = logging.getLogger("uvicorn.error")
if not any(isinstance(f, _OnceAProcess) for f in _uvicorn_log.filters):
    _uvicorn_log.addFilter(_OnceAProcess())


def from_sandbox(scope: Scope) -> bool:
    """Whether a request came in through the sandboxes' unix socket."""
    return bool(scope.get(SANDBOX_PEER))


class _MarkSandboxPeers:
    """ASGI wrapper: marks every HTTP request's scope with :data:`SANDBOX_PEER`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, SANDBOX_PEER: True}
        await self.app(scope, receive, send)


class _SecondServer(uvicorn.Server):
    """A uvicorn server that leaves signals to the main server (the app's lifespan stops it)."""

    def capture_signals(self) -> contextlib.AbstractContextManager[None]:  # type: ignore[override]
        return contextlib.nullcontext()


def _bind(folder: Path) -> tuple[socket.socket, Path]:
    path = folder / "api.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        path.chmod(0o600)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock, path


@contextlib.contextmanager
def _private_folder(parent: Path | None) -> Iterator[Path]:
    if parent is None or not parent.is_dir() or len(os.fsencode(parent)) > _MAX_PARENT:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        parent = Path(runtime) if runtime and len(os.fsencode(runtime)) <= _MAX_PARENT else None
    folder = Path(tempfile.mkdtemp(prefix=_PREFIX, dir=parent))  # mode 0700
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _listening(path: Path) -> bool:
    """Whether a server accepts connections on the unix socket at ``path`` (refused or missing: not)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def remove_stale_sockets(parent: Path) -> int:
    """Remove the socket folders an earlier run left in ``parent`` (killed before it could remove them).

    A folder is stale when nothing listens on its socket any more (connecting is refused); a folder
    whose socket still accepts connections belongs to a running server and is kept, and so is a
    folder this user does not own.

    Args:
        parent: The folder :func:`serve_on_unix_socket` was given, e.g. the local provider's root.

    Returns:
        How many folders were removed (0 when ``parent`` does not exist).
    """
    removed = 0
    try:
        folders = [f for f in parent.iterdir() if f.name.startswith(_PREFIX)]
    except OSError:
        return 0
    for folder in folders:
        try:
            if not folder.is_dir() or folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
        except OSError:
            continue
        if _listening(folder / "api.sock"):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += not folder.exists()
    if removed:
        logger.warning("removed %d API socket folder(s) left in %s by an earlier run", removed, parent)
    return removed


@contextlib.asynccontextmanager
async def serve_on_unix_socket(
    app: Any, *, parent: Path | None = None, head_timeout_s: float = 30.0, max_request_bytes: int = 8 * 1024 * 1024
) -> AsyncIterator[Path]:
    """Serve ``app`` on a fresh unix socket while the context is open; yields the socket's host path.

    The socket listens before this yields, so a client may connect at once (it waits in the
    backlog until the server accepts). On exit the server stops taking connections, waits
    at most :data:`STOP_GRACE_S` seconds for open requests, and the folder is removed.

    Args:
        app: The ASGI app (the server's own; its lifespan is not run again).
        parent: Folder to make the private socket folder in, e.g. the local provider's root, so that
            whoever removes that root after a crash removes the socket too. Used when it exists and is
            short enough for a unix socket path (108 bytes); else ``$XDG_RUNTIME_DIR``, else the temp dir.
        head_timeout_s: Seconds a connection may take to send a request's head before it is closed.
        max_request_bytes: The largest body the app takes (bounds a request's bytes on the wire).

    Raises:
        OSError: The folder or the socket could not be made.
    """
    with _private_folder(parent) as folder:
        sock, path = _bind(folder)
        config = uvicorn.Config(
            _MarkSandboxPeers(app),
            lifespan="off",
            log_config=None,  # leave logging as the main server set it
            proxy_headers=False,
            timeout_graceful_shutdown=int(STOP_GRACE_S),
            http=http_protocol(head_timeout_s, max_request_bytes),
        )
        server = _SecondServer(config)
        token = _IN_SOCKET_SERVER.set(True)  # the task takes a copy of this context
        try:
            task = asyncio.create_task(server.serve(sockets=[sock]))
        finally:
            _IN_SOCKET_SERVER.reset(token)
        logger.info("serving the company API to sandboxes on %s", path)
        try:
            yield path
        finally:
            server.should_exit = True
            try:
                await task
            finally:
                sock.close()
