"""A task id is the same task in every process: rows and company states do not depend on ``PYTHONHASHSEED``.

Each probe builds rows and app states in fresh processes under several hash seeds and compares a sha256 of every
row (by id) and of every company's app state (by company and app). A family that draws from a set of strings or
dates, say, writes another scenario under another seed, so the server and ``tasks --export`` would disagree on
what the same id asks. The full proof builds all of them under two seeds, one process per core (slow tier; a
set's order differs between any two seeds but by chance); the quick one a fixed sample under three.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HASH_SEEDS = ("0", "1", "12345")
#: The full proof's seeds: one process per core of a 2-core machine (three took ~400 s there, two ~250 s less).
FULL_HASH_SEEDS = ("0", "12345")

#: Digests ``{"row <id>": sha256, "state <company> <app>": sha256}`` of the families and companies in argv
#: (JSON; null: every family / the default and every generated company). Rows are built over the generated
#: companies given (all when null), as ``family_rows`` does.
_PROBE = """
import hashlib, json, sys
from gateway.tasks.loader import family_rows
from tools.companies import GENERATED, company_state
from tools.companies.default.company import APPS

names, companies = json.loads(sys.argv[1]), json.loads(sys.argv[2])
keys = companies if companies is not None else ["default", *GENERATED]
def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()
out = {f"row {row['id']}": digest(row) for row in family_rows(names, [k for k in keys if k in GENERATED])}
out.update({f"state {k} {app}": digest(company_state(k, app)) for k in keys for app in APPS})
sys.stdout.write(json.dumps(out))
"""


def _digests(
    names: list[str] | None, companies: list[str] | None, caches: Path | None, seeds: tuple[str, ...] = HASH_SEEDS
) -> dict[str, dict[str, str]]:
    """Each hash seed's digests, built in parallel processes (each with its own document cache when ``caches``)."""
    procs = {}
    for seed in seeds:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        if caches is not None:  # no process reads another's document bytes: each makes its own
            env["XDG_CACHE_HOME"] = str(caches / seed)
        argv = [sys.executable, "-c", _PROBE, json.dumps(names), json.dumps(companies)]
        procs[seed] = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    out = {}
    for seed, proc in procs.items():
        stdout, stderr = proc.communicate()
        assert proc.returncode == 0, f"PYTHONHASHSEED={seed}: {stderr[-2000:]}"
        out[seed] = json.loads(stdout)
    return out


def _assert_same(digests: dict[str, dict[str, str]]) -> None:
    first, *others = digests
    base = digests[first]
    assert base and any(k.startswith("row ") for k in base) and any(k.startswith("state ") for k in base)
    for seed in others:
        assert digests[seed].keys() == base.keys(), f"PYTHONHASHSEED={seed} built other ids than {first}"
        differ = sorted(k for k in base if digests[seed][k] != base[k])
        assert not differ, f"{len(differ)} differ between PYTHONHASHSEED={first} and {seed}: {', '.join(differ[:12])}"


#: A fixed sample for the default tier: the family that once drew dates from a set, three families that use
#: sets on the way (busy hours, a set of numbers, a set of names), a training and a test company.
QUICK_FAMILIES = [
    "slack-thread-who-decided",
    "calendar-book-free-slot",
    "drive-budget-cell-answer",
    "gmail-vacation-leave",
]
QUICK_COMPANIES = ["gen-3", "gen-10"]


def test_a_sample_of_rows_and_company_states_is_the_same_under_three_hash_seeds():
    _assert_same(_digests(QUICK_FAMILIES, QUICK_COMPANIES, None))


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_row_and_company_state_is_the_same_under_two_hash_seeds(tmp_path):
    _assert_same(_digests(None, None, tmp_path, FULL_HASH_SEEDS))
