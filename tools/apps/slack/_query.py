"""The chat search language: ``budget in:#finance from:@priya after:2026-03-01`` compiled into message tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, time, timedelta

from tools.apps.slack.state import Channel, Message, SlackState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context, parse_date
from tools.kits.people import directory_of
from tools.kits.text import fold

__all__ = ["compile_query"]

#: One search term compiled: True when a message matches it.
_MessageTest = Callable[[Message], bool]

_OPERATORS = ("in", "from", "before", "after", "on", "has", "is")
_HAS = ("file", "pin", "reaction", "link")
_TOKEN = re.compile(r'-?[a-z]+:"[^"]*"|-?"[^"]*"|\S+', re.IGNORECASE)


def _day_start(ctx: Context[SlackState], value: str) -> datetime:
    return datetime.combine(parse_date(value, "query"), time(0), tzinfo=ctx.tz)


def _people(ctx: Context[SlackState], value: str) -> set[str]:
    key = fold(value.lstrip("@"))
    if key == "me":
        return {ctx.user.lower()}
    directory = directory_of(ctx)
    people = directory.people.values() if directory is not None else []
    found = {
        p.email.lower()
        for p in people
        if key in (p.id.lower(), p.email.lower(), fold(p.name))
        or key in fold(p.name).split()
        or (len(key) >= 3 and (key in p.id.lower() or key in fold(p.name)))
    }
    if not found and "@" in key:
        found = {key}
    if not found:
        raise InvalidArgument(f"from:/in: '{value}' matches no one; use @first.last such as @priya.shah", "query")
    return found


def _term(ctx: Context[SlackState], op: str, value: str, find_channel: Callable[[str], Channel]) -> _MessageTest:
    state = ctx.state
    if op == "in":
        if value.startswith("@"):
            who = _people(ctx, value)
            return lambda m: (
                state.channels[m.channel_id].kind in ("dm", "group_dm")
                and bool(who & {x.lower() for x in state.channels[m.channel_id].members})
            )
        ch = find_channel(value)
        return lambda m: m.channel_id == ch.id
    if op == "from":
        who = _people(ctx, value)
        return lambda m: m.user.lower() in who
    if op in ("before", "after", "on"):
        start = _day_start(ctx, value)
        end = start + timedelta(days=1)
        if op == "before":
            return lambda m: m.ts < start
        if op == "after":
            return lambda m: m.ts >= end
        return lambda m: start <= m.ts < end
    if op == "has":
        kind = value.lower()
        if kind not in _HAS:
            raise InvalidArgument(f"has:{value} is not supported; use one of has:{', has:'.join(_HAS)}", "query")
        checks: dict[str, _MessageTest] = {
            "file": lambda m: bool(m.files),
            "pin": lambda m: bool(m.pinned_by),
            "reaction": lambda m: bool(m.reactions),
            "link": lambda m: "http://" in m.text or "https://" in m.text,
        }
        return checks[kind]
    if value.lower() != "thread":  # op == "is"
        raise InvalidArgument(f"is:{value} is not supported; use is:thread", "query")
    return lambda m: bool(m.thread_id)


def _words(ctx: Context[SlackState], needle: str, texts: dict[str, str]) -> _MessageTest:
    files = ctx.state.files

    def test(m: Message) -> bool:
        text = texts.get(m.id)
        if text is None:  # folded once per message for the whole query, however many words it holds
            names = " ".join(files[f].name for f in m.files if f in files)
            text = texts[m.id] = fold(m.text + " " + names)
        return needle in text and not m.deleted

    return test


def _negated(test: _MessageTest) -> _MessageTest:
    return lambda m: not test(m)


def compile_query(ctx: Context[SlackState], query: str, find_channel: Callable[[str], Channel]) -> list[_MessageTest]:
    """Turn a search query into tests that every matching message passes.

    Supported terms (all must match; a leading ``-`` excludes a term):

    * plain words and ``"quoted phrases"``: found in the message text or the names of its files;
    * ``in:#channel`` (or ``in:channel``, or a channel id), ``in:@person`` for your direct messages with them;
    * ``from:@person`` (directory id such as ``@priya.shah``, email, or part of a name), ``from:me``;
    * ``before:YYYY-MM-DD`` (that day excluded), ``after:YYYY-MM-DD`` (that day excluded),
      ``on:YYYY-MM-DD`` (that day only), in the company's time zone;
    * ``has:file``, ``has:pin``, ``has:reaction``, ``has:link``; ``is:thread`` (replies in threads).

    Args:
        ctx: The searching action's context.
        query: The search terms.
        find_channel: Resolves an ``in:`` channel reference the caller may read (raising its own errors).

    Returns:
        One test per term, in the query's order.

    Raises:
        InvalidArgument: (parameter ``query``) an unknown ``has:``/``is:`` value, a bad date, an unknown person.
    """
    tests: list[_MessageTest] = []
    texts: dict[str, str] = {}
    for raw in _TOKEN.findall(query):
        negate = raw.startswith("-") and len(raw) > 1
        token = raw[1:] if negate else raw
        op, sep, value = token.partition(":")
        test: _MessageTest
        if sep and op.lower() in _OPERATORS and value:
            test = _term(ctx, op.lower(), value.strip('"'), find_channel)
        else:
            needle = fold(token.strip('"'))
            if not needle:
                continue
            test = _words(ctx, needle, texts)
        tests.append(_negated(test) if negate else test)
    return tests
