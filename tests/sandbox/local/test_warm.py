"""WarmLocalProvider: a destroyed sandbox is emptied and lent again as if new."""

import asyncio

from sandbox import SandboxSpec
from sandbox.local import WarmLocalProvider
from sandbox.local import _files as local_files


def _spec(value: str) -> SandboxSpec:
    return SandboxSpec(labels={"session": value}, env={"MARK": value}, network="none")


def _run(provider, sb, command):
    result = asyncio.run(provider.exec(sb, ["sh", "-c", command], timeout_s=30))
    assert result.exit_code == 0, result.stderr
    return result.stdout.decode()


def test_a_destroyed_sandbox_comes_back_empty_with_the_new_spec(tmp_path):
    provider = WarmLocalProvider(tmp_path, owner="t", tools=None)
    first = asyncio.run(provider.create(_spec("one")))
    asyncio.run(provider.write_files(first, {"README.md": b"guide", "in/data.csv": b"a,b\n"}))
    _run(provider, first, "mkdir -p out/deep && echo x > out/deep/f.txt && ln -s /etc out/link")
    asyncio.run(provider.destroy(first))

    second = asyncio.run(provider.create(_spec("two")))
    assert second.id == first.id  # lent again, not made anew
    assert second.labels == {"session": "two"}
    assert _run(provider, second, "ls -A") == ""
    assert _run(provider, second, "echo $MARK") == "two\n"
    assert (tmp_path / first.id / "workspace").is_dir()


def test_the_command_folder_holds_exactly_the_last_commands_installed(tmp_path):
    provider = WarmLocalProvider(tmp_path, owner="t", tools=None)
    first = asyncio.run(provider.create(_spec("one")))
    asyncio.run(provider.install_commands(first, {"gmail": b"#!/bin/sh\necho old\n", "drive": b"#!/bin/sh\n"}))
    asyncio.run(provider.destroy(first))
    second = asyncio.run(provider.create(_spec("two")))
    asyncio.run(provider.install_commands(second, {"gmail": b"#!/bin/sh\necho new\n"}))
    assert sorted(p.name for p in (tmp_path / second.id / "bin").iterdir()) == ["gmail"]
    assert _run(provider, second, "gmail") == "new\n"


def test_a_sandbox_that_cannot_be_emptied_is_removed_and_a_new_one_made(tmp_path, monkeypatch):
    provider = WarmLocalProvider(tmp_path, owner="t", tools=None)
    first = asyncio.run(provider.create(_spec("one")))

    def stuck(folder):
        raise OSError("permission denied")

    monkeypatch.setattr(local_files, "empty_folder", stuck)
    asyncio.run(provider.destroy(first))
    assert not (tmp_path / first.id).exists()
    second = asyncio.run(provider.create(_spec("two")))
    assert second.id != first.id


def test_empty_folder_refuses_to_leave_anything_and_keeps_the_folder(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c.txt").write_text("x")
    (tmp_path / "top.txt").write_text("y")
    (tmp_path / "link").symlink_to(tmp_path / "a")  # removed, never followed
    local_files.empty_folder(tmp_path)
    assert tmp_path.is_dir() and list(tmp_path.iterdir()) == []


def test_destroying_twice_lends_the_folder_once_and_idle_ones_are_not_listed(tmp_path):
    provider = WarmLocalProvider(tmp_path, owner="t", tools=None)
    first = asyncio.run(provider.create(_spec("one")))
    _run(provider, first, "chmod 500 /workspace")
    asyncio.run(provider.destroy(first))
    asyncio.run(provider.destroy(first))  # a reaper's second go: no second lending of the same folder
    assert asyncio.run(provider.list_owned()) == []  # emptied, waiting: not a sandbox anyone holds
    a, b = asyncio.run(provider.create(_spec("a"))), asyncio.run(provider.create(_spec("b")))
    assert a.id == first.id and b.id != a.id
    assert [sb.id for sb in asyncio.run(provider.list_owned())] == sorted([a.id, b.id])
    asyncio.run(provider.write_files(a, {"README.md": b"guide"}))  # the workspace's mode was put back
    assert (tmp_path / a.id / "workspace").stat().st_mode & 0o777 == 0o755
