"""The chat of a generated company: #general, #random, a channel per department, project channels, a few DMs.

``build(company, rng)`` returns the Slack state as JSON values: 5-15 channels (departments with at
least three people get one; two to four project channels mix departments, one of them private), a
few direct messages with the user, 100-500 messages over the last four weeks in their authors'
working hours, about a quarter of them thread replies, with reactions, a few pins and shared
department documents, and some people's statuses. Ids start with ``bg_`` (statuses are keyed by
the person's directory id, as the app keys them).
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Life, slug

__all__ = ["build"]

_LINES = (
    "Quick update on the {topic}: first draft is up, comments welcome.",
    "Has anyone looked at the {topic} numbers yet?",
    "Reminder: the {topic} is due at the end of the week.",
    "Thanks everyone for the help with the {topic} today!",
    "I'll be a bit late to the {topic} sync, start without me.",
    "Who is the right person to ask about the {topic}?",
    "Heads up: the {topic} moved to next week.",
    "Shared the notes from the {topic} meeting in the channel files.",
    "Can someone review my changes to the {topic} before lunch?",
    "Great work on the {topic}, {name}.",
)
_REPLIES = (
    "On it.",
    "Thanks!",
    "I can take a look this afternoon.",
    "Agreed.",
    "Good point, updated.",
    "Let's discuss in the weekly.",
    "Done.",
    "+1",
    "I'll ask {name}.",
    "Makes sense to me.",
)
_RANDOM = (
    "Anyone up for lunch at the new place around the corner?",
    "Coffee machine on floor 2 is fixed!",
    "Photos from the team outing are in the shared folder.",
    "Happy Friday, everyone.",
    "Does anyone have a spare charger for a meeting room screen?",
    "Book club meets Thursday at 5.",
)
_EMOJI = ("+1", "eyes", "tada", "white_check_mark", "raised_hands", "pray")
_STATUSES = (
    ("In meetings all day", ":calendar:"),
    ("Out sick", ":face_with_thermometer:"),
    ("On holiday", ":palm_tree:"),
    ("Working remotely", ":house_with_garden:"),
    ("Focus time", ":headphones:"),
    ("Commuting", ":bus:"),
)
_PROJECTS = ("atlas", "beacon", "compass", "harbor", "lighthouse", "orbit", "pioneer", "summit", "voyager")


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """Slack: ``{"channels", "messages", "files", "statuses"}``, each ``{id: record}``.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    me = str(company.user)
    everyone = [str(p["email"]) for p in life.people]
    channels: dict[str, dict[str, Any]] = {}

    def channel(name: str, kind: str, members: list[str], purpose: str) -> None:
        creator = rng.choice(members)
        cid = f"bg_ch_{slug(name) or len(channels)}"
        channels[cid] = {
            "id": cid,
            "name": name,
            "kind": kind,
            "topic": "",
            "purpose": purpose,
            "creator": creator,
            "created": life.past(creator, rng.randint(60, 700)).isoformat(),
            "members": sorted(members),
        }

    channel("general", "public", everyone, f"Company-wide news and announcements at {company.name}.")
    channel("random", "public", everyone, "Anything that isn't work.")
    for department, people in life.departments.items():
        if len(people) >= 3 and len(channels) < 9:
            channel(slug(department), "public", [str(p["email"]) for p in people], f"The {department} team.")
    for n, project in enumerate(rng.sample(_PROJECTS, rng.randint(2, 4))):
        team = rng.sample(everyone, min(len(everyone), rng.randint(4, 12)))
        if me not in team and n % 2 == 0:
            team.append(me)
        channel(f"proj-{project}", "private" if n == 1 else "public", team, f"Project {project.capitalize()}.")
    for other in rng.sample(life.others(), 2):
        cid = f"bg_dm_{slug(str(other['id']))}"
        channels[cid] = {
            "id": cid,
            "name": "",
            "kind": "dm",
            "creator": me,
            "members": sorted([me, str(other["email"])]),
            "created": life.past(me, rng.randint(30, 300)).isoformat(),
        }

    messages: list[dict[str, Any]] = []
    files: dict[str, dict[str, Any]] = {}
    budget = min(480, 80 + life.size * 3)
    weights = {cid: (3 if ch["name"] == "general" else 1 if ch["kind"] == "dm" else 2) for cid, ch in channels.items()}
    total = sum(weights.values())
    for cid, ch in channels.items():
        for _ in range(max(3, budget * weights[cid] // total // 2)):
            _post(life, ch, messages, files)
    messages.sort(key=lambda m: (m["ts"], m["channel_id"]))
    numbered: dict[str, dict[str, Any]] = {}
    new_id = {m["_key"]: f"bg_msg_{n:04d}" for n, m in enumerate(messages, start=1)}
    for m in messages:
        mid = new_id[m.pop("_key")]
        thread = m.pop("_thread")
        m["thread_id"] = new_id[thread] if thread is not None else ""
        m["ts"] = m["ts"].isoformat()
        for fid in m["files"]:
            files[fid]["message_id"] = mid
        numbered[mid] = {"id": mid, **m}
    pinned = [m for m in numbered.values() if not m["thread_id"] and channels[m["channel_id"]]["kind"] != "dm"]
    for m in rng.sample(pinned, min(len(pinned), 4)):
        m["pinned_by"], m["pinned_at"] = m["user"], m["ts"]
    statuses = {}
    for p in rng.sample(life.people, min(len(life.people), 4 + life.size // 10)):
        text, emoji = rng.choice(_STATUSES)
        statuses[str(p["id"])] = {"id": str(p["id"]), "email": str(p["email"]), "text": text, "emoji": emoji}
    return {"channels": channels, "messages": numbered, "files": files, "statuses": statuses}


def _post(life: Life, ch: dict[str, Any], messages: list[dict[str, Any]], files: dict[str, dict[str, Any]]) -> None:
    """One channel message, and sometimes a thread of replies under it."""
    rng = life.rng
    members = [life.by_email[e] for e in ch["members"] if e in life.by_email]
    author = rng.choice(members)
    department = str(author["department"])
    when = life.past(author, rng.randint(1, 28))
    if ch["name"] == "random":
        text = rng.choice(_RANDOM)
    else:
        other = rng.choice(members)
        text = rng.choice(_LINES).format(topic=life.topic(department), name=life.first(other))
    key = len(messages)
    shared: list[str] = []
    if ch["kind"] != "dm" and rng.random() < 0.06:
        doc = rng.choice(life.documents(department))
        fid = f"bg_file_{len(files) + 1:03d}"
        files[fid] = {
            "id": fid,
            "name": doc.name,
            "title": doc.name.rsplit(".", 1)[0],
            "mime_type": doc.mime_type,
            "size": doc.size,
            "blob": doc.blob,
            "user": author["email"],
            "channel_id": ch["id"],
            "created": when.isoformat(),
        }
        shared.append(fid)
    messages.append(_message(life, key, ch, author, text, when, None, shared, members))
    if rng.random() < 0.35:
        for _ in range(rng.randint(1, 4)):
            replier = rng.choice(members)
            when = life.after(replier, when, rng.randint(3, 120))
            if when >= life.now:
                break
            reply = rng.choice(_REPLIES).format(name=life.first(rng.choice(members)))
            messages.append(_message(life, len(messages), ch, replier, reply, when, key, [], members))


def _message(
    life: Life,
    key: int,
    ch: dict[str, Any],
    author: dict[str, Any],
    text: str,
    when: datetime,
    thread: int | None,
    shared: list[str],
    members: list[dict[str, Any]],
) -> dict[str, Any]:
    rng = life.rng
    reactions = []
    if rng.random() < 0.25:
        for name in rng.sample(_EMOJI, rng.randint(1, 2)):
            users = [str(p["email"]) for p in rng.sample(members, min(len(members), rng.randint(1, 4)))]
            reactions.append({"name": name, "users": users})
    return {
        "_key": key,
        "_thread": thread,
        "channel_id": ch["id"],
        "user": str(author["email"]),
        "text": text,
        "ts": when,
        "reactions": reactions,
        "files": shared,
    }
