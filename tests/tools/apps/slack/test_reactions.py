"""Chat reaction actions: add an emoji reaction, take it back."""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import PRIYA, TOMAS_QUESTION, ctx
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument


def test_reactions_add_and_remove():
    c = ctx()
    out = call(c, "add_reaction", message_id=TOMAS_QUESTION, emoji=":thumbsup:")
    assert out["reactions"] == [
        {"name": "eyes", "count": 1, "users": [PRIYA]},
        {"name": "+1", "count": 1, "users": [USER]},
    ]
    out = call(c, "add_reaction", message_id=TOMAS_QUESTION, emoji="eyes")
    assert out["reactions"][0] == {"name": "eyes", "count": 2, "users": [PRIYA, USER]}
    unchanged(c, "add_reaction", Conflict, message_id=TOMAS_QUESTION, emoji="eyes")
    unchanged(c, "add_reaction", InvalidArgument, message_id=TOMAS_QUESTION, emoji="not an emoji!")
    out = call(c, "remove_reaction", message_id=TOMAS_QUESTION, emoji="+1")
    assert [r["name"] for r in out["reactions"]] == ["eyes"]
    out = call(c, "remove_reaction", message_id=TOMAS_QUESTION, emoji="eyes")
    assert out["reactions"] == [{"name": "eyes", "count": 1, "users": [PRIYA]}]
    unchanged(c, "remove_reaction", Conflict, message_id=TOMAS_QUESTION, emoji="eyes")
