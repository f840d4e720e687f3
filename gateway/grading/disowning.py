"""Free text that disowns the work it comes with.

A retraction, telling the reader not to act, saying the work was not done, calling it off, or doubting it in an
aside: the default reading of a text no claim declares (:mod:`gateway.grading.freetext` applies it).
"""

from __future__ import annotations

import re
from typing import Any

from gateway.grading import wording as w
from gateway.grading.messages import NOTHING, negated, own_words, split_clauses

__all__ = ["disowns", "retraction"]

_DISOWNING = (
    (w.DISOWN_ACT, "tells the reader not to act on it"),
    (w.DISOWN_UNABLE, "says it was not done"),
    (w.DISOWN_STATE, "calls it off or voids it"),
)
#: Beside a decline or a cancellation, saying one will come after all: "Actually I can make it - see you there!"
_UNDOES_DECLINE = re.compile(
    r"(?<!n['’]t )(?<!not )\b(?:(?:i|we) can make it|see you there|(?:i|we)['’]ll be there|(?:i|we) will be there"
    r"|count (?:me|us) in|(?:i|we)['’]ll attend|(?:i|we) will attend|still on|going ahead after all)\b",
    re.IGNORECASE,
)


def disowns(text: Any, negative_work: bool = False) -> str:
    """Why a free text disowns the work it comes with, or ``""``: the default reading of a text with no claim.

    The text's own words (no quoted or forwarded original) are read for a retraction (``correction``,
    ``scratch that``, ``ignore the following``), for doubt about the work as a whole (``not sure this is
    right``, ``this may be wrong``: :func:`gateway.grading.wording.doubting`), then clause by clause
    (questions, and clauses of reason, condition or time such as ``because they can't deliver``, are context)
    for: telling the reader not to act (``do NOT pay this``, ``you should not attend``), saying the work was
    not done or cannot be (``could NOT update it``, ``I can't make it``, ``it was not booked``), or calling
    it off or voiding it (``cancelled``, ``rejected``, ``deprecated``, ``OUTDATED``, ``ignore this``, ``test
    message, please ignore``), unless negated (``not cancelled``) or after a condition in the clause (``let
    me know if anything is wrong``).

    Args:
        text: The free text (anything else than a string disowns nothing).
        negative_work: The work itself declines, cancels or rejects (then saying so agrees with it, and
            only a retraction disowns it).

    Returns:
        e.g. ``"tells the reader not to act on it ('do NOT pay')"``; ``""`` when nothing disowns it.
    """
    if not isinstance(text, str) or not text.strip():
        return ""
    text = own_words(text)
    if took_back := retraction(text):
        return took_back
    if negative_work:
        m = _UNDOES_DECLINE.search(text)
        return f"says the opposite of the work ({m.group(0)!r})" if m else ""
    if doubt := w.doubting(text):
        return f"doubts it ({doubt!r})"  # "Not sure this is right.", "FYI, though I think this might be old."
    for sentence in w.SENTENCE_END.split(text):
        if not sentence.strip() or sentence.rstrip().endswith("?"):
            continue
        blank = w.PAREN.sub(lambda m: " " * len(m.group(0)), sentence)
        clauses = split_clauses(blank, 0, len(blank), False)
        clauses += [
            c for m in w.PAREN.finditer(sentence) for c in split_clauses(sentence, m.start() + 1, m.end() - 1, True)
        ]
        for c in clauses:
            own = c.text[c.start : c.end]
            if w.ASIDE_REASON.match(own):
                continue
            if c.aside and (m := w.DOUBT_WORK.search(own)):
                return f"doubts it in an aside ({m.group(0)!r})"  # "(well, almost)", "(could also be the draft)"
            if w.OTHER_ITEM.search(own):
                continue  # "the earlier one from last month is outdated": another item, not the work
            condition = w.UNLESS.search(own)
            for pattern, why in _DISOWNING:
                for m in pattern.finditer(own):
                    if condition and condition.start() < m.start():
                        continue
                    denied = negated(own, 0, m.start()) or NOTHING.search(own, 0, m.start())
                    if pattern is w.DISOWN_STATE and denied:
                        continue
                    return f"{why} ({m.group(0).strip()!r})"
    return ""


def retraction(text: str) -> str:
    """How ``text``'s own words take themselves back (``correction``, ``ignore the following``), or ``""``."""
    for marker in (w.BACK, w.FORWARD):
        if m := marker.search(own_words(text)):
            return f"takes itself back ({m.group(0)!r})"
    return ""
