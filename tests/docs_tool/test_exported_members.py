from __future__ import annotations

import importlib

import pytest

MODULES = [
    "cli_shim",
    "cli_shim.generate",
    "cli_shim.parse",
    "gateway.cli_api",
    "docs_tool",
    "tools.examples",
    "docs_tool.openapi",
    "docs_tool.pages",
    "docs_tool.tool",
    "gateway.http_api",
]


@pytest.mark.parametrize("name", MODULES)
def test_every_exported_name_exists(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))
    for member in module.__all__:
        assert hasattr(module, member), f"{name}.{member}"


def test_packages_export_their_public_surface() -> None:
    import cli_shim
    import docs_tool

    assert {"command_scripts", "parse_argv", "UsageError", "Help", "Invocation"} <= set(cli_shim.__all__)
    assert {"docs_tool", "render_page", "openapi_document"} <= set(docs_tool.__all__)
