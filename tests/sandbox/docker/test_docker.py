"""The docker provider against a real Docker Engine API: podman's socket, with the busybox image.

Every test that touches the engine is marked ``podman``; ``docker_host`` (tests/sandbox/conftest.py)
finds or starts the socket and skips without podman, or fails under CI=true.
"""

import asyncio
import contextlib
import os
import re
import secrets
import sys

import anyio
import pytest

import sandbox.docker._exec as docker_exec
from sandbox import (
    FileTooLarge,
    ProviderUnavailable,
    Sandbox,
    SandboxGone,
    SandboxSpec,
    WorkspacePathError,
    get_provider,
)
from sandbox.docker import COMMANDS_DIR, OWNER_LABEL, DockerProvider
from tests.sandbox.conftest import HOST_BINDS
from tests.sandbox.contract import TTL_S, ProviderContract, loopback_server, sh

SPEC = SandboxSpec(labels={"session": "s1"}, env={"COMPANY_API_URL": "http://127.0.0.1:9/api"})


def owned_containers(base_url: str, owner: str) -> list:
    """Every container carrying ``owner``'s label, asked of the engine directly (not via the provider)."""
    import docker

    client = docker.DockerClient(base_url=base_url, timeout=30, version="1.44")
    try:
        return client.containers.list(all=True, filters={"label": f"{OWNER_LABEL}={owner}"})
    finally:
        client.close()


@pytest.fixture
def owner() -> str:
    return f"test-docker-{secrets.token_hex(4)}"


@pytest.fixture
async def engine(docker_host, owner):
    """Yields a factory of providers for one test's owner; afterwards no container of that owner may remain."""
    providers: list[DockerProvider] = []

    def make(**options) -> DockerProvider:
        options.setdefault("owner", owner)
        provider = DockerProvider(base_url=docker_host, **options)
        providers.append(provider)
        return provider

    yield make
    owners = {owner} | {provider.owner for provider in providers}
    for provider in providers:
        await provider.close()
    for name in owners:  # a fresh provider per owner, as a restarted gateway would reap
        reaper = DockerProvider(owner=name, base_url=docker_host)
        await reaper.reap()
        await reaper.close()
        assert owned_containers(docker_host, name) == []


@pytest.fixture
async def provider(engine):
    return engine()


@pytest.fixture
def provider_factory(engine):
    return lambda owner: engine(owner=owner)


@pytest.mark.podman
@pytest.mark.slow  # a container per test, ~1 s each; local and opensandbox run the contract in the default tier
class TestDockerContract(ProviderContract):
    """The provider contract (tests/sandbox/contract.py) against podman's Docker API and the busybox image."""

    name = "docker"
    id_pattern = re.compile(r"[0-9a-f]{64}")

    @pytest.fixture(autouse=True)
    def _engine_address(self, docker_host):
        self.docker_host = docker_host

    async def backend_has(self, provider, sb):
        return sb.id in {c.id for c in owned_containers(self.docker_host, provider.owner)}

    def check_listed(self, a, b):
        assert a.private["expires_at"] == pytest.approx(a.private["created_at"] + TTL_S)
        assert b.private["expires_at"] is None

    def check_env(self, env, provider, sb):
        assert env["PATH"] == f"{COMMANDS_DIR}:/opt/tools/bin:/usr/local/bin:/usr/bin:/bin"
        assert not any(key.startswith("_cg_") for key in env)  # the wrapper's variables stay its own


# --- without an engine -----------------------------------------------------------------------


def test_get_provider_builds_the_docker_provider():
    provider = get_provider("docker", owner="me", base_url="unix:///nonexistent.sock")
    assert isinstance(provider, DockerProvider)
    assert (provider.owner, provider.image) == ("me", "localhost/company-sandbox:latest")


def test_get_provider_names_the_extra_when_the_sdk_is_missing(monkeypatch):
    for module in [name for name in sys.modules if name.startswith("sandbox.docker")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "docker", None)  # makes "import docker" raise ModuleNotFoundError
    with pytest.raises(ProviderUnavailable, match=r"pip install 'company-gateway\[docker\]'"):
        get_provider("docker", owner="me")


def test_provider_refuses_both_a_client_and_a_base_url():
    with pytest.raises(ValueError, match="either client or base_url"):
        DockerProvider(owner="me", client=object(), base_url="unix:///x.sock")  # type: ignore[arg-type]


async def test_an_unreachable_engine_is_provider_unavailable():
    # Over TCP: docker's unix-socket transport leaks its socket when connect() fails (a ResourceWarning).
    provider = DockerProvider(owner="me", base_url="tcp://127.0.0.1:1", api_timeout_s=5)
    with pytest.raises(ProviderUnavailable, match="docker engine unreachable") as info:
        await provider.create(SPEC)
    assert not isinstance(info.value, SandboxGone)
    await provider.close()


async def test_bad_arguments_are_refused_before_any_engine_call():
    provider = DockerProvider(owner="me", base_url="unix:///nonexistent.sock")
    sb = Sandbox("0" * 64, "docker")
    with pytest.raises(ValueError, match="argv"):
        await provider.exec(sb, [], timeout_s=10)
    with pytest.raises(ValueError, match="timeout_s"):
        await provider.exec(sb, ["true"], timeout_s=0)
    with pytest.raises(ValueError, match="environment variable names"):
        await provider.exec(sb, ["true"], timeout_s=10, env={"A=B": "1"})
    with pytest.raises(ValueError, match="network must be 'none' or 'host'"):
        await provider.create(SandboxSpec(network="bridge"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="provider's own"):
        await provider.create(SandboxSpec(labels={OWNER_LABEL: "someone"}))
    with pytest.raises(ValueError, match="not created by a 'docker' provider"):
        await provider.read_file(Sandbox("0123456789abcdef", "local"), "a.txt")
    with pytest.raises(WorkspacePathError):
        await provider.read_file(sb, "../escape.txt")
    with pytest.raises(ValueError, match="plain file name"):
        await provider.install_commands(sb, {"../mail": b"x"})
    await provider.close()


class _RemovedUnderTheCommand:
    """A low-level API whose container is being removed: podman's 500 on exec inspect, then the container state."""

    def __init__(self, container_state):
        self.container_state = container_state

    def exec_inspect(self, exec_id):
        import docker

        raise docker.errors.APIError(
            "500 Server Error", response=None,
            explanation=f"retrieving exec session {exec_id} from container c1: container c1 does not exist in "
            "database: no such container",
        )  # fmt: skip

    def inspect_container(self, container):
        import docker

        if self.container_state is None:
            raise docker.errors.NotFound("no such container")
        return {"State": self.container_state}


@pytest.mark.parametrize(
    ("container_state", "expected"),
    [(None, 137), ({"Running": False, "Status": "removing"}, 137), ({"Running": True}, ProviderUnavailable)],
    ids=["removed", "being-removed", "still-running"],
)
async def test_a_command_whose_container_was_destroyed_under_it_ends_with_137(container_state, expected):
    """Deterministic form of the race test_destroy_ends_a_running_command meets under load."""
    api = _RemovedUnderTheCommand(container_state)
    client = type("Client", (), {"api": api})()
    provider = DockerProvider(owner="test", client=client)
    sb = Sandbox(id="c" * 64, provider="docker")
    stream = docker_exec._Stream(exec_id="e1")
    try:
        if expected == 137:
            assert await docker_exec._exit_code(provider._engine, api, sb, stream) == 137
        else:
            with pytest.raises(ProviderUnavailable, match="no such container"):
                await docker_exec._exit_code(provider._engine, api, sb, stream)
    finally:
        await provider.close()


def test_wrapper_markers_are_split_from_stderr():
    token = "ab" * 16
    err = f"{token} pid 7\noops\n\n{token} exit 3\n".encode()
    assert docker_exec._split_markers(err, token) == ({"pid": "7", "exit": "3"}, b"oops\n")
    forged = f"{'cd' * 16} exit 0\n".encode()  # another token: the command's own output, kept
    assert docker_exec._split_markers(forged, token) == ({}, forged)


# --- create, list_owned, reap, destroy -------------------------------------------------------


@pytest.mark.podman
async def test_create_starts_a_labelled_limited_container(provider, docker_host):
    spec = SandboxSpec(labels={"session": "s1", "expiry": "2030"}, memory_mb=128, cpus=0.5, pids=64, ttl_s=60)
    sb = await provider.create(spec)
    assert (sb.provider, sb.workspace, sb.labels) == ("docker", "/workspace", {"session": "s1", "expiry": "2030"})
    (container,) = owned_containers(docker_host, provider.owner)
    assert container.id == sb.id
    assert container.status == "running"
    assert container.labels["session"] == "s1"
    assert container.labels[OWNER_LABEL] == provider.owner
    host = container.attrs["HostConfig"]
    assert (host["Memory"], host["NanoCpus"], host["PidsLimit"]) == (128 * 2**20, 500_000_000, 64)
    assert host["Init"] is True
    init = await provider.exec(sb, ["cat", "/proc/1/cmdline"], timeout_s=10)
    assert b"init" in init.stdout.split(b"\0")[0]  # an init is PID 1, the keep-alive sleep its child
    assert (await provider.exec(sb, ["ls", "-A", "/workspace"], timeout_s=10)).stdout == b""


@pytest.mark.podman
async def test_pids_limit_applies(provider):
    sb = await provider.create(SandboxSpec(pids=20))
    result = await sh(provider, sb, "for i in $(seq 40); do sleep 5 & done; echo spawned", timeout_s=10)
    assert b"can't fork" in result.stderr


@pytest.mark.slow
@pytest.mark.podman
async def test_a_restarted_provider_reaps_what_a_crashed_one_left(engine, docker_host, owner):
    crashed = engine()
    a = await crashed.create(SandboxSpec(labels={"session": "a"}, ttl_s=30))
    b = await crashed.create(SandboxSpec(labels={"session": "b"}))
    other = engine(owner=f"{owner}-other")
    theirs = await other.create(SPEC)
    await crashed.close()  # the gateway died: nothing destroyed

    restarted = engine()  # what it lists: TestDockerContract.test_list_owned_finds_only_the_owners_sandboxes_...
    assert await restarted.reap(older_than_s=3600) == []  # younger than an hour: kept
    assert sorted(await restarted.reap()) == sorted([a.id, b.id])
    assert owned_containers(docker_host, owner) == []
    assert [sb.id for sb in await other.list_owned()] == [theirs.id]
    await other.destroy(theirs)


# --- exec ------------------------------------------------------------------------------------


@pytest.mark.podman
async def test_an_unknown_command_says_what_the_shell_says(provider):
    sb = await provider.create(SPEC)
    result = await provider.exec(sb, ["no-such-command-here"], timeout_s=10)
    assert (result.exit_code, result.stderr) == (127, b"no-such-command-here: not found\n")


@pytest.mark.slow
@pytest.mark.podman
async def test_exec_timeout_kills_the_commands_children_too(provider):
    sb = await provider.create(SPEC)
    with anyio.fail_after(15):
        result = await sh(provider, sb, "echo started; sleep 31 & sleep 32", timeout_s=0.5)
    assert (result.exit_code, result.timed_out) == (124, True)
    left = await sh(provider, sb, "cat /proc/[0-9]*/cmdline | tr '\\0' ' '")
    assert b"sleep 31" not in left.stdout
    assert b"sleep 32" not in left.stdout


@pytest.mark.slow
@pytest.mark.podman
async def test_the_gateway_kills_a_command_whose_in_container_bound_failed(engine, caplog, monkeypatch):
    watcher = '(sleep "$_cg_limit" &&'
    assert watcher in docker_exec._WRAPPER
    monkeypatch.setattr(docker_exec, "_WRAPPER", docker_exec._WRAPPER.replace(watcher, "(sleep 3600 &&"))
    provider = engine(exec_timeout_grace_s=0.5)
    sb = await provider.create(SPEC)
    with anyio.fail_after(15):
        result = await provider.exec(sb, ["sleep", "34"], timeout_s=0.5)
    assert (result.exit_code, result.timed_out) == (124, True)
    assert "past its timeout; killing it" in caplog.text
    left = await sh(provider, sb, "cat /proc/[0-9]*/cmdline | tr '\\0' ' '")
    assert b"sleep 34" not in left.stdout


@pytest.mark.podman
async def test_background_children_die_when_the_command_exits(provider):
    sb = await provider.create(SPEC)
    with anyio.fail_after(10):
        result = await sh(provider, sb, "sleep 33 >/dev/null 2>&1 & echo $!")
    assert result.exit_code == 0
    left = await sh(provider, sb, "cat /proc/[0-9]*/cmdline | tr '\\0' ' '")
    assert b"sleep 33" not in left.stdout


# --- files -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.podman
async def test_a_sparse_file_over_max_bytes_is_refused_on_the_archive_stat_alone(provider, monkeypatch):
    import docker.api.client

    sb = await provider.create(SPEC)
    made = await sh(provider, sb, "truncate -s 20G sparse.bin && printf 0123456789 > ten.bin")
    assert made.exit_code == 0, made.stderr
    archives = []  # every archive response, to see how much of its body was read
    real_get = docker.api.client.APIClient._get

    def get(self, url, **kwargs):
        response = real_get(self, url, **kwargs)
        if url.endswith("/archive"):
            archives.append(response)
        return response

    monkeypatch.setattr(docker.api.client.APIClient, "_get", get)
    with anyio.fail_after(30):
        with pytest.raises(FileTooLarge) as info:
            await provider.read_file(sb, "sparse.bin", max_bytes=25 * 1024 * 1024)
    assert (info.value.path, info.value.size, info.value.limit) == ("sparse.bin", 20 * 1024**3, 25 * 1024 * 1024)
    assert [r.raw.tell() for r in archives] == [0]  # refused on the stat header: not one byte of the body read
    assert await provider.read_file(sb, "ten.bin", max_bytes=10) == b"0123456789"
    assert archives[1].raw.tell() > 10  # the spy sees reads: this archive was read
    with pytest.raises(FileTooLarge) as info:
        await provider.read_file(sb, "ten.bin", max_bytes=9)
    assert (info.value.size, info.value.limit) == (10, 9)


# --- network and host binds ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.podman
async def test_network_none_leaves_only_loopback(provider):
    sb = await provider.create(SandboxSpec(network="none"))
    result = await provider.exec(sb, ["cat", "/proc/net/dev"], timeout_s=10)
    interfaces = {line.split(":")[0].strip() for line in result.stdout.decode().splitlines()[2:]}
    assert interfaces == {"lo"}
    async with loopback_server() as (port, hit):
        result = await provider.exec(sb, ["wget", "-q", "-O", "-", f"http://127.0.0.1:{port}/"], timeout_s=10)
    assert result.exit_code != 0
    assert not hit.is_set()


@pytest.mark.slow
@pytest.mark.podman
async def test_network_host_reaches_a_server_on_the_hosts_loopback(provider):
    sb = await provider.create(SandboxSpec(network="host"))
    async with loopback_server() as (port, _):
        result = await provider.exec(sb, ["wget", "-q", "-O", "-", f"http://127.0.0.1:{port}/"], timeout_s=10)
    assert (result.exit_code, result.stdout) == (0, b"hello")


@pytest.mark.slow
@pytest.mark.podman
async def test_host_binds_lend_the_hosts_python_read_only(engine):
    provider = engine(host_binds=HOST_BINDS)
    sb = await provider.create(SPEC)
    result = await provider.exec(sb, ["python3", "-c", "print(6 * 7)"], timeout_s=30)
    assert (result.exit_code, result.stdout) == (0, b"42\n"), result.stderr
    result = await sh(provider, sb, f"touch /usr/bin/sandbox-{secrets.token_hex(4)}")
    assert result.exit_code != 0
    assert b"Read-only file system" in result.stderr


@pytest.mark.slow
@pytest.mark.podman
async def test_the_images_document_tools_give_python3_openpyxl_docx_and_pypdf(engine):
    provider = engine(host_binds=HOST_BINDS)
    sb = await provider.create(SPEC)
    if (await sh(provider, sb, "test -x /opt/tools/bin/python3")).exit_code != 0:
        reason = "the sandbox image has no document tools: run scripts/install-document-tools.sh, then build-local.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    script = "import sys, openpyxl, docx, pypdf; print(sys.prefix)"
    result = await provider.exec(sb, ["python3", "-c", script], timeout_s=60)
    assert (result.exit_code, result.stdout) == (0, b"/opt/tools\n"), result.stderr


@pytest.mark.slow
@pytest.mark.podman
async def test_parallel_creates_and_destroys(provider, docker_host):
    sandboxes = await asyncio.gather(*(provider.create(SandboxSpec(labels={"n": str(i)})) for i in range(8)))
    assert len({sb.id for sb in sandboxes}) == 8
    results = await asyncio.gather(*(provider.exec(sb, ["echo", sb.labels["n"]], timeout_s=10) for sb in sandboxes))
    assert [r.stdout for r in results] == [f"{i}\n".encode() for i in range(8)]
    await asyncio.gather(*(provider.destroy(sb) for sb in sandboxes))
    assert owned_containers(docker_host, provider.owner) == []


# --- host sockets (the gateway's API socket for network="none" sandboxes) ------------------------


@contextlib.contextmanager
def unix_server(folder_mode: int = 0o700):
    """A unix socket (mode 0600) in a fresh folder, answering "hi" to every connection; yields its path."""
    import socket
    import tempfile
    import threading
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="company-api-"))
    folder.chmod(folder_mode)
    path = folder / "api.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    path.chmod(0o600)
    server.listen(8)

    def serve():
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                conn.sendall(b"hi\n")
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield str(path)
    finally:
        server.close()
        path.unlink(missing_ok=True)
        folder.rmdir()


INSIDE = "/run/company/api.sock"
CONNECT = (
    "import socket; s = socket.socket(socket.AF_UNIX); s.connect('/run/company/api.sock'); "
    "print(s.recv(9).decode(), end='')"
)


@pytest.mark.parametrize(
    ("address", "local"),
    [
        ("unix:///tmp/company-gateway-podman.sock", True),
        ("tcp://10.0.0.5:2376", False),
        ("ssh://builder@engine.example", False),
        ("http://127.0.0.1:2375", False),
    ],
)
def test_socket_binds_need_an_engine_on_this_host(address, local):
    provider = DockerProvider(owner="me", base_url=address)
    assert (provider.engine_is_local, provider.supports_socket_binds) == (local, local)
    if not local:
        with pytest.raises(ValueError, match="engine runs on this host"):
            provider.bind_socket(INSIDE, "/tmp/whatever.sock")


def test_socket_binds_follow_docker_host_without_a_base_url(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "tcp://engine.example:2376")
    assert not DockerProvider(owner="me").supports_socket_binds
    monkeypatch.setenv("DOCKER_HOST", "unix:///run/user/1000/podman/podman.sock")
    assert DockerProvider(owner="me").supports_socket_binds
    monkeypatch.delenv("DOCKER_HOST")
    assert DockerProvider(owner="me").supports_socket_binds  # Docker's default: /var/run/docker.sock


def test_bind_socket_checks_its_paths_and_makes_the_socket_usable_by_any_uid(tmp_path):
    provider = DockerProvider(owner="me", base_url="unix:///nonexistent.sock")
    with unix_server() as host:
        for inside in ("run/company/api.sock", "/tmp/api.sock", "/run", "/run/../etc/x", "/run//a.sock"):
            with pytest.raises(ValueError, match="under /run"):
                provider.bind_socket(inside, host)
        (tmp_path / "plain").write_text("")
        for bad in ("relative.sock", str(tmp_path / "plain"), str(tmp_path / "missing.sock")):
            with pytest.raises(ValueError, match="absolute path|unix socket"):
                provider.bind_socket(INSIDE, bad)
        assert provider.socket_binds == {}
        provider.bind_socket(INSIDE, host)
        assert provider.socket_binds == {INSIDE: host}
        assert os.stat(host).st_mode & 0o777 == 0o666  # any container uid may connect...
        assert os.stat(os.path.dirname(host)).st_mode & 0o777 == 0o700  # ...but on the host only its owner
        provider.bind_socket(INSIDE, None)
        assert provider.socket_binds == {}
    with unix_server(folder_mode=0o755) as host, pytest.raises(ValueError, match="must be private"):
        provider.bind_socket(INSIDE, host)


@pytest.mark.slow
@pytest.mark.podman
async def test_a_bound_socket_reaches_a_network_none_container_read_only(engine):
    provider = engine(host_binds=HOST_BINDS)
    with unix_server() as host:
        provider.bind_socket(INSIDE, host)
        sb = await provider.create(SandboxSpec(network="none"))
        provider.bind_socket(INSIDE, None)
        later = await provider.create(SandboxSpec(network="none"))
        assert (sb.private["sockets"], later.private["sockets"]) == ({INSIDE: host}, {})
        as_root = await provider.exec(sb, ["python3", "-c", CONNECT], timeout_s=30)
        assert (as_root.exit_code, as_root.stdout) == (0, b"hi\n"), as_root.stderr
        # Another uid than the gateway's (an image's non-root USER): the socket's 0666 lets it in.
        drop = "import os; os.setgroups([]); os.setgid(65534); os.setuid(65534); print(os.getuid()); "
        as_nobody = await provider.exec(sb, ["python3", "-c", drop + CONNECT], timeout_s=30)
        assert (as_nobody.exit_code, as_nobody.stdout) == (0, b"65534\nhi\n"), as_nobody.stderr
        tamper = await sh(provider, sb, f"chmod 777 {INSIDE}; rm -f {INSIDE}; test -S {INSIDE} && ls -l {INSIDE}")
        assert tamper.stdout.decode().startswith("srw-rw-rw-"), tamper
        assert b"Read-only file system" in tamper.stderr or b"Device or resource busy" in tamper.stderr, tamper
        gone = await provider.exec(later, ["test", "-e", INSIDE], timeout_s=10)
        assert gone.exit_code == 1


async def test_a_disk_bound_makes_the_workspace_a_sized_tmpfs_that_files_still_reach(provider):
    sandbox = await provider.create(SandboxSpec(disk_bytes=1024 * 1024))
    await provider.write_files(sandbox, {"notes/a.txt": b"hello"})
    filled = await provider.exec(
        sandbox, ["sh", "-c", "cat notes/a.txt; echo; head -c 3145728 /dev/zero > big; wc -c < big"], timeout_s=30
    )
    text, size = filled.stdout.split()
    assert text == b"hello" and 1024 * 1024 - 64 * 1024 <= int(size) < 1024 * 1024  # full at 1 MiB (a.txt in it)
    assert await provider.read_file(sandbox, "notes/a.txt") == b"hello"
    assert await provider.workspace_bytes(sandbox) >= 1024 * 1024
    unbounded = await provider.create(SandboxSpec())
    wrote = await provider.exec(unbounded, ["sh", "-c", "head -c 3145728 /dev/zero > big; wc -c < big"], timeout_s=30)
    assert wrote.stdout.split() == [str(3 * 1024 * 1024).encode()]  # the control
