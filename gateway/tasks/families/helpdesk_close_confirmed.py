"""Close the user's tickets from one change whose requesters confirmed the fix; leave the rest alone.

Varies: the change (system and change code), how many of the user's waiting tickets were confirmed (2-3), the
requesters, their wording, dates, the phrasing. Distractors: a ticket of the same change whose requester says
it is still broken, one with no reply yet, one where a watcher (not the requester) says it works, and a
confirmed ticket of the same change that belongs to another support person.

Scenario shapes (picked by the seed):

- ``watcher_confirms``: the near-misses above, a watcher's "works for me" the subtlest (control: trusts the
  watcher).
- ``broke_again``: one more of the user's tickets of the change was confirmed, then its requester wrote that
  it broke again (control: closes it on the first reply).
- ``other_change``: one more of the user's waiting tickets on the same system, confirmed by its requester,
  belongs to an earlier change (control: closes it too).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import comment, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("watcher_confirms", "broke_again", "other_change")

SYSTEMS = (
    ("VPN client", "can't connect to the VPN", "VPN"),
    ("single sign-on", "SSO login loops back to the sign-in page", "SSO"),
    ("print server", "print jobs stuck in the queue", "PRN"),
    ("mail relay", "external mail arrives hours late", "MX"),
    ("file share", "shared folder shows access denied", "FS"),
    ("Wi-Fi controller", "laptop drops off the office Wi-Fi", "WIFI"),
)
CONFIRMED = (
    "Confirmed - it works now, thanks!",
    "All good on my side since the change, you can close this.",
    "Tested this morning and the problem is gone. Thanks for sorting it.",
    "Works for me now. Thank you!",
)
NOT_YET = (
    "Still seeing it this morning, unfortunately.",
    "Tried again after the change and it is still broken for me.",
    "No luck yet - same error as before.",
)


def _build(inst: Instance) -> dict[str, Any]:
    system, symptom, tag = inst.pick(SYSTEMS)
    change = inst.code(f"CHG-{tag}", 4)
    me = inst.user["email"]
    other_agent = inst.person()
    staff = queues(inst, {"it": [inst.user, other_agent]})
    del staff
    n_ok = inst.rng.randint(2, 3)
    requesters = inst.people(n_ok + 4, exclude=[other_agent["email"]])
    watcher = inst.person(exclude=[other_agent["email"], *(p["email"] for p in requesters)])

    def waiting(req: dict[str, Any], days: int, owner: str, watchers: tuple[str, ...] = ()) -> dict[str, Any]:
        created = inst.workday(-days, 9 + inst.rng.randrange(7), inst.pick((0, 20, 40)))
        t = ticket(
            inst,
            "it",
            f"{symptom.capitalize()} ({inst.first(req)})",
            f"Since last week {symptom}. IT is rolling out change {change} to the {system}; waiting to see if it"
            " fixes this.",
            req["email"],
            created,
            status="waiting",
            assignee=owner,
            category="Network" if tag in ("VPN", "WIFI", "MX") else "Access",
            watchers=watchers,
            updated=inst.day(-1, 16),
        )
        comment(
            inst,
            t["id"],
            owner,
            f"Change {change} is live on the {system}. Could you check and tell us whether it works now?",
            created.replace(hour=16),
        )
        return t

    confirmed = []
    for req in requesters[:n_ok]:
        t = waiting(req, inst.rng.randint(4, 12), me)
        comment(inst, t["id"], req["email"], inst.pick(CONFIRMED), inst.day(-1, 10, inst.pick((5, 25, 45))))
        confirmed.append(t)
    still = waiting(requesters[n_ok], inst.rng.randint(4, 12), me)
    comment(inst, still["id"], requesters[n_ok]["email"], inst.pick(NOT_YET), inst.day(-1, 9, 50))
    silent = waiting(requesters[n_ok + 1], inst.rng.randint(4, 12), me)
    by_watcher = waiting(requesters[n_ok + 2], inst.rng.randint(4, 12), me, (watcher["email"],))
    comment(inst, by_watcher["id"], watcher["email"], "Works for me now!", inst.day(-1, 14, 10))
    theirs = waiting(requesters[n_ok + 3], inst.rng.randint(4, 12), other_agent["email"])
    comment(inst, theirs["id"], requesters[n_ok + 3]["email"], inst.pick(CONFIRMED), inst.day(-1, 15))
    keep = [still, silent, by_watcher, theirs]
    ids = [t["id"] for t in confirmed]
    note = f"Requester confirmed the fix from change {change} works."
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra: dict[str, Any] | None = None
    if shape != "watcher_confirms":
        req = inst.person(exclude=[other_agent["email"], watcher["email"], *(p["email"] for p in requesters)])
        extra = waiting(req, inst.rng.randint(4, 12), me)
        comment(inst, extra["id"], req["email"], inst.pick(CONFIRMED), inst.day(-3, 10, 15))
        if shape == "broke_again":
            comment(inst, extra["id"], req["email"], "Spoke too soon - it's broken again since yesterday.",
                    inst.day(-1, 11, 30))  # fmt: skip
        else:
            earlier = inst.code(f"CHG-{tag}", 4)
            extra["description"] = (f"Since last month {symptom}. IT is rolling out change {earlier} to the"
                                    f" {system}; waiting to see if it fixes this.")  # fmt: skip
            for note_ in inst.overrides["helpdesk"]["comments"].values():
                if note_["ticket_id"] == extra["id"]:
                    note_["body"] = note_["body"].replace(change, earlier)
        keep.append(extra)

    instruction = compose(
        inst,
        [
            (
                "close the ones where the requester has confirmed it works, with a short resolution note",
                f"go through my waiting tickets tied to change {change} and close each one whose requester says"
                " it's fixed, with a resolution note",
                f"close those of my {system} tickets where the person who raised it replied that it works now,"
                " adding a resolution saying so",
            ),
        ],  # fmt: skip
        (
            f"some of my tickets about the {system} problem are waiting on people to confirm that change {change}"
            " fixed it",
            f"change {change} to the {system} went out",
            f"people were asked to test change {change} on the {system}",
        ),
        tail=(
            "leave the rest as they are",
            "don't touch the others",
            "leave any that aren't confirmed by the requester",
        ),
    )
    search = {
        "tool": "helpdesk.search_tickets",
        "args": {"text": change, "assignee": "me", "status": "waiting"},
    }
    reads = [
        {"tool": "helpdesk.list_comments", "args": {"ticket_id": t["id"]}}
        for t in [*confirmed, *keep[:3], *([extra] if shape == "broke_again" and extra else [])]
    ]

    def close(tid: str, resolution: str = note) -> dict[str, Any]:
        args = {"ticket_id": tid, "status": "closed", "resolution": resolution}
        return {"tool": "helpdesk.change_status", "args": args}

    return {
        "instruction": instruction,
        "checks": [
            *(
                {
                    "name": f"closed_{tid}",
                    "kind": "record",
                    "app": "helpdesk",
                    "collection": "tickets",
                    "where": {  # the resolution must say it is fixed ("Not fixed, closing anyway" fails)
                        "id": tid,
                        "status": {"in": ["resolved", "closed"]},
                        "resolution": {"claims": {"kind": "fixed"}},
                    },
                }
                for tid in ids
            ),
            {
                "name": "others_untouched",
                "kind": "no_record",
                "app": "helpdesk",
                "collection": "tickets",
                "changed": True,
                "where": {"id": {"in": [t["id"] for t in keep]}},
            },
        ],
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": {"in": ids}},
                "fields": ["status", "resolution", "resolved_at", "closed_at", "updated"],
                "values": {"status": {"in": ["resolved", "closed"]}},
            },
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": {"in": ids}, "author": me},
                "count": len(ids),
            },
        ],
        "solution": [search, *reads, *(close(tid) for tid in ids)],
        "no_controls": {
            "over_reach": "every other ticket is one of the scenario's near-misses (named in the row); closing each of"
            " them is a negative control of its own"
        },
        "negative_controls": [
            {
                "name": "closes-all-mine",
                "why": "closes every waiting ticket of the change, confirmed or not",
                "steps": [search, *(close(t["id"]) for t in [*confirmed, *keep[:3]])],
            },
            {
                "name": "trusts-watcher",
                "why": "also closes the ticket where only a watcher said it works",
                "steps": [search, *(close(tid) for tid in [*ids, by_watcher["id"]])],
            },
            {
                "name": "closes-colleagues",
                "why": "also closes a confirmed ticket that another support person owns",
                "steps": [search, *(close(tid) for tid in [*ids, theirs["id"]])],
            },
            *(
                [
                    {
                        "name": shape.replace("_", "-"),
                        "why": "also closes the ticket whose requester says it broke again"
                        if shape == "broke_again"
                        else "also closes a confirmed ticket of an earlier change on the same system",
                        "steps": [search, *(close(tid) for tid in [*ids, extra["id"]])],
                    }
                ]
                if extra
                else []
            ),
            {
                "name": "not-fixed-resolution",
                "why": "closes the right tickets with a resolution saying the change did not fix them",
                "steps": [search, *(close(tid, f"Not fixed - change {change} did not resolve it.") for tid in ids)],
            },
            {
                "name": "misses-one",
                "why": "closes all but one of the confirmed tickets",
                "steps": [search, *(close(tid) for tid in ids[1:])],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-close-confirmed",
    apps=("helpdesk",),
    summary="close the user's waiting tickets of one change whose requesters confirmed the fix",
    build=_build,
    decision=True,
)
