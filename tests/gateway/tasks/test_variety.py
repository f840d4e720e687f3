"""Phrasing variety: the composer's registers read right."""

from gateway.tasks.kit.base import Instance
from gateway.tasks.kit.phrasing import compose
from tools.companies import company


def test_a_chat_line_opened_with_a_question_starts_its_ask_with_a_capital():
    texts = [compose(Instance("variety-test", company("gen-2"), s), [("move the ticket",)]) for s in range(80)]
    asked = [t for t in texts if t.startswith("Can you take this on? ")]
    assert asked and all(t.startswith("Can you take this on? Move the ticket") for t in asked)
    assert any(t.startswith("Quick one: move the ticket") for t in texts)  # other openers run on
