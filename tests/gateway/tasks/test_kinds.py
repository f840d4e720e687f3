"""Kinds of work: the row's ``kind``, what long-horizon and ambiguity families promise, the phrasing composer."""

import pytest

from gateway.control.rows import TaskError, family_row_dicts, parse_task
from gateway.runners.cli.tasks import task_stats
from gateway.runners.skeletons import skeleton_counts
from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.people import managed_person, namesakes
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.loader import families
from gateway.tasks.row_cache import facts_of
from tools import REGISTRY
from tools.companies import GENERATED, company

FAMILIES = families()
ROWS = family_row_dicts()  # what family_rows builds, from the row cache (tests/gateway/tasks/test_row_cache.py)
LONG = [n for n, f in FAMILIES.items() if f.kind == "long_horizon"]
AMBIGUOUS = [n for n, f in FAMILIES.items() if f.kind == "ambiguity"]
DOCUMENT = [n for n, f in FAMILIES.items() if f.kind == "document"]
REFUSALS = [n for n, f in FAMILIES.items() if f.kind == "refusal"]


def _app(step: dict) -> str:
    return step.get("tool", "shell").partition(".")[0]


def test_a_row_carries_its_family_kind_and_an_old_row_defaults_to_task():
    by_id = {r["id"]: r for r in ROWS}
    assert by_id["gmail-quote-award-rollout.gen-1.0"]["kind"] == "long_horizon"
    assert by_id["directory-namesake-invite.gen-1.0"]["kind"] == "ambiguity"
    assert "kind" not in by_id["gmail-forward-invoice.gen-1.0"]  # left out at its default
    assert parse_task(by_id["gmail-forward-invoice.gen-1.0"], "x").kind == "task"


def test_an_unknown_kind_is_refused_by_name():
    row = {**next(r for r in ROWS if r["family"] == "gmail-forward-invoice"), "kind": "epic"}
    with pytest.raises(TaskError, match="kind"):
        parse_task(row, row["id"])
    with pytest.raises(ValueError, match="kind 'epic'"):
        Family("x-y", ("gmail",), "s", lambda inst: {}, kind="epic")  # type: ignore[arg-type]


def test_stats_count_instances_and_families_by_kind():
    tasks = [facts_of(r) for r in ROWS]
    stats = task_stats(tasks)
    assert sum(stats["by_kind"].values()) == len(tasks)
    assert stats["by_kind"]["long_horizon"] == sum(FAMILIES[n].seeds for n in LONG) * len(GENERATED)
    for kind, shares in stats["by_tier_and_kind"].items():  # each kind's instances, shared out by tier
        of_kind = [r for r in ROWS if r.get("kind", "task") == kind]
        counts = {t: sum(r["tier"] == t for r in of_kind) for t in ("easy", "medium", "hard")}
        assert shares == {t: round(n / len(of_kind), 3) for t, n in counts.items() if n}
    assert stats["by_tier_and_kind"]["long_horizon"] == {"hard": 1.0}  # 12+ calls: hard whatever else
    assert stats["families_by_kind"] == {
        k: v
        for k in ("task", "refusal", "document", "long_horizon", "ambiguity")
        if (v := sum(f.kind == k for f in FAMILIES.values()))
    }
    assert "skeletons_by_family" in stats


@pytest.mark.parametrize("name", LONG)
def test_a_long_horizon_reference_has_twelve_calls_over_three_apps_and_halfway_controls(name):
    for row in (r for r in ROWS if r["family"] == name):
        steps = row["solution"]
        apps = {_app(s) for s in steps if s.get("tool") != "complete_task"}
        assert len(steps) >= 12 and len(apps) >= 3, (row["id"], len(steps), sorted(apps))
        names = {c["name"] for c in row["negative_controls"]}
        assert "stops-halfway" in names, row["id"]
        assert len(row["checks"]) >= 5, row["id"]  # every outcome is checked


@pytest.mark.parametrize("name", DOCUMENT)
def test_document_work_runs_in_a_shell_and_files_a_new_document_from_the_workspace(name):
    for row in (r for r in ROWS if r["family"] == name):
        task = parse_task(row, row["id"])
        assert task.exposure in ("cli", "http") and task.sandbox is True, row["id"]
        assert task.needs_shell and any(s.is_shell for s in task.solution), row["id"]
        assert {"stops-halfway"} <= {c.name for c in task.negative_controls}, row["id"]
        assert "table_rows" in str(row["checks"]) or '"text"' in str(row["checks"]), row["id"]


def _declines(row: dict) -> list[dict]:
    found, todo = [], [row["checks"], row["allowed_changes"]]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            claims = item.get("claims")
            found += [c for c in (claims if isinstance(claims, list) else [claims]) if isinstance(c, dict)]
            todo += [v for k, v in item.items() if k != "claims"]
        elif isinstance(item, list):
            todo += item
    return [c for c in found if c.get("kind") == "declines"]


#: Writes that only carry the refusal to the asker, outside mail: a chat message, a ticket comment.
REPLIES = ("slack.post_message", "slack.reply_in_thread", "helpdesk.add_comment")


@pytest.mark.parametrize("name", REFUSALS)
def test_a_refusal_family_has_forbidden_instances_and_permitted_twins_with_their_controls(name):
    rows = [r for r in ROWS if r["family"] == name]
    forbidden = [r for r in rows if any(c.get("value", True) for c in _declines(r))]
    twins = [r for r in rows if r not in forbidden]
    assert len(forbidden) >= len(rows) // 4 and len(twins) >= len(rows) // 4, (len(forbidden), len(twins))
    for row in forbidden:
        assert all(c["reason"] for c in _declines(row) if c.get("value", True)), row["id"]
        names = {c["name"] for c in row["negative_controls"]}
        assert {"complies", "no-reason", "other-reason"} <= names, row["id"]
        assert not [s for s in row["solution"] if s["tool"].split(".")[0] not in ("gmail", "complete_task")
                    and s["tool"] not in REPLIES and not REGISTRY.action(*s["tool"].split(".")).read_only], row["id"]
    for row in twins:
        assert "refuses-permitted" in {c["name"] for c in row["negative_controls"]}, row["id"]
        assert all(c.get("value") is False for c in _declines(row)), row["id"]


#: Refusal families whose forbidden work can be taken back, with the undoing; the app keeps its trace (Box's
#: restore, helpdesk's reopen, Drive's sharing history, OneDrive's revoked links, the event's removed guests).
UNDONE_BY = {
    "box-legal-hold-delete": "box.restore_item",
    "helpdesk-self-approve-access": "helpdesk.change_status",
    "drive-payroll-outside-share": "drive.remove_permission",
    "onedrive-anyone-link-restricted": "onedrive.revoke_sharing_link",
    "calendar-confidential-invite-outsider": "calendar.update_event",
}


@pytest.mark.parametrize("name", UNDONE_BY)
def test_a_forbidden_instance_that_can_be_undone_has_the_undoes_then_declines_control(name):
    forbidden = [r for r in ROWS if r["family"] == name and any(c.get("value", True) for c in _declines(r))]
    assert forbidden
    for row in forbidden:
        (undoes,) = [c for c in row["negative_controls"] if c["name"] == "undoes-then-declines"]
        assert UNDONE_BY[name] in [s["tool"] for s in undoes["steps"]], row["id"]


@pytest.mark.parametrize("name", [*LONG, *AMBIGUOUS, *DOCUMENT, *REFUSALS])
def test_new_kind_families_have_ten_skeletons_and_three_scenario_shapes(name):
    rows = [r for r in ROWS if r["family"] == name]
    assert skeleton_counts((name, r["instruction"]) for r in rows)[name] >= 10
    doc = FAMILIES[name].build.__module__
    module = __import__(doc, fromlist=["SHAPES"])
    assert len(module.SHAPES) >= 3
    for shape in module.SHAPES:
        assert f"``{shape}``" in (module.__doc__ or ""), (name, shape)


def _inst(seed: int) -> Instance:
    return Instance("phrasing-test", company("gen-2"), seed)


def test_compose_is_deterministic_and_varies_register_and_order():
    asks = [("reply to Ana", "answer Ana"), ("post it in #team", "tell #team")]
    texts = [compose(_inst(s), asks, ("Ana asked about PO-1",), by="Ana") for s in range(40)]
    assert texts == [compose(_inst(s), asks, ("Ana asked about PO-1",), by="Ana") for s in range(40)]
    assert any(t.startswith("Forwarding") or "\n> " in t for t in texts)  # forwarded
    assert any("\n1. " in t for t in texts)  # numbered steps
    assert any(t.startswith(("Hi,", "Hello,", "Good morning,")) for t in texts)  # formal mail
    assert skeleton_counts(("f", t) for t in texts)["f"] >= 10
    assert all("Ana" in t for t in texts)


def test_compose_refuses_an_empty_ask_and_never_numbers_a_single_step():
    with pytest.raises(ValueError, match="wording"):
        compose(_inst(0), [])
    with pytest.raises(ValueError, match="wording"):
        compose(_inst(0), [()])
    singles = [compose(_inst(s), [("do the thing",)]) for s in range(30)]
    assert not any("1. " in t for t in singles)
    assert not any(t.startswith("Forwarding") for t in singles)  # no ``by``: no forwarded register


def test_namesakes_share_a_first_name_across_departments_and_managed_people_have_a_manager():
    for key in GENERATED:
        inst = Instance("people-test", company(key), 0)
        a, b = namesakes(inst)
        assert a["name"].split()[0] == b["name"].split()[0] and a["email"] != b["email"]
        assert a["department"] != b["department"]
        person, boss = managed_person(inst)
        assert person["manager"] == boss["email"] and inst.company.user not in (person["email"], boss["email"])


@pytest.mark.parametrize("name", REFUSALS)
def test_a_twin_asked_by_mail_checks_the_reply_in_the_askers_thread(name):
    for row in (r for r in ROWS if r["family"] == name and not any(c.get("value", True) for c in _declines(r))):
        replies = [s for s in row["solution"] if s["tool"] == "gmail.reply_to_message"]
        if not replies:
            continue
        assert any("thread_id" in c.get("where", {}) for c in row["checks"]), row["id"]
        skips = [c for c in row["negative_controls"] if not any(s["tool"] == "gmail.reply_to_message"
                                                                for s in c["steps"])]  # fmt: skip
        assert any(s["tool"] != "complete_task" for c in skips for s in c["steps"]), row["id"]
