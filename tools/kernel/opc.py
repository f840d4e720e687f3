"""The parts of an Office package (.docx, .xlsx) as the libraries find them, for the fast text readers.

python-docx and openpyxl refuse a package with a missing part or a part with no content type. :func:`package`
checks that much for every part reachable from the package's (and given parts') relationships, so that
:mod:`tools.kernel.docx_text` and :mod:`tools.kernel.xlsx_text` read only packages the libraries would open,
and raises :class:`NotPlain` for anything else (the readers then leave the file to the library). A part is
parsed only when a reader asks for it (:meth:`Package.xml`): the libraries parse every part (a .docx's styles
alone can be 800 KB of XML, ~12 ms; checking the small ones well-formed cost ~1 ms a document, more than the
rest of the read), so a package malformed only in a part the reader does not read, or in an attribute value
the library validates, is read here and refused by the library.
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

__all__ = ["NotPlain", "Package", "package", "xml_of"]

_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
#: python-docx's own parser settings (blank text between elements dropped), and openpyxl's (kept); no entity is
#: resolved and no DTD loaded in either.
_PARSERS = {True: etree.XMLParser(remove_blank_text=True, resolve_entities=False),
            False: etree.XMLParser(resolve_entities=False)}  # fmt: skip


class NotPlain(Exception):
    """The package holds something only the library reads right."""


@dataclass
class Package:
    """A package whose reachable parts exist and have a content type (a part is parsed when read: :meth:`xml`).

    Attributes:
        archive: The open zip file (read :meth:`xml` while it is open).
        drop_blank: Parse as python-docx does (see :func:`xml_of`).
        types: Part name (``/word/document.xml``) to content type, for every reachable part.
        rels: Source part name (``/`` for the package) to its internal relationships: ``(id, type, part name)``.
        overrides: The content types part's overrides: part name to content type, reachable or not.
    """

    archive: zipfile.ZipFile
    drop_blank: bool = False
    types: dict[str, str] = field(default_factory=dict)
    rels: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)

    def xml(self, part: str) -> Any:
        """The parsed root of a part (``/xl/workbook.xml``); :class:`NotPlain` when missing or not well-formed."""
        try:
            data = self.archive.read(part[1:])
        except KeyError as exc:
            raise NotPlain from exc
        return xml_of(data, self.drop_blank)


def xml_of(data: bytes, drop_blank: bool = False) -> Any:
    """``data`` parsed; :class:`NotPlain` for a DTD, an encoding other than UTF-8, or XML that does not parse.

    ``drop_blank``: drop whitespace between elements, as python-docx's parser does (openpyxl's keeps it).
    """
    try:
        root = etree.fromstring(data, _PARSERS[drop_blank])
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise NotPlain from exc
    info = root.getroottree().docinfo
    if info.doctype or (info.encoding or "UTF-8").upper() != "UTF-8":
        raise NotPlain
    return root


def package(archive: zipfile.ZipFile, roots: tuple[str, ...] = ("/",), drop_blank: bool = False) -> Package:
    """Every part reachable from ``roots`` (part names, ``/`` the package) through internal relationships.

    ``drop_blank``: parse the XML parts as python-docx does (see :func:`xml_of`).

    Raises:
        NotPlain: a reachable part missing or without a content type; a relationships part or the content
            types part missing or not well-formed; a relationship target that leaves the package's folders.
        KeyError: a part the zip lists cannot be read (the caller treats it as NotPlain).
    """
    names = set(archive.namelist())
    if "[Content_Types].xml" not in names:
        raise NotPlain
    types_root = xml_of(archive.read("[Content_Types].xml"))
    defaults = {(d.get("Extension") or "").lower(): d.get("ContentType") for d in types_root.iter(_CT + "Default")}
    overrides = {o.get("PartName"): o.get("ContentType") for o in types_root.iter(_CT + "Override")}
    out = Package(archive, drop_blank, overrides={k: v for k, v in overrides.items() if k and v})
    todo = list(roots)
    for root in roots:
        if root != "/":
            _add(out, names, root, defaults, overrides)
    while todo:
        source = todo.pop(0)
        folder, base = posixpath.split(source)
        rels_name = ("_rels/.rels" if source == "/" else posixpath.join(folder, "_rels", base + ".rels").lstrip("/"))
        if rels_name not in names:
            out.rels[source] = []
            continue
        found = []
        for rel in xml_of(archive.read(rels_name)).iter(_PR + "Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target") or ""
            part = posixpath.normpath(target if target.startswith("/") else posixpath.join(folder or "/", target))
            if not part.startswith("/") or part.startswith("//") or "\\" in part:
                raise NotPlain
            found.append((rel.get("Id") or "", rel.get("Type") or "", part))
            if part not in out.types:
                _add(out, names, part, defaults, overrides)
                todo.append(part)
        out.rels[source] = found
    return out


def _add(out: Package, names: set[str], part: str, defaults: dict[str, Any], overrides: dict[str, Any]) -> None:
    name = part[1:]
    if name not in names:
        raise NotPlain  # a relationship to a part that is not there: the libraries refuse the package
    kind = overrides.get(part) or defaults.get(posixpath.splitext(name)[1][1:].lower())
    if not kind:
        raise NotPlain
    out.types[part] = kind
