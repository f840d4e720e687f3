"""Lookups and rules the helpdesk's actions share: finding tickets, queues and people, dates, what may change."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from pathlib import PurePosixPath
from typing import Annotated

from pydantic import Field

from tools.apps.helpdesk.state import Attachment, HelpdeskState, Queue, Ticket
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant, parse_date, parse_instant
from tools.kits.files import receive_file
from tools.kits.people import directory_of, find_person
from tools.kits.text import fold, require_text

__all__ = [
    "Title",
    "attach_hint",
    "check_title",
    "find_queue",
    "find_ticket",
    "hours_left",
    "load_paths",
    "next_key",
    "parse_bound",
    "parse_due",
    "person_email",
    "require_editable",
    "staff_member",
    "store_attachment",
    "words",
]

#: A ticket title as a parameter: at most 200 characters.
Title = Annotated[str, Field(max_length=200)]

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_WORD = re.compile(r"[a-z0-9]+")


# ---- lookups ----------------------------------------------------------------------------------


def find_ticket(ctx: Context[HelpdeskState], ticket_id: str, parameter: str = "ticket_id") -> Ticket:
    """The ticket with this key ("HD-1042", "hd-1042", "#1042" or "1042").

    Raises:
        NotFound: no such ticket; the message says how to find one.
    """
    key = ticket_id.strip().lstrip("#").upper()
    if key.isdigit():
        key = f"HD-{key}"
    ticket = ctx.state.tickets.get(key)
    if ticket is None:
        raise NotFound(
            f"no ticket '{ticket_id}'; use helpdesk search-tickets to find its key (e.g. HD-1042)", parameter
        )
    return ticket


def find_queue(ctx: Context[HelpdeskState], queue: str, parameter: str = "queue") -> Queue:
    """The queue named by id or name ("it", "Facilities", "people ops", "Finance Ops").

    Raises:
        NotFound: no such queue; the message lists the queues.
    """
    key = fold(queue).replace("_", " ")
    for q in ctx.state.queues.values():
        if key in (fold(q.id).replace("_", " "), fold(q.name)):
            return q
    names = ", ".join(f"{q.name} ({q.id})" for q in ctx.state.queues.values())
    raise NotFound(f"no queue '{queue}'; the queues are: {names}", parameter)


def person_email(ctx: Context[HelpdeskState], who: str, parameter: str) -> str:
    """The email of a person named by email, directory id or full name; "me" is you.

    Raises:
        NotFound: no one in the directory matches.
        InvalidArgument: empty, or not an email address when there is no directory to look in.
    """
    text = who.strip()
    if not text:
        raise InvalidArgument("must name a person (email address or full name)", parameter)
    if fold(text) == "me":
        return ctx.user
    directory = directory_of(ctx)
    if directory is not None:
        return find_person(directory, text, parameter).email
    if not _EMAIL.match(text):
        raise InvalidArgument(f"'{who}' is not an email address; give the person's email", parameter)
    return text.lower()


def staff_member(ctx: Context[HelpdeskState], queue: Queue, who: str, parameter: str) -> str:
    """The email of a person on ``queue``'s support staff, named as :func:`person_email` takes them.

    Raises:
        NotFound: no one in the directory matches.
        Conflict: the person is not on the queue's staff; the message lists the staff.
    """
    email = person_email(ctx, who, parameter)
    if email not in queue.staff:
        staff = ", ".join(queue.staff)
        raise Conflict(
            f"{email} is not on the {queue.name} support staff ({staff}); assign it to one of them, or move the "
            "ticket to the right queue first with helpdesk update-ticket --queue=...",
            parameter,
        )
    return email


def next_key(ctx: Context[HelpdeskState]) -> str:
    """The key of the next new ticket: one above the highest ``HD-<n>`` so far (``HD-1001`` first)."""
    numbers = [int(k.split("-")[1]) for k in ctx.state.tickets if k.startswith("HD-") and k[3:].isdigit()]
    return f"HD-{max(numbers, default=1000) + 1}"


# ---- what callers may give and change ------------------------------------------------------------


def check_title(title: str, parameter: str = "title") -> str:
    """A ticket title, stripped.

    Raises:
        InvalidArgument: empty, or more than one line.
    """
    text = require_text(title, parameter)
    if "\n" in text:
        raise InvalidArgument("must be one line; put details in the description", parameter)
    return text


def require_editable(ticket: Ticket, parameter: str = "ticket_id") -> None:
    """Refuse changes to a closed ticket.

    Raises:
        Conflict: the ticket is closed; the message says how to reopen it.
    """
    if ticket.status == "closed":
        raise Conflict(
            f"{ticket.id} is closed and cannot be changed; reopen it first with helpdesk change-status "
            f"--ticket-id={ticket.id} --status=open, or open a new ticket",
            parameter,
        )


def attach_hint(ticket: Ticket) -> str:
    """What to pass instead of file bytes pasted into a ticket's text: the file's path, to attach-file."""
    return f"path=<its workspace path> to helpdesk attach-file --ticket-id={ticket.id}"


def words(text: str) -> list[str]:
    """The words of ``text`` as ticket search compares them: lower-case runs of letters and digits."""
    return _WORD.findall(fold(text))


# ---- dates ------------------------------------------------------------------------------------


def parse_due(ctx: Context[HelpdeskState], value: str, parameter: str = "due") -> datetime:
    """A due time from a date (meaning 17:00 that day, company time) or an ISO 8601 date-time.

    Raises:
        InvalidArgument: not a date or date-time, or not after now.
    """
    text = value.strip()
    if len(text) <= 10:
        day = parse_date(text, parameter)
        due = datetime.combine(day, time(17, 0), tzinfo=ctx.tz)
    else:
        due = parse_instant(text, ctx.tz, parameter)
    if due <= ctx.now:
        raise InvalidArgument(
            f"'{value}' is not in the future (it is now {format_instant(ctx.now, ctx.tz)}); give a later date",
            parameter,
        )
    return due


def parse_bound(ctx: Context[HelpdeskState], value: str, parameter: str) -> datetime:
    """A search bound from a date (its start, company time) or an ISO 8601 date-time.

    Raises:
        InvalidArgument: not a date or date-time.
    """
    text = value.strip()
    if len(text) <= 10:
        return datetime.combine(parse_date(text, parameter), time(0, 0), tzinfo=ctx.tz)
    return parse_instant(text, ctx.tz, parameter)


def hours_left(ctx: Context[HelpdeskState], ticket: Ticket) -> float:
    """Hours from now to the ticket's due time, to one decimal (negative when overdue)."""
    return round((ticket.due - ctx.now) / timedelta(hours=1), 1)


# ---- attachments ------------------------------------------------------------------------------


def load_paths(ctx: Context[HelpdeskState], paths: list[str], parameter: str) -> list[tuple[str, bytes]]:
    """Read each workspace file as (name, bytes), before anything changes.

    Raises:
        InvalidArgument: files given with no workspace here, or an empty path.
        NotFound: a path holds no file.
    """
    if paths and ctx.files is None:
        raise InvalidArgument(
            "there is no workspace here to attach files from; add a text file with helpdesk attach-file "
            "--content=... --name=...",
            parameter,
        )
    loaded = []
    for p in paths:
        path = require_text(p, parameter)
        loaded.append((PurePosixPath(path).name, receive_file(ctx, "", path, path_param=parameter)))
    return loaded


def store_attachment(ctx: Context[HelpdeskState], ticket: Ticket, name: str, data: bytes) -> Attachment:
    """Keep ``data`` as a blob and attach it to ``ticket`` under ``name``, uploaded by you now."""
    att = Attachment(
        id=ctx.new_id("att"),
        ticket_id=ticket.id,
        name=name,
        mime_type=mime_type_for(name),
        size=len(data),
        blob=ctx.blobs.put(data),
        uploaded_by=ctx.user,
        created=ctx.now,
    )
    ctx.state.attachments[att.id] = att
    return att
