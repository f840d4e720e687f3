"""Folder trees: the walks and the name rule the four file stores (Drive, Box, OneDrive, SharePoint) share.

Each store keeps its items in a mapping of id to record, each record naming its parent
folder's id. The walks take that mapping and two small functions, so they know no app.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from tools.kernel.exceptions import InvalidArgument

__all__ = ["MAX_DEPTH", "ancestors", "check_name", "descendants"]

T = TypeVar("T")

#: Deepest chain of folders a walk up follows (a guard against a cycle in bad data).
MAX_DEPTH = 100


def ancestors(parent_id: str, folders: Mapping[str, T], parent_of: Callable[[T], str]) -> list[T]:
    """The folders above an item, nearest first.

    Args:
        parent_id: The item's parent folder id.
        folders: Folder id to folder record; an id not in it (a root) ends the walk.
        parent_of: The parent folder id of a folder record.

    Returns:
        At most ``MAX_DEPTH`` folder records, the item's own folder first.
    """
    out: list[T] = []
    pid = parent_id
    while pid in folders and len(out) < MAX_DEPTH:
        folder = folders[pid]
        out.append(folder)
        pid = parent_of(folder)
    return out


def descendants(
    folder_id: str, children_of: Callable[[str], Iterable[T]], folder_id_of: Callable[[T], str | None]
) -> list[T]:
    """Every item below a folder, at any depth.

    Args:
        folder_id: The folder to walk from (not itself returned).
        children_of: The items directly inside a folder id.
        folder_id_of: An item's id when it is a folder (to walk into), else None.

    Returns:
        The items in walk order (depth first, each folder before its contents).
    """
    out: list[T] = []
    todo = [folder_id]
    seen = {folder_id}
    while todo:
        for kid in children_of(todo.pop()):
            out.append(kid)
            sub = folder_id_of(kid)
            if sub is not None and sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return out


#: Control and text-direction characters: a name holding one shows as something else (``report\u202etxt.exe``).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_name(name: str, parameter: str, forbidden: str = "/\\", max_length: int = 255) -> str:
    r"""A usable file or folder name, stripped.

    Args:
        name: The name the caller gave.
        parameter: The parameter it came in, named in the error.
        forbidden: Characters the store refuses in names (always at least ``/``).
        max_length: Longest name the store takes, in characters.

    Returns:
        The name without surrounding white space.

    Raises:
        InvalidArgument: Empty, ``.`` or ``..``, ending with a dot, too long, or holding a forbidden or a
            control character; the message lists the characters the store refuses.
    """
    text = (name or "").strip()
    if not text:
        raise InvalidArgument("must not be empty", parameter)
    if unprintable := _UNPRINTABLE.search(text):
        raise InvalidArgument(
            f"the name contains a control character (U+{ord(unprintable.group()):04X}); names are printable text",
            parameter,
        )
    bad = sorted({c for c in text if c in forbidden})
    if bad:
        refused = " ".join(forbidden)
        raise InvalidArgument(f"'{text}' contains {' '.join(bad)}; names cannot contain {refused}", parameter)
    if text in (".", "..") or text.endswith("."):
        raise InvalidArgument(f"'{text}' is not a valid name; names cannot be . or .. or end with a dot", parameter)
    if len(text) > max_length:
        raise InvalidArgument(f"must be at most {max_length} characters", parameter)
    return text
