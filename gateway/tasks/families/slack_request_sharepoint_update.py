"""Do what a colleague's Slack DM asks on a SharePoint purchase-order list, then tell them it is done.

The instruction does not say which order or what to set: the DM does. Varies: the colleague, the vendor,
the PO numbers and amounts, the approver, the procurement site, the phrasing. Distractors: an older DM about
another PO (already approved), the same vendor's earlier PO (received long ago), another vendor's PO also
awaiting approval, and a second procurement site.

Scenario shapes (picked by the seed):

- ``older_dm``: the near-misses above (control: approves the vendor's earlier PO).
- ``channel_echo``: the same colleague asked about another PO in the team's channel, not in the DM (control:
  approves the PO from the channel message).
- ``approver_correction``: the colleague's first DM named the wrong approver and a second DM corrects it
  (control: sets the approver the first DM named).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, dm, list_item, message, project_names, site, sp_list

__all__ = ["FAMILY"]

#: Words that tell the colleague their request is done ("Done", "approved", "all sorted").
DONE = (
    r"\bdone\b|\bapproved\b|\bsorted\b|\bmarked\b|\bupdated\b|\btaken care of\b|\bhandled\b|\ball set\b"
    r"|\bcompleted?\b|\bset (?:it |the \w+ )?(?:to|as)\b|\bin place\b"
)

VENDORS = (
    "Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
    "Wingtip Analytics", "Lamna Engineering", "Coho Catering",
)  # fmt: skip
SHAPES = ("older_dm", "channel_echo", "approver_correction")
STATUSES = ["Awaiting approval", "Approved", "Ordered", "Received", "Cancelled"]
COLUMNS: list[dict[str, Any]] = [
    {"name": "PO", "type": "text", "required": True},
    {"name": "Vendor", "type": "text"},
    {"name": "Amount", "type": "number"},
    {"name": "Status", "type": "choice", "choices": STATUSES},
    {"name": "Approver", "type": "person"},
]


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    team, other_team = project_names(inst, 2)
    requester, approver, old_approver = inst.people(3)
    vendor, other_vendor, prev_vendor = inst.rng.sample(VENDORS, 3)
    codes = list(dict.fromkeys(inst.code("PO", 5) for _ in range(10)))
    code, earlier_code, other_code, prev_code = codes[:4]
    home = site(inst, f"{team} Procurement", [(requester["email"], "full_control"), (me, "contribute")])
    away = site(inst, f"{other_team} Procurement", [(me, "contribute"), (approver["email"], "full_control")])
    orders = sp_list(inst, home, "Purchase orders", COLUMNS)
    away_orders = sp_list(inst, away, "Purchase orders", COLUMNS)
    amount = inst.amount(2_000, 60_000, 10)
    before = {"PO": code, "Vendor": vendor, "Amount": amount, "Status": "Awaiting approval"}
    target = list_item(inst, orders, before, requester["email"], inst.rng.randint(2, 6))
    earlier = list_item(
        inst,
        orders,
        {"PO": earlier_code, "Vendor": vendor, "Amount": inst.amount(2_000, 60_000, 10), "Status": "Received",
         "Approver": old_approver["email"]},
        requester["email"],
        inst.rng.randint(40, 80),
    )  # fmt: skip
    other = list_item(
        inst,
        orders,
        {"PO": other_code, "Vendor": other_vendor, "Amount": amount, "Status": "Awaiting approval"},
        requester["email"],
        inst.rng.randint(2, 6),
    )
    list_item(
        inst,
        orders,
        {"PO": prev_code, "Vendor": prev_vendor, "Amount": inst.amount(2_000, 60_000, 10), "Status": "Approved",
         "Approver": old_approver["email"]},
        requester["email"],
        inst.rng.randint(12, 20),
    )  # fmt: skip
    list_item(
        inst,
        away_orders,
        {"PO": codes[4], "Vendor": vendor, "Amount": amount, "Status": "Awaiting approval"},
        approver["email"],
        inst.rng.randint(2, 6),
    )
    chat = dm(inst, requester["email"])
    message(
        inst,
        chat,
        requester["email"],
        f"PO {prev_code} for {prev_vendor} is approved by {old_approver['name']} - could you mark it on the list?",
        inst.workday(-inst.rng.randint(9, 12), 10),
    )
    message(inst, chat, me, f"Done, {prev_code} is marked approved.", inst.workday(-9, 15))
    message(
        inst,
        chat,
        requester["email"],
        f"Morning! {approver['name']} signed off {vendor}'s PO {code}. Can you set it to Approved on the {team}"
        f" Procurement list, with {inst.first(approver)} as the approver? Thanks!",
        inst.day(0, 8, 40),
    )
    after = {**before, "Status": "Approved", "Approver": approver["email"]}
    fields = ["Status=Approved", f"Approver={approver['email']}"]
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong_fields: list[str] = []
    echo: dict[str, Any] | None = None
    if shape == "channel_echo":
        pending = {"PO": codes[5], "Vendor": prev_vendor, "Amount": inst.amount(2_000, 60_000, 10),
                   "Status": "Awaiting approval"}  # fmt: skip
        echo = list_item(inst, orders, pending, requester["email"], inst.rng.randint(1, 3))
        team_chan = channel(inst, f"{team.lower()}-procurement", [requester["email"], me, approver["email"]])
        message(inst, team_chan, requester["email"], f"Once finance is happy, {codes[5]} ({prev_vendor}) can be"
                " approved too - no rush.", inst.workday(-1, 15))  # fmt: skip
    elif shape == "approver_correction":
        for note in inst.overrides["slack"]["messages"].values():
            if note["channel_id"] == chat["id"] and note["text"].startswith("Morning!"):
                note["text"] = note["text"].replace(f"with {inst.first(approver)} as",
                                                    f"with {old_approver['name']} as")  # fmt: skip
                note["ts"] = inst.day(0, 8, 25).isoformat()
        message(inst, chat, requester["email"], f"Sorry, wrong name - the approver is {approver['name']}, not"
                f" {inst.first(old_approver)}.", inst.day(0, 8, 40))  # fmt: skip
        wrong_fields = ["Status=Approved", f"Approver={old_approver['email']}"]
    first = inst.first(requester)
    instruction = compose(
        inst,
        [
            (
                f"take care of the purchase order {first} DMed me about this morning",
                f"handle {first}'s latest DM on Slack (it's about a PO on SharePoint)",
                f"do what {requester['name']}'s Slack DM asks on the procurement list",
                f"sort out the PO request {first} left in my Slack DMs",
            ),
            (
                f"let {first} know in the DM when it's done",
                "reply in the DM once it's sorted",
                "confirm back to them on Slack",
            ),
        ],  # fmt: skip
        (
            f"{first} sent me a Slack DM this morning about a purchase order",
            f"there's a request from {requester['name']} in my Slack DMs about the procurement list",
            "",
        ),
        by=first,
        tail=("only the latest request counts", "just that one order", ""),
    )
    dm_ref = f"@{requester['id']}"
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "po_approved",
                "kind": "record",
                "app": "sharepoint",
                "collection": "items",
                "count": 1,
                "where": {"id": target["id"], "values": {"eq": after}},
            },
            {
                "name": "told_them",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": chat["id"], "user": me, "text": {"claims": [
                    {"kind": "states", "detail": [DONE], "done": True},
                    # an approver it names is the one asked for (not the one the first DM got wrong)
                    {"kind": "person", "value": approver["email"], "required": False,
                     "ignore": [me, requester["email"]]},
                    # so is an order or a status it names: "PO-70954 is marked Approved" (another order) fails
                    {"kind": "choice", "value": code, "candidates": codes, "required": False},
                    {"kind": "choice", "value": "Approved", "candidates": STATUSES, "required": False},
                ]}},
            },
        ],
        "allowed_changes": [
            {
                "app": "sharepoint",
                "collection": "items",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["values", "modified", "modified_by"],
                "values": {"values": {"eq": after}},
            },
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chat["id"], "user": me},
            },
        ],
        "solution": [
            {"tool": "slack.get_history", "args": {"channel": dm_ref, "page_size": 5}},
            {
                "tool": "sharepoint.query_items",
                "args": {"site": home["name"], "list_name": "Purchase orders", "equals": [f"PO={code}"]},
                "save": {"iid": "results.0.id"},
            },
            {"tool": "sharepoint.update_item", "args": {"item_id": "{iid}", "fields": fields}},
            {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": f"Done - {code} is marked Approved."}},
        ],
        "alternative_solutions": [
            [
                {"tool": "slack.search_messages", "args": {"query": f"in:{dm_ref} Procurement", "sort": "newest"}},
                {
                    "tool": "sharepoint.query_items",
                    "args": {"site": home["name"], "list_name": "Purchase orders", "filter": f"Vendor eq '{vendor}'"},
                },
                {
                    "tool": "sharepoint.update_item",
                    "args": {"item_id": target["id"], "fields": ["Status=Approved", f"Approver={approver['name']}"]},
                },
                {"tool": "slack.post_message", "args": {"channel": chat["id"], "text": "All set, it's approved now."}},
            ]
        ],
        "negative_controls": [
            {
                "name": "earlier-po",
                "why": "approves the vendor's earlier PO",
                "steps": [
                    {"tool": "sharepoint.update_item", "args": {"item_id": earlier["id"], "fields": fields}},
                    {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": "Done."}},
                ],
            },
            {
                "name": "other-vendor",
                "why": "approves the other vendor's PO that is also waiting",
                "steps": [
                    {"tool": "sharepoint.update_item", "args": {"item_id": other["id"], "fields": fields}},
                    {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": "Done."}},
                ],
            },
            *(
                [{"name": "channel-request", "why": "approves the PO the colleague mentioned in the channel",
                  "steps": [{"tool": "sharepoint.update_item", "args": {"item_id": echo["id"], "fields": fields}},
                            {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": "Done."}}]}]
                if echo
                else []
            ),
            *(
                [{"name": "first-approver", "why": "sets the approver the first DM named, since corrected",
                  "steps": [{"tool": "sharepoint.update_item",
                             "args": {"item_id": target["id"], "fields": wrong_fields}},
                            {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": "Done."}}]}]
                if wrong_fields
                else []
            ),  # fmt: skip
            {
                "name": "no-approver",
                "why": "sets the status but not the approver",
                "steps": [
                    {"tool": "sharepoint.update_item", "args": {"item_id": target["id"], "fields": fields[:1]}},
                    {"tool": "slack.post_message", "args": {"channel": dm_ref, "text": "Done."}},
                ],
            },
            {
                "name": "never-tells",
                "why": "updates the list but does not reply",
                "steps": [{"tool": "sharepoint.update_item", "args": {"item_id": target["id"], "fields": fields}}],
            },
        ],
    }


FAMILY = Family(
    name="slack-request-sharepoint-update",
    apps=("slack", "sharepoint"),
    summary="read a colleague's Slack DM, approve the PO it names on a SharePoint list, and confirm in the DM",
    build=_build,
    decision=True,
)
