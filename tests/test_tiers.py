"""The tiers themselves: plain pytest leaves out the slow tier, -m slow runs only it, a sample splits a list."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tiers import sampled

REPO = Path(__file__).resolve().parents[1]


def _slow(param) -> bool:
    return any(mark.name == "slow" for mark in param.marks)


def test_a_sample_keeps_that_many_cases_the_same_ones_every_time_and_marks_the_rest_slow():
    values = [f"case-{i}" for i in range(20)]
    params = sampled(values, 3, seed="s")
    assert [p.values for p in params] == [(v,) for v in values]  # every case, in order
    kept = [p.values[0] for p in params if not _slow(p)]
    assert len(kept) == 3
    assert kept == [p.values[0] for p in sampled(values, 3, seed="s") if not _slow(p)]
    assert kept != [p.values[0] for p in sampled(values, 3, seed="another") if not _slow(p)]
    assert all(not _slow(p) for p in sampled(values[:2], 3, seed="s"))  # fewer cases than kept: all stay


def test_a_sample_of_tuples_gives_one_argument_each_and_its_ids():
    params = sampled([("a", 1), ("b", 2)], 1, seed="s", ids=lambda case: f"{case[0]}{case[1]}")
    assert [(p.values, p.id) for p in params] == [(("a", 1), "a1"), (("b", 2), "b2")]
    assert sum(_slow(p) for p in params) == 1


@pytest.mark.parametrize(("options", "ran"), [([], ["test_quick"]), (["-m", "slow"], ["test_long"])])
def test_plain_pytest_runs_the_default_tier_and_an_explicit_m_slow_only_the_slow_one(tmp_path, options, ran):
    (tmp_path / "test_two.py").write_text(
        "import pytest\n\n\ndef test_quick():\n    pass\n\n\n@pytest.mark.slow\ndef test_long():\n    pass\n"
    )
    # This project's pytest options; of the installed plugins only those they name (the others take seconds).
    plugins = ["-p", "no:cacheprovider", "-p", "pytest_timeout", "-p", "asyncio"]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir", str(tmp_path), *plugins,
         "--collect-only", "-q", *options, str(tmp_path / "test_two.py")],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )  # fmt: skip
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert [line.split("::")[1] for line in collected.stdout.splitlines() if "::" in line] == ran
