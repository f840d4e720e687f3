"""What the number of task rows costs the commands: stats, serve start to first seed, RSS, a seed, the full proof.

    python -m bench.rows                        # stats and serve, rows built (cache off) and from the row cache
    python -m bench.rows --prove-sample         # and prove gen-1's seeds 0-2 of every family: CPU per pair
    python -m bench.rows --prove                # and `tasks prove --exposure own --jobs 2` over every instance
    python -m bench.rows --seeds 18             # GATEWAY_TASKS_SEEDS=18 (52 families x 11 x 18 = 10,296 rows)
    python -m bench.rows --tree /tmp/main-tree  # the same commands run from another tree (e.g. `git archive main`)

Every command runs in a fresh process (``python -m gateway.runners.cli ...``) with this interpreter; ``--tree``
puts that tree first on ``PYTHONPATH``. Prints one JSON object: wall seconds and CPU seconds (user + system
of the command's processes) of ``tasks --stats``; for ``serve``, seconds from the process's start to the
first seed's answer and the CPU seconds the server used by then (the figure to read on a busy machine), the
server's RSS then (MiB), and the median of 20 seeds of other family instances (ms,
each the first seed of its task, so its world is built); and the proof's wall seconds and pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any

_SERVING = re.compile(r"serving (http://\S+) ")


def _env(args: argparse.Namespace, cache: bool) -> dict[str, str]:
    env = {**os.environ, "GATEWAY_ROWS_CACHE": "on" if cache else "off"}
    if args.seeds:
        env["GATEWAY_TASKS_SEEDS"] = str(args.seeds)
    if args.tree:
        env["PYTHONPATH"] = args.tree + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _cli(args: argparse.Namespace, cache: bool, *argv: str) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one command in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "gateway.runners.cli", *argv], env=_env(args, cache), cwd=args.tree or None,
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def stats(args: argparse.Namespace, cache: bool) -> dict[str, Any]:
    """``tasks --stats``: wall and CPU seconds, and the rows it counted."""
    if cache:
        _cli(args, True, "tasks", "--stats")  # fill the row cache first
    wall, cpu, out = _cli(args, cache, "tasks", "--stats")
    return {"rows": json.loads(out)["tasks"], "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return dict(json.loads(answer.read()))


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return round(kb / 1024, 1)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used so far (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)


def serve(args: argparse.Namespace, cache: bool, task_ids: list[str]) -> dict[str, Any]:
    """``serve``: start to the first seed's answer, RSS after it, the median of 20 seeds of other instances."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.runners.cli", "serve", "--port", "0"], env=_env(args, cache),
        cwd=args.tree or None, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        base = ""
        for line in proc.stdout:
            if m := _SERVING.search(line):
                base = m.group(1)
                break
        listening = time.perf_counter() - started
        first = _post(base + "/seed_session", {"task_id": task_ids[0]})
        to_first = time.perf_counter() - started
        cpu_first = _cpu_s(proc.pid)
        _post(base + "/close_session", {"session_id": first["session_id"]})
        rss = _rss_mib(proc.pid)
        times = []
        for tid in task_ids[1:21]:
            began = time.perf_counter()
            seeded = _post(base + "/seed_session", {"task_id": tid})
            times.append((time.perf_counter() - began) * 1000)
            _post(base + "/close_session", {"session_id": seeded["session_id"]})
        return {"listening_s": round(listening, 2), "first_seed_s": round(to_first, 2),
                "cpu_to_first_seed_s": cpu_first, "rss_mib": rss,
                "seed_ms_median": round(statistics.median(times), 1), "seed_ms_max": round(max(times), 1)}  # fmt: skip
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def prove(args: argparse.Namespace) -> dict[str, Any]:
    """``tasks prove --exposure own --jobs 2`` over every family instance: wall seconds and its summary line."""
    wall, cpu, out = _cli(args, True, "tasks", "prove", "--exposure", "own", "--jobs", "2", "--family", _families(args))
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "summary": out.strip().splitlines()[-1]}


def prove_sample(args: argparse.Namespace) -> dict[str, Any]:
    """``tasks prove --exposure own --jobs 2`` over gen-1's seeds 0-2 of every family (ids both trees have).

    Gives CPU seconds per task-exposure pair, the figure that does not depend on what else the machine runs, and
    from it the full proof's time on two otherwise idle cores (pairs x CPU per pair / 2).
    """
    names = _families(args).split(",")
    ids = [f"{name}.gen-1.{seed}" for name in names for seed in range(3)]
    argv = ["tasks", "prove", "--exposure", "own", "--jobs", "2"]
    for tid in ids:
        argv += ["--task", tid]
    wall, cpu, out = _cli(args, True, *argv)
    _, _, stats_out = _cli(args, True, "tasks", "--stats")
    full = sum(n for f, n in json.loads(stats_out)["by_family"].items() if f != "none")
    per_pair = cpu / len(ids)
    return {"pairs": len(ids), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cpu_per_pair_s": round(per_pair, 3),
            "family_instances": full, "full_own_on_2_idle_cores_est_s": round(per_pair * full / 2),
            "summary": out.strip().splitlines()[-1]}  # fmt: skip


def _families(args: argparse.Namespace) -> str:
    _, _, out = _cli(args, True, "tasks", "--stats")
    return ",".join(f for f in json.loads(out)["by_family"] if f != "none")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rows")
    parser.add_argument("--tree", help="run the commands from this tree (its packages first on PYTHONPATH)")
    parser.add_argument("--seeds", type=int, help="GATEWAY_TASKS_SEEDS for every command")
    parser.add_argument("--prove", action="store_true", help="also prove every instance through its own exposure")
    parser.add_argument("--prove-sample", action="store_true", help="prove gen-1's seeds 0-2 of every family")
    parser.add_argument("--no-cache-runs", action="store_true", help="skip the runs with the row cache off")
    args = parser.parse_args()
    ids = [f"{family}.gen-{n}.0" for family in ("gmail-forward-invoice", "slack-team-channel") for n in range(1, 12)]
    out: dict[str, Any] = {"load_average_at_start": os.getloadavg()[0], "tree": args.tree or "this one",
                           "seeds": args.seeds}  # fmt: skip
    if not args.no_cache_runs:
        out["stats_built"] = stats(args, False)
        out["serve_built"] = serve(args, False, ids)
    out["stats_cached"] = stats(args, True)
    out["serve_cached"] = serve(args, True, ids)
    if args.prove_sample:
        out["prove_sample"] = prove_sample(args)
    if args.prove:
        out["prove_own"] = prove(args)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
