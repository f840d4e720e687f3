"""Box actions on comments: list a file's comments, add one, delete your own."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.box._rules import find_file, require, role_of
from tools.apps.box._views import comment_view
from tools.apps.box.app import app
from tools.apps.box.state import BoxState, Comment
from tools.kernel.exceptions import Conflict, NotFound
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import require_text

__all__ = ["add_comment", "delete_comment", "list_comments"]


@app.action(read_only=True)
def list_comments(ctx: Context[BoxState], file_id: str, page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
    """List the comments on a file, oldest first.

    Example:
        file_id="file_inv_20417" -> Tomas Rivera's note on the courier runs, then Priya Shah's reply.

    Args:
        file_id: The id of the file.
        page: Page number, starting at 1.
        page_size: Comments per page.

    Returns:
        {"file": {"id", "name"}, "results": [{"id", "file_id", "author", "message", "created", "yours"}],
        "page", "page_size", "total", "next_page"}.
    """
    f = find_file(ctx, file_id)
    require(ctx, f, "list", "file_id")
    notes = sorted((c for c in ctx.state.comments.values() if c.file_id == f.id), key=lambda c: (c.created, c.id))
    return {"file": {"id": f.id, "name": f.name}, **page_of([comment_view(ctx, c) for c in notes], page, page_size)}


@app.action(read_only=False)
def add_comment(
    ctx: Context[BoxState], file_id: str, message: Annotated[str, Field(max_length=10_000)]
) -> dict[str, Any]:
    """Add a comment to a file; everyone who can see the file can read it.

    Example:
        file_id="file_inv_20417" message="No concerns from me - OK to approve." -> the new comment.

    Args:
        file_id: The id of the file.
        message: The comment's text.

    Returns:
        The new comment: {"id", "file_id", "author", "message", "created", "yours"}.
    """
    f = find_file(ctx, file_id)
    text = require_text(message, "message")
    require(ctx, f, "comment", "file_id")
    c = Comment(id=ctx.new_id("comment"), file_id=f.id, author=ctx.user, message=text, created=ctx.now)
    ctx.state.comments[c.id] = c
    return comment_view(ctx, c)


@app.action(read_only=False)
def delete_comment(ctx: Context[BoxState], comment_id: str) -> dict[str, Any]:
    """Delete one of your own comments.

    Example:
        comment_id="comment_terms_password_note" -> {"deleted": "comment_terms_password_note", "file_id": ...}.

    Args:
        comment_id: The comment's id (see box list-comments).

    Returns:
        {"deleted": id, "file_id"}.
    """
    c = ctx.state.comments.get(comment_id.strip())
    f = ctx.state.files.get(c.file_id) if c else None
    if c is None or f is None or role_of(ctx, f) is None:
        raise NotFound(f"no comment with id '{comment_id}'; use box list-comments to find ids", "comment_id")
    if c.author.lower() != ctx.user.lower():
        raise Conflict(f"the comment was written by {c.author}; you can delete only your own comments", "comment_id")
    find_file(ctx, f.id, "comment_id")  # a file in the trash is closed to changes
    del ctx.state.comments[c.id]
    return {"deleted": c.id, "file_id": c.file_id}
