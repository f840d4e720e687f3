"""SharePoint lists: see a site's lists and their columns, and query, add, change and delete list items."""

from __future__ import annotations

from typing import Any

from tools.apps.sharepoint._columns import find_column, matches, parse_assignments, parse_filter, sort_key
from tools.apps.sharepoint.state import ListItem, SharePointState, SpList, app, find_site, require_role, role_of
from tools.kernel.exceptions import InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_item", "delete_item", "get_list", "list_lists", "query_items", "update_item"]


def _list(ctx: Context[SharePointState], site: str, list_name: str) -> SpList:
    s = find_site(ctx, site)
    lists = [li for li in ctx.state.lists.values() if li.site_id == s.id]
    key = fold(list_name)
    hit = next((li for li in lists if key in (li.id.lower(), fold(li.name))), None)
    if hit is None:
        names = ", ".join(f"'{li.name}'" for li in lists) or "none"
        raise NotFound(f"the site '{s.name}' has no list '{list_name}'; its lists: {names}", "list_name")
    return hit


def _item(ctx: Context[SharePointState], item_id: str) -> tuple[ListItem, SpList]:
    item = ctx.state.items.get(item_id.strip())
    sp = ctx.state.lists.get(item.list_id) if item else None
    if item is None or sp is None or not role_of(ctx.state.sites[sp.site_id], ctx.user):
        raise NotFound(f"no list item with id '{item_id}'; use sharepoint query-items to find ids", "item_id")
    return item, sp


def _view(ctx: Context[SharePointState], item: ListItem, sp: SpList) -> dict[str, Any]:
    return {
        "id": item.id,
        "list": sp.name,
        "fields": {c.name: item.values.get(c.name) for c in sp.columns},
        "created": format_instant(item.created, ctx.tz),
        "created_by": item.created_by,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
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


@app.action(read_only=True)
def list_lists(ctx: Context[SharePointState], site: str) -> dict[str, Any]:
    """List a site's lists with their item counts and column names.

    Example:
        site="Operations" -> "Room bookings" and "Vendor onboarding", with their columns.

    Args:
        site: The site's name, id or address.

    Returns:
        {"site", "lists": [{"id", "name", "description", "items" (count), "columns": [names]}]}.
    """
    s = find_site(ctx, site)
    rows = [
        {
            "id": li.id,
            "name": li.name,
            "description": li.description,
            "items": sum(1 for i in ctx.state.items.values() if i.list_id == li.id),
            "columns": [c.name for c in li.columns],
        }
        for li in sorted(ctx.state.lists.values(), key=lambda x: fold(x.name))
        if li.site_id == s.id
    ]
    return {"site": s.name, "lists": rows}


@app.action(read_only=True)
def get_list(ctx: Context[SharePointState], site: str, list_name: str) -> dict[str, Any]:
    """Show a list's columns: their types, whether they are required, and the allowed choices.

    Column types: text, number, date (YYYY-MM-DD), choice (one of the listed choices), person (a colleague,
    stored as their email), boolean (yes/no).

    Example:
        site="Operations" list_name="Vendor onboarding" -> columns Vendor, Owner, Status (choices), Due, ...

    Args:
        site: The site's name, id or address.
        list_name: The list's name (e.g. "Vendor onboarding") or id.

    Returns:
        {"id", "name", "site", "description", "items" (count), "columns": [{"name", "type", "required",
        "choices" (choice columns), "description" (when the column has a rule)}]}.
    """
    sp = _list(ctx, site, list_name)
    return {
        "id": sp.id,
        "name": sp.name,
        "site": ctx.state.sites[sp.site_id].name,
        "description": sp.description,
        "items": sum(1 for i in ctx.state.items.values() if i.list_id == sp.id),
        "columns": _columns(sp),
    }


@app.action(read_only=True)
def query_items(
    ctx: Context[SharePointState],
    site: str,
    list_name: str,
    filter: str = "",  # noqa: A002 - the name users know from list views
    equals: list[str] = [],  # noqa: B006
    order_by: str = "",
    descending: bool = False,
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """Find items in a list, with an optional filter and sort.

    A filter is clauses <Column> <op> <value> joined by and / or (and binds tighter). Operators: eq, ne, gt, ge,
    lt, le, contains. Values: 'quoted text', numbers, dates as 'YYYY-MM-DD', true/false, null (blank). Text
    matching ignores case; a person matches by name or email.

    Example:
        site="Operations" list_name="Vendor onboarding" filter="Status ne 'Done' and Due lt '2026-03-20'"

    Args:
        site: The site's name, id or address.
        list_name: The list's name or id.
        filter: A filter expression, e.g. "Status eq 'In progress'" or "Contract value gt 10000".
        equals: Column=value pairs that must all match exactly, e.g. ["Status=Done", "Owner=Ruby Walker"].
        order_by: Column to sort by (blanks last); default: the order items were added.
        descending: Sort from the highest (latest) value down.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"list", "site", "results": [{"id", "list", "fields": {column: value or null}, "created", "created_by",
        "modified", "modified_by"}], "page", "page_size", "total", "next_page"}.
    """
    sp = _list(ctx, site, list_name)
    groups = parse_filter(ctx, sp.columns, filter) if filter.strip() else []
    exact = [
        f"{name.strip()} eq '{value.strip().replace(chr(39), chr(39) * 2)}'"
        if value.strip()
        else f"{name.strip()} eq null"
        for name, _, value in (_pair(e) for e in equals)
    ]
    also = parse_filter(ctx, sp.columns, " and ".join(exact), "equals") if exact else []
    sort_col = find_column(sp.columns, order_by, "order_by") if order_by.strip() else None
    hits = [
        i
        for i in ctx.state.items.values()
        if i.list_id == sp.id and matches(ctx, i.values, groups) and matches(ctx, i.values, also)
    ]
    hits.sort(key=lambda i: (i.created, i.id))
    if sort_col is not None:
        blanks = [i for i in hits if i.values.get(sort_col.name) is None]
        rest = [i for i in hits if i.values.get(sort_col.name) is not None]
        rest.sort(key=lambda i: sort_key(i.values.get(sort_col.name)), reverse=descending)
        hits = rest + blanks
    out = page_of([_view(ctx, i, sp) for i in hits], page, page_size)
    return {"list": sp.name, "site": ctx.state.sites[sp.site_id].name, **out}


def _pair(entry: str) -> tuple[str, str, str]:
    name, eq, value = entry.partition("=")
    if not eq or not name.strip():
        raise InvalidArgument(f"'{entry}' is not Column=value, e.g. \"Status=Done\"", "equals")
    return name, eq, value


@app.action(read_only=False)
def create_item(ctx: Context[SharePointState], site: str, list_name: str, fields: list[str]) -> dict[str, Any]:
    """Add an item to a list. Each value is checked against its column's type and choices.

    Example:
        site="Operations" list_name="Vendor onboarding" fields=["Vendor=Alpine Ski House", "Owner=Ruby Walker",
        "Status=Not started", "Due=2026-03-27", "Contract value=5400"]

    Args:
        site: The site's name, id or address.
        list_name: The list's name or id.
        fields: Column=value pairs, one per column (see get-list for the columns; required ones must be given).

    Returns:
        The new item: {"id", "list", "fields", "created", "created_by", "modified", "modified_by"}.
    """
    sp = _list(ctx, site, list_name)
    if not fields:
        raise InvalidArgument('give at least one Column=value pair, e.g. ["Vendor=Alpine Ski House"]', "fields")
    values = parse_assignments(ctx, sp.columns, fields)
    missing = [c.name for c in sp.columns if c.required and values.get(c.name) is None]
    if missing:
        raise InvalidArgument(f"required column(s) missing: {', '.join(missing)}", "fields")
    require_role(ctx, ctx.state.sites[sp.site_id], "contribute", "site")
    item = ListItem(
        id=ctx.new_id("item"),
        list_id=sp.id,
        values={c.name: values[c.name] for c in sp.columns if values.get(c.name) is not None},  # type: ignore[misc]
        created=ctx.now,
        created_by=ctx.user,
        modified=ctx.now,
        modified_by=ctx.user,
    )
    ctx.state.items[item.id] = item
    return _view(ctx, item, sp)


@app.action(read_only=False)
def update_item(ctx: Context[SharePointState], item_id: str, fields: list[str]) -> dict[str, Any]:
    """Change some values of a list item; columns you leave out keep their values. "Column=" blanks a column.

    Example:
        item_id="vendor_02" fields=["Status=Done", "W-9 received=yes"] -> the item with its new values.

    Args:
        item_id: The item's id (from query-items).
        fields: Column=value pairs to change.

    Returns:
        The item after the change (as query-items shows it), plus "changed": [column names].
    """
    item, sp = _item(ctx, item_id)
    if not fields:
        raise InvalidArgument('give at least one Column=value pair to change, e.g. ["Status=Done"]', "fields")
    values = parse_assignments(ctx, sp.columns, fields)
    require_role(ctx, ctx.state.sites[sp.site_id], "contribute", "item_id")
    merged = dict(item.values)
    for name, value in values.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    changed = [c.name for c in sp.columns if merged.get(c.name) != item.values.get(c.name)]
    if changed:
        item.values = {c.name: merged[c.name] for c in sp.columns if c.name in merged}
        item.modified, item.modified_by = ctx.now, ctx.user
    return {**_view(ctx, item, sp), "changed": changed}


@app.action(read_only=False)
def delete_item(ctx: Context[SharePointState], item_id: str) -> dict[str, Any]:
    """Delete a list item for good.

    Example:
        item_id="room_07" -> {"deleted": "room_07", "list": "Room bookings"}.

    Args:
        item_id: The item's id (from query-items).

    Returns:
        {"deleted": id, "list", "fields": the values it had}.
    """
    item, sp = _item(ctx, item_id)
    require_role(ctx, ctx.state.sites[sp.site_id], "contribute", "item_id")
    del ctx.state.items[item.id]
    return {"deleted": item.id, "list": sp.name, "fields": {c.name: item.values.get(c.name) for c in sp.columns}}
