"""The opensandbox provider: sandboxes on an OpenSandbox server, driven through its ``opensandbox`` SDK.

OpenSandbox (https://github.com/opensandbox-group/OpenSandbox) runs each
sandbox as a container with an ``execd`` daemon inside. Two HTTP APIs are
used, both described by the project's OpenAPI files:

* the lifecycle API (``specs/sandbox-lifecycle.yml``): ``POST /v1/sandboxes``
  with image, entrypoint, env, ``timeout`` (the TTL, seconds), metadata,
  ``resourceLimits`` and an optional egress ``networkPolicy``;
  ``GET /v1/sandboxes?metadata=...`` to list, ``DELETE /v1/sandboxes/{id}``,
  ``POST /v1/sandboxes/{id}/renew-expiration`` and
  ``GET /v1/sandboxes/{id}/endpoints/{port}`` to find ``execd``;
* the execd API (``specs/execd-api.yaml``): ``POST /command`` streams a
  command's events (bare JSON objects separated by blank lines:
  ``init``, ``stdout``/``stderr`` one line each, then ``error`` with the exit
  code or ``execution_complete``), ``POST /files/upload`` (multipart: a JSON
  metadata part, then the bytes), ``GET /files/download?path=``,
  ``POST /directories``.

By default execd is reached through the lifecycle server's proxy
(``use_server_proxy``), so the gateway needs to reach one address only, and
a sandbox that expired answers ``404`` with the server's ``*SANDBOX_NOT_FOUND``
code, which becomes ``SandboxGone``; execd's own ``404`` (code
``FILE_NOT_FOUND``) becomes ``FileMissing``.

Inside a sandbox: the workspace is ``/workspace`` (also ``HOME``), installed
commands live in ``/opt/company/bin``, first on the container's ``PATH``
(which replaces the image's own PATH with the standard Debian one).

Limits of the API, and so of this provider: command output arrives as text
lines, so it is rebuilt line by line (every line ends with a newline, bytes
that are not UTF-8 arrive replaced, CR is read as a line end); ``stdin`` is
passed through a file; ``pids`` is not applied; symlinks inside the
workspace are followed by execd wherever they lead.

Modules: ``provider`` (the ``OpenSandboxProvider`` class), ``_labels`` (metadata and egress rules),
``_exec`` (execd's event stream and exit status), ``_files`` (execd's file errors and modes).
"""

from __future__ import annotations

from sandbox.base import COMMANDS_DIR
from sandbox.opensandbox._labels import OWNER_LABEL
from sandbox.opensandbox.provider import DEFAULT_IMAGE, OpenSandboxProvider

__all__ = ["COMMANDS_DIR", "DEFAULT_IMAGE", "OWNER_LABEL", "OpenSandboxProvider"]
