"""The facade and composition root: `ChatDB` builds the session, journal, memories and controller; the
small desks beside it turn procedures, rules and replays into requests; `notebook.py` opens what a
notebook's ChatDBs share."""

from .data_methods import Status
from .facade import STRATEGIES, ChatDB

__all__ = ["STRATEGIES", "ChatDB", "Status"]
