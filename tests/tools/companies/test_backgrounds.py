"""Generated companies' backgrounds: valid states, the apps' read actions find them, sizes, clocks, determinism."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tools import REGISTRY
from tools.companies import Company, company, company_state
from tools.companies.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text
from tools.kernel.world import AppState, Context, World

KEYS = ("gen-1", "gen-2", "gen-3")
APPS = ("gmail", "calendar", "drive", "box", "onedrive", "sharepoint", "slack", "helpdesk")

# app -> collection -> (fewest, most) records in any company of 25-120 people
SIZES: dict[str, dict[str, tuple[int, int]]] = {
    "gmail": {"messages": (50, 300)},
    "calendar": {"events": (30, 150), "rooms": (2, 40)},
    "drive": {"files": (40, 260), "shared_drives": (5, 11)},
    "box": {"files": (40, 200), "collaborations": (20, 150)},
    "onedrive": {"items": (40, 200)},
    "sharepoint": {"sites": (5, 11), "files": (40, 260), "items": (30, 330)},
    "slack": {"channels": (5, 15), "messages": (100, 500)},
    "helpdesk": {"queues": (2, 2), "tickets": (30, 120)},
}


def _ctx(key: str, app: str) -> Context[Any]:
    info = company(key)
    states: dict[str, AppState] = {
        name: REGISTRY.apps[name].state.model_validate(company_state(key, name)) for name in (app, "directory")
    }
    return Context(World(info.now, info.timezone, info.user, states, BlobStore(BLOBS)), app, None)


def _call(c: Context[Any], action: str, /, **args: Any) -> Any:
    return REGISTRY.apps[c.app].actions[action].invoke(c, args)


def _ids(state: dict[str, Any]) -> list[str]:
    return [rid for records in state.values() if isinstance(records, dict) for rid in records]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("app", APPS)
def test_background_validates_with_sizes_in_range_and_background_ids(key: str, app: str) -> None:
    state = company_state(key, app)
    REGISTRY.apps[app].state.model_validate(state)
    for collection, (low, high) in SIZES[app].items():
        assert low <= len(state[collection]) <= high, (app, collection, len(state[collection]))
    # helpdesk tickets keep the app's own HD-<n> keys (it looks them up in upper case); statuses are keyed by person
    own_keys = {"tickets", "statuses"}
    ids = [rid for name, records in state.items() if name not in own_keys for rid in records]
    assert ids and all(rid.startswith("bg_") for rid in ids)
    assert all(k.startswith("HD-") for k in state.get("tickets", {}))


@pytest.mark.parametrize("key", KEYS)
def test_read_actions_find_background_records(key: str) -> None:
    info = company(key)
    gmail = _ctx(key, "gmail")
    found = _call(gmail, "search_messages", query="in:inbox")
    assert found["results"]
    assert _call(gmail, "get_thread", thread_id=found["results"][0]["thread_id"])["messages"]

    cal = _ctx(key, "calendar")
    assert _call(cal, "list_events", start=info.now.date().isoformat())["events"]
    assert _call(cal, "list_rooms")["rooms"]

    drive = _ctx(key, "drive")
    assert len(_call(drive, "list_shared_drives")["results"]) >= 5
    assert _call(drive, "search_files", query="", kind="file")["results"]

    box = _ctx(key, "box")
    top = _call(box, "list_folder", folder_id="0")["results"]
    assert top and _call(box, "list_folder", folder_id=top[0]["id"])["results"]

    one = _ctx(key, "onedrive")
    assert [e["name"] for e in _call(one, "list_children")["results"]] == ["Desktop", "Documents"]
    assert _call(one, "list_shared_with_me")["results"]

    sp = _ctx(key, "sharepoint")
    sites = _call(sp, "list_sites")["results"]
    site = next(s for s in sites if s["name"] == info.user_record["department"])
    assert _call(sp, "list_library", site=site["name"])["results"]
    assert _call(sp, "query_items", site=site["name"], list_name="Action items")["results"]

    slack = _ctx(key, "slack")
    channels = {c["name"] for c in _call(slack, "list_channels")["results"]}
    assert {"#general", "#random"} <= channels
    assert _call(slack, "get_history", channel="#general")["messages"]

    desk = _ctx(key, "helpdesk")
    assert {q["name"] for q in _call(desk, "list_queues")["queues"]} == {"IT", "Facilities"}
    tickets = _call(desk, "search_tickets")["results"]
    assert tickets and _call(desk, "get_ticket", ticket_id=tickets[0]["id"])["id"] == tickets[0]["id"]


def _people(info: Company) -> dict[str, dict[str, Any]]:
    return {str(p["email"]): p for p in info.people.values()}


@pytest.mark.parametrize("key", KEYS)
def test_mail_and_chat_sit_in_the_past_in_their_authors_working_hours(key: str) -> None:
    info = company(key)
    people = _people(info)
    for message in company_state(key, "gmail")["messages"].values():
        when = datetime.fromisoformat(message["date"])
        assert when < info.now
        sender = people.get(message["sender"])
        if sender is not None:
            local = when.astimezone(ZoneInfo(sender["timezone"]))
            assert 9 <= local.hour < 19 and local.weekday() < 5, (message["id"], local)
    for message in company_state(key, "slack")["messages"].values():
        when = datetime.fromisoformat(message["ts"])
        assert when < info.now
        local = when.astimezone(ZoneInfo(people[message["user"]]["timezone"]))
        assert 9 <= local.hour < 19 and local.weekday() < 5, (message["id"], local)


@pytest.mark.parametrize("key", KEYS)
def test_calendar_is_around_now_in_organizers_hours_with_manager_one_on_ones(key: str) -> None:
    info = company(key)
    people = _people(info)
    events = company_state(key, "calendar")["events"].values()
    starts = [datetime.fromisoformat(e["start"]) for e in events if not e.get("recurrence")]
    assert any(s < info.now for s in starts) and any(s > info.now for s in starts)
    for e in events:
        organizer = people[e["organizer"]]
        assert e["time_zone"] == organizer["timezone"]
        local = datetime.fromisoformat(e["start"]).astimezone(ZoneInfo(organizer["timezone"]))
        assert 9 <= local.hour < 17 and local.weekday() < 5, (e["id"], local)
    one_on_ones = [e for e in events if e["title"].endswith("1:1")]
    assert one_on_ones
    for e in one_on_ones:
        boss, other = (people[a["email"]] for a in e["attendees"][:2])
        assert other["manager"] == boss["email"]
    user = people[info.user]
    if user["manager"]:
        assert any({a["email"] for a in e["attendees"]} == {info.user, user["manager"]} for e in one_on_ones), (
            "the user has a 1:1 with their manager"
        )


@pytest.mark.parametrize("key", KEYS)
def test_rooms_are_never_double_booked(key: str) -> None:
    booked: dict[str, list[tuple[datetime, datetime]]] = {}
    for e in company_state(key, "calendar")["events"].values():
        if e.get("room"):
            booked.setdefault(e["room"], []).append(
                (datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"]))
            )
    assert booked
    for spans in booked.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_helpdesk_staff_come_from_it_and_operations() -> None:
    for key in KEYS:
        info = company(key)
        people = _people(info)
        for queue in company_state(key, "helpdesk")["queues"].values():
            home = {"IT": "IT", "Facilities": "Operations"}[queue["name"]]
            departments = {people[s]["department"] for s in queue["staff"]}
            if any(p["department"] == home for p in people.values()):
                assert departments == {home}


def test_documents_are_real_files() -> None:
    files = company_state("gen-1", "drive")["files"].values()
    kinds = {f["name"].rsplit(".", 1)[-1]: f for f in files if f["kind"] == "file"}
    assert set(kinds) == {"docx", "xlsx", "pdf", "csv"}
    for f in kinds.values():
        data = BLOBS[f["blob"]]
        assert len(data) == f["size"]
        assert extract_text(data, f["name"]).strip()
    attachments = [a for m in company_state("gen-1", "gmail")["messages"].values() for a in m["attachments"]]
    assert attachments and all(a["blob"] in BLOBS for a in attachments)


def _digest(key: str) -> str:
    states = {app: company_state(key, app) for app in APPS}
    return hashlib.sha256(json.dumps(states, sort_keys=True).encode()).hexdigest()


def test_two_builds_are_equal() -> None:
    from tools.companies.generated.backgrounds import BACKGROUNDS

    info = company("gen-2")
    assert sorted(BACKGROUNDS) == sorted(APPS)
    for app, build in BACKGROUNDS.items():
        first = build(info, random.Random(f"background:gen-2:{app}"))
        again = build(info, random.Random(f"background:gen-2:{app}"))
        assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
        assert first == company_state("gen-2", app)


@pytest.mark.slow
def test_another_process_with_another_hash_seed_builds_the_same_bytes() -> None:
    code = "from tests.tools.companies.test_backgrounds import _digest; print(_digest('gen-3'))"
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=root)
    assert out.stdout.strip() == _digest("gen-3")


def test_sharing_links_name_the_sessions_company() -> None:
    info = company("gen-2")
    stem = info.domain.split(".")[0]
    box = _ctx("gen-2", "box")
    folder = next(iter(company_state("gen-2", "box")["folders"]))
    link = _call(box, "create_shared_link", item_id=folder, access="company")
    assert link["shared_link"]["url"].startswith(f"https://{stem}.app.box.com/s/")
    one = _ctx("gen-2", "onedrive")
    item = next(i for i in company_state("gen-2", "onedrive")["items"].values() if i["owner"] == info.user)
    made = _call(one, "create_sharing_link", item=item["id"], scope="organization")
    assert made["url"].startswith(f"https://onedrive.{info.domain}/s/")
    assert _call(one, "revoke_sharing_link", link=made["url"])


@pytest.mark.parametrize("key", KEYS)
def test_no_one_is_in_two_one_off_meetings_at_once(key: str) -> None:
    spans: dict[str, list[tuple[datetime, datetime]]] = {}
    for e in company_state(key, "calendar")["events"].values():
        if not e.get("recurrence"):
            for a in e["attendees"]:
                if not a.get("resource"):
                    spans.setdefault(a["email"], []).append(
                        (datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"]))
                    )
    assert company(key).user in spans
    for person in spans.values():
        person.sort()
        assert all(a[1] <= b[0] for a, b in zip(person, person[1:], strict=False))
