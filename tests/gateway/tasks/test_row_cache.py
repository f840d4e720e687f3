"""The row cache: built family rows kept on disk by the code that builds them, rebuilt whole when not current."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.tasks import row_cache
from gateway.tasks.loader import families, family_rows
from gateway.tasks.row_cache import facts_of, load_or_build

NAME = "gmail-vacation-leave"  # a quick family to build
FAMILY = families()[NAME]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("GATEWAY_ROWS_CACHE", raising=False)
    return tmp_path / "company-gateway" / "rows"


def _build() -> list[dict]:
    return family_rows([NAME])


def test_rows_are_built_once_then_read_back_byte_for_byte(cache: Path):
    built: list[int] = []

    def build() -> list[dict]:
        built.append(1)
        return _build()

    first = load_or_build(FAMILY, build, "salt")
    second = load_or_build(FAMILY, build, "salt")
    assert (first.hit, second.hit, len(built)) == (False, True, 1)
    assert second.lines == first.lines == [json.dumps(r) for r in _build()]
    assert second.facts == [facts_of(r) for r in _build()]
    assert [p.name.split(".")[0] for p in cache.iterdir()] == [NAME]  # one whole file, no temporary left


def test_another_salt_or_seed_count_is_another_key(cache: Path, monkeypatch: pytest.MonkeyPatch):
    load_or_build(FAMILY, _build, "a")
    assert not load_or_build(FAMILY, _build, "b").hit  # e.g. the grading code changed
    assert load_or_build(FAMILY, _build, "a").hit
    fewer = type(FAMILY)(FAMILY.name, FAMILY.apps, FAMILY.summary, FAMILY.build, seeds=2)
    got = load_or_build(fewer, lambda: family_rows([NAME])[:2], "a")
    assert not got.hit and len(got.lines) == 2
    assert len(list(cache.glob(f"{NAME}.*.jsonl"))) == 3


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty"])
def test_a_damaged_file_is_built_again_and_replaced_whole(cache: Path, damage: str):
    good = load_or_build(FAMILY, _build, "s")
    (path,) = cache.glob(f"{NAME}.*.jsonl")
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:-20] + data[-20:].replace(b"a", b"b"))
    elif damage == "header":
        path.write_bytes(b'{"format": 0}\n' + data.partition(b"\n")[2])
    else:
        path.write_bytes(b"")
    again = load_or_build(FAMILY, _build, "s")
    assert not again.hit and again.lines == good.lines
    assert path.read_bytes() == data  # rewritten whole
    assert load_or_build(FAMILY, _build, "s").hit


def test_caching_off_or_an_unwritable_folder_builds_every_time(cache: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("GATEWAY_ROWS_CACHE", "off")
    assert not load_or_build(FAMILY, _build, "s").hit
    assert not cache.exists()
    monkeypatch.delenv("GATEWAY_ROWS_CACHE")
    cache.parent.mkdir(parents=True)
    cache.write_text("a file where the folder would be")
    got = load_or_build(FAMILY, _build, "s")
    assert not got.hit and got.lines == [json.dumps(r) for r in _build()]


_RACE = """
import json, sys
from gateway.tasks.loader import families, family_rows
from gateway.tasks.row_cache import load_or_build
got = load_or_build(families()[sys.argv[1]], lambda: family_rows([sys.argv[1]]), "race")
sys.stdout.write(json.dumps(got.lines))
"""


def test_processes_building_at_once_all_get_the_rows_and_leave_one_whole_file(cache: Path):
    env = {**os.environ, "XDG_CACHE_HOME": str(cache.parent.parent)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _RACE, NAME], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e[-500:] for _, e in outs]
    want = [json.dumps(r) for r in _build()]
    assert all(json.loads(out) == want for out, _ in outs)
    assert load_or_build(FAMILY, _build, "race").hit
    assert [p.name.count(".") for p in cache.iterdir()] == [2]  # one file: no temporary left behind


@pytest.mark.parametrize(
    "changed",
    ["tasks/kit/base.py", "tasks/families/gmail_forward_invoice.py", "companies/catalog.py", "kernel/world.py"],
)
def test_the_code_digest_changes_with_the_kit_a_family_the_companies_or_the_kernel(
    changed: str, monkeypatch: pytest.MonkeyPatch
):
    row_cache.code_digest.cache_clear()
    before = row_cache.code_digest()
    real = Path.read_bytes

    def edited(path: Path) -> bytes:
        return real(path) + (b"# edited" if path.as_posix().endswith(changed) else b"")

    monkeypatch.setattr(Path, "read_bytes", edited)
    row_cache.code_digest.cache_clear()
    try:
        assert row_cache.code_digest() != before
    finally:
        row_cache.code_digest.cache_clear()
