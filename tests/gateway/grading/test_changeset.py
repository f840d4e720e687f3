"""The change set: what a session changed against its seed, enough to rebuild its final world."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from gateway.grading import changeset as changes_module
from gateway.grading.answers import AnswerText
from gateway.grading.changes import diff
from gateway.grading.changeset import ChangeSetError, apply_change_set, change_set
from tools.kernel.blobs import BlobStore, blob_id

BASE_FILE = b"the company's own report"
INITIAL = {
    "drive": {
        "files": {
            "f1": {"id": "f1", "name": "Report", "blob": blob_id(BASE_FILE), "shared_with": ["a@x.example"]},
            "f2": {"id": "f2", "name": "Old", "blob": "", "shared_with": []},
        },
        "_settings": {"_": {"quota": 10}},
    },
    "gmail": {"messages": {"m1": {"id": "m1", "subject": "Hi", "labels": ["INBOX"], "note": "x"}}},
}


def session(blobs: BlobStore) -> dict:
    """A final snapshot: one record added (with a new file), one changed, one removed, a setting changed."""
    final = copy.deepcopy(INITIAL)
    new_blob = blobs.put(b"a file the session wrote")
    final["drive"]["files"]["f3"] = {"id": "f3", "name": "New", "blob": new_blob, "shared_with": []}
    final["drive"]["files"]["f1"]["shared_with"] = ["a@x.example", "b@x.example"]
    final["drive"]["files"]["f1"]["name"] = "Report v2"
    del final["drive"]["files"]["f2"]
    final["drive"]["_settings"]["_"]["quota"] = 9
    final["gmail"]["messages"]["m1"]["labels"] = ["INBOX", "Done"]
    del final["gmail"]["messages"]["m1"]["note"]  # a field gone from the record (not merely null)
    return final


def test_the_change_set_lists_records_added_changed_and_removed_per_app_and_collection():
    blobs = BlobStore({blob_id(BASE_FILE): BASE_FILE})
    final = session(blobs)
    said = AnswerText(answer="42", summary="done", response=None)
    cs = change_set(diff(INITIAL, final), blobs, said)
    files = cs["records"]["drive"]["files"]
    assert files["added"] == {"f3": final["drive"]["files"]["f3"]}
    assert files["removed"] == {"f2": INITIAL["drive"]["files"]["f2"]}
    assert files["changed"] == {"f1": {
        "name": {"before": "Report", "after": "Report v2"},
        "shared_with": {"before": ["a@x.example"], "after": ["a@x.example", "b@x.example"]},
    }}  # fmt: skip
    assert cs["records"]["drive"]["_settings"] == {"changed": {"_": {"quota": {"before": 10, "after": 9}}}}
    assert cs["records"]["gmail"]["messages"]["changed"]["m1"]["note"] == {"before": "x"}
    assert cs["counts"] == {"added": 1, "changed": 3, "removed": 1}
    assert cs["said"] == {"answer": "42", "summary": "done", "response": None}
    assert (cs["complete"], cs["left_out"]) == (True, {"changes": 0, "files": [], "texts": []})


def test_only_files_the_session_created_carry_their_bytes():
    blobs = BlobStore({blob_id(BASE_FILE): BASE_FILE})
    final = session(blobs)
    final["drive"]["files"]["f4"] = {"id": "f4", "name": "Copy", "blob": blob_id(BASE_FILE), "shared_with": []}
    cs = change_set(diff(INITIAL, final), blobs, None)
    new_blob = final["drive"]["files"]["f3"]["blob"]
    assert cs["files"] == {new_blob: base64.b64encode(b"a file the session wrote").decode()}
    assert cs["said"] == {"answer": None, "summary": None, "response": None}


def test_applying_the_change_set_to_the_initial_snapshot_gives_the_final_one_after_a_json_round_trip():
    blobs = BlobStore({blob_id(BASE_FILE): BASE_FILE})
    final = session(blobs)
    cs = json.loads(json.dumps(change_set(diff(INITIAL, final), blobs, None)))
    before = copy.deepcopy(INITIAL)
    assert apply_change_set(INITIAL, cs) == final
    assert before == INITIAL, "the initial snapshot is left as it was"
    assert apply_change_set(INITIAL, change_set([], None, None)) == INITIAL


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda s: s["drive"]["files"]["f1"].update(name="Renamed"), "drive.files[f1].name"),
        (lambda s: s["drive"]["files"].pop("f2"), "drive.files[f2]"),
        (lambda s: s["drive"]["files"].update(f3={"id": "f3"}), "drive.files[f3]"),
        (lambda s: s.pop("gmail"), "gmail"),
    ],
)
def test_a_change_set_that_does_not_fit_the_initial_world_is_refused(edit, words):
    blobs = BlobStore({blob_id(BASE_FILE): BASE_FILE})
    cs = change_set(diff(INITIAL, session(blobs)), blobs, None)
    other = copy.deepcopy(INITIAL)
    edit(other)
    with pytest.raises(ChangeSetError, match=words.replace("[", r"\[").replace("]", r"\]")):
        apply_change_set(other, cs)


def test_past_its_bounds_the_change_set_says_what_it_left_out(monkeypatch):
    blobs = BlobStore({blob_id(BASE_FILE): BASE_FILE})
    final = session(blobs)
    monkeypatch.setattr(changes_module, "CHANGE_SET_MAX_RECORD_BYTES", 150)
    monkeypatch.setattr(changes_module, "CHANGE_SET_MAX_FILE_BYTES", 10)
    monkeypatch.setattr(changes_module, "CHANGE_SET_MAX_TEXT_CHARS", 5)
    cs = change_set(diff(INITIAL, final), blobs, AnswerText(summary="a long summary"))
    assert cs["complete"] is False
    assert cs["left_out"]["changes"] > 0
    assert sum(cs["counts"].values()) + cs["left_out"]["changes"] == len(diff(INITIAL, final))
    assert cs["said"]["summary"] == "a lon" and cs["left_out"]["texts"] == ["summary"]
    monkeypatch.setattr(changes_module, "CHANGE_SET_MAX_RECORD_BYTES", 10**6)
    cs = change_set(diff(INITIAL, final), blobs, None)
    assert cs["files"] == {} and cs["left_out"]["files"] == [final["drive"]["files"]["f3"]["blob"]]
