"""Companies a world can start from: the authored default company and seeded generated ones.

A company is named by a key: ``"default"`` (Northwind Traders, authored by hand) or ``"gen-<n>"``
(generated from seed ``n`` by :func:`tools.companies.generated.org.generate_org` plus each app's
background (:mod:`tools.companies.generated`)). Only the companies of the catalogue exist: ``"default"`` and the
keys of :data:`GENERATED`, spelt exactly. A company's app states are built when first asked for and kept for the
:func:`company_cache_size` companies used last (least recently used out), handed out as fresh copies; a world
template validates them once and shares them read-only.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections import OrderedDict
from copy import deepcopy
from typing import Any

from tools.companies.base import Company, CompanyError, Split
from tools.companies.default.company import APPS, COMPANY, NOW, TIMEZONE, USER, build_default
from tools.companies.default.people import DOMAIN, people_records
from tools.companies.generated.backgrounds import BACKGROUNDS
from tools.companies.generated.org import generate_org

__all__ = [
    "GENERATED",
    "Company",
    "CompanyError",
    "Split",
    "check_company",
    "company",
    "company_cache_size",
    "company_state",
    "set_company_cache_size",
]

#: The generated companies the built-in task families are instantiated over, with the split each belongs to.
#: Whole companies are held out: validation and test rows never share a company with training rows.
GENERATED: dict[str, Split] = {
    **{f"gen-{n}": "train" for n in range(1, 9)},
    "gen-9": "validation",
    "gen-10": "test",
    "gen-11": "test",
}


#: Every company key there is: the authored default company and the generated ones above.
KEYS: frozenset[str] = frozenset({"default", *GENERATED})

_building = threading.RLock()  # one build at a time (builds run in worker threads); reads take no lock
#: Key -> (company, app name -> that app's initial state), the one used last at the end.
_built: OrderedDict[str, tuple[Company, dict[str, dict[str, Any]]]] = OrderedDict()
_cache_size = len(KEYS)


def company_cache_size() -> int:
    """How many companies' records are kept built (least recently used out); every one of the catalogue by default."""
    return _cache_size


def set_company_cache_size(size: int) -> None:
    """Keep at most ``size`` companies built (at least 1); those used longest ago are dropped at once.

    A dropped company is built again when next asked for (0.1-4 s); world templates built from it keep their states.

    Raises:
        ValueError: ``size`` is below 1.
    """
    global _cache_size
    if size < 1:
        raise ValueError(f"the company cache holds at least 1 company, not {size}")
    with _building:
        _cache_size = size
        _trim()


def _trim() -> None:
    while len(_built) > _cache_size:
        _built.popitem(last=False)


def check_company(key: str) -> None:
    """Refuse a key that names no company of the catalogue, without building anything.

    Raises:
        CompanyError: ``key`` is neither ``"default"`` nor one of :data:`GENERATED` (exact spelling: no
            spaces, no newline, no leading zero).
    """
    if not isinstance(key, str) or key not in KEYS:
        shown = key[:40] if isinstance(key, str) else key
        raise CompanyError(f"unknown company {shown!r}; use 'default' or 'gen-<n>' for n from 1 to {len(GENERATED)}")


def _cached(key: str) -> tuple[Company, dict[str, dict[str, Any]]] | None:
    """The cache entry of ``key`` marked used last, or None (no lock: each step is one atomic dict operation)."""
    entry = _built.get(key)
    if entry is not None:
        with contextlib.suppress(KeyError):  # dropped by another thread just now: still good for this caller
            _built.move_to_end(key)
    return entry


def _entry(key: str) -> tuple[Company, dict[str, dict[str, Any]]]:
    """The cache entry of catalogue company ``key``, built on first use and marked used last."""
    entry = _cached(key)
    if entry is not None:
        return entry
    with _building:
        entry = _cached(key)
        if entry is not None:
            return entry
        if key == "default":
            info = Company(key, COMPANY, DOMAIN, NOW, TIMEZONE, USER, people_records(), "train")
        else:
            org = generate_org(int(key.removeprefix("gen-")))
            info = Company(key, org.name, org.domain, org.now, org.timezone, org.user, org.people, GENERATED[key])
        entry = _built[key] = (info, {})
        _trim()
        return entry


def company(key: str) -> Company:
    """The company named ``key`` (built when first asked for; kept among the last :func:`company_cache_size` used).

    Raises:
        CompanyError: ``key`` is neither ``"default"`` nor one of :data:`GENERATED` (exact spelling).
    """
    check_company(key)
    return _entry(key)[0]


def _generated_app(key: str, app: str) -> dict[str, Any]:
    """One app's initial state in generated company ``key`` (built once while the company is kept)."""
    info, apps = _entry(key)
    state = apps.get(app)
    if state is not None:
        return state
    with _building:
        state = apps.get(app)
        if state is None:
            if app == "directory":
                state = {"people": info.people}
            else:
                build = BACKGROUNDS.get(app)
                # an app with no background starts empty
                state = dict(build(info, random.Random(f"background:{key}:{app}"))) if build else {}
            apps[app] = state
        return state


def company_state(key: str, app: str, copy: bool = True) -> dict[str, Any]:
    """A fresh copy of ``app``'s initial state in company ``key`` (``{}`` for an app it does not have).

    Args:
        copy: False hands out the generated company's own dict, for a reader that never writes it
            (validation); the default company is always a copy.

    Raises:
        CompanyError: an unknown company key.
    """
    check_company(key)
    if key == "default":
        state: dict[str, Any] = build_default(app).get(app, {})
        return state
    if app not in APPS:
        return {}
    state = _generated_app(key, app)
    return deepcopy(state) if copy else state
