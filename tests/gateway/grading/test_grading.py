"""The grader's operators, diff and collateral check, on hand-made snapshots."""

import pytest

from gateway.grading import diff, grade

INITIAL = {
    "calendar": {
        "events": {
            "e1": {"id": "e1", "title": "Ops sync", "start": "2026-03-12T11:00:00-04:00",
                   "attendees": [{"email": "a@x.example", "response": "accepted"}]},
        }
    }
}


def with_event(**fields):
    rec = {**INITIAL["calendar"]["events"]["e1"], **fields}
    return {"calendar": {"events": {"e1": rec}}}


def check(where, **extra):
    return [{"name": "c", "kind": "record", "app": "calendar", "collection": "events", "where": where, **extra}]


@pytest.mark.parametrize(
    ("where", "passes"),
    [
        ({"title": "Ops sync"}, True),
        ({"title": "ops sync"}, False),  # a plain value is exact
        ({"title": {"ieq": "  OPS   sync "}}, True),
        ({"title": {"contains": "SYNC"}}, True),
        ({"title": {"not_contains": "sync"}}, False),
        ({"title": {"regex": "^ops\\s"}}, True),
        ({"title": {"in": ["ops sync", "standup"]}}, True),
        ({"start": {"instant": "2026-03-12T15:00:00Z"}}, True),  # same instant, other offset
        ({"start": {"instant": "2026-03-12T11:00:00Z"}}, False),
        ({"start": {"before": "2026-03-12T15:00:01Z", "after": "2026-03-12T14:59:59Z"}}, True),
        ({"start": {"instant": "not a time"}}, False),
        ({"attendees": {"any": {"email": "a@x.example", "response": "accepted"}}}, True),
        ({"attendees": {"any": {"email": "a@x.example", "response": "declined"}}}, False),
        ({"attendees": {"none": {"email": "b@x.example"}}}, True),
        ({"attendees": {"len": 1}}, True),
        ({"attendees.0.email": "a@x.example"}, True),
        ({"missing_field": {"exists": False}}, True),
        ({"title": {"exists": True}}, True),
    ],
)
def test_operators(where, passes):
    result = grade(check(where), [], INITIAL, INITIAL, None)
    assert result.checks[0].passed is passes


def test_sets_compare_as_sets_with_folded_text():
    snap = {"calendar": {"events": {"e1": {"id": "e1", "labels": ["Finance", "INBOX"]}}}}
    assert grade(check({"labels": {"set_eq": ["inbox", "finance"]}}), [], snap, snap, None).checks[0].passed
    assert not grade(check({"labels": {"set_eq": ["inbox"]}}), [], snap, snap, None).checks[0].passed
    assert grade(check({"labels": {"includes": ["inbox"]}}), [], snap, snap, None).checks[0].passed
    assert grade(check({"labels": {"excludes": ["trash"]}}), [], snap, snap, None).checks[0].passed
    assert not grade(check({"labels": {"excludes": ["finance"]}}), [], snap, snap, None).checks[0].passed
    assert grade(check({"labels": {"within": ["inbox", "finance", "trash"]}}), [], snap, snap, None).checks[0].passed
    assert not grade(check({"labels": {"within": ["inbox", "trash"]}}), [], snap, snap, None).checks[0].passed
    assert grade(check({"missing": {"within": ["inbox"]}}), [], snap, snap, None).checks[0].passed  # absent: empty


def test_new_and_changed_scopes():
    final = {"calendar": {"events": {**INITIAL["calendar"]["events"], "n1": {"id": "n1", "title": "Ops sync"}}}}
    assert grade(check({"title": "Ops sync"}, new=True, count=1), [{"app": "calendar", "collection": "events"}],
                 INITIAL, final, None).reward == 1.0
    assert grade(check({"title": "Ops sync"}, count=1), [{"app": "calendar", "collection": "events"}],
                 INITIAL, final, None).reward == 0.0  # two match without the scope
    assert grade(check({"title": "Ops sync"}, changed=True), [], INITIAL, INITIAL, None).reward == 0.0


def test_diff_reports_adds_updates_and_deletes():
    final = {"calendar": {"events": {"e2": {"id": "e2"}}}}
    changes = diff(INITIAL, final)
    assert [(c.id, c.kind) for c in changes] == [("e1", "delete"), ("e2", "add")]
    moved = diff(INITIAL, with_event(title="Ops sync (moved)"))
    assert [(c.kind, c.fields) for c in moved] == [("update", ("title",))]


def test_collateral_check_fails_on_changes_outside_the_rules():
    final = with_event(title="Renamed")
    rules = [{"app": "calendar", "collection": "events", "kinds": ["update"], "fields": ["start"]}]
    result = grade(check({"id": "e1"}), rules, INITIAL, final, None)
    assert result.reward == 0.0
    assert result.checks[-1].name == "no_unexpected_changes"
    assert "calendar.events[e1] update (title)" in result.checks[-1].detail
    ok_rules = [{"app": "calendar", "collection": "events", "kinds": ["update"], "fields": ["title"],
                 "where": {"title": "Renamed"}}]
    assert grade(check({"id": "e1"}), ok_rules, INITIAL, final, None).reward == 1.0
    assert grade(check({"id": "e1"}), [{**ok_rules[0], "kinds": ["add"]}], INITIAL, final, None).reward == 0.0


def test_answer_checks_read_the_final_text():
    chk = [{"name": "a", "kind": "answer", "match": {"contains": "priya", "not_contains": "marcus"}}]
    assert grade(chk, [], INITIAL, INITIAL, "It is Priya Shah.").reward == 1.0
    assert grade(chk, [], INITIAL, INITIAL, "Priya or Marcus").reward == 0.0
    assert grade(chk, [], INITIAL, INITIAL, None).reward == 0.0


def test_count_is_exact_when_given():
    final = {"calendar": {"events": {"a": {"id": "a", "t": 1}, "b": {"id": "b", "t": 1}}}}
    two = [{"name": "c", "kind": "record", "app": "calendar", "collection": "events", "where": {"t": 1}, "count": 1}]
    assert grade(two, [{"app": "calendar", "collection": "events"}], {}, final, None).checks[0].passed is False
    none = [{"name": "c", "kind": "no_record", "app": "calendar", "collection": "events", "where": {"t": 2}}]
    assert grade(none, [{"app": "calendar", "collection": "events", "count": 2}], {}, final, None).reward == 1.0


def test_document_operators_read_real_files():
    from tools.kernel.blobs import BlobStore
    from tools.kernel.documents import make_docx, make_pdf, make_xlsx

    blobs = BlobStore()
    doc = blobs.put(make_docx("Renewal memo", ["Contoso signs on March 12.", "PO-88213"]))
    book = blobs.put(make_xlsx({"Q1": [["Item", "Amount"], ["Rent", 1200]]}))
    pdf = blobs.put(make_pdf("Invoice INV-20417", ["Total due: $12,480.00"]))
    csv = blobs.put(b"Vendor,Owner\nContoso Ltd,Maya Young\nFabrikam,Maya Young\n")
    snap = {"calendar": {"events": {"e1": {"id": "e1", "doc": doc, "book": book, "pdf": pdf, "csv": csv}}}}

    def passes(where):
        return grade(check(where), [], snap, snap, None, blobs).checks[0].passed

    assert passes({"doc": {"text": {"contains": "po-88213"}}})
    assert not passes({"doc": {"text": {"contains": "PO-99999"}}})
    assert passes({"book": {"cell": {"sheet": "Q1", "ref": "B2", "match": 1200}}})
    assert not passes({"book": {"cell": {"sheet": "Q1", "ref": "B2", "match": 1300}}})
    assert not passes({"book": {"cell": {"sheet": "Q2", "ref": "B2", "match": 1200}}})
    assert passes({"pdf": {"text": {"contains": "$12,480.00"}}})
    assert passes({"csv": {"csv_row": {"Vendor": {"contains": "fabrikam"}, "Owner": "Maya Young"}}})
    assert not passes({"csv": {"csv_row": {"Vendor": "Litware"}}})
    assert passes({"doc": {"text": {"contains": "Contoso"}}}) is not False
    # without the world's blobs a document operator cannot pass
    assert grade(check({"doc": {"text": {"contains": "Contoso"}}}), [], snap, snap, None).checks[0].passed is False


def test_diff_skips_records_shared_as_one_object_and_sorts_the_rest_by_place():
    kept, same = {"id": "a", "v": 1}, {"id": "s", "v": 0}
    before = {"app": {"c": {"z": {"id": "z"}, "a": kept, "s": same, "m": {"id": "m", "v": 1}}}}
    after = {"app": {"c": {"s": same, "b": {"id": "b"}, "a": {"id": "a", "v": 2}, "m": {"id": "m", "v": 1}}}}
    got = [(c.id, c.kind, c.fields) for c in diff(before, after)]
    assert got == [("a", "update", ("v",)), ("b", "add", ()), ("z", "delete", ())]
