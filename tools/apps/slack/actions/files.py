"""Chat actions on shared files: list, share from the workspace or from text, download into the workspace."""

from __future__ import annotations

from typing import Any

from tools.apps.slack._rules import (
    MAX_FILE_BYTES,
    Text,
    channel_label,
    find_channel,
    find_file,
    find_message,
    matches_text,
    me,
    new_message,
    person,
    readable_ids,
    require_writable,
    shared_file_name,
    thread_parent,
)
from tools.apps.slack._views import file_view, message_view
from tools.apps.slack.app import app
from tools.apps.slack.state import Message, SlackFile, SlackState
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import deliver_file, receive_file, refuse_encoded, refuse_folder_path, refuse_typed_document
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import FileText, SearchText, fold

__all__ = ["download_file", "list_files", "upload_file"]


@app.action(read_only=True)
def list_files(
    ctx: Context[SlackState],
    channel: str = "",
    query: SearchText = "",
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
    content: FileText = "",
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
        parent = thread_parent(ctx, find_message(ctx, thread_id, "thread_id"))
        if parent.channel_id != ch.id:
            raise InvalidArgument(f"message '{thread_id}' is not in {channel_label(ctx, ch)}", "thread_id")
    refuse_folder_path(path)
    name = shared_file_name(filename, path)
    if content:
        refuse_encoded(content, "content")
        refuse_typed_document(name, content)
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
