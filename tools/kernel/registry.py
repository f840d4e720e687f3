"""The one schema: every app action declared once, every surface derived from it.

An app module creates ``app = App("gmail", GmailState, "...", order=(...))`` and declares
each action with ``@app.action(read_only=...)`` on a plain function whose first
parameter is the :class:`~tools.kernel.world.Context` and whose other parameters are
typed (``str``, ``int``, ``bool``, ``list[str]``, ``Literal[...]``, optionally
``Annotated[..., Field(ge=..., pattern=...)]``). The Google-style docstring is
the contract the caller reads: its summary and body become the tool
description, its ``Args:`` entries the parameter descriptions.

From that one declaration this module derives:

* the tool name ``company_<app>_<action>`` and its JSON Schema (flat: top-level
  ``"type": "object"``, no ``$ref``, every property with a ``type`` and a
  ``description`` that repeats its constraints and default);
* argument validation with errors that name the parameter
  (:meth:`Action.validate`) and repeat at most a short prefix of a bad value;
* a length bound on every text parameter and list: a parameter that declares
  none gets :data:`TEXT_LIMIT` characters (:data:`ID_LIMIT` for ``*_id``
  parameters) and :data:`ITEMS_LIMIT` items, stated in its schema and description,
  so no call's cost grows without bound with its input;
* the shell command name ``<app> <action-with-dashes>`` and the HTTP path
  ``/api/<app>/<action>``.

The order an app lists its actions in (the tool list, help, docs) is the ``order`` it is
given, never the order its modules happen to be imported in: an action left out of the order
is refused when it is declared, and an order naming an action never declared is refused when
the app joins a :class:`Registry`.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import types
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

import docstring_parser
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.fields import FieldInfo

from tools.kernel.exceptions import AppError, InvalidArgument, quote
from tools.kernel.world import AppState, Context

__all__ = ["ID_LIMIT", "ITEMS_LIMIT", "TEXT_LIMIT", "TOOL_PREFIX", "Action", "App", "Registry", "build_action"]

#: Most characters of a text parameter that declares no bound of its own (one-line values: names, queries).
TEXT_LIMIT = 2_000
#: Most characters of an id parameter (``..._id``, ``..._ids``) that declares no bound of its own.
ID_LIMIT = 200
#: Most items of a list parameter that declares no bound of its own.
ITEMS_LIMIT = 100

TOOL_PREFIX = "company_"
#: Longest answer one call returns, in characters of JSON (about 25,000 tokens: what clients show whole).
MAX_ANSWER_CHARS = 100_000
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

# Keys of a JSON Schema property that carry a constraint, and how to say each in words.
_CONSTRAINT_WORDS: dict[str, str] = {
    "minimum": "minimum {}",
    "maximum": "maximum {}",
    "exclusiveMinimum": "greater than {}",
    "exclusiveMaximum": "less than {}",
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "pattern": "must match the regular expression {}",
    "format": "format {}",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
    "x-maxTerms": "at most {} terms (words or operators)",
}
#: Keys that only feed the description: taken out of the schema clients see.
_DESCRIPTION_ONLY = ("x-maxTerms",)


@dataclass(frozen=True)
class Action:
    """One app action and everything derived from its declaration.

    Attributes:
        app: App name, e.g. ``"gmail"``.
        name: Action name in snake case, e.g. ``"send_message"``.
        fn: The implementation, called as ``fn(ctx, **arguments)``.
        read_only: True when the action never changes the world.
        summary: First line of the docstring.
        description: The full text shown to callers (summary, body, example).
        params_model: Pydantic model validating the arguments.
        input_schema: Flat JSON Schema of the arguments.
        param_docs: Parameter name to its description (constraints included).
    """

    app: str
    name: str
    fn: Callable[..., Any]
    read_only: bool
    summary: str
    description: str
    params_model: type[BaseModel]
    input_schema: dict[str, Any]
    param_docs: dict[str, str]

    @property
    def tool_name(self) -> str:
        """MCP tool name, ``company_<app>_<action>`` (``company_<action>`` for the app-less action)."""
        return f"{TOOL_PREFIX}{self.app}_{self.name}" if self.app else f"{TOOL_PREFIX}{self.name}"

    @property
    def command(self) -> str:
        """Shell sub-command, the action name with dashes."""
        return self.name.replace("_", "-")

    @property
    def http_path(self) -> str:
        """HTTP endpoint path, ``/api/<app>/<action>`` (``/api/<action>`` for the app-less action)."""
        return f"/api/{self.app}/{self.name}" if self.app else f"/api/{self.name}"

    def validate(self, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Check and convert arguments against the schema.

        Args:
            arguments: Parameter name to value, as decoded from JSON (or strings from a shell).

        Returns:
            The converted arguments, defaults filled in.

        Raises:
            InvalidArgument: naming the first parameter at fault and what is expected.
        """
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise InvalidArgument("arguments must be an object of parameter names to values")
        fields = self.params_model.model_fields
        if len(arguments) > len(fields) or any(name not in fields for name in arguments):
            # before pydantic, which would build one error per unknown key (300,000 keys: seconds)
            unknown = next(name for name in arguments if name not in fields)
            known = ", ".join(self.input_schema["properties"]) or "none"
            raise InvalidArgument(f"unknown parameter; this action takes: {known}", unknown[:80])
        for name in self._numeric_params.intersection(arguments):
            if isinstance(arguments[name], bool):  # pydantic would take true as 1
                raise InvalidArgument("must be a number, not true or false", name)
        try:
            model = self.params_model.model_validate(arguments)
        except ValidationError as exc:
            raise _friendly_error(self, exc) from None
        return {name: getattr(model, name) for name in self.params_model.model_fields}

    @functools.cached_property
    def _numeric_params(self) -> frozenset[str]:
        """Parameters taking a number (and not also a boolean)."""
        numeric = set()
        for name, info in self.params_model.model_fields.items():
            kinds = set(typing.get_args(info.annotation)) or {info.annotation}
            if kinds & {int, float} and bool not in kinds:
                numeric.add(name)
        return frozenset(numeric)

    def invoke(self, ctx: Context[Any], arguments: dict[str, Any] | None) -> Any:
        """Validate ``arguments`` and run the action on ``ctx``; returns the action's JSON-able result.

        Raises:
            AppError: for bad arguments or a request the world's state refuses, or an answer longer than
                :data:`MAX_ANSWER_CHARS` (the caller is told to ask for less).
        """
        result = self.fn(ctx, **self.validate(arguments))
        size = len(json.dumps(result, default=str, ensure_ascii=False))
        if size > MAX_ANSWER_CHARS:
            raise AppError(
                f"the answer would be {size:,} characters, more than the {MAX_ANSWER_CHARS:,} one answer may hold; "
                "ask for less: a smaller page_size, or one item at a time"
            )
        return result


_TOO_LONG_HINT = {
    "string_too_long": " (shorten it, or save long text in your workspace and pass its path where a path is taken)",
    "too_long": " (split the list over several calls)",
}


def _friendly_error(action: Action, exc: ValidationError) -> InvalidArgument:
    err = exc.errors(include_url=False)[0]
    loc = [str(p) for p in err.get("loc", ())]
    param = loc[0] if loc else None
    kind = err.get("type", "")
    known = ", ".join(action.input_schema["properties"]) or "none"
    if kind == "extra_forbidden":
        return InvalidArgument(f"unknown parameter; this action takes: {known}", param)
    if kind == "missing":
        return InvalidArgument(f"is required ({action.param_docs.get(param or '', '')})".replace(" ()", ""), param)
    got = err.get("input")
    where = f" (item {loc[1]})" if len(loc) > 1 else ""
    msg = err.get("msg", "is not valid")
    doc = action.param_docs.get(param or "", "")
    if kind == "value_error":  # a validator's own words (its ValueError text); the value is not repeated
        return InvalidArgument(f"{str(msg).removeprefix('Value error, ')}{where}. {doc}".strip(), param)
    if kind in ("string_too_long", "too_long") and isinstance(got, (str, list)):
        size = f"{len(got):,} {'characters' if isinstance(got, str) else 'items'}"
        return InvalidArgument(f"{msg}{where}, got {size}{_TOO_LONG_HINT[kind]}. {doc}".strip(), param)
    return InvalidArgument(f"{msg}{where}; got {quote(got)}. {doc}".strip(), param)


class App:
    """An office app: its name, its state model and its declared actions.

    Args:
        name: Lower-case app name, used in tool names (``company_<name>_...``).
        state: The app's state model class.
        description: One sentence on what the app is, shown in docs and help.
        order: Every action's name, in the order the app lists them (tool list, help, docs). The
            order does not depend on which module declares an action or when it is imported.

    Raises:
        ValueError: A bad app name, or an order naming an action twice or a name no action may have.
    """

    def __init__(self, name: str, state: type[AppState], description: str, *, order: Sequence[str]) -> None:
        if not _NAME_RE.match(name):
            raise ValueError(f"app name {name!r} must match {_NAME_RE.pattern}")
        if isinstance(order, str):
            raise ValueError(f"{name}: order must be a sequence of action names, not one string")
        twice = sorted(n for n, count in Counter(order).items() if count > 1)
        if twice:
            raise ValueError(f"{name}: the order names {', '.join(twice)} more than once")
        bad = [n for n in order if not _NAME_RE.match(n)]
        if bad:
            raise ValueError(f"{name}: the order names {', '.join(map(repr, bad))}, not action names")
        self.name = name
        self.state = state
        self.description = description
        #: Every action's name, in listing order.
        self.order: tuple[str, ...] = tuple(order)
        #: Action name to action, in :attr:`order` (those declared so far).
        self.actions: dict[str, Action] = {}
        #: Outcome name to ``fn(state) -> value``: what grading reads of the app's final state.
        self.outcomes: dict[str, Callable[..., Any]] = {}

    def action(self, *, read_only: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Declare the decorated function as an action of this app.

        Args:
            read_only: True if the action never changes the world (shown to clients as ``readOnlyHint``).

        Raises:
            ValueError: (when the function is decorated) the action is declared twice, or is not in
                the app's order.
        """

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            act = build_action(self.name, fn, read_only=read_only)
            if act.name in self.actions:
                raise ValueError(f"{self.name}.{act.name} is declared twice")
            if act.name not in self.order:
                raise ValueError(f"{self.name}.{act.name} is not in the app's order; add it where it should be listed")
            declared = {**self.actions, act.name: act}
            self.actions.clear()  # refilled in the pinned order, the same dict for whoever holds it
            self.actions.update((n, declared[n]) for n in self.order if n in declared)
            return fn

        return register

    def check_order(self) -> None:
        """Check that every action the order names has been declared (call once every module is imported).

        Raises:
            ValueError: The order names actions that were never declared.
        """
        missing = [n for n in self.order if n not in self.actions]
        if missing:
            raise ValueError(f"{self.name}: the order names actions never declared: {', '.join(missing)}")

    def outcome(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Declare the decorated function as an outcome grading may check, under its own name.

        An outcome is what the user wants, however it came about (effective access, a room booked):
        ``fn(state, **args)`` gets this app's state rebuilt from a snapshot and returns a JSON value.

        Raises:
            ValueError: An outcome of that name is declared twice.
        """
        if fn.__name__ in self.outcomes:
            raise ValueError(f"{self.name} outcome {fn.__name__} is declared twice")
        self.outcomes[fn.__name__] = fn
        return fn

    def state_from(self, snapshot: dict[str, Any]) -> AppState:
        """This app's state rebuilt from its part of a world snapshot (``{collection: {id: record}}``)."""
        fields = {name: records for name, records in snapshot.items() if name != "_settings"}
        fields.update(snapshot.get("_settings", {}).get("_", {}))
        return self.state.model_validate(fields)


def build_action(app: str, fn: Callable[..., Any], *, read_only: bool, name: str | None = None) -> Action:
    """Derive an :class:`Action` (schema, validator, docs) from a typed, documented function.

    Raises:
        ValueError: The function lacks a docstring, a parameter lacks a type or a description.
    """
    name = name or fn.__name__
    if not _NAME_RE.match(name):
        raise ValueError(f"action name {name!r} must match {_NAME_RE.pattern}")
    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    if not doc.short_description:
        raise ValueError(f"{app}.{name} needs a docstring")
    arg_docs = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    hints = typing.get_type_hints(fn, include_extras=True)
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1:]  # first is the context
    fields: dict[str, Any] = {}
    for p in params:
        if p.name not in hints:
            raise ValueError(f"{app}.{name}: parameter {p.name} needs a type")
        if not arg_docs.get(p.name):
            raise ValueError(f"{app}.{name}: parameter {p.name} needs a description under Args:")
        default = ... if p.default is inspect.Parameter.empty else p.default
        fields[p.name] = (hints[p.name], FieldInfo(default=default, description=arg_docs[p.name]))
    first = create_model(f"{app}_{name}_params", __config__=ConfigDict(extra="forbid"), **fields)
    model = first
    if _bound_defaults(first.model_json_schema(), fields):
        model = create_model(f"{app}_{name}_params", __config__=ConfigDict(extra="forbid"), **fields)
    schema, param_docs = _flat_schema(model)
    parts = [doc.short_description.strip()]
    if doc.long_description:
        parts.append(doc.long_description.strip())
    parts.extend("Example: " + ex.description.strip() for ex in doc.examples if ex.description)
    returns = ""
    if doc.returns and doc.returns.description:
        # "Returns: {"a": ...}" is read by the parser as a type name before the colon; put it back.
        lead = f"{doc.returns.type_name}: " if doc.returns.type_name else ""
        returns = lead + doc.returns.description.strip()
    if returns:
        parts.append("Returns: " + " ".join(returns.split()))
    return Action(
        app=app,
        name=name,
        fn=fn,
        read_only=read_only,
        summary=doc.short_description.strip(),
        description="\n\n".join(parts),
        params_model=model,
        input_schema=schema,
        param_docs=param_docs,
    )


def _bound_defaults(raw: dict[str, Any], fields: dict[str, Any]) -> bool:
    """Give every text and list parameter without a length bound the default one, in place in ``fields``.

    Args:
        raw: The JSON Schema pydantic made of the parameters model.
        fields: Parameter name to ``(type, FieldInfo)``, as given to ``create_model``; changed in place.

    Returns:
        Whether any parameter was changed (the model must then be built again).
    """
    changed = False
    for pname, prop in raw.get("properties", {}).items():
        options = [o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"]
        if len(options) != 1:
            continue  # _flat_schema refuses it with a clear message
        shape = options[0]
        hint, info = fields[pname]
        limit = ID_LIMIT if pname.endswith(("_id", "_ids")) else TEXT_LIMIT
        if shape.get("type") == "string" and "enum" not in shape and "maxLength" not in shape:
            fields[pname] = (Annotated[hint, Field(max_length=limit)], info)
            changed = True
        elif shape.get("type") == "array":
            items = shape.get("items", {})
            if items.get("type") == "string" and "enum" not in items and "maxLength" not in items:
                hint = _bound_items(hint, limit)
            if "maxItems" not in shape:
                hint = Annotated[hint, Field(max_length=ITEMS_LIMIT)]
            if hint is not fields[pname][0]:
                fields[pname] = (hint, info)
                changed = True
    return changed


def _bound_items(hint: Any, limit: int) -> Any:
    """``hint`` (``list[str]``, maybe ``Annotated`` or ``| None``) with each item at most ``limit`` characters."""
    origin = typing.get_origin(hint)
    if origin is Annotated:
        base, *meta = typing.get_args(hint)
        return Annotated[(_bound_items(base, limit), *meta)]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_bound_items(a, limit) for a in typing.get_args(hint))]  # noqa: UP007
    if origin is list:
        (item,) = typing.get_args(hint)
        return list[Annotated[item, Field(max_length=limit)]]  # type: ignore[valid-type]
    return hint


def _flat_schema(model: type[BaseModel]) -> tuple[dict[str, Any], dict[str, str]]:
    raw = model.model_json_schema()
    if "$defs" in raw:
        raise ValueError(f"{model.__name__}: parameters must be flat (no nested models)")
    props: dict[str, Any] = {}
    docs: dict[str, str] = {}
    for pname, prop in raw.get("properties", {}).items():
        prop = dict(prop)
        prop.pop("title", None)
        if "anyOf" in prop:  # X | None: show X; null is only the "not given" default
            options = [o for o in prop.pop("anyOf") if o.get("type") != "null"]
            if len(options) != 1:
                raise ValueError(f"{model.__name__}.{pname}: use one type (optionally | None)")
            prop.update(options[0])
        if "const" in prop:
            prop["enum"] = [prop.pop("const")]
        if "enum" in prop and "type" not in prop:
            prop["type"] = "string"
        if "type" not in prop:
            raise ValueError(f"{model.__name__}.{pname}: parameter type has no JSON type")
        if prop.get("type") == "array":
            items = dict(prop.get("items", {}))
            items.pop("title", None)
            prop["items"] = items
        words = [prop.get("description", "").rstrip(".") + "."]
        item_max = prop.get("items", {}).get("maxLength") if prop.get("type") == "array" else None
        if "enum" in prop:
            shown = [str(v) if v != "" else '"" (any)' for v in prop["enum"]]
            words.append("One of: " + ", ".join(shown) + ".")
        constraints = [tmpl.format(_count(prop[key])) for key, tmpl in _CONSTRAINT_WORDS.items() if key in prop]
        if item_max is not None:
            constraints.append(f"each item at most {_count(item_max)} characters")
        for key in _DESCRIPTION_ONLY:
            prop.pop(key, None)
        if constraints:
            words.append("Constraints: " + "; ".join(constraints) + ".")
        if "default" in prop and prop["default"] not in (None, "", []):
            words.append(f"Default: {_show(prop['default'])}.")
        elif pname not in raw.get("required", []):
            words.append("Optional.")
        prop["description"] = " ".join(w for w in words if w and w != ".")
        docs[pname] = prop["description"]
        props[pname] = prop
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if raw.get("required"):
        schema["required"] = list(raw["required"])
    return schema, docs


def _count(value: Any) -> Any:
    """A number as the description shows it (``2,000``); anything else unchanged."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value)


@dataclass
class Registry:
    """Every app and action, looked up by app, tool name, command or path.

    Args:
        apps: The apps, in display order.
    """

    apps: dict[str, App] = field(default_factory=dict)

    @classmethod
    def of(cls, apps: Iterable[App]) -> Registry:
        """Build a registry from app objects, their actions all declared.

        Raises:
            ValueError: A duplicate app name, or an app whose order names an action never declared.
        """
        reg = cls()
        for app in apps:
            if app.name in reg.apps:
                raise ValueError(f"app {app.name} registered twice")
            app.check_order()
            reg.apps[app.name] = app
        return reg

    def actions(self, apps: Iterable[str] | None = None) -> Iterator[Action]:
        """Every action, optionally only those of the named apps, app by app, each app's in its pinned order."""
        wanted = set(apps) if apps is not None else None
        for app in self.apps.values():
            if wanted is None or app.name in wanted:
                yield from app.actions.values()

    def by_tool_name(self) -> dict[str, Action]:
        """Tool name to action."""
        return {a.tool_name: a for a in self.actions()}

    def action(self, app: str, name: str) -> Action:
        """The action ``name`` of ``app``; accepts dashes for underscores.

        Raises:
            InvalidArgument: No such app or action (the message lists what exists).
        """
        if app not in self.apps:
            raise InvalidArgument(f"unknown app '{app}'; apps: {', '.join(self.apps)}", "app")
        actions = self.apps[app].actions
        key = name.replace("-", "_")
        if key not in actions:
            listing = ", ".join(a.replace("_", "-") for a in actions)
            raise InvalidArgument(f"'{app}' has no action '{name}'; actions: {listing}", "action")
        return actions[key]
