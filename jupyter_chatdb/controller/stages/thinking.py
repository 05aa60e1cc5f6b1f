"""The thought memory: recall (figures checked against the tables) before planning; after the answer,
keep its figures as checkable result thoughts and, only for a request with a cue, the notes it states."""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator

from ...errors import ChatDBError
from ...kernel_memory import evidence
from ...kernel_memory.bearing import bearing
from ...kernel_memory.notes import NOTES_SCHEMA, notes_messages, parse_notes
from ...kernel_memory.store import Record
from ...kernel_memory.thoughts import Stored, ThoughtMemory
from ...kernel_memory.worth_keeping import cues_in
from ...language.units import target_unit
from ..context import Context
from ..events import Event, MemoryChecked, MemoryRecalled, MemoryStored
from ..kinds import Route
from ..shown_units import preference_thought, unit_preferences
from ..stage import stage

NOTES_MAX_TOKENS = 160
NOTE_LABELS = {"definition": "Definition", "preference": "Preference", "correction": "Correction", "fact": "Fact"}


@stage
def recall(ctx: Context) -> Iterator[Event]:
    """The thoughts that bear on the request (`kernel_memory.bearing`: its defined words, the things it
    names, its question asked before, or a reference back), for the planner; related ones that do not are
    left out. A result thought whose tables changed is read again: the planner gets the figures as they are
    now, or not at all."""
    memory = ctx.services.memory
    if memory is None or not ctx.request.use_memory:
        return
    started = time.perf_counter()
    text = ctx.request.text
    kept, refreshed, withheld = [], [], []
    for item in memory.recall(text):
        how = bearing(item.record, item.by_words, text)
        if not how.bears:
            continue
        ctx.recalled_aside = ctx.recalled_aside or not how.by_own_words
        record = item.record
        if record.verifiable:
            checked = evidence.check(record, ctx.session)
            if checked.state == "withheld":
                withheld.append((record.id, record.text, checked.why))
                continue
            if checked.state == "changed":
                record = memory.refresh(record, checked.figures, checked.tables)
                refreshed.append((item.record.id, record.id, record.text))
            elif checked.tables != record.tables:  # read again, same figures
                memory.store.confirm(record.id, checked.tables)
        kept.append((record, item.similarity))
    if refreshed or withheld:
        yield MemoryChecked(tuple(refreshed), tuple(withheld))
    # a preference of units is not the planner's: the figures are converted after the read (`shown_units`)
    units = [record for record, _ in kept if record.kind == "preference" and target_unit(record.text)]
    ctx.preferred = unit_preferences(record.text for record in sorted(units, key=lambda r: -r.id))  # newest first
    ctx.notes = [note_text(record) for record, _ in kept if record not in units]
    thoughts = tuple((r.id, r.text, round(similarity, 3)) for r, similarity in kept)
    yield MemoryRecalled(thoughts, round(time.perf_counter() - started, 3))


def note_text(record: Record) -> str:
    """A recalled thought as the planner reads it.

    >>> note_text(Record(1, "A big order has qty above 10.", kind="definition"))
    'Definition: A big order has qty above 10.'
    >>> note_text(Record(2, "How many orders? orders: 8", sql="SELECT count(*) AS orders FROM o"))
    'Answered before, and true of the tables now: How many orders? orders: 8'
    """
    if record.verifiable:
        return f"Answered before, and true of the tables now: {record.text}"
    label = NOTE_LABELS.get(record.kind)
    return f"{label}: {record.text}" if label else record.text


@stage(after_answer=True)
def post_think(ctx: Context) -> Iterator[Event]:
    """Keep what is worth remembering from an answered (not pending, not approved) request: a read's small
    result as a result thought (no model call), unless a thought the request's own words did not call for
    was recalled for it; and the notes of a request that has a cue (one call)."""
    memory, request, reply = ctx.services.memory, ctx.request, ctx.reply
    if memory is None or reply is None or not request.use_memory or reply.pending or request.approved:
        return
    answered = not (reply.missing or reply.doubtful)  # else nothing answered, or not surely what was asked
    if not answered and not request.said:
        return  # nothing to remember (but a correction's own words)
    started, stored = time.perf_counter(), list[Stored]()
    rest = request.own_words
    if ctx.stated_preference is not None:  # confirmed by the model already: kept as the user said it
        stored.append(memory.remember(preference_thought(ctx.stated_preference), source=rest))
        rest = request.text if request.stated else ""  # the question it was said beside, if any
    if cues_in(rest):  # first: a new definition retires the figures read under the old one
        calling = time.perf_counter()
        noted_now, noted = yield from _notes(ctx, memory, rest)
        stored += noted_now
        started += noted - calling  # the model's time is not the memory's
    if ctx.route == Route.READ and len(reply.sql) == 1 and not ctx.params and not ctx.recalled_aside and answered:
        # (not figures shown in a preferred unit: a result thought holds what its SQL returns)
        thought = evidence.result_thought(request.text, reply.result, reply.sql[0], ctx.session)
        if thought is not None and not reply.units:
            stored.append(memory.remember(thought, source=request.text))
    added = tuple((s.record.id, s.record.text) for s in stored if s.record is not None)
    seconds = round(time.perf_counter() - started, 3)
    yield MemoryStored(added, tuple(i for s in stored for i in s.superseded), seconds)


def _notes(ctx: Context, memory: ThoughtMemory, own: str) -> Generator[Event, None, tuple[list[Stored], float]]:
    """The notes of the request's own words `own`, stored; and when the model's call for them ended. A
    correction is noted in its own words, beside what it corrects."""
    messages = notes_messages(own, ctx.request.previous)
    try:
        completion = yield from ctx.calls("memory", messages, NOTES_SCHEMA, NOTES_MAX_TOKENS)
    except ChatDBError:  # the answer stands; this request just leaves no notes
        return [], time.perf_counter()
    noted = time.perf_counter()
    stored = memory.remember_all(parse_notes(completion.text), source=own)
    redefined = [s.record for s in stored if s.record is not None and s.superseded and s.record.kind == "definition"]
    retired = [memory.retire_results_using(record.terms, record.id) for record in redefined]
    return stored + [Stored(None, superseded=tuple(ids)) for ids in retired if ids], noted  # figures read under the old
