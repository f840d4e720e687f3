"""Shared test helpers."""

from __future__ import annotations

from typing import Any

from tools.directory import DirectoryState
from tools.fixtures import NOW, TIMEZONE, USER, build_default
from tools.world import AppState, Context, World


def make_world(states: dict[str, AppState]) -> World:
    """A world at the fixture's clock and user, with the fixture's directory unless one is given."""
    states = dict(states)
    states.setdefault("directory", DirectoryState.model_validate(build_default()["directory"]))
    return World(NOW, TIMEZONE, USER, states)


def make_ctx(app: str, state: AppState, files: Any = None) -> Context[Any]:
    """A context for ``app`` over a world holding ``state`` (plus the directory)."""
    return Context(make_world({app: state}), app, files)
