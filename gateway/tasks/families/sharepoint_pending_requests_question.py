"""Answer which purchase requests on a team's SharePoint list still await approval above an amount.

Varies: the team site, the threshold, how many requests match (one to three), their numbers, amounts and
requesters, the colleague who asks, the phrasing. Distractors: pending requests at or under the threshold,
approved or ordered requests over it, and a pending request over it on another team's list of the same name.

Scenario shapes (picked by the seed):

- ``other_team_list``: the near-misses above (control: adds the other team's pending request).
- ``at_the_threshold``: one more pending request is for exactly the amount, not over it (control: includes it).
- ``last_years_list``: the team's site also keeps last year's list, whose pending requests over the amount were
  never cleared (control: includes one of them).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import list_item, project_names, site, sp_list

__all__ = ["FAMILY"]

VENDORS = (
    "Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
    "Proseware Legal", "Wingtip Toys", "Coho Freight", "Alpine Ski House", "Coho Winery",
)  # fmt: skip
PENDING = "Pending approval"
SHAPES = ("other_team_list", "at_the_threshold", "last_years_list")
COLUMNS: list[dict[str, Any]] = [
    {"name": "Request", "type": "text", "required": True, "pattern": r"PR-\d{4}"},
    {"name": "Vendor", "type": "text"},
    {"name": "Amount", "type": "number"},
    {"name": "Requester", "type": "person"},
    {"name": "Status", "type": "choice", "choices": [PENDING, "Approved", "Rejected", "Ordered"]},
]


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    team, other_team = project_names(inst, 2)
    asker = inst.person()
    home = site(inst, f"{team} Purchasing", [(me, "read"), (asker["email"], "full_control")])
    away = site(inst, f"{other_team} Purchasing", [(me, "read"), (inst.person()["email"], "full_control")])
    requests = sp_list(inst, home, "Purchase requests", COLUMNS)
    away_requests = sp_list(inst, away, "Purchase requests", COLUMNS)
    threshold = inst.amount(5_000, 25_000, 1_000)
    codes = iter(dict.fromkeys(inst.code("PR", 4) for _ in range(30)))
    wanted = inst.rng.randint(1, 3)
    rows: list[tuple[str, int, str]] = [
        *((PENDING, threshold + inst.amount(500, 30_000, 50), "match") for _ in range(wanted)),
        *((PENDING, threshold - inst.amount(0, threshold - 1_000, 50), "under") for _ in range(inst.rng.randint(1, 2))),
        *(
            (inst.pick(("Approved", "Ordered")), threshold + inst.amount(500, 30_000, 50), "done")
            for _ in range(inst.rng.randint(1, 2))
        ),
        ("Rejected", threshold + inst.amount(500, 30_000, 50), "done"),
    ]
    inst.rng.shuffle(rows)
    made: dict[str, list[str]] = {"match": [], "under": [], "done": []}
    for status, amount, kind in rows:
        code = next(codes)
        made[kind].append(code)
        list_item(
            inst,
            requests,
            {"Request": code, "Vendor": inst.pick(VENDORS), "Amount": amount,
             "Requester": inst.person()["email"], "Status": status},
            asker["email"],
            inst.rng.randint(2, 40),
        )  # fmt: skip
    away_code = next(codes)
    list_item(
        inst,
        away_requests,
        {"Request": away_code, "Vendor": inst.pick(VENDORS), "Amount": threshold + inst.amount(500, 9_000, 50),
         "Requester": inst.person()["email"], "Status": PENDING},
        me,
        inst.rng.randint(2, 20),
    )  # fmt: skip
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra_code = ""
    if shape != "other_team_list":
        extra_code = next(codes)
        where = requests if shape == "at_the_threshold" else sp_list(inst, home, "Purchase requests 2025", COLUMNS)
        amount = threshold if shape == "at_the_threshold" else threshold + inst.amount(500, 9_000, 50)
        age = inst.rng.randint(200, 300) if shape == "last_years_list" else inst.rng.randint(2, 20)
        list_item(inst, where, {"Request": extra_code, "Vendor": inst.pick(VENDORS), "Amount": amount,
                                "Requester": inst.person()["email"], "Status": PENDING},
                  asker["email"], age)  # fmt: skip
    who = inst.first(asker)
    instruction = compose(
        inst,
        [
            (
                f"tell me which purchase requests on the {team} Purchasing list are still pending approval and over"
                f" ${threshold:,}",
                f"give me the PR numbers of the {team} purchase requests above ${threshold:,} still waiting for"
                " approval",
                f"list the requests on the {team} Purchasing site that haven't been approved yet and are for more"
                f" than ${threshold:,}",
            ),
        ],  # fmt: skip
        (
            f"{who} wants to know what's stuck in {team} purchasing",
            f"{who} is chasing approvals for {team}",
            f"I'm preparing the {team} spend review",
            "",
        ),
        by=who,
        tail=("I just need the request numbers", "only that team's list", "strictly over the amount", ""),
    )
    ordered = list(made["match"])
    saves = {f"r{n}": f"results.{n}.fields.Request" for n in range(len(ordered))}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "answer",
                "kind": "answer",
                "expect": [{"kind": "id", "value": c} for c in ordered],
                "candidates": {"id": {"pattern": r"PR-\d{4}"}},
            }
        ],
        "allowed_changes": [],
        "solution": [
            {
                "tool": "sharepoint.query_items",
                "args": {
                    "site": home["name"],
                    "list_name": "Purchase requests",
                    "filter": f"Status eq '{PENDING}' and Amount gt {threshold}",
                },
                "save": saves,
            },
            {
                "tool": "complete_task",
                "args": {
                    "summary": f"Filtered the {team} Purchasing list by status and amount.",
                    "answer": ", ".join("{" + k + "}" for k in saves),
                },
            },
        ],
        "alternative_solutions": [
            [
                {
                    "tool": "sharepoint.query_items",
                    "args": {
                        "site": home["name"],
                        "list_name": "Purchase requests",
                        "equals": [f"Status={PENDING}"],
                        "order_by": "Amount",
                        "descending": True,
                    },
                },
                {"tool": "complete_task", "args": {"answer": " and ".join(ordered)}},
            ]
        ],
        "negative_controls": [
            {
                "name": "all-pending",
                "why": "lists every pending request, the small ones too",
                "steps": [{"tool": "complete_task", "args": {"answer": ", ".join(made["match"] + made["under"])}}],
            },
            {
                "name": "any-status",
                "why": "lists every request over the amount, approved and ordered ones too",
                "steps": [{"tool": "complete_task", "args": {"answer": ", ".join(made["match"] + made["done"])}}],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "adds the pending request for exactly the amount"
                  if shape == "at_the_threshold"
                  else "adds a pending request from last year's list",
                  "steps": [{"tool": "complete_task", "args": {"answer": ", ".join([*made["match"], extra_code])}}]}]
                if extra_code
                else []
            ),  # fmt: skip
            {
                "name": "other-team-too",
                "why": "adds the other team's pending request",
                "steps": [{"tool": "complete_task", "args": {"answer": ", ".join([*made["match"], away_code])}}],
            },
        ],
    }


FAMILY = Family(
    name="sharepoint-pending-requests-question",
    apps=("sharepoint",),
    summary="name the purchase requests on a SharePoint list still pending approval above an amount",
    build=_build,
    split="validation",
)
