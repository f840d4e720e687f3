"""Share the current version of a project plan from SharePoint into the project's Slack channel.

The Word file moves through the workspace: downloaded from the site's Plans folder, uploaded to the channel.
Varies: the project, the document, its revision and go-live date, who asked, the phrasing. Distractors: the
file's earlier versions, a copy of the same name in the site's Archive folder (an older revision), another
project's plan of the same kind, and the project's leads channel.

Scenario shapes (picked by the seed):

- ``archive_copy``: the near-misses above (control: shares the Archive folder's copy).
- ``old_copy_in_chat``: the plan's first revision was posted in the channel weeks ago (control: shares that
  old chat copy again).
- ``next_draft``: a draft of the next revision sits in the site's Drafts folder (control: shares the draft).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, folder, library_file, message, project_names, site, slack_file

__all__ = ["FAMILY"]

DOCUMENTS = ("launch plan", "rollout plan", "cutover plan", "test plan", "training plan")
SHAPES = ("archive_copy", "old_copy_in_chat", "next_draft")
REVISIONS = "ABCDEFGH"


def _plan(project: str, kind: str, revision: str, golive: str) -> dict[str, Any]:
    return {
        "kind": "docx",
        "title": f"Project {project} {kind}",
        "paragraphs": [f"Revision {revision}", f"Go-live: {golive}", f"Owner: Project {project} team"],
    }


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    project, other_project = project_names(inst, 2)
    asker, owner = inst.people(2)
    kind = inst.pick(DOCUMENTS)
    n = inst.rng.randint(2, 6)
    revs = REVISIONS[: n + 1]
    dates = [inst.workday(inst.rng.randint(20, 90)).date() for _ in revs]
    current_rev, current_date = revs[-1], dates[-1]
    home = site(inst, f"Project {project}", [(owner["email"], "full_control"), (me, "read"), (asker["email"], "read")])
    away = site(inst, f"Project {other_project}", [(owner["email"], "full_control"), (me, "read")])
    plans = folder(inst, home, "Plans", owner["email"])
    archive = folder(inst, home, "Archive", owner["email"])
    name = f"{project} {kind}.docx"
    older = [
        (_plan(project, kind, r, f"{d:%B} {d.day}"), owner["email"], inst.workday(-40 + 5 * i, 10))
        for i, (r, d) in enumerate(zip(revs[:-1], dates[:-1], strict=True))
    ]
    current = library_file(
        inst,
        home,
        name,
        _plan(project, kind, current_rev, f"{current_date:%B} {current_date.day}"),
        owner["email"],
        inst.workday(-2, 14),
        parent=plans["id"],
        older=older,
    )
    library_file(
        inst,
        home,
        name,
        _plan(project, kind, revs[0], f"{dates[0]:%B} {dates[0].day}"),
        owner["email"],
        inst.workday(-45, 10),
        parent=archive["id"],
    )
    library_file(
        inst,
        home,
        f"{project} vendor shortlist.xlsx",
        {"kind": "xlsx", "sheets": {"Vendors": [["Vendor", "Score"], ["Contoso", 7], ["Fabrikam", 8]]}},
        owner["email"],
        inst.workday(-9, 11),
        parent=plans["id"],
    )
    away_plans = folder(inst, away, "Plans", owner["email"])
    library_file(
        inst,
        away,
        f"{other_project} {kind}.docx",
        _plan(other_project, kind, "B", "June 30"),
        owner["email"],
        inst.workday(-3, 10),
        parent=away_plans["id"],
    )
    slug = project.lower()
    chan = channel(inst, f"proj-{slug}", [owner["email"], me, asker["email"]])
    leads = channel(inst, f"proj-{slug}-leads", [owner["email"], me], private=True)
    message(
        inst,
        chan,
        asker["email"],
        f"Does anyone have the latest {kind}? I only have an old copy.",
        inst.workday(-1, 16),
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong: list[dict[str, Any]] = []
    if shape == "old_copy_in_chat":
        first_cut = _plan(project, kind, revs[0], f"{dates[0]:%B} {dates[0].day}")
        old = slack_file(inst, chan, owner["email"], name, first_cut, inst.workday(-40, 11), f"First cut of the {kind}")
        wrong = [
            {"tool": "slack.download_file", "args": {"file_id": old["id"], "save_as": "plans/chat.docx"}},
            {"tool": "slack.upload_file", "args": {"channel": chan["id"], "path": "plans/chat.docx"}},
        ]
    elif shape == "next_draft":
        drafts = folder(inst, home, "Drafts", owner["email"])
        nxt = REVISIONS[n + 1]
        draft = library_file(inst, home, f"{project} {kind} rev {nxt} draft.docx",
                             _plan(project, kind, nxt, "TBC"), owner["email"], inst.workday(-1, 10),
                             parent=drafts["id"])  # fmt: skip
        wrong = [
            {"tool": "sharepoint.download_file", "args": {"file_id": draft["id"], "save_as": "plans/draft.docx"}},
            {"tool": "slack.upload_file", "args": {"channel": chan["id"], "path": "plans/draft.docx"}},
        ]
    who = inst.first(asker)
    instruction = compose(
        inst,
        [
            (
                f"share the current {kind} from the Project {project} site's Plans folder in #proj-{slug}",
                f"post the latest Project {project} {kind} (the one in Plans on SharePoint) in the project's Slack"
                " channel",
                f"put the {kind} from Plans on the {project} SharePoint site in #proj-{slug} for {who}",
            ),
        ],  # fmt: skip
        (
            f"{who} is asking in #proj-{slug} for the current {kind}",
            f"{who} only has an old copy of the {project} {kind}",
            f"the {kind} lives in Plans on the Project {project} SharePoint site",
            "",
        ),
        by=who,
        tail=("the file itself, not a description of it", "the public channel, not the leads one", ""),
    )
    from_site = {"app": "sharepoint", "collection": "files", "id": current["id"]}  # its current version's bytes
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "current_plan_shared",
                "kind": "record",
                "app": "slack",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {
                    "channel_id": chan["id"],
                    "name": {"regex": r"\.docx$"},
                    "blob": {"same_bytes_as": from_site},
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "files",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "blob": {"same_bytes_as": from_site}},
            },
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "user": me, "files": {"len": 1}},
            },
        ],
        "solution": [
            {
                "tool": "sharepoint.list_library",
                "args": {"site": home["name"], "folder": "Plans"},
                "save": {"fid": "results.0.id", "fname": "results.0.name"},
            },
            {
                "tool": "sharepoint.download_file",
                "args": {"file_id": "{fid}", "save_as": "plans/{fname}"},
                "save": {"p": "saved_to"},
            },
            {
                "tool": "slack.upload_file",
                "args": {"channel": f"#proj-{slug}", "path": "{p}", "comment": f"Here's the current {kind}."},
            },
        ],
        "alternative_solutions": [
            [
                {"tool": "sharepoint.search_files", "args": {"query": f"{project} {kind}", "site": home["name"]}},
                {
                    "tool": "sharepoint.list_library",
                    "args": {"site": home["url"], "folder": plans["id"]},
                    "save": {"fid": "results.0.id"},
                },
                {"tool": "sharepoint.download_file", "args": {"file_id": "{fid}"}, "save": {"p": "saved_to"}},
                {"tool": "slack.upload_file", "args": {"channel": chan["id"], "path": "{p}", "thread_id": ""}},
            ]
        ],
        "negative_controls": [
            {
                "name": "archived-copy",
                "why": "shares the copy of the same name from the Archive folder",
                "steps": [
                    {
                        "tool": "sharepoint.list_library",
                        "args": {"site": home["name"], "folder": "Archive"},
                        "save": {"fid": "results.0.id"},
                    },
                    {"tool": "sharepoint.download_file", "args": {"file_id": "{fid}", "save_as": "plans/old.docx"}},
                    {"tool": "slack.upload_file", "args": {"channel": f"#proj-{slug}", "path": "plans/old.docx"}},
                ],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "shares the first revision posted in the channel weeks ago"
                  if shape == "old_copy_in_chat"
                  else "shares the draft of the next revision",
                  "steps": wrong}]
                if wrong
                else []
            ),  # fmt: skip
            {
                "name": "earlier-version",
                "why": "shares the file's first version",
                "steps": [
                    {
                        "tool": "sharepoint.list_library",
                        "args": {"site": home["name"], "folder": "Plans"},
                        "save": {"fid": "results.0.id"},
                    },
                    {
                        "tool": "sharepoint.download_file",
                        "args": {"file_id": "{fid}", "save_as": "plans/v1.docx", "version": "1.0"},
                    },
                    {"tool": "slack.upload_file", "args": {"channel": f"#proj-{slug}", "path": "plans/v1.docx"}},
                ],
            },
            {
                "name": "leads-channel",
                "why": "shares it in the private leads channel instead",
                "steps": [
                    {
                        "tool": "sharepoint.list_library",
                        "args": {"site": home["name"], "folder": "Plans"},
                        "save": {"fid": "results.0.id"},
                    },
                    {"tool": "sharepoint.download_file", "args": {"file_id": "{fid}", "save_as": "plans/p.docx"}},
                    {"tool": "slack.upload_file", "args": {"channel": leads["id"], "path": "plans/p.docx"}},
                ],
            },
        ],
    }


FAMILY = Family(
    name="sharepoint-plan-to-slack",
    apps=("slack", "sharepoint"),
    summary="share the current version of a project plan from a SharePoint folder in the project's channel",
    build=_build,
)
