"""Chat actions on direct messages: find or start a conversation with one or more people."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.slack._rules import channel_label, find_dm, me, people_emails
from tools.apps.slack._views import member_view
from tools.apps.slack.app import app
from tools.apps.slack.state import Channel, SlackState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context

__all__ = ["open_dm"]


@app.action(read_only=False)
def open_dm(ctx: Context[SlackState], people: list[str]) -> dict[str, Any]:
    """Find your direct-message conversation with one or more people, starting it if there is none yet.

    One person gives a DM; two to eight give a group DM. Post in it with post-message.

    Example:
        people=["priya.shah@northwind.example"] -> {"id": "dm_priya", "name": "DM with Priya Shah", "created": false}.

    Args:
        people: Who to talk to: email addresses, @first.last ids or full names (not yourself).

    Returns:
        {"id", "name", "kind", "members": [{"email", "name"}], "created": true when it is new}.
    """
    emails = [e for e in people_emails(ctx, people, "people") if e != me(ctx)]
    if not emails:
        raise InvalidArgument("name at least one other person", "people")
    if len(emails) > 8:
        raise InvalidArgument(f"a group DM holds at most 8 other people; got {len(emails)}; create a channel", "people")
    wanted = {*emails, me(ctx)}
    kind: Literal["dm", "group_dm"] = "dm" if len(emails) == 1 else "group_dm"
    ch = find_dm(ctx, wanted, kind)
    created = ch is None
    if ch is None:
        ch = Channel(id=ctx.new_id("dm"), kind=kind, creator=me(ctx), created=ctx.now, members=[me(ctx), *emails])
        ctx.state.channels[ch.id] = ch
    members = [member_view(ctx, m) for m in ch.members]
    return {"id": ch.id, "name": channel_label(ctx, ch), "kind": ch.kind, "members": members, "created": created}
