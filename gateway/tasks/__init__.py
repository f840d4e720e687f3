"""Task content: the families that write rows, their kit, and the hand-written rows (``rows/*.jsonl``).

Content imports only the kernel, the kits and the companies (``tools``); the machinery reaches it only
through :mod:`gateway.tasks.loader`. This ``__init__`` loads nothing.
"""

__all__: list[str] = []
