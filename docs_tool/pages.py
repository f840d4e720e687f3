"""Documentation pages of the company API, rendered from the registry (Markdown).

Pages: ``""`` the index of the apps; ``"<app>"`` an app's endpoints;
``"<app>/<action>"`` (or ``"/api/<app>/<action>"``, or ``"complete_task"``)
one endpoint with its parameters, an example request and the response shape.

With ``unix_socket=True`` the pages are for a shell whose API answers on the unix
socket ``$COMPANY_API_SOCKET`` (no network): they say so, and every curl example
passes ``--unix-socket "$COMPANY_API_SOCKET"``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tools import COMPLETE_TASK, REGISTRY, Action, InvalidArgument
from tools.kernel.examples import example_arguments, returns_text

__all__ = ["page_names", "render_page"]

_AUTH = "Authorization: Bearer $COMPANY_API_TOKEN"
_FETCH = 'Fetch page="<app>" for an app\'s endpoints and page="<app>/<action>" for one endpoint\'s parameters.'
_SOCKET_OPTION = '--unix-socket "$COMPANY_API_SOCKET"'
_SOCKET = (
    "The API answers on a local socket, `$COMPANY_API_SOCKET`, not over the network: give it to curl with "
    f"`{_SOCKET_OPTION}` and keep `$COMPANY_API_URL` as the address."
)


def _apps(apps: Sequence[str]) -> list[str]:
    return [a for a in apps if a in REGISTRY.apps]


def page_names(apps: Sequence[str]) -> list[str]:
    """Every page name for ``apps``: ``""``, each app, each ``"<app>/<action>"``, and ``"complete_task"``."""
    names = [""]
    for app in _apps(apps):
        names.append(app)
        names += [f"{app}/{a}" for a in REGISTRY.apps[app].actions]
    return [*names, COMPLETE_TASK.name]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _url(action: Action) -> str:
    return "$COMPANY_API_URL" + action.http_path.removeprefix("/api")


def _index(apps: list[str], unix_socket: bool) -> str:
    lines = [
        "# Company API",
        "",
        f"Every endpoint is `POST $COMPANY_API_URL/<app>/<action>` with a JSON object body and the header "
        f"`{_AUTH}` (both variables are set in your shell). Results and errors are JSON; an error reads "
        '`{"error": {"message": "...", "parameter": "..."}}`.',
        *(["", _SOCKET] if unix_socket else []),
        "",
        "| app | what it is | endpoints |",
        "|---|---|---|",
    ]
    lines += [f"| {a} | {_cell(REGISTRY.apps[a].description)} | {len(REGISTRY.apps[a].actions)} |" for a in apps]
    lines += [
        "",
        f'When you are done, call `POST {_url(COMPLETE_TASK)}` (see page="{COMPLETE_TASK.name}"): '
        f"{_cell(COMPLETE_TASK.summary)}",
        "",
        _FETCH,
    ]
    return "\n".join(lines) + "\n"


def _app_page(app: str, unix_socket: bool) -> str:
    spec = REGISTRY.apps[app]
    lines = [f"# {app}", "", spec.description, "", "| method | path | summary |", "|---|---|---|"]
    lines += [f"| POST | {a.http_path} | {_cell(a.summary)} |" for a in spec.actions.values()]
    lines += [
        "",
        f"Call them as `POST $COMPANY_API_URL/{app}/<action>` with the header `{_AUTH}`.",
        *([_SOCKET] if unix_socket else []),
        f'Fetch page="{app}/<action>" (e.g. page="{app}/{next(iter(spec.actions), "...")}") for parameters '
        "and an example.",
    ]
    return "\n".join(lines) + "\n"


def _type(prop: dict[str, Any]) -> str:
    kind = str(prop.get("type", "string"))
    if kind == "array":
        return f"array of {prop.get('items', {}).get('type', 'string')}"
    return kind


def _curl(action: Action, unix_socket: bool) -> str:
    body = json.dumps(example_arguments(action), ensure_ascii=False).replace("'", "'\\''")
    option = f"{_SOCKET_OPTION} " if unix_socket else ""
    return "\n".join(
        [
            "```sh",
            f'curl -sS {option}-X POST "{_url(action)}" \\',
            f'  -H "{_AUTH}" \\',
            '  -H "Content-Type: application/json" \\',
            f"  -d '{body}'",
            "```",
        ]
    )


def _doc(action: Action, name: str) -> str:
    return _cell(action.param_docs.get(name, "").removesuffix("Optional.").rstrip())


def _action_page(action: Action, unix_socket: bool) -> str:
    props: dict[str, Any] = action.input_schema.get("properties", {})
    required = set(action.input_schema.get("required", []))
    text = [p for p in action.description.split("\n\n") if not p.startswith("Returns: ")]
    lines = [f"# POST {action.http_path}", "", *"\n\n".join(text).splitlines(), "", "## Parameters (JSON body)", ""]
    if props:
        lines += ["| name | type | required | description |", "|---|---|---|---|"]
        lines += [
            f"| {n} | {_type(p)} | {'yes' if n in required else 'no'} | {_doc(action, n)} |" for n, p in props.items()
        ]
    else:
        lines.append("None: send `{}`.")
    returns = returns_text(action) or "a JSON object."
    lines += [
        "",
        "## Example request",
        "",
        _curl(action, unix_socket),
        "",
        "## Response",
        "",
        f"200 with JSON: {returns}",
        "",
        'Errors: 400 `{"error": {"message": "...", "parameter": "<the parameter at fault or null>"}}` for a bad '
        "parameter or a request the company's data refuses; 401 missing or invalid token; 404 unknown endpoint; "
        "409 no further changes are possible.",
    ]
    return "\n".join(lines) + "\n"


def _normalise(page: str) -> str:
    key = page.strip()
    if "/api/" in key:
        key = key.split("/api/", 1)[1]
    key = key.removeprefix("POST ").strip().strip("/")
    return key.removeprefix("api/") if key != "api" else ""


def render_page(page: str, apps: Sequence[str], *, unix_socket: bool = False) -> str:
    """Render one documentation page for a caller whose apps are ``apps``.

    Args:
        page: ``""``, ``"<app>"``, ``"<app>/<action>"``, ``"/api/<app>/<action>"`` or ``"complete_task"``.
        apps: The apps the caller may use (others are unknown pages).
        unix_socket: The caller's shell reaches the API on the unix socket ``$COMPANY_API_SOCKET``.

    Returns:
        The page as Markdown.

    Raises:
        InvalidArgument: naming ``page``, when no such page exists (the message lists what does).
    """
    enabled = _apps(apps)
    key = _normalise(page)
    if not key:
        return _index(enabled, unix_socket)
    if key.replace("-", "_") == COMPLETE_TASK.name:
        return _action_page(COMPLETE_TASK, unix_socket)
    app, _, name = key.partition("/")
    if app not in enabled:
        listing = ", ".join(f"'{a}'" for a in enabled)
        raise InvalidArgument(
            f"no page '{page}'; pages: '' (the index), {listing}, '<app>/<action>' or '{COMPLETE_TASK.name}'", "page"
        )
    if not name:
        return _app_page(app, unix_socket)
    actions = REGISTRY.apps[app].actions
    action = actions.get(name.replace("-", "_"))
    if action is None:
        listing = ", ".join(f"'{app}/{a}'" for a in actions)
        raise InvalidArgument(f"no page '{page}'; {app} pages: {listing}", "page")
    return _action_page(action, unix_socket)
