"""What every sandbox provider must do, written once: each provider's test file subclasses ``ProviderContract``.

A subclass (``TestLocalContract``, ``TestDockerContract``, ``TestOpenSandboxContract``) brings two fixtures
from its module, ``provider`` (one provider for the test) and ``provider_factory`` (more providers, by
owner, closed at the end), and overrides the hooks below where its backend is reached another way (the
local provider's host folder, the fake OpenSandbox server's records). What a provider cannot do at all
is switched off in its subclass by setting the test to ``None``, with the reason beside it.

The contract drives the provider only through :class:`sandbox.base.Provider`. Commands it runs are the
constants below: the fake OpenSandbox execd (tests/sandbox/opensandbox) plays exactly these.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import anyio
import pytest

from sandbox import (
    FileMissing,
    FileTooLarge,
    Provider,
    Sandbox,
    SandboxGone,
    SandboxSpec,
    WorkspacePathError,
)

SPEC = SandboxSpec(labels={"session": "s1"}, env={"COMPANY_API_URL": "http://127.0.0.1:9/api"})
#: A spec every provider accepts as it is (OpenSandbox's minimum TTL is 60 s).
TTL_S = 600

# The shell scripts the contract runs (``sh -c SCRIPT``); a fake backend plays each as described.
#: Writes "out" to stdout and "err" to stderr, then exits 3.
OUT_ERR_EXIT_3 = "echo out; echo err >&2; exit 3"
#: Prints in.txt from the workspace, then writes "from the command" to out.txt.
SHARE_THE_WORKSPACE = "cat in.txt; printf 'from the command' > out.txt"
#: Kills its own shell with SIGKILL.
KILL_ITSELF = "kill -9 $$"
#: Prints "started", then runs 30 s (a background sleep and a foreground one).
START_THEN_SLEEP = "echo started; sleep 30 & sleep 30"
#: Scripts the installed commands run (see test_install_commands_puts_executables_first_on_path).
MAIL_SCRIPT = b'#!/bin/sh\necho mail says "$@"\n'
LS_SCRIPT = b"#!/bin/sh\necho mine\n"
#: Bytes that are neither UTF-8 nor free of what a multipart body or a tar header could trip on.
BLOB = bytes(range(256)) + b"\r\n--not-a-boundary\r\n"


@contextlib.asynccontextmanager
async def loopback_server() -> AsyncIterator[tuple[int, asyncio.Event]]:
    """An HTTP server on 127.0.0.1 answering "hello"; yields (port, event set on the first request)."""
    hit = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hit.set()
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello")
            await writer.drain()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    async with server:
        yield server.sockets[0].getsockname()[1], hit


async def sh(provider: Provider, sb: Sandbox, script: str, **kwargs: Any) -> Any:
    kwargs.setdefault("timeout_s", 10)
    return await provider.exec(sb, ["sh", "-c", script], **kwargs)


class ProviderContract:
    """The tests every provider passes. Subclass it as ``Test<Provider>Contract`` and fill in the hooks."""

    #: The provider's name, as ``Sandbox.provider`` carries it.
    name: ClassVar[str]
    #: What the provider's sandbox ids look like.
    id_pattern: ClassVar[re.Pattern[str]]
    #: Whether output comes back byte for byte (execd reports it line by line: a last line gains its end).
    exact_output: ClassVar[bool] = True
    #: A command that fetches a URL quietly (to tell the test that a command is running).
    fetch: ClassVar[str] = "wget -q -O /dev/null"

    # -- hooks: how the test sees the backend ------------------------------------------------------

    async def listing(self, provider: Provider, sb: Sandbox) -> list[str]:
        """The names directly in the workspace."""
        system = {"PATH": "/usr/bin:/bin"}  # the system's ls, not one install_commands put first
        result = await provider.exec(sb, ["ls", "-A"], timeout_s=10, env=system)
        assert result.exit_code == 0, result.stderr
        return sorted(result.stdout.decode().split())

    async def mode(self, provider: Provider, sb: Sandbox, path: str) -> int:
        """The permission bits of ``path`` in the sandbox (relative to the workspace, or absolute)."""
        result = await provider.exec(sb, ["stat", "-c", "%a", path], timeout_s=10)
        assert result.exit_code == 0, result.stderr
        return int(result.stdout, 8)

    def command_path(self, provider: Provider, sb: Sandbox, name: str) -> str:
        """Where ``install_commands`` put command ``name``: its folder must come first on ``PATH``."""
        return f"/opt/company/bin/{name}"

    async def command_mode(self, provider: Provider, sb: Sandbox, name: str) -> int:
        """The permission bits of installed command ``name``."""
        return await self.mode(provider, sb, self.command_path(provider, sb, name))

    def workspace_seen_by_commands(self, provider: Provider, sb: Sandbox) -> str:
        """The workspace's path as a command in the sandbox sees it (``pwd``)."""
        return "/workspace"

    async def make_folder(self, provider: Provider, sb: Sandbox, path: str) -> None:
        assert (await provider.exec(sb, ["mkdir", "-p", path], timeout_s=10)).exit_code == 0

    async def make_fifo(self, provider: Provider, sb: Sandbox, path: str) -> None:
        assert (await provider.exec(sb, ["mkfifo", path], timeout_s=10)).exit_code == 0

    async def make_symlink(self, provider: Provider, sb: Sandbox, link: str, target: str) -> None:
        made = await provider.exec(sb, ["ln", "-s", target, link], timeout_s=10)
        assert made.exit_code == 0, made.stderr

    async def outside_folder(self, provider: Provider, sb: Sandbox, tmp_path: Any) -> str:
        """A folder outside the workspace holding secret.txt ("secret"), as links made by ``make_symlink`` name it."""
        made = await sh(provider, sb, "mkdir -p /tmp/outside && printf secret > /tmp/outside/secret.txt")
        assert made.exit_code == 0, made.stderr
        return "/tmp/outside"

    async def outside_contents(self, provider: Provider, sb: Sandbox, folder: str) -> dict[str, bytes]:
        """Every file in ``folder`` (from ``outside_folder``) and its bytes."""
        names = (await provider.exec(sb, ["ls", "-A", folder], timeout_s=10)).stdout.decode().split()
        return {n: (await provider.exec(sb, ["cat", f"{folder}/{n}"], timeout_s=10)).stdout for n in names}

    async def backend_has(self, provider: Provider, sb: Sandbox) -> bool:
        """Whether the backend still holds the sandbox (its folder, its container, the server's record)."""
        raise NotImplementedError

    async def strays(self, provider: Provider, sb: Sandbox) -> list[str]:
        """Anything a refused write may have left outside the workspace (the local provider's sandbox folder)."""
        return []

    def check_listed(self, a: Sandbox, b: Sandbox) -> None:
        """Provider-private checks of two listed sandboxes: ``a`` made with env X=1, network none and a TTL."""

    def check_env(self, env: dict[str, str], provider: Provider, sb: Sandbox) -> None:
        """Provider-specific checks of a command's environment (see test_exec_sees_the_specs_env_and_its_own)."""

    # -- create, list_owned, destroy ---------------------------------------------------------------

    async def test_create_returns_a_labelled_handle_on_an_empty_workspace(self, provider):
        sb = await provider.create(SPEC)
        assert (sb.provider, sb.workspace, sb.labels) == (self.name, "/workspace", {"session": "s1"})
        assert self.id_pattern.fullmatch(sb.id), sb.id
        assert await self.backend_has(provider, sb)
        assert await self.listing(provider, sb) == []

    async def test_create_refuses_an_unknown_network(self, provider):
        with pytest.raises(ValueError, match="network must be 'none' or 'host'"):
            await provider.create(SandboxSpec(network="bridge"))  # type: ignore[arg-type]

    async def test_list_owned_finds_only_the_owners_sandboxes_also_after_a_restart(self, provider_factory):
        owner = f"contract-{secrets.token_hex(4)}"
        first = provider_factory(owner)
        a = await first.create(SandboxSpec(labels={"session": "a"}, env={"X": "1"}, network="none", ttl_s=TTL_S))
        b = await first.create(SandboxSpec(labels={"session": "b"}))
        other = provider_factory(f"{owner}-other")
        theirs = await other.create(SandboxSpec(labels={"session": "theirs"}))

        restarted = provider_factory(owner)  # a new process of the same owner: nothing in memory
        owned = {sb.id: sb for sb in await restarted.list_owned()}
        assert set(owned) == {a.id, b.id}
        assert (owned[a.id].labels, owned[b.id].labels) == ({"session": "a"}, {"session": "b"})
        assert {sb.provider for sb in owned.values()} == {self.name}
        self.check_listed(owned[a.id], owned[b.id])
        assert [sb.id for sb in await other.list_owned()] == [theirs.id]
        for sb in (a, b, theirs):
            await restarted.destroy(sb)

    async def test_destroy_removes_the_sandbox_and_is_idempotent(self, provider):
        sb = await provider.create(SPEC)
        kept = await provider.create(SPEC)
        await provider.write_files(sb, {"a/b.txt": b"x"})
        await provider.destroy(sb)
        assert not await self.backend_has(provider, sb)
        await provider.destroy(sb)  # already gone counts as done
        assert [s.id for s in await provider.list_owned()] == [kept.id]
        assert await self.backend_has(provider, kept)

    async def test_a_destroyed_sandbox_is_gone_for_every_operation(self, provider):
        sb = await provider.create(SPEC)
        await provider.destroy(sb)
        with pytest.raises(SandboxGone):
            await provider.read_file(sb, "a.txt")
        with pytest.raises(SandboxGone):
            await provider.read_file(sb, "a.txt", max_bytes=10)
        with pytest.raises(SandboxGone):
            await provider.write_files(sb, {"a.txt": b"x"})
        with pytest.raises(SandboxGone):
            await provider.exec(sb, ["true"], timeout_s=5)
        with pytest.raises(SandboxGone):
            await provider.install_commands(sb, {"mail": b"#!/bin/sh\n"})

    async def test_operations_refuse_a_sandbox_from_another_provider(self, provider):
        stranger = Sandbox("0123456789abcdef", "other" if self.name != "other" else "else")
        refusal = f"not created by a '{self.name}' provider"
        with pytest.raises(ValueError, match=refusal):
            await provider.read_file(stranger, "a.txt")
        with pytest.raises(ValueError, match=refusal):
            await provider.write_files(stranger, {"a.txt": b"x"})
        with pytest.raises(ValueError, match=refusal):
            await provider.exec(stranger, ["true"], timeout_s=5)
        with pytest.raises(ValueError, match=refusal):
            await provider.destroy(stranger)

    async def test_destroy_ends_a_running_command(self, provider):
        sb = await provider.create(SPEC)  # network "host": the command can tell the test it runs
        async with loopback_server() as (port, hit):
            script = f"{self.fetch} http://127.0.0.1:{port}/; sleep 30"
            task = asyncio.create_task(sh(provider, sb, script, timeout_s=60))
            with anyio.fail_after(20):
                await hit.wait()  # the command is running
                await provider.destroy(sb)
                result = await task
        assert (result.exit_code, result.timed_out) == (137, False)  # SIGKILL, not the timeout
        assert not await self.backend_has(provider, sb)

    # -- files -------------------------------------------------------------------------------------

    async def test_write_then_read_round_trips_bytes_and_makes_parent_folders(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"notes/2024/a.bin": BLOB, "/workspace/b.txt": "hé\n".encode()})
        assert await provider.read_file(sb, "notes/2024/a.bin") == BLOB
        assert await provider.read_file(sb, "/workspace/notes/2024/a.bin") == BLOB
        assert await provider.read_file(sb, "b.txt") == "hé\n".encode()
        assert await provider.read_file(sb, "./notes//2024/../2024/a.bin", max_bytes=len(BLOB)) == BLOB
        assert await self.listing(provider, sb) == ["b.txt", "notes"]

    async def test_write_replaces_a_file_whole_and_applies_the_mode(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"a.txt": b"a long first version", "b.txt": b"b"})
        assert await self.mode(provider, sb, "a.txt") == 0o644
        await provider.write_files(sb, {"a.txt": b"short"}, mode=0o600)
        assert await provider.read_file(sb, "a.txt") == b"short"
        assert await self.mode(provider, sb, "a.txt") == 0o600
        assert await self.mode(provider, sb, "b.txt") == 0o644  # the other file is left alone

    async def test_written_parent_folders_are_made_755(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"notes/2024/a.txt": b"x"}, mode=0o600)
        assert [await self.mode(provider, sb, p) for p in ("notes", "notes/2024", "notes/2024/a.txt")] == [
            0o755,
            0o755,
            0o600,
        ]

    @pytest.mark.parametrize("max_bytes", [None, 100])
    async def test_read_of_nothing_or_a_folder_is_file_missing(self, provider, max_bytes):
        sb = await provider.create(SPEC)
        await self.make_folder(provider, sb, "folder")
        for path, kind in (("nothing.txt", "nothing"), ("folder", "folder"), (".", "folder"),
                           ("/workspace", "folder"), ("nothing/deeper.txt", "nothing")):  # fmt: skip
            with pytest.raises(FileMissing) as info:
                await provider.read_file(sb, path, max_bytes=max_bytes)
            assert (info.value.path, info.value.kind) == (path, kind)

    async def test_read_of_a_fifo_is_file_missing_without_hanging(self, provider):
        sb = await provider.create(SPEC)
        await self.make_fifo(provider, sb, "pipe")
        with anyio.fail_after(10), pytest.raises(FileMissing) as info:
            await provider.read_file(sb, "pipe")
        assert (info.value.path, info.value.kind) == ("pipe", "special")
        assert "not a regular file" in str(info.value)

    async def test_a_file_at_max_bytes_is_read_and_one_byte_more_is_refused(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"ten.bin": b"0123456789"})
        assert await provider.read_file(sb, "ten.bin", max_bytes=10) == b"0123456789"
        assert await provider.read_file(sb, "ten.bin") == b"0123456789"
        with pytest.raises(FileTooLarge) as info:
            await provider.read_file(sb, "ten.bin", max_bytes=9)
        assert (info.value.path, info.value.size, info.value.limit) == ("ten.bin", 10, 9)
        with pytest.raises(ValueError, match="max_bytes"):
            await provider.read_file(sb, "ten.bin", max_bytes=-1)

    async def test_the_workspace_shape_blocking_a_save_is_a_path_error(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"report.txt": b"keep", "folder/inner.txt": b"x"})
        with pytest.raises(WorkspacePathError, match="a folder is where the file should be") as info:
            await provider.write_files(sb, {"folder": b"x"})
        assert info.value.path == "folder"
        with pytest.raises(WorkspacePathError, match="a file is where a folder should be"):
            await provider.write_files(sb, {"report.txt/child.txt": b"x"})
        with pytest.raises(WorkspacePathError, match="a file is where a folder should be"):
            await provider.write_files(sb, {"new": b"file", "new/child.txt": b"x"})  # in one batch
        assert await provider.read_file(sb, "report.txt") == b"keep"
        assert await provider.read_file(sb, "folder/inner.txt") == b"x"
        assert await provider.read_file(sb, "new") == b"file"  # written before the refused one

    async def test_reading_below_a_file_is_a_path_error(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"report.txt": b"keep"})
        with pytest.raises(WorkspacePathError, match="a file is where a folder should be"):
            await provider.read_file(sb, "report.txt/child.txt")

    @pytest.mark.parametrize("path", ["../escape.txt", "/etc/passwd", "/workspace/../escape.txt", "a/../../x", ""])
    async def test_paths_leaving_the_workspace_are_refused(self, provider, path):
        sb = await provider.create(SPEC)
        with pytest.raises(WorkspacePathError) as info:
            await provider.write_files(sb, {path: b"x"})
        assert info.value.path == path
        with pytest.raises(WorkspacePathError):
            await provider.read_file(sb, path)
        with pytest.raises(WorkspacePathError):
            await provider.read_file(sb, path, max_bytes=10)
        assert await self.listing(provider, sb) == []
        assert await self.strays(provider, sb) == []

    async def test_symlinks_out_of_the_workspace_are_refused(self, provider, tmp_path):
        sb = await provider.create(SPEC)
        outside = await self.outside_folder(provider, sb, tmp_path)
        await self.make_symlink(provider, sb, "file-link", f"{outside}/secret.txt")
        await self.make_symlink(provider, sb, "dir-link", outside)
        await self.make_symlink(provider, sb, "dangling-link", f"{outside}/new.txt")
        await self.make_symlink(provider, sb, "loop", "loop")
        for path in ("file-link", "dir-link/secret.txt", "dangling-link", "loop"):
            with pytest.raises(WorkspacePathError, match="symlink"):
                await provider.read_file(sb, path)
        for path in ("file-link", "dir-link/secret.txt", "dir-link/sub/new.txt", "dangling-link", "loop"):
            with pytest.raises(WorkspacePathError, match="symlink"):
                await provider.write_files(sb, {path: b"overwritten"})
        assert await self.outside_contents(provider, sb, outside) == {"secret.txt": b"secret"}

    async def test_symlinks_inside_the_workspace_are_followed(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"real/a.txt": b"inside"})
        await self.make_symlink(provider, sb, "alias", "real")
        await self.make_symlink(provider, sb, "a-link.txt", "real/a.txt")
        await self.make_symlink(provider, sb, "to-be", "real/new.txt")  # dangling, but inside
        await self.make_folder(provider, sb, "sub")
        await self.make_symlink(provider, sb, "sub/to-be", "../real/deep.txt")  # relative to its own folder
        assert await provider.read_file(sb, "alias/a.txt") == b"inside"
        assert await provider.read_file(sb, "a-link.txt") == b"inside"
        await provider.write_files(sb, {"alias/b.txt": b"via alias", "to-be": b"through a dangling link"})
        await provider.write_files(sb, {"sub/to-be": b"deeper"})
        assert await provider.read_file(sb, "real/b.txt") == b"via alias"
        assert await provider.read_file(sb, "real/new.txt") == b"through a dangling link"
        assert await provider.read_file(sb, "real/deep.txt") == b"deeper"
        assert (await sh(provider, sb, "test -L alias && test -L to-be && test -L sub/to-be")).exit_code == 0

    # -- commands ----------------------------------------------------------------------------------

    async def test_install_commands_puts_executables_first_on_path(self, provider):
        sb = await provider.create(SPEC)
        await provider.install_commands(sb, {"mail": MAIL_SCRIPT, "ls": LS_SCRIPT})
        result = await provider.exec(sb, ["mail", "inbox"], timeout_s=10)
        assert (result.exit_code, result.stdout) == (0, b"mail says inbox\n")
        assert (await provider.exec(sb, ["ls"], timeout_s=10)).stdout == b"mine\n"  # ahead of the system's ls
        assert await self.command_mode(provider, sb, "mail") == 0o755
        await provider.install_commands(sb, {"ls": b"#!/bin/sh\necho again\n"})  # installed again: replaced
        assert (await provider.exec(sb, ["ls"], timeout_s=10)).stdout == b"again\n"
        assert await self.listing(provider, sb) == []  # not in the workspace

    @pytest.mark.parametrize("name", ["", ".", "..", "a/b", "../mail"])
    async def test_install_commands_refuses_names_that_are_not_plain(self, provider, name):
        sb = await provider.create(SPEC)
        with pytest.raises(ValueError, match="plain file name"):
            await provider.install_commands(sb, {name: b"x"})

    async def test_exec_returns_exit_code_and_both_streams(self, provider):
        sb = await provider.create(SPEC)
        result = await sh(provider, sb, OUT_ERR_EXIT_3)
        assert (result.exit_code, result.stdout, result.stderr, result.timed_out) == (3, b"out\n", b"err\n", False)
        assert result.duration_s > 0

    async def test_exec_feeds_stdin_and_gives_an_empty_one_by_default(self, provider):
        sb = await provider.create(SPEC)
        result = await provider.exec(sb, ["cat"], timeout_s=10, stdin=b"line one\nline two\n")
        assert (result.exit_code, result.stdout) == (0, b"line one\nline two\n")
        assert (await provider.exec(sb, ["cat"], timeout_s=10)).stdout == b""  # no stdin: empty input, no hang
        if self.exact_output:
            unended = await provider.exec(sb, ["cat"], timeout_s=10, stdin=b"line one\nline two")
            assert unended.stdout == b"line one\nline two"

    async def test_exec_and_files_share_the_workspace(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"in.txt": b"from the caller\n"})
        result = await sh(provider, sb, SHARE_THE_WORKSPACE)
        assert (result.exit_code, result.stdout) == (0, b"from the caller\n")
        assert await provider.read_file(sb, "out.txt") == b"from the command"

    async def test_exec_runs_in_the_workspace_or_a_folder_inside_it(self, provider):
        sb = await provider.create(SPEC)
        await provider.write_files(sb, {"sub/deeper/x": b""})
        ws = self.workspace_seen_by_commands(provider, sb)
        assert (await provider.exec(sb, ["pwd"], timeout_s=10)).stdout == f"{ws}\n".encode()
        for cwd in ("sub/deeper", "/workspace/sub/deeper", "./sub//deeper/"):
            assert (await provider.exec(sb, ["pwd"], timeout_s=10, cwd=cwd)).stdout == f"{ws}/sub/deeper\n".encode()

    async def test_exec_refuses_a_working_folder_outside_or_missing(self, provider):
        sb = await provider.create(SPEC)
        for outside in ("/tmp", "../etc", "/workspace/../root"):
            with pytest.raises(WorkspacePathError):
                await provider.exec(sb, ["pwd"], timeout_s=10, cwd=outside)
        with pytest.raises(WorkspacePathError, match="does not exist"):
            await provider.exec(sb, ["pwd"], timeout_s=10, cwd="missing")

    async def test_exec_refuses_a_working_folder_that_is_a_symlink_out(self, provider, tmp_path):
        sb = await provider.create(SPEC)
        outside = await self.outside_folder(provider, sb, tmp_path)
        await self.make_symlink(provider, sb, "out", outside)
        with pytest.raises(WorkspacePathError, match="symlink"):
            await provider.exec(sb, ["pwd"], timeout_s=10, cwd="out")

    async def test_exec_sees_the_specs_env_and_its_own(self, provider, monkeypatch):
        monkeypatch.setenv("SANDBOX_TEST_HOST_ONLY", "leak")
        sb = await provider.create(SandboxSpec(env={"COMPANY_API_URL": "http://api", "COMPANY_API_TOKEN": "t0k"}))
        result = await provider.exec(sb, ["env"], timeout_s=10, env={"EXTRA": "1", "COMPANY_API_TOKEN": "override"})
        env = dict(line.split("=", 1) for line in result.stdout.decode().splitlines())
        assert env["COMPANY_API_TOKEN"] == "override"
        assert (env["COMPANY_API_URL"], env["EXTRA"]) == ("http://api", "1")
        assert env["HOME"] == env["PWD"] == self.workspace_seen_by_commands(provider, sb)
        assert env["PATH"].split(":")[0] == self.command_path(provider, sb, "x").rsplit("/", 1)[0]
        assert "SANDBOX_TEST_HOST_ONLY" not in env
        self.check_env(env, provider, sb)
        again = await provider.exec(sb, ["env"], timeout_s=10)  # the override was for that command only
        assert "COMPANY_API_TOKEN=t0k" in again.stdout.decode().splitlines()

    async def test_exec_refuses_bad_arguments(self, provider):
        sb = await provider.create(SPEC)
        with pytest.raises(ValueError, match="argv"):
            await provider.exec(sb, [], timeout_s=10)
        with pytest.raises(ValueError, match="timeout_s"):
            await provider.exec(sb, ["true"], timeout_s=0)
        with pytest.raises(ValueError, match="timeout_s"):
            await provider.exec(sb, ["true"], timeout_s=-1)
        with pytest.raises(ValueError, match="environment variable names"):
            await provider.exec(sb, ["true"], timeout_s=10, env={"A=B": "1"})
        with pytest.raises(ValueError, match="environment variable names"):
            await provider.create(SandboxSpec(env={"": "1"}))

    async def test_an_unknown_command_exits_127_saying_so(self, provider):
        sb = await provider.create(SPEC)
        result = await provider.exec(sb, ["no-such-command-here"], timeout_s=10)
        assert (result.exit_code, result.timed_out) == (127, False)
        assert b"no-such-command-here" in result.stderr

    async def test_exec_timeout_kills_the_command_and_keeps_its_output(self, provider):
        sb = await provider.create(SPEC)
        with anyio.fail_after(15):
            result = await sh(provider, sb, START_THEN_SLEEP, timeout_s=0.5)
        assert (result.exit_code, result.timed_out, result.stdout) == (124, True, b"started\n")
        assert result.duration_s >= 0.5

    async def test_exec_sleep_past_its_timeout_is_timed_out(self, provider):
        sb = await provider.create(SPEC)
        with anyio.fail_after(15):
            result = await provider.exec(sb, ["sleep", "30"], timeout_s=0.5)
        assert (result.exit_code, result.timed_out) == (124, True)

    async def test_a_command_killed_by_a_signal_exits_128_plus_the_signal(self, provider):
        sb = await provider.create(SPEC)
        result = await sh(provider, sb, KILL_ITSELF)
        assert (result.exit_code, result.timed_out) == (137, False)
