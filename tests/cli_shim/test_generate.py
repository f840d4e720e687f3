from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from cli_shim import command_scripts
from gateway.surfaces.socket import serve_on_unix_socket
from tests.cli_shim.live import live_gateway, path_without_curl, run_command, script_env, write_scripts
from tools import REGISTRY

AWKWARD = [
    "plain",
    "two words",
    'it\'s "quoted"',
    "a=b&c=d",
    "line one\nline two",
    "naïve café 東京 🙂",
    "-starts-with-dash",
    "--looks-like-an-option",
    "",
    "$HOME `id` \\n \\ | ; %20 + @file",
]


def test_one_script_per_app_plus_company() -> None:
    scripts = command_scripts(["directory"])
    assert sorted(scripts) == ["company", "directory"]
    for name, data in scripts.items():
        text = data.decode()
        assert text.startswith("#!/bin/sh\n")
        assert f"cmd={name}\n" in text


def test_every_registered_app_gets_a_script_that_sh_accepts(tmp_path: Path) -> None:
    folder = write_scripts(tmp_path, list(REGISTRY.apps))
    for name in [*REGISTRY.apps, "company"]:
        subprocess.run(["/bin/sh", "-n", str(folder / name)], check=True)


def test_unknown_app_is_refused() -> None:
    with pytest.raises(ValueError, match="no app 'nope'"):
        command_scripts(["nope"])


async def test_missing_environment_is_a_usage_error(tmp_path: Path) -> None:
    folder = write_scripts(tmp_path, ["directory"])
    ran = await run_command(folder / "directory", "--help", env={"PATH": "/usr/bin:/bin"})
    assert ran.status == 2
    assert ran.stderr == "directory: COMPANY_API_URL and COMPANY_API_TOKEN must both be set in the environment\n"


@pytest.mark.slow
@pytest.mark.parametrize("fallback", [False, True], ids=["curl", "python3"])
async def test_commands_run_for_real(tmp_path: Path, fallback: bool) -> None:
    folder = write_scripts(tmp_path / "bin", ["directory"])
    path = path_without_curl(tmp_path / "nocurl") if fallback else None
    async with live_gateway() as live:
        seed = await live.seed("cli")
        env = script_env(seed, path)

        ran = await run_command(folder / "directory", "get-manager", "--person", "Owen Bell", env=env)
        assert (ran.status, ran.stderr) == (0, "")
        assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"

        ran = await run_command(folder / "directory", "search-people", "--department=Finance", "--page-size=2", env=env)
        assert ran.status == 0
        page = json.loads(ran.stdout)
        assert page["page_size"] == 2
        assert len(page["results"]) == 2
        assert all(p["department"] == "Finance" for p in page["results"])

        ran = await run_command(folder / "directory", env=env)
        assert ran.status == 0
        assert ran.stdout.startswith("usage: directory <command>")

        ran = await run_command(folder / "directory", "get-person", "--help", env=env)
        assert ran.status == 0
        assert ran.stdout.startswith("usage: directory get-person --person=VALUE\n")

        ran = await run_command(folder / "directory", "get-person", env=env)
        assert ran.status == 2
        assert ran.stdout == ""
        assert ran.stderr.startswith("directory get-person: --person: is required")
        assert "Run 'directory get-person --help' for usage." in ran.stderr

        ran = await run_command(folder / "directory", "get-person", "--persn=x", env=env)
        assert ran.status == 2
        assert "unknown option --persn; valid options: --person" in ran.stderr

        ran = await run_command(folder / "directory", "get-person", "--person=Nobody Atall", env=env)
        assert ran.status == 1
        assert ran.stderr.startswith("directory get-person: --person: no one in the directory matches 'Nobody Atall'")

        for value in AWKWARD:
            ran = await run_command(folder / "company", "complete-task", "--summary", value, env=env)
            assert ran.status == 0, ran.stderr
            assert json.loads(ran.stdout) == {"done": True, "summary": value, "answer": ""}
            ran = await run_command(folder / "company", "complete-task", f"--summary={value}", env=env)
            assert json.loads(ran.stdout)["summary"] == value

        state = (await live.control.get("/task_state", params={"session_id": seed["session_id"]})).json()
        assert state["task_complete"] is True
        assert state["calls"] == 3 + 2 * len(AWKWARD)  # help and usage errors are not calls

        bad = {**env, "COMPANY_API_TOKEN": "not-a-token"}
        ran = await run_command(folder / "directory", "list-departments", env=bad)
        assert ran.status == 1
        assert "access token is missing or not valid" in ran.stderr


async def test_refused_call_exits_1(tmp_path: Path) -> None:
    folder = write_scripts(tmp_path, ["directory"])
    async with live_gateway(close_tools_on_task_end=True) as live:
        env = script_env(await live.seed("cli"))
        assert (await run_command(folder / "company", "complete-task", "--summary=done", env=env)).status == 0
        ran = await run_command(folder / "directory", "list-departments", env=env)
        assert ran.status == 1
        assert ran.stderr == (
            "directory list-departments: the work was already marked complete; no further changes are possible\n"
        )


async def test_unreachable_server_exits_1(tmp_path: Path) -> None:
    folder = write_scripts(tmp_path, ["directory"])
    env = script_env({"company_api_url": "http://127.0.0.1:9/api", "token": "x"})
    ran = await run_command(folder / "directory", "list-departments", env=env)
    assert ran.status == 1
    assert "cannot reach the company API at http://127.0.0.1:9/cli/directory" in ran.stderr


@pytest.mark.parametrize("fallback", [False, True], ids=["curl", "python3"])
async def test_an_answer_that_cannot_be_written_out_says_so_and_that_the_call_went_through(
    tmp_path: Path, fallback: bool
) -> None:
    folder = write_scripts(tmp_path / "bin", ["directory"])
    path = path_without_curl(tmp_path / "nocurl") if fallback else None
    async with live_gateway() as live:
        env = script_env(await live.seed("cli"), path)
        with open("/dev/full", "wb") as full:  # every write fails with ENOSPC
            ran = await run_command(folder / "directory", "get-manager", "--person=Owen Bell", env=env, stdout=full)
        assert ran.status == 1
        assert "directory: the call went through, but its answer could not be written to standard output" in ran.stderr
        assert "No space left on device" in ran.stderr
        assert "cannot reach" not in ran.stderr

        read, write = os.pipe()
        os.close(read)  # stdout's reader is gone before the answer comes, as in `directory ... | head -c0`
        try:
            ran = await run_command(folder / "directory", "get-manager", "--person=Owen Bell", env=env, stdout=write)
        finally:
            os.close(write)
        assert (ran.status, ran.stderr) == (141, "")  # SIGPIPE's status, and not a word, like any other command


@pytest.mark.parametrize("fallback", [False, True], ids=["curl", "python3"])
async def test_commands_go_through_the_unix_socket_when_one_is_named(tmp_path: Path, fallback: bool) -> None:
    folder = write_scripts(tmp_path / "bin", ["directory"])
    path = path_without_curl(tmp_path / "nocurl") if fallback else None
    async with live_gateway(sandbox_provider="none") as live:
        seed = await live.seed("cli")
        # Nothing listens on port 9: an answer can only have come through the socket.
        seed = {**seed, "company_api_url": "http://127.0.0.1:9/api"}
        async with serve_on_unix_socket(live.app) as sock:
            env = {**script_env(seed, path), "COMPANY_API_SOCKET": str(sock)}
            ran = await run_command(folder / "directory", "get-manager", "--person", "Owen Bell", env=env)
            assert (ran.status, ran.stderr) == (0, "")
            assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"

            ran = await run_command(folder / "directory", "get-person", "--persn=x", env=env)
            assert ran.status == 2
            assert "--persn" in ran.stderr

            ran = await run_command(folder / "directory", "list-departments", env={**env, "COMPANY_API_TOKEN": "x"})
            assert ran.status == 1
            assert "access token is missing or not valid" in ran.stderr

        ran = await run_command(folder / "directory", "list-departments", env=env)  # the socket is gone
        assert ran.status == 1
        assert f"cannot reach the company API at http://127.0.0.1:9/cli/directory through {sock}" in ran.stderr
