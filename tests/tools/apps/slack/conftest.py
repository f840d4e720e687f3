"""What the chat's tests share: well-known messages and people, a context, and a refusal that changes nothing."""

from __future__ import annotations

from typing import Any

from tests.tools.apps.conftest import app_ctx
from tools.apps.slack import SlackState
from tools.companies import NOW, USER
from tools.companies.default.people import people_records
from tools.companies.default.slack import build
from tools.kernel.world import Context, FileStore

DANA = "dana.whitfield@northwind.example"
PRIYA = "priya.shah@northwind.example"
ZOE = "zoe.adams@northwind.example"
TOMAS_QUESTION = "msg_0190"  # Tomas asks Alex about INV-20417 in #finance (one reply from Priya)
DASHBOARD_THREAD = "msg_0167"  # Liam asks who owns the checkout dashboard (three replies)
BRIDGE = "msg_0233"  # Mia's dry-run bridge link in #atlas-cutover


def state() -> SlackState:
    """The chat's default-company state, built afresh from its fixture."""
    return SlackState.model_validate(build(people_records(), NOW, USER))


def ctx(files: FileStore | None = None) -> Context[Any]:
    """A world holding the chat and the directory, over the company's shared documents."""
    return app_ctx("slack", files)

