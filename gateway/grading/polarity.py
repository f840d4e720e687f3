"""Polarity of an answer's clauses: what it affirms, and what it denies (``not PR-7078``, ``PR-4530 is not pending``).

:func:`split_negated` cuts an answer into its affirmed and negated parts, clause by clause;
:func:`asked_words` gives the words of a request that say what is asked, so that a clause saying its subject
is not that (``PR-4530 is not pending`` to "which request is pending?") is read as a denial.
"""

from __future__ import annotations

import re

from gateway.grading import wording as w

__all__ = [
    "ANSWER_CUE", "CLAUSE_END", "DENIED_AFTER", "PLAIN_WORDS", "SAYS_WRONG", "SUMMARY_CLAUSE", "SUMMARY_DOUBT", "WORD",
    "asked_words",
    "neighbours", "split_negated",
]  # fmt: skip

#: Where an answer's clauses end: punctuation (not inside a number, time, address or link) and "and"/"but".
_ANSWER_CLAUSE = re.compile(r",(?!\s?\d)|(?<!\b[A-Z])\.(?=\s|$)|[;!?\n]|:(?!\d|//)|\s(?:and|but)\s", re.IGNORECASE)


#: Words of a request that say nothing of what is asked (``which``, ``please``, ``answer``...).
PLAIN_WORDS = frozenset(
    re.findall(
        r"\w+",
        "which what when where whom whose with that this these those from have does there their about please could "
        "would should still answer tell give find name list check number many much each every only also they them "
        "then will into over than your mine some most more just know need needs",
    )
)
WORD = re.compile(r"[a-z][a-z'’-]{3,}")
_NEG_BEFORE = re.compile(r"\b(?:not|no|never|n['’]t)\s+(?:\w+\s+)?$", re.IGNORECASE)
#: ``X is not pending``, ``X isn't pending any more``: a denial after the value; group 1 the words denied.
_IS_NOT = re.compile(r"\b(?:is|are|was|were)(?:n['’]t|\s+not)\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)", re.IGNORECASE)


def asked_words(instruction: str) -> frozenset[str]:
    """The request's words that say what is asked (``pending``, ``unresolved``, ``oldest``).

    Four letters or more, not plain words, and not negated in the request itself (``tickets not resolved`` asks
    nothing of ``resolved``).
    """
    out = set()
    lowered = instruction.lower()
    for m in WORD.finditer(lowered):
        if m.group(0) not in PLAIN_WORDS and not _NEG_BEFORE.search(lowered[max(0, m.start() - 20) : m.start()]):
            out.add(m.group(0))
    return frozenset(out)


def _denies_asked(clause: str, asked: frozenset[str]) -> bool:
    """Whether ``clause`` says its subject is not what the request asks (``PR-4530 is not pending``)."""
    m = _IS_NOT.search(clause)
    return bool(m and asked & set(m.group(1).lower().split()))


def split_negated(text: str, asked: frozenset[str] = frozenset()) -> tuple[str, str]:
    """``text`` cut in two: what it affirms, and what follows a negator in its clause (``not PR-7078``).

    ``It is not Nikhil`` denies Nikhil; ``HD-3149 has not been updated`` still names HD-3149 (the negator
    comes after it), but ``PR-4530 is not pending`` denies PR-4530 when the request asks what is pending
    (``asked``: :func:`asked_words`); ``not only`` negates nothing.
    """
    affirmed, negated = [], []
    start = 0
    for end in [m.start() for m in _ANSWER_CLAUSE.finditer(text)] + [len(text)]:
        clause = text[start:end]
        neg = w.NEG.search(w.NOT_NEG.sub(lambda m: " " * len(m.group(0)), clause))
        if _denies_asked(w.PAREN.sub(" ", clause), asked):
            negated.append(clause)
        elif neg:
            affirmed.append(_closed(clause[: neg.start()]))
            negated.append(clause[neg.end() :])
        else:
            affirmed.append(clause)
        start = end
    return _closed(" ; ".join(affirmed)), " ; ".join(negated)


def _closed(piece: str) -> str:
    """``piece`` with a parenthesis a cut left open closed: "9 (the 4th was not picked)" keeps the 4th aside."""
    return piece + ")" * max(0, piece.count("(") - piece.count(")"))


#: A summary stating what the answer is: "the answer is", "it's actually", "the manager was", "correct one is".
ANSWER_CUE = re.compile(
    r"\b(?:(?:the )?(?:real |right |correct |actual |true |final )?answer|the (?:right|correct|real|actual|true) (?:one"
    r"|person|value|number|date|id|ticket))\s*(?:is|was|['’]s|should be)\s+(?:actually\s+|really\s+)?"
    r"|\bactually,?\s+(?:it\s*(?:is|was|['’]s)\s+)?|\bit\s*(?:is|['’]s)\s+actually\s+|\bit should be\s+",
    re.IGNORECASE,
)
#: Doubt in a summary; with another candidate after it, before the clause ends, it doubts the answer.
SUMMARY_DOUBT = re.compile(
    r"\b(?:could (?:also|just as well|equally) be|might (?:also|instead|just as well) be|or (?:maybe|perhaps|possibly)"
    r"|(?:it|that|this) (?:may|might) (?:well )?be)\b",
    re.IGNORECASE,
)
SAYS_WRONG = re.compile(
    r"\b(?:answer|above|that|this|it)\b[^.;]{0,24}?\b(?:is|was|['’]s)\s+(?:wrong|incorrect|not (?:right|correct|it))\b"
    r"|\b(?:ignore|disregard) (?:the|my|that|this) answer\b"
    r"|\b(?:it|that|this) (?:is|was|['’]s) (?:just |only )?a guess\b",
    re.IGNORECASE,
)
DENIED_AFTER = re.compile(
    r"[\w ]{0,30}?\b(?:is|was|are)(?:n['’]t| not) (?:right|correct|it|the (?:answer|one|right one))\b"
    r"|[\w ]{0,30}?\b(?:is|was) (?:wrong|incorrect)\b",
    re.IGNORECASE,
)
CLAUSE_END = re.compile(r"[,;:.!?\n]|\s(?:but|and|because|although|while|which|who)\b", re.IGNORECASE)

#: Where a summary's clauses end.
SUMMARY_CLAUSE = re.compile(r"[;.!?\n:]|,\s", re.IGNORECASE)


def neighbours(kind: str, positions: list[int], answer: str) -> list[tuple[str, str]]:
    """The words that place a value in the answer, at each of its ``positions``.

    ``("after", w)`` for a number (``2 unresolved``), ``("before", w)`` for anything else (``oldest HD-3149``);
    plain and short words left out.
    """
    out = []
    for at in positions:
        if kind == "number":
            m = re.match(r"[\w.,$%]*\s+([A-Za-z][\w'’-]+)", answer[at:])
            side = "after"
        else:
            m = re.search(r"([A-Za-z][\w'’-]+)\s+(?:is\s+|was\s+|being\s+)?$", answer[max(0, at - 30) : at])
            side = "before"
        if m and len(m.group(1)) >= 4 and m.group(1).lower() not in PLAIN_WORDS:
            out.append((side, m.group(1).lower()))
    return out
