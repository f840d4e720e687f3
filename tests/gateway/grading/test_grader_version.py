"""grader_version: one short hash of the grading code and a row's checks and allowed changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gateway.grading.version
from gateway.grading.version import grader_version, grading_source_digest

CHECKS = [{"name": "says_finance", "kind": "answer", "match": {"contains": "finance"}}]
ALLOWED = [{"app": "gmail", "collection": "messages", "kinds": ["add"], "where": {"to": {"contains": "a@b.c"}}}]
ROOT = Path(__file__).resolve().parents[3]


def test_the_same_checks_give_the_same_version_whatever_the_key_order():
    reordered = [{"match": {"contains": "finance"}, "kind": "answer", "name": "says_finance"}]
    assert grader_version(CHECKS, ALLOWED) == grader_version(reordered, ALLOWED)
    assert len(grader_version(CHECKS, ALLOWED)) == 16


def test_another_check_or_allowed_change_gives_another_version():
    other = [{**CHECKS[0], "match": {"contains": "sales"}}]
    assert grader_version(other, ALLOWED) != grader_version(CHECKS, ALLOWED)
    assert grader_version(CHECKS, []) != grader_version(CHECKS, ALLOWED)


def test_the_version_follows_the_grading_source(monkeypatch):
    before = grader_version(CHECKS, ALLOWED)
    monkeypatch.setattr(gateway.grading.version, "grading_source_digest", lambda: "0" * 64)
    assert grader_version(CHECKS, ALLOWED) != before


def test_the_digest_reads_every_grading_module_in_name_order():
    names = sorted(p.name for p in Path(gateway.grading.version.__file__).parent.glob("*.py"))
    assert "grade.py" in names and "version.py" in names
    assert grading_source_digest() == grading_source_digest()


def test_another_process_with_another_hash_seed_computes_the_same_version():
    code = (
        "import json, sys; from gateway.grading.version import grader_version; "
        "print(grader_version(*json.loads(sys.argv[1])))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code, json.dumps([CHECKS, ALLOWED])], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)  # fmt: skip
    assert out.stdout.strip() == grader_version(CHECKS, ALLOWED)
