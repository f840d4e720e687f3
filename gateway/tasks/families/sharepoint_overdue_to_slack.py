"""Post a project's overdue SharePoint action items in its channel; DM the owner of the most overdue one.

The reference must read the list to decide what is overdue (not Done, due before today) and whose item is the
oldest. Varies: the project, the items (two or three overdue, with their owners and due dates), the phrasing.
Distractors: items past due but already Done, open items due later, owners of the other overdue items (the
DM goes to one person), and another project's channel.

Scenario shapes (picked by the seed):

- ``done_and_later``: the near-misses above (control: lists the past-due items already done too).
- ``due_today``: one more open item falls due today, not yet overdue (control: lists it as overdue).
- ``other_project_list``: the other project's site has an action-item list of its own with overdue items
  (control: posts that list's overdue items and nudges its oldest owner).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, dm, list_item, project_names, site, sp_list

__all__ = ["FAMILY"]

ACTIONS = (
    "Send revised quote to finance", "Book the training room", "Confirm data retention rules",
    "Collect pilot survey results", "Update the risk register", "Draft the comms plan",
    "Review the vendor contract", "Set up the test accounts", "Agree the cutover window", "Order the badges",
)  # fmt: skip
SHAPES = ("done_and_later", "due_today", "other_project_list")
COLUMNS: list[dict[str, Any]] = [
    {"name": "Code", "type": "text", "required": True},
    {"name": "Action", "type": "text"},
    {"name": "Owner", "type": "person"},
    {"name": "Due", "type": "date"},
    {"name": "Status", "type": "choice", "choices": ["Open", "In progress", "Done"]},
]


#: Words that say an item is overdue (or is being chased for it).
OVERDUE = r"\b(?:overdue|late|past due|behind|outstanding|still open|not done|chas\w*|slipp\w*)\b"


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    project, other_project = project_names(inst, 2)
    n_over = inst.rng.randint(2, 3)
    owners = inst.people(n_over + 3)
    codes = list(dict.fromkeys(inst.code("AI", 4) for _ in range(20)))
    actions = inst.rng.sample(ACTIONS, n_over + 4)
    lead = owners[-1]
    home = site(inst, f"Project {project}", [(lead["email"], "full_control"), (me, "read")])
    tracker = sp_list(inst, home, "Action items", COLUMNS)
    lags = sorted(inst.rng.sample(range(2, 25), n_over), reverse=True)
    overdue: list[dict[str, Any]] = []
    for i, lag in enumerate(lags):
        values = {
            "Code": codes[i],
            "Action": actions[i],
            "Owner": owners[i]["email"],
            "Due": inst.day(-lag).date().isoformat(),
            "Status": inst.pick(("Open", "In progress")),
        }
        overdue.append(values)
    done = [
        {"Code": codes[n_over + j], "Action": actions[n_over + j], "Owner": owners[j]["email"],
         "Due": inst.day(-inst.rng.randint(2, 25)).date().isoformat(), "Status": "Done"}
        for j in range(2)
    ]  # fmt: skip
    later = [
        {"Code": codes[n_over + 2 + j], "Action": actions[n_over + 2 + j], "Owner": owners[n_over + j]["email"],
         "Due": inst.day(inst.rng.randint(2, 20)).date().isoformat(), "Status": "Open"}
        for j in range(2)
    ]  # fmt: skip
    rows = [*overdue, *done, *later]
    inst.rng.shuffle(rows)
    for values in rows:
        list_item(inst, tracker, values, lead["email"], inst.rng.randint(30, 60))
    slug = project.lower()
    members = [lead["email"], me, *(o["email"] for o in owners[:-1])]
    chan = channel(inst, f"proj-{slug}", members)
    channel(inst, f"proj-{other_project.lower()}", [lead["email"], me])
    dms = {o["email"]: dm(inst, o["email"]) for o in owners[: n_over + 1]}
    oldest = overdue[0]
    oldest_owner = owners[0]
    newest_owner = owners[n_over - 1]
    over_codes = [v["Code"] for v in overdue]
    today = inst.now.date().isoformat()
    items = [[v["Code"], v["Action"]] for v in (*overdue, *done, *later)]  # an item by its code or its action

    def claim(value: Any) -> dict[str, Any]:
        return {"claims": {"kind": "choice", "value": value, "candidates": items, "cues": [OVERDUE]}}

    nudge = f"Hi {inst.first(oldest_owner)}, {oldest['Code']} ({oldest['Action']}) was due {oldest['Due']} - any news?"
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong: list[dict[str, Any]] = []
    if shape == "due_today":
        today_item = {"Code": codes[n_over + 4], "Action": actions[n_over + 3], "Owner": owners[1]["email"],
                      "Due": today, "Status": "Open"}  # fmt: skip
        list_item(inst, tracker, today_item, lead["email"], inst.rng.randint(30, 60))
        items.append([today_item["Code"], today_item["Action"]])
        wrong = [
            {"tool": "slack.post_message",
             "args": {"channel": chan["id"], "text": ", ".join([*over_codes, today_item["Code"]])}},
            {"tool": "slack.post_message", "args": {"channel": f"@{oldest_owner['id']}", "text": nudge}},
        ]  # fmt: skip
    elif shape == "other_project_list":
        away = site(inst, f"Project {other_project}", [(lead["email"], "full_control"), (me, "read")])
        away_list = sp_list(inst, away, "Action items", COLUMNS)
        away_rows = [{"Code": codes[10 + j], "Action": actions[j], "Owner": owners[n_over + j]["email"],
                      "Due": inst.day(-inst.rng.randint(26, 40) + j).date().isoformat(), "Status": "Open"}
                     for j in range(2)]  # fmt: skip
        for values in away_rows:
            list_item(inst, away_list, values, lead["email"], inst.rng.randint(30, 60))
        wrong = [
            {"tool": "slack.post_message",
             "args": {"channel": chan["id"], "text": "Overdue: " + ", ".join(v["Code"] for v in away_rows)}},
            {"tool": "slack.post_message",
             "args": {"channel": f"@{owners[n_over]['id']}", "text": f"{away_rows[0]['Code']} is overdue."}},
        ]  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"post the overdue action items from the Project {project} tracker on SharePoint in #proj-{slug}"
                " (codes and owners)",
                f"list the past-due, still-open Project {project} action items in the project's Slack channel",
                f"put the late {project} action items in #proj-{slug}",
            ),
            (
                "send a DM to whoever owns the most overdue one",
                "nudge the owner of the oldest one directly",
                "message the person whose item is the most overdue",
            ),
        ],  # fmt: skip
        (
            f"the Project {project} action items are slipping",
            f"{inst.first(lead)} asked me to chase the late {project} action items",
            f"the {project} tracker on SharePoint has items past their due date",
            "",
        ),
        by=inst.first(lead),
        tail=("done items don't count, even if late", "one DM, not one per item", ""),
    )
    summary = "Overdue action items: " + "; ".join(
        f"{v['Code']} {v['Action']} ({next(o['name'] for o in owners if o['email'] == v['Owner'])}, due {v['Due']})"
        for v in overdue
    )
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "overdue_posted",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": chan["id"], "user": me, "text": claim(over_codes)},
            },
            {
                "name": "oldest_owner_nudged",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "channel_id": dms[oldest_owner["email"]]["id"],
                    "user": me,
                    "text": claim(oldest["Code"]),
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "user": me, "thread_id": ""},
            },
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": dms[oldest_owner["email"]]["id"], "user": me},
            },
        ],
        "solution": [
            {
                "tool": "sharepoint.query_items",
                "args": {
                    "site": home["name"],
                    "list_name": "Action items",
                    "filter": f"Status ne 'Done' and Due lt '{today}'",
                    "order_by": "Due",
                },
                "save": {"owner": "results.0.fields.Owner"},
            },
            {"tool": "slack.post_message", "args": {"channel": f"#proj-{slug}", "text": summary}},
            {"tool": "slack.post_message", "args": {"channel": f"@{oldest_owner['id']}", "text": nudge}},
        ],
        "alternative_solutions": [
            [
                {"tool": "sharepoint.query_items", "args": {"site": home["name"], "list_name": "Action items"}},
                {"tool": "slack.open_dm", "args": {"people": [oldest_owner["name"]]}, "save": {"d": "id"}},
                {"tool": "slack.post_message", "args": {"channel": "{d}", "text": nudge}},
                {"tool": "slack.post_message", "args": {"channel": chan["id"], "text": " / ".join(over_codes)}},
            ],
            [  # the other items named as context
                {
                    "tool": "slack.post_message",
                    "args": {
                        "channel": chan["id"],
                        "text": f"Overdue: {', '.join(over_codes)}. Already done: {', '.join(v['Code'] for v in done)};"
                        f" due later: {', '.join(v['Code'] for v in later)}.",
                    },
                },
                {"tool": "slack.post_message", "args": {"channel": f"@{oldest_owner['id']}", "text": nudge}},
            ],
        ],
        "negative_controls": [
            {
                "name": "all-past-due",
                "why": "lists the past-due items that are already done too",
                "steps": [
                    {
                        "tool": "slack.post_message",
                        "args": {"channel": chan["id"], "text": ", ".join(over_codes + [v["Code"] for v in done])},
                    },
                    {"tool": "slack.post_message", "args": {"channel": f"@{oldest_owner['id']}", "text": nudge}},
                ],
            },
            {
                "name": "nudges-newest",
                "why": "DMs the owner of the least overdue item",
                "steps": [
                    {"tool": "slack.post_message", "args": {"channel": chan["id"], "text": summary}},
                    {
                        "tool": "slack.post_message",
                        "args": {"channel": f"@{newest_owner['id']}", "text": f"{overdue[-1]['Code']} is overdue."},
                    },
                ],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "lists the open item due today as overdue too"
                  if shape == "due_today"
                  else "posts the other project's overdue items and nudges their oldest owner",
                  "steps": wrong}]
                if wrong
                else []
            ),  # fmt: skip
            {
                "name": "nudge-negated",
                "why": "DMs the right owner but tells them the item is not overdue",
                "steps": [
                    {"tool": "slack.post_message", "args": {"channel": chan["id"], "text": summary}},
                    {
                        "tool": "slack.post_message",
                        "args": {
                            "channel": f"@{oldest_owner['id']}",
                            "text": f"Hi {inst.first(oldest_owner)}, {oldest['Code']} is not overdue, nothing to do.",
                        },
                    },
                ],
            },
            {
                "name": "channel-only",
                "why": "posts the list but nudges no one",
                "steps": [{"tool": "slack.post_message", "args": {"channel": chan["id"], "text": summary}}],
            },
        ],
    }


FAMILY = Family(
    name="sharepoint-overdue-to-slack",
    apps=("slack", "sharepoint"),
    summary="post a project's overdue action items in its channel and DM the owner of the most overdue one",
    build=_build,
    decision=True,
)
