"""The company chat: channels, direct messages, threads, reactions, pins, shared files and statuses."""

from tools.apps.slack import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.slack import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.slack.app import app
from tools.apps.slack.state import Channel, Message, Reaction, SlackFile, SlackState, Status

__all__ = ["Channel", "Message", "Reaction", "SlackFile", "SlackState", "Status", "app"]
