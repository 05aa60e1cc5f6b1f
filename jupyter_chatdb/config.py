"""The extension's settings: one traitlets Configurable, so `%config ChatDB` lists and sets them.

Keys are deliberately not settings: they come from the environment (OPENAI_API_KEY), so they never
end up in `%config` listings, notebooks or memory files.
"""

from __future__ import annotations

from traitlets import Bool, Float, Int, TraitError, Unicode, validate
from traitlets.config import Configurable

from .options import MAX_STEPS, Options

STRATEGY_NAMES = (
    "native",
    "changes",
    "chain",
    "flat",
    "repair-flat",
    "facts",
    "one-round",
)  # controller/strategies.py (not imported: it pulls the core in)


class ChatDB(Configurable):
    """Settings of `%%chatdb` and `%chatdb`: `%config ChatDB.<option> = value` (takes effect at the next cell)."""

    model = Unicode(
        "",
        help="Model to use: 'local' (embedded, offline), a .gguf path, a server URL or a model name. "
        "Empty: CHATDB_MODEL, then OPENAI_API_KEY/OPENAI_BASE_URL, then the embedded model.",
    ).tag(config=True)
    database = Unicode(
        "", help="DuckDB file for ChatDB's own tables, relative to the notebook; empty keeps them in memory."
    ).tag(config=True)
    preview_rows = Int(10, help="Rows of each step's result shown in the output.").tag(config=True)
    summarize = Bool(True, help="Let the model phrase the answer from the result (one more model call).").tag(
        config=True
    )
    strategy = Unicode(
        "native",
        help="How a request becomes SQL: 'native' (a question is one SQL statement in the form the model was "
        "trained on; a write is first read for what it does to rows, a change an UPDATE written by code, and "
        "what it adds as the rows it states; other requests a plan of steps), "
        "'chain' (every request a plan of steps), 'flat' (native, shown views that flatten "
        "joins), 'repair-flat' (the views shown with a failed read's first repair), 'facts' (native, a write "
        "read only as the rows it states), 'changes' (native, by its former name) or 'one-round'.",
    ).tag(config=True)
    max_steps = Int(MAX_STEPS, help=f"Most SQL steps the model may plan for one request (1 to {MAX_STEPS}).").tag(
        config=True
    )
    candidates = Int(
        Options.candidates,
        help="Plans sampled for a question; above 1 the result most of them agree on is kept (slower).",
    ).tag(config=True)
    second_look = Int(
        Options.second_look,
        help="Queries written in all for a doubtful answer (its query failed first, found nothing, or compares a "
        "value not stored); the result most agree on is kept. 1, the default: no second look.",
    ).tag(config=True)
    top_tables = Int(
        Options.top_tables,
        help="Schema selection with many tables: the K tables most like the request (plus the tables joined to them) "
        "that the model picks from; 0 shows every table to the model.",
    ).tag(config=True)
    select_over = Int(
        Options.select_over, help="Select tables only when there are more than this many; fewer all go into the prompt."
    ).tag(config=True)
    approve_share = Float(
        Options.approve_share,
        help="A write that changes or removes every row of a table, or more than this share of the rows of a "
        "table of at least 10 rows, waits for approval even with --write.",
    ).tag(config=True)
    procedure_match = Float(
        Options.procedure_match,
        help="A write request at least this close in meaning (0 to 1) to one a procedure was learned from, "
        "to its name or to what it does is offered that procedure (the model chooses); above 1 none is offered.",
    ).tag(config=True)
    memory = Bool(
        True, help="Thought memory: recall earlier conclusions before planning and store new ones after each answer."
    ).tag(config=True)
    memory_dir = Unicode("", help="Folder for the notebook's memory; empty: a .chatdb folder beside the notebook.").tag(
        config=True
    )
    verbose = Bool(False, help="Show the model's raw output and every controller decision in the chain view.").tag(
        config=True
    )
    plot = Bool(
        True,
        help="Draw a chart under a result that suits one: a time or category column with numbers (--no-plot: not).",
    ).tag(config=True)

    def options(self) -> dict[str, object]:
        """The controller options these settings set (for `ChatDB.configure`)."""
        return {
            "candidates": self.candidates,
            "second_look": self.second_look,
            "top_tables": self.top_tables,
            "select_over": self.select_over,
            "approve_share": self.approve_share,
            "procedure_match": self.procedure_match,
        }

    @validate("preview_rows")
    def _check_preview_rows(self, proposal: dict) -> int:
        if proposal["value"] < 0:
            raise TraitError("preview_rows must be 0 or more.")
        return proposal["value"]

    @validate("strategy")
    def _check_strategy(self, proposal: dict) -> str:
        if proposal["value"] not in STRATEGY_NAMES:
            raise TraitError(f"strategy must be one of {', '.join(STRATEGY_NAMES)}.")
        return proposal["value"]

    @validate("max_steps")
    def _check_max_steps(self, proposal: dict) -> int:
        if not 1 <= proposal["value"] <= MAX_STEPS:
            raise TraitError(f"max_steps must be between 1 and {MAX_STEPS}.")
        return proposal["value"]

    @validate("top_tables", "select_over")
    def _check_tables(self, proposal: dict) -> int:
        if proposal["value"] < 0:
            raise TraitError(f"{proposal['trait'].name} must be 0 or more.")
        return proposal["value"]

    @validate("approve_share")
    def _check_approve_share(self, proposal: dict) -> float:
        if not 0 < proposal["value"] <= 1:
            raise TraitError("approve_share must be above 0 and at most 1.")
        return proposal["value"]

    @validate("candidates", "second_look")
    def _check_candidates(self, proposal: dict) -> int:
        if proposal["value"] < 1:
            raise TraitError(f"{proposal['trait'].name} must be 1 or more.")
        return proposal["value"]
