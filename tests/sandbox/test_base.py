from pathlib import PurePosixPath

import pytest

from sandbox.base import MAX_PATH_DEPTH, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.exceptions import WorkspacePathError


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("notes/a.txt", "notes/a.txt"),
        ("a.txt", "a.txt"),
        ("./a", "a"),
        ("notes//a.txt", "notes/a.txt"),
        ("notes/./a.txt", "notes/a.txt"),
        ("notes/", "notes"),
        ("notes/sub/../a.txt", "notes/a.txt"),
        ("/workspace/a", "a"),
        ("/workspace/notes/a.txt", "notes/a.txt"),
        ("/workspace/", "."),
        ("/workspace", "."),
        (".", "."),
        ("a/..", "."),
        ("/../workspace/a", "a"),  # ".." at "/" stays at "/", as the kernel resolves it
        ("/workspace/../workspace/a", "a"),
        ("..foo", "..foo"),  # a name that starts with dots is an ordinary name
        ("...", "..."),
        ("~/a", "~/a"),  # no shell: "~" is a folder name
        ("a b/ünï.txt", "a b/ünï.txt"),
    ],
)
def test_workspace_path_normalises_paths_inside_the_workspace(given, expected):
    assert workspace_path(given) == PurePosixPath(expected)


@pytest.mark.parametrize(
    "given",
    [
        "",
        "..",
        "../a",
        "./../a",
        "a/../../b",
        "notes/../../workspace/a",  # climbs out before coming back: still a climb out
        "/etc/passwd",
        "/",
        "/workspacefoo/a",  # a sibling folder sharing the prefix
        "/workspace-other",
        "/workspace/..",
        "/workspace/../etc/passwd",
        "/workspace/a/../../etc",
        "/tmp/workspace/a",
        "a\0b",
        "x\x1b[2J\ny.md",  # a newcomer's: a terminal escape and a newline in a saved file's name
        "report\u202etxt.exe",
    ],
)
def test_workspace_path_refuses_paths_leaving_the_workspace(given):
    with pytest.raises(WorkspacePathError) as info:
        workspace_path(given)
    assert info.value.path == given


def test_workspace_path_uses_the_given_workspace_root():
    assert workspace_path("/home/user/ws/a.txt", "/home/user/ws") == PurePosixPath("a.txt")
    with pytest.raises(WorkspacePathError):
        workspace_path("/workspace/a.txt", "/home/user/ws")


def test_workspace_path_error_message_names_the_path_and_the_workspace():
    with pytest.raises(WorkspacePathError) as info:
        workspace_path("../secret")
    assert "'../secret'" in str(info.value)
    assert "/workspace" in str(info.value)


def test_spec_defaults_keep_the_network_and_set_no_limits():
    spec = SandboxSpec()
    assert spec.network == "host"
    assert (spec.image, spec.memory_mb, spec.cpus, spec.pids, spec.ttl_s) == (None, None, None, None, None)
    assert spec.labels == {} and spec.env == {}


def test_sandbox_equality_ignores_provider_private_data():
    a = Sandbox("x", "local", labels={"k": "v"}, private={"env": {"A": "1"}})
    b = Sandbox("x", "local", labels={"k": "v"}, private={})
    assert a == b
    assert a.workspace == "/workspace"
    assert "private" not in repr(a)


def test_exec_result_defaults_to_not_timed_out():
    result = ExecResult(0, b"", b"")
    assert result.timed_out is False
    assert result.duration_s == 0.0


def test_a_provider_binds_no_host_socket_unless_it_says_it_can():
    class Bare(Provider):
        name = "bare"

    Bare.__abstractmethods__ = frozenset()  # only the socket defaults are under test
    bare = Bare()
    assert bare.supports_socket_binds is False
    assert bare.socket_binds == {}
    with pytest.raises(ValueError, match="'bare' provider cannot bind host unix sockets"):
        bare.bind_socket("/run/company/api.sock", "/tmp/api.sock")


def test_workspace_path_refuses_more_than_max_path_depth_levels():
    deep = "/".join(["a"] * MAX_PATH_DEPTH)
    assert workspace_path(deep) == PurePosixPath(deep)
    with pytest.raises(WorkspacePathError, match=f"33 levels deep; use at most {MAX_PATH_DEPTH}"):
        workspace_path(deep + "/x")


async def test_the_default_workspace_count_is_du_in_kib_and_a_failed_du_is_the_providers_failure():
    from sandbox import ProviderUnavailable, Sandbox

    answers = [ExecResult(0, b"1536\t.\n", b""), ExecResult(127, b"", b"sh: du: not found\n")]
    asked: list[list[str]] = []

    class Counted(Provider):
        name = "counted"

        async def exec(self, sandbox, argv, **options):
            asked.append(argv)
            return answers.pop(0)

    Counted.__abstractmethods__ = frozenset()  # only the default count is under test
    box = Sandbox(id="x", provider="counted")
    assert await Counted().workspace_bytes(box) == 1536 * 1024
    with pytest.raises(ProviderUnavailable, match="du exited 127: sh: du: not found"):
        await Counted().workspace_bytes(box)
    assert asked == [["du", "-sk", "."]] * 2
