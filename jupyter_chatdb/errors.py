"""The errors users see, and the one place that turns them into a short message.

Every ChatDBError carries a sentence that says what went wrong and what to do. IPython shows
`_render_traceback_` instead of a traceback, so a failed cell shows that sentence and nothing else;
unexpected exceptions (bugs) keep their full traceback.
"""

from __future__ import annotations


class ChatDBError(Exception):
    """Base class: the message is complete and meant for the user."""

    fixable = False  # True: the model may be shown the message and asked to correct its SQL

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class ConfigError(ChatDBError):
    """An option or argument has a value that cannot work."""


class MemoryFileError(ChatDBError):
    """A file given to `%mem export` or `%mem import` cannot be used, or a line of it is not a memory record."""


class ModelUnavailable(ChatDBError):
    """No model can be used: missing key, unreachable server, model not installed."""


class ModelIntegrityError(ModelUnavailable):
    """The embedded model file is missing parts or has the wrong checksum."""


class RequestStopped(ChatDBError):
    """The user stopped a request (Stop, or the kernel's interrupt); it was rolled back."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


class ModelOutputError(ChatDBError):
    """The model answered with something that is not what was asked for."""


class SQLRefused(ChatDBError):
    """The SQL guard refused a statement; the message explains why."""

    def __init__(self, message: str, *, fixable: bool = False) -> None:
        super().__init__(message)
        # Unknown names and syntax errors are fixable; policy refusals (writes, ATTACH, ...) never are.
        self.fixable = fixable

    def _render_traceback_(self) -> list[str]:
        return [f"SQLRefused: {self}"]  # users see one kind of refusal; the subclasses are for code


class SQLSyntaxError(SQLRefused):
    """The SQL does not parse (tokenizer or parser): the model may fix it, or it may be another dialect."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message, fixable=True)
        self.line = line  # where the parser stopped, when it says
        self.column = column


class UnknownName(SQLRefused):
    """A table or column the session does not have; the model may fix it with the closest real name."""

    def __init__(self, message: str, *, kind: str, name: str, suggestion: str | None = None) -> None:
        super().__init__(message, fixable=True)
        self.kind = kind  # "table" or "column"
        self.name = name
        self.suggestion = suggestion  # the closest real name, when one is close


class NotAllowed(SQLRefused):
    """The statement is well formed but the guard's policy refuses it: no correction of names makes it run."""


class WriteWidened(SQLRefused):
    """A fix-up of a write would remove a table, a join or a condition, so it could touch more rows: the
    write is refused as given; the model may correct it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, fixable=True)


class QueryFailed(ChatDBError):
    """DuckDB raised an error while running a statement."""

    fixable = True


class QueryInterrupted(ChatDBError):
    """The user interrupted a running query; nothing was changed."""
