"""SharePoint list actions: see a site's lists and their columns, and query, add, change and delete items."""

from __future__ import annotations

from typing import Any

from tools.apps.sharepoint._columns import find_column, matches, parse_assignments, parse_equals, parse_filter, sort_key
from tools.apps.sharepoint._rules import find_list, find_list_item, find_site, require_role
from tools.apps.sharepoint._views import list_detail, list_item, list_summary
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import ListItem, SharePointState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_item", "delete_item", "get_list", "list_lists", "query_items", "update_item"]


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
        list_summary(ctx, li)
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
    return list_detail(ctx, find_list(ctx, site, list_name))


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
    sp = find_list(ctx, site, list_name)
    groups = parse_filter(ctx, sp.columns, filter) if filter.strip() else []
    also = parse_equals(ctx, sp.columns, equals)
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
    out = page_of([list_item(ctx, i, sp) for i in hits], page, page_size)
    return {"list": sp.name, "site": ctx.state.sites[sp.site_id].name, **out}


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
    sp = find_list(ctx, site, list_name)
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
        values={c.name: value for c in sp.columns if (value := values.get(c.name)) is not None},
        created=ctx.now,
        created_by=ctx.user,
        modified=ctx.now,
        modified_by=ctx.user,
    )
    ctx.state.items[item.id] = item
    return list_item(ctx, item, sp)


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
    item, sp = find_list_item(ctx, item_id)
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
    return {**list_item(ctx, item, sp), "changed": changed}


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
    item, sp = find_list_item(ctx, item_id)
    require_role(ctx, ctx.state.sites[sp.site_id], "contribute", "item_id")
    del ctx.state.items[item.id]
    return {"deleted": item.id, "list": sp.name, "fields": {c.name: item.values.get(c.name) for c in sp.columns}}
