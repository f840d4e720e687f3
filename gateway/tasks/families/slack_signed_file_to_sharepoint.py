"""File the signed statement of work a colleague shared in a Slack channel into a SharePoint folder.

The PDF moves through the workspace: downloaded from the chat, uploaded to the site's Contracts folder; the
filed file must carry the shared file's bytes (typed text under its name is not it).
Varies: the project, the vendor, the SOW number and amount, who shared it, the phrasing. Distractors: the
unsigned draft of the same SOW shared earlier in the same channel, another vendor's signed SOW shared in
another project's channel, and a Contracts folder on another project's site.

Scenario shapes (picked by the seed):

- ``draft_then_signed``: the near-misses above (control: files the unsigned draft).
- ``signed_in_thread``: the signed copy came as a reply in the draft's thread, and an older signed SOW of the
  vendor (last year's) sits in the channel too (control: files last year's signed SOW).
- ``already_filed_old``: the site's Contracts folder already holds last year's signed SOW of the same vendor
  (control: leaves it there and files nothing new).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, folder, library_file, project_names, site, slack_file

__all__ = ["FAMILY"]

SHAPES = ("draft_then_signed", "signed_in_thread", "already_filed_old")
VENDORS = (
    "Fabrikam Logistics", "Contoso Consulting", "Tailspin Studios", "Litware Cloud", "Adatum Security",
    "Proseware Legal", "Wingtip Analytics", "Lamna Engineering",
)  # fmt: skip


def _sow(vendor: str, number: str, amount: int, signer: str | None) -> dict[str, Any]:
    lines = [f"Statement of work {number}", f"Supplier: {vendor}", f"Fees: ${amount:,}.00"]
    lines.append(f"Signed by {signer}" if signer else "DRAFT - not for signature")
    return {"kind": "pdf", "title": f"{vendor} SOW {number}", "lines": lines}


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    project, other_project = project_names(inst, 2)
    sharer, owner, other = inst.people(3)
    vendor, other_vendor = inst.rng.sample(VENDORS, 2)
    number, other_number = inst.code("SOW", 4), inst.code("SOW", 4)
    amount = inst.amount(12_000, 180_000, 500)
    slug = project.lower()
    chan = channel(inst, f"proj-{slug}", [sharer["email"], me, owner["email"], other["email"]])
    other_chan = channel(inst, f"proj-{other_project.lower()}", [other["email"], me, sharer["email"]])
    home = site(inst, f"Project {project}", [(owner["email"], "full_control"), (me, "contribute")])
    away = site(inst, f"Project {other_project}", [(other["email"], "full_control"), (me, "contribute")])
    contracts = folder(inst, home, "Contracts", owner["email"])
    folder(inst, away, "Contracts", other["email"])
    signed_name = f"{vendor.split()[0]} SOW {number} signed.pdf"
    draft_name = f"{vendor.split()[0]} SOW {number} draft.pdf"
    draft = slack_file(
        inst,
        chan,
        sharer["email"],
        draft_name,
        _sow(vendor, number, amount + inst.amount(1_000, 9_000, 500), None),
        inst.workday(-inst.rng.randint(6, 12), 10),
        f"Draft SOW from {vendor} for review",
    )
    signed = slack_file(
        inst,
        chan,
        sharer["email"],
        signed_name,
        _sow(vendor, number, amount, sharer["name"]),
        inst.workday(-inst.rng.randint(1, 3), 15),
        f"{vendor} countersigned {number} - here it is",
    )
    decoy = slack_file(
        inst,
        other_chan,
        other["email"],
        f"{other_vendor.split()[0]} SOW {other_number} signed.pdf",
        _sow(other_vendor, other_number, inst.amount(12_000, 180_000, 500), other["name"]),
        inst.workday(-1, 11),
        f"Signed SOW from {other_vendor}",
    )
    shared = {"app": "slack", "collection": "files", "id": signed["id"]}  # the very file shared in the channel
    shape = SHAPES[inst.seed % len(SHAPES)]
    last_year = inst.code("SOW", 4)
    old_sow = _sow(vendor, last_year, inst.amount(12_000, 180_000, 500), sharer["name"])
    stale: dict[str, Any] | None = None
    if shape == "signed_in_thread":
        posts = inst.overrides["slack"]["messages"].values()
        root = next(m["id"] for m in posts if m.get("files") == [draft["id"]])
        for note in posts:
            if note.get("files") == [signed["id"]]:
                note["thread_id"] = root
        old_name = f"{vendor.split()[0]} SOW {last_year} signed.pdf"
        when = inst.workday(-inst.rng.randint(200, 300), 10)
        stale = slack_file(inst, chan, sharer["email"], old_name, old_sow, when, f"Signed {vendor} SOW, last year")
    elif shape == "already_filed_old":
        library_file(inst, home, f"{vendor.split()[0]} SOW {last_year} signed.pdf", old_sow, owner["email"],
                     inst.workday(-inst.rng.randint(200, 300), 10), parent=contracts["id"])  # fmt: skip
    who = inst.first(sharer)
    instruction = compose(
        inst,
        [
            (
                f"file the signed {vendor} SOW from #proj-{slug} in the Contracts folder on the Project {project}"
                " SharePoint site",
                f"grab the countersigned statement of work {who} shared in the {project} project channel and save"
                f" it to Contracts on the Project {project} site",
                f"put the signed copy of {number} in the {project} site's Contracts folder",
                f"get the signed SOW {who} dropped in Slack into Contracts on the {project} site",
            ),
        ],  # fmt: skip
        (
            f"{who} posted the signed {vendor} SOW in #proj-{slug}",
            f"the {vendor} SOW for Project {project} is signed",
            f"{vendor} countersigned their statement of work",
            "",
        ),
        by=who,
        tail=("the signed PDF itself, not the draft", "only that project's site", ""),
    )
    return {
        "instruction": instruction,
        "sandbox": True,
        "no_controls": {
            "share_what_you_made": "a SharePoint file takes its access from its site, and the user only contributes"
            " to the project site: nothing of what they file can be opened to an outsider",
        },
        "checks": [
            {
                "name": "signed_sow_filed",
                "kind": "record",
                "app": "sharepoint",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {
                    "site_id": home["id"],
                    "parent_id": contracts["id"],
                    "mime_type": "application/pdf",
                    "deleted": False,
                    "blob": {"same_bytes_as": shared},
                },
            },
            {
                "name": "is_this_sow",
                "kind": "record",
                "app": "sharepoint",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {"parent_id": contracts["id"], "blob": {"text": {"contains": f"{amount:,}.00"}}},
            },
        ],
        "allowed_changes": [
            {
                "app": "sharepoint",
                "collection": "files",
                "kinds": ["add"],
                "where": {
                    "site_id": home["id"],
                    "parent_id": contracts["id"],
                    "version": "1.0",
                    "blob": {"same_bytes_as": shared},
                },
            }
        ],
        "solution": [
            {
                "tool": "slack.list_files",
                "args": {"channel": f"#proj-{slug}", "query": "signed"},
                "save": {"fid": "results.0.id", "fname": "results.0.name"},
            },
            {
                "tool": "slack.download_file",
                "args": {"file_id": "{fid}", "save_as": "sow/{fname}"},
                "save": {"p": "saved_to"},
            },
            {"tool": "sharepoint.upload_file", "args": {"site": home["name"], "folder": "Contracts", "path": "{p}"}},
        ],
        "alternative_solutions": [
            [
                {
                    "tool": "slack.search_messages",
                    "args": {"query": f"countersigned in:#proj-{slug}"},
                    "save": {"fid": "results.0.files.0.id"},
                },
                {"tool": "slack.download_file", "args": {"file_id": "{fid}"}, "save": {"p": "saved_to"}},
                {
                    "tool": "sharepoint.upload_file",
                    "args": {
                        "site": home["url"],
                        "folder": contracts["id"],
                        "path": "{p}",
                        "name": f"SOW {number}.pdf",
                    },
                },
            ]
        ],
        "negative_controls": [
            {
                "name": "files-the-draft",
                "why": "files the unsigned draft",
                "steps": [
                    {"tool": "slack.download_file", "args": {"file_id": draft["id"], "save_as": "sow/draft.pdf"}},
                    {
                        "tool": "sharepoint.upload_file",
                        "args": {"site": home["name"], "folder": "Contracts", "path": "sow/draft.pdf"},
                    },
                ],
            },
            {
                "name": "other-vendor",
                "why": "files the other project's signed SOW",
                "steps": [
                    {"tool": "slack.download_file", "args": {"file_id": decoy["id"], "save_as": "sow/other.pdf"}},
                    {
                        "tool": "sharepoint.upload_file",
                        "args": {"site": home["name"], "folder": "Contracts", "path": "sow/other.pdf"},
                    },
                ],
            },
            *(
                [{"name": "last-years-sow", "why": "files last year's signed SOW of the same vendor",
                  "steps": [
                      {"tool": "slack.download_file", "args": {"file_id": stale["id"], "save_as": "sow/old.pdf"}},
                      {"tool": "sharepoint.upload_file",
                       "args": {"site": home["name"], "folder": "Contracts", "path": "sow/old.pdf"}},
                  ]}]
                if stale
                else []
            ),
            *(
                [{"name": "files-nothing", "why": "takes last year's SOW in Contracts for this one and files nothing",
                  "steps": [{"tool": "sharepoint.list_library",
                             "args": {"site": home["name"], "folder": "Contracts"}}]}]
                if shape == "already_filed_old"
                else []
            ),  # fmt: skip
            {
                "name": "top-of-library",
                "why": "uploads it to the top of Documents, not Contracts",
                "steps": [
                    {"tool": "slack.download_file", "args": {"file_id": signed["id"], "save_as": "sow/signed.pdf"}},
                    {"tool": "sharepoint.upload_file", "args": {"site": home["name"], "path": "sow/signed.pdf"}},
                ],
            },
            {
                "name": "other-site",
                "why": "files it in the other project's Contracts folder",
                "steps": [
                    {"tool": "slack.download_file", "args": {"file_id": signed["id"], "save_as": "sow/signed.pdf"}},
                    {
                        "tool": "sharepoint.upload_file",
                        "args": {"site": away["name"], "folder": "Contracts", "path": "sow/signed.pdf"},
                    },
                ],
            },
        ],
    }


FAMILY = Family(
    name="slack-signed-file-to-sharepoint",
    apps=("sharepoint", "slack"),
    summary="download the signed SOW a colleague shared in Slack and file it in a SharePoint folder",
    build=_build,
)
