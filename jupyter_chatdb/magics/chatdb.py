"""`%%chatdb`: ask the notebook's DataFrames a question in plain language."""

from __future__ import annotations

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from traitlets import Bool, Int, Unicode, observe

from ..api import ChatDB
from .display import LiveDisplay


@magics_class
class ChatDBMagics(Magics):
    """Options are set with `%config ChatDBMagics.<option> = value`."""

    model = Unicode(
        "",
        help="Model to use: 'local' (embedded, offline), a .gguf path, a server URL or a model name. "
        "Empty: CHATDB_MODEL, then OPENAI_API_KEY/OPENAI_BASE_URL, then the embedded model.",
    ).tag(config=True)
    database = Unicode(
        "", help="DuckDB file for ChatDB's own tables, relative to the notebook; empty keeps them in memory."
    ).tag(config=True)
    preview_rows = Int(10, help="Rows of each result shown in the output.").tag(config=True)
    summarize = Bool(True, help="Let the model phrase the answer from the result (one more model call).").tag(
        config=True
    )

    def __init__(self, shell=None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(shell=shell, **kwargs)
        self._chatdb: ChatDB | None = None

    @property
    def engine(self) -> ChatDB:
        """The kernel's ChatDB, created on first use so loading the extension stays instant."""
        if self._chatdb is None:
            self._chatdb = ChatDB(self.model or None, self.database or None, summarize=self.summarize)
        return self._chatdb

    @engine.setter
    def engine(self, chatdb: ChatDB) -> None:
        """Use an existing ChatDB (another model or database) for the following cells."""
        self.close()
        self._chatdb = chatdb

    @observe("model", "database", "summarize")
    def _settings_changed(self, change: dict) -> None:
        self.close()  # the next cell builds a ChatDB with the new settings

    @magic_arguments()
    @argument("-o", "--out", metavar="VAR", help="Store the result DataFrame in the variable VAR.")
    @argument("--write", action="store_true", help="Allow INSERT, UPDATE and DELETE for this cell.")
    @argument("--dry-run", action="store_true", help="Show the rows the writes would change; change nothing.")
    @cell_magic
    def chatdb(self, line: str, cell: str) -> None:
        """Answer the question in the cell from the notebook's DataFrames and ChatDB's tables.

        The SQL steps, their results and the answer are shown as they happen.
        """
        args = parse_argstring(self.chatdb, line)
        if args.out and not args.out.isidentifier():
            raise UsageError(f"-o needs a Python variable name, not {args.out!r}.")
        if not cell.strip():
            raise UsageError("Write your question in the cell, below %%chatdb.")
        self.engine.bind_frames(self.shell.user_ns)
        view = LiveDisplay(self.preview_rows)
        reply = self.engine.ask(cell.strip(), allow_writes=args.write, dry_run=args.dry_run, on_event=view.apply)
        if args.out:
            self.shell.user_ns[args.out] = reply.result

    def close(self) -> None:
        if self._chatdb is not None:
            self._chatdb.close()
            self._chatdb = None
