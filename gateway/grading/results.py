"""What a grade reports: one result per check, and the reward behind them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CheckResult", "Grade"]


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome, as reported by ``/verify``."""

    name: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        """``{"name", "passed", "detail"}``."""
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class Grade:
    """The reward and the checks behind it."""

    reward: float
    checks: list[CheckResult]


