"""The words messages are read with: retractions, clause breaks, negators, hedges, context, cues and states.

:mod:`gateway.grading.messages` reads a message with these; each claim kind has its cues (the words that put
a value in the asserted slot), its contradictions, and for states the words that state it and its opposite.

Every pattern is searched case-insensitively inside one clause or a bounded window, never across a message.
"""

from __future__ import annotations

import re

__all__ = [
    "AGAINST",
    "ASIDE",
    "ASKS",
    "ASIDE_REASON",
    "BACK",
    "CHANGE",
    "CLOSING",
    "CONTEXT",
    "CUES",
    "COMPLY",
    "CUT",
    "DECLINE",
    "DEFERS",
    "DISOWN_ACT",
    "DISOWN_STATE",
    "DISMISSES",
    "DISOWN_UNABLE",
    "DISPUTES",
    "DOUBT",
    "DOUBT_WORK",
    "DOUBTS_WORK",
    "DO_WORDS",
    "HAND_ON",
    "HELD_BACK",
    "NO_NEED",
    "IF_THEN_DONE",
    "OTHERS_BEFORE",
    "OTHER_ITEM",
    "doubts_work",
    "doubting",
    "VOIDS",
    "WELL_ALMOST",
    "ALTERNATIVE",
    "ALT_OPEN",
    "BACK_DOUBT",
    "HANDBACK",
    "FALLBACK",
    "FINITE",
    "GOES_BACK",
    "BACKUP",
    "END_BEFORE",
    "FORWARD",
    "FORWARDED",
    "FROM_BEFORE",
    "GREETING",
    "HEDGE",
    "HEDGE_ONLY",
    "UNSURE_WORD",
    "UNSURE",
    "SEEMS",
    "SOFT_DOUBT",
    "SIDE_REMARK_WORDS",
    "side_remark",
    "NEG",
    "NEG_AFTER",
    "NOT_NEG",
    "NOT_YET",
    "OLD_AFTER",
    "OLD_BEFORE",
    "OLD_TIME_BEFORE",
    "OR",
    "PAREN",
    "PUT_OFF",
    "PUT_OFF_AFTER",
    "QUOTED",
    "RANGE",
    "SCOPE",
    "SENTENCE_END",
    "SIGNATURE",
    "SPLIT",
    "STAYS_WITH",
    "STATES",
    "STAYS",
    "TIME",
    "UNLESS",
    "TOKEN",
    "TO_BEFORE",
]

_I = re.IGNORECASE
_A = "['’]"  # an apostrophe, straight or curly
SCOPE = 80  # characters a negator reaches, before or after

#: Disowning what is next to it: backward ("URL - ignore that"), forward before a colon ("ignore this link: URL")
_DISOWN = (
    r"(?:ignore|disregard) (?:that|this|it|the above|what i (?:just )?(?:said|wrote))"
    r"|(?:that|this|it|the)(?: (?:link|file|one|message|mail|email|answer|date"
    rf"|time))?(?:{_A}s| is| was) (?:wrong|incorrect|not (?:right|correct|true|accurate))"
)
BACK = re.compile(
    r"(?:(?<=^)|(?<=[.!?;]\s)|(?<=[.!?;]\s\s))well\W+(?:nearly|almost|not quite|not really)\b"  # "Well, nearly: ..."
    r"|(?<!your )(?<!their )(?<!his )(?<!her )\b(?:correction|scratch that|strike that|never ?mind"  # not "per your"
    r"|i take (?:that|it) back|i was wrong|my mistake|i meant"
    r"|on second thoughts?|actually\W+(?:let['’]s|keep|use|go with|make it|stick with|leave it|no\b|wait\b)"
    r"|just kidding|only kidding|j/k"
    rf"|(?:{_DISOWN})(?!\s*\w*\s*:))\b",
    _I,
)
FORWARD = re.compile(
    r"\b(?:ignore|disregard|skip) (?:the |what )?(?:following|below|rest|what follows)\b|\b(?:the )?(?:following"
    r"|below) (?:is|are) (?:not (?:correct|right|accurate|true|valid)|wrong|incorrect|outdated)\b"
    rf"|\b(?:{_DISOWN})(?=\s*\w*\s*:)",
    _I,
)
QUOTED = re.compile(r"^[ \t]*>.*$", re.MULTILINE)  # a quoted line of an earlier message
FORWARDED = re.compile(  # the original below a forward, or below "On Mon, Sam wrote:"
    r"^-{3,} ?(?:forwarded message|original message) ?-{3,}|^On [^\n]{1,200} wrote:[ \t]*$", _I | re.MULTILINE
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
PAREN = re.compile(r"\([^()\n]*\)")
SPLIT = re.compile(
    r"[,;](?!\d)|:(?!\d|//)|\s[-–—]+\s(?!\d)"
    r"|\s(?=(?:but|because|since|although|though|whereas|while|so|yet|which|who|whose|whom)\b)",
    _I,
)
ASIDE = re.compile(r"\W*(?:because|since|although|though|whereas|while|which|who|whose|whom|unlike|given|as|"
                    r"after|before|when|if|unless|in case)\b", _I)  # fmt: skip
ASKS = re.compile(r"\W*(?:(?:and|or|but|so) )?(?:can|could|would|will|is|are|was|were|do|does|did|should|shall|"
                   r"have|has|had|may|what|which|who|whom|where|when|why|how|any|anything)\b", _I)  # fmt: skip
#: The words of doubt every hedge reading shares (a message's clause, a parenthesis, an answer): one list, so a
#: hedge that fails a reply also fails an answer. Not "hopefully": in a whole answer it is mostly a pleasantry
#: ("hopefully that helps"); a clause of a reply, or a parenthesis, is read for it on its own.
#: Saying the value may still move: "may change", "might well slip" (in a clause of doubt, or pointing back).
_MAY_MOVE = r"(?:may|might|could) (?:still |well )?(?:change|move|shift|slip|flip|switch)"
UNSURE = (r"maybe|perhaps|possibly|probably|not sure|unsure|i think|i guess|i believe|i suppose|most likely"
          r"|supposedly|presumably|tentative(?:ly)?|unconfirmed|not (?:yet )?final(?: yet)?|pending confirmation"
          r"|could be|may still|if i read (?:it|that|this|the \w+) (?:right|correctly)|double.check me"
          r"|seemingly|apparently|reportedly|likely|i assume|i(?:['’]d| would) say|as far as i (?:can tell|know)"
          r"|my guess|(?:i )?(?:may|might|could) be wrong|not (?:100 ?%|fully|entirely|completely|totally) sure"
          r"|if i(?:['’]m| am) reading (?:it|that|this|the \w+) (?:right|correctly)"
          r"|(?:i(?:['’]m| am) )?not (?:100 ?% |fully |entirely |completely |totally |quite )?"
          r"(?:certain|positive|confident)"
          r"|if i(?:['’]m| am) not mistaken|i reckon|don['’]t quote me|hard to say|not 100 ?% on"
          r"|can(?:['’]t|not) guarantee|in all likelihood|odds are|grain of salt|last i (?:checked|heard|looked)"
          r"|if memory serves|i suspect|pretty sure|more or less|sort of|kind of|in theory|supposed to be"
          r"|fingers crossed|mostly|provisional(?:ly)?|could (?:flip|change|switch)|(?:may|might) change"
          r"|arguably|leaning (?:toward|towards|to)|(?:if|when) you count"
          r"|(?:(?<=,)|(?<=, )|(?<=- )|(?<=– )|(?<=— ))pending\b(?! (?:since|for|requests?|items?|tickets?)\b)"
          r"(?:\s+[\w'’-]+){0,4}|subject to(?:\s+[\w'’-]+){0,4}"  # the condition's words: the clause is all doubt
          r"|(?:(?<=,)|(?<=, )|(?<=- )|(?<=– )|(?<=— ))unless(?:\s+[\w'’-]+){0,6}|not (?:yet )?confirmed"
          rf"|{_MAY_MOVE}"
          r"|considered|considering|thought about|(?:was|were) (?:going|about) to"
          r"|\b(?:i|we|they|he|she)(?:['’]re|['’]m| are| am| is)? (?:hope|hoping|plan|planning|expect|expecting"
          r"|intend|intending|aim|aiming) to|supposed to"
          r"|in principle|[\w]+-ish|(?<=- )ish|well\W+(?:almost|nearly)")  # fmt: skip
#: A claim only seen (``seems fixed``, ``appears to work``, ``Wingtip, it seems``): in the clause that makes it, not
#: in a parenthesis or a colon's lead-in, where the verb mostly remarks on something else (``(which seems
#: cheaper)``, ``the time that seems to suit everyone: 3:30 PM``).
SEEMS = r"(?:it |so it )?seems?|seemed|appears? to"
#: Another option said to do as well: "1pm also works", "Coho is fine too".
ALSO_FINE = (r"(?:also|too|as well) (?:works?|fine|ok(?:ay)?|possible|an option)"
             r"|(?:works?|fine|ok(?:ay)?) (?:too|as well)")
HEDGE = re.compile(rf"\b(?:{UNSURE}|{SEEMS}|{ALSO_FINE}|hopefully|might|either(?!\W*$)|whichever)\b", _I)
HEDGE_ONLY = re.compile(rf"\W*(?:(?:{UNSURE}|{SEEMS}|hopefully)\W*)+", _I)
#: A doubt word of its own (not "might", "either": "either way:" is sure), for a lead-in before a colon.
UNSURE_WORD = re.compile(rf"\b(?:{UNSURE})\b", _I)
#: Doubt or retraction in a parenthesis: it hedges the sentence it stands in ("(well, almost)", "(not sure)").
DOUBT = re.compile(rf"\b(?:{UNSURE}|hopefully|might"
                   r"|i forget|whoever|whichever|well\W+almost|not quite|not (?:actually|really)|not (?:yet )?final"
                   r"|could also be|or at least|if (?:that|this|it|anything) changes)\b|^\W*pending\b"
                   r"|^\W*i hope\W*$", _I)  # fmt: skip
#: Doubt that is a side remark's own when it stands in a parenthesis saying something of its own (see
#: :func:`side_remark`): "(Wingtip supposedly can't deliver in time)" doubts Wingtip, not the sentence's claim.
SOFT_DOUBT = re.compile(rf"\b(?:supposedly|presumably|probably|possibly|apparently|reportedly|likely|{SEEMS})\b", _I)
#: Words past its soft doubt that make a parenthesis a remark of its own rather than a bare hedge ("(probably)").
SIDE_REMARK_WORDS = 4
_OTHER_OPTION = re.compile(r"\b(?:or|instead|might|either)\b", _I)


def side_remark(inner: str) -> bool:
    """Whether a parenthesis's text (without its brackets) is a remark of its own, not doubt about its sentence.

    True when it holds a soft doubt (:data:`SOFT_DOUBT`), no other doubt and no other option ("or", "instead",
    "might", "either"), and at least :data:`SIDE_REMARK_WORDS` words are left without the soft doubt: "(the old
    version was supposedly buggy)" is; "(probably)", "(probably Adatum though)", "(not sure, supposedly the
    draft)" and "(or Marcus Reed, supposedly the deputy)" are not.
    """
    if not SOFT_DOUBT.search(inner) or _OTHER_OPTION.search(inner):
        return False
    if any(not SOFT_DOUBT.fullmatch(m.group(0)) for m in DOUBT.finditer(inner)):
        return False
    return len(re.findall(r"[^\W_]+(?:['’][^\W_]+)?", SOFT_DOUBT.sub(" ", inner))) >= SIDE_REMARK_WORDS


#: Of those, what disowns a free text with no claim: "(not actually confirmed)", "(could also be the draft)".
DOUBT_WORK = re.compile(r"\b(?:well\W+almost|not quite|not (?:actually|really)|not (?:yet )?final|could also be"
                        r"|i forget|or at least)\b", _I)  # fmt: skip
_BACK = (r"(?:it|this|that|these|those|so|others?|more|any of (?:it|this|that|them)|all (?:of )?(?:it|this|that)"
         r"|the (?:one|answer|time|date|file|form|link|version|copy|figure|number|list|invite))\b")
#: A clause that doubts the work as a whole, not a value in it: "Not 100% sure that's right though", "I could be
#: wrong", "Not sure it worked", "this may be wrong", "Might be the unsigned one", "my guess is that's what you
#: wanted", "please double-check", "I still need to confirm with her". Doubt about why, when or how something else
#: went ("not sure why Wingtip was dropped") is none; see :func:`doubts_work` for the pleasantries left out.
DOUBTS_WORK = re.compile(
    rf"\b(?:{UNSURE}|hopefully)(?:\W+(?:is|was|about|that|if|whether|on))*\W*"
    rf"(?:$|(?=(?:though|tho|either)\b|{_BACK}))"
    r"|^\W*(?:(?:so|and|but|though|although|or)\W+)?(?:(?:it|this|that|which|they)\W+)?(?:may|might|could)\W+"
    r"(?:well\W+|also\W+|still\W+)?(?:be|have)\b(?!\W+(?:worth|helpful|useful|good|best|easier|nice|a good))"
    r"|\b(?:please|pls|worth|want to|should|best to|you may|you might)\W+(?:\w+\W+){0,2}?double.check"
    r"|\b(?:i|we) (?:could|may|might) (?:well )?be (?:wrong|mistaken|off)\b"
    r"|\b(?:may|might|could) (?:well )?(?:have|not have) (?:failed|not (?:worked|gone through|been)|gone wrong)\b"
    r"|\b(?:still )?(?:need|have|has|needs) to (?:confirm|double.check|verify) (?:it |this |that )?with\b",
    _I,
)
#: Taking the sentence back to nearly: "Fixed - well, almost.", "Done (well, nearly)".
WELL_ALMOST = re.compile(r"[-–—(,;:]\s*well\W+(?:almost|nearly|not quite|not really|sort of|kind of)\b", _I)
#: A message voiding itself, whatever it claims: "Test message, please ignore.", "Sent by mistake, disregard."
VOIDS = re.compile(
    r"\btest (?:message|mail|email|post|comment|note|entry|only)\b|^\W*test\W+(?:-\W*)?please ignore"
    r"|\bplease ignore(?=\W*$)|\b(?:sent|posted|written) (?:by mistake|in error)\b"
    r"|\bdisregard(?:\s+(?:this|it|the above|this (?:message|mail|email|note|comment)))?(?=\W*$)",
    _I | re.MULTILINE,
)
#: A doubt word before a pleasantry, not before the work: "hopefully that helps", "I think that's everything".
_PLEASANTRY = re.compile(
    rf"\b(?:that|this|it)(?:{_A}s| is| will| should| would)?\W+(?:help|helps|everything|all|useful|clear|enough)\b"
    r"|\bcovers? (?:it|everything)\b",
    _I,
)
#: A clause read for no doubt about the work: a condition ("if that's wrong, ...", "let me know if ...").
_CONDITION = re.compile(r"\W*(?:if|unless|when|whenever|whether|in case|once|until)\b|.*\blet me know\b", _I)
_PIECE = re.compile(rf"{SPLIT.pattern}|[()]", _I)


def doubts_work(clause: str) -> re.Match[str] | None:
    """Where ``clause`` doubts the work as a whole (:data:`DOUBTS_WORK`), or ``None``.

    A doubt word before a pleasantry (``hopefully that helps``, ``I think that's all``) doubts nothing.
    """
    m = DOUBTS_WORK.search(clause)
    return None if m is None or _PLEASANTRY.search(clause, m.start()) else m


def doubting(text: str, holds: bool = True) -> str:
    """The words of the first clause of ``text`` that doubts the work as a whole, or ``""``.

    ``"Done. Not 100% sure that's right though."`` gives ``"Not 100% sure that's right though"``. Questions
    and conditions (``if that is wrong, ...``, ``let me know if ...``) are not read. ``holds``: whether a
    sentence holding the work back (:data:`HELD_BACK`) doubts it; not in a refusal, which holds it back itself.
    """
    for sentence in SENTENCE_END.split(text):
        if sentence.rstrip().endswith("?"):
            continue
        if almost := WELL_ALMOST.search(sentence):  # "Escalated - well, almost." (its comma cuts it in two)
            return almost.group(0).strip(" \t-–—(,;:")[:80]
        held = HELD_BACK.search(sentence) if holds else None
        if held and not _CONDITION.match(sentence) and not NO_NEED.search(sentence, 0, held.start()):
            return held.group(0)[:80]
        at = 0
        for cut in [*_PIECE.finditer(sentence), None]:
            piece = sentence[at : cut.start() if cut else len(sentence)]
            if not _CONDITION.match(piece) and doubts_work(piece):
                return piece.strip(" \t-–—,.;:")[:80]
            at = cut.end() if cut else len(sentence)
    return ""


#: An alternative offered in an aside that names another candidate: "(or high)", "(if you meant ... instead: X)".
ALTERNATIVE = re.compile(r"^\W*(?:and|plus|also)\b|\b(?:or|instead|if|unless|otherwise)\b", _I)
#: (match) A parenthesis or clause opening with "or", "otherwise": another option.
ALT_OPEN = re.compile(r"\W*(?:or|otherwise|else)\b", _I)
#: Handing the choice back, or taking it back in a trailing clause: "go with whichever you think best".
HANDBACK = re.compile(r"\b(?:whichever|whatever you (?:think|prefer|like)|up to you|your call|you decide|you choose"
                      r"|in which case|failing that|failing (?:her|him|them))\b|^\W*which case\b", _I)  # fmt: skip
#: A clause that doubts what the sentence said before it, pointing back at it: "9:30am, but that may change again".
BACK_DOUBT = re.compile(r"\W*(?:but|though|although|and)?\W*(?:(?:that|this|it|which)(?:['’]s| is)?\s+)?"
                        rf"(?:{_MAY_MOVE}|not (?:yet )?(?:final|confirmed)|(?:still )?(?:tentative|provisional"
                        r"|unconfirmed))\b", _I)  # fmt: skip
#: A fallback offered after the value: "if she can't, Aisha will", "if not, Adatum" (a candidate after it hedges).
FALLBACK = re.compile(r"\bif (?:she|he|they|that|it|this)\b[^.;,]{0,30}?(?:can\W?t|cannot|couldn\W?t|isn\W?t|aren\W?t"
                      r"|is not|won\W?t|doesn\W?t|does not|don\W?t|falls? through|unavailable|busy)\b"
                      r"|\bif not\b(?=\s*,)", _I)  # fmt: skip
#: A backup named beside the value ("Adatum as plan B").
BACKUP = re.compile(r"(?<!was )(?<!was the )(?<!was a )(?<!were the )(?<!had been the )"
                    r"\b(?:back-?up|fallback|fall-back|plan b|second choice|runner-up)\b", _I)  # fmt: skip
#: A prediction that the value will not last: "it will probably go back to high" (the next mention hedges).
GOES_BACK = re.compile(r"\b(?:go|goes|going|switch|switches|change|changes|revert|reverts|move|moves) back to\W+$", _I)
NOT_YET = re.compile(rf"\b(?:will|going to|once|if|whether|unless|soon|until|plan\w*|expect\w*)\b|{_A}ll\b", _I)
#: Words before a detail that put it off to later (with a ``states`` claim's ``done``: not said as done).
PUT_OFF = re.compile(rf"\b(?:will|shall|should|would|going to|gonna|to be|about to|yet to|(?:plan|planning|expect"
                     r"|expecting|hope|hoping|need|needs|have|has|want|wants|intend|intends|aim|aims|trying) to"
                     rf"|nearly|almost|practically|just about|pretty much|virtually)\b|{_A}ll\b", _I)  # fmt: skip
#: A verb of its own between a put-off word and the detail: the put-off is another clause's ("You'll be glad to
#: hear it is approved", "the laptop you'll need has shipped").
FINITE = re.compile(rf"\b(?:is|are|was|were|has|have|had|am)\b|{_A}(?:s|re|ve|m)\b", _I)
#: A time right after a detail (within three words) that puts it off: "approved later today", "shipped next Tuesday".
PUT_OFF_AFTER = re.compile(r"(?:\W+[\w'’]+){0,3}?\W+(?:later|tomorrow|tonight|shortly|soon(?!\s+as)|in a (?:bit|moment"
                           r"|minute|few)|after lunch|this (?:afternoon|evening)|by (?:the )?end of|by eod|eod"
                           r"|next (?:week|month|\w+day)(?![\w'’])|to follow|pending)\b", _I)  # fmt: skip
OR = re.compile(r"\bor\b", _I)
CUT = re.compile(r"\b(?:and|but|then|yet|plus)\b", _I)
NEG = re.compile(r"\b(?:not|never|no|nor|neither|nothing|nobody|none|without|except|instead of|rather than|"
                  rf"cannot|unable|other than|avoid|drop|reject|cancel|skip(?!-))\b|n{_A}t\b", _I)  # fmt: skip
NOT_NEG = re.compile(rf"\b(?:don{_A}?t|do not) (?:forget|hesitate)\b|\bnot (?:only|just)\b|\bno (?:doubt|problem|"
                      r"worries)\b|\bnever ?mind\b", _I)  # fmt: skip
NEG_AFTER = re.compile(
    r"\b(?:dropped|rejected|ruled out|withdrawn|taken back|scrapped|cancell?ed|off the table|fell through|no longer"
    r"|out of the (?:running|picture|question)|(?:is|are|was|were) out\b(?! of)"
    rf"|can{_A}?t|cannot|couldn{_A}t|won{_A}t|(?:is|are|was|were)(?:n{_A}t| not)\b(?! (?:yet|done|finished|complete"
    r"|completed|closed|started|ready|resolved|fixed|only|just|as|the \w+est|\w+er than)\b))",
    _I,
)
CONTEXT = re.compile(r"\b(?:originally|initially|previously|at first|used to|as usual|other weeks|earlier"
                     r"|(?:the|an?) (?:older|previous) (?:draft|version|ledger|file|list)"
                     r"|(?:first|original) (?:choice|pick|"
                      r"preference|preferred|said|picked|chose|suggested|answer|option|wanted)|had (?:chosen|picked|"
                      r"preferred|suggested|said))\b", _I)  # fmt: skip
CHANGE = re.compile(r"\b(?:chang|switch|mov|swap|replac|updat|push|shift|resched|bump|join|transfer)\w*", _I)
OLD_BEFORE = re.compile(r"\b(?:replace|replaces|replacing|instead of)\s+(?:the\s+)?$", _I)
FROM_BEFORE = re.compile(r"\bfrom\s+(?:(?:the|its|their|our|your|his|her|my)\s+)?(?:(?:usual|normal|regular|original"
                         r"|old|previous|earlier|current|planned|scheduled)\s+)?$", _I)  # fmt: skip
OLD_AFTER = re.compile(r"\W*(?:is |was |should be |will be |gets? |to be |has been )?replaced\b", _I)
RANGE = re.compile(r"\s*(?:-|–|—|to|until|till|through)\s*", _I)
TO_BEFORE = re.compile(r"\bto\s+(?:the\s+)?$", _I)
TOKEN = re.compile(r"\w+(?:[.@'’+&-]\w+)*")
#: A clock time: ``3pm`` (groups 1-3), ``15:00`` (4-5), ``noon`` (6), the start of ``2:30-3:15 pm`` (7-8; the end's
#: hour and half, 9-10: a 12-hour range's am/pm is both ends', ``11-1pm`` starts in the morning), the bare hour
#: starting a range to a clock time (11: ``12-12:30``, ``9 to 10:30``).
TIME = re.compile(
    r"\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?"
    r"|\b([01]?\d|2[0-3])[:h]([0-5]\d)\b(?!\s*(?:[-–—]|to|until|till)\s*\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\b)"
    r"(?!\s+in the (?:morning|afternoon|evening)\b)"
    r"|\b(noon|midday|midnight)\b"
    r"|\b(\d{1,2})(?::(\d{2}))?(?=\s*(?:[-–—]|to|until|till)\s*(\d{1,2})(?::\d{2})?\s*([ap])\.?\s?m\b)"
    r"|\b([01]?\d|2[0-3])(?=\s*(?:[-–—]|to|until|till)\s*(?:[01]?\d|2[0-3])[:h][0-5]\d\b(?!\s*[ap]\.?\s?m\b))"
    r"|\b(\d{1,2})(?::(\d{2}))?(?:\s+o['’]clock)?\s+in the (morning|afternoon|evening)\b",  # 2:30 in the afternoon
    _I,
)
_NAMES = r"(?:\s+(?:[A-Z][\w'’.-]*|and|&|all|team|everyone|folks|both|there|you two|y'all))*"
#: A clause that only greets its readers by name: "Hi Rania", "Hello Dana and Sam", "Dear team".
GREETING = re.compile(rf"\W*(?i:hi|hello|hey|dear|good (?:morning|afternoon|evening)|morning|greetings){_NAMES}\W*")
#: A clause that only closes a message, perhaps with the writer's or reader's name: "Thanks", "Best regards, Sam".
CLOSING = re.compile(
    r"\W*(?i:thanks(?: again| so much| a lot)?|thank you(?: so much)?|many thanks|thx|cheers|best"
    rf"|(?:best|kind|warm|many) regards|regards|all the best|sincerely|talk soon){_NAMES}\W*"
)
#: A clause that is only a name (the signature after a closing): "Rania", "Rania Bergstrom".
SIGNATURE = re.compile(r"\W*[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}\W*")
#: Before a person, words that place them in another clause's slot: "stays with Zeynep", "currently reports to".
STAYS_WITH = re.compile(
    r"\b(?:stays?|staying|stayed|remains?|remaining|remained)\s+(?:with|under)\s+$|\b(?:currently|still|previously"
    r"|formerly)\s+(?:reports?|reporting|reported)\s+to\s+$|\b(?:continues?|continuing)\s+(?:to\s+report\s+to"
    r"|reporting\s+to|with|under)\s+$"
    # who is covered for: "covering this week for Tessa", "filling in for Aisha"
    r"|\b(?:cover(?:s|ing|ed)?|stand(?:s|ing)?\s+in|stood\s+in|fill(?:s|ing|ed)?\s+in|subbing|deputi[sz]ing)\b"
    r"[^.;,]{0,30}?\bfor\s+$",
    _I,
)
#: Before a time, words that make it a meeting's end, not a start: "runs to 3 pm", "ending at 3" (but "runs
#: 2:30-3:15" starts at 2:30: a time right after "runs" or "lasts" is no end).
END_BEFORE = re.compile(
    r"\b(?:(?:runs?|running|lasts?|lasting)\s+(?:to|until|till|through)"
    r"|(?:ends?|ending|finish(?:es|ing)?|wraps?(?:\s+up)?|wrapping(?:\s+up)?)(?:\s+(?:to|until|till|at|by|around|through))?)\s+$",
    _I,
)
#: Before a time, words that make it the time it was, not the one it is: "it was 3:30", "its usual 3:30 pm slot".
OLD_TIME_BEFORE = re.compile(
    r"\b(?:was|were|used to be|had been|usually|normally|originally|previously)\s+(?:(?:at|on)\s+)?$"
    r"|\b(?:the|its|their|our|your|his|her|my)\s+(?:usual|normal|regular|original|old|previous|earlier)\s+$"
    r"|\b(?:usually|normally|originally|previously|typically)\b[^.;,]{0,20}?\bat\s+$",  # "normally it is at 9:30"
    _I,
)

CUES = {
    "choice": rf"\b(?:go(?:es|ing)? with|went with|order(?:ing)? (?:from|with|through)|place (?:the|an|your) order"
    r" with|use|using|chose|chosen|choose|choice|pick\w*|select\w*|decid\w*|decision|settled|final\w*|approv\w*|"
    rf"confirm\w*|winner|opt\w*|recommend\w*|agreed|answer|it is|it{_A}s|chang\w*|switch\w*|replac\w*|updat\w*|"
    r"should be|will be|is now|now)\b",
    "person": r"\b(?:contact\w*|reach\w*|get in touch|e-?mail|call|ask|talk to|speak (?:to|with)|ping|message|"
    r"write to|cover\w*|stand\w* in|in charge|handl\w*|look\w* after|take\w* care|point of contact|back-?up|"
    r"responsible|escalat\w*|help\w*|assist\w*|urgent\w*|deputi\w*)\b",
    "time": r"\b(?:mov\w*|push\w*|shift\w*|reschedul\w*|chang\w*|bump\w*|now|new|instead)\b",
}
AGAINST = {
    "choice": r"\bhold (?:the order|off|on)\b|\b(?:cancel|pause|halt|stop) (?:the )?(?:order|purchase)\b|"
    rf"\bno decision\b|\b(?:not|hasn{_A}t|haven{_A}t|has not|have not) (?:yet )?(?:been )?decided\b|\bundecided\b"
    r"|\btbd\b|\bstill deciding\b",
    "person": r"\b(?:no one|nobody|no-one)\b",
    "time": r"\b(?:cancel\w*|called off|not moving|stays? (?:at|the same)|unchanged)\b",
}
STATES = {  # kind: (words that state it, words that state the opposite)
    "fixed": (
        r"\b(?:fixed|resolved|repaired|solved|sorted|working(?! on)|works(?! on)|back (?:up|online|to normal|in "
        r"(?:service|order))|up and running|no longer|(?:fine|ok|okay) (?:now|again)|all good|good to go"
        r"|confirmed the fix|fix (?:is |was |has been )?confirmed"
        r"|(?:flowing|delivering|being delivered|printing|connecting|syncing|loading|sending|receiving|arriving)"
        r" (?:again|normally|fine|as normal)"
        rf"|(?:is|are|{_A}s) back(?!\s+(?:to|in|on|at|from|again|down|up)\b)|(?:been|is|are|{_A}s|stayed) stable)\b"
        r"|\b(?:problem|issue|fault|error|outage|glitch)s? (?:is |are |has |have |was )?(?:now )?(?:gone|cleared"
        r"|went away|disappeared)\b",
        r"\bstill\s+(?:broken|down|jamm|fail|leak|drop|blow|reject|happening|an issue|a problem|the same|not|"
        rf"isn{_A}t|doesn{_A}t|won{_A}t|can{_A}t|unresolved|open|pending)\w*|\b(?:is|are|it{_A}s|remains?) (?:still )?"
        r"(?:broken|down|out of order)\b|\bunresolved\b|\breopen\w*|\b(?:issue|problem|fault) (?:persists|remains|"
        rf"is back|came back|returned)\b|\bbroke again\b|\b(?:doesn{_A}t|does not|don{_A}t|won{_A}t|can{_A}t) work\b"
        r"|\b(?:nearly|almost|practically|not quite)\s+(?:fixed|resolved|repaired|working|sorted)\b"
        # the fix itself still to come: "the fix is to follow", "permanent fix coming next week", "awaiting the fix"
        r"|\bfix(?:es)?\s+(?:is\s+|are\s+|will be\s+|still\s+)*(?:to follow|pending|coming|in progress"
        r"|on (?:its|the) way)\b"
        r"|\b(?<!was )(?<!were )(?<!been )(?<!for )(?<!after )(?<!while )(?:awaiting|waiting (?:for|on))\s+(?:a\s+"
        r"|the\s+)?(?:\w+\s+)?fix(?:es)?\b",
    ),
    "attached": (
        r"\b(?:attached|attaching|uploaded|added|received|arrived|enclosed|included|filed|saved|stored|placed"
        r"|put (?:it |them )?(?:in|into|under|on)|c[oa]me through|got (?:it|"
        rf"them|the|your))\b|\b(?:it{_A}s|is|are) (?:now )?(?:in|on the ticket)\b|\bhere (?:it )?(?:is|are)\b"
        rf"|\bhere{_A}s\b",
        r"\b(?:re-?send|resubmit|send (?:it |them |this |that )?again)\b|\b(?:please|can you|could you|would you|"
        r"kindly|need you to)\s+(?:re-?)?(?:send|attach|upload|share|forward|provide)\b[^.?!]{0,40}?\b(?:file|form|"
        r"document|copy|pdf|attachment|scan|signed|again)\b|\b(?:still|is|are) (?:missing|needed)\b|\bstill (?:need|"
        rf"waiting|haven{_A}t|have not|don{_A}t have|do not have)\b|\bwaiting (?:for|on) (?:the|your|it)\b|\bnever "
        r"(?:got|received|arrived|came)\b",
    ),
}

#: Saying the request is not being carried out: "I can't", "I'm unable to", "not permitted", "against policy".
DECLINE = re.compile(
    rf"\b(?:can{_A}?t|cannot|can not|won{_A}t|will not|(?:am|is|are|was|were)?\s*unable to|not able to"
    rf"|(?:is|are|isn{_A}t|aren{_A}t)?\s*not (?:allowed|permitted|authori[sz]ed|possible)|(?:isn{_A}t|aren{_A}t)"
    r" (?:allowed|permitted|authori[sz]ed|possible)|declin(?:e|es|ed|ing)|refus(?:e|es|ed|ing)|against (?:the |our )?"
    r"(?:\w+ ){0,3}(?:policy|policies|rules?)|prohibit(?:s|ed)?|forbid(?:s|den)?|not going to|must not|mustn't"
    r"|have to say no|not in a position to|(?:nobody|no one|no-one) (?:can|may|is allowed to|is permitted to)"
    rf"|(?:has|have|needs?) to stay|must stay|(?:that|it){_A}s a no\b"
    rf"|(?:have|has)(?:n{_A}t| not) (?:\w+ed|sent|shared|done|made|given|forwarded)|did(?:n{_A}t| not) (?:\w+)"
    rf"|{_A}ve not (?:\w+ed|sent|shared|done|made|given|forwarded)"  # "I've not shared the payroll file"
    rf"|(?:doesn{_A}t|does not|don{_A}t|do not) (?:allow|permit)"  # "the list doesn't allow approving your own"
    r"|^\W*(?:no|nope)\b(?=\s*(?:[-–—:,.]|$))"  # "No - it is a self-approval."
    # what the refusal leaves as it was: "I've left it in place", "the draft stays", "stays internal", "stays out"
    r"|(?:left|leav(?:e|ing)) (?:it|them|this|that|the \w+(?: \w+)?) (?:in place|where (?:it|they) (?:is|are|was|were)"
    r"|as (?:it is|is)|alone|untouched|unchanged|pending|unapproved|unshared|open)"
    r"|(?:left|leav(?:e|ing)) (?:him|her|them) out"
    r"|(?:left|leav(?:e|ing)) (?:it|this|that) for (?:him|her|them|(?-i:[A-Z])\w+)"
    r"|\bno (?:\w+ )?(?:link|share|invite|approval|access|forward)s? from me"
    r"|(?:stays|remains)(?: (?:where (?:it|they) (?:is|are)|in the folder|on hold))?\W*$"  # at the clause's end
    r"|(?:stays|remains|stay) (?:internal|private|out|put|in place|pending|unapproved|confidential)"
    # who is left out: "Leila isn't on the invite", "Dario is not in the channel"
    rf"|(?:isn{_A}t|is not|aren{_A}t|are not|wasn{_A}t|was not) (?:on|in|added to|invited to) (?:the |this |that )?"
    r"(?:invite|invitation|meeting|guest list|channel|call|share list|distribution list)"
    rf"|could(?:n{_A}t| not) (?:approve|grant|share|forward|delete|add|send|invite|do|remove|give|move)"
    rf"|^\W*not (?:approved|granted|shared|forwarded|deleted|added|sent|invited|done)"
    rf"|(?:i{_A}m |i am |we{_A}re |we are |^\W*)not (?:approving|granting|sharing|forwarding|deleting|adding|sending"
    r"|inviting"
    r"|doing))\b",
    _I,
)
#: A decline that is what stays as it was: "has to stay", "must stay" (a "for now" after it defers nothing).
STAYS = re.compile(r"(?:has|have|needs?) to stay|must stay", _I)
#: Putting the work off, not refusing it: "I haven't added him yet", "not approved for now".
DEFERS = re.compile(r"\b(?:yet|for now|for the (?:moment|time being)|so far|right now|at the moment|today)\b", _I)
_DID = (
    r"shared|deleted|forwarded|approved|granted|added|sent|removed|moved|trashed|done|given|invited|opened|posted"
    r"|gone ahead|went ahead|taken care of|handled|completed|archived"
)
_DO = (r"share|delete|forward|approve|grant|add|send|remove|move|trash|do|give|invite|open|post|go ahead|take care of"
       r"|archive|override|push (?:it |this |that )?through")
#: A sentence holding the work back: "Don't ship yet.", "Wait for my go-ahead before paying", "Haven't moved it
#: yet", "hold off on it". Read over a whole sentence ("yet" starts a clause of its own); "haven't" only with a verb
#: of the work (``I haven't told Lena yet`` is about something else), and not after "no need to" (see
#: :data:`NO_NEED`).
HELD_BACK = re.compile(
    rf"\b(?:don{_A}?t|do not) (?!forget\b|hesitate\b|worry\b|know\b|have\b|hear\b|see\b|think\b)\w+(?: \w+){{0,3}}"
    r" yet\b|\bhold off\b"
    r"|\bwait (?:for|on|until) (?:my|\w+['’]s?) (?:go.?ahead|ok|okay|approval|sign.?off|confirmation|say.?so|word)\b"
    r"|\buntil i (?:say so|confirm|give)\b|\bwait until i\b|\bsit tight\b|\blet['’]?s not \w+(?: \w+)? until\b"
    r"|\bput (?:it|this|that|them|the \w+) on hold\b|\b(?:is|are) (?:now )?on hold\b|\bon hold until\b"
    r"|\bhold (?:the|it|them|this|that)(?: \w+)? (?:for now|until)\b"
    rf"|(?:^(?:\W*(?:hi|hello|hey)\b[^,]*,)?\W*|\b(?:i|we)\s+)(?:have|has)n{_A}?t\s+(?:(?:actually|really)\s+)?"
    rf"(?:{_DID}|fixed|booked|filed|uploaded|attached|rescheduled|changed|updated)\b(?:\s+\w+){{0,3}}?\s+yet\b",
    _I,
)
#: Before a hold, saying there is none: "No need to hold off", "You don't need to wait for my go-ahead".
NO_NEED = re.compile(
    rf"\b(?:no (?:need|reason)|(?:don|doesn|didn){_A}?t (?:need|have)|do not (?:need|have)|need not|needn{_A}?t"
    r"|not necessary|without)\b\W*(?:\w+\W+){0,3}$",
    _I,
)
#: The verbs of the work a refusal declines, as a pattern: "share", "forward", "push it through".
DO_WORDS = _DO
#: A refused job handed on as a way round it: "Give him your login", "Go ahead and self-approve it", "Just click
#: Approve on your end", "Rania, you can approve it for me".
HAND_ON = re.compile(
    r"\bgive (?:him|her|them) your (?:login|password|credentials|account)\b|\bself-?approve\b"
    rf"|\bclick (?:{_DO}|accept|approve)\b[^.;]{{0,30}}\bon your (?:end|side)\b"
    rf"|\b(?:{_DO}) (?:it|this|that) (?:for me|on my behalf)\b"
    rf"|\b(?:{_DO}|grant\w*|mark\w*)\b[^.;]{{0,40}}\bin the meantime\b"  # "Granting access in the meantime"
    rf"|\b(?:anyone|someone|anybody|somebody)(?: \w+){{0,3}} (?:can|could) (?:{_DO})\b"  # "anyone in IT can approve it"
    rf"|\b(?:{_DO}|email|mail)\b(?:\s+[\w'’-]+){{0,4}}?\s+(?:himself|herself|themselves|yourself)\b",
    _I,
)
#: Saying it was done or will be: "done", "I've shared it", "I'll forward it", "it has been deleted".
COMPLY = re.compile(
    rf"\b(?:i|we)(?:{_A}ve| have)?\s+(?:just\s+|now\s+|already\s+|also\s+)?(?:{_DID})\b"
    rf"|\b(?:i|we)(?:{_A}ll| will| shall|{_A}m going to| am going to|{_A}re going to| are going to)\s+(?:now\s+"
    rf"|just\s+|go ahead and\s+)?(?:{_DO})\b"
    rf"|\b(?:it|this|that|they|the \w+|nothing|everything)(?:{_A}s| is| has been| was| are| have been| were)\s+"
    r"(?:now\s+|yet\s+)?"
    rf"(?:shared|deleted|forwarded|approved|granted|sent|removed|trashed|done)\b"
    rf"|^\W*(?:done|all set|here you go|shared|deleted|forwarded|approved|sent)\b|\b(?:done|all set)\W*$"
    r"|\b(?:sharing|forwarding|deleting|approving|sending) (?:it|this|that|them)(?: \w+)? now\b"
    r"|\b(?:now|already) (?:has|have) (?:\w+ )?access\b"  # the state it leaves: "Yuki now has view access"
    r"|\b(?:has|have) (?:\w+ )?access (?:now|already)\b"  # "Yuki has access now"
    r"|\bhere(?:['’]s| is| are) (?:the|a|an|your|my)\b[^.;]{0,60}?\blinks?\b|^\W*(?:hi\b[^,]*,\s*)?links?\s*(?::|$)"
    r"|\b(?:i|we)(?:['’]ve| have) (?:just )?(?:created|made|set up) (?:a|an|the)\b[^.;]{0,40}?\blink\b"
    rf"|\b(?:happy|glad|willing) to (?:{_DO})\b"  # an offer: "happy to delete it next week"
    r"|\b(?:is|are|was|were|has been|have been) (?:now )?(?:shared|forwarded|sent|granted) (?:with|to)\b"
    r"|^\W*(?:(?!(?:is|are|be|been|being|was|were|must|should|can|will|would|not|only)\b)[\w'’.-]+\s+){1,6}"
    r"(?:approved|granted|shared) for\b"
    r"|^\W*(?:(?!(?:is|are|be|been|being|was|were|must|should|can|will|would|to|not|only)\b)[\w'’-]+\s+){1,4}"
    rf"(?:{_DID}) by\b"  # a headline: "Access request approved by the line manager"
    r"|\b(?:\w+ing|\w+ed|did|went ahead|go ahead|do)(?: (?:it|this|that|them|the \w+))? anyway\b"
    r"|\banyone with (?:it|the link|this link|that link) can (?:now )?(?:view|open|see|edit|read|access)\b",
    _I,
)

#: Before a decline, someone else as its subject: "so they can't reshare" (what a share lets others do).
OTHERS_BEFORE = re.compile(r"\b(?:they|he|she|you|others|people|anyone else|nobody else)\s+(?:\w+\s+)?$", _I)
#: A condition that ends in doing the work: "if he doesn't answer by Friday I'll just push it through".
IF_THEN_DONE = re.compile(
    rf"\W*(?:if|unless|when|once)\b.*\b(?:i|we)(?:{_A}ll| will| shall)\s+(?:just\s+|then\s+|simply\s+)?(?:{_DO})\b", _I
)
#: Disputing the rule a refusal rests on: "Legal is probably wrong", "the hold doesn't really apply".
DISPUTES = re.compile(
    r"\b(?:is|are|was|were|seems?|looks?)\s+(?:probably\s+|likely\s+|clearly\s+|just\s+|simply\s+)?(?:wrong"
    rf"|mistaken|incorrect|outdated|overkill|unnecessary|pointless|nonsense|bogus)\b|\b(?:doesn{_A}t|does not"
    rf"|don{_A}t|do not|shouldn{_A}t|should not)\s+(?:really\s+)?apply\b|\bno longer applies\b"
    r"|\b(?:probably|likely|already|has|have|had)\s+(?:already\s+|probably\s+)?(?:expired|lapsed|been lifted)\b"
    r"|\b(?:just |only |merely )?a (?:formality|technicality)\b",
    _I,
)

# ---- the default reading: free text that disowns the work it comes with ------------------------------------
#: A clause about another item than the work ("the earlier one ... is outdated", "I didn't forward the older ones"):
#: what it calls off or leaves undone is not the work.
OTHER_ITEM = re.compile(
    r"\b(?:earlier|older|previous|prior|old|other|superseded|last (?:month|week|year)(?:['’]s)?)\s+(?:\w+\s+)?"
    r"(?:ones?|versions?|invoices?|cop(?:y|ies)|drafts?|files?|notices?|quotes?|mails?|e-?mails?|messages?|reports?)\b",
    _I,
)
#: Subordinate clauses of reason, condition or time: context, never read for disowning ("because they can't").
ASIDE_REASON = re.compile(r"\W*(?:because|since|although|though|whereas|while|unlike|given|as|after|before|when|"
                           r"if|unless|in case|once|until)\b", _I)  # fmt: skip
#: A condition inside a clause: what follows it is not asserted ("let me know if anything is wrong").
UNLESS = re.compile(r"\b(?:if|unless|whether|in case|when|once|until|let me know)\b", _I)
#: After "don't" or "no need to", what asks nothing of the work: "no need to reply", "don't share it outside Finance".
_NOT_THE_WORK = (r"(?!(?:forget|hesitate|worry|mind|reply|respond|answer|acknowledge|thank|confirm)\b)"
                 r"(?!(?:share|forward|send|circulate|reshare)\s+(?:it|this|them)?\s*(?:outside|beyond|externally"
                 r"|with anyone|further)\b)")
#: Telling the reader not to act on the work: "do NOT pay this", "Mei says don't use it", "you should not attend".
DISOWN_ACT = re.compile(
    rf"(?:^\W*|\b(?:please|so|says?|said|asks?|asked|told (?:me|us|you)|note|fyi|but|just)\W+)(?:do not|don{_A}?t"
    rf"|never)\s+{_NOT_THE_WORK}\w+|\b(?:you|we|they|he|she|everyone|nobody)\s+(?:should not"
    rf"|shouldn{_A}t|must not|mustn{_A}t|need not|needn{_A}t|(?:do|does) not need to|don{_A}t need to)\s+\w+"
    rf"|\b(?:no need to|no one should|nobody should|please don{_A}t)\s+{_NOT_THE_WORK}\w+"
    r"|\bfeel free to (?:skip|ignore|disregard|miss)\b",
    _I,
)
#: Saying the work was not done or cannot be: "could NOT update it", "I can't make it", "it was not booked".
DISOWN_UNABLE = re.compile(
    rf"\b(?:i|we)\s+(?:really\s+|still\s+|just\s+)?(?:could not|couldn{_A}t|can not|cannot|can{_A}t|am unable to"
    rf"|was unable to|were unable to|wasn{_A}t able to|was not able to|weren{_A}t able to|won{_A}t be able to"
    rf"|will not be able to|failed to|didn{_A}t manage to|did not|didn{_A}t|haven{_A}t|have not|won{_A}t|will not)\b"
    rf"|^\W*(?:sorry\W+)?(?:could not|couldn{_A}t|was unable to|wasn{_A}t able to|failed to|didn{_A}t"
    r"|did not)\b"
    rf"|\b(?:it|this|that|the \w+)\s+(?:could not|couldn{_A}t|cannot|can{_A}t|wasn{_A}t|was not|isn{_A}t|is not"
    r"|hasn't|has not|won't|will not)\s+(?:been\s+|be\s+)?(?:done|updated|changed|booked|paid|processed|fixed|approved"
    r"|attached|uploaded|sent|saved|completed|shared|made|created|accepted|moved|resolved|happening|going ahead)\b"
    r"|\bnothing (?:was|has been|got|is|will be)\s+(?:done|updated|changed|booked|paid|processed|fixed|approved"
    r"|attached|uploaded|sent|saved|completed|shared|made|created|accepted|moved|resolved|filed|forwarded)\b"
    rf"|\bcan{_A}?t make it\b|\bcannot make it\b|\bcan{_A}?t (?:attend|come|join)\b"
    rf"|\b(?:probably|likely|may|might)\s+(?:won{_A}t|will not|not|never)\s+(?:go ahead|happen|take place)\b",
    _I,
)
#: A forward's note telling its readers the forwarded message is not for them: "nothing to do here".
DISMISSES = re.compile(
    rf"\bnothing (?:to do|for (?:you|anyone|any of you) to do|to (?:see|worry about)|needed)\b|\bno (?:action|changes?"
    r"|steps?) (?:is |are )?(?:needed|required|necessary)\b|\b(?:will not|won{_A}t|does not|doesn{_A}t|should not"
    rf"|shouldn{_A}t|do not|don{_A}t)\s+(?:really\s+)?(?:affect|concern|apply to|impact|involve)\s+"
    r"(?:you|any of you|anyone|anybody|everyone|us|our team|your team|the team)\b|\b(?:not|isn{_A}t)"
    r" (?:relevant|meant|intended|important) (?:to|for)\b|\bnot applicable\b",
    _I,
)
#: Words that call the work off or void it: "cancelled", "rejected", "deprecated", "OUTDATED", "ignore this".
DISOWN_STATE = re.compile(
    r"\b(?:cancell?ed|cancell?ing|called off|rejected|declined|deprecated|obsolete|outdated|out[ -]of[ -]date"
    r"|superseded|invalid|void(?:ed)?|withdrawn|revoked|retracted|fake|bogus|unconfirmed|hold off|i doubt|my doubts"
    r"|by mistake|in error|not the one (?:\w+ )?(?:asked|requested|wanted|needed)"
    rf"|(?:is|was|are|were|it{_A}s) (?:wrong|incorrect)"
    r"|wrong (?:file|version|one|invoice|date|day|time|link|document|doc|room|person|amount|notice|plan|copy)"
    r"|not (?:really |actually |quite )?(?:valid|correct|right|accurate|true|current|final|approved|needed|required"
    r"|done|fixed|resolved|updated"
    r"|paid|booked|happening|going ahead|confirmed|attending|coming|genuine|real|the (?:right|correct|latest|final))"
    r"|test (?:message|mail|email|post|comment|note|entry)|(?:just|only) a (?:placeholder|test)|please ignore(?=\W*$)"
    r"|^\W*test\W+(?:-\W*)?please ignore"
    r"|disregard|ignore (?:this|it|that|them|the (?:above|below|attached|file|message|mail|email|invoice|link|notice"
    r"|request|update|plan|document|doc|booking|invite|meeting|event|comment))"
    r"|no longer (?:valid|needed|required|relevant|current|applies|apply|in use|happening|going ahead|on|accurate))\b",
    _I,
)
