"""The family kit: the ``Family`` shape (``base``) and one builder per kind of record a family writes."""

__all__: list[str] = []
