"""Proving a task's grader: every policy it must pass, played in process through one exposure.

For a task and an exposure: the reference solution (and each alternative) must score 1.0, doing
nothing 0.0, each of the row's negative controls 0.0, and the generated controls
(:mod:`gateway.control.controls`) as each requires (a control may count an app's refusal as its 0.0).
Each play seeds a session on an in-process :class:`~gateway.control.core.Gateway`, calls its tools as
the exposure would (a sandbox is lent for ``cli`` and ``http``), verifies and closes it.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context, util
from pathlib import Path
from typing import Any

from gateway.control.controls import generate_controls
from gateway.control.core import Gateway
from gateway.control.rows import Step, Task
from gateway.control.sessions import Session
from gateway.control.worlds import lint_task
from gateway.exceptions import TaskError
from gateway.runners.policies import Caller, Shell, StepFailed, run_steps, sandbox_shell, tool_name
from sandbox import Sandbox
from sandbox.local import WarmLocalProvider
from tools import AppError, World

__all__ = ["MAX_TRIES", "Proof", "beyond", "prove_in_processes", "prove_task"]

#: Most variants of one generated control played (each must score what the control requires).
MAX_TRIES = 6


@dataclass(frozen=True)
class Proof:
    """One policy's result on one task and exposure.

    Attributes:
        task_id: The task.
        exposure: ``mcp``, ``cli`` or ``http``.
        policy: ``oracle``, ``oracle:<n>`` (alternative n), ``noop``, ``control:<name>`` or ``generated:<name>``.
        expected: The reward the policy must get.
        reward: The reward it got (None when it did not run, e.g. a step failed).
        passed: Whether it got what it must (or, for a generated control, did not apply and the row says why).
        detail: The failing checks, the failed step, or why the control does not apply.
    """

    task_id: str
    exposure: str
    policy: str
    expected: float
    reward: float | None
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class _Prefix:
    """A session as it stood after the first steps a control's candidates share: what each candidate forks.

    Attributes:
        steps: How many of a candidate's steps it played.
        world: A fork of the session's world after them (:meth:`~tools.kernel.world.World.fork`), never written.
        variables: What those steps saved.
        calls: The session's bookkeeping after them (:class:`~gateway.control.sessions.Session`): ``calls``,
            ``call_log``, ``last_call``, ``written_chars``, ``task_complete`` and ``status``.
    """

    steps: int
    world: World
    variables: dict[str, Any]
    calls: int
    call_log: list[dict[str, Any]]
    last_call: dict[str, Any] | None
    written_chars: int
    task_complete: bool
    status: str
    #: The workspace's files and folders after them (a sandboxed session's), else None.
    files: _Files | None = None


@dataclass(frozen=True)
class _Play:
    reward: float
    error: str | None
    final: dict[str, Any]
    checks: list[dict[str, Any]]
    variables: dict[str, Any]
    #: The session after its first ``keep`` steps (:func:`_play`), if they ran cleanly.
    prefix: _Prefix | None = None


def _caller(gateway: Gateway, session: Session, exposure: str) -> Caller:
    async def call(step_tool: str, args: dict[str, Any]) -> Any:
        try:
            return await gateway.call(session, tool_name(step_tool), args, surface=exposure)
        except AppError as exc:
            raise StepFailed(str(exc)) from None

    return call


async def _play(
    gateway: Gateway,
    task: Task,
    exposure: str,
    steps: list[Step],
    *,
    final: bool = False,
    grade_failed: bool = True,
    start: _Prefix | None = None,
    keep: int = 0,
) -> _Play:
    """Seed, play ``steps``, verify and close; ``final``: keep the world's last snapshot (else ``{}``: it costs).

    ``grade_failed=False``: a play whose step failed is closed unverified (reward 0.0, no checks): a generated
    control's candidate that does not run cleanly proves nothing, and its grade would cost a third of the play.
    ``start``: the session goes on from a fork of that prefix's (world, counters, workspace files), and only the steps
    after it are played: what a replay from the seed would give, at the cost of the rest alone. ``keep``: fork the
    session after its first ``keep`` steps, if they ran cleanly (:func:`_fork`), and answer it as ``prefix``.
    """
    seed = await gateway.seed({"task_id": task.id, "exposure": exposure}, "http://127.0.0.1:1/")
    session = gateway.get_session(seed["session_id"])
    variables: dict[str, Any] = {}
    if start is not None:
        if not await _resume(gateway, session, start):  # its workspace could not be made the prefix's: replay whole
            await gateway.close(seed["session_id"])
            return await _play(gateway, task, exposure, steps, final=final, grade_failed=grade_failed)
        variables, steps = copy.deepcopy(start.variables), steps[start.steps :]
    shell = None
    if session.sandbox is not None and gateway.provider is not None:
        shell = sandbox_shell(gateway.provider, session.sandbox)
        if isinstance(gateway.provider, WarmLocalProvider) and gateway.provider.isolated:
            shell = _SHELL_RUNS.replay(shell, gateway.provider, session.sandbox, lambda: session.calls)
    error = None
    prefix = None
    call = _caller(gateway, session, exposure)
    try:
        if keep:
            await run_steps(steps[:keep], call, variables, shell)
            prefix = await _fork(gateway, session, keep, variables)
            steps = steps[keep:]
        await run_steps(steps, call, variables, shell)
    except (StepFailed, TaskError) as exc:  # a failed call, or a saved path the answer did not have
        error = str(exc)
    last = session.world.snapshot() if final else {}
    if error is not None and not grade_failed:
        await gateway.close(seed["session_id"])
        return _Play(0.0, error, last, [], variables, prefix)
    verdict = await gateway.verify(seed["session_id"])
    await gateway.close(seed["session_id"])
    return _Play(verdict["reward"], error, last, verdict["checks"], variables, prefix)


async def _fork(gateway: Gateway, session: Session, steps: int, variables: dict[str, Any]) -> _Prefix | None:
    """What a candidate sharing the session's first ``steps`` forks, else None.

    None for a failed session, or a sandboxed one whose workspace cannot be copied (not a local provider's, or
    holding anything but regular files and folders).
    """
    if session.failure is not None:
        return None
    files = None
    if session.sandbox is not None:
        if not isinstance(gateway.provider, WarmLocalProvider):
            return None
        files = await asyncio.to_thread(_workspace_files, gateway.provider.host_workspace(session.sandbox))
        if files is None:
            return None
    last = dict(session.last_call) if session.last_call else None
    return _Prefix(
        steps, session.world.fork(), copy.deepcopy(variables), session.calls, list(session.call_log), last,
        session.written_chars, session.task_complete, session.status, files,
    )  # fmt: skip


async def _resume(gateway: Gateway, session: Session, prefix: _Prefix) -> bool:
    """Make a freshly seeded ``session`` what the prefix's session was after its steps; False when it cannot.

    The session gets its own fork of the prefix's world and counters, and its workspace the prefix's files (written
    as a shell step's are replayed). False, the world untouched, when the workspace cannot be made the same.
    """
    if (prefix.files is None) != (session.sandbox is None):
        return False
    if session.sandbox is not None and prefix.files is not None:
        if not isinstance(gateway.provider, WarmLocalProvider):
            return False
        folder = gateway.provider.host_workspace(session.sandbox)
        now = await asyncio.to_thread(_workspace_files, folder)
        if now is None or any(rel not in prefix.files for rel in now):
            return False  # a file the prefix did not have (a fresh seed's workspace holds only what every seed's does)
        wrote = _wrote(now, prefix.files)
        if wrote is None:
            return False  # an empty folder or a folder's mode: not what write_files makes
        for mode in sorted({mode for mode, _ in wrote.values()}):
            await gateway.provider.write_files(
                session.sandbox, {p: d for p, (m, d) in wrote.items() if m == mode}, mode
            )
        after = await asyncio.to_thread(_workspace_files, folder)
        if after is None or _digest(after) != _digest(prefix.files):
            return False
    session.world = prefix.world.fork()
    session.calls, session.call_log = prefix.calls, list(prefix.call_log)
    session.last_call = dict(prefix.last_call) if prefix.last_call else None
    session.written_chars, session.task_complete, session.status = (
        prefix.written_chars, prefix.task_complete, prefix.status,
    )  # fmt: skip
    return True


def _shared_steps(candidates: list[list[Step]]) -> int:
    """How many first steps every candidate shares, leaving each at least one of its own (0: fewer than two)."""
    if len(candidates) < 2:
        return 0
    most = min(len(c) for c in candidates) - 1
    n = 0
    while n < most and all(c[n] == candidates[0][n] for c in candidates[1:]):
        n += 1
    return n


class _Prefixes:
    """The prefixes forked for one task and exposure, by their steps (None: a candidate replays whole).

    A prefix is forked from the first candidate that plays it (:func:`_play`'s ``keep``): no play of its own.
    """

    def __init__(self) -> None:
        self._known: dict[str, _Prefix | None] = {}

    def start(self, steps: list[Step]) -> tuple[_Prefix | None, int]:
        """``(prefix, keep)`` for a candidate's play that begins with ``steps``: go on from the prefix, or keep one."""
        if not steps:
            return None, 0
        key = _key(steps)
        if key in self._known:
            return self._known[key], 0
        return None, len(steps)

    def keep(self, steps: list[Step], prefix: _Prefix | None) -> None:
        """Remember what the play that began with ``steps`` forked (None: its first steps failed; replay whole)."""
        self._known.setdefault(_key(steps), prefix)


def _key(steps: list[Step]) -> str:
    return json.dumps([s.model_dump(mode="json") for s in steps], sort_keys=True)


@dataclass(frozen=True)
class _ShellRun:
    """What one shell step did: the files it wrote (``{path: (mode, bytes)}``) and its result or error."""

    wrote: dict[str, tuple[int, bytes]]
    result: dict[str, Any]
    error: str | None


class _ShellRuns:
    """Shell steps already run in this process, replayed when the same command meets the same workspace.

    A document task's plays run the same script on the same downloaded files again and again (the reference,
    then most controls): ``python3`` with a document library costs ~0.2 s a run. A command's effect is a
    function of its command line and the workspace's files when it made no app call (the proof's sandboxes
    reach no API) and only wrote regular files (no file or folder removed, no link, no empty folder made):
    such a run is recorded, and a later play of the same command on byte-identical files gets the same files
    written and the same result (or failure), without running it. Anything else runs every time, and so does a
    command that timed out or was killed (on a busy machine: it may not recur). Only under bubblewrap, where a
    command's ``/tmp`` is its own: without it, a command could leave files outside the workspace for the next.
    """

    def __init__(self, kept: int = 512) -> None:
        self._runs: dict[tuple[str, str], _ShellRun] = {}
        self._kept = kept

    def replay(self, shell: Shell, provider: WarmLocalProvider, sandbox: Sandbox, calls: Callable[[], int]) -> Shell:
        """``shell``, answering from the runs recorded here where it can (``calls()``: the session's call count)."""
        folder = provider.host_workspace(sandbox)

        async def run(command: str) -> dict[str, Any]:
            before = await asyncio.to_thread(_workspace_files, folder)
            key = (command, _digest(before)) if before is not None else None
            known = self._runs.get(key) if key else None
            if known is not None:
                for mode in sorted({mode for mode, _ in known.wrote.values()}):
                    same = {path: data for path, (m, data) in known.wrote.items() if m == mode}
                    await provider.write_files(sandbox, same, mode)
                if known.error is not None:
                    raise StepFailed(known.error)
                return dict(known.result)
            made = calls()
            result: dict[str, Any] | None = None
            error: str | None = None
            transient = False
            try:
                result = await shell(command)
            except StepFailed as exc:
                error, transient = str(exc), exc.transient
            after = await asyncio.to_thread(_workspace_files, folder)
            done = not transient and calls() == made  # a timeout may not recur
            if key and done and after is not None and (wrote := _wrote(before or {}, after)) is not None:
                if len(self._runs) >= self._kept:
                    del self._runs[next(iter(self._runs))]
                self._runs[key] = _ShellRun(wrote, result or {}, error)
            if error is not None:
                raise StepFailed(error)
            assert result is not None
            return result

        return run


#: Files and folders of a workspace: ``{relative path: (mode, bytes)}``, folders with bytes None.
_Files = dict[str, tuple[int, bytes | None]]


def _workspace_files(folder: Path) -> _Files | None:
    """Every regular file and folder under ``folder``; None for a link, a fifo or anything it cannot read."""
    try:
        return _walk(folder)
    except OSError:
        return None


def _walk(folder: Path) -> _Files | None:
    out: _Files = {}

    def fail(exc: OSError) -> None:
        raise exc

    for root, dirs, files in os.walk(folder, onerror=fail):
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, folder)
            if stat.S_ISDIR(st.st_mode):
                out[rel] = (stat.S_IMODE(st.st_mode), None)
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    out[rel] = (stat.S_IMODE(st.st_mode), f.read())
            else:
                return None
    return out


def _digest(files: _Files) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        mode, data = files[rel]
        h.update(f"{rel}\0{mode}\0{-1 if data is None else len(data)}\0".encode())
        h.update(data or b"")
    return h.hexdigest()


def _wrote(before: _Files, after: _Files) -> dict[str, tuple[int, bytes]] | None:
    """The files a run wrote, or None when it did more than write files (removed one, made an empty folder)."""
    if any(rel not in after for rel in before):
        return None
    wrote = {
        rel: (mode, data) for rel, (mode, data) in after.items() if data is not None and before.get(rel) != (mode, data)
    }
    for rel, (_mode, data) in after.items():
        if rel in before and (data is None) != (before[rel][1] is None):
            return None  # a folder became a file or a file a folder
        if data is None and rel not in before and not any(w.startswith(rel + os.sep) for w in wrote):
            return None  # a new folder with nothing written in it
        if data is None and rel in before and before[rel] != after[rel]:
            return None  # a folder's mode changed
    return wrote


#: This process's recorded shell runs.
_SHELL_RUNS = _ShellRuns()


def beyond(initial: dict[str, Any], reference: dict[str, Any], final: dict[str, Any]) -> bool:
    """Whether ``final`` holds a change the reference did not make.

    That is another record, a field the reference left alone, or another item in a list (another
    principal, another role).

    Other values of the very fields the reference set (a reworded subject, the same file uploaded again)
    are not counted: they are a different way to do what was asked, not more than was asked.
    """
    for app in set(final) | set(reference):
        for coll in set(final.get(app, {})) | set(reference.get(app, {})):
            mine, theirs = final.get(app, {}).get(coll, {}), reference.get(app, {}).get(coll, {})
            before = initial.get(app, {}).get(coll, {})
            if set(mine) != set(theirs):
                return True
            for rid, rec in mine.items():
                ref, old = theirs[rid], before.get(rid)
                if rec == ref:
                    continue
                for key in set(rec) | set(ref):
                    a, b = rec.get(key), ref.get(key)
                    if a == b:
                        continue
                    if isinstance(a, list) and isinstance(b, list):
                        if any(item not in b for item in a) or any(item not in a for item in b):
                            return True
                    elif old is not None and b == old.get(key):
                        return True  # a field the reference did not touch
    return False


def _failing(play: _Play) -> str:
    failed = [f"{c['name']}: {c['detail']}" for c in play.checks if not c["passed"]]
    return "; ".join(failed)[:500]


async def prove_task(gateway: Gateway, task: Task, exposure: str) -> list[Proof]:
    """Play every policy the task must pass through ``exposure``; one :class:`Proof` per policy.

    Args:
        gateway: An in-process gateway serving ``task`` (a sandbox provider for ``cli`` and ``http``).
        task: The task to prove.
        exposure: ``mcp``, ``cli`` or ``http``.

    Returns:
        Proofs in order: references, noop, the row's negative controls, the generated controls; or one
        failed ``lint`` proof when the row's grader cannot be right (:func:`~gateway.control.rows.lint_task`).
    """
    out: list[Proof] = []
    try:  # a row whose checks already pass, or that names missing records, is refused before any play
        lint_task(task, task.id, gateway._template(task))
    except TaskError as exc:
        return [Proof(task.id, exposure, "lint", 1.0, None, False, str(exc))]

    def record(policy: str, expected: float, play: _Play | None, passed: bool, detail: str = "") -> None:
        out.append(Proof(task.id, exposure, policy, expected, play.reward if play else None, passed, detail))

    references = [task.solution, *task.alternative_solutions]
    reference_final: dict[str, Any] | None = None
    variables: dict[str, Any] = {}
    for n, steps in enumerate(references):
        play = await _play(gateway, task, exposure, steps, final=n == 0)
        if n == 0:
            reference_final, variables = play.final, play.variables
        ok = play.error is None and play.reward == 1.0
        record("oracle" if n == 0 else f"oracle:{n}", 1.0, play, ok, play.error or _failing(play))
    play = await _play(gateway, task, exposure, [])
    record("noop", 0.0, play, play.reward == 0.0, _failing(play) if play.reward else "")
    for control in task.negative_controls:
        play = await _play(gateway, task, exposure, control.steps)
        ok = play.error is None and play.reward == 0.0
        why = play.error or ("scored 1.0: " + _failing(play) if play.reward else "")
        record(f"control:{control.name}", 0.0, play, ok, why)
    template = gateway._template(task)
    prefixes = _Prefixes()  # first steps candidates share, played once
    for generated in generate_controls(task, template.snapshot, template.user, variables):
        policy = f"generated:{generated.name}"
        excused = task.no_controls.get(generated.name)
        if not generated.candidates:
            record(policy, generated.reward, None, True, generated.why)
            continue
        tried = refused = 0
        shared = _shared_steps(generated.candidates)
        for steps in generated.candidates:
            start, keep = prefixes.start(steps[:shared])
            over = generated.name == "over_reach"
            play = await _play(gateway, task, exposure, steps, final=over, grade_failed=False, start=start, keep=keep)
            if keep:
                prefixes.keep(steps[:shared], play.prefix)
            if play.error is not None and generated.refused_by and generated.refused_by in play.error:
                tried, refused = tried + 1, refused + 1  # the app refused the trick: it did no harm
                if tried >= MAX_TRIES:
                    break
                continue
            if play.error is not None:
                continue
            if generated.name == "over_reach" and not beyond(template.snapshot, reference_final or {}, play.final):
                continue  # nothing more than the reference did (or only other values of what it set): proves nothing
            tried += 1
            if play.reward != generated.reward:
                extra = [json.dumps(s.model_dump(mode="json")) for s in steps if s not in task.solution]
                detail = f"scored {play.reward}: {_failing(play)}" + (f" with {'; '.join(extra)}" if extra else "")
                record(policy, generated.reward, play, False, detail[:800])
                break
            if tried >= MAX_TRIES or generated.fallback:  # fallbacks: the first that runs cleanly is the control
                break
        else:
            if not tried:
                detail = excused or "no candidate ran cleanly and changed the world; say why in the row's no_controls"
                record(policy, generated.reward, None, excused is not None, detail)
                continue
        if tried and (not out or out[-1].policy != policy):
            how = f" ({refused} refused by the app)" if refused else ""
            record(policy, generated.reward, None, True, f"{tried} variant(s) scored {generated.reward}{how}")
    return out


#: Task-and-exposure pairs one worker proves before reporting back (the progress bar's step), and at once.
_CHUNK = 4
_IN_FLIGHT = 4
#: The tasks a worker process proves, inherited from the parent at fork (never pickled per job).
_TASKS: dict[str, Task] = {}
_GATEWAY: list[Gateway] = []


def _worker_gateway() -> Gateway:
    """This process's in-process gateway (made on first use) over :data:`_TASKS`, with local sandboxes."""
    if not _GATEWAY:
        from gateway.control.workspace import sandbox_tools
        from gateway.settings import Settings

        root = Path(tempfile.mkdtemp(prefix="prove-"))
        util.Finalize(None, shutil.rmtree, args=(root,), kwargs={"ignore_errors": True}, exitpriority=10)
        # no seed slice and no CPU share: this gateway serves no one else, so a seed need not wait 10 ms for others'
        # turn (it did for every play: ~13 per pair), nor a play's call for the share its earlier calls spent
        settings = Settings(seed_slice_s=0.0, session_cpu_share=0.0)
        provider = WarmLocalProvider(root, owner=f"prove-{os.getpid()}", tools=sandbox_tools(settings))
        _GATEWAY.append(Gateway(settings, _TASKS, provider))
    return _GATEWAY[0]


def _prove_chunk(pairs: list[tuple[str, str]]) -> list[Proof]:
    """Prove each (task id, exposure) pair in this process, :data:`_IN_FLIGHT` at a time."""
    gateway = _worker_gateway()

    async def run() -> list[Proof]:
        gate = asyncio.Semaphore(_IN_FLIGHT)  # a sandboxed play waits on its sandbox; others run meanwhile

        async def one(tid: str, exposure: str) -> list[Proof]:
            async with gate:
                return await prove_task(gateway, _TASKS[tid], exposure)

        results = await asyncio.gather(*(one(t, e) for t, e in pairs))
        return [p for r in results for p in r]

    return asyncio.run(run())


def prove_in_processes(tasks: list[Task], pairs: list[tuple[str, str]], jobs: int) -> Iterator[list[Proof]]:
    """Prove (task id, exposure) pairs over ``jobs`` worker processes; yields each finished chunk's proofs.

    Workers are forked from this process, so the tasks and the companies already built are shared, not
    copied by hand; each worker serves its own in-process gateway with its own local sandboxes. With
    ``jobs`` 1 everything runs in this process.

    Args:
        tasks: The tasks the pairs name.
        pairs: ``(task id, exposure)`` to prove, in order.
        jobs: Worker processes (1 or more).
    """
    _TASKS.clear()
    _TASKS.update({t.id: t for t in tasks})
    chunks = [pairs[i : i + _CHUNK] for i in range(0, len(pairs), _CHUNK)]
    if jobs == 1:
        for chunk in chunks:
            yield _prove_chunk(chunk)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        pending: set[Future[list[Proof]]] = set()
        todo = iter(chunks)
        for chunk in todo:
            pending.add(pool.submit(_prove_chunk, chunk))
            if len(pending) >= jobs * 2:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(pool.submit(_prove_chunk, nxt))
