"""Helpers the SharePoint tests share: a context over the default company and a clean-failure check."""

from __future__ import annotations

from typing import Any

from tests.tools.apps.conftest import app_ctx
from tools.companies import USER
from tools.kernel.world import Context, FileStore


def ctx(files: FileStore | None = None, with_directory: bool = True) -> Context[Any]:
    """A SharePoint context over the default company, with or without a workspace and the directory."""
    return app_ctx("sharepoint", files, directory=with_directory)


def names(results: list[dict[str, Any]]) -> list[str]:
    """The names of the results, in order."""
    return [r["name"] for r in results]



def set_role(c: Context[Any], site_id: str, role: str) -> None:
    """Give the user ``role`` on the site."""
    site = c.state.sites[site_id]
    site.members = [m.model_copy(update={"role": role}) if m.email == USER else m for m in site.members]
