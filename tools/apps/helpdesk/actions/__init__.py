"""The helpdesk's actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.helpdesk.actions import attachments, comments, links, queues, tickets, watchers

__all__ = ["attachments", "comments", "links", "queues", "tickets", "watchers"]
