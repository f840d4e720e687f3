"""The documentation tool and the OpenAPI document, both rendered from the registry in ``tools``."""

from docs_tool.openapi import openapi_document
from docs_tool.pages import page_names, render_page
from docs_tool.tool import DOCS_TOOL_NAMES, DocsTool, docs_tool
from tools.kernel.examples import example_arguments

__all__ = [
    "DOCS_TOOL_NAMES",
    "DocsTool",
    "docs_tool",
    "example_arguments",
    "openapi_document",
    "page_names",
    "render_page",
]
