"""Example arguments for an action, read from its docstring example, else made up from its schema.

An action's docstring example is written as ``name="value" other=3 -> what comes
back``. :func:`example_arguments` reads those pairs, keeps the ones that name a
parameter, converts them to the parameter's JSON type and fills every required
parameter the example leaves out with a placeholder of the right type.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tools.kernel.registry import Action

__all__ = ["example_arguments", "example_text", "placeholder", "returns_text"]

_PAIR = re.compile(r"""(?<![\w-])([a-z_][a-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\]|[^\s,]+)""")
_INT = re.compile(r"^-?\d+$")


def _paragraph(action: Action, lead: str) -> str:
    for para in action.description.split("\n\n"):
        if para.startswith(lead):
            return para[len(lead) :].strip()
    return ""


def example_text(action: Action) -> str:
    """The docstring's example line (``'query="priya" -> ...'``), or ``""``."""
    return _paragraph(action, "Example: ")


def returns_text(action: Action) -> str:
    """The docstring's ``Returns:`` text (the shape of the result), or ``""``."""
    return _paragraph(action, "Returns: ")


def _decode(raw: str) -> Any:
    if raw.startswith('"'):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw.strip('"')
    if raw.startswith("'"):
        return raw.strip("'")
    if raw.startswith("["):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return None
    if raw in ("true", "false"):
        return raw == "true"
    if _INT.match(raw):
        return int(raw)
    return raw


def _fits(value: Any, prop: dict[str, Any]) -> Any:
    """``value`` converted to the property's type, or None when it cannot be."""
    kind = prop.get("type")
    if kind == "array":
        items = value if isinstance(value, list) else [value]
        converted = [_fits(v, prop.get("items", {})) for v in items]
        return None if any(c is None for c in converted) else converted
    if kind == "integer":
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        return int(value) if isinstance(value, str) and _INT.match(value) else None
    if kind == "number":
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if kind == "boolean":
        return value if isinstance(value, bool) else None
    if kind == "string":
        return value if isinstance(value, str) else str(value)
    return value


def placeholder(name: str, prop: dict[str, Any]) -> Any:
    """A stand-in value of the property's type, e.g. ``"<person>"``, ``1``, ``true``."""
    if "enum" in prop:
        return prop["enum"][0]
    if "default" in prop and prop["default"] not in (None, "", []):
        return prop["default"]
    kind = prop.get("type")
    if kind == "integer":
        return prop.get("minimum", 1)
    if kind == "number":
        return prop.get("minimum", 1.0)
    if kind == "boolean":
        return True
    if kind == "array":
        return [placeholder(name, prop.get("items", {"type": "string"}))]
    return f"<{name.replace('_', ' ')}>"


def example_arguments(action: Action) -> dict[str, Any]:
    """Arguments for an example call: the docstring example's values plus placeholders for missing required ones.

    Returns:
        Parameter name to value, in the schema's parameter order.
    """
    props: dict[str, Any] = action.input_schema.get("properties", {})
    required = set(action.input_schema.get("required", []))
    given: dict[str, Any] = {}
    for name, raw in _PAIR.findall(example_text(action).split("->")[0]):
        if name in props and name not in given:
            value = _fits(_decode(raw), props[name])
            if value is not None:
                given[name] = value
    out: dict[str, Any] = {}
    for name, prop in props.items():
        if name in given:
            out[name] = given[name]
        elif name in required:
            out[name] = placeholder(name, prop)
    return out
