"""World templates for seeds: built off the event loop, kept with a bound, and nothing kept of a refused row."""

import copy
import json
import threading

import pytest

from gateway import Gateway, Settings
from gateway.control import worlds
from gateway.control.rows import load_tasks
from gateway.exceptions import TaskError
from tools.companies import catalog
from tools.companies.shared import BLOBS, make_document
from tools.kernel import documents
from tools.kernel.blobs import blob_id

BASE = "http://127.0.0.1:1/"
ROW = {
    "id": "t1",
    "instruction": "Move the ops sync.",
    "apps": ["calendar"],
    "checks": [{"name": "moved", "kind": "record", "app": "calendar", "collection": "events",
                "where": {"id": "evt_016", "start": {"instant": "2026-03-12T12:00:00-04:00"}}}],
    "allowed_changes": [{"app": "calendar", "collection": "events", "kinds": ["update"], "where": {"id": "evt_016"}}],
}


def gateway() -> Gateway:
    return Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), {})


def with_document(n: int) -> dict:
    """A row whose drive file is a document made from its spec, and whose checks already pass (so it is refused)."""
    spec = {"kind": "pdf", "title": f"Refused {n}", "lines": [f"line {i} of {n}" for i in range(20)]}
    blob = blob_id(make_document(spec, cache=False))
    who, at = "nina.patel@northwind.example", "2026-03-01T10:00:00-05:00"
    record = {"name": f"refused-{n}.pdf", "kind": "file", "mime_type": "application/pdf", "blob": blob, "size": 100,
              "parent_id": "root", "owner": who, "created": at, "modified": at, "modified_by": who,
              "permissions": [{"email": who, "role": "owner"}]}
    return {
        **ROW, "id": f"refused-{n}", "apps": ["drive"], "documents": {blob: spec},
        "world": {"fixture": "default", "overrides": {"drive": {"files": {f"file_r{n}": record}}}},
        "checks": [{"name": "there", "kind": "record", "app": "drive", "collection": "files",
                    "where": {"id": f"file_r{n}"}}],
        "allowed_changes": [],
    }


async def test_refused_rows_leave_no_template_document_or_text_behind(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the on-disk cache of made documents, empty
    gw = gateway()
    with pytest.raises(TaskError):  # the company's own records and documents are built once, and kept
        await gw.seed({"task": with_document(200)}, BASE)
    made = tmp_path / "company-gateway" / "documents"  # made by the warm-up unless this process had them already

    def made_files() -> list:
        return sorted(made.iterdir()) if made.is_dir() else []

    blobs, texts, files = len(BLOBS), documents.text_cache_size(), made_files()
    for n in range(200):
        with pytest.raises(TaskError, match="already pass on the initial world"):
            await gw.seed({"task": with_document(n)}, BASE)
    assert len(gw.templates) == 0
    assert len(BLOBS) == blobs and documents.text_cache_size() == texts
    assert made_files() == files
    # The same row, passing, is kept once: its document in its template only, not in the shared blobs.
    good = with_document(0)
    good["checks"] = [{"name": "gone", "kind": "no_record", "app": "drive", "collection": "files",
                       "where": {"id": "file_r0"}}]
    await gw.seed({"task": good}, BASE)
    assert len(gw.templates) == 1 and len(BLOBS) == blobs


async def test_a_seed_builds_its_world_in_a_worker_thread(monkeypatch):
    built: list[int] = []
    make = worlds.world_template

    def recorded(task, **options):
        built.append(threading.get_ident())
        return make(task, **options)

    monkeypatch.setattr(worlds, "world_template", recorded)
    gw = gateway()
    check = {"name": "x", "kind": "answer", "match": {"contains": "zz9"}}
    row = {**ROW, "world": {"fixture": "gen-4"}, "checks": [check], "allowed_changes": []}
    await gw.seed({"task": row}, BASE)
    await gw.seed({"task": row}, BASE)  # kept: not built again
    assert len(built) == 1 and built[0] != threading.get_ident()


@pytest.mark.parametrize("fixture", ["gen-1\n", "gen-12", "gen-999999", "gen-01", " default"])
async def test_a_row_naming_a_company_outside_the_catalogue_is_refused_unbuilt(monkeypatch, fixture):
    def never(seed):
        raise AssertionError("a company was built")

    monkeypatch.setattr(catalog, "generate_org", never)
    row = {**ROW, "world": {"fixture": fixture}}
    with pytest.raises(TaskError, match=r"world.fixture: .*unknown company .*use 'default' or 'gen-<n>' for n from 1"):
        await gateway().seed({"task": row}, BASE)


def test_companies_are_kept_least_recently_used_first_out():
    kept = catalog.company_cache_size()
    try:
        catalog.set_company_cache_size(2)
        for key in ("gen-1", "gen-2", "gen-1", "gen-3"):
            catalog.company(key)
        assert list(catalog._built) == ["gen-1", "gen-3"]
        with pytest.raises(ValueError, match="at least 1 company"):
            catalog.set_company_cache_size(0)
    finally:
        catalog.set_company_cache_size(kept)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"timezone": "Mars/Olympus"}, r"timezone: .*unknown time zone 'Mars/Olympus'"),
        ({"timezone": "../../etc/passwd"}, r"timezone: .*unknown time zone"),
        ({"now": "2026-03-12T09:00:00"}, r"now: .*the time has no zone"),
        ({"now": "9999-12-31T23:59:59+14:00"}, r"now: .*year 9999 is out of range; give a time in 1970-2200"),
        ({"now": "0001-01-01T00:00:00+00:00"}, r"now: .*year 1 is out of range"),
        ({"user": "bob"}, r"user: .*'bob' is not an email address"),
        ({"user": "a" * 100_000}, r"user: .*'a{60}' is not an email address"),
        ({"user": "nobody@nowhere"}, r"user: .*'nobody@nowhere' is not an email address"),
        ({"world": {"overrides": {"gmail": {"messages": {}}}}}, r"world.overrides: 'gmail' is not one of the row's"),
    ],
)
async def test_a_bad_zone_clock_or_stray_override_is_refused_at_seed_and_load(tmp_path, change, message):
    row = {**copy.deepcopy(ROW), **change}
    with pytest.raises(TaskError, match=message):
        await gateway().seed({"task": row}, BASE)
    path = tmp_path / "tasks.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(TaskError, match=message):
        load_tasks(path)


async def test_a_row_with_a_zone_and_an_aware_clock_seeds():
    row = {**ROW, "timezone": "Europe/Berlin", "now": "2026-03-12T09:00:00+01:00"}
    info = await gateway().seed({"task": row}, BASE)
    assert info["task_id"] == "t1"


async def test_inline_rows_keep_at_most_their_own_share_of_templates(monkeypatch):
    monkeypatch.setattr(worlds, "MAX_INLINE_TEMPLATES", 3)
    gw = gateway()
    check = {"name": "x", "kind": "answer", "match": {"contains": "zz9"}}
    for n in range(5):
        await gw.seed({"task": {**ROW, "id": f"row-{n}", "checks": [check], "allowed_changes": []}}, BASE)
    assert len(gw.templates) == 3


@pytest.mark.parametrize(
    "overrides",
    [
        {"calendar": {"events": {"e" * 100_000: {"title": "x"}}}},
        {"calendar": {"events": {"evt_016": {"f" * 100_000: "x"}}}},
        {"calendar": {"c" * 100_000: {}}},
    ],
    ids=["record-id", "field", "collection"],
)
async def test_a_long_name_in_an_override_is_quoted_short_in_its_refusal(overrides):
    row = {**copy.deepcopy(ROW), "apps": sorted({*ROW["apps"], "calendar"}),
           "world": {"fixture": "default", "overrides": overrides}}  # fmt: skip
    with pytest.raises(TaskError, match=r"world override for calendar: .*\.\.\.") as refused:
        await gateway().seed({"task": row}, BASE)
    assert len(str(refused.value)) < 300
