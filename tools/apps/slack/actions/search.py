"""Chat actions that search: find the messages you can read with the chat's search language."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.slack._rules import message_tests, readable_ids
from tools.apps.slack._views import message_view
from tools.apps.slack.app import app
from tools.apps.slack.state import SlackState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, require_text

__all__ = ["search_messages"]


@app.action(read_only=True)
def search_messages(
    ctx: Context[SlackState],
    query: SearchText,
    sort: Literal["newest", "oldest"] = "newest",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Search the messages you can read (public channels, your private channels and DMs), replies included.

    Every term must match; "-word" excludes. Terms: words and "quoted phrases" (text and file names);
    in:#channel, in:@person (your DMs with them); from:@first.last, from:me; before:YYYY-MM-DD and
    after:YYYY-MM-DD (that day excluded), on:YYYY-MM-DD; has:file, has:pin, has:reaction, has:link;
    is:thread (thread replies only). Dates are in the company's time zone.

    Example:
        query="dry run in:#atlas-cutover from:@mia.thompson after:2026-03-01" -> matching messages, newest first.

    Args:
        query: The search terms, e.g. "cutover in:#atlas-cutover has:pin".
        sort: "newest" first (default) or "oldest" first.
        page: Page number, starting at 1.
        page_size: Messages per page.

    Returns:
        {"results": [message with "channel" and "thread_id"], "page", "page_size", "total", "next_page"}.
    """
    require_text(query, "query")
    tests = message_tests(ctx, query)
    readable = readable_ids(ctx)
    hits = [
        m
        for m in ctx.state.messages.values()
        if m.channel_id in readable and not m.deleted and all(t(m) for t in tests)
    ]
    hits.sort(key=lambda m: (m.ts, m.id), reverse=sort == "newest")
    return page_of(hits, page, page_size, view=lambda m: message_view(ctx, m))
