"""Rules for writing mail: checking recipient addresses, reading files to attach, reply and forward text.

Nothing here changes the mailbox; :mod:`tools.gmail` calls these helpers to check a request
completely before it stores anything.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any
from zoneinfo import ZoneInfo

from tools.kernel.documents import MIME_TYPES
from tools.kernel.exceptions import InvalidArgument, NotFound
from tools.kernel.world import format_instant
from tools.kits.files import looks_encoded, receive_file
from tools.kits.people import DirectoryState, find_person

__all__ = [
    "check_addresses",
    "directory_names",
    "forward_body",
    "mime_type_of",
    "prefixed",
    "read_attachments",
    "refuse_pasted_file",
]

_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
_NAMED = re.compile(r"^(.*)<([^<>]+)>\s*$")
_MIME = {
    **MIME_TYPES,
    ".tsv": "text/tab-separated-values",
    ".ics": "text/calendar",
    ".xml": "application/xml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".zip": "application/zip",
    ".gif": "image/gif",
    ".jpeg": "image/jpeg",
}
#: Largest total size of the files attached to one message (bytes), as in common mail services.
MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024
_PASTED = re.compile(r"[A-Za-z0-9+/]{120,}={0,2}")


def mime_type_of(filename: str) -> str:
    """The MIME type for a file name, by its extension (``application/octet-stream`` when unknown)."""
    return _MIME.get(PurePosixPath(filename.lower()).suffix, "application/octet-stream")


def refuse_pasted_file(value: str, parameter: str) -> None:
    """Refuse file content pasted as a ``data:`` URI or as base64 text.

    Raises:
        InvalidArgument: naming ``parameter`` and the way to send a file instead.
    """
    text = value.strip()
    if looks_encoded(text) or _PASTED.search(text):  # a pasted block inside a longer body counts too
        raise InvalidArgument(
            "looks like file content pasted as base64 or a data: URI; save the file in your workspace and pass "
            'its path in attachments, e.g. attachments=["downloads/INV-20417.pdf"]',
            parameter,
        )


def directory_names(ctx: Any) -> dict[str, str]:
    """Email address to full name for everyone in the directory (empty when the directory is absent)."""
    people = ctx.other("directory")
    if not isinstance(people, DirectoryState):
        return {}
    return {p.email.lower(): p.name for p in people.people.values()}


def check_addresses(ctx: Any, values: list[str], parameter: str) -> list[str]:
    """Check and normalise recipient addresses.

    ``Name <address>`` keeps the address; a colleague's full name or directory id becomes their
    address. Addresses at the company's own domain must belong to someone in the directory.

    Args:
        ctx: The action's context (its user's domain is the company's).
        values: Addresses as the caller wrote them.
        parameter: Parameter name for errors.

    Returns:
        Lower-case addresses, duplicates dropped, in the order given.

    Raises:
        InvalidArgument: Something that is not an address.
        NotFound: A company address or name no one in the directory has.
    """
    people = ctx.other("directory")
    directory = people if isinstance(people, DirectoryState) else None
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    out: list[str] = []
    for raw in values:
        text = raw.strip()
        named = _NAMED.match(text)
        if named:
            text = named[2].strip()
        if not text:
            raise InvalidArgument(f"contains an empty address; give addresses such as priya.shah@{domain}", parameter)
        if "@" in text:
            addr = text.lower()
            if not _EMAIL.match(addr):
                raise InvalidArgument(f"'{raw}' is not an email address; write it like priya.shah@{domain}", parameter)
            if (
                directory is not None
                and addr.endswith("@" + domain)
                and not any(p.email.lower() == addr for p in directory.people.values())
            ):
                raise NotFound(
                    f"no one at {domain} has the address '{raw}'; use directory search-people to find the right email",
                    parameter,
                )
        elif directory is not None:
            addr = find_person(directory, text, parameter).email.lower()
        else:
            raise InvalidArgument(f"'{raw}' is not an email address; write it like name@{domain}", parameter)
        if addr not in out:
            out.append(addr)
    return out


def read_attachments(ctx: Any, paths: list[str], parameter: str) -> list[tuple[str, str, bytes]]:
    """Read workspace files of any kind (text, PDF, spreadsheets, images...) to attach.

    Args:
        ctx: The action's context; ``ctx.files`` is the workspace, ``None`` when there is none.
        paths: Workspace paths.
        parameter: Parameter name for errors.

    Returns:
        ``(filename, mime_type, bytes)`` for each path, in order.

    Raises:
        InvalidArgument: No workspace, an empty path, pasted content instead of a path, a path outside the
            workspace, or more than 25 MB in all.
        NotFound: No file at a path.
    """
    if paths and ctx.files is None:
        raise InvalidArgument(
            "there is no workspace to attach files from here; put the text in the body instead", parameter
        )
    out: list[tuple[str, str, bytes]] = []
    for path in (p.strip() for p in paths):
        if not path:
            raise InvalidArgument("contains an empty path; give workspace file paths such as reports/q1.csv", parameter)
        refuse_pasted_file(path, parameter)
        data = receive_file(ctx, "", path, content_param=parameter, path_param=parameter)
        name = PurePosixPath(path).name
        out.append((name, mime_type_of(name), data))
    total = sum(len(data) for _, _, data in out)
    if total > MAX_ATTACHMENT_BYTES:
        raise InvalidArgument(
            f"the files come to {total} bytes; one message carries at most {MAX_ATTACHMENT_BYTES} bytes "
            "(25 MB) of attachments. Upload large files to Drive and send a link instead",
            parameter,
        )
    return out


def prefixed(prefix: str, subject: str) -> str:
    """``subject`` with ``prefix`` ("Re:" or "Fwd:") in front, unless it already starts with it."""
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def forward_body(note: str, sender: str, date: datetime, subject: str, to: list[str], body: str, tz: ZoneInfo) -> str:
    """The text of a forward: the note, then the original message's header lines and text."""
    quoted = (
        "---------- Forwarded message ----------\n"
        f"From: {sender}\nDate: {format_instant(date, tz)}\nSubject: {subject}\nTo: {', '.join(to)}\n\n{body}"
    )
    return f"{note.strip()}\n\n{quoted}" if note.strip() else quoted
