"""The server-side parser every app command shares, and the help it prints.

A command line is ``<app> <action-with-dashes> --param=value ...``; the shell
script sends the words after ``<app>`` here unchanged. Conventions:

* ``--param=value`` or ``--param value``; names take dashes or underscores.
* Booleans are flags: ``--flag`` (true), ``--flag=false`` or ``--no-flag``.
* A list parameter is repeated (``--to=a --to=b``) or given one JSON array
  (``--to='["a", "b"]'``).
* Whole numbers are converted per the schema.
* ``--help`` (or ``help``, or nothing) shows the app's commands; ``--help``
  after a command shows that command's parameters.

Help is rendered from the same schema as every other surface.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tools import Action, InvalidArgument
from tools.kernel.examples import example_arguments, example_text

__all__ = [
    "APPLESS_COMMAND",
    "Help",
    "Invocation",
    "UsageError",
    "action_help",
    "app_help",
    "option",
    "parse_argv",
    "to_argv",
]

#: The command holding the action that belongs to no app (``company complete-task``).
APPLESS_COMMAND = "company"

_HELP = ("--help", "-h")
_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


class UsageError(Exception):
    """The command line cannot be turned into a call; the message says what to type instead.

    Args:
        message: What is wrong, naming the option at fault.
        action: The action the line named, when it got that far (for the help hint).
    """

    def __init__(self, message: str, action: Action | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.action = action


@dataclass(frozen=True)
class Invocation:
    """A parsed and validated call."""

    action: Action
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Help:
    """Help text asked for on the command line."""

    text: str


def option(name: str) -> str:
    """The option spelling of a parameter: ``page_size`` -> ``--page-size``."""
    return "--" + name.replace("_", "-")


def to_argv(action: Action, arguments: Mapping[str, Any]) -> list[str]:
    """The words that make ``action`` with ``arguments`` on the command line (the inverse of :func:`parse_argv`).

    Returns:
        ``[command, "--option=value", ...]``: one word per option, a list repeated once per item,
        booleans as ``true``/``false``. Values are passed verbatim (no shell quoting: use an argv, not a string).
    """
    words = [action.command]
    for name, value in arguments.items():
        items = value if isinstance(value, list) else [value]
        for item in items:
            text = ("true" if item else "false") if isinstance(item, bool) else str(item)
            words.append(f"{option(name)}={text}")
    return words


def _find(command: str, actions: Mapping[str, Action], word: str) -> Action:
    key = word.replace("-", "_")
    if key in actions:
        return actions[key]
    listing = ", ".join(a.command for a in actions.values())
    raise UsageError(f"unknown command '{word}'; {command} commands: {listing}")


def parse_argv(
    command: str, actions: Mapping[str, Action], argv: Sequence[str], description: str = ""
) -> Invocation | Help:
    """Turn the words after ``command`` into a validated call, or into help.

    Args:
        command: The command's name, e.g. ``"directory"``.
        actions: Action name (snake case) to action: what the command can do.
        argv: The words after the command, exactly as the shell passed them.
        description: One sentence on the command, for its help.

    Returns:
        An :class:`Invocation` with converted, validated arguments, or :class:`Help`.

    Raises:
        UsageError: unknown command or option, a missing or malformed value, or a value the schema refuses.
    """
    words = list(argv)
    if not words or words[0] in (*_HELP, "help"):
        if words[:1] == ["help"] and len(words) > 1:
            return Help(action_help(command, _find(command, actions, words[1])))
        return Help(app_help(command, description, actions))
    if words[0].startswith("-"):
        listing = ", ".join(a.command for a in actions.values())
        raise UsageError(f"the first word must be a command, not '{words[0]}'; {command} commands: {listing}")
    action = _find(command, actions, words[0])
    try:
        arguments = _options(action, words[1:])
    except UsageError as exc:
        exc.action = action
        raise
    if arguments is None:
        return Help(action_help(command, action))
    try:
        return Invocation(action, action.validate(arguments))
    except InvalidArgument as exc:
        where = f"{option(exc.parameter)}: " if exc.parameter else ""
        raise UsageError(where + exc.message, action) from None


def _options(action: Action, words: list[str]) -> dict[str, Any] | None:
    """Option words to raw arguments; None when ``--help`` is among them."""
    props: dict[str, Any] = action.input_schema.get("properties", {})
    valid = ", ".join(option(p) for p in props) or "none (this command takes no options)"
    arguments: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word in _HELP:
            return None
        if not word.startswith("--") or word == "--":
            raise UsageError(f"unexpected argument '{word}'; give values as --name=value. Options: {valid}")
        key, eq, value = word[2:].partition("=")
        name = key.replace("-", "_")
        negated = False
        if name not in props and name.startswith("no_") and props.get(name[3:], {}).get("type") == "boolean" and not eq:
            name, negated = name[3:], True
        if name not in props:
            raise UsageError(f"unknown option --{key}; valid options: {valid}")
        prop = props[name]
        if prop.get("type") == "boolean":
            arguments[name] = _flag(name, value if eq else None, negated)
            continue
        if not eq:
            if i >= len(words) or _is_option(words[i], props):
                raise UsageError(f"{option(name)} needs a value: write {option(name)}=VALUE")
            value = words[i]
            i += 1
        if prop.get("type") == "array":
            arguments.setdefault(name, []).extend(_items(name, value, prop.get("items", {})))
        elif name in arguments:
            raise UsageError(f"{option(name)} was given twice; give it once (only list options repeat)")
        else:
            arguments[name] = _scalar(name, value, prop)
    return arguments


def _is_option(word: str, props: Mapping[str, Any]) -> bool:
    if word in _HELP:
        return True
    if not word.startswith("--"):
        return False
    name = word[2:].partition("=")[0].replace("-", "_")
    return name in props or (name.startswith("no_") and name[3:] in props)


def _flag(name: str, value: str | None, negated: bool) -> bool:
    if value is None:
        return not negated
    low = value.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise UsageError(f"{option(name)} is a flag: write {option(name)} or {option(name)}=false, not '{value}'")


def _scalar(name: str, value: str, prop: Mapping[str, Any]) -> Any:
    kind = prop.get("type")
    if kind == "integer":
        try:
            return int(value.strip())
        except ValueError:
            raise UsageError(f"{option(name)} expects a whole number, got '{value}'") from None
    if kind == "number":
        try:
            number = float(value.strip())
        except ValueError:
            number = math.nan
        if not math.isfinite(number):  # "nan" and "inf" read as floats, but are no JSON number
            raise UsageError(f"{option(name)} expects a number, got '{value}'")
        return number
    if kind == "boolean":
        return _flag(name, value, False)
    return value


def _items(name: str, value: str, items: Mapping[str, Any]) -> list[Any]:
    if value.lstrip().startswith("["):
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):  # not JSON, an integer past Python's digit limit, or nested too deep
            decoded = None
        if isinstance(decoded, list):
            return [v if not isinstance(v, str) else _scalar(name, v, items) for v in decoded]
    return [_scalar(name, value, items)]


# ---- help ---------------------------------------------------------------------------------------


def _kind(prop: Mapping[str, Any]) -> str:
    kind = str(prop.get("type", "string"))
    if kind == "array":
        item = str(prop.get("items", {}).get("type", "string"))
        return f"list of {item}s (repeat the option, or give a JSON array)"
    if kind == "boolean":
        return "flag"
    return kind


def _metavar(prop: Mapping[str, Any]) -> str:
    kind = prop.get("type")
    if kind == "array":
        return _metavar(prop.get("items", {}))
    return {"integer": "N", "number": "NUMBER"}.get(str(kind), "VALUE")


def _usage_word(name: str, prop: Mapping[str, Any], required: bool) -> str:
    if prop.get("type") == "boolean":
        word = option(name)
    else:
        word = f"{option(name)}={_metavar(prop)}"
        if prop.get("type") == "array":
            word += " ..."
    return word if required else f"[{word}]"


def _example_line(command: str, action: Action) -> str:
    words = [command, action.command]
    for name, value in example_arguments(action).items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, bool):
                words.append(option(name) if v else f"{option(name)}=false")
            else:
                words.append(f"{option(name)}={shlex.quote(str(v))}")
    return " ".join(words)


def action_help(command: str, action: Action) -> str:
    """Help for one command: usage line, description, every option with its type, and an example."""
    props: dict[str, Any] = action.input_schema.get("properties", {})
    required = set(action.input_schema.get("required", []))
    usage = " ".join([command, action.command, *(_usage_word(n, p, n in required) for n, p in props.items())])
    paragraphs = [p for p in action.description.split("\n\n") if not p.startswith("Example: ")]
    lines = [f"usage: {usage}", "", *"\n\n".join(paragraphs).splitlines(), ""]
    if props:
        lines.append("Options:")
        for name, prop in props.items():
            need = "required" if name in required else "optional"
            doc = action.param_docs.get(name, "").removesuffix("Optional.").rstrip()
            lines.append(f"  {_usage_word(name, prop, True)}")
            lines.append(f"      {_kind(prop)}, {need}. {doc}".rstrip())
    else:
        lines.append("Options: none.")
    lines.append("")
    if example_text(action) or props:
        lines += ["Example:", f"  {_example_line(command, action)}", ""]
    lines.append("Prints the result as JSON. Exit status: 0 done, 1 the request failed, 2 wrong usage.")
    return "\n".join(lines) + "\n"


def app_help(command: str, description: str, actions: Mapping[str, Action]) -> str:
    """Help for a whole command: its sub-commands with their one-line summaries."""
    width = max((len(a.command) for a in actions.values()), default=0) + 2
    lines = [f"usage: {command} <command> [--option=VALUE ...]", ""]
    if description:
        lines += [description, ""]
    lines.append("Commands:")
    lines += [f"  {a.command.ljust(width)}{a.summary}" for a in actions.values()]
    lines += ["", f"Run '{command} <command> --help' for a command's options and an example."]
    return "\n".join(lines) + "\n"
