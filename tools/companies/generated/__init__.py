"""Generated companies: a seeded org chart (``org``), their everyday life (``everyday``) and each app's background."""

__all__: list[str] = []
