"""Lookups and rules SharePoint's actions share: sites and roles, libraries, folders, files, lists and items."""

from __future__ import annotations

import re

from tools.apps.sharepoint.state import ROLES, Library, LibraryItem, ListItem, SharePointState, Site, SpList
from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, matching
from tools.kits.folders import ancestors, descendants
from tools.kits.people import directory_of, find_person
from tools.kits.text import fold, require_text

__all__ = [
    "FORBIDDEN",
    "ancestors_of",
    "descendants_of",
    "document_text",
    "find_file",
    "find_folder",
    "find_library",
    "find_list",
    "find_list_item",
    "find_site",
    "item_path",
    "keep_an_owner",
    "name_holder",
    "name_taken",
    "next_version",
    "person_name",
    "require_role",
    "resolve_member",
    "role_of",
]

#: Characters SharePoint refuses in file and folder names.
FORBIDDEN = '\\/:*?"<>|#%'
#: Kinds of file whose bytes cannot be typed in as text; they come from the workspace.

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


# ---- sites, roles and people ------------------------------------------------------------------


def role_of(site: Site, email: str) -> str | None:
    """The role ``email`` holds on ``site``, or None when they are not a member."""
    who = email.lower()
    return next((m.role for m in site.members if m.email.lower() == who), None)


def find_site(ctx: Context[SharePointState], site: str, parameter: str = "site") -> Site:
    """The site named by id, name or address, among the sites the user belongs to.

    Raises:
        NotFound: No such site, or the user is not a member (the message lists the user's sites).
    """
    key = fold(require_text(site, parameter)).rstrip("/").replace(" and ", " & ")
    for s in ctx.state.sites.values():
        slug = s.url.rstrip("/").rsplit("/", 1)[-1].lower()
        if key in (s.id.lower(), fold(s.name), s.url.lower().rstrip("/"), slug) and role_of(s, ctx.user):
            return s
    names = ", ".join(f"'{s.name}'" for s in ctx.state.sites.values() if role_of(s, ctx.user))
    raise NotFound(f"no site '{site}' that you can open; your sites: {names}", parameter)


def require_role(ctx: Context[SharePointState], site: Site, needed: str, parameter: str) -> None:
    """Refuse when the user's role on ``site`` is below ``needed``.

    Raises:
        Conflict: naming the user's role and the site's owners to ask.
    """
    have = role_of(site, ctx.user) or "no"
    if have != "no" and ROLES.index(have) >= ROLES.index(needed):
        return
    owners = ", ".join(m.email for m in site.members if m.role == "full_control") or "a site owner"
    raise Conflict(f"you have {have} access to the site '{site.name}' and this needs {needed}; ask {owners}", parameter)


def keep_an_owner(site: Site, email: str, parameter: str) -> None:
    """Refuse to take full_control away from ``email`` when no one else on ``site`` has it.

    Raises:
        Conflict: ``email`` is the site's last member with full_control.
    """
    if not any(m.role == "full_control" and m.email.lower() != email for m in site.members):
        raise Conflict(
            f"{email} is the last member with full_control of '{site.name}'; give someone else full_control first",
            parameter,
        )


def person_name(ctx: Context[SharePointState], email: str) -> str:
    """The directory's name for ``email``, or ``""`` for a guest or when there is no directory."""
    directory = directory_of(ctx)
    if directory is None:
        return ""
    who = email.lower()
    return next((p.name for p in directory.people.values() if p.email.lower() == who), "")


def resolve_member(ctx: Context[SharePointState], who: str, parameter: str) -> str:
    """An email address for ``who``: a colleague by name, id or email, or a guest's outside address.

    Raises:
        InvalidArgument: ``who`` is empty or not an email address where one is needed.
        NotFound: No colleague in the directory matches.
    """
    text = require_text(who, parameter)
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    directory = directory_of(ctx)
    if "@" in text and not text.lower().endswith("@" + domain):
        if not _EMAIL.match(text):
            raise InvalidArgument(f"'{who}' is not an email address; use e.g. kim.lau@adatum.example", parameter)
        return text.lower()
    if directory is not None:
        return find_person(directory, text, parameter).email.lower()
    if not _EMAIL.match(text):
        raise InvalidArgument(f"'{who}' is not an email address; give the person's email", parameter)
    return text.lower()


# ---- libraries, folders and files ---------------------------------------------------------------


def find_library(ctx: Context[SharePointState], site: Site, library: str, parameter: str = "library") -> Library:
    """The library of ``site`` named by id or name ("" means "Documents").

    Raises:
        NotFound: The site has no such library (the message lists its libraries).
    """
    key = fold(library or "Documents")
    libs = matching(ctx.state.libraries, lambda lib: lib.site_id == site.id)
    hit = next((lib for lib in libs if key in (lib.id.lower(), fold(lib.name))), None)
    if hit is None:
        names = ", ".join(f"'{lib.name}'" for lib in libs)
        raise NotFound(f"the site '{site.name}' has no library '{library}'; its libraries: {names}", parameter)
    return hit


def find_folder(ctx: Context[SharePointState], lib: Library, folder: str, parameter: str) -> LibraryItem | None:
    """The folder named by id or by path inside ``lib`` (e.g. "Invoices" or "Vendor management/Contracts").

    Returns:
        The folder, or None for the top of the library ("" given).

    Raises:
        InvalidArgument: The id names a file, or a folder of another library.
        NotFound: No folder at that path.
    """
    text = folder.strip().strip("/")
    if not text:
        return None
    by_id = ctx.state.files.get(text)
    if by_id is not None and not by_id.deleted:
        if by_id.kind != "folder":
            raise InvalidArgument(f"'{by_id.name}' ({by_id.id}) is a file, not a folder", parameter)
        if by_id.library_id != lib.id:
            raise InvalidArgument(
                f"folder '{by_id.name}' ({by_id.id}) is not in the library '{lib.name}' of this "
                "site; name the site and library it is in",
                parameter,
            )
        return by_id
    parts = [p for p in text.split("/") if p.strip()]
    if parts and fold(parts[0]) == fold(lib.name):
        parts = parts[1:]
    current: LibraryItem | None = None
    for part in parts:
        pid = current.id if current else ""
        current = next(
            (
                f
                for f in ctx.state.files.values()
                if f.library_id == lib.id
                and f.parent_id == pid
                and f.kind == "folder"
                and not f.deleted
                and fold(f.name) == fold(part)
            ),
            None,
        )
        if current is None:
            raise NotFound(
                f"no folder '{text}' in '{lib.name}'; use sharepoint list-library to see its folders", parameter
            )
    return current


def find_file(
    ctx: Context[SharePointState], file_id: str, parameter: str = "file_id", deleted: bool = False
) -> LibraryItem:
    """The file or folder with id ``file_id`` on a site the user belongs to.

    Args:
        ctx: The call's context.
        file_id: The item's id.
        parameter: The parameter it came in, named in errors.
        deleted: Whether an item in the recycle bin is acceptable.

    Raises:
        NotFound: No such item the user can see, or it is in the recycle bin and ``deleted`` is false.
    """
    item = ctx.state.files.get(file_id.strip())
    if item is None or not role_of(ctx.state.sites[item.site_id], ctx.user):
        raise NotFound(f"no file or folder with id '{file_id}'; use sharepoint search-files or list-library", parameter)
    if item.deleted and not deleted:
        raise NotFound(f"'{item.name}' ({item.id}) is in the recycle bin; use sharepoint restore-file first", parameter)
    return item


def name_holder(
    ctx: Context[SharePointState], lib_id: str, parent_id: str, name: str, skip: str = ""
) -> LibraryItem | None:
    """The live item already called ``name`` (case-insensitive) in that folder; None when the name is free.

    Args:
        ctx: The call's context.
        lib_id: The library's id.
        parent_id: The folder's id ("" for the top of the library).
        name: The name to look for.
        skip: An item id to ignore (the item being renamed or moved).
    """
    return next(
        (
            f
            for f in ctx.state.files.values()
            if f.library_id == lib_id
            and f.parent_id == parent_id
            and not f.deleted
            and f.id != skip
            and fold(f.name) == fold(name)
        ),
        None,
    )


def name_taken(other: LibraryItem, parameter: str) -> Conflict:
    """The error for a name ``other`` already holds in the folder."""
    return Conflict(f"this folder already has an item named '{other.name}' ({other.id}); pick another name", parameter)


def ancestors_of(state: SharePointState, item: LibraryItem) -> list[LibraryItem]:
    """The folders above ``item``, nearest first."""
    return ancestors(item.parent_id, state.files, lambda f: f.parent_id)


def descendants_of(state: SharePointState, folder_id: str) -> list[LibraryItem]:
    """Everything inside a folder, at any depth."""
    return descendants(
        folder_id,
        lambda pid: matching(state.files, lambda f: f.parent_id == pid),
        lambda f: f.id if f.kind == "folder" else None,
    )


def item_path(state: SharePointState, item: LibraryItem) -> str:
    """``<library>/<folders>/<name>``, e.g. ``Documents/Invoices/INV-20401.pdf``."""
    lib = state.libraries[item.library_id].name
    names = [a.name for a in reversed(ancestors_of(state, item))]
    return "/".join([lib, *names, item.name])


def document_text(ctx: Context[SharePointState], item: LibraryItem) -> str:
    """The text of a file (docx, xlsx, pdf, csv, plain), cached by content; ``""`` for folders."""
    if item.kind != "file":
        return ""
    return blob_text(ctx.blobs, item.blob, item.name)


def next_version(label: str) -> str:
    """The label of the version after ``label`` ("2.0" after "1.0"); "1.0" when ``label`` is not a number."""
    try:
        return f"{int(float(label)) + 1}.0"
    except ValueError:
        return "1.0"


# ---- lists and items ------------------------------------------------------------------------------


def find_list(ctx: Context[SharePointState], site: str, list_name: str) -> SpList:
    """The list named by id or name on a site the user belongs to.

    Raises:
        NotFound: No such site, or the site has no such list (the message lists its lists).
    """
    s = find_site(ctx, site)
    lists = matching(ctx.state.lists, lambda li: li.site_id == s.id)
    key = fold(list_name)
    hit = next((li for li in lists if key in (li.id.lower(), fold(li.name))), None)
    if hit is None:
        names = ", ".join(f"'{li.name}'" for li in lists) or "none"
        raise NotFound(f"the site '{s.name}' has no list '{list_name}'; its lists: {names}", "list_name")
    return hit


def find_list_item(ctx: Context[SharePointState], item_id: str) -> tuple[ListItem, SpList]:
    """The list item with id ``item_id`` and its list, on a site the user belongs to.

    Raises:
        NotFound: No such item the user can see.
    """
    item = ctx.state.items.get(item_id.strip())
    sp = ctx.state.lists.get(item.list_id) if item else None
    if item is None or sp is None or not role_of(ctx.state.sites[sp.site_id], ctx.user):
        raise NotFound(f"no list item with id '{item_id}'; use sharepoint query-items to find ids", "item_id")
    return item, sp
