"""Companies a world can start from: the authored default company and seeded generated ones.

A company is named by a key: ``"default"`` (Northwind Traders, authored by hand) or ``"gen-<n>"``
(generated from seed ``n`` by :func:`tools.companies.generated.org.generate_org` plus each app's
background (:mod:`tools.companies.generated`)). A company's app states are built once per process and handed out as
fresh copies; a world template validates them once and shares them read-only.
"""

from __future__ import annotations

import functools
import random
import re
from copy import deepcopy
from typing import Any

from tools.companies.base import Company, CompanyError, Split
from tools.companies.default.company import APPS, COMPANY, NOW, TIMEZONE, USER, build_default
from tools.companies.default.people import DOMAIN, people_records
from tools.companies.generated.backgrounds import BACKGROUNDS
from tools.companies.generated.org import generate_org

__all__ = ["GENERATED", "Company", "CompanyError", "Split", "company", "company_state"]

#: The generated companies the built-in task families are instantiated over, with the split each belongs to.
#: Whole companies are held out: validation and test rows never share a company with training rows.
GENERATED: dict[str, Split] = {
    **{f"gen-{n}": "train" for n in range(1, 9)},
    "gen-9": "validation",
    "gen-10": "test",
    "gen-11": "test",
}

_KEY = re.compile(r"^gen-([1-9][0-9]{0,5})$")


def _seed(key: str) -> int:
    match = _KEY.match(key)
    if key != "default" and not match:
        raise CompanyError(f"unknown company {key[:40]!r}; use 'default' or 'gen-<n>' (n from 1)")
    return int(match.group(1)) if match else 0


@functools.cache
def company(key: str) -> Company:
    """The company named ``key`` (built once per process).

    Raises:
        CompanyError: ``key`` is neither ``"default"`` nor ``"gen-<n>"``.
    """
    seed = _seed(key)
    if key == "default":
        return Company(key, COMPANY, DOMAIN, NOW, TIMEZONE, USER, people_records(), "train")
    org = generate_org(seed)
    return Company(key, org.name, org.domain, org.now, org.timezone, org.user, org.people, GENERATED.get(key, "train"))


@functools.cache
def _generated_app(key: str, app: str) -> dict[str, Any]:
    """One app's initial state in generated company ``key`` (built once per process)."""
    info = company(key)
    if app == "directory":
        return {"people": info.people}
    build = BACKGROUNDS.get(app)
    if build is None:
        return {}  # an app with no background starts empty
    return dict(build(info, random.Random(f"background:{key}:{app}")))


def company_state(key: str, app: str, copy: bool = True) -> dict[str, Any]:
    """A fresh copy of ``app``'s initial state in company ``key`` (``{}`` for an app it does not have).

    Args:
        copy: False hands out the generated company's own dict, for a reader that never writes it
            (validation); the default company is always a copy.

    Raises:
        CompanyError: an unknown company key.
    """
    _seed(key)
    if key == "default":
        state: dict[str, Any] = build_default(app).get(app, {})
        return state
    if app not in APPS:
        return {}
    state = _generated_app(key, app)
    return deepcopy(state) if copy else state
