"""Procedural memory in a request: a write of a kind the user approved or taught before runs that
procedure; the model only chooses it and reads its values in the request (short constrained calls), each
read by the column it lands in (`procedure_values`: a listed entry, a day, a number in words); words for a
listed column that are none of its entries are read once more among them, and a pick makes the write wait
for approval, saying what was read as what; a filled text the request does not say (as written, or as a
code in words), a number it does not state or its column cannot hold (2.5 nights), is read once more, and
still so makes the write wait, saying why; a day in figures that reads two ways is put in the order the
request, the procedure's first request or the column's days settle, else the write waits
(`procedure_doubts`).

Three checks keep a small model's choice honest: procedures that reach fewer of the tables the request
names its things by than others do (touching them or, touching none, writing rows that refer to them)
are not offered (a rider who "bought" hay is no stable's delivery); after a no to each, the model is
asked once more for one or none; and a chosen procedure that, tried and rolled back, fails, changes no
row where it must, or compares a column with a value no row holds (`_misfit`), or writes one to a
column referring to kept rows (`procedure_doubts.unheld_reference`), gives way to the next one chosen.
A step whose own values are all filled as zero and not said is an optional part, left out
(`procedure_values.unsaid_steps`), and the card says so."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator

from ...errors import ChatDBError, QueryInterrupted, SQLRefused
from ...kernel_memory.procedure_sql import equated_parameters
from ...kernel_memory.procedures import CANDIDATES, Match, ProcedureError
from ...recording.resolve import StoredRows
from ...sql import guard
from ...sql.catalog import Catalog
from ...sql.names import quote_identifier, quote_table
from .. import procedure_prompts, prompts
from ..context import Context
from ..events import Event, ProcedureNotUsed, ProcedureUsed
from ..kinds import Route
from ..planned_steps import PlannedStep
from ..procedure_doubts import Unstated, ordered_days, read_again, unfit_numbers, unheld_reference, unstated_texts
from ..procedure_values import ParameterColumns, Unlisted, read_by_columns, unsaid_steps, with_entry
from ..stage import stage
from .run import rows_changed

CHOOSE_MAX_TOKENS = 16 + 12 * CANDIDATES
PICK_MAX_TOKENS = 24
FILL_TOKENS_PER_ITEM = 40
FILL_MAX_TOKENS = 400
TRIED = 2  # procedures chosen for one request that are filled and tried, the closest first
ENTRIES_ASKED = 2  # words for listed columns read once more among the entries, per procedure filled
ENTRY_MAX_TOKENS = 24
TEXTS_ASKED = 2  # filled texts the request does not say, read once more, per procedure filled
NUMBERS_ASKED = 2  # filled numbers it does not state or their column cannot hold, read once more
WORDS_MAX_TOKENS = 48


@stage
def use_procedure(ctx: Context) -> Iterator[Event]:
    """For a write close in meaning to requests procedures were learned from: the model chooses among
    them (or none), then reads the chosen one's values; its steps are the plan. A chosen procedure that,
    tried and rolled back, does not fit (`_misfit`: a refund of an order never made changes no row) is of
    another kind: the next one chosen is tried, and when each chosen one is of another kind, the model
    may pick one of the others offered. When none is left, or values cannot be read, the request is
    planned as usual."""
    book = ctx.services.procedures
    if ctx.route != Route.WRITE or book is None or ctx.steps or not ctx.request.use_procedures:
        return
    matches = book.candidates(
        ctx.request.text, ctx.options.procedure_match, named=ctx.named_tables(), refers=_refers(ctx.catalog)
    )
    if not matches:
        return
    messages = procedure_prompts.choose_messages(ctx.request.text, listed(matches))
    schema = procedure_prompts.choose_schema([m.procedure.name for m in matches])
    completion = yield from ctx.calls("procedure", messages, schema, CHOOSE_MAX_TOKENS)
    said = _json_object(completion.text)
    chosen = [m for m in matches if said.get(m.procedure.name) is True]  # the closest first
    if not chosen:  # a no to each: asked once more, for one or none
        chosen = yield from _picked(ctx, matches)
    if not chosen:
        yield ProcedureNotUsed(matches[0].procedure.name, "the model found it another kind of change")
        return
    tried = chosen[:TRIED]
    outcome = yield from _first_applying(ctx, tried)
    rest = [m for m in matches if m not in tried]
    if outcome == "idle" and rest:  # each chosen one would change nothing here: one of the others, if picked
        picked = yield from _picked(ctx, rest)
        yield from _first_applying(ctx, picked)


def _refers(catalog: Catalog) -> dict[str, set[str]]:
    """Each table (lower case) -> the tables its foreign keys refer to."""
    return {name.lower(): {key.table.lower() for key in table.foreign_keys} for name, table in catalog.tables.items()}


def _picked(ctx: Context, matches: list[Match]) -> Generator[Event, None, list[Match]]:
    """The one of `matches` the model picks when asked for one or none."""
    names = [m.procedure.name for m in matches]
    if procedure_prompts.NONE_PICKED in names:
        return []
    messages = procedure_prompts.pick_messages(ctx.request.text, listed(matches))
    completion = yield from ctx.calls("procedure", messages, procedure_prompts.pick_schema(names), PICK_MAX_TOKENS)
    picked = prompts.parse_json(completion.text, "procedure")
    return [m for m in matches if m.procedure.name == picked]


def _first_applying(ctx: Context, matches: list[Match]) -> Generator[Event, None, str]:
    """Fill each of `matches` in turn and make the first that fits here (`_misfit`) the plan: "used",
    "idle" when each does not fit here, or "unread" when values could not be read."""
    outcome = "unread"
    for match in matches:
        procedure = match.procedure
        messages = procedure_prompts.fill_messages(
            procedure.name, procedure.requests[0], procedure.example, ctx.request.text
        )
        budget = min(FILL_MAX_TOKENS, 60 + FILL_TOKENS_PER_ITEM * (1 + len(procedure.item_fields)))
        completion = yield from ctx.calls("fill", messages, procedure.values_schema(), budget)
        try:
            filled = json.loads(completion.text)
        except json.JSONDecodeError:
            yield ProcedureNotUsed(procedure.name, "the model's values were not JSON")
            continue
        given = filled if isinstance(filled, dict) else {}
        left_out = unsaid_steps(procedure, given, ctx.request.text)  # optional parts the request gives nothing for
        run = procedure.without_steps(left_out)
        columns = ParameterColumns.of(run, ctx.session, ctx.catalog)
        read, unlisted = read_by_columns({k: v for k, v in given.items() if k in run.names}, columns, ctx.session)
        doubts = []
        for words in unlisted[:ENTRIES_ASKED]:  # read once more among the entries: a pick waits, saying so
            entry = yield from _entry_meant(ctx, words)
            if entry is None:
                break
            with_entry(read, words.parameter, words.item, entry)
            doubts.append(f"{words.column}: {words.said!r} read as {entry!r}")
        if len(doubts) < len(unlisted):
            missed = unlisted[len(doubts)]
            reason = f"{missed.column}: {missed.said!r} is none of {', '.join(missed.entries)}"
            yield ProcedureNotUsed(procedure.name, reason)
            continue
        stored = StoredRows(ctx.session)
        doubts += ordered_days(read, ctx.request.text, columns, stored)
        texts = unstated_texts(read, ctx.request.text, columns, stored)
        numbers = unfit_numbers(read, ctx.request.text, columns)
        suspect = [*texts[:TEXTS_ASKED], *numbers[:NUMBERS_ASKED]]
        doubts += [doubt.reason() for doubt in (*texts[TEXTS_ASKED:], *numbers[NUMBERS_ASKED:])]  # not asked: wait
        for doubt in suspect:  # read once more; still unsaid or unfit: the write waits, saying so
            reread = yield from _words_again(ctx, doubt)
            again = read_again(reread, doubt, columns, ctx.request.text, stored)
            if again is None:
                doubts.append(doubt.reason())
            else:
                with_entry(read, doubt.parameter, doubt.item, again)
        try:
            values = run.checked_values(read)
        except ProcedureError as error:
            yield ProcedureNotUsed(procedure.name, str(error))
            continue
        steps, bound = run.expanded(values)
        planned = [PlannedStep(step.goal, step.sql, step.binds) for step in steps]
        misfit = unheld_reference(read, columns, stored) or _misfit(ctx, planned, bound)
        if misfit is not None:
            yield ProcedureNotUsed(procedure.name, f"{misfit}: another kind of change")
            outcome = "idle"
            continue
        ctx.steps, ctx.params, ctx.procedure = planned, bound, procedure.name
        ctx.held += [f"{doubt}; check it before approving" for doubt in doubts]
        goals = tuple(procedure.steps[at].goal for at in left_out)
        yield ProcedureUsed(procedure.name, procedure.source, tuple(values.items()), match.similarity, goals)
        return "used"
    return outcome


def _entry_meant(ctx: Context, words: Unlisted) -> Generator[Event, None, str | None]:
    """The entry of a listed column the model reads `words` as, asked once among the entries; None for
    none of them."""
    messages = procedure_prompts.entry_messages(ctx.request.text, words.column, words.entries, words.said)
    schema = procedure_prompts.entry_schema(words.entries)
    completion = yield from ctx.calls("choice", messages, schema, ENTRY_MAX_TOKENS)
    entry = _json_object(completion.text).get("entry")
    return entry if isinstance(entry, str) and entry in words.entries else None


def _words_again(ctx: Context, doubt: Unstated) -> Generator[Event, None, str]:
    """The request's own words for the column `doubt` was filled for, read once more ("" for none)."""
    messages = procedure_prompts.words_messages(ctx.request.text, doubt.column, doubt.said)
    completion = yield from ctx.calls("fill", messages, procedure_prompts.WORDS_SCHEMA, WORDS_MAX_TOKENS)
    words = _json_object(completion.text).get("value")
    return words if isinstance(words, str) else ""


def listed(matches: list[Match]) -> list[tuple[str, str, str]]:
    """Each procedure as the model is shown it: its name, the request closest to this one, what it does."""
    return [(m.procedure.name, m.request, m.procedure.summary()) for m in matches]


def _misfit(ctx: Context, steps: list[PlannedStep], params: dict[str, object]) -> str | None:
    """Why the procedure does not fit this request, its steps run with `params` in a transaction rolled
    back: a value compared with a column that no row holds at that step (a request of another kind filled
    in: a book's title read as a member's name), a step that fails, or one that changes no row where a
    write must (an UPDATE, DELETE or INSERT ... SELECT that is not conditional). None when it fits."""
    if any(step.binds for step in steps):
        return None  # a step binding results for later ones: left for the run to judge
    schema = ctx.catalog.schema()
    session = ctx.session
    number = 0
    session.begin()
    try:
        for number, step in enumerate(steps, start=1):
            for statement in guard.check(step.sql, schema, mode=guard.Mode.PREVIEW).statements:
                bound = {name: params[name] for name in statement.parameters}
                if not statement.conditional and (missing := _naming_no_row(ctx, statement.sql, bound, schema)):
                    return f"its step {number} compares {missing}, which no row holds here"
                changed = rows_changed(statement, session.run(statement.sql, bound))
                if changed == 0 and not statement.conditional:
                    return f"its step {number} would change no row here"
    except QueryInterrupted:
        raise
    except SQLRefused as error:  # the guard's: the schema changed since it was kept
        return f"its step {number} no longer fits the tables ({(str(error).splitlines() or [''])[0][:120]})"
    except ChatDBError as error:
        return f"its step {number} fails here ({(str(error).splitlines() or [''])[0][:120]})"
    finally:
        session.rollback()
    return None


def _naming_no_row(ctx: Context, sql: str, params: dict[str, object], schema: dict[str, list[str]]) -> str | None:
    """The first "column 'value'" of `sql` where a column must equal a value of `params` to name a kept row
    (`equated_parameters`) that no row of its table (`schema`: table -> columns) holds."""
    for name, (table, column) in sorted(equated_parameters(sql, schema).items()):
        value = params.get(name)
        if value is None:
            continue
        probe = f"SELECT 1 FROM {quote_table(table)} WHERE {quote_identifier(column)} = $value LIMIT 1"
        try:
            held = ctx.session.run(probe, {"value": value}).row_count > 0
        except QueryInterrupted:
            raise
        except ChatDBError as error:  # a value its column cannot hold ("Ann" for a number) names no row
            held = "conver" not in str(error).lower()
        if not held:
            return f"{column} {value!r}"
    return None


def _json_object(text: str) -> dict[str, object]:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}
