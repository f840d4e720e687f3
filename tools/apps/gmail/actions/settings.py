"""Settings actions: the vacation reply (show, set)."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._views import vacation_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import GmailState, Vacation
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context, parse_date
from tools.kits.text import LongText

__all__ = ["get_vacation", "set_vacation"]


@app.action(read_only=True)
def get_vacation(ctx: Context[GmailState]) -> dict[str, Any]:
    """Show your vacation reply (out-of-office): whether it is on, its text and its dates.

    Example:
        (no parameters) -> {"enabled": false, "subject": "", "body": "", "start_date": "", "end_date": "", ...}

    Returns:
        {"enabled", "subject", "body", "start_date", "end_date" (YYYY-MM-DD or "" for none), "company_only",
        "replying_now": true when it is on and today is within its dates}.
    """
    return vacation_view(ctx, ctx.state.vacation)


@app.action(read_only=False)
def set_vacation(
    ctx: Context[GmailState],
    enabled: bool,
    subject: str = "",
    body: LongText = "",
    start_date: str = "",
    end_date: str = "",
    company_only: bool = False,
) -> dict[str, Any]:
    """Turn your vacation reply (out-of-office) on or off.

    Turning it on saves every field as given: body is required, start_date defaults to today and
    an empty end_date means it runs until you turn it off. The first and last day are both
    included. Turning it off keeps the saved text and dates for next time (other fields are ignored).

    Example:
        enabled=true subject="Out of office" body="I'm in Chicago until April 2; Amelia Ward can help."
        start_date="2026-03-31" end_date="2026-04-02"

    Args:
        enabled: true to turn the reply on, false to turn it off.
        subject: Subject of the reply (e.g. "Out of office"); empty uses "Re:" and the original subject.
        body: The reply text.
        start_date: First day the reply is sent, YYYY-MM-DD. Defaults to today.
        end_date: Last day the reply is sent, YYYY-MM-DD, on or after start_date; empty for no last day.
        company_only: Reply only to people at your company.

    Returns:
        The vacation settings, as gmail get-vacation shows them.
    """
    state = ctx.state
    if not enabled:
        state.vacation = state.vacation.model_copy(update={"enabled": False, "updated": ctx.now})
        return vacation_view(ctx, state.vacation)
    text = body.strip()
    if not text:
        raise InvalidArgument("give the reply text in body to turn the vacation reply on", "body")
    today = ctx.now.astimezone(ctx.tz).date()
    first = parse_date(start_date, "start_date") if start_date.strip() else today
    last = parse_date(end_date, "end_date") if end_date.strip() else None
    if last is not None and last < first:
        raise InvalidArgument(
            f"end_date ({last.isoformat()}) is before start_date ({first.isoformat()}); the last day must be on "
            "or after the first",
            "end_date",
        )
    if last is not None and last < today:
        raise InvalidArgument(f"end_date ({last.isoformat()}) has already passed (today is {today})", "end_date")
    state.vacation = Vacation(
        enabled=True,
        subject=" ".join(subject.split()),
        body=text,
        start_date=first,
        end_date=last,
        company_only=company_only,
        updated=ctx.now,
    )
    return vacation_view(ctx, state.vacation)
