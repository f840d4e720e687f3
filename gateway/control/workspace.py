"""Lending a sandbox to a session: create it, write the guide and the app commands, bridge files, destroy it.

The guide and everything else written here is seen by the model, so it speaks
only of an ordinary company's systems.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import tempfile
import time
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from cli_shim import command_scripts
from gateway.settings import Settings
from sandbox import (
    FileMissing,
    FileTooLarge,
    Provider,
    ProviderUnavailable,
    Sandbox,
    SandboxSpec,
    TooManyEntries,
    WorkspacePathError,
    get_provider,
)
from tools import REGISTRY, Conflict, FileStore, InvalidArgument, NotFound

__all__ = [
    "DOCUMENT_TOOLS",
    "FILES_OFF_LOOP",
    "PROVIDER_FAILED_MESSAGE",
    "SANDBOX_API_SOCKET",
    "SOCKET_ENV",
    "FilesNeeded",
    "ProviderFailed",
    "SandboxFiles",
    "WorkspaceFull",
    "binds_showing",
    "destroy_quietly",
    "document_tools",
    "guide_text",
    "installed_paths",
    "lend_sandbox",
    "make_provider",
    "sandbox_tools",
    "source_checkout",
    "task_data_folder",
]

#: Where the API socket appears inside a sandbox.
SANDBOX_API_SOCKET = "/run/company/api.sock"
#: The environment variable that names it there (curl: ``--unix-socket "$COMPANY_API_SOCKET"``).
SOCKET_ENV = "COMPANY_API_SOCKET"

logger = logging.getLogger(__name__)

#: Seconds a single file save or read through the provider may take before it counts as a provider failure.
FILE_TIMEOUT_S = 30.0

#: Default largest workspace file read for an app, in bytes: the ``max_file_bytes`` setting's default.
MAX_FILE_BYTES: int = Settings.model_fields["max_file_bytes"].default


#: What the caller reads when the provider failed (the provider's own words go only to the log).
PROVIDER_FAILED_MESSAGE = "the workspace could not be reached just now; nothing was changed. Try again."


class ProviderFailed(Exception):
    """The sandbox provider failed during a call (HTTP 502); the session's reward is masked.

    Args:
        reason: The provider's own words, for logs and ``failure_reason`` only (never for the model).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WorkspaceFull(Conflict):
    """A save would take the workspace past ``workspace_max_bytes``; nothing was written (a tool error)."""


def guide_text(
    apps: list[str], exposure: str, user: str, user_name: str, *, company: str, unix_socket: bool = False
) -> str:
    """The workspace ``README.md``: how to reach the company's apps from here, in plain company words.

    ``company``: the name of the session's company (its heading reads "Working at <company>").
    ``unix_socket``: the API answers on the unix socket ``$COMPANY_API_SOCKET`` (the sandbox has no
    network), so the HTTP examples give it to curl with ``--unix-socket``.
    """
    socket_option = f'--unix-socket "${SOCKET_ENV}" ' if unix_socket else ""
    lines = [
        f"# Working at {company}",
        "",
        f"You are signed in as {user_name} ({user}). This folder is your workspace: files you download are",
        "saved here (under `downloads/` unless you give a path), and files you attach or upload are named by",
        "their path relative to this folder.",
        "",
        "## Apps",
        "",
    ]
    lines += [f"- `{a}`: {REGISTRY.apps[a].description}" for a in apps]
    if exposure in ("cli", "mcp"):
        lines += [
            "",
            "## From the shell",
            "",
            "Every app is a command: `<app> <command> --option=value`. Output is JSON.",
            f"Run `{apps[0]} --help` for its commands and `{apps[0]} <command> --help` for one command's options.",
            "Lists take the option once per item (`--to=a@x.example --to=b@x.example`).",
            'When you have finished, run `company complete-task --summary="what you did"`.',
        ]
    if exposure == "http":
        lines += [
            "",
            "## Over HTTP",
            "",
            "Every action is `POST $COMPANY_API_URL/<app>/<action>` with a JSON body and the header",
            "`Authorization: Bearer $COMPANY_API_TOKEN`. Look endpoints up with the documentation tool",
            "(start with an empty page for the index).",
        ]
        if unix_socket:
            lines += [
                "",
                f"The API answers on a local socket, `${SOCKET_ENV}`, not over the network: give it to curl",
                f'with `--unix-socket "${SOCKET_ENV}"` and keep `$COMPANY_API_URL` as the address.',
            ]
        lines += [
            "",
            "Example:",
            "",
            "```sh",
            f'curl -sS {socket_option}-X POST "$COMPANY_API_URL/{apps[0]}/..." \\',
            "     -H \"Authorization: Bearer $COMPANY_API_TOKEN\" -H 'Content-Type: application/json' -d '{}'",
            "```",
            "",
            "When you have finished, call `POST $COMPANY_API_URL/complete_task`",
            'with `{"summary": "what you did"}`.',
        ]
    return "\n".join(lines) + "\n"


async def lend_sandbox(
    provider: Provider,
    *,
    session_id: str,
    apps: list[str],
    exposure: str,
    api_url: str,
    token: str,
    user: str,
    user_name: str,
    company: str,
    files: dict[str, str],
    ttl_s: float | None,
    image: str | None = None,
    disk_bytes: int | None = None,
    incarnation: str | None = None,
) -> Sandbox:
    """Create a sandbox for a session and prepare it: guide, app commands, the row's workspace files.

    Args:
        provider: Where to create it.
        session_id: Stored as a label so a reaper can name the session.
        apps: The session's apps (one command each, plus ``company``).
        exposure: ``mcp``, ``cli`` or ``http`` (shapes the guide).
        api_url: ``COMPANY_API_URL`` as the sandbox must use it (absolute, ends in ``/api``).
        token: ``COMPANY_API_TOKEN``.
        user: The acting user's email; user_name: their name.
        company: The name of the session's company, for the guide.
        files: Relative path to text content, from the task row.
        ttl_s: Lifetime the provider may enforce.
        image: The image the row asks for (container providers), or None for the provider's default.
        disk_bytes: Most bytes the sandbox's own commands may write, where the provider can bound it
            (:attr:`sandbox.SandboxSpec.disk_bytes`).
        incarnation: The lending gateway's run id, labelled on the sandbox (``"incarnation"``) beside its session
            and its expiry (``"expires"``, Unix seconds): see :func:`gateway.control.reaping.reapable`.

    When the provider binds the API's unix socket into its sandboxes (``provider.socket_binds`` holds
    :data:`SANDBOX_API_SOCKET`), the sandbox gets no network of its own
    (``network="none"``), ``COMPANY_API_SOCKET`` names the socket, and the guide says to use it;
    otherwise it shares the host's network.

    Returns:
        The ready sandbox.

    Raises:
        ProviderUnavailable: The provider could not create or prepare it (whatever was created is destroyed).
    """
    labels = {"session": session_id, "expires": str(int(time.time() + ttl_s)) if ttl_s else "never"}
    if incarnation:
        labels["incarnation"] = incarnation
    env = {"COMPANY_API_URL": api_url, "COMPANY_API_TOKEN": token}
    unix_socket = SANDBOX_API_SOCKET in provider.socket_binds
    if unix_socket:
        env[SOCKET_ENV] = SANDBOX_API_SOCKET
    network: Literal["none", "host"] = "none" if unix_socket else "host"
    spec = SandboxSpec(labels=labels, env=env, ttl_s=ttl_s, image=image, network=network, disk_bytes=disk_bytes)
    sandbox = await provider.create(spec)
    try:
        guide = guide_text(apps, exposure, user, user_name, company=company, unix_socket=unix_socket)
        payload = {"README.md": guide.encode(), **{path: text.encode() for path, text in files.items()}}
        await provider.write_files(sandbox, payload)
        await provider.install_commands(sandbox, command_scripts(apps))
    except BaseException:
        await destroy_quietly(provider, sandbox, session_id)
        raise
    return sandbox


async def destroy_quietly(provider: Provider, sandbox: Sandbox, session_id: str) -> bool:
    """Destroy a sandbox; on failure log it at ERROR with its session for a reaper and return False."""
    try:
        await provider.destroy(sandbox)
    except Exception as exc:  # noqa: BLE001 - whatever the provider raised, the caller must go on
        logger.error("sandbox not destroyed: session=%s sandbox=%s provider=%s: %s",
                     session_id, sandbox.id, sandbox.provider, exc)  # fmt: skip
        return False
    return True


#: A provider's reason (``WorkspacePathError``) when a save path names a folder.
_FOLDER_IN_THE_WAY = "a folder is where the file should be"
_FOLDER = "'{path}' names a folder, not a file; give a file path such as downloads/report.pdf"


def _size(limit: int) -> str:
    """``"26214400 bytes (25 MiB)"``; the MiB only from 1 MiB up."""
    mib = limit / (1024 * 1024)
    return f"{limit} bytes ({mib:.3g} MiB)" if mib >= 1 else f"{limit} bytes"


def _amount(n: int) -> str:
    """``"1 GiB (1,073,741,824 bytes)"``, ``"2.5 MiB (2,621,440 bytes)"``, ``"17 bytes"``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + f" {unit} ({n:,} bytes)"
    return f"{n} bytes"


class FilesNeeded(BaseException):  # noqa: N818 - not an error: a signal that passes an action's own handlers
    """An action run on the event loop reached for the lent workspace's files: undo it and run it off the loop.

    A ``BaseException``, so that no ``except Exception`` in an action turns it into the caller's error.
    """


class _FilesOffLoop(FileStore):
    """The workspace as an action run on the event loop sees it: there, but every use raises :class:`FilesNeeded`.

    Its files are read and written through the provider from a worker thread (:class:`SandboxFiles`); an action
    that never touches them (most calls) runs on the loop without a thread hop.
    """

    def save(self, path: str, data: bytes, parameter: str = "save_as") -> str:
        raise FilesNeeded

    def load(self, path: str, parameter: str = "path") -> bytes:
        raise FilesNeeded

    def exists(self, path: str) -> bool:
        raise FilesNeeded


#: The one :class:`_FilesOffLoop` (it holds nothing).
FILES_OFF_LOOP: FileStore = _FilesOffLoop()


def _missing(path: str, kind: str) -> str:
    """What the model is told when ``path`` holds no regular file (``kind`` as :class:`FileMissing` gives it)."""
    if kind == "folder":
        return f"'{path}' is a folder in your workspace, not a file; give the path of a file in it"
    if kind == "special":
        return f"'{path}' in your workspace is not a regular file (a pipe, socket or device); give a regular file"
    return f"there is no file at '{path}' in your workspace"


class SandboxFiles(FileStore):
    """A session's workspace as the apps' :class:`~tools.FileStore`.

    App actions run in a worker thread; each save or read is sent to the
    provider on the event loop and waited for (at most ``FILE_TIMEOUT_S``).

    Args:
        provider: The sandbox's provider.
        sandbox: The session's sandbox.
        loop: The event loop the provider runs on.
        max_bytes: Most bytes ``load`` reads in all, over every file of one call (the ``max_file_bytes``
            setting): the provider refuses a file past what is left before reading it. One instance
            serves one call.
        workspace_max_bytes: Most bytes the workspace may hold (the ``workspace_max_bytes`` setting): a
            ``save`` that would pass it is refused before anything is written; None for no bound.
    """

    def __init__(
        self,
        provider: Provider,
        sandbox: Sandbox,
        loop: asyncio.AbstractEventLoop,
        max_bytes: int = MAX_FILE_BYTES,
        workspace_max_bytes: int | None = None,
    ) -> None:
        self._provider = provider
        self._sandbox = sandbox
        self._loop = loop
        self._max_bytes = max_bytes
        self._workspace_max = workspace_max_bytes
        self._loaded = 0  # bytes read so far in this call
        #: ``(path, bytes)`` of every file read in this call, in order (their text counts as written text).
        self.read: list[tuple[str, bytes]] = []
        #: Seconds this call's saves spent counting the workspace's size (charged to the session's CPU share).
        self.count_s = 0.0

    def _run(self, coro: Any, path: str, parameter: str, taken: int = 0) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(FILE_TIMEOUT_S)
        except FutureTimeout:
            future.cancel()
            raise ProviderFailed(f"the provider took longer than {FILE_TIMEOUT_S:.0f} s on {path!r}") from None
        except FileMissing as exc:
            raise NotFound(_missing(path, exc.kind), parameter) from None
        except FileTooLarge as exc:
            if taken:
                raise InvalidArgument(
                    f"the files of this request come to more than {_size(self._max_bytes)}, the limit for files "
                    f"taken from your workspace at once: '{path}' is {exc.size} bytes after {taken} bytes of "
                    "other files; send fewer or smaller files (compress them, or split the request)",
                    parameter,
                ) from None
            raise InvalidArgument(
                f"the file '{path}' is {exc.size} bytes, larger than the limit of {_size(exc.limit)} "
                "for files taken from your workspace; use a smaller file instead (compress it, or split it into "
                "parts under the limit)",
                parameter,
            ) from None
        except WorkspacePathError as exc:
            raise InvalidArgument(f"{exc}; give a path inside your workspace such as downloads/report.csv",
                                  parameter) from None  # fmt: skip
        except ProviderUnavailable as exc:
            raise ProviderFailed(str(exc)) from None

    def save(self, path: str, data: bytes, parameter: str = "save_as") -> str:
        """Write ``data`` at ``path`` (relative to the workspace) and return that path.

        A path naming a folder (ending in ``/``, ``/.`` or ``/..``, or a folder already there) is
        refused with ``InvalidArgument`` and nothing is written.

        Raises:
            WorkspaceFull: the workspace's files and these bytes together would pass ``workspace_max_bytes``
                (nothing is written).
        """
        if path.rsplit("/", 1)[-1] in ("", ".", ".."):
            raise InvalidArgument(_FOLDER.format(path=path), parameter)
        if self._workspace_max is not None:
            counted = time.perf_counter()
            try:
                count = self._provider.workspace_bytes(self._sandbox, stop_at=self._workspace_max - len(data))
                used = int(self._run(count, path, parameter))
            except TooManyEntries as exc:
                raise WorkspaceFull(
                    f"workspace full: your workspace holds more than {exc.limit:,} files and folders; nothing was "
                    "saved or changed. Delete files you no longer need from your workspace, then try again.",
                    parameter,
                ) from None
            finally:
                self.count_s += time.perf_counter() - counted
            if used + len(data) > self._workspace_max:
                raise WorkspaceFull(
                    f"workspace full: your workspace may hold at most {_amount(self._workspace_max)} of files; it "
                    f"holds {_amount(used)} and '{path}' is {_amount(len(data))}; nothing was saved or changed. "
                    "Delete files you no longer need from your workspace, then try again.",
                    parameter,
                )
        try:
            self._run(self._provider.write_files(self._sandbox, {path: data}), path, parameter)
        except InvalidArgument as exc:
            if _FOLDER_IN_THE_WAY not in exc.message:
                raise
            raise InvalidArgument(_FOLDER.format(path=path), parameter) from None
        return path

    def load(self, path: str, parameter: str = "path") -> bytes:
        """Read the workspace file at ``path``; one past what is left of ``max_bytes`` is refused unread.

        When the provider fails mid-read, the path is checked again: still a regular file means
        the provider failed (masked); gone means the model removed it (a missing file, graded as
        usual); a check that cannot run is the provider failing too.
        """
        try:
            read = self._provider.read_file(self._sandbox, path, max_bytes=self._max_bytes - self._loaded)
            data = bytes(self._run(read, path, parameter, taken=self._loaded))
            self._loaded += len(data)
            self.read.append((path, data))
            return data
        except ProviderFailed:
            if self._still_there(path) is False:
                raise NotFound(_missing(path, "nothing"), parameter) from None
            raise

    def exists(self, path: str) -> bool:
        """Whether ``path`` holds a regular file now (False when the check cannot run)."""
        return self._still_there(path) is True

    def _still_there(self, path: str) -> bool | None:
        """Whether ``path`` holds a regular file (``test -f`` in the sandbox); None when the check cannot run."""
        check = self._provider.exec(self._sandbox, ["test", "-f", path], timeout_s=FILE_TIMEOUT_S)
        try:
            result = asyncio.run_coroutine_threadsafe(check, self._loop).result(FILE_TIMEOUT_S + 5)
        except (FutureTimeout, ProviderUnavailable, OSError):
            return None
        return {0: True, 1: False}.get(result.exit_code)


def make_provider(settings: Settings) -> Provider | None:
    """The sandbox provider the settings name, or None for ``sandbox_provider="none"``.

    The local provider keeps its workspaces under ``sandbox_root``; without one, under a
    fresh temporary folder of this process (so two servers on one machine never reap each
    other's workspaces), removed at shutdown when empty.

    Raises:
        ProviderUnavailable: the provider's backend is missing, or a docker host bind would show the installed
            package (its task content) to every container.
    """
    if settings.sandbox_provider == "none":
        return None
    if settings.sandbox_block_internet and settings.sandbox_provider != "opensandbox":
        raise ProviderUnavailable(
            f"sandbox_block_internet needs the opensandbox provider; {settings.sandbox_provider!r} cannot "
            "limit a sandbox's network"
        )
    if settings.sandbox_provider == "local":
        root = Path(settings.sandbox_root) if settings.sandbox_root else Path(tempfile.mkdtemp(prefix="workspaces-"))
        return get_provider(
            "local", root=root, owner=settings.sandbox_owner, hidden=installed_paths(), tools=sandbox_tools(settings)
        )
    options: dict[str, Any] = {"owner": settings.sandbox_owner}
    if settings.sandbox_block_internet:
        gateway_host = urlsplit(settings.sandbox_base_url or settings.public_url or "").hostname
        options.update(block_internet=True, gateway_host=gateway_host, allowed_hosts=settings.sandbox_allowed_hosts)
    if settings.sandbox_image:
        options["image"] = settings.sandbox_image
    if settings.sandbox_provider == "docker" and settings.sandbox_host_binds:
        if shown := binds_showing(settings.sandbox_host_binds, installed_paths()):
            bind, path = shown[0]
            raise ProviderUnavailable(
                f"sandbox_host_binds: {bind!r} would show every container {path!r}, a part of this server's "
                "installed package; install it outside that folder (a venv elsewhere) or bind narrower folders"
            )
        options["host_binds"] = settings.sandbox_host_binds
    return get_provider(settings.sandbox_provider, **options)


def binds_showing(binds: list[str], paths: list[str]) -> list[tuple[str, str]]:
    """``(bind, path)`` for each of ``paths`` inside the host folder of one of ``binds`` (``"SRC:DST[:ro]"``)."""
    shown = []
    for bind in binds:
        source = os.path.realpath(bind.split(":", 1)[0])
        under = source.rstrip("/") + "/"
        inside = [p for p in paths if (real := os.path.realpath(p)) == source or real.startswith(under)]
        shown += [(bind, p) for p in inside[:1]]
    return shown


#: Where ``scripts/install-document-tools.sh`` installs the sandboxes' document tools (a venv whose ``python3``
#: imports openpyxl, python-docx and pypdf); the local provider lends it at ``/opt/tools``.
DOCUMENT_TOOLS = Path.home() / ".cache" / "office-tools" / "python"


def document_tools() -> Path | None:
    """:data:`DOCUMENT_TOOLS` when it is installed (it holds ``bin/python3``), else None."""
    return DOCUMENT_TOOLS if (DOCUMENT_TOOLS / "bin" / "python3").exists() else None


def sandbox_tools(settings: Settings) -> Path | None:
    """The host folder the local provider lends every sandbox: setting ``sandbox_tools`` ("": none), else the tools."""
    if settings.sandbox_tools is not None:
        return Path(settings.sandbox_tools) if settings.sandbox_tools else None
    return document_tools()


#: The top-level packages of this distribution (``pyproject.toml``).
_PACKAGES = ("gateway", "tools", "cli_shim", "docs_tool", "sandbox")
_DISTRIBUTION = "company-gateway"


def installed_paths() -> list[str]:
    """Every host path of the installed package that no sandbox may see: its task content, its code, its records.

    The task content folder first (rows, families, checks, solutions), then each package's folder, then every
    top-level entry the distribution installed (its ``.dist-info``, console scripts, an editable install's
    ``.pth`` and finder), however it was installed (``pip install``, ``--prefix``, ``--target``, a venv,
    editable). A provider hides those its sandboxes could otherwise see (the local provider binds ``/usr``).
    Other copies of the package under ``/usr`` (another venv or interpreter: :func:`other_installs`) too.
    """
    import importlib.util
    from importlib import metadata

    paths = [task_data_folder()]
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        paths += list(spec.submodule_search_locations or []) if spec is not None else []
    # run from a source checkout (an editable install, a clone on the path): the whole checkout, its .git,
    # build/ and tests/ among it, hold the task content too
    paths += sorted({root for p in paths if (root := source_checkout(p)) is not None})
    for dist in metadata.distributions(name=_DISTRIBUTION):  # several when one was installed over another
        site = Path(os.path.abspath(str(dist.locate_file(""))))
        for file in dist.files or []:
            parts = file.parts
            if not parts:
                continue
            # A file outside the install folder (a console script in ../../../bin) or in its shared __pycache__ is
            # hidden itself; one inside it by its top-level entry (the package's folder, the .dist-info, a .pth).
            entry = site.joinpath(*parts) if parts[0] in ("..", "__pycache__") else site / parts[0]
            paths.append(os.path.normpath(entry))
    return list(dict.fromkeys(paths + other_installs()))


def source_checkout(package_folder: str) -> str | None:
    """The source checkout holding ``package_folder`` (its parent, with this project's ``pyproject.toml``), or None."""
    root = os.path.dirname(os.path.abspath(package_folder))
    try:
        with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as file:
            head = file.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    return root if re.search(rf'^name\s*=\s*"{re.escape(_DISTRIBUTION)}"', head, re.M) else None


#: Where another copy of the package may sit under ``/usr``, the tree every local sandbox sees: an interpreter's own
#: site folders, and venvs or prefixes one or two levels down (``/usr/local/<venv>/lib/python3.X/site-packages``).
_OTHER_SITES = (
    "/usr/lib/python3*/*-packages", "/usr/local/lib/python3*/*-packages", "/usr/*/lib/python3*/*-packages",
    "/usr/local/*/lib/python3*/*-packages", "/usr/local/*/*/lib/python3*/*-packages",
)  # fmt: skip


def other_installs(roots: tuple[str, ...] = _OTHER_SITES) -> list[str]:
    """Folders of other copies of the package in the site folders that ``roots`` (glob patterns) name.

    Each package folder of a site holding ``gateway/control/workspace.py``, and its ``company_gateway-*`` records.
    """
    import glob

    found: list[str] = []
    for pattern in roots:
        for site in sorted(glob.glob(pattern)):
            if not os.path.isfile(os.path.join(site, "gateway", "control", "workspace.py")):
                continue
            found += [os.path.join(site, name) for name in _PACKAGES if os.path.isdir(os.path.join(site, name))]
            found += sorted(glob.glob(os.path.join(site, "company_gateway-*")))
    return found


def task_data_folder() -> str:
    """Where the installed package keeps its task content (rows, families, checks, solutions): hidden from sandboxes."""
    from gateway.tasks.loader import content_folder

    return content_folder()
