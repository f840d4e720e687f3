"""Label actions: list and create labels, change a message's labels, archive (take off INBOX), mark read or unread."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.gmail._rules import find_message, find_messages, label_key, relabel, resolve_label
from tools.apps.gmail.app import app
from tools.apps.gmail.state import AUTOMATIC_LABELS, SYSTEM_LABELS, GmailState, Label
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.text import require_text

__all__ = ["archive_message", "create_label", "list_labels", "mark_read", "mark_unread", "modify_labels"]


@app.action(read_only=True)
def list_labels(ctx: Context[GmailState]) -> dict[str, Any]:
    """List every label with how many messages carry it.

    System labels: INBOX, SENT, DRAFT, TRASH, STARRED, IMPORTANT, UNREAD. Counts leave out trashed
    messages (except for TRASH itself); DRAFT counts unsent drafts.

    Example:
        (no parameters) -> [{"name": "INBOX", "type": "system", "messages": 118, "unread": 17}, ...]

    Returns:
        {"labels": [{"name", "type" ("system" or "user"), "messages", "unread"}]}: system labels first,
        then yours by name.
    """
    state = ctx.state
    names = [*SYSTEM_LABELS, *sorted(lab.name for lab in state.labels.values())]
    out = []
    for name in names:
        if name == "DRAFT":
            count, unread = sum(1 for d in state.drafts.values() if not d.sent_message_id), 0
        else:
            tagged = [
                m for m in state.messages.values() if name in m.labels and (name == "TRASH" or "TRASH" not in m.labels)
            ]
            count, unread = len(tagged), sum(1 for m in tagged if "UNREAD" in m.labels)
        kind = "system" if name in SYSTEM_LABELS else "user"
        out.append({"name": name, "type": kind, "messages": count, "unread": unread})
    return {"labels": out}


@app.action(read_only=False)
def create_label(ctx: Context[GmailState], name: Annotated[str, Field(min_length=1, max_length=100)]) -> dict[str, Any]:
    """Create a label of your own to file messages under (then use gmail modify-labels).

    Example:
        name="Board prep" -> {"id": "label_n1", "name": "Board prep", "type": "user"}

    Args:
        name: The label's name, e.g. "Contracts" or "Finance/Invoices".

    Returns:
        {"id", "name", "type": "user"}.
    """
    text = " ".join(require_text(name, "name").split())
    existing = (*SYSTEM_LABELS, *(lab.name for lab in ctx.state.labels.values()))
    clash = next((k for k in existing if label_key(k) == label_key(text)), None)
    if clash is not None:
        raise Conflict(f"a label named '{clash}' already exists; use it with gmail modify-labels", "name")
    label = Label(id=ctx.new_id("label"), name=text)
    ctx.state.labels[label.id] = label
    return {"id": label.id, "name": label.name, "type": "user"}


@app.action(read_only=False)
def modify_labels(
    ctx: Context[GmailState],
    message_id: str,
    add: list[str] = [],  # noqa: B006
    remove: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Add labels to a message or take them off: file it, star it, archive it or mark it read.

    Archive = remove INBOX; mark read = remove UNREAD; mark unread = add UNREAD; star = add STARRED.
    SENT and DRAFT cannot be changed by hand. Label names are not case-sensitive.

    Example:
        message_id="msg_0042" add=["Finance", "STARRED"] remove=["UNREAD", "INBOX"]

    Args:
        message_id: The message's id, from gmail search-messages.
        add: Labels to put on the message (see gmail list-labels).
        remove: Labels to take off the message.

    Returns:
        {"id", "labels": the message's labels now, "added": [...], "removed": [...]}.
    """
    msg = find_message(ctx.state, message_id)
    if not add and not remove:
        raise InvalidArgument("give at least one label in add or remove", "add")
    wanted: dict[str, list[str]] = {}
    for param, values in (("add", add), ("remove", remove)):
        wanted[param] = []
        for value in values:
            name = resolve_label(ctx.state, value, param)
            if name in AUTOMATIC_LABELS:
                raise InvalidArgument(f"{name} is set by sending or drafting and cannot be changed by hand", param)
            if name not in wanted[param]:
                wanted[param].append(name)
    both = [n for n in wanted["add"] if n in wanted["remove"]]
    if both:
        raise InvalidArgument(f"'{both[0]}' is in both add and remove; keep it in one of them", "remove")
    removed = [n for n in wanted["remove"] if n in msg.labels]
    added = [n for n in wanted["add"] if n not in msg.labels]
    msg.labels = [n for n in msg.labels if n not in removed] + added
    return {"id": msg.id, "labels": msg.labels, "added": added, "removed": removed}


@app.action(read_only=False)
def archive_message(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Archive messages: take them out of the inbox (remove INBOX) but keep them, searchable, with their labels.

    To bring a message back to the inbox, add INBOX with gmail modify-labels.

    Example:
        message_ids=["msg_0042", "msg_0043"] -> {"changed": ["msg_0042"], "unchanged": ["msg_0043"]}

    Args:
        message_ids: Ids of the messages to archive, from gmail search-messages.

    Returns:
        {"changed": [ids archived now], "unchanged": [ids that were not in the inbox]}.
    """
    changed, unchanged = relabel(find_messages(ctx.state, message_ids), remove="INBOX")
    return {"changed": changed, "unchanged": unchanged}


@app.action(read_only=False)
def mark_read(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Mark messages as read (remove the UNREAD label).

    Example:
        message_ids=["msg_0042"] -> {"changed": ["msg_0042"], "unchanged": []}

    Args:
        message_ids: Ids of the messages, from gmail search-messages.

    Returns:
        {"changed": [ids marked read now], "unchanged": [ids that were already read]}.
    """
    changed, unchanged = relabel(find_messages(ctx.state, message_ids), remove="UNREAD")
    return {"changed": changed, "unchanged": unchanged}


@app.action(read_only=False)
def mark_unread(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Mark messages as unread (add the UNREAD label), e.g. to come back to them later.

    Example:
        message_ids=["msg_0042"] -> {"changed": ["msg_0042"], "unchanged": []}

    Args:
        message_ids: Ids of the messages, from gmail search-messages.

    Returns:
        {"changed": [ids marked unread now], "unchanged": [ids that were already unread]}.
    """
    changed, unchanged = relabel(find_messages(ctx.state, message_ids), add="UNREAD")
    return {"changed": changed, "unchanged": unchanged}
