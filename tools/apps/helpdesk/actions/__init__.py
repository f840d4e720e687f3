"""The helpdesk's actions, one module per group; importing this package registers them all (in this order)."""

from tools.apps.helpdesk.actions import reading, tickets, comments, links, attachments  # noqa: I001  (registration order)

__all__ = ["attachments", "comments", "links", "reading", "tickets"]
