"""Helpers every app's tests share: a context over the default company, and calling an action by name.

Import them as ``from tests.tools.apps.conftest import app_ctx, call``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tools import REGISTRY
from tools.companies import NOW, TIMEZONE, USER, build_default
from tools.companies.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.world import AppState, Context, FileStore, World


def app_ctx(
    app: str, files: FileStore | None = None, *, directory: bool = True, state: AppState | None = None
) -> Context[Any]:
    """A context for ``app`` over a fresh copy of its default-company state (or ``state``).

    Args:
        app: The app whose actions will run.
        files: A workspace file store, or None for a session without a sandbox.
        directory: Whether the world holds the company's directory too.
        state: The app's state to use instead of the default company's.
    """
    if state is None:
        state = REGISTRY.apps[app].state.model_validate(build_default(app)[app])
    states: dict[str, AppState] = {app: state}
    if directory and app != "directory":
        states["directory"] = REGISTRY.apps["directory"].state.model_validate(build_default("directory")["directory"])
    return Context(World(NOW, TIMEZONE, USER, states, BlobStore(BLOBS)), app, files)


def call(c: Context[Any], action: str, /, **args: Any) -> Any:
    """Run ``action`` of the context's app with ``args``, validated as every surface validates them."""
    return REGISTRY.apps[c.app].actions[action].invoke(c, args)


def unchanged(
    c: Context[Any], action: str, error: type[Exception] | tuple[type[Exception], ...], /, **args: Any
) -> Any:
    """Call an action that must fail with ``error`` and check the world did not change; returns the error."""
    before = c.world.snapshot()
    with pytest.raises(error) as err:
        call(c, action, **args)
    assert c.world.snapshot() == before
    return err.value
