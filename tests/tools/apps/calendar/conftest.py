"""Helpers the calendar's tests share: a context over the default company and finders for its events."""

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER

PRIYA = "priya.shah@northwind.example"
OWEN = "owen.bell@northwind.example"


def ctx():
    return app_ctx("calendar")


def event_titled(c, title, nth=0):
    hits = sorted((e for e in c.state.events.values() if e.title == title), key=lambda e: e.start)
    return hits[nth]


def mine(c):
    return [e for e in c.state.events.values() if any(a.email == USER for a in e.attendees)]


def slots(out):
    return [(s["start"][5:16], s["end"][11:16]) for s in out["slots"]]


def new_series(c, **extra):
    args = {
        "title": "Offsite prep",
        "start": "2026-03-16T15:00",
        "end": "2026-03-16T15:30",
        "attendees": ["ruby.walker@northwind.example", "amelia.ward@northwind.example"],
        "recurrence": "weekly",
        "recurrence_count": 5,
        **extra,
    }
    return call(c, "create_event", **args)


def occurrences(c, query="offsite prep", start="2026-03-01", end="2026-05-01"):
    out = call(c, "list_events", start=start, end=end, query=query, page_size=100)
    return [(e["id"], e["start"][:16]) for e in out["events"]]
