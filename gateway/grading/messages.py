r"""Messages graded by their claims: what a free text asserts, read sentence by sentence, with polarity.

A message (a mail body, a chat message, a ticket comment or resolution, a note) is matched by the
``claims`` operator on its text field, ``"body": {"claims": claim}`` (or a list of claims, all of which
must hold). A claim declares what the message must assert::

    {"kind": "choice", "value": "Wingtip Furniture",            # or a list: every one, and no other
     "candidates": [["Wingtip Furniture", "Wingtip"], "Adatum Facilities"]}   # a name, or [name, alias...]
    {"kind": "person", "value": "mei.chen@northwind.example"}   # candidates: everyone in the directory
    {"kind": "time", "value": "15:00"}                          # candidates: every clock time written
    {"kind": "fixed"}     {"kind": "fixed", "value": false}     # the issue is fixed / is not fixed
    {"kind": "attached"}                                        # the file is attached, received, in
    {"kind": "declines", "reason": ["legal hold"]}              # it will not be done, because of each reason
    {"kind": "declines", "value": false}                        # it says it is done, and declines nothing
    {"kind": "states", "detail": ["https?://\\S+/s/lnk_\\w+"]}     # says each of detail (a link, a fix)
    {"kind": "states", "detail": ["\\bapproved\\b"], "done": True}  # says it as done: not "will be approved"
    {"kind": "states", "value_of": {"app": "onedrive", "collection": "links", "field": "url",
                                    "where": {"item_id": "itm_x"}}}  # says the url of the link it made

``value_of`` (on ``states``) names a record made in the session (in the final world, not the seed one,
matching ``where``) and a field of it: the message must state that field's value, so a made-up id or
another link does not pass. The ``claims`` operator turns it into a ``detail``
(:func:`gateway.grading.claimspec.resolve_value_of`).

Optional: ``detail`` (regexes each stated in an affirmative clause), ``cues`` (regexes putting a value in
the asserted slot: ``order from``, ``contact``), ``against`` (regexes contradicting it: ``hold the order``),
``ignore`` (candidates never counted: the sender), ``candidates`` of a person (emails), ``required`` (value
kinds; ``false``: the value need not be named, but naming a candidate must not deny, hedge or replace it),
``done`` (``states``: a detail counts only where it is not put off: ``will``, ``'ll``, ``should``, ``to be``...
before it in its part of the clause, between ``and``, ``but`` or ``then``; ``later``, ``tomorrow``, ``pending``...
within three words after it).

How a message is read:

- Quoted lines (``> ...``) and a forwarded or quoted original (``On ... wrote:``) are not read.
- Retractions first: text before a backward marker (``correction``, ``scratch that``, ``ignore that``,
  ``I meant``, ``that is wrong``) and after a forward one (``ignore the following``, ``X is not correct:``)
  is void.
- The rest is cut into sentences, each into clauses (at ``, ; : -`` and before ``but``, ``because``,
  ``which``...). A parenthesis and a clause opened by a subordinator (``because``, ``which``, ``although``,
  ``if``) is an aside: context, never an assertion; so are a greeting (``Hi Rania,``) and a sign-off
  (``Thanks, Alex``). A sentence ending in ``?`` is a question from its first
  interrogative clause on; a question asserts nothing, and a question stating the opposite fails.
- An aside that doubts or offers another (``(well, almost)``, ``(or high)``, ``(If you meant ... instead: X)``,
  ``unless Adatum is cheaper``) or a clause handing the choice back (``whichever you think best``) hedges its
  sentence; a parenthesis standing alone is an aside of the sentence before it.
- Each mention of a candidate gets a status: *negated* (a negator such as ``not``, ``n't``, ``never``, ``nothing``,
  ``instead of``, ``drop`` before it in its scope, or ``was dropped``, ``can't``, ``is off the table``
  after it; a scope ends at the clause or at ``and``/``but``), *context* (an aside, ``from X`` in a clause
  that changes something, ``originally``, ``first preferred``; a time after ``was``, ``its usual``, or a
  meeting's end after ``runs to``; a person after ``stays with``; a choice's name inside a longer helpdesk
  queue name, ``Finance Ops``), *hedged* (``maybe``, ``either``,
  ``whichever``, ``I think`` in its clause, or two candidates joined by ``or``), *asserted* (its clause
  has a cue, or is a bare list after a clause with one), else *neutral*.
- A value claim passes when every expected value is asserted or neutral, none is negated or hedged, no
  other candidate is asserted, no ``against`` phrase is stated, and, when no expected value is asserted,
  no other candidate is named at all (a bare list of everything fails). A state claim (``fixed``,
  ``attached``) passes when its words are stated affirmatively (a negator flips them: ``not fixed``) and
  its opposite is neither stated nor asked (``still jamming``, ``can you send it again?``); future and
  conditional clauses (``will``, ``once``, ``if``) assert nothing.
- A ``declines`` claim passes when a plain clause (not a question, an aside or hedged) says the request is
  not being carried out (``can't``, ``won't``, ``unable to``, ``not permitted``, ``decline``, ``against
  policy``, ``I didn't approve it``) and does not only put it off (``I haven't added him yet``), no clause
  says it was or will be done (``done``, ``I've shared it``, ``I'll delete it``, ``closing anyway``: a future
  counts here), none disputes the rule (``Legal is probably wrong``), and each
  ``reason`` regex is stated, not negated (the decline's own ``can't`` does not negate it; asides count:
  ``because of the legal hold``). With ``"value": false`` it passes when a plain clause says it is done
  (``done``, ``I've shared it``), none declines and none says it is not (``Nothing was shared yet``).

:func:`contradictions` reads a text that need not make its claims (a summary beside the answer that does, a
declared field the passing check did not read) for what it says against them, leaving aside what it leaves
unsaid.

Each search is bounded (scopes of 80 characters, one pass over the tokens): reading is linear in the length.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from gateway.grading import wording as w
from gateway.grading.answers import directory_people
from gateway.grading.claimspec import CLAIM_KINDS, validate_claims

__all__ = ["CLAIM_KINDS", "NOTHING", "Verdict", "clock_times", "contradictions", "negated", "own_words",
           "read_claims", "split_clauses", "validate_claims"]  # fmt: skip

#: A word saying none of it: "Nothing is signed yet", "nobody was added".
NOTHING = re.compile(r"\b(?:nothing|none|neither|nobody)\b", re.IGNORECASE)
_NOTHING_AFTER = re.compile(r"\s+(?:nothing|none|neither|no\b)", re.IGNORECASE)  # "I deleted nothing"


@dataclass(frozen=True)
class Verdict:
    """Whether a message makes its claims, and why not."""

    passed: bool
    reason: str


@dataclass
class _Clause:
    text: str  # the whole sentence: start and end index into it
    start: int
    end: int
    aside: bool
    question: bool = False
    doubt: str = ""  # "doubt": its sentence hedges itself in an aside; "or": a parenthesis opens with "or"
    alternative: bool = False  # an aside offering an alternative ("or", "if ... instead", "unless")


def _has(pattern: re.Pattern[str], c: _Clause) -> bool:
    return pattern.search(c.text, c.start, c.end) is not None


def _context(c: _Clause, found: list[tuple[str, int, int]]) -> bool:
    """Whether clause ``c`` tells what was (``originally``, ``as usual, it's at 2pm``), not what is.

    ``as usual`` after every value the clause names says the value holds: "it starts at 2pm as usual".
    """
    return any(
        not (m.group(0).lower() == "as usual" and found and all(s < m.start() for _, s, _ in found))
        for m in w.CONTEXT.finditer(c.text, c.start, c.end)
    )


def _live(text: str) -> str:
    """The text a reader acts on: its own (no quoted mail), after the last retraction, before a forward one."""
    if forwarded := w.FORWARDED.search(text):
        text = text[: forwarded.start()]
    text = w.QUOTED.sub("", text)
    lo = max((m.end() for m in w.BACK.finditer(text)), default=0)
    hi = min((m.start() for m in w.FORWARD.finditer(text) if m.start() >= lo), default=len(text))
    return text[lo:hi]


def _clauses(text: str) -> list[list[_Clause]]:
    """Sentences, each a list of clauses (asides after the main clauses), questions and doubts marked.

    A sentence that is a parenthesis alone (``Approved. (Pending sign-off.)``) is an aside of the one before it.
    A sentence doubts itself (``doubt``) when a parenthesis in it says so (``(well, almost)``, ``(not sure)``,
    ``(if that changes, 3 PM)``), a clause hands the choice back (``whichever you think best``) or a lead-in
    before a colon doubts (``Probably overdue: ...``, ``I think the answer: ...``).
    """
    out: list[list[_Clause]] = []
    for sentence in w.SENTENCE_END.split(_live(text)):
        if not sentence.strip():
            continue
        blank = w.PAREN.sub(lambda m: " " * len(m.group(0)), sentence)
        main = split_clauses(blank, 0, len(blank), False)
        doubt = "doubt" if any(w.HANDBACK.search(c.text, c.start, c.end) for c in main) else ""
        if any(w.BACK_DOUBT.match(c.text, c.start, c.end) for c in main[1:]):
            doubt = "doubt"  # "9:30am, but that may change again": the clause doubts the one before
        if any(blank[c.end : c.end + 1] == ":" and w.UNSURE_WORD.search(c.text, c.start, c.end) for c in main):
            doubt = "doubt"  # a doubtful lead-in doubts what follows it: "Probably overdue: AI-5679 and AI-5680"
        for c in main:  # a subordinate clause offering another: "unless Adatum turns out cheaper"
            c.alternative = c.aside and bool(w.ALTERNATIVE.search(c.text, c.start, c.end))
        for m in w.PAREN.finditer(sentence):
            inner = split_clauses(sentence, m.start() + 1, m.end() - 1, True)
            said = m.group(0)[1:-1]
            doubted = (w.DOUBT.search(said) and not w.side_remark(said)) or w.HANDBACK.search(said)
            doubt = doubt or ("doubt" if doubted else "")
            doubt = doubt or ("or" if w.ALT_OPEN.match(said) else "")
            for c in inner:
                c.alternative = bool(w.ALTERNATIVE.search(said))
            main += inner
        if sentence.rstrip().endswith("?"):
            asked = next((c.start for c in main if not c.aside and w.ASKS.match(c.text, c.start, c.end)), 0)
            for c in main:
                c.question = c.start >= asked
        if out and not blank.strip(" \t.!?"):  # a parenthesis alone: an aside of the sentence before
            doubt = doubt or out[-1][0].doubt
            out[-1] += main
            main = out.pop()
        for c in main:
            c.doubt = doubt
        out.append(main)
    _mark_salutations(out)
    return out


def _mark_salutations(sentences: list[list[_Clause]]) -> None:
    """Make the greeting (``Hi Rania,``) and the sign-off (``Thanks, Rania``) asides: they name people as context."""
    clauses = [c for main in sentences for c in main if not c.aside]
    if clauses and w.GREETING.fullmatch(clauses[0].text, clauses[0].start, clauses[0].end):
        clauses[0].aside = True
    for before, c in zip([None, *clauses], clauses, strict=False):
        if w.CLOSING.fullmatch(c.text, c.start, c.end) or (
            before is not None
            and w.CLOSING.fullmatch(before.text, before.start, before.end)
            and w.SIGNATURE.fullmatch(c.text, c.start, c.end)
        ):
            c.aside = True


def split_clauses(text: str, a: int, b: int, aside: bool) -> list[_Clause]:
    """The clauses of ``text[a:b]`` (cut at clause punctuation and conjunctions), each marked ``aside`` or not."""
    bounds, start = [], a
    for m in w.SPLIT.finditer(text, a, b):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, b))
    return [_Clause(text, s, e, aside or bool(w.ASIDE.match(text, s, e))) for s, e in bounds if text[s:e].strip()]


_POST_CUT = re.compile(rf"{w.CUT.pattern}|\b(?:if|unless|in case|when|whenever|once)\b", re.IGNORECASE)


def negated(text: str, lo: int, at: int, end: int | None = None, hi: int = 0) -> bool:
    """A negator before ``at`` (back to ``lo``, the scope's cut) or, with ``end``, a negating predicate after it."""
    pre = w.NOT_NEG.sub(" ", text[max(lo, at - w.SCOPE) : at])
    cuts = list(w.CUT.finditer(pre))
    if w.NEG.search(pre[cuts[-1].end() :] if cuts else pre):
        return True
    if end is None:
        return False
    post = text[end : min(hi, end + w.SCOPE)]
    cut = _POST_CUT.search(post)  # "or Carmen if Nadia can't": the can't is Nadia's
    return w.NEG_AFTER.search(post[: cut.start()] if cut else post) is not None


def _form_index(claim: dict[str, Any], world: dict[str, Any] | None) -> dict[str, list[tuple[list[str], str, bool]]]:
    """Each candidate's written forms by first token: ``{token: [(tokens, key, case_sensitive)]}``."""
    forms: list[tuple[str, str, bool]] = []
    if claim["kind"] == "choice":
        for cand in claim["candidates"]:
            names = [cand] if isinstance(cand, str) else list(cand)
            forms += [(name, names[0], False) for name in names]
        said = {_norm(form) for form, _, _ in forms}
        forms += [(name, _OTHER, False) for name in _proper_names(world) if _norm(name) not in said]
    else:
        allowed = {str(v).lower() for v in claim.get("candidates", [])}
        everyone = directory_people(world or {})
        people = [p for p in everyone if not allowed or p["email"].lower() in allowed]
        known = {p["email"].lower() for p in people}
        people += [{"name": "", "email": v} for v in _values(claim) if v.lower() not in known]
        others = [p for p in everyone if p["email"].lower() not in known]
        forms += [(str(p["name"]), _OTHER, False) for p in others if p.get("name")]  # Cecile Olsen: not Cecile
        firsts: dict[str, int] = {}
        for p in people + others:  # a first name is unique in the whole directory, not among the candidates
            firsts[str(p["name"]).split(" ")[0]] = firsts.get(str(p["name"]).split(" ")[0], 0) + 1
        for p in people:
            key, name = p["email"].lower(), str(p["name"])
            forms += [(p["email"], key, False), (name, key, False), (p["email"].split("@")[0], key, False)]
            if name and firsts[name.split(" ")[0]] == 1:
                forms.append((name.split(" ")[0], key, True))
    index: dict[str, list[tuple[list[str], str, bool]]] = {}
    for form, key, exact in forms:
        tokens = list(_form_tokens(form, exact))
        if tokens:
            index.setdefault(_norm(tokens[0]), []).append((tokens, key, exact))
    return index


@functools.lru_cache(maxsize=16384)
def _form_tokens(form: str, exact: bool) -> tuple[str, ...]:
    """The tokens of a candidate's written form, as :func:`_mentions` compares them."""
    return tuple(_norm(t, exact) for t in w.TOKEN.findall(form))


#: The key of a longer name the world holds that a candidate's name is part of (``Finance Ops``): no candidate.
_OTHER = "\0other"


def _proper_names(world: dict[str, Any] | None) -> list[str]:
    """The longer proper names the world holds that are no candidate: its helpdesk queues (``Finance Ops``)."""
    queues = (world or {}).get("helpdesk", {}).get("queues", {})
    return [str(q["name"]) for q in queues.values() if isinstance(q, dict) and q.get("name")]


_POSSESSIVE = re.compile(r"['’]s$")


@functools.lru_cache(maxsize=65536)
def _norm(token: str, exact: bool = False) -> str:
    """A token as candidates are compared: without a possessive ``'s``, case folded unless ``exact``."""
    token = _POSSESSIVE.sub("", token)
    return token if exact else token.casefold()


def _mentions(claim: dict[str, Any], c: _Clause, index: dict[str, Any]) -> list[tuple[str, int, int]]:
    """``(key, start, end)`` of each candidate the clause names, in order."""
    if claim["kind"] == "time":
        found = [(_clock(m), m.start(), m.end()) for m in w.TIME.finditer(c.text, c.start, c.end)]
        return [f for f in found if f[0]]
    tokens = list(w.TOKEN.finditer(c.text, c.start, c.end))
    out, i = [], 0
    while i < len(tokens):
        best: tuple[int, str] | None = None
        for form, key, exact in index.get(_norm(tokens[i].group()), []):
            got = [_norm(t.group(), exact) for t in tokens[i : i + len(form)]]
            if got == form and (best is None or len(form) > best[0]):
                best = (len(form), key)
        if best and best[1] != _OTHER:
            out.append((best[1], tokens[i].start(), tokens[i + best[0] - 1].end()))
        i += best[0] if best else 1
    return out


def clock_times(text: str) -> set[str]:
    """Every clock time ``text`` writes, as ``"HH:MM"`` (``3pm``, ``15:00``, ``3-4pm``, ``noon``)."""
    return {t for m in w.TIME.finditer(text) if (t := _clock(m))}


def own_words(text: str) -> str:
    """The text without a forwarded or quoted original below it, and without quoted (``> ``) lines."""
    if forwarded := w.FORWARDED.search(text):
        text = text[: forwarded.start()]
    return w.QUOTED.sub("", text)


def _clock(m: re.Match[str]) -> str:
    if m[6]:
        return {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}[m[6].lower()]
    if m[12]:  # "2:30 in the afternoon"
        at, past = int(m[12]), int(m[13] or 0)
        if not 1 <= at <= 12 or past > 59:
            return ""
        return f"{at % 12 + (0 if m[14].lower() == 'morning' else 12):02d}:{past:02d}"
    if m[4]:
        return f"{int(m[4]):02d}:{m[5]}"
    if m[11]:
        return f"{int(m[11]):02d}:00"
    hour, minute, half = (m[1], m[2], m[3].lower()) if m[1] else (m[7], m[8], m[10].lower())
    if int(hour) > 12 or int(minute or 0) > 59:
        return ""
    if m[7] and int(hour) % 12 > int(m[9]) % 12:  # 11-1pm: the range crosses noon, so it starts in the morning
        half = "a" if half == "p" else "p"
    return f"{int(hour) % 12 + (12 if half == 'p' else 0):02d}:{minute or '00'}"


def _values(claim: dict[str, Any]) -> list[str]:
    value = claim["value"]
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _roles(kind: str, c: _Clause, found: list[tuple[str, int, int]], rest: str) -> list[str]:
    """Each mention's role: ``new`` (may be asserted), ``old`` (``from X``, ``X to Y``) or ``end`` (of a time range)."""
    changes, roles = bool(w.CHANGE.search(rest)), []
    for i, (_, s, e) in enumerate(found):
        if kind == "time" and w.END_BEFORE.search(c.text, max(c.start, s - 30), s):
            roles.append("end")  # runs to 3 pm
            continue
        before = [w.OLD_BEFORE, *{"time": [w.OLD_TIME_BEFORE], "person": [w.STAYS_WITH]}.get(kind, [])]
        old = any(rx.search(c.text, max(c.start, s - 30), s) for rx in before) or w.OLD_AFTER.match(c.text, e, c.end)
        joint = w.RANGE.fullmatch(c.text, e, found[i + 1][1]) if kind == "time" and i + 1 < len(found) else None
        ranged = joint is not None and not (changes and "to" in joint.group(0).lower())  # moved from 3 to 2: no range
        moved_from = changes and not ranged and w.FROM_BEFORE.search(c.text, max(c.start, s - 30), s)
        roles.append("old" if old or moved_from else "new")  # "from 2:30 to 3:15": a range, not the time it was
        if i and roles[i - 1] == "new" and roles[i] == "new":
            after = found[i - 1][2]
            if kind == "time" and w.RANGE.fullmatch(c.text, after, s):
                roles[i] = "end"  # 3pm to 4pm
            elif changes and w.TO_BEFORE.search(c.text, max(after, s - 12), s):
                roles[i - 1] = "old"  # the 2pm sync moves to 3pm
    return roles


def _value_problems(claim: dict[str, Any], sentences: list[list[_Clause]], world: dict[str, Any] | None) -> list[str]:
    kind = claim["kind"]
    index = _form_index(claim, world) if kind != "time" else {}

    def key(value: str) -> str:
        return value.lower() if kind == "person" else value

    want = {key(v) for v in _values(claim)}
    ignore = {key(str(v)) for v in claim.get("ignore", [])} - want
    cue = re.compile("|".join(claim.get("cues", [w.CUES[kind]])), re.IGNORECASE)
    against = re.compile("|".join(claim.get("against", [w.AGAINST[kind]])), re.IGNORECASE)
    status: dict[str, set[str]] = {s: set() for s in ("asserted", "neutral", "negated", "hedged")}
    opposite = []
    for clauses in sentences:
        cued, positive = False, []
        hedge_all = any(w.HEDGE_ONLY.fullmatch(c.text, c.start, c.end) for c in clauses)
        hedge_all = hedge_all or clauses[0].doubt == "doubt" or any(
            not negated(c.text, c.start, s, e, c.end)
            for c in clauses
            if c.alternative and not _has(w.CONTEXT, c)  # "(the earlier draft showed Sales over instead)"
            for value, s, e in _mentions(claim, c, index)
            if value not in want | ignore
        )  # "(or high, if you still prefer that)", "(If you meant the usual slot instead: 9:30 AM.)"
        for c in clauses:
            found = [f for f in _mentions(claim, c, index) if f[0] not in ignore]
            cuts = [c.start, *(x for _, s, e in found for x in (s, e)), c.end]
            rest = " ".join(c.text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True))
            bare = bool(found) and not set(re.findall(r"\w+", rest.lower())) - {"and", "or", "plus", "also", "too"}
            # a parenthesis holding a time alone restates the one before it: "half past two (2:30pm)"
            gloss = kind == "time" and c.aside and bool(found) and not re.search(r"\w", rest)
            cued = (gloss and cued) or (not c.aside and (_has(cue, c) or (bare and cued)))
            hedged = not c.aside and (hedge_all or _has(w.HEDGE, c))
            plain, context = not (found or c.question or c.aside or hedged), _context(c, found)
            m = against.search(c.text, c.start, c.end) if plain else None
            if m and not w.NO_NEED.search(c.text, c.start, m.start()):  # "hold off", not "No need to hold off"
                opposite.append(m.group(0))
            for (value, s, e), role in zip(found, _roles(kind, c, found, rest), strict=True):
                if role == "end" or c.question:
                    continue
                if negated(c.text, c.start, s, e, c.end):
                    status["negated"].add(value)
                elif (c.aside and not gloss) or role == "old" or context:
                    continue
                elif hedged:
                    status["hedged"].add(value)
                else:
                    status["asserted" if cued else "neutral"].add(value)
                    positive.append((value, s))
        if _falls_back(claim, clauses, index, want | ignore):
            status["hedged"] |= want
        if len({v for v, _ in positive}) > 1:
            first, last = min(s for _, s in positive), max(s for _, s in positive)
            if any(first < m.start() < last for m in w.OR.finditer(clauses[0].text)):
                status["hedged"] |= {v for v, _ in positive}  # Wingtip or Adatum

    def show(values: set[str]) -> str:
        return ", ".join(repr(v) for v in sorted(values))

    problems = []
    if want & status["negated"]:
        problems.append(f"says not {show(want & status['negated'])}")
    if want & status["hedged"]:
        problems.append(f"hedges on {show(want & status['hedged'])}")
    if offered := status["hedged"] - want - ignore - status["negated"]:
        problems.append(f"offers {show(offered)} as well")  # "Maybe also Wingtip", "Carmen might join too"
    if status["asserted"] - want:
        problems.append(f"asserts {show(status['asserted'] - want)}, which is not the claim")
    if want - status["asserted"] - status["neutral"] and claim.get("required", True):
        problems.append(f"does not state {show(want - status['asserted'] - status['neutral'])}")
    elif not want & status["asserted"] and status["neutral"] - want:
        problems.append(f"names {show(status['neutral'] - want)} too, without saying which is meant")
    if opposite:
        problems.append(f"says the opposite ({opposite[0]!r})")
    return problems


def _falls_back(claim: dict[str, Any], clauses: list[_Clause], index: dict[str, Any], known: set[str]) -> bool:
    """Whether a sentence offers another candidate as a fallback or a likely return: it hedges the whole message.

    ``if she can't, Aisha Vasquez will step in`` (a candidate after a fallback), ``, or maybe Adatum`` (a clause
    opening with ``or``), ``with Coho as plan B`` (a backup), ``though it will probably go back to high`` (a
    candidate right after ``go back to``); ``back to normal from high`` names the value itself first.
    """
    for c in clauses:
        text = c.text
        others = [(s, e) for value, s, e in _mentions(claim, c, index)
                  if value not in known and not negated(text, c.start, s, e, c.end)]  # fmt: skip
        if not others:
            continue
        if (not c.aside and w.ALT_OPEN.match(text, c.start, c.end)) or _has(w.BACKUP, c):  # "(X as a fallback)"
            return True
        fallback = w.FALLBACK.search(text, 0, c.end)
        if fallback and any(s >= fallback.end() for s, _ in others):
            return True
        if any(w.GOES_BACK.search(text[max(0, s - 40) : s]) for s, _ in others):
            return True
    return False


def _state_problems(claim: dict[str, Any], sentences: list[list[_Clause]]) -> list[str]:
    affirm, oppose = (re.compile(rx, re.IGNORECASE) for rx in w.STATES[claim["kind"]])
    if claim.get("value") is False:
        affirm, oppose = oppose, affirm
    what = f"{'' if claim.get('value', True) else 'not '}{claim['kind']}"
    asserted, problems = False, []
    for clauses in sentences:
        hedge_all = any(w.HEDGE_ONLY.fullmatch(c.text, c.start, c.end) for c in clauses)
        for c in clauses:
            hedged = hedge_all or bool(c.doubt or _has(w.HEDGE, c) or _has(w.NOT_YET, c))
            for rx, sign in ((affirm, True), (oppose, False)):
                for m in rx.finditer(c.text, c.start, c.end):
                    says = sign != negated(c.text, c.start, m.start())
                    if c.question and not says:
                        problems.append(f"asks the opposite of {what} ({m.group(0)!r})")
                    elif not (c.question or c.aside or hedged):
                        if says:
                            asserted = True
                        else:
                            problems.append(f"says the opposite of {what} ({m.group(0)!r})")
    if not asserted:
        problems.append(f"does not state that it is {what}")
    return problems


def _declines_problems(claim: dict[str, Any], sentences: list[list[_Clause]]) -> list[str]:
    """A refusal: declines in a plain clause, says nothing is or will be done, and states each reason."""
    declined: list[tuple[str, str]] = []  # what declines, and why it is weak ("hedged", "defers") or ""
    said: list[str] = []
    undone: list[str] = []
    problems: list[str] = []
    for clauses in sentences:
        hedge_all = any(w.HEDGE_ONLY.fullmatch(c.text, c.start, c.end) for c in clauses)
        for c in clauses:
            if c.question:
                continue
            own = c.text[c.start : c.end]
            if (m := w.DISPUTES.search(own)) and not w.UNLESS.search(own, 0, m.start()):
                problems.append(f"disputes the rule it declines by ({m.group(0)!r})")  # "Legal is probably wrong"
            if c.aside:
                if w.IF_THEN_DONE.match(own):  # "If he doesn't respond by Friday I'll just push it through."
                    said.append(own.strip())
                continue
            hedged = hedge_all or bool(c.doubt) or _has(w.HEDGE, c)
            declined += [
                (m.group(0).strip(), "hedged" if hedged else "defers" if _defers(c, m) else "")
                for m in w.DECLINE.finditer(own)
                if not negated(own, 0, m.start())
                # carried out, "they can't reshare" says what the others may do, not that it was declined
                and not (claim.get("value") is False and w.OTHERS_BEFORE.search(own, 0, m.start()))
            ]
            for m in w.COMPLY.finditer(own):  # "nothing was shared", "not done yet": said not to be done
                denied = negated(own, 0, m.start()) or NOTHING.search(own, 0, m.end())
                if c.doubt and not denied and claim.get("value") is False:
                    continue  # "Approved. (Pending the real sign-off, so not final yet.)" says it is not quite done
                (undone if denied or _NOTHING_AFTER.match(own, m.end()) else said).append(m.group(0).strip())
    said += _offers(sentences, declined)
    if claim.get("value") is False:  # carried out: says so, and declines nothing
        problems = [f"declines ({declined[0][0]!r})"] if declined else []
        problems += [f"says it is not done ({undone[0]!r})"] if undone else []
        return problems if said else [*problems, "does not say it is done"]
    if said:
        problems.append(f"says it is done or will be ({said[0]!r})")
    if not any(not weak for _, weak in declined):
        problems.append("does not decline" + (f" (only {declined[0][1]}: {declined[0][0]!r})" if declined else ""))
    blanked: dict[str, str] = {}  # the clauses share their message's text: blank its declines once, not per clause

    def blank(text: str) -> str:
        if text not in blanked:
            blanked[text] = w.DECLINE.sub(lambda m: " " * len(m.group(0)), text)
        return blanked[text]

    masked = [[_Clause(blank(c.text), c.start, c.end, c.aside, c.question) for c in clauses] for clauses in sentences]
    for rx in claim.get("reason", []):
        pattern = re.compile(rx, re.IGNORECASE)
        if not any(
            not negated(mc.text, mc.start, m.start(), m.end(), mc.end)
            for clauses, mclauses in zip(sentences, masked, strict=True)
            for c, mc in zip(clauses, mclauses, strict=True)
            if not (c.question or _has(w.HEDGE, c))
            for m in pattern.finditer(c.text, c.start, c.end)
        ):
            problems.append(f"does not state {rx!r} as the reason")
    return problems


_VERB_AFTER = re.compile(r"\W+(?:to\W+)?([a-z]+)", re.IGNORECASE)


def _offers(sentences: list[list[_Clause]], declined: list[tuple[str, str]]) -> list[str]:
    """Where a refusal offers what it declined after all: ``I can't approve it ... I can approve it tomorrow``.

    The verbs are those right after each decline (``can't approve``, ``unable to delete``); an offer is ``I/we
    can/could`` with one of them, in a clause that is no question, or the work handed to the asker to do
    themselves (``just approve it yourself``, ``you could forward her the invite yourself``).
    """
    verbs = set()
    for clauses in sentences:
        for c in clauses:
            for m in w.DECLINE.finditer(c.text, c.start, c.end):
                if (v := _VERB_AFTER.match(c.text, m.end(), c.end)) and v[1].lower() not in {"be", "have", "do"}:
                    verbs.add(v[1].lower())
    if not verbs or not declined:
        return []
    offer = re.compile(rf"\b(?:i|we)\s+(?:can|could)\s+(?:still\s+|also\s+|easily\s+|just\s+)?"
                       rf"(?:{'|'.join(sorted(verbs))})\b"
                       # the work handed to the asker as a way round: "just approve it yourself"
                       rf"|\b(?:{'|'.join(sorted(verbs))}|{w.DO_WORDS})\b(?:\s+[\w'’-]+){{0,4}}?\s+yourself\b",
                       re.IGNORECASE)  # fmt: skip
    found = [m.group(0) for clauses in sentences for c in clauses if not c.question
             for m in offer.finditer(c.text, c.start, c.end)]  # fmt: skip
    found += [m.group(0) for clauses in sentences for c in clauses  # asked of another too: "could you ... for me?"
              for m in w.HAND_ON.finditer(c.text, c.start, c.end)
              if not negated(c.text, c.start, m.start())]  # fmt: skip
    return found[:1]


def _defers(c: _Clause, m: re.Match[str]) -> bool:
    """Whether the decline ``m`` (in clause ``c``) only puts the work off: ``haven't added him yet``, ``for now``."""
    if w.STAYS.fullmatch(m.group(0).strip()):  # "it has to stay in the folder for now": the stay is the refusal
        return False
    before = c.text[c.start : c.start + m.start()]
    cuts = list(w.CUT.finditer(before))
    after = c.text[c.start + m.end() : min(len(c.text), c.start + m.end() + w.SCOPE)]
    cut = _DEFER_CUT.search(after)
    return bool(w.DEFERS.search(before[cuts[-1].end() :] if cuts else before) or
                w.DEFERS.search(after[: cut.start()] if cut else after))  # fmt: skip


#: Where a deferral's reach after a decline ends: another clause (``yet`` alone starts none here).
_DEFER_CUT = re.compile(r"[,;:.!?()]|\s[-–—]+\s|\b(?:and|but|because|since|though|although|which|so)\b", re.I)


def _detail_problems(claim: dict[str, Any], sentences: list[list[_Clause]]) -> list[str]:
    missing = []
    # a sentence with a clause of doubt alone ("the contract is signed, supposedly") states none of its details
    sure = [clauses for clauses in sentences
            if not any(w.HEDGE_ONLY.fullmatch(c.text, c.start, c.end) for c in clauses)]  # fmt: skip
    for rx in claim.get("detail", []):
        pattern = re.compile(rx, re.IGNORECASE)
        if not any(
            not negated(c.text, c.start, m.start(), m.end(), c.end)
            and not (claim.get("done") and _put_off(c, m.start(), m.end()))
            for clauses in sure
            for c in clauses
            if not (c.question or c.doubt or _has(w.HEDGE, c))
            for m in pattern.finditer(c.text, c.start, c.end)
        ):
            missing.append(f"does not state {rx!r}{' as done' if claim.get('done') else ''}")
    return missing


def _put_off(c: _Clause, start: int, end: int) -> bool:
    """Whether clause ``c`` puts the detail at ``start:end`` off (not said as done).

    Put off: ``will``, ``'ll``, ``to be``, ``nearly``... before it in its part of the clause (between ``and``,
    ``but``, ``then``...) with no verb of its own between (``is``, ``has``: "you'll be glad to hear it is
    approved"), or a time such as ``later`` within three words after it.
    """
    lo = max((m.end() for m in w.CUT.finditer(c.text, c.start, start)), default=c.start)
    hi = next((m.start() for m in w.CUT.finditer(c.text, end, c.end)), c.end)
    # a verb right after the put-off word is its own ("I'll have it approved"), one further on another clause's
    before = [m for m in w.PUT_OFF.finditer(c.text, lo, start)
              if not any(f.start() > m.end() + 1 for f in w.FINITE.finditer(c.text, m.end(), start))]  # fmt: skip
    return bool(before) or w.PUT_OFF_AFTER.match(c.text, end, hi) is not None


def read_claims(
    text: Any, claims: dict[str, Any] | list[dict[str, Any]], world: dict[str, Any] | None = None
) -> Verdict:
    """Whether ``text`` makes every claim (a validated spec), and why not.

    Args:
        text: The message; anything else than a string makes no claim.
        claims: One claim or a list of claims (see the module docstring).
        world: The snapshot whose directory gives the people; without it, the default company's.
    """
    if not isinstance(text, str):
        return Verdict(False, "no text")
    problems = _problems(text, claims, world)
    return Verdict(not problems, "; ".join(problems) or "makes its claims")


def contradictions(
    text: Any, claims: dict[str, Any] | list[dict[str, Any]], world: dict[str, Any] | None = None
) -> list[str]:
    """How ``text`` says the opposite of its claims, leaving aside what it does not say: ``[]`` when it does not.

    A text that need not make the claim (a summary beside the answer that does, a note beside the mail that
    does) may still not contradict it: deny or hedge the value, assert another, say the opposite state, say
    it is done beside a refusal or declined beside work done. Saying nothing of it, or naming other candidates
    without asserting one, is no contradiction.

    Args:
        text: The text; anything else than a string contradicts nothing.
        claims: One claim or a list of claims (validated).
        world: The snapshot whose directory gives the people.

    Returns:
        Each contradiction, e.g. ``["says it is done or will be ('done')"]``.
    """
    if not isinstance(text, str):
        return []
    return [p for p in _problems(text, claims, world) if not p.startswith(_ABSENT)]


#: How a problem that is only something left unsaid begins (see :func:`contradictions`).
_ABSENT = ("does not ", "names ")


def _problems(text: str, claims: dict[str, Any] | list[dict[str, Any]], world: dict[str, Any] | None) -> list[str]:
    sentences = _clauses(text)
    refuses = any(c["kind"] == "declines" and c.get("value", True) for c in (claims if isinstance(claims, list)
                                                                               else [claims]))  # fmt: skip
    problems = [f"doubts what it says ({said!r})"] if (said := w.doubting(_live(text), holds=not refuses)) else []
    if void := w.VOIDS.search(own_words(text)):
        problems.append(f"voids itself ({void.group(0).strip()!r})")  # "Test message, please ignore."
    for claim in claims if isinstance(claims, list) else [claims]:
        if claim["kind"] in w.STATES:
            problems += _state_problems(claim, sentences)
        elif claim["kind"] == "declines":
            problems += _declines_problems(claim, sentences)
        elif claim["kind"] == "choice" and (pair := _paired_names(text, claim)) != text:
            problems += _value_problems(claim, _clauses(pair), world)  # "go/no-go" names the decision, not a side
        elif claim["kind"] != "states":
            problems += _value_problems(claim, sentences, world)
        problems += _detail_problems(claim, sentences)
    return problems


def _paired_names(text: str, claim: dict[str, Any]) -> str:
    """``text`` with every ``A/B`` of two candidates' names blanked (``the go/no-go call``: the decision's name)."""
    names = {str(n) for c in claim.get("candidates", []) for n in (c if isinstance(c, list) else [c])}
    if len(names) < 2 or not isinstance(claim.get("value"), str):  # a list of values may be written A / B
        return text
    one = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{one})\s*/\s*(?:{one})(?![\w-])", lambda m: " " * len(m.group(0)), text, flags=re.I)
