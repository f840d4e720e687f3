from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx
from tools import COMPLETE_TASK, REGISTRY, AppError, InvalidArgument, NotFound, quote
from tools.kernel.exceptions import QUOTE_LIMIT
from tools.kernel.registry import ID_LIMIT, ITEMS_LIMIT, TEXT_LIMIT
from tools.kits.text import FILE_TEXT_LIMIT, LONG_TEXT_LIMIT, SEARCH_TERMS_LIMIT, SEARCH_TEXT_LIMIT

ALL_ACTIONS = [*REGISTRY.actions(), COMPLETE_TASK]


def _text_params() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for action in ALL_ACTIONS:
        for name, prop in action.input_schema["properties"].items():
            if prop["type"] == "string" and "enum" not in prop:
                found.append((action.tool_name, name, prop))
    return found


def test_every_free_text_parameter_has_a_length_bound_stated_in_its_description() -> None:
    params = _text_params()
    assert len(params) > 300
    unbounded = [f"{tool}.{name}" for tool, name, prop in params if "maxLength" not in prop]
    assert unbounded == []
    unstated = [
        f"{tool}.{name}"
        for tool, name, prop in params
        if f"at most {prop['maxLength']:,} characters" not in prop["description"]
    ]
    assert unstated == []


def test_every_list_parameter_bounds_its_items_and_their_length() -> None:
    lists = [
        (a.tool_name, n, p)
        for a in ALL_ACTIONS
        for n, p in a.input_schema["properties"].items()
        if p["type"] == "array"
    ]
    assert len(lists) > 30
    assert [f"{t}.{n}" for t, n, p in lists if "maxItems" not in p] == []
    text_items = [(t, n, p) for t, n, p in lists if p["items"].get("type") == "string" and "enum" not in p["items"]]
    assert [f"{t}.{n}" for t, n, p in text_items if "maxLength" not in p["items"]] == []
    assert all("each item at most" in p["description"] for _, _, p in text_items)


def test_defaults_are_short_for_ids_and_one_line_values_and_long_for_bodies_and_file_text() -> None:
    tools = REGISTRY.by_tool_name()
    props = {name: tools[name].input_schema["properties"] for name in tools}
    assert props["company_gmail_get_message"]["message_id"]["maxLength"] == ID_LIMIT
    assert props["company_gmail_send_message"]["subject"]["maxLength"] == TEXT_LIMIT
    assert props["company_gmail_search_messages"]["query"]["maxLength"] == SEARCH_TEXT_LIMIT
    assert props["company_gmail_send_message"]["body"]["maxLength"] == LONG_TEXT_LIMIT
    assert props["company_drive_create_file"]["content"]["maxLength"] == FILE_TEXT_LIMIT
    assert props["company_gmail_send_message"]["to"]["maxItems"] == ITEMS_LIMIT
    # a bound the action declares itself is kept
    assert props["company_slack_post_message"]["text"]["maxLength"] == 4000
    assert props["company_gmail_create_label"]["name"]["maxLength"] == 100


def test_a_too_long_value_is_refused_with_its_size_not_its_text() -> None:
    action = REGISTRY.by_tool_name()["company_gmail_send_message"]
    with pytest.raises(InvalidArgument) as info:
        action.validate({"to": ["a@b.example"], "subject": "e " * 2_500_000})
    assert info.value.parameter == "subject"
    assert "5,000,000 characters" in info.value.message
    assert "e e e e" not in info.value.message
    assert len(str(info.value)) < 400


def test_a_too_long_list_is_refused_naming_its_size() -> None:
    action = REGISTRY.by_tool_name()["company_gmail_archive_message"]
    with pytest.raises(InvalidArgument) as info:
        action.validate({"message_ids": ["msg_1"] * 10_000})
    assert info.value.parameter == "message_ids"
    assert "10,000 items" in info.value.message
    assert len(str(info.value)) < 400


def test_a_bad_value_is_echoed_as_a_short_prefix_only() -> None:
    action = REGISTRY.by_tool_name()["company_gmail_search_messages"]
    with pytest.raises(InvalidArgument) as info:
        action.validate({"page": "z" * 5_000_000})
    assert info.value.parameter == "page"
    assert "'" + "z" * QUOTE_LIMIT + "'... (5,000,000 characters)" in info.value.message
    assert len(str(info.value)) < 600


def test_quote_shows_short_values_whole_and_cuts_long_ones() -> None:
    assert quote("msg_1") == "'msg_1'"
    assert quote(12) == "12"
    assert quote("x" * 1000) == "'" + "x" * QUOTE_LIMIT + "'... (1,000 characters)"
    shown = quote(["y" * 1000] * 1_000_000)
    assert shown.startswith("['yyy")
    assert len(shown) <= QUOTE_LIMIT + 3
    assert len(quote({"k": "v" * 10_000})) <= QUOTE_LIMIT + 3


SEARCHES = {
    "company_gmail_search_messages": "query",
    "company_gmail_list_contacts": "query",
    "company_gmail_create_filter": "query",
    "company_calendar_list_events": "query",
    "company_drive_search_files": "query",
    "company_drive_list_shared_drives": "query",
    "company_box_search": "query",
    "company_onedrive_search_items": "query",
    "company_sharepoint_search_files": "query",
    "company_sharepoint_list_sites": "query",
    "company_slack_search_messages": "query",
    "company_slack_list_channels": "query",
    "company_slack_list_files": "query",
    "company_helpdesk_search_tickets": "text",
    "company_directory_search_people": "query",
}


@pytest.mark.parametrize(("tool", "param"), SEARCHES.items())
def test_every_search_states_its_term_bound_and_refuses_more_terms(tool: str, param: str) -> None:
    action = REGISTRY.by_tool_name()[tool]
    prop = action.input_schema["properties"][param]
    assert f"at most {SEARCH_TERMS_LIMIT} terms" in prop["description"]
    assert "x-maxTerms" not in prop  # described, not sent as a keyword clients may not know
    assert action.validate({param: "e " * SEARCH_TERMS_LIMIT})[param] == "e " * SEARCH_TERMS_LIMIT
    with pytest.raises(InvalidArgument) as info:
        action.validate({param: "e " * (SEARCH_TERMS_LIMIT + 1)})
    assert info.value.parameter == param
    assert f"has {SEARCH_TERMS_LIMIT + 1} terms; a search takes at most {SEARCH_TERMS_LIMIT}" in info.value.message
    assert "e e e" not in info.value.message


def test_every_number_parameter_refuses_true_and_false_but_takes_numbers() -> None:
    numbers = [
        (a, name)
        for a in ALL_ACTIONS
        for name, prop in a.input_schema["properties"].items()
        if prop["type"] in ("integer", "number")
    ]
    assert len(numbers) > 40
    for action, name in numbers:
        for flag in (True, False):
            with pytest.raises(InvalidArgument, match=f"^{name}: must be a number, not true or false"):
                action.validate({name: flag})
    search = REGISTRY.by_tool_name()["company_gmail_search_messages"]
    assert search.validate({"query": "budget", "page": 2})["page"] == 2
    assert search.validate({"query": "budget", "page": "2"})["page"] == 2  # a shell's words arrive as text


def test_an_error_cuts_a_long_word_or_quoted_name_it_repeats() -> None:
    path = "reports/" + "a" * 1200 + ".pdf"
    assert str(NotFound(f"there is no file at '{path}' in your workspace", "path")) == (
        f"path: there is no file at '{path[:80]}...' in your workspace"
    )
    label = "b" * 300
    shown_label = f"no such label {label[:80]}... (use list-labels)"
    assert str(AppError(f"no such label {label} (use list-labels)")) == shown_label
    shown = quote("z" * 500)  # what quote() shows stays whole
    assert str(AppError(f"bad value {shown}")) == f"bad value {shown}"


@pytest.mark.slow
def test_no_action_repeats_a_long_value_whole_in_its_error() -> None:
    # Every free-text parameter of every action, given a 1,500-character word and 750 short words (or its bound),
    # with every other required parameter given a placeholder; a workspace that holds nothing.
    longest: list[tuple[int, str]] = []
    for action in REGISTRY.actions():
        props = action.input_schema["properties"]
        required = action.input_schema.get("required", [])
        placeholders = {"string": "x", "integer": 1, "number": 1, "array": [], "boolean": False}
        for name, prop in props.items():
            if prop["type"] != "string" or "enum" in prop:
                continue
            size = min(prop["maxLength"], 1500)
            base = {q: placeholders[props[q]["type"]] for q in required if q != name}
            for value in ("q" * size, "q " * (size // 2)):
                ctx = app_ctx(action.app, MemoryFiles())
                try:
                    action.invoke(ctx, {**base, name: value})
                except AppError as exc:
                    longest.append((len(str(exc)), f"{action.tool_name}.{name}: {str(exc)[:200]}"))
    assert len(longest) > 300
    assert max(longest)[0] <= 400, max(longest)
