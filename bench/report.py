"""Build time and size of ``company-gateway report`` for 200 and 10,000 episodes.

    python -m bench.report              # both parts (about 2 minutes)
    python -m bench.report real         # a real rollout, 20 tasks x 10 repeats, scripted model; its report
    python -m bench.report synthetic    # 10,000 episodes: the real run's 200 copied 50 times as other tasks
    python -m bench.report --shots DIR  # also a screenshot of each page kind of the 200-episode report

The scripted model and the tasks are the browser test's (``tests/gateway/runners/report_runs.py``): right,
wrong and masked episodes. Each part prints one JSON object: the build's seconds (``report`` command, in
this process), files, megabytes, the largest data file, and the seconds headless Chromium takes to draw
each page kind from disk (when ``chromium`` is installed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gateway.runners.episodes import EpisodeRecord
from gateway.runners.report import build_report, load_run, write_atif


def _browse(site: Path, episode: int, shots: Path | None) -> dict[str, float]:
    """Seconds to draw each page kind in headless Chromium, from navigation to drawn."""
    from tests.gateway.runners.browser import Browser, chromium_path

    if chromium_path() is None:
        return {}
    pages = {"overview": ("index.html", ""), "tasks": ("tasks.html", "run=0"), "task": ("task.html", "run=0&t=1"),
             "episode": ("episode.html", f"run=0&e={episode}"), "compare": ("compare.html", "")}  # fmt: skip
    seconds = {}
    with Browser() as browser:
        for name, (page, query) in pages.items():
            began = time.perf_counter()
            state = browser.open(site.joinpath(page).as_uri() + (f"?{query}" if query else ""))
            seconds[name] = round(time.perf_counter() - began, 3)
            if state != "drawn" or browser.errors():
                raise RuntimeError(f"{name}: {state} {browser.errors()}")
            if shots is not None:
                shots.mkdir(parents=True, exist_ok=True)
                browser.screenshot(shots / f"{name}.png")
    return seconds


def _build(runs: list[Path], site: Path) -> dict[str, Any]:
    began = time.perf_counter()
    loaded = [load_run(p) for p in runs]
    stats = build_report(loaded, site)
    built = time.perf_counter() - began
    largest = max((p for p in (site / "data").rglob("*.js")), key=lambda p: p.stat().st_size)
    return {"episodes": stats.episodes, "build_s": round(built, 2), "files": stats.files,
            "mb": round(stats.bytes / 1e6, 1), "folded_texts": stats.folded,
            "largest_file": f"{largest.relative_to(site)} ({largest.stat().st_size / 1e6:.2f} MB)",
            "tasks_js_mb": round((site / "data" / "r0" / "tasks.js").stat().st_size / 1e6, 2)}  # fmt: skip


def real(folder: Path, shots: Path | None) -> dict[str, Any]:
    """A 200-episode rollout (20 tasks x 10 repeats, concurrency 4) and its report."""
    from tests.gateway.runners.report_runs import make_run

    run, right = folder / "run200.jsonl", folder / "right200.jsonl"
    began = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        make_run(run, count=20, repeats=10, concurrency=4)
    rollout_s = time.perf_counter() - began
    result = {"part": "real", "rollout_s": round(rollout_s, 1), "run_mb": round(run.stat().st_size / 1e6, 1),
              **_build([run], folder / "site200")}  # fmt: skip
    began = time.perf_counter()
    write_atif(load_run(run).records, folder / "atif200")
    result["atif_s"] = round(time.perf_counter() - began, 2)
    if shots is not None:  # the compare page wants a second run: the same tasks, every episode played right
        with contextlib.redirect_stdout(io.StringIO()):
            make_run(right, count=20, repeats=10, concurrency=4, scripts=("oracle",))
        _build([run, right], folder / "site200x2")
    result["open_s"] = _browse(folder / ("site200x2" if shots is not None else "site200"), 5, shots)
    return result


def synthetic(folder: Path) -> dict[str, Any]:
    """10,000 episodes: the real run's 200 records copied 50 times under other task ids (1,000 tasks)."""
    source = folder / "run200.jsonl"
    if not source.exists():
        with contextlib.redirect_stdout(io.StringIO()):
            real(folder, None)
    records = load_run(source).records
    big = folder / "run10k.jsonl"
    with big.open("w", encoding="utf-8") as out:
        for copy in range(50):
            for r in records:
                data = r.as_dict()
                data["task_id"] = f"{r.task_id}-{copy:02d}"
                out.write(EpisodeRecord.from_json(data).to_json() + "\n")
    result = {"part": "synthetic", "run_mb": round(big.stat().st_size / 1e6, 1), **_build([big], folder / "site10k")}
    result["open_s"] = _browse(folder / "site10k", 9999, None)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description="Build time and size of reports of 200 and 10,000 episodes.")
    parser.add_argument("part", nargs="?", choices=["real", "synthetic"], help="one part (default: both)")
    parser.add_argument("--shots", type=Path, help="screenshots of the 200-episode report's pages here")
    parser.add_argument("--keep", type=Path, help="write runs and reports here (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-report-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        if args.part in (None, "real"):
            print(json.dumps(real(folder, args.shots)), flush=True)
        if args.part in (None, "synthetic"):
            print(json.dumps(synthetic(folder)), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
