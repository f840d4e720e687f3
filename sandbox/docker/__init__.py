"""The docker provider: one container per sandbox, through the ``docker`` SDK against any Docker Engine API.

Works against Docker itself and against podman's Docker-compatible socket
(``scripts/podman-socket.sh``; see ``examples/images/build-local.sh`` for an
image built without a registry). Each sandbox is a container that sleeps
forever under a small init (``init=True``), with:

* the workspace at ``/workspace`` (its working folder, ``HOME``), kept in the container's own layer;
* the app commands in ``/opt/company/bin``, first on ``PATH``;
* the spec's env, memory/CPU/pids limits, and labels (plus ``company-gateway.owner`` and
  creation and expiry times, so a restarted gateway finds what a crash left: ``list_owned``, ``reap``);
* ``network="none"``: only a loopback interface of its own; ``network="host"``: the host's network
  namespace, so a command reaches the gateway on ``127.0.0.1`` (and sees every host interface);
* the host unix sockets named with ``bind_socket``, each bound read-only as a single file (e.g. the
  gateway's API socket at ``/run/company/api.sock``, so a ``network="none"`` sandbox still reaches
  the company API). Only when the engine runs on this host (``supports_socket_binds``): a bind's
  source is a path on the engine's machine, so a remote engine (``tcp://``, ``ssh://``) gets none.

Commands run through a small POSIX ``sh`` wrapper (any image with ``/bin/sh``, ``sleep`` and
``kill``; busybox or Debian) that checks the working folder, bounds the command in the
container with a watcher that SIGKILLs the command's whole process group at its timeout (the
image's ``timeout`` is not used: busybox's signals only the command, not its children, and
exits 143), and kills what the command left in the background once it exits. The gateway
also bounds the wait (``timeout_s + exec_timeout_grace_s``), because the SDK's client timeout
does not bound a running exec. Files go in and out as tar archives, after the path was
resolved inside the container with ``readlink -f``, so symlinks are followed only while they
stay inside the workspace. Every SDK call is synchronous: it runs on the provider's own
thread pool, at most ``max_concurrency`` at a time (a running command holds one slot).

Modules: ``provider`` (the ``DockerProvider`` class), ``_engine`` (the SDK client, its thread pool and
its errors), ``_labels`` (container labels, for ``list_owned`` and ``reap``), ``_exec`` (the command
wrapper and its output stream), ``_files`` (path resolution and tar archives).

Limits: a path is checked, then copied, in two engine calls, so a command running meanwhile
could swap a symlink in between (the engine still confines the copy to the container).
Commands run as the image's user (root in both example images) and can change
``/opt/company/bin``. A bound socket is made connectable by any uid (``0666``, see ``bind_socket``),
so an image with a non-root ``USER`` or an engine that remaps uids can use it too; its host folder
must be private to the gateway's user, which keeps everyone else on the host out.
``network="host"`` shares the host's whole network, not only its loopback (and with it the
gateway's control routes, from a trusted peer). At start-up the gateway calls ``reap()`` to
remove what a crashed run left.
"""

from __future__ import annotations

from sandbox.base import COMMANDS_DIR
from sandbox.docker._labels import OWNER_LABEL
from sandbox.docker.provider import DEFAULT_IMAGE, DockerProvider

__all__ = ["COMMANDS_DIR", "DEFAULT_IMAGE", "OWNER_LABEL", "DockerProvider"]
