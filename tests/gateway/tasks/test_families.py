"""Task families: deterministic rows, ids that say family/company/seed, held-out splits, rows that travel.

Every built-in family is checked here for the shape of what it writes; tests/gateway/tasks/test_prove_families.py
proves every instance's grader.
"""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from gateway.control.rows import TaskError, family_row_dicts, load_builtin_tasks, parse_task, select_tasks
from gateway.control.worlds import world_template
from gateway.tasks.kit.base import distractors_of
from gateway.tasks.loader import families, instance_row, tier_of
from tools.companies import GENERATED, CompanyError, company
from tools.kernel.documents import blob_text

FAMILIES = families()
ROWS = family_row_dicts()  # what family_rows builds, from the row cache (tests/gateway/tasks/test_row_cache.py)
BY_FAMILY: dict[str, list[dict]] = {}
for _row in ROWS:
    BY_FAMILY.setdefault(_row["family"], []).append(_row)


@pytest.mark.slow
def test_the_same_family_company_and_seed_give_a_byte_identical_row_in_another_process():
    name = next(iter(FAMILIES))
    here = json.dumps(instance_row(FAMILIES[name], company("gen-3"), 1), sort_keys=True)
    assert here == json.dumps(instance_row(FAMILIES[name], company("gen-3"), 1), sort_keys=True)
    code = (
        "import json,sys; from gateway.tasks.loader import families, instance_row; from tools.companies import company;"
        f"sys.stdout.write(json.dumps(instance_row(families()[{name!r}], company('gen-3'), 1), sort_keys=True))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert there == here


def test_ids_name_family_company_and_seed_and_every_row_parses():
    for row in ROWS:
        assert row["id"] == f"{row['family']}.{row['world']['fixture']}.{row['seed']}"
        parse_task(row, row["id"])
    assert len({r["id"] for r in ROWS}) == len(ROWS)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_each_family_varies_its_instances_and_has_controls(name):
    rows = BY_FAMILY[name]
    family = FAMILIES[name]
    assert len(rows) == family.seeds * len(GENERATED)
    assert len({r["instruction"] for r in rows}) >= 3, "fewer than three phrasings"
    # people, amounts and dates vary: the scenario (its records and what is checked) differs between two
    # instances of one company
    first, second = (json.dumps([r["world"]["overrides"], r["checks"]], sort_keys=True) for r in rows[:2])
    assert first != second
    for row in rows:
        assert row["solution"], row["id"]
        assert len(row["negative_controls"]) >= 2, row["id"]
    answers = [json.dumps(c["expect"], sort_keys=True) for r in rows for c in r["checks"] if "expect" in c]
    if answers:
        assert len(set(answers)) > 1, "the answer is the same in every instance"


def test_held_out_families_and_companies_never_reach_training_rows():
    tasks = load_builtin_tasks()
    train = [t for t in tasks.values() if t.family and t.split == "train"]
    held_out_families = {f.name for f in FAMILIES.values() if f.split != "train"}
    held_out_companies = {k for k, split in GENERATED.items() if split != "train"}
    assert train and all(t.family not in held_out_families for t in train)
    assert all(t.world.fixture not in held_out_companies for t in train)
    for t in tasks.values():
        if t.family:
            order = ("train", "validation", "test").index
            expect = max(FAMILIES[t.family].split, GENERATED[t.world.fixture], key=order)
            assert t.split == expect, t.id
    assert {t.split for t in tasks.values() if t.family} == {"train", "validation", "test"}


def test_select_tasks_filters_by_split_and_family_and_names_what_is_unknown():
    tasks = load_builtin_tasks()
    name = next(iter(FAMILIES))
    chosen = select_tasks(tasks, "test", [name])
    assert chosen and all(t.split == "test" and t.family == name for t in chosen.values())
    handwritten = select_tasks(tasks, None, ["none"])
    assert len(handwritten) == len(load_builtin_tasks(families=False))
    with pytest.raises(TaskError, match="unknown split 'dev'"):
        select_tasks(tasks, "dev")
    with pytest.raises(TaskError, match="unknown family 'nope'"):
        select_tasks(tasks, None, ["nope"])


def test_tiers_count_the_reference_length_its_distractors_and_its_decision():
    # points: steps + one per 4 distractors + 3 for a decision; easy <= 4 < medium <= 8 < hard
    assert [tier_of(n, False) for n in (1, 4, 5, 8, 9, 12)] == ["easy", "easy", "medium", "medium", "hard", "hard"]
    assert [tier_of(2, True), tier_of(6, True)] == ["medium", "hard"]
    assert [tier_of(4, False, 3), tier_of(4, False, 4), tier_of(4, False, 19), tier_of(4, False, 20)] == [
        "easy", "medium", "medium", "hard"]  # fmt: skip
    for row in ROWS:
        named = json.dumps([row["solution"], row["checks"], row.get("allowed_changes", [])])
        records = [rid for app in row["world"]["overrides"].values() for coll in app.values() for rid in coll]
        distractors = sum(rid not in named for rid in records)
        assert row["tier"] == tier_of(len(row["solution"]), FAMILIES[row["family"]].decision, distractors), row["id"]


def test_a_row_read_past_more_distractors_can_rise_a_tier():
    fields = {"solution": [{"tool": "gmail.send", "args": {"id": "msg_x1001"}}], "checks": []}
    overrides = {"gmail": {"messages": {"msg_x1001": {}, **{f"msg_x10{n:02d}": {} for n in range(10, 14)}}}}
    assert distractors_of(fields, overrides) == 4  # msg_x1001 is named; the four others are read past


@pytest.mark.slow
def test_an_exported_row_builds_its_documents_in_a_fresh_process(tmp_path):
    row = next(r for r in ROWS if r.get("documents"))
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row) + "\n")
    blob = next(iter(row["documents"]))
    code = (
        "import sys; from gateway.control.rows import load_tasks; from gateway.control.worlds import world_template;"
        "from tools.companies.shared import BLOBS;"
        f"t = load_tasks({str(path)!r})[{row['id']!r}]; tp = world_template(t);"
        "assert 'gateway.tasks.loader' not in sys.modules;"  # no family ran here: the bytes came from the row's spec
        f"assert {blob!r} not in BLOBS;"  # kept in the row's template, not in the companies' shared blobs
        f"sys.stdout.write(str(len(tp.blobs[{blob!r}])))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}  # no cached document bytes: made from the spec
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 0


def test_a_document_spec_that_makes_other_bytes_is_refused():
    original = next(r for r in ROWS if r.get("documents"))
    blob = next(iter(original["documents"]))
    bad = blob.replace(blob[-6:], "000000")
    row = json.loads(json.dumps(original).replace(blob, bad))  # the records name the id the spec is filed under
    spec = row["documents"][bad]
    spec["kind"] = "text"
    spec["text"] = "something else"  # the other documents stay as they were
    with pytest.raises(TaskError, match="makes 'sha256:"):
        world_template(parse_task(row))


def test_generated_companies_are_deterministic_and_sized_as_promised():
    from tools.companies.generated.org import generate_org

    assert generate_org(5) == generate_org(5)
    sizes = []
    for key in GENERATED:
        info = company(key)
        emails = {p["email"] for p in info.people.values()}
        sizes.append(len(info.people))
        assert all(p["manager"] is None or p["manager"] in emails for p in info.people.values()), key
        assert sum(p["manager"] is None for p in info.people.values()) == 1, key
        assert info.user in emails and info.now.tzinfo is not None and info.now.weekday() < 5
        assert {p["email"].split("@")[1] for p in info.people.values()} == {info.domain}
    assert min(sizes) >= 25 and max(sizes) <= 120 and len(set(sizes)) > 3
    assert len({company(k).name for k in GENERATED}) > len(GENERATED) // 2


def test_an_unknown_company_is_refused_by_name():
    with pytest.raises(CompanyError, match="unknown company 'acme'; use 'default' or 'gen-<n>'"):
        company("acme")
    row = {**ROWS[0], "world": {**ROWS[0]["world"], "fixture": "gen-0"}}
    with pytest.raises(TaskError, match=r"world.fixture: .*unknown company 'gen-0'"):
        parse_task(row)


def test_a_family_module_name_must_match_its_family_name():
    counts = Counter(name.replace("-", "_") for name in FAMILIES)
    assert all(v == 1 for v in counts.values())
    for name in FAMILIES:
        assert os.path.exists(os.path.join("gateway", "tasks", "families", name.replace("-", "_") + ".py"))


def test_every_family_module_in_the_folder_is_in_the_registry():
    from gateway.tasks import families as package

    folder = os.path.dirname(package.__file__)
    on_disk = sorted(f.removesuffix(".py") for f in os.listdir(folder) if f.endswith(".py") and f != "__init__.py")
    listed = [m.__name__.rsplit(".", 1)[-1] for m in package.MODULES]
    assert listed == on_disk  # a new module left out of MODULES (or out of order) would never be built


def test_a_family_attachment_holds_the_text_its_checks_look_for():
    rows = BY_FAMILY.get("gmail-forward-invoice", [])
    if not rows:
        pytest.skip("the example family is not built in")
    task = parse_task(rows[0])
    template = world_template(task)
    mine = rows[0]["world"]["overrides"]["gmail"]["messages"]
    messages = [m for mid, m in template.states["gmail"].messages.items() if mid in mine]
    world = template.instantiate()
    numbers = [m.attachments[0].filename.removesuffix(".pdf") for m in messages]
    texts = [blob_text(world.blobs, m.attachments[0].blob, m.attachments[0].filename) for m in messages]
    assert len(numbers) == 3
    assert all(n in t for n, t in zip(numbers, texts, strict=True))


def test_a_template_snapshot_built_from_the_overrides_alone_equals_a_full_dump():
    from tools.kernel.world import snapshot_state

    for row in ROWS[:: max(1, len(ROWS) // 60)]:
        template = world_template(parse_task(row))
        for app, state in template.states.items():
            assert template.snapshot[app] == snapshot_state(state), (row["id"], app)


def test_a_document_spec_of_the_wrong_shape_or_a_missing_one_is_refused_by_name():
    from tools.companies.shared import BLOBS

    row = json.loads(json.dumps(next(r for r in ROWS if r.get("documents"))))
    blob = next(iter(row["documents"]))
    gone = {k: v for k, v in row.items() if k != "documents"}
    held = BLOBS.pop(blob, None)  # as in a process that never made it (rows read from the row cache make none)
    try:
        with pytest.raises(TaskError, match="name file content sha256:.*give its spec in documents"):
            world_template(parse_task(gone))
        row["documents"][blob] = {**row["documents"][blob], "lines": 5}
        with pytest.raises(TaskError, match=r"kind 'pdf': a field has the wrong type \(lines: a list of strings\)"):
            world_template(parse_task(row))
    finally:
        if held is not None:
            BLOBS[blob] = held


def test_a_request_never_names_someone_by_a_first_name_two_colleagues_share():
    """``Aisha`` where the company has two Aishas names no one: the request gives the full name then.

    Ambiguity rows are the exception by design: their request names a namesake by the first name and says
    what tells the two apart (a department, who mailed, a manager), as their own tests check.
    """
    import re

    named_alone = []
    for row in ROWS:
        if row.get("kind") == "ambiguity":
            continue
        people = company(row["world"]["fixture"]).people.values()
        firsts = Counter(str(p["name"]).split()[0] for p in people)
        fulls = {str(p["name"]) for p in people}
        for first in (f for f, n in firsts.items() if n > 1):
            named_alone += [
                (row["id"], first)
                for m in re.finditer(rf"\b{re.escape(first)}\b", row["instruction"])
                if not any(row["instruction"].startswith(full, m.start()) for full in fulls)
            ]
    assert named_alone == []


def test_whom_the_work_reaches_can_be_found_with_the_apps_the_row_offers():
    """A mail or share to a colleague needs their address: in the row's apps' records, the directory or the request.

    The default tier checks seeds 0-2 of every family and company; the slow tier the other seeds.
    """
    _check_findable([r for r in ROWS if r["seed"] < 3])


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_whom_the_work_reaches_can_be_found_in_every_later_seed_too():
    _check_findable([r for r in ROWS if r["seed"] >= 3])


def _check_findable(rows: list[dict]) -> None:
    import re

    sends = {"gmail.send_message", "gmail.forward_message", "gmail.create_draft", "onedrive.grant_access",
             "drive.share_file", "calendar.create_event"}  # fmt: skip
    unfindable = []
    for row in rows:
        if "directory" in row["apps"]:
            continue
        task = parse_task(row, row["id"])
        world = json.dumps({app: world_template(task).snapshot.get(app, {}) for app in row["apps"]}).lower()
        world += row["instruction"].lower()  # an address the request writes out is found there
        for step in (s for s in row["solution"] if s.get("tool") in sends):
            for key in ("to", "cc", "recipients", "email", "attendees"):
                value = step["args"].get(key)
                unfindable += [
                    (row["id"], address)
                    for address in (value if isinstance(value, list) else [value])
                    if isinstance(address, str) and re.fullmatch(r"\S+@\S+", address) and address.lower() not in world
                ]
    assert unfindable == []
