"""Kits: machinery two or more apps share, written once.

- ``paging``: the page parameters and one way to cut a page;
- ``text``: forgiving comparison and required text;
- ``files``: downloads into and uploads from the workspace, and the pasted-file refusal;
- ``folders``: folder-tree walks and the file-name rule of the file stores;
- ``people``: the directory's records and person lookups (apps never import the directory app).

Kits import the kernel only, never an app.
"""

__all__: list[str] = []
