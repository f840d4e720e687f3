"""Mail: the acting user's mailbox with search, threads, drafts, labels, filters, a vacation reply and attachments."""

from tools.apps.gmail import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.gmail import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.gmail.app import app
from tools.apps.gmail.state import (
    SYSTEM_LABELS,
    Attachment,
    Draft,
    Filter,
    GmailState,
    Label,
    Message,
    Vacation,
)

__all__ = ["SYSTEM_LABELS", "Attachment", "Draft", "Filter", "GmailState", "Label", "Message", "Vacation", "app"]
