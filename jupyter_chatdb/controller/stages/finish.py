"""Finishing a request: commit its writes (journalled) or roll them back for approval; answer from the
last result; and, for a read the plan could not answer, the fallback: one statement, one repair."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import cast

import pandas as pd

from ...errors import ChatDBError, ModelOutputError, QueryFailed, SQLRefused
from ...sql.approval import Preview, RunMarks, bulk_change, differences
from ...sql.journal import TableChange
from ..answer import plain_answer
from ..context import Context
from ..events import ApprovalNeeded, Committed, ConceptsMissing, Event, Reply
from ..phrase import phrase
from ..shown_units import shown_in_units
from ..stage import stage
from ..top_n import tie_note
from .honesty import read_as_a_column, refusal
from .one_statement import foundation_sql
from .rule_steps import apply_rules
from .run import run_steps
from .wall_clock import wall_clock_note

FALLBACK_REPAIRS = 1


@stage(may_fall_back=True)
def finish(ctx: Context) -> Iterator[Event]:
    """Commit the writes, or roll them back and wait for approval: without writes allowed, in a dry run,
    when they change every row of a table (or more than `approve_share`), or when a stage held them
    (`ctx.held`: a value the request does not give, a number nothing written holds). An approval must
    change exactly the rows its preview showed."""
    chain = ctx.running()
    if not ctx.session.in_transaction:
        return
    own = yield from apply_rules(ctx)
    assert chain.recorder is not None
    request, session = ctx.request, ctx.session
    chain.changes = tuple(chain.recorder.changes())
    statements = [step.sql for step in chain.steps] + [step.sql for step in chain.done]  # the latter with $names
    ran = Preview(chain.changes, RunMarks.read(session, chain.sequences, chain.seed, statements, chain.values))
    if request.expected is not None and (difference := differences(request.expected, ran)):
        raise ChatDBError(
            f"The data changed since the preview: {difference}. Nothing was applied; ask again for a new preview."
        )
    approval = None if request.allow_writes else "writes are not allowed"
    if request.dry_run:
        approval = approval or "this is a dry run"
    if request.expected is None and not (request.rule and request.approved):
        # every write path but Approve (which runs what its preview showed) and a rule kept as written;
        # what rules then changed was approved with the rules
        own_changes = chain.changes if own is None else own
        approval = approval or bulk_change(own_changes, ctx.options.approve_share, chain.matched)
        if added := _adds_to_a_change(ctx.does, own_changes, ctx.rows_of_the_change):
            ctx.held.append(added)
        approval = approval or "; ".join(ctx.held)
    if approval:
        session.rollback()
        chain.preview = ran
        yield ApprovalNeeded(approval, chain.changes)
    else:
        if ctx.rule is not None:  # kept in the same transaction as its first run
            assert ctx.services.rules is not None, "a rule was proposed to a controller without rules"
            ctx.services.rules.keep(ctx.rule)
        chain.request_id = chain.recorder.commit(request.text, [s.sql for s in chain.steps], chain.changes)
        session.commit()
        yield Committed(chain.request_id, chain.changes)


@stage(may_fall_back=True)
def answer(ctx: Context) -> Iterator[Event]:
    """The answer from the last result (what changed, for writes); phrased by the model when `summarize`,
    kept only if every number in it is in a result and each label is paired with its own figures; a top-N
    answer says when the N-th row ties with the next."""
    request, chain = ctx.request, ctx.running()
    steps = chain.steps
    reads = [s for s in steps if s.result is not None and s.rows_affected is None and len(s.result.frame.columns)]
    result = reads[-1].result.frame if reads else None  # type: ignore[union-attr]
    writes = [s.rows_affected for s in steps if s.rows_affected is not None]
    affected = sum(writes) if writes else None
    sql = [s.sql for s in steps]
    pending = chain.preview is not None
    units, unit_notes = tuple[str, ...](), tuple[str, ...]()
    if chain.changes or affected is not None:
        text = _changes_answer(chain.changes, pending)
        if pending and ctx.held:
            text += f" It waits for approval: {'; '.join(ctx.held)}."
        if ctx.rule is not None:
            kept = "Approve to keep" if pending else "Kept"
            text += f" {kept} rule {ctx.rule.name!r}: it runs {ctx.rule.runs_after()}."
    else:
        if result is not None and ctx.preferred:
            shown = shown_in_units(result, reads[-1].sql, ctx.catalog, ctx.preferred)
            result, units, unit_notes = shown.frame, shown.converted, (*shown.converted, *shown.as_stored)
        text = plain_answer(result, None)
        if result is not None and result.empty and chain.missing_values:
            text += f" (No rows: {chain.missing_values[0]}.)"
        if request.summarize and result is not None:
            frames = [s.result.frame for s in reads if s.result is not None]
            known = pd.concat([*frames, result] if units else frames, ignore_index=True)
            text = (yield from phrase(ctx.calls, request.text, sql, result, None, known)) or text
        if reads and result is not None and (last := reads[-1].result) is not None:
            text += tie_note(ctx.session, last.sql, dict(reads[-1].params), len(result))
        if ctx.doubtful:
            text += f" (Note: {'; '.join(ctx.doubtful)}, so this may not be what was asked.)"
        if ctx.assumed:
            text += f" (Note: {'; '.join(ctx.assumed)}.)"
        if zones := wall_clock_note(ctx.session.zones(), [s.sql for s in reads]):
            text += f" (Note: {zones}.)"
        if unit_notes:
            text += f" (Note: {'; '.join(unit_notes)}.)"
    ctx.reply = Reply(
        request.text,
        text,
        sql,
        result,
        steps,
        ctx.calls.usage,
        ctx.services.model.name,
        route=ctx.route,
        plan=tuple(chain.done),
        changes=chain.changes,
        pending=pending,
        request_id=chain.request_id,
        preview=chain.preview,
        doubtful=(*ctx.doubtful, *ctx.assumed, *ctx.held),
        params=tuple(ctx.params.items()),
        procedure=ctx.procedure,
        seen=request.seen,
        rule=ctx.rule,
        examples=ctx.examples,
        units=units,
    )


@stage
def fall_back(ctx: Context) -> Iterator[Event]:
    """For a read the plan could not answer: the Foundation's one-SQL prompt, with one repair, run and
    answered as a plan's one step; or, when the request says a word the model found no meaning for in the
    tables (`ctx.doubtful`), what the data lacks; and where that fails too after a word no column says was
    read as a column (`ctx.assumed`: "construction cost" as a capacity), that the data lacks it. The
    pipeline jumps here when a stage before it fails; otherwise it does nothing."""
    if ctx.reply is not None:
        return
    if ctx.doubtful:  # the model found nothing a word means, and the SQL written without it failed: it is missing
        yield ConceptsMissing(tuple(ctx.doubtful))
        ctx.reply = refusal(ctx, ctx.doubtful)
        return
    options = replace(ctx.options, revisions=FALLBACK_REPAIRS)
    again = replace(ctx, services=replace(ctx.services, options=options), steps=[], messages=[], chain=None)
    try:
        for later in (foundation_sql, run_steps, finish, answer):
            try:
                yield from later(again)
            finally:
                ctx.chain = again.chain  # the pipeline says what it rolls back when a stage fails
    except (QueryFailed, ModelOutputError, SQLRefused):
        as_columns = [assumed for assumed in ctx.assumed if read_as_a_column(assumed)]
        if not as_columns:
            raise  # a word read as a whole table: the failure says nothing of the word
        # a word no column says, read as a column, and no query on that reading worked: the data lacks it
        missing = [f"{assumed}, and no query on that column worked" for assumed in as_columns]
        yield ConceptsMissing(tuple(missing))
        ctx.reply = refusal(ctx, missing)
        return
    ctx.reply = cast(Reply, again.reply)


def _adds_to_a_change(does: str, changes: tuple[TableChange, ...], its_own: tuple[str, ...] = ()) -> str | None:
    """Why a change or removal that adds rows waits: the request was read as changing rows already kept.
    `its_own`: tables given rows belonging to the changed row, read for the numbers the change left
    (`from_facts._rows_of_the_changed_row`, which holds the write with its own reason): not this one.

    >>> added = TableChange("t", pd.DataFrame({"id": []}), pd.DataFrame({"id": [2]}), ("id",))
    >>> _adds_to_a_change("change", (added,))
    'it adds rows to t, where the request changes rows already kept'
    """
    if does not in ("change", "remove"):
        return None
    grown = [c.table for c in changes if _grows(c) and c.table.lower() not in {t.lower() for t in its_own}]
    return f"it adds rows to {', '.join(grown)}, where the request changes rows already kept" if grown else None


def _grows(change: TableChange) -> bool:
    """Whether a change adds rows: keys the table did not hold, or (without a key) more rows than it took."""
    if change.created or not change.key:
        return change.created or len(change.new) > len(change.old)
    new = {tuple(map(str, row)) for row in change.new[list(change.key)].itertuples(index=False, name=None)}
    old = {tuple(map(str, row)) for row in change.old[list(change.key)].itertuples(index=False, name=None)}
    return bool(new - old)


def _changes_answer(changes: tuple[TableChange, ...], pending: bool) -> str:
    """
    >>> _changes_answer((), False)
    'Nothing changed.'
    """
    if not changes:
        return "Nothing would change." if pending else "Nothing changed."
    listed = "; ".join(change.summary for change in changes)
    return f"Would change (not applied yet): {listed}." if pending else f"Recorded: {listed}."
