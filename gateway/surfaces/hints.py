"""Error hints in the caller's own terms.

App errors name the action to use instead the way the shell command spells it
(``use drive search-files to find ids``). Callers that came in over MCP or HTTP
read the tool name or the endpoint instead.
"""

from __future__ import annotations

import functools
import re

from tools import REGISTRY

__all__ = ["reword"]


@functools.cache
def _pattern() -> re.Pattern[str]:
    apps = "|".join(re.escape(a) for a in REGISTRY.apps)
    return re.compile(rf"\b({apps}) ([a-z]+(?:-[a-z]+)*)\b")


def reword(text: str, surface: str) -> str:
    """Rewrite ``<app> <command>`` mentions in ``text`` for ``surface`` (``mcp``, ``http``; ``cli`` unchanged).

    Only real app commands are rewritten: ``drive search-files`` becomes ``company_drive_search_files``
    (mcp) or ``POST /api/drive/search_files`` (http); other words are left alone.
    """
    if surface == "cli":
        return text

    def swap(match: re.Match[str]) -> str:
        app, command = match.group(1), match.group(2).replace("-", "_")
        action = REGISTRY.apps[app].actions.get(command)
        if action is None:
            return match.group(0)
        return action.tool_name if surface == "mcp" else f"POST {action.http_path}"

    return _pattern().sub(swap, text)
