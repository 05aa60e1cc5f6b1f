"""Routing: does the request read, write, ask about the database itself, ask for something unsafe, or just
chat? And the chat answer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from ...grounding.schema_words import meaning_stems, schema_stems
from ...kernel_memory.worth_keeping import cues_in
from ...language.cues import (
    ASKED,
    ASKED_WORD,
    ASKING,
    CHANGING,
    DEALING,
    JOINING,
    MAY_ASK_ABOUT_THE_DATABASE,
    NOTE_CUES,
)
from ...language.stop_words import GENERIC_WORDS
from ...language.words import stems
from ...sql.catalog import Catalog
from .. import prompts
from ..context import Context
from ..events import AskedAgain, Event, Reply, Routed
from ..kinds import Route
from ..route_cues import about_the_database, general_sql_question
from ..second_opinion import is_unsafe
from ..shown_units import Preference, preference_alone
from ..stage import stage
from ..unsafe import danger
from .ground_values import mentioned
from .units_aside import only_units, state

ROUTE_MAX_TOKENS = 12
ANSWER_MAX_TOKENS = 120
KEY_VALUE_LINE = re.compile(r"^[ \t]*[^\W\d][\w .'-]{0,30}:[ \t]*\S", re.MULTILINE)
SENTENCE_END = re.compile(r"(?<=[.!;])\s+")


@stage
def route_quickly(ctx: Context) -> Iterator[Event]:
    """`route`, but without a call where the words are plain (`route_cues.py`): a request that plainly asks
    about the database itself, or general SQL knowledge; and a read: a question that names a table or
    column (`asks_about_data`) or a value stored in one ("Where is Quillby?"), none of whose words may
    ask about the database itself. Words that would drop or rewrite a request (a note to keep, a
    correction of the question before) only suggest it: one short call in place of the routing call
    confirms it, or the request goes on as a read (a note's words) or is routed (a correction's). A
    record of `key: value` lines asking nothing, where the user allows writes, is a write: the routing
    call could only take it for a read asking nothing, which is a write."""
    text, catalog = ctx.request.text, ctx.catalog
    # words alone never refuse a request (it is refused when the model agrees), nor drop what it asks
    if (cued := danger(text, schema_stems(catalog))) is not None and (yield from is_unsafe(ctx, cued.kind)):
        ctx.route = Route.UNSAFE
    elif ctx.request.allow_writes and is_a_record_form(text):
        ctx.route = Route.WRITE  # the user asks for a write, and the request is a record's `key: value` lines
    elif not ctx.request.allow_writes and (again := as_corrected(ctx.request.previous, text)):
        yield from _confirmed(ctx, "correction", again)  # "Actually, only the open ones", if the model agrees
        return
    elif not ctx.request.allow_writes and only_states_a_note(text):
        if (alone := preference_alone(text)) is not None:
            yield from _units_alone(ctx, alone)  # a preference of units alone, if the model agrees: kept as said
        else:
            yield from _confirmed(ctx, "note")  # for the memory alone, if the model agrees
        return
    elif about_the_database(text, catalog):
        ctx.route = Route.DATABASE
    elif general_sql_question(text, catalog):
        ctx.route = Route.CHAT
    elif not MAY_ASK_ABOUT_THE_DATABASE.search(text) and (
        asks_about_data(text, catalog) or (is_question(text) and mentioned(ctx, None))
    ):
        ctx.route = Route.READ
    else:
        yield from _route_by_model(ctx)  # the unsafe cues were read above
        return
    yield Routed(ctx.route)


NOTED = "Noted: it is kept in the notebook's memory and recalled for requests that use these words."


def as_corrected(previous: str, text: str) -> str:
    """Where `text` only corrects ("No, ...", "Actually, ...") the question asked right before it, that
    question with the correction, as one request; else "".

    >>> as_corrected("How many kites are left?", "Actually, only the red ones.")
    'How many kites are left? Actually, only the red ones.'
    >>> as_corrected("", "Actually, only the red ones."), as_corrected("How many kites?", "From now on in euros.")
    ('', '')
    """
    asked = re.split(r"(?<=[?.!])\s+", previous.strip())[0]  # a question, maybe corrected already
    if not asked or not is_question(asked) or "correction" not in cues_in(text):
        return ""
    return f"{previous.strip()} {text.strip()}" if only_states_a_note(text) else ""


def only_states_a_note(text: str) -> bool:
    """A statement of a definition, preference, correction or fact to remember, asking nothing: in each
    sentence a preference or a fact to remember starts the sentence ("Top 3 tutors by lessons, from now on in
    euros" asks for the top 3 first).

    >>> only_states_a_note("From now on, round money to cents."), only_states_a_note("No, a big order is one above 20.")
    (True, True)
    >>> only_states_a_note("A big order is one above 20. How many are there?"), only_states_a_note("Sales per region")
    (False, False)
    >>> only_states_a_note("Top 3 hives by honey, from now on in kg"), only_states_a_note("Also, from now on use kg.")
    (False, True)
    """
    if not cues_in(text) or "?" in text or ASKING.match(text):
        return False
    return all(_asks_nothing_before_its_note(s) for s in SENTENCE_END.split(text.strip()) if s.strip())


def _asks_nothing_before_its_note(sentence: str) -> bool:
    """A sentence with a note's cue, where a preference or fact to remember has nothing before it but a
    word that joins it on ("also", "please"); a definition or correction is the sentence as a whole."""
    kinds = cues_in(sentence)
    if not kinds:
        return False
    if set(kinds) & {"definition", "correction"}:
        return True
    found = [match.start() for kind in kinds if (match := NOTE_CUES[kind].search(sentence))]
    return not JOINING.sub("", sentence[: min(found)]).strip(" ,:-")


@stage
def route(ctx: Context) -> Iterator[Event]:
    """One short constrained call; without this stage a request writes when writes are allowed, else reads.
    A request whose words sound unsafe (`controller/unsafe.py`) is refused when the model agrees it is."""
    cued = danger(ctx.request.text, schema_stems(ctx.catalog))
    if cued is not None and (yield from is_unsafe(ctx, cued.kind)):
        ctx.route = Route.UNSAFE
        yield Routed(ctx.route)
        return
    yield from _route_by_model(ctx)


def _confirmed(ctx: Context, cue: str, again: str = "") -> Iterator[Event]:
    """What a note's or a correction's words suggest, put to the model as a choice of two: a note (it
    asks for no data) is kept for the memory and nothing runs, else the request is a read, its statement
    noted after the answer (`post_think`); a correction asks the question before it again, as corrected
    (`again`), else the request is routed as any other."""
    request = ctx.request
    messages = prompts.cue_messages(cue, request.text, request.previous)
    completion = yield from ctx.calls("route", messages, prompts.cue_schema(cue), ROUTE_MAX_TOKENS)
    yes = prompts.cue_confirmed(cue, completion.text)
    if cue == "note" and yes:
        _noted(ctx)  # for the memory alone: nothing to run
    elif cue == "note":
        ctx.route = Route.READ  # it states something and asks for data: answered, and its statement noted
    elif yes:
        ctx.request = replace(request, text=again, said=request.text)
        ctx.route = Route.READ  # the last request again, as corrected ("Actually, only the open ones")
        yield AskedAgain(again)
    else:
        yield from _route_by_model(ctx)
        return
    yield Routed(ctx.route)


def _units_alone(ctx: Context, preference: Preference) -> Iterator[Event]:
    """A request that only states what unit figures are to be shown in ("From now on, give loads in
    tonnes."): kept in the user's words when the model agrees (`post_think`), else asked as a read."""
    if (yield from only_units(ctx, ctx.request.text)):
        state(ctx, preference)
        _noted(ctx)
    else:
        ctx.route = Route.READ
    yield Routed(ctx.route)


def _noted(ctx: Context) -> None:
    """The request only states something for the memory: nothing runs, and the reply says it is kept."""
    request, ctx.route = ctx.request, Route.CHAT
    ctx.reply = Reply(request.text, NOTED, [], None, [], ctx.calls.usage, ctx.services.model.name, route=Route.CHAT)


def _route_by_model(ctx: Context) -> Iterator[Event]:
    messages = prompts.route_messages(ctx.request.text, ctx.table_names, ctx.request.allow_writes)
    completion = yield from ctx.calls("route", messages, prompts.ROUTE_SCHEMA, ROUTE_MAX_TOKENS)
    routed = prompts.parse_json(completion.text, "route")
    ctx.route = Route(routed) if routed in {r.value for r in Route} else Route.READ
    if ctx.route == Route.READ and ctx.request.allow_writes and not asks(ctx.request.text):
        ctx.route = Route.WRITE  # the user asks for a write, and the request asks nothing: a fact to record
    yield Routed(ctx.route)


def asks(text: str) -> bool:
    """Whether a request is put as a question or a command to show something ("?", "How many ...", "List
    ..."): with writes allowed, a request read as a read that asks nothing states a fact to record (the
    reading of the write then finds what it adds or changes, or says it finds nothing).

    >>> asks("Wie viele Kisten?"), asks("List the late loans"), asks("2024-04-07 fix: 3 more than logged")
    (True, True, False)
    """
    return "?" in text or bool(ASKING.match(text))


@stage
def chat(ctx: Context) -> Iterator[Event]:
    """A request routed as chat is answered in words, without SQL: the stages up to the answer are skipped."""
    if ctx.route != Route.CHAT:
        return
    request = ctx.request
    messages = prompts.chat_messages(request.text, ctx.table_names, ctx.notes)
    completion = yield from ctx.calls("answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
    answer = prompts.parse_json(completion.text, "answer") or completion.text
    ctx.reply = Reply(request.text, answer, [], None, [], ctx.calls.usage, ctx.services.model.name, route=Route.CHAT)


def asks_about_data(text: str, catalog: Catalog) -> bool:
    """A question (or a command to show something) that names a table or column by one of its words and
    asks to change nothing.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("boats", (Column("boat_age", "INTEGER"),), 3)])
    >>> asks_about_data("How old is the oldest boat?", catalog), asks_about_data("What is the average age?", catalog)
    (True, True)
    >>> asks_about_data("What can you do?", catalog), asks_about_data("Add a boat aged 3.", catalog)
    (False, False)
    >>> asks_about_data("Which boats did we sell?", catalog), asks_about_data("We sold a boat.", catalog)
    (True, False)
    """
    return is_question(text) and bool((stems(text) & (schema_stems(catalog) | meaning_stems(catalog))) - GENERIC_WORDS)


def is_a_record_form(text: str) -> bool:
    """A record written as two or more `key: value` lines, under a short heading or none, asking nothing.

    >>> is_a_record_form("kite lent\\nflyer: Ann Roy\\ndate: May 3, 2025"), is_a_record_form("flyer: Ann\\nspan: 5")
    (True, True)
    >>> is_a_record_form("Which rows have\\nkind: kite\\nsize: 3"), is_a_record_form("kind: kite\\nsize: 3\\nhow many?")
    (False, False)
    >>> is_a_record_form("Ann paid: 5 pounds")
    False
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(KEY_VALUE_LINE.findall(text)) < 2 or "?" in text or not lines:
        return False
    heading = lines[0]
    return bool(KEY_VALUE_LINE.match(heading)) or (len(heading.split()) <= 3 and not ASKED_WORD.match(heading))


def is_question(text: str) -> bool:
    """A question, or a command to show something, that asks to change nothing: a dealing it names is
    asked about only in a question of who, what, how...

    >>> is_question("How many kg did we sell in May?"), is_question("We sold 2 kg of pear."), is_question("Add it")
    (True, False, False)
    >>> is_question("return\\nrider: Mo Tran\\nparcel: 3"), is_question("Return the riders' names: all of them")
    (False, True)
    """
    if not (ASKING.match(text) or text.rstrip().endswith("?")) or CHANGING.search(text):
        return False
    if len(KEY_VALUE_LINE.findall(text)) >= 2:
        return False  # a record written as `key: value` lines under a heading ("return / member: ...")
    return not DEALING.search(text) or bool(ASKED.match(text))
