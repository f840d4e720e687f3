import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path

import anyio
import pytest

import sandbox.local._bwrap as local_bwrap
import sandbox.local._files as local_files
import sandbox.local.provider as local
from sandbox import (
    FileTooLarge,
    ProviderUnavailable,
    Sandbox,
    SandboxGone,
    SandboxSpec,
    WorkspacePathError,
)
from sandbox.local import COMMANDS_DIR, LocalProvider
from tests.conftest import require_binary
from tests.sandbox.contract import ProviderContract, loopback_server, sh

OWNER = "test-owner"
# What / may hold inside a bubblewrap sandbox.
ROOT_ENTRIES = {
    "bin",
    "dev",
    "etc",
    "lib",
    "lib32",
    "lib64",
    "libx32",
    "opt",
    "proc",
    "sbin",
    "tmp",
    "usr",
    "workspace",
}
SPEC = SandboxSpec(labels={"session": "s1"}, env={"COMPANY_API_URL": "http://127.0.0.1:9/api"})


@pytest.fixture(params=["plain", pytest.param("bwrap", marks=pytest.mark.bwrap)])
async def provider(request, tmp_path):
    """The local provider, once as plain subprocesses and once under real bubblewrap."""
    if request.param == "bwrap":
        require_binary("bwrap")
    p = LocalProvider(tmp_path / "sandboxes", owner=OWNER, use_bwrap=request.param == "bwrap")
    yield p
    await p.close()


@pytest.fixture
async def provider_factory(provider):
    """More providers beside ``provider``: the same root and mode, another owner each."""
    made = []

    def make(owner):
        made.append(LocalProvider(provider.root, owner=owner, use_bwrap=provider.isolated))
        return made[-1]

    yield make
    for p in made:
        await p.close()


@pytest.fixture
async def bwrapped(tmp_path):
    require_binary("bwrap")
    p = LocalProvider(tmp_path / "sandboxes", owner=OWNER, use_bwrap=True)
    yield p
    await p.close()


def host_workspace(provider: LocalProvider, sb: Sandbox) -> Path:
    return provider.root / sb.id / "workspace"


class TestLocalContract(ProviderContract):
    """The provider contract (tests/sandbox/contract.py), plain and under bubblewrap, seen from the host's side."""

    name = "local"
    id_pattern = re.compile(r"[0-9a-f]{16}")
    fetch = "curl -s -m 5 -o /dev/null"

    async def listing(self, provider, sb):
        return sorted(p.name for p in host_workspace(provider, sb).iterdir())

    async def mode(self, provider, sb, path):
        return (provider.root / sb.id / "workspace" / path).stat().st_mode & 0o777

    def command_path(self, provider, sb, name):
        return f"{COMMANDS_DIR}/{name}" if provider.isolated else str(provider.root / sb.id / "bin" / name)

    async def command_mode(self, provider, sb, name):
        return (provider.root / sb.id / "bin" / name).stat().st_mode & 0o777

    def workspace_seen_by_commands(self, provider, sb):
        return "/workspace" if provider.isolated else str(host_workspace(provider, sb).resolve())

    async def make_folder(self, provider, sb, path):
        (host_workspace(provider, sb) / path).mkdir(parents=True)

    async def make_fifo(self, provider, sb, path):
        os.mkfifo(host_workspace(provider, sb) / path)

    async def make_symlink(self, provider, sb, link, target):
        (host_workspace(provider, sb) / link).symlink_to(target)

    async def outside_folder(self, provider, sb, tmp_path):
        outside = tmp_path / "outside"  # on the host, beside the sandboxes' root
        outside.mkdir()
        (outside / "secret.txt").write_bytes(b"secret")
        return str(outside)

    async def outside_contents(self, provider, sb, folder):
        return {p.name: p.read_bytes() for p in Path(folder).iterdir()}

    async def backend_has(self, provider, sb):
        return (provider.root / sb.id).exists()

    async def strays(self, provider, sb):
        return sorted({p.name for p in (provider.root / sb.id).iterdir()} - {"workspace", "bin", "sandbox.json"})

    def check_listed(self, a, b):
        assert a.private == {"env": {"X": "1"}, "network": "none", "sockets": {}}
        assert b.private == {"env": {}, "network": "host", "sockets": {}}

    def check_env(self, env, provider, sb):
        assert set(env) == {"PATH", "HOME", "PWD", "COMPANY_API_URL", "COMPANY_API_TOKEN", "EXTRA"}
        if provider.isolated:
            assert env["PATH"] == f"{COMMANDS_DIR}:/usr/local/bin:/usr/bin:/bin"

    async def test_destroy_ends_a_running_command(self, provider):
        require_binary("curl")
        await super().test_destroy_ends_a_running_command(provider)


# --- create, list_owned, destroy -------------------------------------------------------------


async def test_list_owned_skips_a_corrupt_record_with_a_warning(tmp_path, caplog):
    provider = LocalProvider(tmp_path, owner=OWNER, use_bwrap=False)
    good = await provider.create(SandboxSpec())
    bad = await provider.create(SandboxSpec())
    (tmp_path / bad.id / "sandbox.json").write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="sandbox.local"):
        owned = await provider.list_owned()
    assert [sb.id for sb in owned] == [good.id]
    assert bad.id in caplog.text


async def test_list_owned_on_a_missing_root_is_empty(tmp_path):
    assert await LocalProvider(tmp_path / "never-made", owner=OWNER, use_bwrap=False).list_owned() == []


@pytest.mark.slow
async def test_destroy_removes_folders_nested_deeper_than_pythons_recursion_limit(provider):
    sb = await provider.create(SPEC)
    nest = "i=0; while [ $i -lt 1100 ]; do mkdir b && cd b || exit 1; i=$((i+1)); done; chmod 000 ."
    made = await provider.exec(sb, ["sh", "-c", nest], timeout_s=60)
    assert made.exit_code == 0, made.stderr
    await provider.destroy(sb)
    assert not (provider.root / sb.id).exists()


async def test_operations_refuse_an_id_that_is_not_a_sandbox_folder(provider):
    with pytest.raises(ValueError, match="not created by a 'local' provider"):
        await provider.destroy(Sandbox("../../etc", "local"))
    with pytest.raises(ValueError, match="not created by a 'local' provider"):
        await provider.read_file(Sandbox("../../etc", "local"), "passwd")


# --- files -----------------------------------------------------------------------------------


SPARSE_SIZE = 20 * 1024**3  # the tester's file: `truncate -s 20G sparse.bin`


async def test_a_sparse_file_over_max_bytes_is_refused_before_it_is_read(provider, monkeypatch):
    sb = await provider.create(SPEC)
    made = await provider.exec(sb, ["truncate", "-s", "20G", "sparse.bin"], timeout_s=30)
    assert made.exit_code == 0, made.stderr
    reads: list[int] = []
    real_fdopen = os.fdopen

    class Spy:  # the file _read opens, recording every read it asks for
        def __init__(self, *args, **kwargs):
            self.file = real_fdopen(*args, **kwargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def read(self, size=-1):
            reads.append(size)
            return self.file.read(size)

    await provider.write_files(sb, {"small.txt": b"abc"})
    monkeypatch.setattr(local_files.os, "fdopen", Spy)
    with pytest.raises(FileTooLarge) as info:
        await provider.read_file(sb, "sparse.bin", max_bytes=25 * 1024 * 1024)
    assert (info.value.path, info.value.size, info.value.limit) == ("sparse.bin", SPARSE_SIZE, 25 * 1024 * 1024)
    assert reads == []  # refused on fstat alone: not one byte of content was read
    assert await provider.read_file(sb, "small.txt", max_bytes=5) == b"abc"
    assert reads == [6]  # the spy is in place: a read asks for at most max_bytes + 1


async def test_a_file_that_grows_after_its_size_was_checked_is_still_bounded(provider, monkeypatch):
    sb = await provider.create(SPEC)
    await provider.write_files(sb, {"growing.bin": b"x" * 100})
    real_fstat = os.fstat
    calls = []

    def fstat_seeing_it_small(fd):  # the first fstat ran before a writer appended 90 bytes
        result = real_fstat(fd)
        calls.append(fd)
        return os.stat_result((*result[:6], 10, *result[7:])) if len(calls) == 1 else result

    monkeypatch.setattr(local_files.os, "fstat", fstat_seeing_it_small)
    with pytest.raises(FileTooLarge) as info:
        await provider.read_file(sb, "growing.bin", max_bytes=50)
    assert (info.value.size, info.value.limit) == (100, 50)


async def test_write_onto_a_fifo_is_refused_without_hanging(provider):
    sb = await provider.create(SPEC)
    os.mkfifo(host_workspace(provider, sb) / "pipe")
    with anyio.fail_after(5), pytest.raises(WorkspacePathError, match="other than a file"):
        await provider.write_files(sb, {"pipe": b"x"})


async def test_other_host_io_errors_become_provider_unavailable(provider, monkeypatch):
    sb = await provider.create(SPEC)
    real_open = os.open

    def failing_open(path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None:
            raise OSError(errno.EIO, "Input/output error")
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", failing_open)
    with pytest.raises(ProviderUnavailable, match="Input/output error") as info:
        await provider.write_files(sb, {"a.txt": b"x"})
    assert not isinstance(info.value, SandboxGone)


# --- exec ------------------------------------------------------------------------------------


async def test_exec_refuses_a_nul_in_an_env_value(provider):
    sb = await provider.create(SPEC)
    with pytest.raises(ValueError, match="(?i)NUL|null byte"):
        await provider.exec(sb, ["true"], timeout_s=10, env={"A": "1\0--bind\0/\0/escape"})


# --- provider set-up -------------------------------------------------------------------------


def test_a_missing_bubblewrap_is_warned_about_once(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(local.shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING, logger="sandbox.local"):
        provider = LocalProvider(tmp_path, owner=OWNER)
    assert not provider.isolated
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "bubblewrap (bwrap) is missing" in warnings[0].getMessage()
    assert "not isolated" in warnings[0].getMessage()


def test_requiring_bubblewrap_without_it_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(local.shutil, "which", lambda name: None)
    with pytest.raises(ProviderUnavailable, match="bubblewrap"):
        LocalProvider(tmp_path, owner=OWNER, use_bwrap=True)


def test_require_binary_skips_locally_and_fails_under_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="'no-such-binary-xyz' is not installed"):
        require_binary("no-such-binary-xyz")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true requires it"):
        require_binary("no-such-binary-xyz")


# --- under real bubblewrap -------------------------------------------------------------------


@pytest.mark.bwrap
def test_bwrapped_provider_logs_no_warning(tmp_path, caplog):
    require_binary("bwrap")
    with caplog.at_level(logging.WARNING, logger="sandbox.local"):
        assert LocalProvider(tmp_path, owner=OWNER).isolated
    assert caplog.records == []


@pytest.mark.bwrap
async def test_bwrap_command_cannot_write_outside_its_workspace(bwrapped):
    sb = await bwrapped.create(SPEC)
    name = f"sandbox-escape-{secrets.token_hex(4)}"
    passwd = Path("/etc/passwd").read_bytes()
    for script in (
        f"echo x > /usr/{name}",
        f"touch /root/{name}",
        "echo x >> /etc/passwd",
        f"echo x > {COMMANDS_DIR}/mail",
    ):
        result = await sh(bwrapped, sb, script)
        assert result.exit_code != 0, script
    assert not Path("/usr", name).exists()
    assert not Path("/root", name).exists()
    assert Path("/etc/passwd").read_bytes() == passwd


@pytest.mark.bwrap
async def test_bwrap_writes_inside_the_workspace_appear_on_the_host(bwrapped):
    sb = await bwrapped.create(SPEC)
    result = await sh(bwrapped, sb, "mkdir -p out && echo made > /workspace/out/made.txt")
    assert result.exit_code == 0, result.stderr
    assert (host_workspace(bwrapped, sb) / "out" / "made.txt").read_bytes() == b"made\n"


@pytest.mark.bwrap
async def test_bwrap_hides_the_host_filesystem_and_tmp(bwrapped):
    sb = await bwrapped.create(SPEC)
    host_ws = host_workspace(bwrapped, sb)
    name = f"sandbox-tmp-{secrets.token_hex(4)}"
    result = await sh(bwrapped, sb, f"test -e {host_ws} && echo visible; echo x > /tmp/{name} && ls /")
    assert result.exit_code == 0, result.stderr
    assert b"visible" not in result.stdout
    assert not Path("/tmp", name).exists()
    assert set(result.stdout.decode().split()) <= ROOT_ENTRIES


@pytest.mark.bwrap
async def test_bwrap_command_has_no_capabilities(bwrapped):
    sb = await bwrapped.create(SPEC)
    result = await bwrapped.exec(sb, ["grep", "^CapEff:", "/proc/self/status"], timeout_s=10)
    assert result.stdout.split() == [b"CapEff:", b"0000000000000000"]


@pytest.mark.bwrap
async def test_bwrap_network_none_leaves_only_loopback(bwrapped):
    sb = await bwrapped.create(SandboxSpec(network="none"))
    result = await bwrapped.exec(sb, ["cat", "/proc/net/dev"], timeout_s=10)
    interfaces = {line.split(":")[0].strip() for line in result.stdout.decode().splitlines()[2:]}
    assert interfaces == {"lo"}


@pytest.mark.bwrap
async def test_bwrap_network_none_cannot_reach_the_hosts_loopback(bwrapped):
    require_binary("curl")
    sb = await bwrapped.create(SandboxSpec(network="none"))
    async with loopback_server() as (port, hit):
        result = await bwrapped.exec(sb, ["curl", "-s", "-m", "5", f"http://127.0.0.1:{port}/"], timeout_s=10)
    assert result.exit_code != 0
    assert not hit.is_set()


@pytest.mark.bwrap
async def test_bwrap_network_host_reaches_a_server_on_loopback(bwrapped):
    require_binary("curl")
    sb = await bwrapped.create(SandboxSpec(network="host"))
    async with loopback_server() as (port, _):
        result = await bwrapped.exec(sb, ["curl", "-s", "-m", "5", f"http://127.0.0.1:{port}/"], timeout_s=10)
    assert (result.exit_code, result.stdout) == (0, b"hello")


@pytest.mark.bwrap
async def test_bwrap_symlink_to_etc_passwd_made_in_the_sandbox_is_refused(bwrapped):
    sb = await bwrapped.create(SPEC)
    passwd = Path("/etc/passwd").read_bytes()
    result = await sh(bwrapped, sb, "ln -s /etc/passwd leak && mkdir -p d && ln -s /etc d/etc && cat leak")
    assert result.exit_code == 0, result.stderr  # inside the sandbox it reads its own read-only copy
    for path in ("leak", "d/etc/passwd"):
        with pytest.raises(WorkspacePathError, match="symlink"):
            await bwrapped.read_file(sb, path)
        with pytest.raises(WorkspacePathError, match="symlink"):
            await bwrapped.write_files(sb, {path: b"pwned\n"})
    assert Path("/etc/passwd").read_bytes() == passwd


@pytest.mark.bwrap
async def test_bwrap_output_that_mentions_bwrap_is_still_the_commands(bwrapped):
    sb = await bwrapped.create(SPEC)
    result = await sh(bwrapped, sb, "echo 'bwrap: looks like a failure' >&2; exit 1")
    assert result.exit_code == 1
    assert result.stderr == b"bwrap: looks like a failure\n"


@pytest.mark.bwrap
async def test_bwrap_setup_failure_is_provider_unavailable(bwrapped, monkeypatch):
    sb = await bwrapped.create(SPEC)
    build = local_bwrap.bwrap_argv

    def broken(*args, **kwargs):
        return [*build(*args, **kwargs), "--ro-bind", "/no/such/source", "/mnt"]

    monkeypatch.setattr(local_bwrap, "bwrap_argv", broken)
    with pytest.raises(ProviderUnavailable, match="bubblewrap failed.*/no/such/source") as info:
        await bwrapped.exec(sb, ["true"], timeout_s=10)
    assert not isinstance(info.value, SandboxGone)


@pytest.mark.bwrap
async def test_bwrap_sandbox_record_is_kept_outside_the_workspace(bwrapped):
    sb = await bwrapped.create(SandboxSpec(env={"COMPANY_API_TOKEN": "secret-token"}))
    result = await sh(bwrapped, sb, "ls -a /workspace /workspace/.. ; cat /workspace/../sandbox.json")
    assert b"sandbox.json" not in result.stdout
    assert b"secret-token" not in result.stdout
    record = json.loads((bwrapped.root / sb.id / "sandbox.json").read_text())
    assert record["owner"] == OWNER


async def test_plain_exec_kills_background_children_when_the_command_exits(tmp_path):
    provider = LocalProvider(tmp_path, owner=OWNER, use_bwrap=False)
    sb = await provider.create(SPEC)
    with anyio.fail_after(10):
        result = await sh(provider, sb, "sleep 30 >/dev/null 2>&1 & echo $!")
    try:
        pidfd = os.pidfd_open(int(result.stdout))
    except ProcessLookupError:
        return  # already dead and reaped
    exited = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(pidfd, exited.set)  # a pidfd turns readable when its process exits
    try:
        with anyio.fail_after(5):
            await exited.wait()
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)


# --- host unix sockets bound into sandboxes --------------------------------------------------


@contextlib.asynccontextmanager
async def unix_server():
    """An HTTP server on a unix socket in a fresh private folder answering "hello"; yields its path."""

    async def handle(reader, writer):
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello")
            await writer.drain()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()

    folder = Path(tempfile.mkdtemp(prefix="host-sock-"))  # short: a socket path must stay under 108 bytes
    path = folder / "s.sock"
    server = await asyncio.start_unix_server(handle, path=str(path))
    try:
        async with server:
            yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_plain_provider_cannot_bind_a_socket(tmp_path):
    provider = LocalProvider(tmp_path, owner=OWNER, use_bwrap=False)
    assert provider.supports_socket_binds is False
    with pytest.raises(ValueError, match="only under bubblewrap"):
        provider.bind_socket("/run/company/api.sock", str(tmp_path / "s.sock"))
    assert provider.socket_binds == {}


@pytest.mark.bwrap
@pytest.mark.parametrize(
    "inside", ["run/x.sock", "/run", "/run/", "/run/../etc/x.sock", "/run//x.sock", "/workspace/x.sock", "/tmp/x"]
)
def test_bind_socket_takes_only_a_normalised_path_under_run(bwrapped, inside):
    with pytest.raises(ValueError, match="absolute path under /run"):
        bwrapped.bind_socket(inside, "/tmp/s.sock")
    assert bwrapped.socket_binds == {}


@pytest.mark.bwrap
async def test_bwrap_sandbox_without_network_reaches_a_bound_host_socket(bwrapped):
    require_binary("curl")
    before = await bwrapped.create(SandboxSpec(network="none"))
    async with unix_server() as path:
        bwrapped.bind_socket("/run/company/api.sock", str(path))
        assert bwrapped.supports_socket_binds
        assert bwrapped.socket_binds == {"/run/company/api.sock": str(path)}
        sb = await bwrapped.create(SandboxSpec(network="none"))
        bwrapped.bind_socket("/run/company/api.sock", None)  # later sandboxes get none; sb keeps its own
        after = await bwrapped.create(SandboxSpec(network="none"))
        mode = path.stat().st_mode
        call = "curl -sS --unix-socket /run/company/api.sock http://localhost/"
        result = await sh(bwrapped, sb, f"{call} && chmod 777 /run/company/api.sock")
        assert result.stdout == b"hello"
        assert result.exit_code != 0 and b"Read-only file system" in result.stderr  # bound read-only
        assert path.stat().st_mode == mode
        for other in (before, after):
            assert (await sh(bwrapped, other, "test -e /run/company/api.sock")).exit_code == 1
        interfaces = await bwrapped.exec(sb, ["cat", "/proc/net/dev"], timeout_s=10)
        assert {line.split(":")[0].strip() for line in interfaces.stdout.decode().splitlines()[2:]} == {"lo"}
    assert bwrapped.socket_binds == {}


def _host_command_lines() -> dict[int, bytes]:
    """Every host process's command line that this user can read: ``{pid: NUL-separated argv}``."""
    lines = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                lines[int(entry.name)] = (entry / "cmdline").read_bytes()
    return lines


@pytest.mark.bwrap
async def test_bwrap_session_token_reaches_the_command_but_no_command_line(bwrapped):
    token = "tok-" + secrets.token_hex(16)
    sb = await bwrapped.create(SandboxSpec(env={"COMPANY_API_TOKEN": token}))
    out = host_workspace(bwrapped, sb) / "out"
    os.mkfifo(out)
    reader = os.open(out, os.O_RDONLY | os.O_NONBLOCK)
    readable = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(reader, readable.set)  # readable once the command wrote (a FIFO never written stays quiet)
    script = 'printf "%s\\n" "$COMPANY_API_TOKEN" > out && exec sleep 60'
    running = asyncio.ensure_future(bwrapped.exec(sb, ["sh", "-c", script], timeout_s=60))
    try:
        with anyio.fail_after(10):
            await readable.wait()
        assert os.read(reader, 4096) == token.encode() + b"\n"  # inside: the command has it
        lines = _host_command_lines()  # outside: bubblewrap still runs the command now
        home = os.fsencode(bwrapped.root / sb.id)
        mine = script.encode()
        bwraps = [argv for argv in lines.values() if mine in argv and argv.split(b"\0")[0].endswith(b"bwrap")]
        assert bwraps  # bubblewrap and its forked child (the pid namespace's init) show the same line
        assert all(argv.split(b"\0")[1:4] == [b"--args", argv.split(b"\0")[2], b"--"] for argv in bwraps)
        assert [pid for pid, argv in lines.items() if home in argv] == []  # no host path: every option is in --args
        assert [pid for pid, argv in lines.items() if token.encode() in argv] == []
    finally:
        loop.remove_reader(reader)
        os.close(reader)
        await bwrapped.destroy(sb)
        with anyio.fail_after(10):
            result = await running
    assert result.exit_code == 137  # killed by destroy


@pytest.mark.slow
@pytest.mark.bwrap
async def test_a_package_installed_under_usr_keeps_its_task_data_out_of_sight(tmp_path):
    """A package installed into a system Python (under /usr) is visible through the /usr bind; its data is not."""
    require_binary("bwrap")
    prefix = Path("/usr/local/lib") / f"company-gateway-hide-test-{secrets.token_hex(4)}"
    try:
        data = prefix / "site-packages" / "gateway" / "data"
        (data / "tasks").mkdir(parents=True)
    except PermissionError:
        pytest.skip("writing under /usr needs root (CI runs as root)")
    try:
        (data / "tasks" / "core.jsonl").write_text('{"checks": "the answer is 42"}\n')
        (prefix / "site-packages" / "gateway" / "__init__.py").write_text("")
        look = f"cat {data}/tasks/core.jsonl; ls {prefix}/site-packages/gateway; find /usr -path '*data/tasks/*'"
        seen = LocalProvider(tmp_path / "open", owner=OWNER, use_bwrap=True)
        sb = await seen.create(SPEC)
        before = await sh(seen, sb, look)
        assert "the answer is 42" in before.stdout.decode()  # the control: without hiding, the bind shows it
        hiding = LocalProvider(tmp_path / "hidden", owner=OWNER, use_bwrap=True, hidden=[str(data)])
        sb = await hiding.create(SPEC)
        after = await sh(hiding, sb, look)
        out = after.stdout.decode()
        assert "the answer is 42" not in out and str(data / "tasks") not in out  # neither cat nor find sees it
        assert "core.jsonl: No such file or directory" in after.stderr.decode()
        assert "__init__.py" in out  # the package itself stays visible, only its data is gone
        await seen.close()
        await hiding.close()
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def test_the_gateway_lends_local_sandboxes_that_hide_its_task_data_and_code(tmp_path):
    import gateway
    import tools
    from gateway.control.workspace import make_provider, task_data_folder
    from gateway.settings import Settings

    provider = make_provider(Settings(sandbox_provider="local", sandbox_root=str(tmp_path)))
    assert isinstance(provider, LocalProvider)
    assert provider._hidden[0] == task_data_folder()
    assert {str(Path(gateway.__file__).parent), str(Path(tools.__file__).parent)} <= set(provider._hidden)
    assert Path(task_data_folder(), "rows").is_dir() and Path(task_data_folder(), "families").is_dir()


@pytest.mark.bwrap
async def test_bwrap_tmp_holds_at_most_the_sandboxs_disk_bound(bwrapped):
    write = "head -c 3145728 /dev/zero > /tmp/three-mib; wc -c < /tmp/three-mib"
    bounded = await bwrapped.create(SandboxSpec(disk_bytes=1024 * 1024))
    result = await sh(bwrapped, bounded, write)
    assert result.exit_code == 0 and int(result.stdout) == 1024 * 1024  # the tmpfs is full at 1 MiB
    assert b"No space left on device" in result.stderr
    unbounded = await bwrapped.create(SPEC)
    assert int((await sh(bwrapped, unbounded, write)).stdout) == 3 * 1024 * 1024  # the control


@pytest.mark.bwrap
async def test_bwrap_leaves_nothing_writable_beyond_the_bounded_mounts(bwrapped):
    bounded = await bwrapped.create(SandboxSpec(disk_bytes=1024 * 1024))
    for folder in ("/", "/run", "/opt", "/etc", "/dev"):
        made = await sh(bwrapped, bounded, f"mkdir -p {folder} && printf x > {folder.rstrip('/')}/new")
        assert made.exit_code != 0 and b"Read-only file system" in made.stderr, folder
    shm = await sh(bwrapped, bounded, "head -c 3145728 /dev/zero > /dev/shm/three-mib; wc -c < /dev/shm/three-mib")
    assert int(shm.stdout) == 1024 * 1024 and b"No space left on device" in shm.stderr  # sized like /tmp
    devices = await sh(bwrapped, bounded, "printf x > /dev/null && head -c 4 /dev/urandom | wc -c && ls /dev/pts")
    assert devices.exit_code == 0 and devices.stdout.split()[0] == b"4"  # the devices still work
    kept = "printf x > /workspace/kept && printf y > /tmp/kept && cat /workspace/kept /tmp/kept"
    written = await sh(bwrapped, bounded, kept)
    assert written.stdout == b"xy"


def test_a_source_checkout_the_package_runs_from_is_hidden_whole(tmp_path):
    # an editable install under /usr/local/src: its .git, build/ and tests/ hold the task rows too
    from gateway.control.workspace import installed_paths, source_checkout

    (tmp_path / "clone" / "gateway").mkdir(parents=True)
    (tmp_path / "clone" / "pyproject.toml").write_text('[project]\nname = "company-gateway"\nversion = "0.1.0"\n')
    assert source_checkout(str(tmp_path / "clone" / "gateway")) == str(tmp_path / "clone")
    (tmp_path / "other" / "gateway").mkdir(parents=True)
    (tmp_path / "other" / "pyproject.toml").write_text('[project]\nname = "someone-else"\n')
    assert source_checkout(str(tmp_path / "other" / "gateway")) is None  # another project's gateway folder
    assert source_checkout(str(tmp_path / "nothing" / "gateway")) is None
    here = Path(__file__).resolve().parents[3]
    assert (str(here) in installed_paths()) is ((here / "pyproject.toml").is_file())  # this run's own checkout


def test_another_copy_of_the_package_under_usr_is_hidden_too(tmp_path):
    from gateway.control.workspace import other_installs

    site = tmp_path / "usr" / "local" / "venv" / "lib" / "python3.11" / "site-packages"
    (site / "gateway" / "control").mkdir(parents=True)
    (site / "gateway" / "control" / "workspace.py").write_text("")
    (site / "tools").mkdir()
    (site / "company_gateway-0.1.0.dist-info").mkdir()
    (tmp_path / "usr" / "local" / "other" / "lib" / "python3.11" / "site-packages" / "gateway").mkdir(parents=True)
    roots = (str(tmp_path / "usr" / "local" / "*" / "lib" / "python3*" / "*-packages"),)
    assert other_installs(roots) == [str(site / "gateway"), str(site / "tools"),
                                     str(site / "company_gateway-0.1.0.dist-info")]  # fmt: skip
    # a folder named gateway that is not this package (no control/workspace.py) stays visible
