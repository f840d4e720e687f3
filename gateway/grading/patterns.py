r"""Regexes a task row gives its checks: compiled once to check them, and refused when one could run for hours.

Python's ``re`` backtracks, and holds the interpreter while it does: a row's ``^(a+)+$`` matched against 27
letters and a ``!`` took 7 s, with every session of the server stalled behind it (an outside tester's find; the
time doubles with each letter). The text is the model's, so a row's pattern must not be able to do that: a
repeat that may run on (``*``, ``+``, ``{2,}``) holding another repeat that may match more than once (``(a+)+``,
``(a*)*``, ``(\w+\s?)*``, ``(?:x{1,3})+``) is refused. Repeats side by side (``\w+\s+\w+``) and a bounded
repeat of repeats (``(?:\w+ ){0,3}``) are kept: they cost at most a power of the text's length.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

__all__ = ["check_pattern"]

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None))


def check_pattern(rx: Any, where: str) -> None:
    """Refuse a row's regex that does not compile or nests repeats that may each run on.

    Raises:
        ValueError: naming ``where`` and the pattern, with what to write instead.
    """
    try:
        re.compile(rx)
        tree = _parser.parse(rx)
    except (re.error, TypeError, RecursionError) as exc:
        raise ValueError(f"{where}: {str(rx)[:80]!r} does not compile ({exc})") from None
    if _nested(list(tree), False):
        raise ValueError(
            f"{where}: {rx[:80]!r} nests a repeat inside a repeat that may run on (as in '(a+)+'), which can take "
            "hours on a long text; repeat the inner part once ('(?:a|b)+' instead of '(a+|b)+'), or bound the outer "
            "repeat ('{0,3}')"
        )


def _nested(items: list[tuple[Any, Any]], inside: bool) -> bool:
    """Whether ``items`` (a parsed pattern) holds a repeat of more than one inside an open-ended repeat.

    ``inside``: whether an open-ended repeat holds these items.
    """
    for op, av in items:
        if op in _REPEATS and op is not None:
            low, high, sub = av
            if inside and high > 1:
                return True
            if _nested(list(sub), inside or high == sre.MAXREPEAT):
                return True
        elif op is sre.SUBPATTERN:
            if _nested(list(av[-1]), inside):
                return True
        elif op is sre.BRANCH:
            if any(_nested(list(branch), inside) for branch in av[1]):
                return True
        elif op in (sre.ASSERT, sre.ASSERT_NOT) and _nested(list(av[1]), inside):
            return True
    return False
