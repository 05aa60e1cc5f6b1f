"""Grounding a step's literals: each string literal compared with a text column that does not hold it is
replaced by the stored value meant, and the change is shown (never for approved SQL)."""

from __future__ import annotations

from collections.abc import Generator, Sequence

from sqlglot import exp

from ...grounding.literals import LiteralUse, MissingValue, literal_uses, replace_literals
from ...grounding.mentions import Mention, mentioned_values
from ...grounding.schema_words import schema_stems
from ...grounding.values import Candidate, clear_choice
from .. import prompts
from ..context import Chain, Context
from ..events import Event, ValueCorrected

VALUE_MAX_TOKENS = 40
CORRECT_VALUES = "correct_values"  # the name that leaves the value correction out: `ChatDB(without=(...))`


def correct_values(ctx: Context, chain: Chain, index: int, tree: exp.Expr) -> Generator[Event, None, exp.Expr]:
    """A step's `tree` (its statements joined), with the literals its columns do not hold replaced by the
    stored values meant (a copy; the tree itself when nothing changes)."""
    if not ctx.options.values or ctx.request.approved:
        return tree
    index_of_values = ctx.services.values
    changes: dict[tuple[str, str, str], str] = {}
    for use in literal_uses(tree, chain.schema):
        values = index_of_values.column(use.table, use.column)
        if values is None or use.text is None or use.found_in(values.values):
            continue  # not a text column, a pattern with inner wildcards, or a value it holds
        candidates = index_of_values.candidates_in(values, use.text)
        if not candidates:
            if not values.capped:  # a capped column cannot say the value is not there
                chain.missing_values.append(MissingValue(use, _held_by(ctx, use)))
            continue
        choice = clear_choice(candidates) or (yield from _choose_value(ctx, use, candidates))
        if choice is not None:
            new = changes[(use.table, use.column, use.literal)] = use.with_value(choice.value)
            yield ValueCorrected(index, use.table, use.column, use.literal, new, choice.how)
    return replace_literals(tree, chain.schema, changes) if changes else tree


def _choose_value(
    ctx: Context, use: LiteralUse, candidates: list[Candidate]
) -> Generator[Event, None, Candidate | None]:
    """Several stored values resemble the literal: one constrained call picks one (or keeps the literal)."""
    options = [c.value for c in candidates]
    messages = prompts.value_choice_messages(ctx.request.text, use.table, use.column, use.text or use.literal, options)
    schema = {
        "type": "object",
        "properties": {"value": {"enum": [*options, use.text or use.literal]}},
        "required": ["value"],
    }
    completion = yield from ctx.calls("value", messages, schema, VALUE_MAX_TOKENS)
    chosen = prompts.parse_json(completion.text, "value")
    return next((Candidate(c.value, c.score, "model") for c in candidates if c.value == chosen), None)


def _held_by(ctx: Context, use: LiteralUse, limit: int = 3) -> tuple[str, ...]:
    """The other text columns holding `use`'s literal, in any case (a pattern's text: within a value)."""
    wanted = (use.text or "").casefold()
    if not wanted:
        return ()
    held = []
    for table, column in ctx.catalog.text_column_pairs():
        values = ctx.services.values.column(table, column)
        if values is None or (table, column) == (use.table, use.column):
            continue
        stored = (v.casefold() for v in values.values)
        if any((wanted in v) if use.pattern else (wanted == v) for v in stored):
            held.append(f"{table}.{column}")
    return tuple(held[:limit])


def mentioned(ctx: Context, names: Sequence[str] | None) -> list[Mention]:
    """The stored values the request names, in the text columns of tables `names` (None: all), with value
    grounding on."""
    if not ctx.options.values:
        return []
    columns = ctx.catalog.text_column_pairs(names)
    return mentioned_values(ctx.request.text, ctx.services.values, columns, schema_stems(ctx.catalog))
