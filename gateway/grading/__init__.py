"""Deterministic grading: declarative checks on the final world, plus a collateral-damage check.

Grading compares two snapshots (``World.snapshot()``: ``{app: {collection:
{id: record}}}`` in JSON values) taken at seed and at verify. No model judges.

Checks (each has a ``name``)::

    {"kind": "record", "app", "collection", "where": {...}, "count": n or absent, "new": bool, "changed": bool}
        passes when the records matching ``where`` number exactly ``count`` (at least 1 when absent).
        ``new``: only records absent at seed; ``changed``: only records added or modified since seed.
    {"kind": "no_record", "app", "collection", "where": {...}, "new": bool, "changed": bool}
        passes when no record matches.
    {"kind": "answer", "expect": [{"kind", "value"}], "candidates": {...}}
        the final answer names every expected value and no other candidate of its kind
        (:mod:`gateway.grading.answers`); the text is complete_task's ``answer``, else its
        ``summary``, else the ``response`` sent to /verify. The older ``{"match": {<op>: value}}``
        form matches that text with the operators below; with ``claims``, a summary beside the answer
        may not contradict them (:func:`gateway.grading.messages.contradictions`).
    {"kind": "any_of", "checks": [check, check, ...]}
        passes when any of its checks passes: two natural ways to the same outcome (a filter by
        sender or by a search query).
    {"kind": "outcome", "app", "outcome", "args": {...}, "match": matcher}
        an outcome the app computes from its final state (``@app.outcome``, e.g. drive
        ``effective_role``, calendar ``booked_rooms``) matches.

``where`` maps a dotted field path (``"attendees"``, ``"permissions"``, ``"start"``) to
a plain value (exact equality) or to an object of operators, all of which must hold:

    eq, ne                 exact (in)equality
    ieq                    equal after folding case and white space
    contains, not_contains text contains (folded); on a list: some item equals (folded)
    regex                  Python regular expression, searched case-insensitively
    in                     value is one of a list (folded for text)
    instant, before, after compare ISO 8601 instants as instants (offsets normalised)
    set_eq, includes, excludes   a list compared as a set of folded values
    within                 a list (absent: empty) whose every item is one of these (folded): cc only oneself
    any, none              a list of objects: some / no item matches the nested ``where``
    len, gte, lte          length of a list or text; numeric comparison
    exists                 true: value present and not empty; false: absent or empty
    text                   the value is a blob id: the document's text (.docx, .xlsx, .pdf, CSV, plain)
                           matched by a nested matcher, e.g. {"text": {"contains": "INV-20417"}}
    cell                   a blob id of a workbook: {"sheet": "Q1", "ref": "B2", "match": matcher}
    csv_row                a blob id of a CSV file: some row matches {"column": matcher, ...}
    table_rows             a blob id of a workbook, .docx or CSV file: one of its tables (a sheet, a .docx table, the
                           CSV; rows keyed by its header row) has a row of its own matching each of ``rows``, and
                           with "only": true no other (but one matching each of "optional", a list of rows that
                           may be there too): {"table_rows": {"table": "Totals" (optional), "rows":
                           [{"Category": "Travel", "Total": {"num": 412.5}}], "only": true}}
    num                    a number, or text that is one ("$1,234.50"), within half a cent of the argument
    claims                 a message (mail body, chat text, comment, note) asserts what is declared, read sentence
                           by sentence with polarity, hedges and retractions (:mod:`gateway.grading.messages`):
                           {"claims": {"kind": "choice", "value": "Wingtip", "candidates": ["Wingtip", "Adatum"]}}
    same_bytes_as          a blob id carrying the bytes of a source: a blob id, or a seed record
                           {"app", "collection", "id", "attachment" or "field"}, with "as": a declared
                           transform (``bytes``, ``text``); see :mod:`gateway.grading.operators`

Allowed changes (``allowed_changes``): every difference between the two snapshots must
match one rule ``{"app", "collection", "kinds": ["add", "update", "delete"], "where": {...},
"fields": [...], "values": {field: matcher}, "added": {field: item matcher}, "removed": {...},
"count": n}`` (``where`` is matched on the record after an add/update and before a delete;
``fields`` lists the only fields an update may change, ``values`` what they may change to,
``added``/``removed`` the items a list field may gain or lose; an add or delete rule covers at
most ``count`` records, default 1). An add is bounded as a whole record: the recipients, sharing
and files its rule does not name hold only what the task involves (:mod:`gateway.grading.scope`);
``added`` and ``values`` widen or bind such a field explicitly. Any other difference fails the
``no_unexpected_changes`` check.

The reward is 1.0 when every check passes, else 0.0.
"""

from gateway.grading.answers import ANSWER_KINDS, AnswerText, candidate_values, claims_of
from gateway.grading.changes import Change, diff
from gateway.grading.grade import Request, grade
from gateway.grading.results import CheckResult, Grade
from gateway.grading.validate import validate_checks

__all__ = [
    "ANSWER_KINDS",
    "AnswerText",
    "Change",
    "CheckResult",
    "Grade",
    "Request",
    "candidate_values",
    "claims_of",
    "diff",
    "grade",
    "validate_checks",
]
