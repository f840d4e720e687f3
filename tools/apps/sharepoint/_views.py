"""The JSON shapes SharePoint's actions return: sites, members, files and folders, lists and list items."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from tools.apps.sharepoint._rules import item_path, person_name, role_of
from tools.apps.sharepoint.state import LibraryItem, ListItem, Member, SharePointState, Site, SpList
from tools.kernel.world import Context, format_instant
from tools.kits.text import fold

__all__ = [
    "item_detail",
    "item_summary",
    "list_detail",
    "list_item",
    "list_summary",
    "member_card",
    "recycled_item",
    "site_card",
    "site_detail",
]


# ---- sites and members ------------------------------------------------------------------------


def site_card(ctx: Context[SharePointState], s: Site) -> dict[str, Any]:
    """How a site appears in listings: its address, your role and its member count."""
    return {
        "id": s.id,
        "name": s.name,
        "url": s.url,
        "description": s.description,
        "your_role": role_of(s, ctx.user),
        "members": len(s.members),
    }


def site_detail(ctx: Context[SharePointState], s: Site) -> dict[str, Any]:
    """A site's card plus its owners, libraries, lists and recycle-bin count."""
    st = ctx.state
    libraries = [
        {
            "id": lib.id,
            "name": lib.name,
            "description": lib.description,
            "files": sum(1 for f in st.files.values() if f.library_id == lib.id and f.kind == "file" and not f.deleted),
        }
        for lib in st.libraries.values()
        if lib.site_id == s.id
    ]
    lists = [
        {
            "id": li.id,
            "name": li.name,
            "description": li.description,
            "items": sum(1 for i in st.items.values() if i.list_id == li.id),
        }
        for li in st.lists.values()
        if li.site_id == s.id
    ]
    return {
        **site_card(ctx, s),
        "created": format_instant(s.created, ctx.tz),
        "owners": [m.email for m in s.members if m.role == "full_control"],
        "libraries": sorted(libraries, key=lambda x: fold(x["name"])),
        "lists": sorted(lists, key=lambda x: fold(x["name"])),
        "recycle_bin": sum(1 for f in st.files.values() if f.site_id == s.id and f.deleted and not f.deleted_with),
    }


def member_card(ctx: Context[SharePointState], m: Member) -> dict[str, Any]:
    """A site member: email, directory name, role, and whether they are a guest from outside the company."""
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    return {
        "email": m.email,
        "name": person_name(ctx, m.email),
        "role": m.role,
        "guest": not m.email.lower().endswith("@" + domain),
    }


# ---- files and folders ------------------------------------------------------------------------


def item_summary(ctx: Context[SharePointState], item: LibraryItem) -> dict[str, Any]:
    """How a file or folder appears in listings."""
    site = ctx.state.sites[item.site_id]
    return {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "site": site.name,
        "library": ctx.state.libraries[item.library_id].name,
        "folder_id": item.parent_id,
        "path": item_path(ctx.state, item),
        "mime_type": item.mime_type,
        "size": item.size,
        "version": item.version,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
    }


def item_detail(ctx: Context[SharePointState], item: LibraryItem) -> dict[str, Any]:
    """A file's or folder's full details: address, creation, versions (files) or item count (folders)."""
    site = ctx.state.sites[item.site_id]
    out = item_summary(ctx, item)
    out.update(
        url=site.url + "/" + quote(item_path(ctx.state, item)),
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        in_recycle_bin=item.deleted,
    )
    if item.kind == "file":
        out["versions"] = [
            {
                "version": v.version,
                "size": v.size,
                "modified": format_instant(v.modified, ctx.tz),
                "modified_by": v.modified_by,
            }
            for v in item.versions
        ]
    else:
        out["items"] = sum(1 for f in ctx.state.files.values() if f.parent_id == item.id and not f.deleted)
    return out


def recycled_item(ctx: Context[SharePointState], f: LibraryItem) -> dict[str, Any]:
    """A recycle-bin entry: what it was, where it was, and who deleted it when."""
    return {
        "id": f.id,
        "name": f.name,
        "kind": f.kind,
        "original_path": item_path(ctx.state, f),
        "size": f.size,
        "deleted_at": format_instant(f.deleted_at, ctx.tz) if f.deleted_at else None,
        "deleted_by": f.deleted_by,
    }


# ---- lists and items --------------------------------------------------------------------------


def list_summary(ctx: Context[SharePointState], sp: SpList) -> dict[str, Any]:
    """How a list appears in a site's lists: its item count and column names."""
    return {
        "id": sp.id,
        "name": sp.name,
        "description": sp.description,
        "items": sum(1 for i in ctx.state.items.values() if i.list_id == sp.id),
        "columns": [c.name for c in sp.columns],
    }


def list_detail(ctx: Context[SharePointState], sp: SpList) -> dict[str, Any]:
    """A list with its columns: their types, whether they are required, their choices and rules."""
    return {
        "id": sp.id,
        "name": sp.name,
        "site": ctx.state.sites[sp.site_id].name,
        "description": sp.description,
        "items": sum(1 for i in ctx.state.items.values() if i.list_id == sp.id),
        "columns": _columns(sp),
    }


def _columns(sp: SpList) -> list[dict[str, Any]]:
    out = []
    for c in sp.columns:
        col: dict[str, Any] = {"name": c.name, "type": c.type, "required": c.required}
        if c.choices:
            col["choices"] = list(c.choices)
        if c.description:
            col["description"] = c.description
        out.append(col)
    return out


def list_item(ctx: Context[SharePointState], item: ListItem, sp: SpList) -> dict[str, Any]:
    """A list item: its values by column (null when blank) and who made and changed it when."""
    return {
        "id": item.id,
        "list": sp.name,
        "fields": {c.name: item.values.get(c.name) for c in sp.columns},
        "created": format_instant(item.created, ctx.tz),
        "created_by": item.created_by,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
    }
