"""Answers kept by an object's identity: only for that very object, the oldest dropped past the bound."""

from __future__ import annotations

from gateway.grading.kept import KeptByIdentity


def test_an_answer_is_kept_for_the_object_and_key_it_was_given_for_and_the_oldest_goes_first():
    kept: KeptByIdentity[str] = KeptByIdentity(2)
    first, second, third = {"a": 1}, {"a": 1}, {"a": 1}  # equal, but three objects
    kept.put(first, "one")
    kept.put(first, "one, keyed", key="k")
    assert kept.get(first) == "one" and kept.get(first, "k") == "one, keyed"
    assert kept.get(second) is None  # an equal object is not the same one
    kept.put(second, "two")
    assert kept.get(first) is None  # the oldest went when the third answer came
    assert kept.get(first, "k") == "one, keyed" and kept.get(second) == "two" and kept.get(third) is None
