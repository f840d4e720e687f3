"""Files through the workspace: handing bytes to the caller, taking them back, refusing pasted bytes.

Every app that stores or returns files (the four file stores, mail attachments, chat
files, helpdesk attachments) goes through these helpers, so a download, an upload, the
refusal of file bytes pasted into a text parameter and the refusal of text typed under a
binary document's name (:func:`refuse_typed_document`) read the same in every app.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import zipfile
from pathlib import PurePosixPath
from typing import Any

from tools.kernel.exceptions import InvalidArgument, quote

__all__ = [
    "BINARY_TYPES",
    "INLINE_LIMIT",
    "TYPED_DOCUMENT_REFUSAL",
    "deliver_file",
    "looks_encoded",
    "refuse_folder_path",
    "receive_file",
    "refuse_encoded",
    "refuse_typed_document",
]

#: Largest text returned inline when no workspace is available (characters).
INLINE_LIMIT = 20_000

#: Binary document types (by extension) and the first bytes a real file of each starts with.
BINARY_TYPES: dict[str, tuple[bytes, ...]] = {
    ".pdf": (b"%PDF-",),
    ".docx": (b"PK\x03\x04",),
    ".xlsx": (b"PK\x03\x04",),
    ".pptx": (b"PK\x03\x04",),
    ".zip": (b"PK\x03\x04",),
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".gif": (b"GIF87a", b"GIF89a"),
}
#: The words every app refuses typed text under a binary document's name with (after the quoted name).
TYPED_DOCUMENT_REFUSAL = "is not a text file, so it cannot be typed in"

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+[;,]", re.IGNORECASE)


def looks_encoded(content: str) -> bool:
    """Whether ``content`` is file bytes pasted as a ``data:`` URI or as base64 text, not ordinary text.

    Base64 here means one unbroken run of at least 64 base64 characters (standard or URL-safe
    alphabet) mixing digits, upper and lower case, that decodes. Prose, CSV and hex ids do not qualify.
    """
    text = content.strip()
    if _DATA_URI.match(text[:200]):
        return True
    compact = "".join(text.split())
    if len(compact) < 64 or " " in text or "\t" in text or not _BASE64.fullmatch(compact):
        return False
    if not all(any(test(ch) for ch in compact) for test in (str.isdigit, str.isupper, str.islower)):
        return False
    try:
        base64.b64decode(compact.replace("-", "+").replace("_", "/") + "=" * (-len(compact) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def refuse_encoded(content: str, parameter: str, instead: str = "path=<its workspace path>") -> None:
    """Refuse file bytes pasted into a text parameter as base64 or a ``data:`` URI.

    Files travel through the workspace, never through the conversation. Ordinary text passes.

    Args:
        content: The text the caller sent.
        parameter: The parameter it came in, named in the error.
        instead: What to pass instead, e.g. ``"path=<its workspace path>"``.

    Raises:
        InvalidArgument: ``content`` looks like encoded file bytes; the message says what to pass instead.
    """
    if looks_encoded(content or ""):
        raise InvalidArgument(
            "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
            f"save the file in your workspace and pass {instead} instead",
            parameter,
        )


def refuse_typed_document(name: str, content: str, parameter: str = "content") -> None:
    """Refuse text typed inline under the name of a binary document (.pdf, .docx, .xlsx, .png, ...).

    A file of such a type comes from the workspace (real bytes, by path); typed text is not one, whatever
    its name says. Inline content that really is such a document passes (:func:`_is_document`: it starts
    with the type's first bytes, e.g. ``%PDF-``, and has the type's structure: a PDF's cross-reference
    table and end marker, a zip's directory, an image's end), as does any text under a text file's name
    (.txt, .md, .csv ...). Text that merely starts with the first bytes is typed text all the same.

    Args:
        name: The file's name, with its extension.
        content: The text the caller typed (empty: nothing typed, nothing to refuse).
        parameter: The parameter the text came in, named in the error.

    Raises:
        InvalidArgument: ``content`` is typed under a binary document's name and is not such a document.
    """
    suffix = PurePosixPath(name.strip()).suffix.lower()
    if content and suffix in BINARY_TYPES and not _is_document(suffix, content.encode("utf-8", "surrogatepass")):
        raise InvalidArgument(
            f"'{name.strip()}' {TYPED_DOCUMENT_REFUSAL}; save the file in your workspace and pass "
            "path=<workspace path>",
            parameter,
        )


_PDF_END = re.compile(rb"startxref\s+\d+\s+%%EOF\s*$")
_PDF_XREF = re.compile(rb"(?:^|[\r\n])xref[\r\n]|/Type\s*/XRef\b")


def _is_document(suffix: str, data: bytes) -> bool:
    """Whether ``data`` is minimally a real file of type ``suffix`` (a key of :data:`BINARY_TYPES`).

    A PDF: its header, a cross-reference table (or stream), and ``startxref <offset> %%EOF`` at its end.
    A .docx, .xlsx, .pptx or .zip: a zip archive that opens and lists at least one member. A PNG: its
    signature and an ``IEND`` chunk; a JPEG: its start and end markers; a GIF: its header and trailer.
    """
    if not data.startswith(BINARY_TYPES[suffix]):
        return False
    if suffix == ".pdf":
        return bool(_PDF_END.search(data[-1024:]) and _PDF_XREF.search(data))
    if suffix in (".docx", ".xlsx", ".pptx", ".zip"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                return bool(archive.namelist())
        except (zipfile.BadZipFile, ValueError, OSError):
            return False
    if suffix == ".png":
        return b"IEND" in data[-64:]
    if suffix in (".jpg", ".jpeg"):
        return data.rstrip(b"\x00").endswith(b"\xff\xd9")
    return data.rstrip().endswith(b";")  # .gif


def deliver_file(ctx: Any, name: str, data: bytes, save_as: str = "", parameter: str = "save_as") -> dict[str, Any]:
    """Hand a file's bytes to the caller.

    With a workspace (``ctx.files`` set) the bytes are written there (under
    ``downloads/<name>`` unless ``save_as`` names a path) and the answer holds
    only the path. A default path already holding a file is kept, as a browser
    does: the new file goes to ``downloads/<stem> (2)<suffix>`` (then ``(3)``...)
    and the answer says so in ``note``; a ``save_as`` path is written as asked.
    Without a workspace, text is returned inline (up to ``INLINE_LIMIT``
    characters); binary content is refused.

    Returns:
        ``{"saved_to": path, "size": bytes}`` (plus ``"note"`` when renamed) or
        ``{"content": text, "size": bytes}``.

    Raises:
        InvalidArgument: Binary or oversized content with no workspace to save it in.
    """
    if ctx.files is not None:
        if save_as.strip():
            return {"saved_to": ctx.files.save(save_as.strip(), data, parameter), "size": len(data)}
        wanted = f"downloads/{name}"
        path = ctx.files.save(_free_path(ctx.files, wanted), data, parameter)
        out: dict[str, Any] = {"saved_to": path, "size": len(data)}
        if path != wanted:
            out["note"] = f"{wanted} already held a file, so this one was saved as {path}"
        return out
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgument(
            f"'{name}' is not a text file and there is no workspace to save it in", parameter
        ) from None
    if len(text) > INLINE_LIMIT:
        raise InvalidArgument(
            f"'{name}' is longer than {INLINE_LIMIT} characters; it cannot be shown inline", parameter
        )
    return {"content": text, "size": len(data)}


#: Most numbered names tried for a download before the last one is overwritten.
_MAX_COPIES = 100


def _free_path(files: Any, path: str) -> str:
    """``path``, or ``<stem> (n)<suffix>`` beside it for the first n from 2 the workspace does not hold yet."""
    if not files.exists(path):
        return path
    where = PurePosixPath(path)
    suffix = "".join(where.suffixes[-1:])
    stem = where.name[: len(where.name) - len(suffix)] if suffix else where.name
    candidate = path
    for n in range(2, _MAX_COPIES + 1):
        candidate = str(where.with_name(f"{stem} ({n}){suffix}"))
        if not files.exists(candidate):
            break
    return candidate


def refuse_folder_path(path: str, parameter: str = "path") -> None:
    """Refuse a workspace path that names a folder by its form: ``.`` (the workspace root), ``..``, or ``a/``.

    Example: ``path="."`` -> "'.' names a folder (the workspace root), not a file; pick a file in it, ...".

    Raises:
        InvalidArgument: (``parameter``) the path names a folder; an empty path passes (callers say what is missing).
    """
    given = path.strip()
    last = PurePosixPath(given).name
    if given and (given.endswith("/") or last in ("", ".", "..")):
        root = " (the workspace root)" if PurePosixPath(given) == PurePosixPath(".") else ""
        raise InvalidArgument(
            f'{quote(given)} names a folder{root}, not a file; pick a file in it, e.g. {parameter}="reports/q2.xlsx"',
            parameter,
        )


def receive_file(ctx: Any, content: str, path: str, content_param: str = "content", path_param: str = "path") -> bytes:
    """Take a file's bytes from a workspace path or, when given, inline text ``content``.

    Exactly one of ``content`` and ``path`` must be given.

    Raises:
        InvalidArgument: Both or neither given, a path given with no workspace, or one naming a folder.
        NotFound: The workspace path holds no file.
    """
    if content and path:
        raise InvalidArgument(f"give either {content_param} or {path_param}, not both", content_param)
    if path:
        if ctx.files is None:
            raise InvalidArgument(f"there is no workspace here; pass the text in {content_param} instead", path_param)
        refuse_folder_path(path, path_param)
        return bytes(ctx.files.load(path, path_param))
    if not content:
        raise InvalidArgument(f"give the text in {content_param} (or a workspace file in {path_param})", content_param)
    return content.encode("utf-8")
