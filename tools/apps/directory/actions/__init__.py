"""The directory's actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.directory.actions import departments, people

__all__ = ["departments", "people"]
