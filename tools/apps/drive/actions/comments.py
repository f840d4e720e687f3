"""Drive actions for comments: list, add, reply to and resolve comments on a file."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import RANK, access, file_text, get_comment, get_versioned_file, require_comment
from tools.apps.drive._views import comment_view
from tools.apps.drive.app import app
from tools.apps.drive.state import Comment, DriveState, Reply
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, fold, require_text

__all__ = ["add_comment", "list_comments", "reply_to_comment", "resolve_comment"]


@app.action(read_only=True)
def list_comments(
    ctx: Context[DriveState],
    file_id: str,
    include_resolved: bool = False,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the comments on a file, oldest first, each with its replies.

    Resolved comments are left out unless asked for.

    Example:
        file_id="file_offsite_agenda_draft" -> Marcus Reed's and Dana Whitfield's open comments with replies.

    Args:
        file_id: The id of the file.
        include_resolved: Also list comments that were resolved.
        page: Page number, starting at 1.
        page_size: Comments per page.

    Returns:
        {"file": {"id", "name"}, "results": [{"id", "file_id", "author", "body", "quote", "created", "resolved",
        "resolved_by", "replies": [{"id", "author", "body", "created"}]}], "page", "page_size", "total",
        "next_page"}.
    """
    f = get_versioned_file(ctx, file_id)
    items = [c for c in ctx.state.comments.values() if c.file_id == f.id and (include_resolved or not c.resolved)]
    items.sort(key=lambda c: (c.created, c.id))
    out = page_of([comment_view(ctx, c) for c in items], page, page_size)
    return {"file": {"id": f.id, "name": f.name}, **out}


@app.action(read_only=False)
def add_comment(ctx: Context[DriveState], file_id: str, text: LongText, quote: str = "") -> dict[str, Any]:
    """Comment on a file, optionally on a passage of it; everyone who can open the file sees it.

    You need comment or edit access. A quote must be words that appear in the file's text.

    Example:
        file_id="file_q2_budget_draft" text="Can we keep contractors at 40K?" quote="Contractors" -> the comment.

    Args:
        file_id: The id of the file.
        text: What you want to say.
        quote: Exact words of the file the comment is about (optional).

    Returns:
        The new comment: {"id", "file_id", "author", "body", "quote", "created", "resolved", "resolved_by",
        "replies"}.
    """
    f = get_versioned_file(ctx, file_id)
    body = require_text(text, "text")
    require_comment(ctx, f, "file_id")
    quote = quote.strip()
    if quote and fold(quote) not in file_text(ctx, f):
        raise InvalidArgument(
            f"'{quote}' does not appear in '{f.name}'; quote the file's exact words or leave quote empty", "quote"
        )
    c = Comment(id=ctx.new_id("cmt"), file_id=f.id, author=ctx.user, body=body, quote=quote, created=ctx.now)
    ctx.state.comments[c.id] = c
    return comment_view(ctx, c)


@app.action(read_only=False)
def reply_to_comment(ctx: Context[DriveState], comment_id: str, text: LongText) -> dict[str, Any]:
    """Answer a comment in its thread. Replying to a resolved comment opens it again.

    Example:
        comment_id="cmt_0001" text="Moved your session to Thursday 14:00." -> the comment with the new reply.

    Args:
        comment_id: The comment's id (from list-comments).
        text: Your reply.

    Returns:
        The comment with its replies (as list-comments shows it) and "reopened" (true when it had been resolved).
    """
    c, f = get_comment(ctx, comment_id)
    body = require_text(text, "text")
    require_comment(ctx, f, "comment_id")
    reopened = c.resolved
    c.replies = [*c.replies, Reply(id=ctx.new_id("rpl"), author=ctx.user, body=body, created=ctx.now)]
    if reopened:
        c.resolved = False
        c.resolved_by = ""
    return {**comment_view(ctx, c), "reopened": reopened}


@app.action(read_only=False)
def resolve_comment(ctx: Context[DriveState], comment_id: str) -> dict[str, Any]:
    """Mark a comment as resolved (done); it leaves the list of open comments.

    The comment's author and anyone with edit access to the file can resolve it.

    Example:
        comment_id="cmt_0001" -> the comment with "resolved": true.

    Args:
        comment_id: The comment's id (from list-comments).

    Returns:
        The comment (as list-comments shows it).
    """
    c, f = get_comment(ctx, comment_id)
    if c.resolved:
        raise Conflict(f"comment '{c.id}' was already resolved by {c.resolved_by}", "comment_id")
    if c.author.lower() != ctx.user.lower():
        role = access(ctx.state, f, ctx.user)
        if RANK.get(role or "", 0) < RANK["writer"]:
            raise Conflict(
                f"only the comment's author ({c.author}) or someone with edit access can resolve it; you have {role}"
                " access",
                "comment_id",
            )
        if f.trashed:
            raise Conflict(f"'{f.name}' ({f.id}) is in the trash; use drive restore-file first", "comment_id")
    c.resolved = True
    c.resolved_by = ctx.user
    return comment_view(ctx, c)
