"""The directory's records: people, kept by the people kit so that every app reads them one way."""

from __future__ import annotations

from tools.kits.people import DirectoryState, Person

__all__ = ["DirectoryState", "Person"]
