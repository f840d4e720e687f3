"""Helpers the mail app's tests share: two colleagues' addresses, a search expected to find one message,
a call expected to fail without changing the world, and an attachment's bytes.

Import them as ``from tests.tools.apps.gmail.conftest import ...``.
"""

from __future__ import annotations

from typing import Any

from tests.tools.apps.conftest import call
from tools.apps.gmail import Attachment
from tools.kernel.world import Context

PRIYA = "priya.shah@northwind.example"
MARCUS = "marcus.reed@northwind.example"


def data_of(c: Context[Any], att: Attachment) -> bytes:
    """The bytes of an attachment record, from the world's blob store."""
    return c.world.blobs.get(att.blob)


def only(c: Context[Any], query: str) -> dict[str, Any]:
    """The one search result of ``query`` (fails when there are none or several)."""
    out = call(c, "search_messages", query=query)
    assert out["total"] == 1, [r["subject"] for r in out["results"]]
    return out["results"][0]

