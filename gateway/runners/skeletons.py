"""Instruction skeletons: an instruction with its names, numbers, dates, codes and quotes masked.

Two instances of a family share a skeleton when they ask in the same words and order, whatever names, dates and
numbers they carry; the number of distinct skeletons per family is how many phrasings a policy meets
(``company-gateway tasks --stats``: ``skeletons_by_family``).

What is masked, in this order: quoted text (``"..."``, ``'...'`` of 2+ characters) as ``Q``; e-mail addresses
and URLs as ``E``/``U``; file names (with an extension) as ``F``; channel names (``#team-x``) as ``C``; codes
and numbers (any token holding a digit: ``INV-2041``, ``15:00``, ``$1,200``) as ``N``; month and weekday names
(capitalized) as ``D``; and names as ``X``: capitalized words inside a sentence, and at a sentence's start
those never written in lower case in the whole task set (people, teams, projects, departments), a possessive
``'s`` kept. Runs of masks joined by spaces fold into one. Words a family draws from its own lists (a
document kind, a role) are not masked: they count as wording. Pure and deterministic: the same instructions
give the same counts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

__all__ = ["skeleton", "skeleton_counts"]

_QUOTED = re.compile(r"\"[^\"\n]{2,}\"|(?<!\w)'[^'\n]{2,}'(?!\w)|“[^”\n]{2,}”")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_URL = re.compile(r"\bhttps?://\S+")
_CHANNEL = re.compile(r"#[\w-]+")
_FILE = re.compile(r"\S+\.(?:xlsx|docx|pptx|pdf|csv|txt|md|json|png|zip)\b", re.IGNORECASE)
_CODE = re.compile(r"[$€£]?[\w.,:/-]*\d[\w.,:/-]*")
_DATES = [
    *("January", "February", "March", "April", "May", "June", "July", "August", "September", "October"),
    *("November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov"),
    *("Dec", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
]
_DATE = re.compile(r"\b(?:" + "|".join(_DATES) + r")\b")
_MASKS = frozenset("CEFUNDXQ")
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n]\s*|\s-\s+)[\"'(“]?$")
_WORD = re.compile(r"\b[A-Za-z][A-Za-z&-]*\b")
_FOLD = re.compile(r"\b([CEFUNDXQ])(?:(?:\s+|-)\1\b)+")


def _lower_words(texts: Iterable[str]) -> set[str]:
    """Every word written in lower case somewhere in ``texts``, codes and addresses masked first."""
    return {m.group(0) for t in texts for m in _WORD.finditer(_mask_codes(t)) if m.group(0).islower()}


def _mask_codes(text: str) -> str:
    out = _QUOTED.sub("Q", text)
    out = _EMAIL.sub("E", out)
    out = _URL.sub("U", out)
    out = _FILE.sub("F", out)
    out = _CHANNEL.sub("C", out)
    out = _CODE.sub("N", out)
    return _DATE.sub("D", out)


def skeleton(text: str, lower_words: set[str]) -> str:
    """``text`` with its variable parts masked (see the module doc); ``lower_words`` from the same task set.

    A capitalized word inside a sentence is a name; at a sentence's start it is one only when it is never
    written in lower case in the task set (``Please`` is kept, ``Marco`` masked).
    """
    out = _mask_codes(text)

    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if w.islower() or len(w) == 1 or w in _MASKS:
            return w
        starts = _SENTENCE_START.search(out[: m.start()]) is not None
        return w if starts and w.lower() in lower_words else "X"

    out = _WORD.sub(word, out)
    return _FOLD.sub(r"\1", " ".join(out.split()))


def skeleton_counts(rows: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Distinct skeletons per family.

    Args:
        rows: ``(family, instruction)`` pairs; hand-written rows under family ``"none"``.

    Returns:
        ``{family: number of distinct skeletons}``, sorted by family.
    """
    by_family: dict[str, list[str]] = defaultdict(list)
    for family, text in rows:
        by_family[family].append(text)
    words = _lower_words(t for texts in by_family.values() for t in texts)
    return {family: len({skeleton(t, words) for t in by_family[family]}) for family in sorted(by_family)}
