"""The chat's actions, one module per group; importing this package registers them all."""

# The groups are imported in the order their actions are listed to clients (not sorted).
from tools.apps.slack.actions import channels, messages, dms, search, pins, files, statuses  # noqa: I001

__all__ = ["channels", "dms", "files", "messages", "pins", "search", "statuses"]
