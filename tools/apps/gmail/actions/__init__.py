"""The mail actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.gmail.actions import attachments, contacts, drafts, filters, labels, messages, settings, threads

__all__ = ["attachments", "contacts", "drafts", "filters", "labels", "messages", "settings", "threads"]
