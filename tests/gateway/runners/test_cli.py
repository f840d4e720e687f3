"""The company-gateway command, run as a user would (in-process through main())."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.control.rows import load_builtin_tasks
from gateway.runners.cli import main
from tools import REGISTRY


def test_tools_json_lists_every_tool_with_its_schema(capsys):
    assert main(["tools", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in rows]
    assert len(names) == len(list(REGISTRY.actions())) + 1
    assert names[-1] == "company_complete_task"
    assert all(r["input_schema"]["type"] == "object" for r in rows)
    assert {r["app"] for r in rows} == {*REGISTRY.apps, None}


def test_tasks_lists_and_counts(capsys):
    assert main(["tasks", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ids = [row["task_id"] for row in rows]
    assert ids == list(load_builtin_tasks())
    kinds = {row["family"]: row["kind"] for row in rows}
    assert kinds["sharepoint-approve-own-request"] == "refusal" and kinds["gmail-reply-decision"] == "task"
    assert main(["tasks", "--stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["tasks"] == len(ids)
    assert sum(stats["by_exposure"].values()) == len(ids)
    assert sorted(stats["shapes_by_family"]) == sorted(n for n in stats["by_family"] if n != "none")
    assert min(stats["shapes_by_family"].values()) >= 3


def test_the_task_list_is_one_line_a_task_and_takes_task_ids(capsys):
    assert main(["tasks", "--family", "gmail-forward-invoice"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 143 and all(line.startswith("gmail-forward-invoice.") for line in lines)  # no broken rows
    assert main(["tasks", "--task", "cal-move-ops-sync", "--task", "dir-manager-of-owen"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["cal-move-ops-sync",
                                                                                    "dir-manager-of-owen"]
    assert main(["tasks", "--task", "no-such-task"]) == 2
    assert "unknown task ids ['no-such-task']" in capsys.readouterr().err


def test_stats_count_only_the_task_ids_asked_for(capsys):
    family_instance = "box-legal-hold-delete.gen-1.0"
    assert main(["tasks", "--stats", "--task", "cal-move-ops-sync", "--task", family_instance]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["tasks"], stats["families"]) == (2, 1)
    assert main(["tasks", "--stats", "--task", "no-such-task"]) == 2
    assert "unknown task ids ['no-such-task']" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "said"), [
    (["tasks", "--module", "x"], "--module only applies to 'tasks generate'; drop it to list the tasks"),
    (["tasks", "prove", "--seeds", "2", "--companies", "gen-1"],
     "--companies, --seeds only apply to 'tasks generate'; drop them to prove the tasks"),
])  # fmt: skip
def test_generate_options_elsewhere_are_refused_naming_them(capsys, argv, said):
    assert main(argv) == 2
    assert said in capsys.readouterr().err


def test_a_cold_row_cache_says_which_family_it_builds(tmp_path, monkeypatch, capsys):
    from gateway.tasks.loader import families

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["tasks", "--stats", "--family", "gmail-forward-invoice"]) == 0
    err = capsys.readouterr().err
    assert err == (f"company-gateway tasks: building task rows, family 1 of {len(families())} (gmail-forward-invoice);"
                   f" first run after an install or a change, kept in {tmp_path}/company-gateway/rows for later runs\n")
    assert main(["tasks", "--stats", "--family", "gmail-forward-invoice"]) == 0
    assert capsys.readouterr().err == ""  # kept: nothing is built again


def test_a_bad_task_file_is_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "tasks.jsonl"
    bad.write_text('{"id": "x", "instruction": "y", "apps": ["gmail2"], "checks": []}\n')
    assert main(["tasks", "--tasks", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "tasks.jsonl:1" in err and "apps" in err
    assert main(["tasks", "--tasks", str(tmp_path / "missing.jsonl")]) == 2


@pytest.mark.parametrize(("line", "kind"), [("[1, 2]", "a list"), ('"row"', "a string"), ("3", "a number"),
                                            ("null", "null")])  # fmt: skip
def test_a_line_that_is_no_json_object_is_named_for_what_it_is(tmp_path, capsys, line, kind):
    bad = tmp_path / "tasks.jsonl"
    bad.write_text(line + "\n")
    assert main(["tasks", "--tasks", str(bad)]) == 2
    assert capsys.readouterr().err == (f'company-gateway tasks: {bad}:1: a task row is a JSON object ({{"id": ..., '
                                       f'"instruction": ...}}), not {kind}\n')


@pytest.mark.slow
def test_demo_oracle_and_noop_exit_codes(capsys):
    assert main(["demo", "--json", "--task", "dir-manager-of-owen", "--task", "cal-move-ops-sync"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["task_id"], x["exposure"], x["reward"]) for x in lines] == [
        (t, e, 1.0) for t in ("dir-manager-of-owen", "cal-move-ops-sync") for e in ("mcp", "cli", "http")
    ]
    assert set(lines[0]) >= {"task_id", "exposure", "policy", "reward", "calls", "ms", "checks"}
    assert main(["demo", "--json", "--policy", "noop", "--exposure", "mcp", "--task", "cal-move-ops-sync"]) == 0
    assert json.loads(capsys.readouterr().out)["reward"] == 0.0


@pytest.mark.slow
def test_demo_fails_when_an_oracle_misses(tmp_path, capsys):
    row = {
        "id": "impossible",
        "instruction": "Say 'blue'.",
        "apps": ["directory"],
        "checks": [{"name": "blue", "kind": "answer", "match": {"contains": "blue"}}],
        "solution": [{"tool": "complete_task", "args": {"summary": "red"}}],
    }
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert main(["demo", "--tasks", str(path)]) == 1
    assert "impossible" in capsys.readouterr().err
    assert main(["demo", "--task", "nope"]) == 2


def test_demo_refuses_no_plays_in_flight(capsys):
    assert main(["demo", "--in-flight", "0", "--task", "dir-manager-of-owen"]) == 2
    assert "--in-flight must be 1 or more, not 0" in capsys.readouterr().err


def test_serve_refuses_an_unknown_log_level_with_usage(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--log-level", "LOUD"])
    assert exit_.value.code == 2 and "invalid choice: 'LOUD'" in capsys.readouterr().err


@pytest.mark.slow
def test_demo_json_into_a_closed_pipe_stops_quietly():
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    proc = subprocess.run(
        [sys.executable, "-m", "gateway.runners.cli", "demo", "--json", "--exposure", "mcp",
         "--task", "dir-manager-of-owen"],
        stdout=write, stderr=subprocess.PIPE, text=True, timeout=120,
    )  # fmt: skip
    os.close(write)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_tasks_prove_passes_on_a_sound_task_and_prints_a_table(capsys):
    assert main(["tasks", "prove", "--task", "dir-manager-of-owen", "--exposure", "mcp"]) == 0
    out = capsys.readouterr().out
    assert "(hand-written)" in out
    assert "1 tasks, 1 task-exposure pairs, 14 policies through 1 exposure(s) over 2 process(es): 0 failed" in out


def test_tasks_prove_fails_on_a_grader_that_a_shortcut_beats(tmp_path, capsys):
    row = load_builtin_tasks()["drive-share-offsite-agenda"].model_dump(mode="json", exclude_none=True)
    row["allowed_changes"][0]["added"] = {"permissions": {"role": "writer"}}  # anyone may now be made a writer
    path = tmp_path / "loose.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert main(["tasks", "prove", "--tasks", str(path), "--exposure", "mcp", "--json"]) == 1
    proofs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    failed = [p for p in proofs if not p["passed"]]
    assert [p["policy"] for p in failed] == ["generated:over_reach"]
    assert failed[0]["reward"] == 1.0


def test_tasks_prove_refuses_unknown_ids_and_bad_jobs(capsys):
    assert main(["tasks", "prove", "--task", "no-such-task"]) == 2
    assert main(["tasks", "prove", "--jobs", "0"]) == 2
    assert "unknown task ids ['no-such-task']; see 'company-gateway tasks'" in capsys.readouterr().err
    # A task of another split: the message says the split left it out.
    assert main(["tasks", "prove", "--split", "test", "--task", "dir-manager-of-owen"]) == 2
    assert "unknown task ids ['dir-manager-of-owen'] among the tasks --split test select" in capsys.readouterr().err


def test_serve_with_an_unreachable_docker_engine_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GATEWAY_SANDBOX_PROVIDER", "docker")
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("company-gateway serve: the sandbox provider is unavailable: docker engine unreachable")
    assert err.rstrip().endswith("start it, or choose another with GATEWAY_SANDBOX_PROVIDER")


@pytest.mark.slow
def test_demo_table_shows_long_task_ids_whole(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    task_id = "directory-manager-of-owen-bell-in-the-engineering-team"  # 54 characters
    row = {**load_builtin_tasks()["dir-manager-of-owen"].model_dump(mode="json", exclude_none=True), "id": task_id}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert main(["demo", "--tasks", str(path), "--exposure", "http"]) == 0
    assert task_id in capsys.readouterr().out


def test_a_bad_setting_names_the_option_and_its_variable(capsys):
    assert main(["serve", "--port", "99999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("company-gateway serve: invalid setting: --port (GATEWAY_PORT): ")
    assert "65535" in err and "errors.pydantic.dev" not in err


@pytest.mark.slow
def test_tasks_generate_writes_linted_rows_of_ones_own_family_that_prove(tmp_path, capsys):
    source = Path("gateway/tasks/families/gmail_forward_invoice.py").read_text()
    module = tmp_path / "my_family.py"
    module.write_text(source.replace('name="gmail-forward-invoice"', 'name="my-invoices"'))
    assert main(["tasks", "generate", "--module", str(module), "--companies", "gen-2,gen-5", "--seeds", "2"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == [f"my-invoices.gen-{c}.{s}" for c in (2, 5) for s in (0, 1)]
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert main(["tasks", "prove", "--tasks", str(path), "--exposure", "mcp", "--jobs", "1"]) == 0
    assert "4 tasks, 4 task-exposure pairs, 58 policies through 1 exposure(s) over 1 process(es): 0 failed" in (
        capsys.readouterr().out
    )


def test_tasks_generate_names_a_missing_module_or_company(capsys):
    assert main(["tasks", "generate"]) == 2
    assert "--module names the family module" in capsys.readouterr().err
    module = "gateway.tasks.families.gmail_forward_invoice"
    assert main(["tasks", "generate", "--module", module, "--companies", "x"]) == 2
    assert "--companies: unknown company 'x'" in capsys.readouterr().err


def test_an_empty_tasks_file_is_refused_in_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n# only a comment\n")
    assert main(["tasks", "--tasks", str(empty)]) == 2
    assert capsys.readouterr().err.strip().endswith("holds no task rows; give a JSONL file with one row per line")


@pytest.mark.parametrize("module", ["../../x", "a b", "x..y", ".x", "x/y"])
def test_a_family_module_that_is_no_module_name_is_refused_in_one_line(capsys, module):
    assert main(["tasks", "generate", "--module", module]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"company-gateway tasks generate: --module: {module!r} is neither a dotted module name (such as "
        "my_families.invoices) nor a .py file\n"
    )


def test_a_family_file_that_is_no_python_is_refused_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("x = (\n")
    assert main(["tasks", "generate", "--module", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"company-gateway tasks generate: --module: {str(bad)!r} is not valid Python: '(' was never closed (line 1)\n"
    )


@pytest.mark.parametrize("seeds", [0, 1001, 10**12])
def test_tasks_generate_takes_1_to_1000_seeds(capsys, seeds):
    module = "gateway.tasks.families.gmail_forward_invoice"
    assert main(["tasks", "generate", "--module", module, "--seeds", str(seeds)]) == 2
    assert capsys.readouterr().err == f"company-gateway tasks generate: --seeds must be from 1 to 1,000, not {seeds}\n"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/dev/zero", "tasks file '/dev/zero' holds NUL bytes, so it is no text file; give a JSONL file"),
        ("/", "tasks file '/' is a folder; give a JSONL file of task rows"),
    ],
)
def test_serve_and_tasks_refuse_a_file_that_is_no_tasks_file_in_one_line(capsys, path, message):
    assert main(["tasks", "--tasks", path]) == 2
    assert capsys.readouterr().err.strip().endswith(message)
    assert main(["serve", "--tasks", path]) == 2
    assert capsys.readouterr().err == f"company-gateway serve: {message}\n"


def test_a_tasks_file_past_its_bound_is_refused_unread(tmp_path, capsys, monkeypatch):
    from gateway.control import rows

    monkeypatch.setattr(rows, "MAX_TASKS_FILE_BYTES", 3 * 2**20)
    big = tmp_path / "big.jsonl"
    big.write_text("#" * (3 * 2**20 + 1))
    assert main(["tasks", "--tasks", str(big)]) == 2
    assert capsys.readouterr().err.strip().endswith("is larger than 3,145,728 bytes; split it into smaller files")


def test_a_repeated_family_on_serve_keeps_every_name():
    from gateway.runners.cli.main import _parser

    args = _parser().parse_args(["serve", "--family", "gmail-reply-decision", "--family", "slack-team-channel,none"])
    assert args.tasks_family == "gmail-reply-decision,slack-team-channel,none"


def test_version_prints_the_installed_version(capsys):
    from importlib import metadata

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"company-gateway {metadata.version('company-gateway')}"


def test_demo_all_and_sample_are_exclusive(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--all", "--sample", "3"])
    assert stop.value.code == 2
    assert "argument --sample: not allowed with argument --all" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["demo"], "--policy {oracle,noop}"),
        (["harbor-export"], "--exposure {cli,http}"),
        (["gym-export"], "--split {train,validation,test}"),
        (["model"], "--policy {oracle,noop,wrong}"),
    ],
)
def test_help_shows_the_allowed_values(capsys, argv, shown):
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    assert shown in capsys.readouterr().out


def test_demo_refuses_an_unknown_policy_in_the_parser(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--policy", "wrong"])
    assert stop.value.code == 2
    assert "--policy: invalid choice: 'wrong' (choose from 'oracle', 'noop')" in capsys.readouterr().err


@pytest.mark.parametrize("url", ["notaurl", "127.0.0.1:8000", "ftp://host", "http://", "http://host:port"])
@pytest.mark.parametrize(
    "argv",
    [["model"], ["rollout", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"], ["harbor-export", "out"]],
)
def test_gateway_url_must_be_an_http_url(tmp_path, monkeypatch, capsys, argv, url):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--gateway-url", url])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --gateway-url: {url!r} is not an http(s) URL; give one such as http://127.0.0.1:8000" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


@pytest.mark.parametrize("runs", [2, 301])  # a row per run, and a row per family past 300 runs
def test_the_demo_summary_gives_the_wall_time_and_labels_the_summed_one(capsys, runs):
    from gateway.runners.cli.demo import _print_table
    from gateway.runners.demo import EpisodeResult

    results = [EpisodeResult(f"t{n}", "mcp", "oracle", ["gmail"], 1.0, 3, 2000.0) for n in range(runs)]
    _print_table(results, "oracle", 1.5)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"{runs} runs, mean reward 1.000, 1.5 s wall ({2.0 * runs:.1f} s summed over plays)"


@pytest.mark.parametrize("command", [["regrade"], ["report", "-o", "site"]])
@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda p: None, "cannot be read (No such file or directory)"),
        (lambda p: p.mkdir(), "cannot be read (Is a directory)"),
        (lambda p: p.write_bytes(b"\xff\xfe{}\n"), "is not UTF-8 text"),
    ],
    ids=["missing", "folder", "binary"],
)
def test_a_run_file_that_cannot_be_read_is_one_line_naming_it(tmp_path, monkeypatch, capsys, command, make, why):
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run.jsonl"
    make(run)
    assert main([command[0], str(run), *command[1:]]) == 2
    err = capsys.readouterr().err
    assert err == (f"company-gateway {command[0]}: RUN.jsonl {str(run)!r} {why}; give a JSONL file of episode "
                   "records (rollout --output writes them)\n")  # fmt: skip
