"""The calendar app's declared actions: read-only flags and tool schemas."""

from tools.apps.calendar import app


def test_actions_are_declared_with_the_right_read_only_flags():
    flags = {name: a.read_only for name, a in app.actions.items()}
    assert flags == {
        "list_events": True,
        "get_event": True,
        "create_event": False,
        "update_event": False,
        "delete_event": False,
        "respond_to_event": False,
        "find_free_slots": True,
        "list_rooms": True,
        "find_available_rooms": True,
    }


def test_tool_schemas_are_flat_and_described():
    for action in app.actions.values():
        assert len(action.tool_name) <= 48
        assert action.input_schema["type"] == "object"
        for prop in action.input_schema["properties"].values():
            assert prop["type"] and prop["description"]
        assert "Example: " in action.description
