"""Mail: the acting user's mailbox (moving into this package; the app is still declared in ``actions/messages``)."""

from tools.apps.gmail.actions.messages import app

__all__ = ["app"]
