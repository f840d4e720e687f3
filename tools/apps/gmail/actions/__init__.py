"""The mail actions (moving: ``messages`` still declares the app and registers the other groups)."""

__all__: list[str] = []
