"""The drive's actions, one module per group; importing this package registers them all."""

# The tool list follows registration order, so the groups are imported in the order the
# actions are listed (reading, adding, changing, sharing, versions, comments), not sorted.
# isort: off
from tools.apps.drive.actions import reading
from tools.apps.drive.actions import adding
from tools.apps.drive.actions import changing
from tools.apps.drive.actions import sharing
from tools.apps.drive.actions import versions
from tools.apps.drive.actions import comments

# isort: on

__all__ = ["adding", "changing", "comments", "reading", "sharing", "versions"]
