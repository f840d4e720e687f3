"""What grading may read of this app's final state; it declares no outcome yet (records are checked directly)."""

__all__: list[str] = []
