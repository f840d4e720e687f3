"""Close the quarter from the latest ledger in OneDrive: the department over budget decides everything after.

Long horizon: the reference reads the ledgers in the user's OneDrive (and the controller's mail), decides
which ledger is the latest for the quarter and which department it shows over budget, and that one
decision picks the folder the ledger is copied into, whose head is mailed (a directory lookup), what the
Finance Ops ticket names and what the finance channel is told: 13 calls over onedrive, directory, gmail,
helpdesk and slack. Every outcome is checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``latest_file``: the quarter has two ledgers; the later one (v2) shows another department over budget
  than the first.
- ``new_version``: one ledger whose current version decides; the controller mailed an earlier draft that
  showed another department over.
- ``other_quarter``: the most recently changed ledger is the previous quarter's restatement; the quarter
  asked about has its own, older ledger.

Varies: the quarter, the departments, budgets and actuals, the controller, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import onedrive_file, onedrive_folder
from gateway.tasks.kit.helpdesk import queue_id, queues
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, department_head, message
from gateway.tasks.kit.workplace import channel

__all__ = ["FAMILY"]

SHAPES = ("latest_file", "new_version", "other_quarter")
#: Words that say a department spent more than its budget.
OVER = (
    r"\bover(?:[- ]?spen\w*|[- ]budget|run\w*)?\b|\bexceed\w*|\bspent more than\b|\bmore than (?:its|their|the) "
    r"budget|\babove (?:its |their |the )?budget"
)


def _ledger(inst: Instance, depts: list[str], over: str) -> dict[str, Any]:
    """A ledger workbook (Department, Budget, Actual) in which only ``over`` spent more than its budget."""
    rows: list[list[Any]] = [["Department", "Budget", "Actual"]]
    for d in depts:
        budget = inst.amount(60_000, 300_000, 1_000)
        pct = inst.rng.randint(3, 14) if d == over else -inst.rng.randint(2, 18)
        rows.append([d, budget, budget + budget * pct // 100])
    return {"kind": "xlsx", "sheets": {"Ledger": rows}}


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    all_depts = sorted({p["department"] for p in inst.company.people.values()} - {"Executive"})
    heads = {d: department_head(inst, d) for d in all_depts}
    depts = inst.rng.sample([d for d in all_depts if heads[d]["email"] != me], 4)
    over, wrong = depts[0], depts[1]
    shown = sorted(depts)
    q = (inst.now.month - 1) // 3  # the quarter just closed: 1-4, 0 meaning Q4 of last year
    year = inst.now.year if q else inst.now.year - 1
    quarter = f"Q{q or 4} {year}"
    prev = f"Q{(q or 4) - 1 or 4} {year if (q or 4) > 1 else year - 1}"
    controller = inst.person(exclude=[h["email"] for h in heads.values()])
    close = onedrive_folder(inst, "Quarter close")
    folders = {d: onedrive_folder(inst, d, close["id"]) for d in shown}
    days = sorted(inst.rng.sample(range(2, 12), 3))
    if shape == "latest_file":
        stale = onedrive_file(inst, f"{quarter} ledger v1.xlsx", close["id"], _ledger(inst, shown, wrong),
                              inst.day(-days[2]))  # fmt: skip
        latest = onedrive_file(inst, f"{quarter} ledger v2.xlsx", close["id"], _ledger(inst, shown, over),
                               inst.day(-days[0], 16))  # fmt: skip
    else:
        latest = onedrive_file(inst, f"{quarter} ledger.xlsx", close["id"], _ledger(inst, shown, over),
                               inst.day(-days[1 if shape == "other_quarter" else 0], 15))  # fmt: skip
        stale = latest
    if shape == "new_version":
        draft = _ledger(inst, shown, wrong)
        blob, size = inst.document(draft)
        item = inst.overrides["onedrive"]["items"][latest["id"]]
        earlier = {"number": 1, "blob": blob, "size": size, "modified": inst.day(-days[2]).isoformat(),
                   "modified_by": controller["email"]}  # fmt: skip
        item["versions"] = [earlier, {**item["versions"][0], "number": 2}]
        message(inst, sender=controller["email"], subject=f"{quarter} ledger (draft)",
                body=f"Hi,\n\nFirst draft of the {quarter} ledger attached; the final one will be in OneDrive.\n\n"
                f"{inst.first(controller)}", when=inst.day(-days[2], 17),
                attachments=[attachment(inst, f"{quarter} ledger draft.xlsx", draft)])  # fmt: skip
    if shape == "other_quarter":
        onedrive_file(inst, f"{prev} ledger (restated).xlsx", close["id"], _ledger(inst, shown, wrong),
                      inst.day(-days[0], 17))  # fmt: skip
    queues(inst)
    extra = inst.people(3, exclude=[controller["email"]])
    chan = channel(inst, "finance-close", [controller["email"], me, *(p["email"] for p in extra)])
    head = heads[over]
    instruction = compose(
        inst,
        [
            (
                f"find the department over budget in the latest {quarter} ledger in my OneDrive (Quarter close)",
                f"open the most recent {quarter} ledger in the Quarter close folder of my OneDrive and see which"
                " department spent more than its budget",
            ),
            (
                "copy that ledger into the department's own folder under Quarter close",
                "put a copy of the ledger in that department's subfolder of Quarter close",
            ),
            ("email the department's head that they're over budget", "let the head of that department know by mail"),
            (
                "open a Finance Ops ticket for a budget review naming the department",
                "raise a Finance Ops ticket asking for a budget review of that department",
            ),
            (
                "post in #finance-close which department is over budget",
                "tell #finance-close which department is over budget",
            ),
        ],
        (f"we're closing {quarter}", f"{inst.first(controller)} finished the {quarter} ledgers", ""),
        by=str(controller["name"]),
    )
    choice = {"kind": "choice", "value": over, "candidates": list(all_depts)}
    over_said = [choice, {"kind": "states", "detail": [OVER]}]  # the head and the channel are told it is over
    fin = queue_id(inst, "finance_ops")

    def plan(d: str, *, upto: int = 5, source: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        boss = heads[d]
        text = f"{d} is over budget for {quarter} in the latest ledger."
        steps: list[dict[str, Any]] = [
            {"tool": "onedrive.copy_item", "args": {"item": (source or latest)["id"], "destination": folders[d]["id"]}},
            {"tool": "gmail.send_message", "args": {"to": [boss["email"]], "subject": f"{quarter} budget",
             "body": f"Hi {inst.first(boss)},\n\n{text} The ledger is in your folder under Quarter close."}},
            {"tool": "helpdesk.create_ticket", "args": {"queue": "finance_ops", "title": f"{quarter} budget review",
             "description": f"Please run a budget review: {text}"}},
            {"tool": "slack.post_message", "args": {"channel": "#finance-close", "text": text}},
        ]  # fmt: skip
        return steps[:upto]

    reads = [
        {"tool": "onedrive.search_items", "args": {"query": "ledger"}},
        {"tool": "onedrive.list_children", "args": {"folder": close["id"], "order_by": "modified"}},
        {"tool": "onedrive.download_file", "args": {"item": latest["id"], "as_text": True}},
        {"tool": "onedrive.list_versions", "args": {"item": latest["id"]}},
        {"tool": "gmail.search_messages", "args": {"query": "ledger"}},
        {"tool": "directory.search_people", "args": {"department": over}},
        {"tool": "directory.get_person", "args": {"person": head["email"]}},
        {"tool": "helpdesk.list_queues", "args": {}},
    ]
    done = {"tool": "complete_task", "args": {"summary": f"{over} is over budget for {quarter}; all set up."}}
    return {
        "instruction": instruction,
        "checks": [
            {"name": "ledger_filed", "kind": "record", "app": "onedrive", "collection": "items", "new": True,
             "count": 1, "where": {"parent_id": folders[over]["id"], "blob": {"same_bytes_as": {
                 "app": "onedrive", "collection": "items", "id": latest["id"]}}}},
            {"name": "head_mailed", "kind": "record", "app": "gmail", "collection": "messages", "new": True,
             "count": 1, "where": {"sender": me, "to": {"includes": [head["email"]]}, "body": {"claims": over_said}}},
            {"name": "review_ticket", "kind": "record", "app": "helpdesk", "collection": "tickets", "new": True,
             "count": 1, "where": {"queue_id": fin, "description": {"claims": choice}}},
            {"name": "channel_told", "kind": "record", "app": "slack", "collection": "messages", "new": True,
             "count": 1, "where": {"channel_id": chan["id"], "user": me, "text": {"claims": over_said}}},
            {"name": "nothing_in_other_folders", "kind": "no_record", "app": "onedrive", "collection": "items",
             "new": True, "where": {"parent_id": {"in": [folders[d]["id"] for d in shown if d != over]}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "onedrive", "collection": "items", "kinds": ["add"], "where": {"parent_id": folders[over]["id"]}},
            {"app": "gmail", "collection": "messages", "kinds": ["add"], "where": {"sender": me},
             "values": {"to": [head["email"]]}},
            {"app": "helpdesk", "collection": "tickets", "kinds": ["add"], "where": {"queue_id": fin}},
            {"app": "slack", "collection": "messages", "kinds": ["add"],
             "where": {"channel_id": chan["id"], "user": me}},
        ],  # fmt: skip
        "solution": [*reads, *plan(over), done],
        "negative_controls": [
            {"name": "wrong-department", "why": f"acts on {wrong}: over budget in an older ledger or draft",
             "steps": [*plan(wrong), done]},
            {"name": "stops-halfway", "why": "files the ledger and mails the head, then stops",
             "steps": [*plan(over, upto=2), done]},
            {"name": "no-channel-post", "why": "does everything but tell #finance-close",
             "steps": [*plan(over, upto=3), done]},
            *([{"name": "older-ledger", "why": "files the quarter's first ledger, not the latest",
                "steps": [*plan(over, source=stale), done]}] if stale is not latest else []),
        ],  # fmt: skip
    }


FAMILY = Family(
    name="onedrive-quarter-close",
    apps=("onedrive", "directory", "gmail", "helpdesk", "slack"),
    summary="find who is over budget in the latest ledger, then file it, mail the head, open a ticket and post",
    build=_build,
    decision=True,
    kind="long_horizon",
)
