"""Task families: code that writes many task rows, one per company and instance seed.

Every family is one module in this folder, ``<name with underscores>.py``, holding
``FAMILY = Family(...)`` (see :mod:`gateway.families.base` for the shape). :data:`FAMILIES` finds
them all; :func:`family_rows` instantiates them over the built-in generated companies
(:data:`tools.fixtures.GENERATED`), ``seeds`` instances per company each.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any

from gateway.families.base import SPLITS, Family, Instance, Tier, instance_row, tier_of
from tools.fixtures import GENERATED, company

__all__ = ["SPLITS", "Family", "Instance", "Tier", "families", "family_rows", "instance_row", "tier_of"]


@functools.cache
def families() -> dict[str, Family]:
    """Every built-in family by name, in module order.

    Raises:
        ValueError: a family module has no ``FAMILY``, or its name does not match the module's.
    """
    out: dict[str, Family] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if not isinstance(family, Family):
            raise ValueError(f"gateway/families/{info.name}.py has no FAMILY = Family(...)")
        if family.name.replace("-", "_") != info.name:
            raise ValueError(f"gateway/families/{info.name}.py: FAMILY.name {family.name!r} must be the module's name")
        out[family.name] = family
    return out


def family_rows(names: Iterable[str] | None = None, companies: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The rows of every instance of the named families over the named companies, in family, company, seed order.

    Families default to all of :func:`families`; companies to all of :data:`tools.fixtures.GENERATED`.

    Raises:
        KeyError: an unknown family name.
    """
    known = families()
    chosen = [known[n] for n in names] if names is not None else list(known.values())
    keys = list(companies) if companies is not None else list(GENERATED)
    return [instance_row(f, company(k), seed) for f in chosen for k in keys for seed in range(f.seeds)]
