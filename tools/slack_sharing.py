"""Chat actions beyond channels and messages: direct messages, search, pins, shared files and statuses.

Declared on the same ``app`` as :mod:`tools.slack`, which imports this module.
"""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant
from tools.kits.files import deliver_file, receive_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold, require_text
from tools.slack_model import (
    Channel,
    Message,
    SlackFile,
    SlackState,
    Status,
    app,
    channel_label,
    file_view,
    find_channel,
    find_file,
    find_message,
    matches_text,
    me,
    message_view,
    new_message,
    people_emails,
    person,
    person_name,
    readable_ids,
    refuse_encoded,
    require_writable,
    status_emoji,
    time_bound,
)
from tools.slack_query import compile_query

__all__: list[str] = []

Text = Annotated[str, Field(max_length=4000)]
#: Largest file that can be shared (bytes): 50 MB.
MAX_FILE_BYTES = 50 * 1024 * 1024


# ---- direct messages and search ---------------------------------------------------------------


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
    kind = "dm" if len(emails) == 1 else "group_dm"
    ch = next((c for c in ctx.state.channels.values()
               if c.kind == kind and {m.lower() for m in c.members} == wanted), None)  # fmt: skip
    created = ch is None
    if ch is None:
        ch = Channel(id=ctx.new_id("dm"), kind=kind, creator=me(ctx), created=ctx.now, members=[me(ctx), *emails])
        ctx.state.channels[ch.id] = ch
    members = [{"email": m, "name": person_name(ctx, m)} for m in ch.members]
    return {"id": ch.id, "name": channel_label(ctx, ch), "kind": ch.kind, "members": members, "created": created}


@app.action(read_only=True)
def search_messages(
    ctx: Context[SlackState],
    query: str,
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
    tests = compile_query(ctx, query)
    readable = readable_ids(ctx)
    hits = [
        m
        for m in ctx.state.messages.values()
        if m.channel_id in readable and not m.deleted and all(t(m) for t in tests)
    ]
    hits.sort(key=lambda m: (m.ts, m.id), reverse=sort == "newest")
    return page_of([message_view(ctx, m) for m in hits], page, page_size)


# ---- pins -------------------------------------------------------------------------------------


@app.action(read_only=False)
def pin_message(ctx: Context[SlackState], message_id: str) -> dict[str, Any]:
    """Pin a message to its channel so everyone finds it in the channel's pinned items.

    Example:
        message_id="msg_0123" -> {"id": "msg_0123", "pinned": true, "channel": "#atlas-cutover"}.

    Args:
        message_id: The id of the message to pin.

    Returns:
        {"id", "channel_id", "channel", "pinned": true}.
    """
    msg = find_message(ctx, message_id)
    ch = ctx.state.channels[msg.channel_id]
    require_writable(ctx, ch, "message_id")
    if msg.deleted:
        raise Conflict(f"message '{msg.id}' has been deleted", "message_id")
    if msg.pinned_by:
        raise Conflict(f"message '{msg.id}' is already pinned in {channel_label(ctx, ch)}", "message_id")
    msg.pinned_by, msg.pinned_at = me(ctx), ctx.now
    return {"id": msg.id, "channel_id": ch.id, "channel": channel_label(ctx, ch), "pinned": True}


@app.action(read_only=False)
def unpin_message(ctx: Context[SlackState], message_id: str) -> dict[str, Any]:
    """Unpin a pinned message; the message itself stays.

    Example:
        message_id="msg_0123" -> {"id": "msg_0123", "pinned": false}.

    Args:
        message_id: The id of the pinned message.

    Returns:
        {"id", "channel_id", "channel", "pinned": false}.
    """
    msg = find_message(ctx, message_id)
    ch = ctx.state.channels[msg.channel_id]
    if not msg.pinned_by:
        raise Conflict(f"message '{msg.id}' is not pinned; see slack list-pins", "message_id")
    require_writable(ctx, ch, "message_id")
    msg.pinned_by, msg.pinned_at = "", None
    return {"id": msg.id, "channel_id": ch.id, "channel": channel_label(ctx, ch), "pinned": False}


@app.action(read_only=True)
def list_pins(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """List a channel's pinned messages, most recently pinned first.

    Example:
        channel="#atlas-cutover" -> [{"message": {...the runbook post...}, "pinned_by": ..., "pinned_at": ...}].

    Args:
        channel: The channel's name (#ops or ops), its id, or @person for your DM with them.

    Returns:
        {"channel": {"id", "name"}, "pins": [{"message", "pinned_by", "pinned_at"}]}.
    """
    ch = find_channel(ctx, channel)
    pinned = [m for m in ctx.state.messages.values() if m.channel_id == ch.id and m.pinned_by]
    pinned.sort(key=lambda m: (m.pinned_at or m.ts, m.id), reverse=True)
    pins = [
        {
            "message": message_view(ctx, m),
            "pinned_by": m.pinned_by,
            "pinned_at": format_instant(m.pinned_at, ctx.tz) if m.pinned_at else None,
        }
        for m in pinned
    ]
    return {"channel": {"id": ch.id, "name": channel_label(ctx, ch)}, "pins": pins}


# ---- files ------------------------------------------------------------------------------------


@app.action(read_only=True)
def list_files(
    ctx: Context[SlackState],
    channel: str = "",
    query: str = "",
    user: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List files shared in the conversations you can read, newest first.

    Example:
        channel="#marketing" query="render" -> [{"id": "file_booth_render", "name": "Spring launch booth render.png"}].

    Args:
        channel: Only files shared in this channel (#finance, finance, a channel id or @person).
        query: Words to find in the file's name or title.
        user: Only files shared by this person (email, @first.last or full name; "me" for yours).
        page: Page number, starting at 1.
        page_size: Files per page.

    Returns:
        {"results": [{"id", "name", "title", "mime_type", "size" (bytes), "user", "user_name", "channel_id",
        "channel", "message_id", "created"}], "page", "page_size", "total", "next_page"}.
    """
    only = find_channel(ctx, channel).id if channel.strip() else None
    who = ""
    if user.strip():
        who = me(ctx) if fold(user) == "me" else person(ctx, user, "user")[0]
    readable = readable_ids(ctx)
    hits = [
        f
        for f in ctx.state.files.values()
        if f.channel_id in readable
        and (only is None or f.channel_id == only)
        and (not who or f.user.lower() == who)
        and (not query or matches_text(query, f.name, f.title))
    ]
    hits.sort(key=lambda f: (f.created, f.id), reverse=True)
    return page_of([file_view(ctx, f) for f in hits], page, page_size)


@app.action(read_only=False)
def upload_file(
    ctx: Context[SlackState],
    channel: str,
    path: str = "",
    content: str = "",
    filename: str = "",
    title: str = "",
    comment: Text = "",
    thread_id: str = "",
) -> dict[str, Any]:
    """Share a file in a channel or DM, from your workspace or from text you give, with an optional comment.

    Give exactly one of path and content. Any kind of file can be shared from the workspace (PDF,
    spreadsheet, image, ...); content takes plain text only, never encoded bytes.

    Example:
        channel="#ops" path="downloads/Kinzie floor plan.pdf" comment="Floor plan for 45 desks" -> the file.

    Args:
        channel: Where to share it: #name, a channel id, a DM id or @person; you must be a member.
        path: Path of a workspace file to share.
        content: Text to share as a file instead of a workspace file (then filename is required).
        filename: The file's name with its extension; default: the workspace file's name.
        title: A title shown instead of the file name; default: the file name.
        comment: A message posted with the file.
        thread_id: Share it as a reply in this thread (id of a message in the same conversation).

    Returns:
        {"file": {"id", "name", "title", "mime_type", "size", ...}, "message": the message carrying the file}.
    """
    ch = find_channel(ctx, channel)
    parent: Message | None = None
    if thread_id.strip():
        parent = find_message(ctx, thread_id, "thread_id")
        if parent.thread_id:
            parent = ctx.state.messages[parent.thread_id]
        if parent.channel_id != ch.id:
            raise InvalidArgument(f"message '{thread_id}' is not in {channel_label(ctx, ch)}", "thread_id")
    name = filename.strip() or PurePosixPath(path.strip()).name
    if not name:
        raise InvalidArgument("give the file's name, e.g. notes.md, when sharing text content", "filename")
    if "/" in name or "\\" in name:
        raise InvalidArgument(f"'{name}' contains a slash; give just the file name", "filename")
    if content:
        refuse_encoded(content)
    require_writable(ctx, ch)
    data = receive_file(ctx, content, path)
    if len(data) > MAX_FILE_BYTES:
        raise InvalidArgument(f"the file is {len(data)} bytes; the limit is {MAX_FILE_BYTES} bytes", "path")
    f = SlackFile(
        id=ctx.new_id("file"),
        name=name,
        title=title.strip() or name,
        mime_type=mime_type_for(name),
        size=len(data),
        blob=ctx.blobs.put(data),
        user=me(ctx),
        channel_id=ch.id,
        created=ctx.now,
    )
    msg = new_message(ctx, ch, comment.strip(), parent.id if parent else "")
    msg.files = [f.id]
    f.message_id = msg.id
    ctx.state.files[f.id] = f
    return {"file": file_view(ctx, f), "message": message_view(ctx, msg)}


@app.action(read_only=True)
def download_file(ctx: Context[SlackState], file_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a shared file.

    When you have a workspace the file is saved there (under downloads/ unless save_as says where)
    and you get its path; otherwise a text file's content is returned directly.

    Example:
        file_id="file_booth_render" save_as="marketing/booth.png" -> {"saved_to": "marketing/booth.png", ...}.

    Args:
        file_id: The file's id, from list-files or a message's "files".
        save_as: Workspace path to save the file to; default downloads/<file name>.

    Returns:
        {"id", "name", "mime_type", "size" (bytes), and "saved_to" (workspace path) or "content" (text)}.
    """
    f = find_file(ctx, file_id)
    got = deliver_file(ctx, f.name, ctx.blobs.get(f.blob), save_as)
    return {"id": f.id, "name": f.name, "mime_type": f.mime_type, **got}


# ---- statuses ---------------------------------------------------------------------------------


def _status_view(ctx: Context[SlackState], email: str, name: str) -> dict[str, Any]:
    pid = email.split("@")[0]
    rec = ctx.state.statuses.get(pid)
    live = rec is not None and (rec.expires is None or rec.expires > ctx.now)
    return {
        "email": email,
        "name": name,
        "status_text": rec.text if rec and live else "",
        "status_emoji": rec.emoji if rec and live else "",
        "status_expires": format_instant(rec.expires, ctx.tz) if rec and live and rec.expires else None,
    }


@app.action(read_only=True)
def get_user_status(ctx: Context[SlackState], user: str) -> dict[str, Any]:
    """Show a colleague's status (e.g. out of office, on call) with their title and local time.

    Example:
        user="Mia Thompson" -> {"status_text": ..., "status_emoji": ":pager:", "local_time": ...}.

    Args:
        user: The colleague's email address, @first.last id or full name.

    Returns:
        {"email", "name", "title", "status_text", "status_emoji", "status_expires", "timezone", "local_time"}.
    """
    email, name = person(ctx, user, "user")
    out = _status_view(ctx, email, name)
    directory = ctx.other("directory")
    card = next((p for p in getattr(directory, "people", {}).values() if p.email.lower() == email), None)
    tz_name = card.timezone if card else ctx.world.timezone
    out.update(
        title=card.title if card else "",
        timezone=tz_name,
        local_time=format_instant(ctx.now, ZoneInfo(tz_name)),
    )
    return out


@app.action(read_only=False)
def set_my_status(
    ctx: Context[SlackState],
    text: Annotated[str, Field(max_length=100)] = "",
    emoji: str = "",
    expires: str = "",
    clear: bool = False,
) -> dict[str, Any]:
    """Set your own status text and emoji, optionally clearing itself at a given time; or clear it.

    A status with text but no emoji gets :speech_balloon:.

    Example:
        text="Out sick" emoji=":face_with_thermometer:" expires="2026-03-10" -> your new status.

    Args:
        text: Status text, e.g. "Out sick" or "In Chicago until Thursday".
        emoji: Emoji name with or without colons, e.g. ":palm_tree:" or "palm_tree".
        expires: When the status clears itself: ISO 8601 date-time (a date alone means the end of that day).
        clear: True to clear your status (give nothing else).

    Returns:
        {"email", "name", "status_text", "status_emoji", "status_expires"}.
    """
    mine = me(ctx)
    pid = mine.split("@")[0]
    if clear:
        if text or emoji or expires:
            raise InvalidArgument("clear=true takes no text, emoji or expires", "clear")
        rec = ctx.state.statuses.get(pid)
        if rec is not None and (rec.text or rec.emoji or rec.expires):
            rec.text, rec.emoji, rec.expires = "", "", None
        return _status_view(ctx, mine, person_name(ctx, mine))
    if not text.strip() and not emoji.strip():
        raise InvalidArgument("give a status text and/or an emoji, or clear=true to remove your status", "text")
    face = status_emoji(emoji) if emoji.strip() else ":speech_balloon:"
    until = time_bound(ctx, expires, "expires", end=True)
    if until is not None and until <= ctx.now:
        raise InvalidArgument(f"expires must be in the future (now is {format_instant(ctx.now, ctx.tz)})", "expires")
    rec = ctx.state.statuses.get(pid)
    if rec is None:
        ctx.state.statuses[pid] = Status(id=pid, email=mine, text=text.strip(), emoji=face, expires=until)
    else:
        rec.text, rec.emoji, rec.expires = text.strip(), face, until
    return _status_view(ctx, mine, person_name(ctx, mine))
