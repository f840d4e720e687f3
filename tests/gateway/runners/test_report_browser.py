"""The report in a real browser: headless Chromium opens every page of a report of real rollouts from disk.

Two runs of ``company-gateway rollout`` with the scripted model (right, wrong and masked episodes; then
the same tasks played right) make a report; the pages must draw with no console error, the overview must
give ``rollout``'s own figures, filters must change the rows, an episode page must show every call and
check. Screenshots of each page kind go to ``REPORT_SHOTS`` when it names a folder.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from gateway.runners.report import build_report, load_run
from tests.gateway.runners.browser import Browser, chromium_path
from tests.gateway.runners.report_runs import make_run

pytestmark = pytest.mark.timeout(300)


def need_chromium() -> None:
    """Skip without chromium, or fail under CI=true (like tests/harness/conftest.py's missing_tool)."""
    if chromium_path() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed; CI=true requires it (.ci/run installs it)", pytrace=False)
        pytest.skip("chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(run A's path, what rollout printed for it, run B's path, scripts): 11 tasks x 2 mixed, 11 x 1 right."""
    need_chromium()
    folder = tmp_path_factory.mktemp("runs")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        scripts = make_run(folder / "mixed.jsonl", count=11, repeats=2, concurrency=4)
        make_run(folder / "right.jsonl", count=11, repeats=1, concurrency=4, scripts=("oracle",))
    return folder / "mixed.jsonl", printed.getvalue(), folder / "right.jsonl", scripts


@pytest.fixture(scope="module")
def site(runs, tmp_path_factory):
    mixed, _, right, _ = runs
    root = tmp_path_factory.mktemp("site")
    build_report([load_run(mixed), load_run(right)], root, fold_at=300)  # small: some texts are surely folded
    return root


@pytest.fixture(scope="module")
def browser():
    need_chromium()
    with Browser() as b:
        yield b


def url(site: Path, page: str, query: str = "") -> str:
    return site.joinpath(page).as_uri() + (f"?{query}" if query else "")


def shoot(b: Browser, name: str) -> None:
    folder = os.environ.get("REPORT_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        b.screenshot(Path(folder) / f"{name}.png")


def texts(b: Browser, selector: str) -> list[str]:
    return b.evaluate(f"[...document.querySelectorAll({selector!r})].map((e) => e.textContent)")


def test_the_overview_gives_the_rollouts_own_figures(runs, site, browser):
    mixed, printed, _, scripts = runs
    records = load_run(mixed).records
    assert browser.open(url(site, "index.html")) == "drawn"
    shoot(browser, "overview")
    figures = {k: browser.evaluate(f"document.getElementById('fig-{k}').textContent")
               for k in ("episodes", "masked", "mean", "passk")}  # fmt: skip
    printed_mean = re.search(r"mean reward \(unmasked\)\s*│\s*([\d.]+)", printed).group(1)
    printed_pass = re.search(r"pass@2\s*│\s*([\d.]+) over", printed).group(1)
    assert figures == {"episodes": "22", "masked": str(sum(r.mask_sample for r in records)), "mean": printed_mean,
                       "passk": printed_pass}  # fmt: skip
    assert sum(r.mask_sample for r in records) == 2 * sum(s.startswith("500") for s in scripts.values()) > 0
    ends = dict(zip(texts(browser, "#ends tbody td:first-child"), texts(browser, "#ends tbody td:nth-child(2)"),
                    strict=True))  # fmt: skip
    assert ends == {k: str(v) for k, v in Counter(r.end_reason for r in records).items()}
    assert browser.errors() == []


def test_the_tasks_page_filters_and_sorts_its_rows(runs, site, browser):
    mixed, _, _, scripts = runs
    records = load_run(mixed).records
    assert browser.open(url(site, "tasks.html", "run=0")) == "drawn"
    shoot(browser, "tasks")
    rows = lambda: texts(browser, "#tasks tbody tr td:first-child")  # noqa: E731
    assert sorted(rows()) == sorted(scripts)

    def choose(select: str, value: str) -> list[str]:
        browser.evaluate(f"(() => {{ const s = document.getElementById({select!r}); s.value = {value!r};"
                         "s.dispatchEvent(new Event('change')); })()")  # fmt: skip
        return rows()

    def mean(task: str) -> float | None:
        kept = [r.reward for r in records if r.task_id == task and not r.mask_sample]
        return sum(kept) / len(kept) if kept else None

    assert sorted(choose("f-reward", "fail")) == sorted(t for t in scripts if mean(t) == 0.0)
    assert sorted(choose("f-reward", "masked")) == sorted(t for t, s in scripts.items() if s.startswith("500"))
    choose("f-reward", "")
    with_errors = {r.task_id for r in records if any(not c["ok"] for c in r.tool_calls)}
    assert with_errors and sorted(choose("f-errors", "with")) == sorted(with_errors)
    assert choose("f-errors", "unoffered") == [t for t, s in scripts.items() if s == "unoffered"]
    choose("f-errors", "")
    no_call = {r.task_id for r in records if r.end_reason == "no_tool_call"}
    assert len(no_call) == 2 and sorted(choose("f-end", "no_tool_call")) == sorted(no_call)  # no_tool_call, half
    choose("f-end", "")
    click_mean = "[...document.querySelectorAll('#tasks th')].find((th) => th.textContent === 'mean').click()"
    browser.evaluate(click_mean)  # a number column sorts highest first, then lowest first
    assert rows()[0] in {t for t in scripts if mean(t) == 1.0}
    browser.evaluate(click_mean)
    assert mean(rows()[0]) is None and browser.errors() == []


def test_an_episode_page_shows_every_call_and_check(runs, site, browser):
    mixed, _, _, scripts = runs
    records = load_run(mixed).records
    stumbled = next(i for i, r in enumerate(records) if scripts[r.task_id] == "stumble")
    unoffered = next(i for i, r in enumerate(records) if scripts[r.task_id] == "unoffered")
    for index in (stumbled, unoffered):
        record = records[index]
        assert browser.open(url(site, "episode.html", f"run=0&e={index}")) == "drawn"
        assert browser.evaluate("[...document.querySelectorAll('.call')].map((c) => c.dataset.tool)") == [
            c["tool"] for c in record.tool_calls]
        assert browser.evaluate("document.querySelectorAll('.call.error').length") == sum(
            not c["ok"] for c in record.tool_calls) > 0
        assert texts(browser, "#checks tbody td:first-child") == [c["name"] for c in record.checks]
        assert texts(browser, "#checks tbody td:nth-child(2)") == ["passed" if c["passed"] else "failed"
                                                                    for c in record.checks]  # fmt: skip
        assert browser.evaluate("document.getElementById('facts').textContent").count(record.grader_version) == 1
    assert "not offered to the model" in browser.evaluate("document.querySelector('.call.error').textContent")
    shoot(browser, "episode")
    assert browser.errors() == []


def test_a_folded_value_loads_whole_when_opened(site, browser):
    for index in range(22):
        browser.open(url(site, "episode.html", f"run=0&e={index}"))
        if browser.evaluate("document.querySelectorAll('details.long').length"):
            break
    opened = browser.evaluate("""new Promise((resolve) => {
        const details = [...document.querySelectorAll('details.long')].find((d) => d.querySelector('summary')
          .textContent.startsWith('long value'));
        const pre = details.querySelector('pre');
        details.open = true;
        const wait = () => pre.textContent.endsWith(' …') ? setTimeout(wait, 10) : resolve([
          pre.textContent.length, Number(details.querySelector('summary').textContent.match(/([\\d,]+) char/)[1]
          .replace(/,/g, ''))]);
        wait();
    })""")
    assert opened[0] == opened[1] > 300
    assert browser.errors() == []


def test_the_task_and_compare_pages_list_the_episodes_that_changed(runs, site, browser):
    mixed, _, right, scripts = runs
    a, b = load_run(mixed).records, load_run(right).records
    assert browser.open(url(site, "task.html", "run=0&t=0")) == "drawn"
    shoot(browser, "task")
    assert len(texts(browser, "#episodes tbody tr")) == 2
    assert browser.open(url(site, "compare.html")) == "drawn"
    shoot(browser, "compare")
    in_b = {(r.task_id, r.repeat): (r.reward, r.mask_sample) for r in b}
    changed = sorted(r.task_id for r in a if (r.task_id, r.repeat) in in_b
                     and in_b[(r.task_id, r.repeat)] != (r.reward, r.mask_sample))  # fmt: skip
    assert changed and sorted(texts(browser, "#changed tbody td:first-child")) == changed
    assert len(texts(browser, "#cmp-tasks tbody tr")) == len(scripts)
    assert browser.errors() == []


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_200_episode_report_opens_with_every_page_and_rollouts_own_table(tmp_path, browser):
    run = tmp_path / "run200.jsonl"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        scripts = make_run(run, count=20, repeats=10, concurrency=4)
    records = load_run(run).records
    build_report([load_run(run)], tmp_path / "site")
    site = tmp_path / "site"
    assert browser.open(url(site, "index.html")) == "drawn"
    printed_mean = re.search(r"mean reward \(unmasked\)\s*│\s*([\d.]+)", printed.getvalue()).group(1)
    printed_pass = re.search(r"pass@10\s*│\s*([\d.]+) over", printed.getvalue()).group(1)
    assert [browser.evaluate(f"document.getElementById('fig-{k}').textContent") for k in ("episodes", "mean",
            "passk")] == ["200", printed_mean, printed_pass]  # fmt: skip
    assert browser.open(url(site, "tasks.html", "run=0")) == "drawn"
    assert len(texts(browser, "#tasks tbody tr")) == len(scripts) == 20
    for index in (0, 199):
        assert browser.open(url(site, "episode.html", f"run=0&e={index}")) == "drawn"
        assert len(texts(browser, ".call")) == len(records[index].tool_calls)
    assert browser.open(url(site, "task.html", "run=0&t=19")) == "drawn"
    assert len(texts(browser, "#episodes tbody tr")) == 10
    assert browser.errors() == []
