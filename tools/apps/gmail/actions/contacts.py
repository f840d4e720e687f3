"""Contact actions: the people you have exchanged mail with, gathered from the mailbox."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._rules import contacts_of, directory_names
from tools.apps.gmail._views import contact_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import GmailState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["list_contacts"]


@app.action(read_only=True)
def list_contacts(
    ctx: Context[GmailState],
    query: SearchText = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the people you have exchanged mail with, most frequent first, gathered from your mailbox.

    Each contact counts the messages they sent you and the messages you sent them (to, cc or bcc).
    Names come from the company directory; people outside the company show their address only.

    Example:
        query="fabrikam" -> [{"email": "billing@fabrikam.example", "received": 1, "sent": 0, ...}]

    Args:
        query: Words that must all appear in the contact's name or address.
        page: Page number, starting at 1.
        page_size: Contacts per page.

    Returns:
        {"contacts": [{"email", "name", "in_company", "received", "sent", "total", "last_date"}],
        "page", "page_size", "total", "next_page"}.
    """
    names = directory_names(ctx)
    words = fold(query).split()
    rows = []
    for contact in contacts_of(ctx):
        name = names.get(contact.address.lower(), "")
        if all(w in fold(f"{name} {contact.address}") for w in words):
            rows.append((contact, name))
    rows.sort(key=lambda r: (-(r[0].received + r[0].sent), -r[0].last.timestamp(), r[0].address))
    out = page_of(rows, page, page_size, key="contacts")
    out["contacts"] = [contact_view(ctx, contact, name) for contact, name in out["contacts"]]
    return out
