from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from cli_shim.parse import Help, Invocation, UsageError, action_help, app_help, parse_argv
from tools import COMPLETE_TASK, REGISTRY, App, AppState, Context

demo = App("demo", AppState, "A made-up app with every parameter type.", order=("send_note",))


@demo.action(read_only=False)
def send_note(
    ctx: Context[Any],
    to: list[Annotated[str, Field(max_length=100_000)]],
    body: str,
    urgent: bool = False,
    copies: Annotated[int, Field(ge=1, le=5)] = 1,
    tone: Literal["plain", "warm"] = "plain",
    ids: list[int] | None = None,
) -> dict[str, Any]:
    """Send a note to some people.

    Example:
        to=["ann@example.com"] body="Hi" -> {"sent": true}.

    Args:
        to: Addresses to send to.
        body: The text of the note.
        urgent: Mark the note urgent.
        copies: How many copies to send.
        tone: The tone of the note.
        ids: Related note ids.

    Returns:
        {"sent": true}.
    """
    return {"sent": True}


ACTIONS = demo.actions


def call(*argv: str) -> Invocation:
    parsed = parse_argv("demo", ACTIONS, list(argv), demo.description)
    assert isinstance(parsed, Invocation)
    return parsed


def usage(*argv: str) -> str:
    with pytest.raises(UsageError) as info:
        parse_argv("demo", ACTIONS, list(argv), demo.description)
    return info.value.message


@pytest.mark.parametrize(
    "value",
    [
        "hello world",
        'it\'s "quoted"',
        "a=b=c",
        "line one\nline two",
        "naïve café 東京 🙂",
        "-starts-with-dash",
        "--looks-like-an-option",
        "",
        "$HOME `id` \\ & | ; %20 +",
    ],
)
def test_awkward_values_pass_unchanged_in_equals_form(value: str) -> None:
    assert call("send-note", "--to=a@example.com", f"--body={value}").arguments["body"] == value


def test_value_may_follow_as_the_next_word_even_when_it_starts_with_a_dash() -> None:
    args = call("send-note", "--to", "a@example.com", "--body", "-5 degrees").arguments
    assert args["body"] == "-5 degrees"
    assert args["to"] == ["a@example.com"]


def test_next_word_that_is_a_known_option_is_not_taken_as_a_value() -> None:
    assert usage("send-note", "--body", "--to=a@example.com") == "--body needs a value: write --body=VALUE"


def test_lists_repeat_or_take_a_json_array() -> None:
    assert call("send-note", "--to=a@x.com", "--to=b@x.com", "--body=x").arguments["to"] == ["a@x.com", "b@x.com"]
    assert call("send-note", '--to=["a@x.com", "b=c"]', "--body=x").arguments["to"] == ["a@x.com", "b=c"]
    assert call("send-note", "--to=[not json", "--body=x").arguments["to"] == ["[not json"]


def test_a_list_value_too_deep_or_too_long_for_json_is_taken_as_one_word() -> None:
    deep = "[" * 50_000
    assert call("send-note", f"--to={deep}", "--body=x").arguments["to"] == [deep]
    huge = "[1" + "0" * 5000 + "]"
    assert call("send-note", f"--to={huge}", "--body=x").arguments["to"] == [huge]


def test_list_of_integers_is_converted() -> None:
    assert call("send-note", "--to=a", "--body=x", "--ids=3", "--ids=[4, 5]").arguments["ids"] == [3, 4, 5]


def test_integers_are_converted_and_range_checked() -> None:
    assert call("send-note", "--to=a", "--body=x", "--copies=3").arguments["copies"] == 3
    assert usage("send-note", "--to=a", "--body=x", "--copies=three") == "--copies expects a whole number, got 'three'"
    message = usage("send-note", "--to=a", "--body=x", "--copies=9")
    assert message.startswith("--copies: ")
    assert "less than or equal to 5" in message


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], False),
        (["--urgent"], True),
        (["--urgent=false"], False),
        (["--urgent=TRUE"], True),
        (["--urgent=0"], False),
        (["--no-urgent"], False),
    ],
)
def test_booleans_are_flags(words: list[str], expected: bool) -> None:
    assert call("send-note", "--to=a", "--body=x", *words).arguments["urgent"] is expected


def test_boolean_flag_refuses_a_non_boolean_value() -> None:
    assert usage("send-note", "--to=a", "--body=x", "--urgent=maybe").startswith("--urgent is a flag")


def test_names_accept_dashes_or_underscores() -> None:
    search = REGISTRY.apps["directory"].actions
    for word in ("search-people", "search_people"):
        for opt in ("--page-size=3", "--page_size=3"):
            parsed = parse_argv("directory", search, [word, opt])
            assert isinstance(parsed, Invocation)
            assert parsed.arguments["page_size"] == 3


def test_unknown_option_is_named_and_valid_ones_listed() -> None:
    message = usage("send-note", "--to=a", "--body=x", "--colour=red")
    assert message.startswith("unknown option --colour; valid options: --to, --body, --urgent, --copies, --tone, --ids")


def test_missing_required_parameter_is_named() -> None:
    assert usage("send-note", "--body=x").startswith("--to: is required")


def test_enum_value_is_checked_by_the_schema() -> None:
    assert "plain" in usage("send-note", "--to=a", "--body=x", "--tone=angry")
    assert call("send-note", "--to=a", "--body=x", "--tone=warm").arguments["tone"] == "warm"


def test_repeating_a_single_value_option_is_refused() -> None:
    assert usage("send-note", "--to=a", "--body=x", "--body=y").startswith("--body was given twice")


def test_positional_words_are_refused_with_the_form_to_use() -> None:
    assert usage("send-note", "hello").startswith("unexpected argument 'hello'; give values as --name=value")


def test_unknown_command_lists_the_commands() -> None:
    assert usage("send") == "unknown command 'send'; demo commands: send-note"
    assert usage("--to=a").startswith("the first word must be a command")


@pytest.mark.parametrize("words", [[], ["--help"], ["-h"], ["help"]])
def test_app_help(words: list[str]) -> None:
    parsed = parse_argv("demo", ACTIONS, words, demo.description)
    assert parsed == Help(app_help("demo", demo.description, ACTIONS))
    assert "send-note" in parsed.text
    assert "A made-up app with every parameter type." in parsed.text


@pytest.mark.parametrize("words", [["send-note", "--help"], ["send-note", "--to=a", "-h"], ["help", "send-note"]])
def test_action_help(words: list[str]) -> None:
    parsed = parse_argv("demo", ACTIONS, words)
    assert parsed == Help(action_help("demo", demo.actions["send_note"]))


def test_help_as_an_equals_value_is_a_value() -> None:
    assert call("send-note", "--to=a", "--body=--help").arguments["body"] == "--help"


def test_action_help_shows_usage_types_and_an_example() -> None:
    text = action_help("demo", demo.actions["send_note"])
    first = text.splitlines()[0]
    assert first == (
        "usage: demo send-note --to=VALUE ... --body=VALUE [--urgent] [--copies=N] [--tone=VALUE] [--ids=N ...]"
    )
    assert "Send a note to some people." in text
    assert "  --copies=N\n      integer, optional. How many copies to send. Constraints: minimum 1; maximum 5." in text
    assert "list of strings (repeat the option, or give a JSON array), required. Addresses to send to." in text
    assert "  --urgent\n      flag, optional. Mark the note urgent." in text
    assert "  demo send-note --to=ann@example.com --body=Hi" in text


def test_complete_task_help_and_call() -> None:
    actions = {COMPLETE_TASK.name: COMPLETE_TASK}
    parsed = parse_argv("company", actions, ["complete-task", "--summary=Done: 3 = 3"])
    assert isinstance(parsed, Invocation)
    assert parsed.arguments == {"summary": "Done: 3 = 3", "answer": ""}
    helped = parse_argv("company", actions, ["complete-task", "--help"])
    assert isinstance(helped, Help)
    assert helped.text.startswith("usage: company complete-task [--summary=VALUE] [--answer=VALUE]\n")


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "ten"])
def test_a_number_that_is_no_json_number_is_refused_naming_the_option(value: str) -> None:
    from cli_shim.parse import _scalar

    with pytest.raises(UsageError) as info:
        _scalar("amount", value, {"type": "number"})
    assert info.value.message == f"--amount expects a number, got '{value}'"
    assert _scalar("amount", " 2.5 ", {"type": "number"}) == 2.5
