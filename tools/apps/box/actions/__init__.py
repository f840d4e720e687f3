"""Box's actions, one module per group; importing this package registers them all."""

# isort: off
# The tool list follows registration order: browse, files, items, trash, collaborations, links, comments.
from tools.apps.box.actions import browse
from tools.apps.box.actions import files
from tools.apps.box.actions import items
from tools.apps.box.actions import trash
from tools.apps.box.actions import collaborations
from tools.apps.box.actions import links
from tools.apps.box.actions import comments
# isort: on

__all__ = ["browse", "collaborations", "comments", "files", "items", "links", "trash"]
