"""The box, calendar, directory, drive and gmail task families: composed asks, shapes picked by the seed.

(Every shaped family naming its shapes is checked in ``test_variety.py``.)
"""

import pytest

from gateway.runners.skeletons import skeleton_counts
from gateway.tasks.loader import families, family_rows

FAMILIES = families()
ROWS = family_rows()
#: The kind-``task`` families whose asks are composed (``compose``) over at least 10 skeletons and whose
#: scenarios come in at least three shapes picked by the seed.
COMPOSED = (
    "box-contract-to-onedrive",
    "box-remove-collaborator",
    "box-restore-before-bad-edit",
    "calendar-accept-mailed-invite",
    "calendar-book-free-slot",
    "calendar-decline-occurrence",
    "calendar-move-requested-meeting",
    "directory-skip-level",
    "drive-budget-cell-answer",
    "drive-share-file-with-role",
    "drive-share-latest-draft",
    "gmail-attachment-new-drive-version",
    "gmail-change-request-drive-comment",
    "gmail-contract-to-department-head",
    "gmail-forward-invoice",
    "gmail-forward-notice-department",
    "gmail-label-vendor-filter",
    "gmail-reply-decision",
    "gmail-reply-with-report",
    "gmail-signed-sow-to-onedrive",
    "gmail-vacation-leave",
)


def _module(name: str) -> object:
    return __import__(FAMILIES[name].build.__module__, fromlist=["FAMILY"])


@pytest.mark.parametrize("name", COMPOSED)
def test_a_composed_family_has_ten_instruction_skeletons(name):
    texts = [r["instruction"] for r in ROWS if r["family"] == name]
    assert skeleton_counts((name, t) for t in texts)[name] >= 10
    module = _module(name)
    assert "compose" in vars(module)
    assert len(module.SHAPES) >= 3  # type: ignore[attr-defined]


def _mail_shape(row: dict) -> tuple[int, int, int]:
    """(messages, threads, replies) of a row's scenario mail: a shape's structure, whatever names it carries."""
    messages = row["world"]["overrides"]["gmail"]["messages"].values()
    return len(messages), len({m["thread_id"] for m in messages}), sum(bool(m["in_reply_to"]) for m in messages)


@pytest.mark.parametrize(
    ("name", "shapes"),
    [
        ("calendar-move-requested-meeting", [(3, 2, 1), (3, 3, 0), (4, 2, 2)]),  # same thread, new mail, three-way
        ("gmail-vacation-leave", [(3, 2, 1), (3, 3, 0), (4, 3, 1)]),  # reply, new mail, revised approval
    ],
)
def test_the_seed_picks_the_shape_so_every_company_gets_all_three(name, shapes):
    for company in ("gen-1", "gen-7"):
        rows = sorted((r for r in ROWS if r["family"] == name and r["world"]["fixture"] == company),
                      key=lambda r: r["seed"])  # fmt: skip
        assert [_mail_shape(r) for r in rows[:3]] == shapes, company
