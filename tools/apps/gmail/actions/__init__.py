"""The mail actions, one module per group; importing this package registers them all, in this order."""

from tools.apps.gmail.actions import messages, drafts, labels, attachments, settings, contacts  # isort: skip

__all__ = ["attachments", "contacts", "drafts", "labels", "messages", "settings"]
