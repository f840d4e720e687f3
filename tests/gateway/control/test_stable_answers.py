"""Every order of a slow call, /verify and /close_session (each asked twice): each answer is the same every time.

The slow call is a download held at the workspace write, so it holds the session's lock; each step waits
until every request in flight is either done or parked (on the lock or at that write), never for time.
The orderings are enumerated whole (96 of them), not sampled.
"""

import asyncio
import itertools
import secrets

import anyio
import pytest

from gateway import Gateway, Settings
from gateway.control.core import CallRefused
from gateway.control.rows import load_builtin_tasks
from gateway.control.sessions import EndedSessions
from gateway.exceptions import GatewayError, UnknownSession
from sandbox import ExecResult, FileMissing, Provider, Sandbox, SandboxSpec

TASKS = load_builtin_tasks(families=False)  # the hand-written rows (families: tests/gateway/tasks)
BASE = "http://127.0.0.1:1/"
SLOW = ("company_drive_read_file", {"file_id": "file_reading_list"})  # saves the file to the workspace


class HeldWrites(Provider):
    """In-memory sandboxes whose workspace writes wait at ``gate`` once it is cleared."""

    name = "held"

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.writes_waiting = 0
        self.live: set[str] = set()

    async def create(self, spec: SandboxSpec) -> Sandbox:
        sandbox = Sandbox(id=secrets.token_hex(4), provider=self.name, labels=dict(spec.labels))
        self.live.add(sandbox.id)
        return sandbox

    async def exec(self, sandbox, argv, *, timeout_s, cwd=None, env=None, stdin=None) -> ExecResult:
        return ExecResult(1 if argv[:2] == ["test", "-f"] else 0, b"", b"")  # no file is ever there to test

    async def workspace_bytes(self, sandbox: Sandbox, stop_at: int | None = None) -> int:
        return 0  # an empty workspace (the writes are never kept)

    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        self.writes_waiting += 1
        try:
            await self.gate.wait()
        finally:
            self.writes_waiting -= 1

    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        raise FileMissing(path)

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        return None

    async def destroy(self, sandbox: Sandbox) -> None:
        await asyncio.sleep(0)  # a real provider awaits: verify and close hold the lock across it
        self.live.discard(sandbox.id)

    async def list_owned(self) -> list[Sandbox]:
        return []


def orderings() -> list[tuple[str, ...]]:
    """Every distinct order of verify, verify, close, close, with and without a slow call (slow before release)."""
    with_slow = {p for p in itertools.permutations(("slow", "release", "verify", "verify", "close", "close"))
                 if p.index("slow") < p.index("release")}  # fmt: skip
    without = set(itertools.permutations(("verify", "verify", "close", "close")))
    return sorted(with_slow) + sorted(without)


def outcome(task: asyncio.Task) -> tuple[str, object]:
    """A finished request as (HTTP status, body): what a harness would read."""
    exc = task.exception()
    if exc is None:
        return ("200", task.result())
    if isinstance(exc, GatewayError):
        return (str(exc.status_code), {"error": str(exc)})
    if isinstance(exc, CallRefused):
        return ("409", {"error": str(exc)})
    raise exc


def test_the_orderings_are_all_there():
    found = orderings()
    assert len(found) == len(set(found)) == 90 + 6


@pytest.mark.parametrize("order", orderings(), ids="-".join)
async def test_verify_and_close_answer_the_same_every_time_in_every_order(order):
    provider = HeldWrites()
    clock = [0.0]
    gw = Gateway(Settings(seed_slice_s=0, closed_session_ttl_s=60), TASKS, provider)
    gw.ended = EndedSessions(60, 100, clock=lambda: clock[0])
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "mcp", "sandbox": True}, BASE)
    sid, session = info["session_id"], gw.get_session(info["session_id"])
    provider.gate.clear()
    sent: list[tuple[str, asyncio.Task]] = []

    def parked() -> bool:
        pending = sum(not t.done() for _, t in sent)
        held = 0 if provider.gate.is_set() else provider.writes_waiting  # a released write is about to go on
        queued = sum(not w.done() for w in session.lock._waiters or ())  # a woken waiter is about to go on
        return pending == queued + held

    with anyio.fail_after(10):
        for step in order:
            if step == "release":
                provider.gate.set()
            elif step == "slow":
                sent.append((step, asyncio.create_task(gw.call(session, *SLOW))))
            else:
                sent.append((step, asyncio.create_task(gw.verify(sid) if step == "verify" else gw.close(sid))))
            while not parked():
                await asyncio.sleep(0)
        provider.gate.set()
        await asyncio.wait([t for _, t in sent])

    verdicts = [outcome(t) for step, t in sent if step == "verify"]
    closes = [outcome(t) for step, t in sent if step == "close"]
    for _ in range(2):  # retries, after everything settled
        for step, ask in (("verify", gw.verify(sid)), ("close", gw.close(sid))):
            task = asyncio.create_task(ask)
            await asyncio.wait([task])
            (verdicts if step == "verify" else closes).append(outcome(task))

    # the defined answer: graded if the first verify came before the first close, else 409 every time
    if order.index("verify") < order.index("close"):
        assert verdicts[0][0] == "200" and verdicts[0][1]["session_id"] == sid
        assert verdicts[0][1]["reward"] == 0.0 and verdicts[0][1]["mask_sample"] is False
    else:
        assert verdicts[0] == ("409", {"error": f"session {sid!r} was closed without being verified; "
                                                "there is nothing left to grade"})  # fmt: skip
    assert verdicts == [verdicts[0]] * 4
    assert closes == [("200", {"session_id": sid, "closed": True})] * 4
    state = gw.task_state(sid)
    assert state["status"] == "closed"
    assert state["verify_result"] == (verdicts[0][1] if verdicts[0][0] == "200" else None)

    if "slow" in order:
        slow = outcome(next(t for step, t in sent if step == "slow"))
        first_end = min(order.index("verify"), order.index("close"))
        if order.index("slow") < first_end:  # it held the lock: done before either touched the session
            assert slow == ("200", {**slow[1], "saved_to": "downloads/Reading list.txt"})
            assert state["calls"] == 1 and state["last_call"]["ok"] is True
        else:
            assert slow == ("409", {"error": "this session is no longer open; no further changes are possible"})
    assert provider.live == set() and gw.admission.held == 0 and len(gw.store) == 0

    clock[0] += 60  # forgotten: every retry now gets the same 404
    for ask in (gw.verify(sid), gw.close(sid), gw.verify(sid)):
        with pytest.raises(UnknownSession) as err:
            await ask
        assert err.value.status_code == 404


def test_a_json_copy_shares_no_container_with_its_original():
    from gateway.control.sessions import json_copy

    original = {"a": [1, 2.5, {"b": None, "c": [True, "x"]}], "d": {"e": {}}, "f": "text"}
    twin = json_copy(original)
    assert twin == original
    twin["a"][2]["c"].append("y")
    twin["d"]["e"]["new"] = 1
    assert original == {"a": [1, 2.5, {"b": None, "c": [True, "x"]}], "d": {"e": {}}, "f": "text"}
