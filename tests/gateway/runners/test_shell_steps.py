"""Shell steps: a reference solution or a control runs a command line in the session's sandbox."""

import asyncio

import pytest

from gateway import Gateway, Settings
from gateway.control.rows import Step, Task
from gateway.exceptions import TaskError
from gateway.runners.policies import StepFailed, run_steps
from gateway.runners.prove import prove_task
from sandbox.local import LocalProvider

_CHECK = {
    "name": "computed_file_filed", "kind": "record", "app": "drive", "collection": "files", "new": True, "count": 1,
    "where": {"name": "answer.txt", "parent_id": "fld_invoices", "blob": {"text": {"contains": "answer 42"}}},
}  # fmt: skip
_UPLOAD = {"tool": "drive.upload_file", "args": {"path": "out/answer.txt", "parent_id": "fld_invoices"}}


def _task(solution: list[dict], controls: list[dict] | None = None, exposure: str = "cli") -> Task:
    return Task.model_validate({
        "id": "shell-step-demo", "instruction": "Work out six times seven and file it in Finance > Invoices.",
        "apps": ["drive"], "exposure": exposure, "checks": [_CHECK],
        "allowed_changes": [{"app": "drive", "collection": "files", "kinds": ["add"],
                             "where": {"parent_id": "fld_invoices", "name": "answer.txt"}}],
        "solution": solution, "negative_controls": controls or [],
        "no_controls": {"typed_file": "the file is computed in the workspace, not moved"},
    })  # fmt: skip


def test_a_shell_step_parses_from_its_short_form_and_dumps_back_to_it():
    step = Step.model_validate({"shell": "python3 totals.py", "save": {"out": "stdout"}})
    assert step.is_shell and step.tool == "shell" and step.shell == "python3 totals.py"
    short = {"shell": "python3 totals.py", "save": {"out": "stdout"}}
    assert step.model_dump(mode="json", exclude_defaults=True) == short
    assert not Step.model_validate({"tool": "complete_task"}).is_shell


@pytest.mark.parametrize(
    ("row", "says"),
    [
        ({}, "needs 'tool'"),
        ({"shell": "   "}, "needs 'tool'"),
        ({"tool": "complete_task", "shell": "ls"}, "not both"),
        ({"shell": "ls", "args": {"x": 1}}, "takes no 'args'"),
    ],
)
def test_a_step_without_a_tool_or_a_command_or_with_both_is_refused(row, says):
    with pytest.raises(ValueError, match=says):
        Step.model_validate(row)


def test_run_steps_sends_shell_steps_to_the_shell_and_saves_their_output():
    seen: list[tuple[str, object]] = []

    async def call(tool, args):
        seen.append((tool, args))
        return {"ok": True}

    async def shell(command):
        seen.append(("$", command))
        return {"stdout": "42\n", "stderr": "", "exit_code": 0}

    steps = [Step.model_validate(s) for s in (
        {"shell": "echo $((6*7))", "save": {"n": "stdout"}},
        {"shell": "echo got {n}"},
        {"tool": "complete_task", "args": {"summary": "n={n}"}},
    )]  # fmt: skip
    played = asyncio.run(run_steps(steps, call, shell=shell))
    assert played == 3
    assert seen == [("$", "echo $((6*7))"), ("$", "echo got 42\n"), ("complete_task", {"summary": "n=42\n"})]


def test_a_shell_step_without_a_sandbox_fails_the_play_with_a_clear_error():
    async def call(tool, args):
        raise AssertionError("not called")

    with pytest.raises(StepFailed, match="no sandbox to run commands in"):
        asyncio.run(run_steps([Step(shell="ls")], call))
    with pytest.raises(TaskError, match="before saving it"):
        asyncio.run(run_steps([Step(shell="echo {nothing}")], call, shell=call))  # type: ignore[arg-type]


@pytest.mark.parametrize("exposure", ["cli", "http"])
def test_a_reference_that_computes_a_file_in_the_sandbox_proves(exposure, tmp_path):
    solution = [
        {"shell": "mkdir -p out && python3 -c 'print(6 * 7)'", "save": {"n": "stdout"}},
        {"shell": "printf 'answer %s\\n' {n} > out/answer.txt && cat out/answer.txt"},
        _UPLOAD,
    ]
    wrong = [{"shell": "mkdir -p out && echo 'answer 41' > out/answer.txt"}, _UPLOAD]
    task = _task(solution, [{"name": "wrong-product", "steps": wrong}], exposure)
    provider = LocalProvider(tmp_path / "ws", owner="test")
    gateway = Gateway(Settings(), {task.id: task}, provider)
    proofs = {p.policy: p for p in asyncio.run(prove_task(gateway, task, exposure))}
    assert proofs["oracle"].passed and proofs["oracle"].reward == 1.0, proofs["oracle"].detail
    assert proofs["control:wrong-product"].passed and proofs["control:wrong-product"].reward == 0.0
    assert proofs["noop"].reward == 0.0


def test_a_failing_shell_step_fails_the_reference_with_its_exit_status_and_stderr(tmp_path):
    task = _task([{"shell": "echo 'no such sheet' >&2; exit 3"}, _UPLOAD])
    provider = LocalProvider(tmp_path / "ws", owner="test")
    oracle = asyncio.run(prove_task(Gateway(Settings(), {task.id: task}, provider), task, "cli"))[0]
    assert oracle.policy == "oracle" and not oracle.passed
    assert "exit 3: no such sheet" in oracle.detail


def test_a_shell_step_on_a_session_without_a_sandbox_fails_the_reference():
    task = _task([{"shell": "true"}, _UPLOAD], exposure="mcp")
    oracle = asyncio.run(prove_task(Gateway(Settings(), {task.id: task}, None), task, "mcp"))[0]
    assert not oracle.passed and "no sandbox" in oracle.detail


def test_the_scripted_model_types_a_shell_step_as_its_own_command_and_reads_its_output_back():
    from gateway.runners.model.script import Turn, next_reply

    steps = [Step(shell="python3 -c 'print(6 * 7)'", save={"n": "stdout"}),
             Step(tool="complete_task", args={"summary": "{n}"})]  # fmt: skip
    first = next_reply(Turn(user=["Reply with one ```bash block."]), steps, "cli")
    assert isinstance(first, str) and "```bash\npython3 -c 'print(6 * 7)'\n```" in first
    second = next_reply(Turn(user=["Reply with one ```bash block.", "42"], replies=1), steps, "cli")
    assert isinstance(second, str) and "company complete-task --summary=42" in second


def test_a_shell_step_met_again_on_the_same_files_is_replayed_not_run(tmp_path):
    from gateway.runners import prove
    from gateway.runners.policies import sandbox_shell
    from sandbox import SandboxSpec
    from sandbox.local import WarmLocalProvider

    provider = WarmLocalProvider(tmp_path, owner="t", tools=None)
    runs = prove._ShellRuns()
    ran: list[str] = []

    calls_made = [0]  # the session's call count, as the replay reads it
    calling = [False]  # whether a run calls an app (moves the count)

    async def play(command: str, files: dict[str, bytes]) -> tuple[dict, dict[str, bytes]]:
        sb = await provider.create(SandboxSpec(labels={}, env={}, network="none"))
        await provider.write_files(sb, files)
        inner = sandbox_shell(provider, sb)

        async def counted(cmd: str) -> dict:
            ran.append(cmd)
            calls_made[0] += calling[0]
            return await inner(cmd)

        try:
            result = await runs.replay(counted, provider, sb, lambda: calls_made[0])(command)
        except StepFailed as exc:
            result = {"error": str(exc)}
        folder = provider.host_workspace(sb)
        seen = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
        await provider.destroy(sb)
        return result, seen

    make = "mkdir -p out && tr a-z A-Z < in.txt > out/up.txt && echo made"
    first = asyncio.run(play(make, {"in.txt": b"abc"}))
    again = asyncio.run(play(make, {"in.txt": b"abc"}))
    other = asyncio.run(play(make, {"in.txt": b"xyz"}))
    assert first == again and first[1]["out/up.txt"] == b"ABC" and first[0]["stdout"] == "made"
    assert other[1]["out/up.txt"] == b"XYZ"
    assert ran == [make, make]  # the second play on the same bytes was replayed

    ran.clear()
    failing = "echo half > part.txt && exit 3"
    one, two = asyncio.run(play(failing, {})), asyncio.run(play(failing, {}))
    assert one == two and "exit 3" in one[0]["error"] and one[1] == {"part.txt": b"half\n"}
    assert ran == [failing]  # a failure replays too: same error, same files

    ran.clear()
    killed = "echo half > part.txt && kill -9 $$"  # killed (as by a timeout on a busy machine): may not recur
    one, two = asyncio.run(play(killed, {})), asyncio.run(play(killed, {}))
    assert "exit 137" in one[0]["error"] and ran == [killed, killed]

    # a folder that became a file (rmdir out && echo x > out) is not replayable: it could not be written back
    assert prove._wrote({"out": (0o755, None)}, {"out": (0o644, b"x\n")}) is None

    ran.clear()
    removes = "rm in.txt"
    asyncio.run(play(removes, {"in.txt": b"abc"}))
    asyncio.run(play(removes, {"in.txt": b"abc"}))
    assert ran == [removes, removes]  # a run that removed a file is not recorded

    ran.clear()
    calling[0] = True
    asyncio.run(play("echo hi > a.txt", {}))
    asyncio.run(play("echo hi > a.txt", {}))
    assert ran == ["echo hi > a.txt", "echo hi > a.txt"]  # the session's call count moved: an app was called
