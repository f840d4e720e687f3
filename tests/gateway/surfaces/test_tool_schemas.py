"""The tool-schema rules (docs/exposures.md), over every generated tool."""

import json
import re

import pytest

from tools import COMPLETE_TASK, REGISTRY

ACTIONS = [*REGISTRY.actions(), COMPLETE_TASK]


def walk(schema):
    yield schema
    for value in schema.values():
        if isinstance(value, dict):
            yield from walk(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    yield from walk(item)


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.tool_name)
def test_tool_schema_rules(action):
    name = action.tool_name
    assert re.fullmatch(r"[a-z0-9_]+", name)
    assert len(name) <= 48
    schema = action.input_schema
    assert schema["type"] == "object"
    assert "$ref" not in json.dumps(schema) and "$defs" not in json.dumps(schema)
    for pname, prop in schema["properties"].items():
        assert "type" in prop, pname
        assert prop.get("description"), pname
        if "minimum" in prop:
            assert f"minimum {prop['minimum']:,}" in prop["description"]
        if "maximum" in prop:
            assert f"maximum {prop['maximum']:,}" in prop["description"]
        if "maxLength" in prop:
            assert f"at most {prop['maxLength']:,} characters" in prop["description"]
        if prop.get("type") == "string":
            assert "maxLength" in prop or "enum" in prop or "pattern" in prop, f"{pname} has no length bound"
        if "pattern" in prop:
            assert prop["pattern"] in prop["description"]
        if "enum" in prop:
            assert all(str(v) in prop["description"] for v in prop["enum"])
    for pname, prop in schema["properties"].items():
        assert not any("title" in sub for sub in walk(prop)), pname
    assert action.description.strip()


def test_tool_names_are_unique_and_prefixed():
    names = [a.tool_name for a in ACTIONS]
    assert len(names) == len(set(names))
    assert all(n.startswith("company_") for n in names)
