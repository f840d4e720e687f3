"""Instructions composed rather than listed: a register, a clause order and a wording per clause.

A family describes its request as parts, each with a few wordings, and :func:`compose` draws how a colleague
would put them together: a terse chat line, a forwarded request (the ask quoted under a short cover line) or
a formal mail; the background before or after the asks; the asks joined as a sentence, as numbered steps or
as "first ... then ...". Two or three wordings of four parts across three registers and two orders give
dozens of instruction skeletons (``tasks --stats``'s ``skeletons_by_family``) from a few lines of family code.

Wordings are plain ``str`` (already formatted with the instance's values). An ask starts in lower case with
its verb (``"reply to Ana's thread with the decision"``); a context sentence is a full sentence without its
final stop (``"Ana sent three quotes for PO-4821"``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gateway.tasks.kit.base import Instance

__all__ = ["REGISTERS", "compose"]

#: The registers a request is written in.
REGISTERS = ("chat", "forwarded", "formal", "steps")

_CHAT_OPENERS = ("", "quick one: ", "when you get a sec, ", "can you take this on? ")
_FORMAL_OPENERS = ("Hi,", "Hello,", "Good morning,")
_FORMAL_CLOSERS = ("Thanks.", "Thank you!", "Much appreciated.")
_FORWARD_COVERS = (
    "Forwarding this from {by}, can you handle it?",
    "See below from {by} - please take care of it.",
    "{by} asked me for this; over to you.",
)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(asks: list[str], inst: Instance) -> str:
    """Asks as one sentence: ``a, b and c`` or ``first a, then b, and finally c``."""
    if len(asks) == 1:
        return asks[0]
    if inst.rng.random() < 0.5:
        return ", ".join(asks[:-1]) + " and " + asks[-1]
    middle = "".join(f", then {a}" for a in asks[1:-1])
    return f"first {asks[0]}{middle}, and finally {asks[-1]}"


def compose(
    inst: Instance,
    asks: Sequence[Sequence[str]],
    context: Sequence[str] = (),
    *,
    by: str = "",
    tail: Sequence[str] = (),
) -> str:
    """One instruction made of ``asks`` (in their order) and a ``context`` sentence, in a drawn register.

    Args:
        inst: The instance (its ``rng`` draws every choice, so the same seed gives the same text).
        asks: The steps asked for, in order; each is a list of alternative wordings (lower-case verb first,
            no final stop).
        context: Alternative wordings of the background sentence (no final stop); empty for none.
        by: Who the request comes from, for the forwarded register (a name); without it that register is
            not drawn (nor numbered steps for a single ask).
        tail: Alternative wordings of a closing remark (a constraint, e.g. ``"keep it to the people named"``);
            empty for none.

    Returns:
        The instruction text.

    Raises:
        ValueError: ``asks`` is empty or one of its parts has no wording.
    """
    if not asks or any(not a for a in asks):
        raise ValueError("compose: every ask needs at least one wording")
    picked = [str(inst.pick(a)) for a in asks]
    about = str(inst.pick(context)) if context else ""
    end = str(inst.pick(tail)) if tail else ""
    registers = [r for r in REGISTERS if (by or r != "forwarded") and (len(asks) > 1 or r != "steps")]
    register = inst.pick(registers)
    context_first = inst.rng.random() < 0.6
    if register == "steps":
        lines = [f"{n}. {_cap(a)}." for n, a in enumerate(picked, 1)]
        head = inst.pick(("To do:", "Steps, in order:", "Here's what I need:"))
        parts = [f"{_cap(about)}." if about and context_first else "", head, *lines]
        parts += [f"{_cap(about)}." if about and not context_first else "", f"{_cap(end)}." if end else ""]
        return "\n".join(p for p in parts if p)
    body = _join(picked, inst)
    if register == "chat":
        opener = inst.pick(_CHAT_OPENERS)
        text = f"{opener}{_cap(body) if opener.endswith('? ') else body}"
        text = f"{about} - {text}" if about and context_first else f"{text}{' - ' + about if about else ''}"
        return _cap(text) + (f". {_cap(end)}." if end else ".")
    ask = f"Could you please {body}?" if inst.rng.random() < 0.5 else f"Please {body}."
    sentences = [f"{_cap(about)}." if about else "", ask, f"{_cap(end)}." if end else ""]
    if about and not context_first:
        sentences = [ask, f"For context: {about}.", sentences[2]]
    core = " ".join(s for s in sentences if s)
    if register == "forwarded":
        cover = inst.pick(_FORWARD_COVERS).format(by=by)
        return f"{cover}\n\n> {core}"
    return f"{inst.pick(_FORMAL_OPENERS)}\n\n{core}\n\n{inst.pick(_FORMAL_CLOSERS)}"
