import json

from tools.apps.gmail import app


def test_tool_schemas_are_flat_and_described():
    for action in app.actions.values():
        assert len(action.tool_name) <= 48
        schema = action.input_schema
        assert schema["type"] == "object"
        assert "$defs" not in json.dumps(schema)
        for prop in schema["properties"].values():
            assert prop["type"] and prop["description"]
        assert "Example: " in action.description
