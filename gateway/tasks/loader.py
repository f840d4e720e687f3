"""The one door from the machinery to the task content: families by name, their rows, the hand-written rows.

Families are code that writes task rows, one per company and instance seed
(:mod:`gateway.tasks.families`, one module each); the hand-written rows are JSONL files in
``gateway/tasks/rows/``. Nothing is imported or built before it is asked for: :func:`family_names`
and :func:`row_files` import no family, :func:`family_rows` builds only the families it is given.

Built rows are kept on disk (:mod:`gateway.tasks.row_cache`): :func:`cached_family` answers a family's rows as
JSON lines, and the few facts ``tasks --stats`` counts, from the cache while the code that builds them is
unchanged, and builds (and keeps) them otherwise.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from gateway.tasks.kit.base import SPLITS, Family, Instance, Tier, instance_row, tier_of
from gateway.tasks.row_cache import CachedFamily, load_or_build
from tools.companies import GENERATED, company

__all__ = [
    "SPLITS",
    "CachedFamily",
    "Family",
    "Instance",
    "Tier",
    "cached_family",
    "content_folder",
    "families",
    "family_rows",
    "instance_row",
    "row_files",
    "tier_of",
]


@functools.cache
def families() -> dict[str, Family]:
    """Every built-in family by name, in module-name order (imports every family module once).

    Raises:
        ValueError: a family's name does not match its module's.
    """
    from gateway.tasks.families import MODULES

    out: dict[str, Family] = {}
    for module in MODULES:
        short = module.__name__.rsplit(".", 1)[-1]
        family = getattr(module, "FAMILY", None)
        if not isinstance(family, Family):
            raise ValueError(f"gateway/tasks/families/{short}.py has no FAMILY = Family(...)")
        if family.name.replace("-", "_") != short:
            raise ValueError(f"gateway/tasks/families/{short}.py: FAMILY.name {family.name!r} is not the module's name")
        out[family.name] = family
    return out


def family_rows(names: Iterable[str] | None = None, companies: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The rows of every instance of the named families over the named companies, in family, company, seed order.

    Families default to all of :func:`families`; companies to all of :data:`tools.companies.GENERATED`.

    Raises:
        KeyError: an unknown family name.
    """
    known = families()
    chosen = [known[n] for n in names] if names is not None else list(known.values())
    keys = list(companies) if companies is not None else list(GENERATED)
    return [instance_row(f, company(k), seed) for f in chosen for k in keys for seed in range(f.seeds)]


def cached_family(name: str, salt: str = "") -> CachedFamily:
    """One built-in family's rows over every generated company, as JSON lines, kept on disk between processes.

    Args:
        name: A family of :func:`families`.
        salt: What else the rows' meaning depends on, from the caller (the machinery passes its grading and row
            schema code's digest), so a change there builds them again.

    Raises:
        KeyError: an unknown family name.
    """
    family = families()[name]
    return load_or_build(family, lambda: family_rows([name]), salt)


def row_files() -> list[Traversable]:
    """The hand-written row files (``gateway/tasks/rows/*.jsonl``), in file-name order."""
    folder = resources.files(__package__ or "gateway.tasks").joinpath("rows")
    return sorted((e for e in folder.iterdir() if e.name.endswith(".jsonl")), key=lambda e: e.name)


def content_folder() -> str:
    """The folder of every task's content (rows, families, their checks and solutions): no sandbox may read it."""
    return str(resources.files(__package__ or "gateway.tasks"))
