"""`%%chatdb` (ask in plain language) and `%chatdb` (status, tables, history, undo, ...)."""

from __future__ import annotations

import sys
import warnings
from argparse import Namespace
from collections.abc import Mapping
from pathlib import Path

from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from ..api import ChatDB
from ..api.notebook import NotebookMemory
from ..config import ChatDB as Settings
from ..controller.events import Reply
from ..controller.kinds import Route
from ..errors import ChatDBError, RequestStopped
from ..kernel_memory.thoughts import ThoughtMemory
from ..kernel_memory.verified_reads import MAX_SQL_CHARS
from ..sql.session import Binding
from .books import described, teach
from .cell_words import expand_variables, question, split_words
from .line_commands import COMMANDS, status
from .live import LiveOutputs
from .views import View, make_view, show_chart

STOPPED = "Stopped: nothing was written."
VERIFIED_NOTE = "Kept as this question's verified SQL: later questions like it are asked with it as an example."


@magics_class
class ChatDBMagics(Magics):
    """The extension's magics; their settings are `%config ChatDB.<option>`."""

    def __init__(self, shell=None, **kwargs) -> None:
        super().__init__(shell=shell, **kwargs)
        self.settings = Settings(parent=shell)
        self.settings.observe(self._model_changed, names=["model"])
        self.settings.observe(self._database_changed, names=["database"])
        self._engines: dict[str, ChatDB] = {}  # by database ("" is in memory)
        self.last_pending: View | None = None  # the last cell whose writes wait for approval
        self.last_view: View | None = None  # the last cell's chain, for %chatdb sql N
        self.notebook = NotebookMemory(say=lambda line: print(line, file=sys.stderr))
        self.last_applied: tuple[ChatDB, Reply] | None = None  # the last write the user approved, to keep
        self.last_read: tuple[View, ChatDB, Reply] | None = None  # the last read in words, to mark right
        self._skipped: dict[str, str] = {}  # DataFrames DuckDB could not read at the last cell, already warned of
        self.live = LiveOutputs(shell)  # widget outputs to make static when the next cell runs

    @property
    def kernel(self) -> InteractiveShell:
        """The kernel's shell: set once the extension registered these magics."""
        assert self.shell is not None, "the magics are not registered with a shell"
        return self.shell

    # -- engines ------------------------------------------------------------------------------

    @property
    def engine(self) -> ChatDB:
        """The kernel's ChatDB for the configured database, created on first use."""
        return self._engine(self.settings.database)

    @engine.setter
    def engine(self, chatdb: ChatDB) -> None:
        """Use an existing ChatDB (another model or database) for the following cells."""
        old = self._engines.pop(self.settings.database, None)
        if old is not None and old is not chatdb:
            old.close()
        self._engines[self.settings.database] = chatdb

    def _engine(self, database: str) -> ChatDB:
        engine = self._engines.get(database)
        if engine is None:  # every database is asked through the same model and shares the notebook's memory
            model = next(iter(self._engines.values())).model if self._engines else (self.settings.model or None)
            engine = self.notebook.chatdb(model, database, self.memory, self.settings.summarize, self.settings.strategy)
            self._engines[database] = engine
        if not self.settings.memory and engine.memory is not None:  # %config ChatDB.memory = False
            engine.memory = None
        elif self.settings.memory and engine.memory is None and self.memory is not None:
            engine.memory = self.memory
        engine.summarize = self.settings.summarize
        engine.strategy = self.settings.strategy
        engine.configure(**self.settings.options())
        return engine

    @property
    def memory(self) -> ThoughtMemory | None:
        """The notebook's thought memory, opened on first use; None when it is off or cannot be opened."""
        if not self.settings.memory:
            return None
        folder = Path(self.settings.memory_dir) if self.settings.memory_dir else None
        return self.notebook.memory(self.kernel.user_ns, folder)

    @property
    def memory_off(self) -> str | None:
        """Why the thought memory could not be opened (said once), if it could not."""
        return self.notebook.off

    def _model_changed(self, change: Mapping[str, object]) -> None:
        """A new model keeps the data: each engine asks the new model about the same database."""
        for database, engine in list(self._engines.items()):
            self._engines[database] = engine.with_model(str(change["new"]) or None)

    def _database_changed(self, change: Mapping[str, object]) -> None:
        self.last_pending = None  # %chatdb approve applies only writes planned for the current database

    # -- %%chatdb and %chatdb -----------------------------------------------------------------

    @magic_arguments()
    @argument("-o", "--out", metavar="VAR", help="Store the result DataFrame in the variable VAR.")
    @argument("--write", action="store_true", help="Allow INSERT, UPDATE and DELETE for this cell.")
    @argument("--dry-run", action="store_true", help="Plan and show the rows the writes would change; change nothing.")
    @argument(
        "--model", metavar="NAME", help="Model for this cell: 'local', a .gguf path, a server URL or a model name."
    )
    @argument(
        "--steps", metavar="N", type=int, help="Most SQL steps the model may plan (default: %%config ChatDB.max_steps)."
    )
    @argument("--db", metavar="FILE", help="DuckDB database file for this cell (default: %%config ChatDB.database).")
    @argument(
        "--replay", action="store_true", help="Run the SQL recorded for this cell's text again, without the model."
    )
    @argument("--sql", action="store_true", help="The cell is SQL: run it through the guard, without the model.")
    @argument("--no-memory", action="store_true", help="Neither recall thoughts for this cell nor store new ones.")
    @argument("--no-procedure", action="store_true", help="Plan a write even if a procedure was kept for its kind.")
    @argument(
        "--teach",
        metavar="NAME",
        help="The cell is SQL with $parameters, and '-- ' lines with requests it is for: keep it as procedure NAME.",
    )
    @argument(
        "--rule",
        metavar="NAME",
        help="The cell says what a derived column is (or is its UPDATE): show the SQL; approving keeps rule NAME.",
    )
    @argument("--verbose", action="store_true", help="Also show the controller's decisions (routing, plans, votes).")
    @argument("--plot", action="store_true", help="Draw a chart of the result where one fits (%%config ChatDB.plot).")
    @argument("--no-plot", action="store_true", help="No chart for this cell.")
    @line_cell_magic
    def chatdb(self, line: str, cell: str | None = None) -> object:
        """Ask the notebook's DataFrames and ChatDB's tables in plain language.

        %%chatdb [options]  -- the cell holds the question or instruction; {name} is replaced by the
        value of the notebook variable `name` ({{ and }} for literal braces). The steps, their SQL and
        results and the answer are shown as they happen; the result DataFrame is the cell's value
        (end the cell with ; to hide it).

        %chatdb                 status: model, database, tables
        %chatdb tables          the tables ChatDB can query; with many tables, which the last request chose and why
        %chatdb describe TABLE "text"  say what a table holds (table selection finds it by this too)
        %chatdb describe TABLE.COLUMN "text"  say what a column means (shown beside it in every prompt)
        %chatdb attach FILE [NAME]  query another DuckDB file's tables, read-only, as NAME.table
        %chatdb connect TARGET  read a remote engine's tables there: a SparkSession variable, sc://host:15002
                                (Spark Connect), spark://host:7077, or an SQLAlchemy URL (only reads run there)
        %chatdb disconnect      stop reading the remote engine's tables
        %chatdb history         the applied write requests
        %chatdb undo [N]        undo the last N applied write requests (default 1)
        %chatdb restore ID      bring the data back to how it was right after request ID (0: before the first)
        %chatdb model NAME|URL  use another model from the next cell on
        %chatdb approve [--keep NAME]  apply the last write that is waiting for approval (and keep it as a procedure)
        %chatdb reject          drop it
        %chatdb keep NAME       keep the last write you approved as procedure NAME, for later requests like it
        %chatdb verify          mark the last read right: later questions like it are asked with it as an example
        %chatdb verified [forget "QUESTION"]  the reads marked right or corrected, or forget one
        %chatdb procedures [show NAME | forget NAME]  the procedures kept, one of them, or forget one
        %chatdb rules [show NAME | forget NAME]  the rules that keep derived data true, one of them, or forget one
        %chatdb sql [N]         a new cell below with step N's SQL of the last request (default: the last step)
        """
        if cell is None:
            return self._command(line)
        return self._ask(_options(line), cell)

    def _ask(self, args: Namespace, cell: str) -> object:
        text, silenced = question(cell)
        if args.out and not args.out.isidentifier():
            raise UsageError(f"-o needs a Python variable name, not {args.out!r}.")
        if args.steps is not None and not 1 <= args.steps <= Settings.max_steps.default_value:
            raise UsageError(f"--steps needs a number from 1 to {Settings.max_steps.default_value}, not {args.steps}.")
        if sum(map(bool, (args.replay, args.sql, args.teach, args.rule))) > 1:
            raise UsageError("Use one of --replay, --sql, --teach and --rule.")
        if args.plot and args.no_plot:
            raise UsageError("Use --plot or --no-plot, not both.")
        text = expand_variables(text, self.kernel.user_ns)
        engine = self._engine(args.db if args.db is not None else self.settings.database)
        if args.teach:
            teach(engine, args.teach, text)
            return None
        if args.model:
            engine = engine.with_model(args.model)
        self._warn_skipped(engine.bind_frames(self.kernel.user_ns))
        view = make_view(self.shell, self.settings.preview_rows, verbose=args.verbose or self.settings.verbose)
        self.last_view = view
        self.live.add(view.settle)
        asked = "" if args.sql or args.replay or args.rule else text  # what an edited step corrects
        applied_before = len(engine.history())
        try:
            reply = self._run(engine, args, text, view)
        except ChatDBError as error:  # the cell's error says why, once; the view offers Edit and Run
            view.actions.rerun = lambda index, sql: self._rerun(engine, view, index, sql, args.write, asked)
            view.failed(str(error), shown_below=True)
            raise
        except KeyboardInterrupt:  # Stop, or the kernel's interrupt: one line, not a traceback of our threads
            history = engine.history()
            stopped = STOPPED  # the request's transaction is rolled back on the way out, unless it had committed
            if len(history) > applied_before:
                saved = history["request_id"].iloc[-1]
                stopped = f"Stopped after the write was saved as request {saved}: %chatdb undo takes it back."
            view.failed(stopped, shown_below=True)
            raise RequestStopped(stopped) from None
        value = None if silenced or reply.result is None else reply.result
        if asked and reply.route == Route.READ:  # a read in words may be marked right (its button, %chatdb verify)
            view.actions.verify = lambda: self.verify(view, engine, reply)
            self.last_read = (view, engine, reply)
        view.finished(reply, value_below=value is not None)
        charted = args.plot or (self.settings.plot and reply.route != Route.DATABASE)  # a profile is no chart's data
        if charted and not args.no_plot and reply.result is not None and not reply.pending:
            show_chart(reply.result)
        self._offer_approval(engine, reply, view, args.write, asked)
        if reply.seen and reply.request_id is not None:  # SQL the user wrote, applied
            self.last_applied = (engine, reply)
        if args.out:
            self.kernel.user_ns[args.out] = reply.result
        return value

    def _warn_skipped(self, binding: Binding) -> None:
        """One warning per DataFrame DuckDB cannot read (the other frames are bound as usual)."""
        for name, reason in binding.skipped.items():
            if self._skipped.get(name) != reason:
                warnings.warn(f"{reason} It is left out of %%chatdb until it changes.", stacklevel=2)
        self._skipped = dict(binding.skipped)

    def _run(self, engine: ChatDB, args: Namespace, text: str, view: View) -> Reply:
        writes = args.write and not args.dry_run
        if args.rule:
            return engine.propose_rule(args.rule, text, on_event=view.apply)
        if args.replay:
            return engine.replay(text, allow_writes=writes, on_event=view.apply)
        if args.sql:
            return engine.run_sql(text, allow_writes=writes, on_event=view.apply)
        steps = args.steps or self.settings.max_steps
        return engine.ask(
            text,
            allow_writes=args.write,
            dry_run=args.dry_run,
            max_steps=steps,
            use_memory=not args.no_memory,
            use_procedures=not args.no_procedure,
            on_event=view.apply,
        )

    def _offer_approval(self, engine: ChatDB, reply: Reply, view: View, allow_writes: bool, asked: str = "") -> None:
        """A pending write waits for Approve (its button or %chatdb approve); an edited step can be re-run
        (and, for a request in words, `asked`, memory keeps the edit as a correction)."""
        self._wait_for_approval(view, engine, reply)
        view.actions.approve = lambda: self.approve(view)
        view.actions.keep = lambda name: self.approve_and_keep(view, name)
        view.actions.reject = lambda: self.reject(view)
        view.actions.rerun = lambda index, sql: self._rerun(engine, view, index, sql, allow_writes, asked)

    def _wait_for_approval(self, view: View, engine: ChatDB, reply: Reply) -> None:
        view.pending = (engine, reply) if reply.pending else None
        if reply.pending:
            self.last_pending = view
        elif self.last_pending is view:
            self.last_pending = None

    def approve(self, view: View | None) -> Reply:
        if view is None or view.pending is None:
            raise ChatDBError("No write is waiting for approval.")
        (engine, reply), view.pending = view.pending, None
        if self.last_pending is view:
            self.last_pending = None
        view.approving()
        try:
            applied = engine.apply(reply, on_event=view.apply)
        except ChatDBError as error:
            view.failed(str(error))
            raise
        view.finished(applied)
        self.last_applied = (engine, applied)
        return applied

    def approve_and_keep(self, view: View, name: str) -> Reply:
        """Apply the write waiting in `view`, then keep it as procedure `name` (the Keep as procedure button)."""
        if view.pending is None:
            raise ChatDBError("No write is waiting for approval.")
        engine = view.pending[0]
        applied = self.approve(view)
        try:
            view.kept(f"Kept as procedure {name!r}: {described(engine.learn(applied, name))}.")
        except ChatDBError as error:  # applied all the same: only the keeping failed
            view.kept(f"Applied, not kept as a procedure: {error}")
        return applied

    def verify(self, view: View, engine: ChatDB, reply: Reply) -> None:
        """Keep the read `view` shows as a verified example (the Mark right button, %chatdb verify)."""
        try:
            engine.verify(reply)
        except ChatDBError as error:
            view.verified(f"Not kept as a verified example: {error}")
            raise
        view.verified(VERIFIED_NOTE)

    def reject(self, view: View | None) -> None:
        if view is None or view.pending is None:
            raise ChatDBError("No write is waiting for approval.")
        view.pending = None
        if self.last_pending is view:
            self.last_pending = None
        view.rejected()

    def _rerun(self, engine: ChatDB, view: View, index: int, sql: str, allow_writes: bool, asked: str = "") -> None:
        try:
            reply = engine.run_sql(sql, allow_writes=allow_writes, corrects=asked)
        except ChatDBError as error:
            view.step_rerun_failed(index, sql, str(error))
            return
        view.step_rerun(index, reply)
        if asked and reply.route == Route.READ and len(sql.strip()) <= MAX_SQL_CHARS:  # run_sql kept it
            view.verified(VERIFIED_NOTE)
        self._wait_for_approval(view, engine, reply)
        if reply.request_id is not None:
            self.last_applied = (engine, reply)

    # -- %chatdb line commands ------------------------------------------------------------------

    def _command(self, line: str) -> object:
        words = split_words(line, "%chatdb")
        if not words:
            status(self, [])
            return None
        command, rest = words[0], words[1:]
        if command not in COMMANDS:
            known = ", ".join(COMMANDS)
            raise UsageError(f"Unknown %chatdb command {command!r}: use one of {known} (see %chatdb?).")
        return COMMANDS[command](self, rest)

    def close(self) -> None:
        self.live.settle_all()
        self.live.close(self.shell)
        for engine in self._engines.values():
            engine.close()
        self._engines.clear()
        self.last_pending = self.last_view = None
        self.notebook.close()
        self.last_applied = self.last_read = None


def _usage(doc: str | None) -> str:
    r"""IPython's magic_arguments writes the usage as an RST literal block of the line magic (`::` then
    `%chatdb`); `%%chatdb?` reads better with the cell magic's usage and no directive.

    >>> print(_usage("::\n\n  %chatdb [-o VAR]\n\nAsk."))
      %%chatdb [-o VAR]
    <BLANKLINE>
    Ask.
    """
    return (doc or "").replace("::\n\n  %chatdb", "  %%chatdb", 1)


ChatDBMagics.chatdb.__doc__ = _usage(ChatDBMagics.chatdb.__doc__)


def _options(line: str) -> Namespace:
    r"""The options of a `%%chatdb` cell. Split as a shell splits them, quotes left out (IPython's
    `parse_argstring` keeps them: `--teach "a b"` would name the procedure '"a b"'), backslashes kept as
    written (a Windows path); a bad option is a UsageError.

    >>> args = _options(r'--teach "feed a horse" --db C:\data\yard.duckdb')
    >>> print(args.teach, args.db, sep=" | ")
    feed a horse | C:\data\yard.duckdb
    """
    parser = ChatDBMagics.chatdb.parser  # what @magic_arguments built from the @argument declarations
    return parser.parse_args(split_words(line, "%%chatdb", escapes=False))
