"""Phrasing and scenario variety: shaped families name three shapes and ten phrasings; the composer reads right."""

import importlib

import pytest

from gateway.runners.skeletons import skeleton_counts
from gateway.tasks.kit.base import Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.loader import families, family_rows
from tools.companies import company

FAMILIES = families()
SHAPED = sorted(n for n, f in FAMILIES.items() if hasattr(importlib.import_module(f.build.__module__), "SHAPES"))


def test_the_old_helpdesk_sharepoint_and_slack_families_name_their_shapes():
    old = [n for n, f in FAMILIES.items() if f.kind == "task" and n.startswith(("helpdesk-", "sharepoint-", "slack-"))]
    assert old and set(old) <= set(SHAPED), sorted(set(old) - set(SHAPED))
    assert "onedrive-company-link-by-mail" in SHAPED


@pytest.mark.parametrize("name", SHAPED)
def test_a_shaped_family_has_three_named_shapes_and_ten_skeletons(name):
    module = importlib.import_module(FAMILIES[name].build.__module__)
    assert len(module.SHAPES) >= 3 and len(set(module.SHAPES)) == len(module.SHAPES)
    for shape in module.SHAPES:
        assert f"``{shape}``" in (module.__doc__ or ""), (name, shape)
    rows = family_rows([name])
    assert skeleton_counts((name, r["instruction"]) for r in rows)[name] >= 10


def test_a_chat_line_opened_with_a_question_starts_its_ask_with_a_capital():
    texts = [compose(Instance("variety-test", company("gen-2"), s), [("move the ticket",)]) for s in range(80)]
    asked = [t for t in texts if t.startswith("Can you take this on? ")]
    assert asked and all(t.startswith("Can you take this on? Move the ticket") for t in asked)
    assert any(t.startswith("Quick one: move the ticket") for t in texts)  # other openers run on
