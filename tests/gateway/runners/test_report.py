"""company-gateway report: figures of a run, episode pages' data, the site's files, the command."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from gateway.runners.cli import main
from gateway.runners.episodes import EpisodeRecord
from gateway.runners.report import ATIF_VERSION, build_report, load_run, to_atif, write_atif
from gateway.runners.report.episode import episode_view, steps_of
from gateway.runners.report.runs import Run, bootstrap_interval, compare, overview, task_table, wilson_interval
from gateway.runners.rollout_summary import summarize


def rec(task: str, repeat: int, reward: float, *, masked: bool = False, kind: str | None = None,
        end: str = "completed", family: str | None = "fam", apps: tuple[str, ...] = ("gmail",),
        calls: tuple[bool, ...] = ()) -> EpisodeRecord:  # fmt: skip
    return EpisodeRecord(task, repeat, reward=reward, mask_sample=masked, failure_kind=kind, end_reason=end,
                         family=family, apps=list(apps), tier="easy", split="train", exposure="mcp",
                         tool_calls=[{"tool": "t", "ok": ok} for ok in calls])  # fmt: skip


RUN = Run("a", [
    rec("t1", 0, 1.0, calls=(True, False)), rec("t1", 1, 0.0), rec("t2", 0, 1.0, apps=("gmail", "drive")),
    rec("t2", 1, 1.0), rec("t3", 0, 0.0, masked=True, kind="model_error", end="model_error", family=None),
    rec("t3", 1, 0.5, family=None),
])  # fmt: skip


def write_run(path: Path, records: list[EpisodeRecord]) -> Path:
    path.write_text("".join(r.to_json() + "\n" for r in records))
    return path


# ---- figures -------------------------------------------------------------------------------------


def test_the_overview_agrees_with_the_rollout_summary_and_breaks_reward_down_by_group():
    o = overview(RUN)
    s = summarize(RUN.records, 2)
    assert (o["episodes"], o["masked"], o["mean_reward"]) == (6, 1, pytest.approx(s.mean_reward))
    assert (o["pass_at_k"]["k"], o["pass_at_k"]["value"], o["pass_at_k"]["tasks"]) == (2, s.pass_at_k, 2)
    assert o["pass_at_1"]["value"] == pytest.approx((0.5 + 1.0 + 0.0) / 3) and o["pass_at_1"]["tasks"] == 3
    assert o["masked_by_kind"] == {"model_error": 1} and o["end_reasons"] == {"completed": 5, "model_error": 1}
    apps = {g["name"]: g for g in o["groups"]["app"]}
    assert (apps["gmail"]["episodes"], apps["drive"]["episodes"], apps["drive"]["mean"]) == (6, 1, 1.0)
    family = {g["name"]: g for g in o["groups"]["family"]}
    assert (family["fam"]["mean"], family["(none)"]["masked"], family["(none)"]["mean"]) == (0.75, 1, 0.5)
    assert (o["tool_calls"], o["tool_errors"], o["pass_rate"]["passed"], o["pass_rate"]["of"]) == (2, 1, 3, 5)


def test_the_intervals_are_wilson_and_a_seeded_bootstrap():
    low, high = wilson_interval(8, 10)  # Wilson 95% for 8/10: 0.4902 .. 0.9433
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson_interval(0, 0) is None and wilson_interval(0, 5)[0] == 0.0
    values = [0.0, 1.0, 1.0, 0.5, 1.0, 0.0]
    first = bootstrap_interval(values)
    assert first == bootstrap_interval(values) and first[0] < sum(values) / 6 < first[1]
    assert bootstrap_interval([1.0, 1.0]) == (1.0, 1.0) and bootstrap_interval([]) is None


def test_the_task_table_has_each_tasks_repeats_variance_and_errors():
    rows, members = task_table(RUN)
    assert [r["task_id"] for r in rows] == ["t1", "t2", "t3"] and members == {"t1": [0, 1], "t2": [2, 3],
                                                                              "t3": [4, 5]}  # fmt: skip
    t1, _, t3 = rows
    assert (t1["mean"], t1["variance"], t1["pass_at_k"], t1["tool_errors"]) == (0.5, 0.25, 1.0, 1)
    assert (t3["episodes"], t3["masked"], t3["mean"], t3["pass_at_k"]) == (2, 1, 0.5, None)


def test_compare_gives_per_task_deltas_and_the_episodes_that_changed():
    other = Run("b", [rec("t1", 0, 1.0), rec("t1", 1, 1.0), rec("t2", 0, 0.0), rec("t2", 1, 1.0),
                      rec("t3", 0, 0.0), rec("t4", 0, 1.0)])  # fmt: skip
    c = compare(RUN, other)
    deltas = {t["task_id"]: t["delta"] for t in c["tasks"]}
    assert deltas == {"t1": 0.5, "t2": -0.5, "t3": -0.5, "t4": None}
    assert [(e["task_id"], e["repeat"], e["a"], e["b"]) for e in c["changed"]] == [
        ("t1", 1, 0.0, 1.0), ("t2", 0, 1.0, 0.0), ("t3", 0, 0.0, 0.0)]  # t3 #0 was masked, now scored
    assert c["changed"][2]["masked_a"] and not c["changed"][2]["masked_b"]


# ---- one episode ---------------------------------------------------------------------------------


CHAT = [
    {"role": "system", "content": "sys"}, {"role": "user", "content": "Do it."},
    {"role": "assistant", "content": "Looking.", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "company_a", "arguments": '{"q": 1}'}},
        {"id": "c2", "type": "function", "function": {"name": "company_b", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "x" * 3000},
    {"role": "tool", "tool_call_id": "c2", "content": "no such parameter"},
    {"role": "assistant", "content": "Done."},
]  # fmt: skip
RESPONSES = [
    {"role": "system", "content": "sys"}, {"role": "user", "content": "Do it."},
    {"role": "assistant", "content": "Looking."},
    {"type": "function_call", "call_id": "c1", "name": "company_a", "arguments": '{"q": 1}'},
    {"type": "function_call", "call_id": "c2", "name": "company_b", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "x" * 3000},
    {"type": "function_call_output", "call_id": "c2", "output": "no such parameter"},
    {"role": "assistant", "content": "Done."},
]  # fmt: skip


@pytest.mark.parametrize("trajectory", [CHAT, RESPONSES], ids=["chat", "responses"])
def test_both_wire_shapes_become_the_same_steps(trajectory):
    instruction, steps = steps_of(trajectory)
    assert instruction == "Do it."
    assert [(s["text"], [(c["tool"], c["args"], c["result"][:5]) for c in s["calls"]]) for s in steps] == [
        ("Looking.", [("company_a", '{"q": 1}', "xxxxx"), ("company_b", "{}", "no su")]), ("Done.", [])]


def test_an_episode_view_folds_long_texts_whole_and_diffs_the_change_set():
    record = EpisodeRecord("t1", 0, trajectory=CHAT, checks=[{"name": "sent", "passed": False, "detail": "0 sent"}],
                           tool_calls=[{"tool": "company_a", "ok": True, "offered": True, "s": 0.1},
                                       {"tool": "company_b", "ok": False, "offered": False, "s": 0.2}],
                           changes={"records": {"gmail": {"messages": {
                               "added": {"m1": {"to": ["a@x"], "subject": "Hi"}},
                               "changed": {"m0": {"read": {"before": False, "after": True}}},
                               "removed": {"m9": {"subject": "Old"}}}}},
                               "counts": {"added": 1, "changed": 1, "removed": 1}, "complete": True,
                               "said": {"summary": "ok", "answer": None}, "files": {}})  # fmt: skip
    stored: dict[str, str] = {}

    def fold(text: str) -> str:
        stored[f"k{len(stored)}"] = text
        return f"k{len(stored) - 1}"

    view = episode_view(record, 7, fold=fold)
    first, second = view["steps"][0]["calls"]
    assert first["args"] == '{\n  "q": 1\n}' and (first["ok"], first["offered"], first["s"]) == (True, True, 0.1)
    assert first["result"] == {"$long": "k0", "chars": 3000, "head": "x" * 400} and stored["k0"] == "x" * 3000
    assert (second["ok"], second["offered"], second["result"]) == (False, False, "no such parameter")
    rows = {(r["kind"], r["id"]): r["fields"] for r in view["changes"]["rows"]}
    assert rows[("changed", "m0")] == [{"name": "read", "before": "false", "after": "true"}]
    assert rows[("added", "m1")][0] == {"name": "subject", "before": None, "after": "Hi"}
    assert rows[("removed", "m9")] == [{"name": "subject", "before": "Old", "after": None}]
    assert view["changes"]["said"] == {"summary": "ok"} and view["checks"][0]["passed"] is False
    assert (view["index"], view["instruction"]) == (7, "Do it.")


# ---- the site and the command --------------------------------------------------------------------


def read_data(root: Path, key: str):
    text = (root / "data" / f"{key}.js").read_text()
    match = re.fullmatch(r"REPORT\.put\((\"[^\"]+\"),(.*)\);\n", text, re.DOTALL)
    assert match and json.loads(match.group(1)) == key
    return json.loads(match.group(2))


def test_the_site_has_every_page_and_a_data_file_per_task_and_episode(tmp_path):
    stats = build_report([RUN, Run("b", RUN.records[:2])], tmp_path / "site")
    root = tmp_path / "site"
    for page in ("index.html", "tasks.html", "task.html", "episode.html", "compare.html"):
        html = (root / page).read_text()
        assert '<script src="report.js"></script>' in html and "http" not in html.replace("http-equiv", "")
    assert read_data(root, "site")["pairs"] == [[0, 1]]
    assert read_data(root, "r0/overview")["episodes"] == 6 and len(read_data(root, "r0/tasks")) == 3
    assert [e["i"] for e in read_data(root, "r0/t/2")["episodes"]] == [4, 5]
    shuffled = build_report([Run("c", RUN.records[::-1])], tmp_path / "other")
    assert shuffled.episodes == 6
    assert [e["repeat"] for e in read_data(tmp_path / "other", "r0/t/0")["episodes"]] == [0, 1]
    assert read_data(root, "r1/e/1")["task_id"] == "t1" and read_data(root, "cmp-0-1")["b"] == "b"
    files = [p for p in root.rglob("*") if p.is_file()]
    assert (stats.files, stats.bytes, stats.episodes) == (len(files), sum(p.stat().st_size for p in files), 8)
    for js in root.glob("*.js"):  # nothing is fetched: no URL other than a relative data file
        assert not re.search(r"https?://|fetch\(|XMLHttpRequest", js.read_text()), js.name


def test_report_command_writes_the_site_and_says_where(tmp_path, capsys):
    run = write_run(tmp_path / "run.jsonl", RUN.records)
    assert main(["report", str(run), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "report of 6 episodes in 1 run(s)" in out and (tmp_path / "out" / "index.html").as_uri() in out
    assert load_run(run).records == RUN.records
    assert main(["report", str(run), str(run), "--atif", str(tmp_path / "atif")]) == 0
    assert "ATIF: 12 trajectories" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "atif").iterdir()) == ["0-run", "1-run"]
    assert len(list((tmp_path / "atif" / "1-run").glob("*.json"))) == 6


def test_report_usage_errors_exit_2_naming_the_problem(tmp_path, capsys):
    run = write_run(tmp_path / "run.jsonl", RUN.records)
    assert main(["report", str(run)]) == 2
    assert "-o DIR" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text(RUN.records[0].to_json() + "\n{not json\n")
    assert main(["report", str(bad), "-o", str(tmp_path / "x")]) == 2
    assert f"{bad}:2: not an episode record" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text("\n")
    assert main(["report", str(tmp_path / "empty.jsonl"), "-o", str(tmp_path / "x")]) == 2
    assert "no episode records" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "x")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


# ---- ATIF ----------------------------------------------------------------------------------------

#: Where scripts/install-harbor.sh puts Harbor's venv (HARBOR_VENV overrides it, as it does for the script).
HARBOR_VENV = Path(os.environ.get("HARBOR_VENV", Path.home() / ".cache" / "company-gateway" / "harbor-0.25.0"))

#: Validates each file named on the command line with Harbor's own ATIF model; prints step counts.
VALIDATE = """
import json, sys
from harbor.models.trajectories import Trajectory
print(json.dumps([len(Trajectory.model_validate_json(open(p).read()).steps) for p in sys.argv[1:]]))
"""


def atif_records() -> list[EpisodeRecord]:
    talked = EpisodeRecord("t1", 0, session_id="s_1", trajectory=CHAT, tools=["company_a"],
                           checks=[{"name": "sent", "passed": True, "detail": "1 sent"}], reward=1.0,
                           tool_calls=[{"tool": "company_a", "ok": True, "offered": True, "s": 0.1},
                                       {"tool": "company_b", "ok": False, "offered": False, "s": 0.2}])  # fmt: skip
    silent = EpisodeRecord("t/2", 3, adapter="harbor", row={"instruction": "Book it."}, trajectory=None)
    return [talked, silent]


def test_an_episode_becomes_an_atif_trajectory_with_its_calls_and_grade(tmp_path):
    atif = to_atif(atif_records()[0])
    assert (atif["schema_version"], atif["session_id"]) == (ATIF_VERSION, "s_1")
    assert atif["agent"]["extra"] == {"tools": ["company_a"]}
    assert [(s["step_id"], s["source"]) for s in atif["steps"]] == [(1, "system"), (2, "user"), (3, "agent"),
                                                                    (4, "agent")]  # fmt: skip
    step = atif["steps"][2]
    assert [(c["function_name"], c["arguments"], c["extra"]["ok"]) for c in step["tool_calls"]] == [
        ("company_a", {"q": 1}, True), ("company_b", {}, False)]
    assert [r["source_call_id"] for r in step["observation"]["results"]] == ["c1", "c2"]
    assert step["observation"]["results"][0]["content"] == "x" * 3000
    assert (atif["extra"]["reward"], atif["extra"]["checks"][0]["name"]) == (1.0, "sent")
    paths = write_atif(atif_records(), tmp_path)
    assert [p.name for p in paths] == ["00000-t1-0.json", "00001-t_2-3.json"]
    assert json.loads(paths[1].read_text())["steps"] == [{"source": "user", "message": "Book it.", "step_id": 1}]


def test_the_atif_files_validate_against_harbors_own_model(tmp_path):
    python = HARBOR_VENV / "bin" / "python"
    if not python.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Harbor's venv is not at {HARBOR_VENV}; CI=true requires it", pytrace=False)
        pytest.skip(f"Harbor's venv is not at {HARBOR_VENV} (bash scripts/install-harbor.sh)")
    paths = write_atif(atif_records(), tmp_path)
    done = subprocess.run([str(python), "-c", VALIDATE, *map(str, paths)], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [4, 1]
