"""``python -m bench [--quick] [--profile] [--output FILE]``: measure the gateway, print a table, write JSON.

(a) tool calls through the gateway's MCP fast path vs a bare FastMCP server, beside the gateway with
the fast path off and its HTTP exposure (wrk, 1 and 10 connections);
(b) a burst of seeds while 50 MCP clients loop; (c) memory per live session, before and after
a write; (d) shutdown with lent sandboxes on a provider that takes 100 ms per destroy; (e) memory
per 1,000 closed sessions once closed sessions expire; (f) hostile inputs: the slowest search a
session can make, and another session's latency beside it.
Every server runs in its own process; the load comes from other processes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench import burst, closed, hostile, memory, profile, throughput
from bench.procs import ROOT, server_processes

RESULTS = Path(__file__).with_name("results")

#: Sizes of the full run and of ``--quick``.
#: ``burst_cap_s`` bounds the burst on a slow machine: seeds unanswered by then are abandoned and the
#: seed rate is taken over those answered.
FULL = {"wrk_s": 10.0, "burst_seeds": 1000, "quiet_s": 2.0, "burst_cap_s": 45.0, "sessions": 1000,
        "heap_sessions": 50, "sandboxes": 1000, "closed_rounds": 6, "hostile_s": 10.0}  # fmt: skip
QUICK = {"wrk_s": 2.0, "burst_seeds": 100, "quiet_s": 1.0, "burst_cap_s": 15.0, "sessions": 100,
         "heap_sessions": 10, "sandboxes": 200, "closed_rounds": 3, "hostile_s": 2.0}  # fmt: skip
PARTS = ("a", "b", "c", "d", "e", "f")

KB = 1000


def _machine() -> dict[str, Any]:
    mem = next((ln.split()[1] for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")),
               "0")  # fmt: skip
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), platform.machine())  # fmt: skip
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(int(mem) / 2**20, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average_at_start": os.getloadavg(),
    }


def _inproc(job: str, n: int) -> subprocess.Popen[str]:
    """Start ``python -m bench.inproc JOB N``; :func:`_result` reads its JSON."""
    return subprocess.Popen([sys.executable, "-m", "bench.inproc", job, str(n)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)  # fmt: skip


def _result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate()
    if proc.returncode:
        raise RuntimeError(f"{proc.args} failed with exit {proc.returncode}")
    return dict(json.loads(out.strip().splitlines()[-1]))


def _verdict(ok: bool) -> str:
    return "[green]PASS[/green]" if ok else "[red]MISS[/red]"


def rows(results: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    """(figure, measured, target, passed) for the table and the README; passed None for context figures."""
    out: list[tuple[str, str, str, bool | None]] = []
    a = results.get("a_tool_calls")
    for key, label in (("c1", "1 conn"), ("c10", "10 conns")) if a else ():
        r = a[key]
        out.append((f"(a) p50 latency, gateway MCP (fast path) / bare FastMCP, {label}",
                    f"{r['latency_ratio']:.2f}x ({r['gateway']['p50_ms']:.2f} / {r['bare']['p50_ms']:.2f} ms)",
                    "<= 0.5x", r["latency_ratio"] <= 0.5))  # fmt: skip
        out.append((f"(a) calls/s, gateway MCP (fast path) / bare FastMCP, {label}",
                    f"{r['throughput_ratio']:.2f}x ({r['gateway']['rps']:.0f} / {r['bare']['rps']:.0f})",
                    ">= 3x", r["throughput_ratio"] >= 3))  # fmt: skip
        out.append((f"    server CPU per call, gateway MCP (fast path) / bare, {label}",
                    f"{r['cpu_ratio']:.2f}x ({r['gateway']['server_cpu_ms_per_call']:.2f} / "
                    f"{r['bare']['server_cpu_ms_per_call']:.2f} ms)", "(context)", None))  # fmt: skip
        for way, what in (("gateway_fastmcp", "gateway MCP, fast path off (FastMCP)"), ("http", "gateway HTTP API")):
            if way in r:
                w = r[way]
                out.append((f"    {what}, {label}", f"{w['rps']:.0f} calls/s, p50 {w['p50_ms']:.2f} ms, "
                            f"{w['server_cpu_ms_per_call']:.2f} ms CPU per call", "(context)", None))  # fmt: skip
    b = results.get("b_seed_burst")
    if b:
        out += _burst_rows(b)
    c, heap = results.get("c_memory"), results.get("c_memory_heap")
    if c and heap:
        out += _memory_rows(c, heap)
    d = results.get("d_shutdown")
    if d:
        out.append((f"(d) shutdown, {d['sandboxes']} sandboxes x 100 ms destroy",
                    f"{d['shutdown_s']:.2f} s ({d['left_alive']} left)", "<= 3 s",
                    d["shutdown_s"] <= 3.0 and d["left_alive"] == 0))  # fmt: skip
    e = results.get("e_closed_memory")
    if e:
        out += _closed_rows(e)
    f = results.get("f_hostile")
    if f:
        out += _hostile_rows(f)
    return out


def _hostile_rows(f: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    lat, worst, filled = f["latency"], f["worst"], f["filled"]
    idle, busy, attacked = lat["idle"], lat["busy_neighbour"], lat["under_attack"]
    slowest_search = max(filled["search_ms"].values())
    return [
        ("(f) slowest search, worst inputs, in-process", f"{worst['slowest_ms']:.1f} ms ({worst['slowest_tool']})",
         "<= 20 ms", worst["slowest_ms"] <= 20),
        ("(f) another session's p50 beside a hostile one / idle",
         f"{lat['p50_ratio']:.2f}x ({attacked['p50_ms']:.1f} / {idle['p50_ms']:.1f} ms)", "<= 2x",
         lat["p50_ratio"] <= 2),
        ("(f) another session's p99 beside a hostile one / idle",
         f"{lat['p99_ratio']:.2f}x ({attacked['p99_ms']:.1f} / {idle['p99_ms']:.1f} ms; max {attacked['max_ms']:.0f})",
         "<= 2x", lat["p99_ratio"] <= 2),
        ("    the same beside a neighbour looping cheap reads",
         f"p50 {busy['p50_ms']:.1f} ms, p99 {busy['p99_ms']:.1f} ms", "(context)", None),
        ("(f) slowest search of a session filled to its text quota",
         f"{slowest_search:.0f} ms ({filled['sends']} mails, {filled['written_chars']:,} characters)", "(context)",
         None),
        ("(f) longest the event loop waited during those searches", f"{max(filled['loop_held_ms'].values()):.1f} ms",
         "<= 20 ms", max(filled["loop_held_ms"].values()) <= 20),
    ]  # fmt: skip


def _closed_rows(e: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    after = e["after_expiry_per_1000_bytes"]
    return [
        (f"(e) RSS per 1,000 closed sessions, {e['kept']:,} kept (rounds 2-{e['rounds']})",
         f"{after / 2**20:+.2f} MiB (RSS {' / '.join(f'{m:.0f}' for m in e['rss_mb'])} MiB)", "<= 0.5 MiB",
         after <= 0.5 * 2**20 and e["failures"] == 0),
        ("    the first 1,000, filling what is kept", f"{e['filling_per_1000_bytes'] / 2**20:+.2f} MiB", "(context)",
         None),
    ]  # fmt: skip


def _burst_rows(b: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    out: list[tuple[str, str, str, bool | None]] = []
    burst_ = b["during_burst"]
    out.append((f"(b) client call p99 during {b['seeds']}-seed burst",
                f"{burst_['p99_ms']:.0f} ms (p50 {burst_['p50_ms']:.0f}; before burst p99 "
                f"{b['before_burst']['p99_ms']:.0f})", "<= 250 ms", burst_["p99_ms"] <= 250))  # fmt: skip
    bare = b.get("bare_loop")
    if bare:
        out.append(("    the same 50 clients on the bare FastMCP server", f"p99 {bare['p99_ms']:.0f} ms "
                    f"(p50 {bare['p50_ms']:.0f}; {bare['calls']} calls)", "(context)", None))  # fmt: skip
    capped = f", capped at {b['capped_at_s']:.0f} s: {b['seeds_answered']} answered" if b["capped_at_s"] else ""
    out.append(("(b) seeds per second", f"{b['seeds_per_s']:.0f}/s (build {b['mean_build_ms']:.1f} ms{capped})",
                ">= 500/s", b["seeds_per_s"] >= 500))  # fmt: skip
    if "seeds_per_s_alone" in b:
        out.append(("    seeds per second with no client load", f"{b['seeds_per_s_alone']:.0f}/s", "(context)", None))
    return out


def _memory_rows(c: dict[str, Any], heap: dict[str, Any]) -> list[tuple[str, str, str, bool | None]]:
    out: list[tuple[str, str, str, bool | None]] = []
    n = c["sessions"]
    out.append((f"(c) RSS per live session ({n})", f"{c['per_session_bytes'] / KB:.1f} KB", "<= 200 KB",
                c["per_session_bytes"] <= 200 * KB))  # fmt: skip
    out.append((f"(c) RSS per live session after one write ({n})", f"{c['per_written_session_bytes'] / KB:.1f} KB",
                "<= 200 KB", c["per_written_session_bytes"] <= 200 * KB))  # fmt: skip
    m = heap["sessions"]
    out.append((f"(c) traced heap per session, in-process ({m})", f"{heap['heap_per_session_bytes'] / KB:.1f} KB",
                "<= 200 KB", heap["heap_per_session_bytes"] <= 200 * KB))  # fmt: skip
    out.append((f"(c) traced heap per session after one write ({m})",
                f"{heap['heap_per_written_session_bytes'] / KB:.1f} KB", "<= 200 KB",
                heap["heap_per_written_session_bytes"] <= 200 * KB))  # fmt: skip
    return out


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown or not parts:
        raise argparse.ArgumentTypeError(f"parts are letters among {', '.join(PARTS)} (e.g. b,c), not {text!r}")
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a ~30 s smoke run")
    parser.add_argument("--profile", action="store_true", help="sample the gateway processes with py-spy")
    parser.add_argument(
        "--only",
        type=_parts,
        default=list(PARTS),
        metavar="PARTS",
        help=f"which parts to run, comma-separated letters (default {','.join(PARTS)})",
    )
    parser.add_argument("--output", type=Path, default=RESULTS / "latest.json", help="where to write the JSON")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))  # 1,000 seeds at once
    RESULTS.mkdir(exist_ok=True)
    console = Console(stderr=True)
    started = time.perf_counter()
    results: dict[str, Any] = {"quick": args.quick, "sizes": sizes, "machine": _machine()}
    profiles: dict[str, Any] = {}
    parts = set(args.only)
    kinds = [k for k, part in (("gateway", "a"), ("bare", "a"), ("gateway-fastmcp", "a"), ("gateway", "b"),
                               ("bare", "b"), ("gateway", "c"), ("gateway-kept", "e"), ("gateway", "f"))
             if part in parts]  # fmt: skip
    console.log(f"starting {len(kinds)} server(s), each in its own process")
    heap = _inproc("heap", sizes["heap_sessions"]) if "c" in parts else None  # counts bytes: may share the CPU
    with server_processes(*kinds) as servers:
        procs = iter(servers)
        if "a" in parts:
            gw_a, bare, slow = next(procs), next(procs), next(procs)
            console.log(f"(a) tool calls via wrk, {sizes['wrk_s']:g} s per run")
            with profile.record(gw_a.pid, RESULTS / "profile-a.txt", args.profile) as out, \
                    profile.record(bare.pid, RESULTS / "profile-a-bare.txt", args.profile) as out_bare:  # fmt: skip
                results["a_tool_calls"] = throughput.run(gw_a, bare, sizes["wrk_s"], slow)
            if out and out_bare:
                profiles["a"] = profile.top(out)
                profiles["a_bare"] = profile.top(out_bare)
        if "b" in parts:
            gw_b, bare_b = next(procs), next(procs)
            console.log(f"(b) {sizes['burst_seeds']} seeds at once under 50 looping MCP clients")
            with profile.record(gw_b.pid, RESULTS / "profile-b.txt", args.profile) as out:
                results["b_seed_burst"] = burst.run(gw_b, sizes["burst_seeds"], sizes["quiet_s"], sizes["burst_cap_s"])
            if out:
                profiles["b"] = profile.top(out)
            console.log("(b) the same 50 clients against the bare FastMCP server, for comparison")
            results["b_seed_burst"]["bare_loop"] = burst.run_bare(bare_b, sizes["quiet_s"] * 2)
        if "c" in parts:
            gw_c = next(procs)
            assert heap is not None
            results["c_memory_heap"] = _result(heap)
            console.log(f"(c) memory of {sizes['sessions']} live sessions")
            with profile.record(gw_c.pid, RESULTS / "profile-c.txt", args.profile) as out:
                results["c_memory"] = memory.run(gw_c, sizes["sessions"])
            if out:
                profiles["c"] = profile.top(out)
        if "e" in parts:
            gw_e = next(procs)
            console.log(f"(e) {sizes['closed_rounds']} rounds of {closed.ROUND} sessions seeded, written, verified "
                        f"and closed ({closed.KEPT} kept)")  # fmt: skip
            results["e_closed_memory"] = closed.run(gw_e, sizes["closed_rounds"])
        if "f" in parts:
            gw_f = next(procs)
            console.log("(f) the worst inputs to every search, in a process of their own")
            worst = _result(_inproc("worst", 2))
            filled = _result(_inproc("filled", 1))
            console.log(f"(f) another session's latency, idle and beside a hostile one, {sizes['hostile_s']:g} s each")
            latency = hostile.run(gw_f, sizes["hostile_s"])
            results["f_hostile"] = {"worst": worst, "filled": filled, "latency": latency}
    if "d" in parts:
        console.log(f"(d) shutdown with {sizes['sandboxes']} lent sandboxes, in-process")
        results["d_shutdown"] = _result(_inproc("shutdown", sizes["sandboxes"]))
    results["machine"]["load_average_at_end"] = os.getloadavg()
    results["seconds"] = time.perf_counter() - started
    if profiles:
        results["profiles"] = profiles
    table_rows = rows(results)
    results["summary"] = [{"figure": f, "measured": m, "target": t, "pass": p} for f, m, t, p in table_rows]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")

    table = Table(title=f"company-gateway benchmark{' (--quick)' if args.quick else ''}")
    for col in ("figure", "measured", "target", ""):
        table.add_column(col)
    for figure, measured, target, passed in table_rows:
        table.add_row(figure, measured, target, "" if passed is None else _verdict(passed))
    out_console = Console(width=max(Console().width, 130))
    out_console.print(table)
    m = results["machine"]
    load = ", ".join(f"{x:.1f}" for x in m["load_average_at_start"])
    print(f"{m['date']}  {m['cpus']} CPUs ({m['cpu']}), {m['memory_gib']} GiB, Python {m['python']}; "
          f"load average at start {load}; took {results['seconds']:.0f} s; JSON: {args.output}")  # fmt: skip
    for part, found in profiles.items():
        print(f"profile ({part}), most samples (self): "
              + "; ".join(f"{f} {share:.0%}" for f, share in found["self"][:6]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
