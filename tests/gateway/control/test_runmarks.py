"""A run's mark tells a killed gateway from a running one (gateway/control/runmarks.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gateway.control.reaping import reapable
from gateway.control.runmarks import RunMark, ended_runs
from sandbox import Sandbox

HOLD = """
import sys, time
from pathlib import Path
from gateway.control.runmarks import RunMark
mark = RunMark(sys.argv[1], 3600.0, Path(sys.argv[2]))
print("held", flush=True)
time.sleep(60)
"""


def _hold(incarnation: str, folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, incarnation, str(folder)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def test_a_killed_runs_mark_is_ended_a_live_one_is_not(tmp_path: Path) -> None:
    live, killed = _hold("run-live", tmp_path), _hold("run-killed", tmp_path)
    try:
        assert ended_runs(tmp_path) == set()  # both hold their lock
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        assert ended_runs(tmp_path) == {"run-killed"}
        assert ended_runs(tmp_path) == {"run-killed"}  # looking does not take the lock for good
    finally:
        for proc in (live, killed):
            proc.kill()
            proc.wait(10)
            assert proc.stdout is not None
            proc.stdout.close()


def test_a_released_mark_is_gone_and_a_stale_one_is_removed(tmp_path: Path) -> None:
    mark = RunMark("run-clean", 10.0, tmp_path)
    assert [p.suffix for p in tmp_path.iterdir()] == [".lock"]
    assert ended_runs(tmp_path) == set()  # held by this process
    mark.release()
    mark.release()
    assert list(tmp_path.iterdir()) == []
    stale = RunMark("run-stale", 10.0, tmp_path)
    os.close(stale._fd)  # as a kill would: the lock goes, the file stays
    stale._fd = None
    assert ended_runs(tmp_path, now=time.time() + 5) == {"run-stale"}
    assert ended_runs(tmp_path, now=time.time() + 11) == set()  # every sandbox it lent has expired by now
    assert list(tmp_path.iterdir()) == []


def test_a_touch_keeps_an_ended_runs_mark_ttl_after_its_newest_lend(tmp_path: Path) -> None:
    mark = RunMark("run-touched", 10.0, tmp_path)
    path = mark.path
    os.utime(path, (time.time() - 100, time.time() - 100))
    mark.touch()
    assert path.stat().st_mtime > time.time() - 5
    os.close(mark._fd)
    mark._fd = None
    assert ended_runs(tmp_path, now=time.time() + 5) == {"run-touched"}


def test_a_sandbox_of_an_ended_run_is_reapable_before_it_expires() -> None:
    later = str(time.time() + 3600)
    of = Sandbox(id="a", provider="local", labels={"incarnation": "run-killed", "expires": later})
    other = Sandbox(id="b", provider="local", labels={"incarnation": "run-live", "expires": later})
    now = time.time()
    assert reapable(of, "me", now, {"run-killed"}) and not reapable(other, "me", now, {"run-killed"})
    assert not reapable(of, "me", now)  # without the mark's word it waits for its expiry
