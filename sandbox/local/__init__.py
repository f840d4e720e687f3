"""The local provider: a workspace folder on the host, commands under bubblewrap.

Layout under ``root``, one folder per sandbox::

    root/<id>/sandbox.json   owner, labels, env, network, sockets (so list_owned works after a restart)
    root/<id>/workspace/     the workspace, seen as /workspace inside the sandbox
    root/<id>/bin/           app commands, seen read-only as /opt/company/bin (first on PATH)

With bubblewrap (``bwrap``) a command sees a read-only ``/usr`` (plus ``/bin``,
``/lib``... as on the host), a few ``/etc`` files, its own ``/proc``, ``/dev``
and ``/tmp``, the workspace at ``/workspace``, the host unix sockets named with
``bind_socket`` (read-only, under ``/run``) and nothing else of the host; it
runs with no capabilities, in its own namespaces (keeping the host network for
``network="host"``), with only the environment it is given.

Without bubblewrap the paths cannot be remapped: commands run as plain host
processes in the host workspace folder, ``HOME`` is that folder, ``PATH``
starts with the host ``bin`` folder, and nothing is isolated (``network`` and
the read-only views are not enforced) and no socket can be bound. A WARNING is
logged once per provider.

Limits (``memory_mb``, ``cpus``, ``pids``) and ``image`` are not applied by
this provider, nor is any disk quota on the workspace; ``ttl_s`` is recorded,
and reaping is left to the caller.

Modules: ``provider`` (the ``LocalProvider`` class), ``_exec`` (running a command and collecting its
output), ``_bwrap`` (the bubblewrap command line and status), ``_files`` (opening files without leaving
the workspace, removing a sandbox folder), ``warm`` (``WarmLocalProvider``: sandboxes emptied and lent again).
"""

from __future__ import annotations

from sandbox.base import COMMANDS_DIR
from sandbox.local.provider import LocalProvider
from sandbox.local.warm import WarmLocalProvider

__all__ = ["COMMANDS_DIR", "LocalProvider", "WarmLocalProvider"]
