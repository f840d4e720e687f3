"""Beyond one machine: gateway replicas as Ray actors, and the seed router in front of them."""

__all__: list[str] = []
