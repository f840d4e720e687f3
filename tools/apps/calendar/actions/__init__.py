"""The calendar's actions (moved, not yet split into groups)."""

__all__: list[str] = []
