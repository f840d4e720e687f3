"""The default company, Northwind Traders, by hand: its people, facts, shared documents and each app's records."""

__all__: list[str] = []
