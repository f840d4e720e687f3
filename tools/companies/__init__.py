"""Companies: the authored default company and seeded generated ones.

``build_default()`` returns the JSON-able dict of every app's initial state of the default company,
the same on every call and every machine (fixed seed, frozen clock). ``company(key)`` and
``company_state(key, app)`` name any company of the catalogue, generated ones (``"gen-1"`` .. ``"gen-11"``)
included. Tasks layer their overrides on top of a company's state.
"""

from tools.companies.base import Company, CompanyError, Split
from tools.companies.catalog import (
    GENERATED,
    check_company,
    company,
    company_cache_size,
    company_state,
    set_company_cache_size,
)
from tools.companies.default.company import COMPANY, DOMAIN, NOW, TIMEZONE, USER, build_default

__all__ = [
    "COMPANY",
    "DOMAIN",
    "GENERATED",
    "NOW",
    "TIMEZONE",
    "USER",
    "Company",
    "CompanyError",
    "Split",
    "build_default",
    "check_company",
    "company",
    "company_cache_size",
    "company_state",
    "set_company_cache_size",
]
