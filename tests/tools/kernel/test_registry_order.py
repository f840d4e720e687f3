"""An app lists its actions in the order it pins, whatever order its modules declare them in."""

from __future__ import annotations

from typing import Any

import pytest

from tools import REGISTRY, App, AppState, Context, Registry


def _declare(app: App, name: str) -> None:
    def fn(ctx: Context[Any]) -> dict[str, Any]:
        """Do one made-up thing."""
        return {}

    fn.__name__ = name
    app.action(read_only=True)(fn)


def test_actions_follow_the_pinned_order_not_the_declaration_order() -> None:
    app = App("demo", AppState, "A made-up app.", order=("first", "second", "third"))
    held = app.actions
    for name in ("third", "first", "second"):
        _declare(app, name)
    assert list(app.actions) == ["first", "second", "third"]
    assert held is app.actions  # refilled in place: whoever held the dict sees the order too
    assert [a.name for a in Registry.of([app]).actions()] == ["first", "second", "third"]


def test_an_action_missing_from_the_order_is_refused_when_declared() -> None:
    app = App("demo", AppState, "A made-up app.", order=("first",))
    with pytest.raises(ValueError, match=r"demo\.stray is not in the app's order"):
        _declare(app, "stray")
    assert list(app.actions) == []


def test_an_order_naming_an_undeclared_action_is_refused_by_the_registry() -> None:
    app = App("demo", AppState, "A made-up app.", order=("first", "ghost"))
    _declare(app, "first")
    with pytest.raises(ValueError, match="never declared: ghost"):
        Registry.of([app])


@pytest.mark.parametrize(
    ("order", "message"),
    [(("a", "b", "a"), "names a more than once"), (("Bad-name",), "not action names"), ("ab", "not one string")],
)
def test_a_malformed_order_is_refused(order: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        App("demo", AppState, "A made-up app.", order=order)


@pytest.mark.parametrize("app", list(REGISTRY.apps.values()), ids=lambda a: a.name)
def test_every_app_lists_exactly_its_pinned_order(app: App) -> None:
    assert list(app.actions) == list(app.order)
