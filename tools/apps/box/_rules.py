"""Box's access rules, lookups, tree walks and the name, upload and link checks its actions share."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from tools.apps.box.state import (
    ROOT,
    ROOT_NAME,
    BoxFile,
    BoxState,
    Collaboration,
    FileVersion,
    Folder,
    Item,
)
from tools.kernel.documents import blob_text
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, matching
from tools.kits import folders
from tools.kits.files import receive_file, refuse_encoded, refuse_typed_document
from tools.kits.people import directory_of, find_person, known_emails
from tools.kits.text import fold

__all__ = [
    "add_version",
    "ancestors",
    "check_free",
    "check_name",
    "check_password",
    "children",
    "collaboration_folder",
    "copy_file",
    "copy_folder",
    "descendants",
    "destination",
    "find_collaboration",
    "find_file",
    "find_folder",
    "find_item",
    "folder_size",
    "in_trash",
    "is_internal",
    "kind_of",
    "owner_for",
    "path_of",
    "read_upload",
    "require",
    "resolve_person",
    "role_of",
    "search_terms",
    "snippet",
    "suffix",
    "text_of",
    "version_span",
    "versions_of",
]

# ---- access -------------------------------------------------------------------------------------
#
# Access follows Box: the owner of an item and the collaborators of a folder (and of every folder
# above it) hold a role; a role found higher up applies to everything below. Items in the trash,
# and everything inside a trashed folder, are hidden from every action except list-trash and
# restore-item.

#: Strongest first; a person's role on an item is the strongest one found on it or above it.
_ORDER = ("owner", "co-owner", "editor", "viewer", "previewer", "uploader")
_CAN: dict[str, set[str]] = {
    "owner": {"see", "list", "download", "comment", "upload", "edit", "share", "invite", "co-own"},
    "co-owner": {"see", "list", "download", "comment", "upload", "edit", "share", "invite", "co-own"},
    "editor": {"see", "list", "download", "comment", "upload", "edit", "share", "invite"},
    "viewer": {"see", "list", "download", "comment"},
    "previewer": {"see", "list"},
    "uploader": {"see", "upload"},
}
_WHAT = {
    "list": "see what it holds",
    "download": "download it",
    "comment": "comment on it",
    "upload": "upload to it",
    "edit": "change it",
    "share": "manage its shared link",
    "invite": "manage its collaborators",
    "co-own": "make someone a co-owner",
}


def kind_of(item: Item) -> str:
    """``"folder"`` or ``"file"``."""
    return "folder" if isinstance(item, Folder) else "file"


def children(state: BoxState, folder_id: str) -> list[Item]:
    """Items directly inside ``folder_id`` (trashed ones included)."""
    kids: list[Item] = [*matching(state.folders, lambda f: f.parent_id == folder_id)]
    kids += matching(state.files, lambda f: f.parent_id == folder_id)
    return kids


def ancestors(state: BoxState, item: Item) -> list[Folder]:
    """The folders above ``item``, nearest first (the root is not a record)."""
    return folders.ancestors(item.parent_id, state.folders, lambda f: f.parent_id)


def descendants(state: BoxState, folder_id: str) -> list[Item]:
    """Every item below ``folder_id``, at any depth."""
    return folders.descendants(
        folder_id, lambda fid: children(state, fid), lambda kid: kid.id if isinstance(kid, Folder) else None
    )


def in_trash(state: BoxState, item: Item) -> bool:
    """True when the item or a folder above it is in the trash."""
    return item.trashed or any(f.trashed for f in ancestors(state, item))


def path_of(state: BoxState, item: Item) -> str:
    """``/Legal/Contracts/...`` from All Files down to the item."""
    names = [a.name for a in reversed(ancestors(state, item))]
    return "/" + "/".join([*names, item.name])


def folder_size(state: BoxState, folder: Folder) -> int:
    """Bytes of every live file below ``folder``."""
    return sum(i.size for i in descendants(state, folder.id) if isinstance(i, BoxFile) and not in_trash(state, i))


def role_of(ctx: Context[BoxState], item: Item | None, user: str = "") -> str | None:
    """A person's role on ``item`` (None is All Files, where everyone owns their own space).

    Args:
        ctx: The acting context.
        item: The file or folder, or None for All Files.
        user: Whose role; default the acting user.

    Returns:
        The strongest role found on the item or a folder above it, or None for no access.
    """
    who = (user or ctx.user).lower()
    if item is None:
        return "owner"
    chain: list[Item] = [item, *ancestors(ctx.state, item)]
    found: set[str] = set()
    for node in chain:
        if node.owner.lower() == who:
            found.add("owner")
        if isinstance(node, Folder):
            found.update(
                c.role for c in ctx.state.collaborations.values() if c.folder_id == node.id and c.email.lower() == who
            )
    return next((r for r in _ORDER if r in found), None)


def require(ctx: Context[BoxState], item: Item | None, capability: str, parameter: str) -> None:
    """Refuse when the acting user's role on ``item`` does not allow ``capability``.

    Raises:
        Conflict: The role does not allow it; the message names the role and the owner to ask.
    """
    role = role_of(ctx, item)
    if role is None or capability not in _CAN[role]:
        assert item is not None  # the root always allows everything
        owner = item.owner
        raise Conflict(
            f"you are {_article(role)} on '{item.name}' ({item.id}) and cannot {_WHAT[capability]}; "
            f"ask its owner {owner} for editor access",
            parameter,
        )


def _article(role: str | None) -> str:
    if role is None:
        return "not a collaborator"
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"


def owner_for(ctx: Context[BoxState], folder: Folder | None) -> str:
    """Box gives new items the owner of the folder they land in (your own space: you)."""
    return folder.owner if folder else ctx.user


# ---- lookups --------------------------------------------------------------------------------------


def find_item(ctx: Context[BoxState], item_id: str, parameter: str = "item_id", trashed_ok: bool = False) -> Item:
    """The live file or folder ``item_id`` that the user can see.

    Raises:
        NotFound: no such item, no access, or (unless ``trashed_ok``) it is in the trash.
    """
    key = item_id.strip()
    item: Item | None = ctx.state.folders.get(key) or ctx.state.files.get(key)
    if item is None or role_of(ctx, item) is None:
        raise NotFound(
            f"no file or folder with id '{item_id}'; use box search or box list-folder to find ids", parameter
        )
    if not trashed_ok and in_trash(ctx.state, item):
        raise NotFound(f"'{item.name}' ({item.id}) is in the trash; see box list-trash and box restore-item", parameter)
    return item


def find_file(ctx: Context[BoxState], file_id: str, parameter: str = "file_id") -> BoxFile:
    """The live file ``file_id``; a folder id is refused with a pointer to list-folder.

    Raises:
        NotFound: As :func:`find_item`.
        InvalidArgument: The id is a folder's.
    """
    item = find_item(ctx, file_id, parameter)
    if isinstance(item, Folder):
        raise InvalidArgument(f"'{item.name}' ({item.id}) is a folder; use box list-folder to see it", parameter)
    return item


def find_folder(ctx: Context[BoxState], folder_id: str, parameter: str = "folder_id") -> Folder | None:
    """The live folder ``folder_id``; ``None`` for "0" (All Files) or empty.

    Raises:
        NotFound: As :func:`find_item`.
        InvalidArgument: The id is a file's.
    """
    if folder_id.strip() in ("", ROOT):
        return None
    item = find_item(ctx, folder_id, parameter)
    if isinstance(item, BoxFile):
        raise InvalidArgument(f"'{item.name}' ({item.id}) is a file, not a folder", parameter)
    return item


def destination(ctx: Context[BoxState], folder_id: str, parameter: str) -> Folder | None:
    """The folder items are moved, copied or restored into, once the user may upload to it."""
    dest = find_folder(ctx, folder_id, parameter)
    require(ctx, dest, "upload", parameter)
    return dest


# ---- names --------------------------------------------------------------------------------------

#: Characters Box refuses in file and folder names.
_FORBIDDEN = "/\\"


def check_name(name: str, parameter: str) -> str:
    """A valid Box item name, stripped (the folders kit's rule with Box's forbidden characters)."""
    return folders.check_name(name, parameter, forbidden=_FORBIDDEN)


def check_free(ctx: Context[BoxState], folder_id: str, name: str, parameter: str, skip: str = "") -> None:
    """Refuse when a live item in ``folder_id`` already has ``name`` (case-insensitive).

    Raises:
        Conflict: Naming the item that holds the name (and, for a file, how to add a version instead).
    """
    for other in children(ctx.state, folder_id):
        if other.id != skip and not other.trashed and fold(other.name) == fold(name):
            where = ROOT_NAME if folder_id == ROOT else f"folder {folder_id}"
            hint = (
                f"; to add a new version use box upload-version with file_id={other.id}"
                if isinstance(other, BoxFile) and parameter in ("name", "path")
                else ""
            )
            raise Conflict(
                f"{where} already has {kind_of(other)} '{other.name}' ({other.id}); pick another name{hint}",
                parameter,
            )


def suffix(name: str) -> str:
    """The lower-case extension of ``name`` (``".docx"``), or ``""``."""
    return PurePosixPath(name).suffix.lower()


# ---- uploads and versions -------------------------------------------------------------------------

#: File kinds whose bytes are not text: they can only come from a workspace file.
_MAGIC = {".pdf": b"%PDF", ".png": b"\x89PNG", ".docx": b"PK", ".xlsx": b"PK", ".pptx": b"PK", ".zip": b"PK"}


def _check_kind(data: bytes, name: str, parameter: str) -> None:
    """Refuse bytes that are not the kind of document ``name``'s extension promises.

    Raises:
        InvalidArgument: The bytes do not start the way that kind of file does.
    """
    ext = suffix(name)
    if ext in _MAGIC and not data.startswith(_MAGIC[ext]):
        raise InvalidArgument(f"the uploaded bytes are not a {ext} file; upload the real {ext} document", parameter)


def read_upload(ctx: Context[BoxState], name: str, content: str, path: str) -> bytes:
    """The bytes of an upload named ``name``: text in ``content`` or a workspace file at ``path``.

    Raises:
        InvalidArgument: Pasted encoded bytes, text for a binary kind, both or neither given, or bytes
            that are not the kind the name promises.
        NotFound: The workspace path holds no file.
    """
    refuse_encoded(content, "content")
    refuse_typed_document(name, content)
    data = receive_file(ctx, content, path)
    _check_kind(data, name, "path")
    return data


def versions_of(ctx: Context[BoxState], f: BoxFile) -> list[FileVersion]:
    """A file's versions, oldest first."""
    return sorted(matching(ctx.state.versions, lambda v: v.file_id == f.id), key=lambda v: v.number)


def version_span(f: BoxFile) -> str:
    """Which version numbers a file has, in words (``"versions 1 to 3"``)."""
    return "only version 1" if f.version_number == 1 else f"versions 1 to {f.version_number}"


def add_version(ctx: Context[BoxState], f: BoxFile, number: int, promoted_from: int | None = None) -> FileVersion:
    """Record ``f``'s current blob as its version ``number``."""
    v = FileVersion(
        id=ctx.new_id("ver"),
        file_id=f.id,
        number=number,
        blob=f.blob,
        size=f.size,
        uploaded_by=ctx.user,
        uploaded_at=ctx.now,
        promoted_from=promoted_from,
    )
    ctx.state.versions[v.id] = v
    return v


# ---- copies ---------------------------------------------------------------------------------------


def copy_file(ctx: Context[BoxState], f: BoxFile, parent: str, owner: str, name: str) -> BoxFile:
    """A new file holding ``f``'s current version (version 1 of the copy) in folder ``parent``."""
    twin = BoxFile(
        id=ctx.new_id("file"),
        name=name,
        parent_id=parent,
        owner=owner,
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        modified_by=ctx.user,
        description=f.description,
        mime_type=f.mime_type,
        size=f.size,
        blob=f.blob,
    )
    ctx.state.files[twin.id] = twin
    add_version(ctx, twin, 1)
    return twin


def copy_folder(ctx: Context[BoxState], src: Folder, parent: str, owner: str, name: str) -> Folder:
    """A new folder in ``parent`` with copies of ``src``'s live contents, at any depth."""
    twin = Folder(
        id=ctx.new_id("folder"),
        name=name,
        parent_id=parent,
        owner=owner,
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        description=src.description,
    )
    ctx.state.folders[twin.id] = twin
    for kid in sorted(children(ctx.state, src.id), key=lambda k: k.id):
        if kid.trashed:
            continue
        if isinstance(kid, Folder):
            copy_folder(ctx, kid, twin.id, owner, kid.name)
        else:
            copy_file(ctx, kid, twin.id, owner, kid.name)
    return twin


# ---- people and collaborations --------------------------------------------------------------------

_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def resolve_person(ctx: Context[BoxState], who: str, parameter: str) -> str:
    """An email address from an address or a colleague's full name; company addresses must exist.

    Raises:
        InvalidArgument: Empty, or not an address when there is no directory to look the name up in.
        NotFound: No colleague has that name, or no one at the company has that address.
    """
    text = (who or "").strip()
    if not text:
        raise InvalidArgument("give an email address (or a colleague's full name)", parameter)
    directory = directory_of(ctx)
    if not _EMAIL_RE.match(text):
        if directory is not None:
            return find_person(directory, text, parameter).email.lower()
        raise InvalidArgument(f"'{text}' is not an email address; write it like name@northwind.example", parameter)
    email = text.lower()
    domain = ctx.user.split("@")[-1].lower()
    known = known_emails(ctx)
    if known is not None and email.endswith("@" + domain) and email not in known:
        raise NotFound(f"no one at {domain} has the address '{text}'; use directory search-people", parameter)
    return email


def is_internal(ctx: Context[BoxState], email: str) -> bool:
    """True for an address at the company's own domain."""
    return email.lower().endswith("@" + ctx.user.split("@")[-1].lower())


def collaboration_folder(ctx: Context[BoxState], folder_id: str) -> Folder:
    """The live folder ``folder_id`` whose collaborators an action reads or changes.

    Raises:
        InvalidArgument: ``folder_id`` is All Files, which has no collaborators.
    """
    folder = find_folder(ctx, folder_id)
    if folder is None:
        raise InvalidArgument('All Files ("0") has no collaborators; give a folder\'s id', "folder_id")
    return folder


def find_collaboration(ctx: Context[BoxState], collaboration_id: str) -> tuple[Collaboration, Folder]:
    """A collaboration the user can see, with its live folder.

    Raises:
        NotFound: No such collaboration, or its folder is out of reach or in the trash.
    """
    c = ctx.state.collaborations.get(collaboration_id.strip())
    folder = ctx.state.folders.get(c.folder_id) if c else None
    if c is None or folder is None or role_of(ctx, folder) is None:
        raise NotFound(
            f"no collaboration with id '{collaboration_id}'; use box list-collaborations to find ids",
            "collaboration_id",
        )
    live = find_folder(ctx, folder.id, "collaboration_id")
    assert live is not None  # a folder record is never All Files
    return c, live


# ---- shared links ---------------------------------------------------------------------------------


def check_password(password: str, access: str) -> bool:
    """Whether a link gets a password; refuses a password Box would not take.

    Raises:
        InvalidArgument: A password on a link that is not "open", or a weak one.
    """
    if not password:
        return False
    if access != "open":
        raise InvalidArgument("a password can be set only on links with access 'open'", "password")
    if len(password) < 8 or not any(ch.isdigit() for ch in password) or not any(ch.isalpha() for ch in password):
        raise InvalidArgument("must be at least 8 characters with at least one letter and one digit", "password")
    return True


# ---- search ---------------------------------------------------------------------------------------

_TERM_RE = re.compile(r'"([^"]+)"|(\S+)')


def search_terms(query: str) -> list[str]:
    """The folded words and "quoted phrases" of a search query."""
    return [fold(a or b) for a, b in _TERM_RE.findall(query)]


def snippet(text: str, term: str) -> str:
    """A stretch of ``text`` around the first ``term``, or ``""`` when it is not there."""
    at = text.find(term)
    if at < 0:
        return ""
    start = max(0, at - 60)
    return ("..." if start else "") + text[start : at + len(term) + 80].strip() + "..."


def text_of(ctx: Context[BoxState], f: BoxFile) -> str:
    """The folded text of a file's current version ("" for images and unreadable files)."""
    return fold(blob_text(ctx.blobs, f.blob, f.name))
