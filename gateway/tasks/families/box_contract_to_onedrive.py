"""Copy a vendor's signed contract (a real PDF) from Box into that vendor's OneDrive folder, through the workspace.

The copy must carry the Box file's bytes (typed text under its name is not it). Varies: the vendor, the
contract code and value, the signer, the phrasing (composed). Distractors in every shape: the unsigned Word
draft of the same contract beside it in Box (control: ``word-draft``), another vendor's signed contract
(``other-vendor-contract``), and the other vendor's OneDrive folder next to the right one (``wrong-folder``).

Scenario shapes (picked by the seed):

- ``draft_beside``: only the distractors above.
- ``older_signed``: last year's signed contract with the same vendor (another code) sits in the same Box
  folder (control: ``older-contract`` copies it).
- ``archive_folder``: OneDrive also has an Archive folder under Vendors with a folder of the vendor's name
  (control: ``archive-folder`` saves the right file there).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import box_file, box_folder, onedrive_folder
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("draft_beside", "older_signed", "archive_folder")
VENDORS = ("Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
           "Proseware Legal", "Wingtip Security", "Lucerne Analytics")  # fmt: skip


def _signed(code: str, vendor: str, value: int, signer: str) -> dict[str, Any]:
    return {
        "kind": "pdf",
        "title": f"{code} {vendor} contract",
        "lines": [f"Contract {code} with {vendor}", f"Total value: ${value:,}", f"Signed by {signer}"],
    }


def _build(inst: Instance) -> dict[str, Any]:
    vendor, other_vendor = inst.rng.sample(VENDORS, 2)
    code, other_code = inst.code("VC"), inst.code("VC")
    signer, drafter = inst.people(2)
    value = inst.amount(20_000, 600_000, 500)
    contracts = box_folder(inst, "Vendor contracts")
    signed_name = f"{code} {vendor} contract - signed.pdf"
    signed = box_file(
        inst,
        signed_name,
        contracts["id"],
        [(_signed(code, vendor, value, signer["name"]), inst.workday(-inst.rng.randint(3, 9), 15), signer["email"])],
    )
    draft_spec = {
        "kind": "docx",
        "title": f"{code} {vendor} contract",
        "paragraphs": [f"Contract {code} with {vendor}", f"Total value: ${value:,}", "DRAFT - not signed"],
    }
    draft = box_file(
        inst, f"{code} {vendor} contract.docx", contracts["id"], [(draft_spec, inst.workday(-1, 9), drafter["email"])]
    )
    other = box_file(
        inst,
        f"{other_code} {other_vendor} contract - signed.pdf",
        contracts["id"],
        [(_signed(other_code, other_vendor, inst.amount(20_000, 600_000, 500), signer["name"]), inst.workday(-2, 10),
          signer["email"])],
    )  # fmt: skip
    vendors = onedrive_folder(inst, "Vendors")
    target = onedrive_folder(inst, vendor, vendors["id"])
    wrong = onedrive_folder(inst, other_vendor, vendors["id"])
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra: list[dict[str, Any]] = []
    if shape == "older_signed":
        old_code, year = inst.code("VC"), inst.now.year - 1
        old_spec = _signed(old_code, vendor, inst.amount(20_000, 600_000, 500), drafter["name"])
        old = box_file(inst, f"{old_code} {vendor} contract - signed.pdf", contracts["id"],
                       [(old_spec, inst.now.replace(year=year), drafter["email"])])  # fmt: skip
        extra.append({
            "name": "older-contract",
            "why": "copies last year's signed contract with the same vendor",
            "steps": [
                {"tool": "box.download_file", "args": {"file_id": old["id"], "save_as": "old.pdf"}},
                {"tool": "onedrive.upload_file", "args": {"path": "old.pdf", "folder": target["id"]}},
            ],
        })  # fmt: skip
    elif shape == "archive_folder":
        archived = onedrive_folder(inst, vendor, onedrive_folder(inst, "Archive", vendors["id"])["id"])
        extra.append({
            "name": "archive-folder",
            "why": "saves the signed contract in the archived folder of the vendor's name",
            "steps": [
                {"tool": "box.download_file", "args": {"file_id": signed["id"], "save_as": "signed.pdf"}},
                {"tool": "onedrive.upload_file", "args": {"path": "signed.pdf", "folder": archived["id"]}},
            ],
        })  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"copy the signed {vendor} contract ({code}) from Box into OneDrive, in Vendors/{vendor}",
                f"get the signed {code} contract with {vendor} out of Box and save it to OneDrive (Vendors >"
                f" {vendor})",
                f"put our signed contract with {vendor}, {code}, in OneDrive under Vendors/{vendor}",
                f"save a copy of the signed {vendor} agreement {code} from Box's Vendor contracts folder into the"
                f" {vendor} folder under Vendors in OneDrive",
            ),
        ],
        (
            f"I need the {vendor} contract in OneDrive too",
            "it's in Box under Vendor contracts",
            f"the {vendor} paperwork should live with the rest of their files in OneDrive",
            "",
        ),
        by=signer["name"],
        tail=("the signed PDF, not the Word draft", "just that one file", ""),
    )  # fmt: skip
    path = f"downloads/{signed_name}"
    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "signed_contract_in_vendor_folder",
                "kind": "record",
                "app": "onedrive",
                "collection": "items",
                "new": True,
                "count": 1,
                "where": {
                    "parent_id": target["id"],
                    "kind": "file",
                    "blob": {"same_bytes_as": {"app": "box", "collection": "files", "id": signed["id"]}},
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "onedrive",
                "collection": "items",
                "kinds": ["add"],
                "where": {"parent_id": target["id"], "kind": "file"},
            }
        ],
        "solution": [
            {
                "tool": "box.search",
                "args": {"query": f"{code} signed", "file_extensions": ["pdf"]},
                "save": {"fid": "results.0.id"},
            },
            {"tool": "box.download_file", "args": {"file_id": "{fid}", "save_as": path}, "save": {"path": "saved_to"}},
            {"tool": "onedrive.upload_file", "args": {"path": "{path}", "folder": f"/Vendors/{vendor}"}},
            {"tool": "complete_task", "args": {"summary": f"Copied {signed_name} to OneDrive Vendors/{vendor}."}},
        ],  # fmt: skip
        "negative_controls": [
            {
                "name": "word-draft",
                "why": "copies the unsigned Word draft",
                "steps": [
                    {"tool": "box.download_file", "args": {"file_id": draft["id"], "save_as": "draft.docx"}},
                    {"tool": "onedrive.upload_file", "args": {"path": "draft.docx", "folder": target["id"]}},
                ],
            },
            {
                "name": "other-vendor-contract",
                "why": "copies the other vendor's signed contract",
                "steps": [
                    {"tool": "box.download_file", "args": {"file_id": other["id"], "save_as": "signed.pdf"}},
                    {"tool": "onedrive.upload_file", "args": {"path": "signed.pdf", "folder": target["id"]}},
                ],
            },
            {
                "name": "wrong-folder",
                "why": "saves it in the other vendor's folder",
                "steps": [
                    {"tool": "box.search", "args": {"query": f"{code} signed"}, "save": {"fid": "results.0.id"}},
                    {"tool": "box.download_file", "args": {"file_id": "{fid}", "save_as": "signed.pdf"}},
                    {"tool": "onedrive.upload_file", "args": {"path": "signed.pdf", "folder": wrong["id"]}},
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="box-contract-to-onedrive",
    apps=("box", "onedrive"),
    summary="copy a vendor's signed contract PDF from Box into its OneDrive folder through the workspace",
    build=_build,
)
