"""The step language of reference solutions and controls: ``{var}`` substitution and dotted result paths.

A step is ``{"tool": "gmail.search_messages", "args": {...}, "save": {"var": "results.0.id"}}``;
``"{var}"`` inside a later argument is replaced by the saved value (a whole-string ``"{var}"`` keeps the
saved value's type).

A shell step is ``{"shell": "python3 -c '...'", "save": {"total": "stdout"}}``: the command line (``{var}``
replaced as in arguments; quote what you substitute) runs with ``sh -c`` in the session's sandbox, in its
workspace, with the provider, environment and ``PATH`` of the agent's own commands (the app commands and
``python3`` with openpyxl, python-docx and pypdf). Its result is ``{"stdout": str, "stderr": str,
"exit_code": 0}`` (stdout without its trailing newlines, as ``$(...)`` gives it); a non-zero exit, a timeout
or a session without a sandbox fails the play with the exit status and the end of its stderr
(``gateway.runners.policies.run_steps``). Reference solutions and negative controls use it alike, e.g. to
compute a workbook's totals and write the new file that a later step uploads.
"""

from __future__ import annotations

import re
from typing import Any

from gateway.exceptions import TaskError

__all__ = ["extract", "substitute"]

_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def substitute(value: Any, variables: dict[str, Any]) -> Any:
    """Replace ``{var}`` in strings (recursively in lists and dicts) with saved values.

    Raises:
        TaskError: a variable was never saved.
    """
    if isinstance(value, str):
        whole = _VAR.fullmatch(value)
        if whole:
            return _lookup_var(whole.group(1), variables)
        return _VAR.sub(lambda m: str(_lookup_var(m.group(1), variables)), value)
    if isinstance(value, list):
        return [substitute(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, variables) for k, v in value.items()}
    return value


def _lookup_var(name: str, variables: dict[str, Any]) -> Any:
    if name not in variables:
        raise TaskError(f"solution uses {{{name}}} before saving it")
    return variables[name]


def extract(result: Any, path: str) -> Any:
    """Follow a dotted path (``"results.0.id"``) into a result.

    Raises:
        TaskError: the path does not exist in the result.
    """
    cur = result
    for part in path.split("."):
        try:
            cur = cur[int(part)] if isinstance(cur, list) else cur[part]
        except (KeyError, IndexError, ValueError, TypeError):
            raise TaskError(f"result has no {path!r} (stopped at {part!r})") from None
    return cur
