"""Honesty before SQL: a read asking about an attribute or a name the data does not hold is answered with
what is missing and what is there, and no SQL is written (`grounding/concepts.py`). Words alone refuse
nothing: a name is missing when no text column holds it in full (`grounding/stored_names.py`) and it is
quoted, or the model reads it as a value rather than a column; an attribute when the model finds nothing
it means."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence

from ...grounding.concepts import Missing, describe, missing_concepts, quoted
from ...grounding.schema_words import meaning_stems, schema_stems
from ...grounding.stored_names import where_stored
from ...language.stop_words import GENERIC_WORDS
from ...language.words import stems, words
from ...sql.catalog import Catalog
from .. import prompts
from ..context import Context
from ..events import ConceptsMissing, Event, Reply
from ..kinds import Route
from ..stage import stage

CONCEPT_MAX_TOKENS = 24
READ_AS = ": read as "  # an assumed reading: "<word>: read as <table or table.column>"


@stage
def check_concepts(ctx: Context) -> Iterator[Event]:
    """For a read (not an approved one): say what the request names that no table holds, instead of an
    answer the model would have to make up. A name stops it when no text column holds it in full (in any
    case, with words around it, a letter or two off) and the user quoted it, or it says no word of a name
    or meaning of the schema, or one constrained call reads it as a value rather than a column ("the Free
    Meal Count" of a column `c14` described as free meals goes on). An
    attribute asked for that no table or column name or meaning says stops it only when one constrained
    call, shown the tables, finds nothing it means (the words alone refuse nothing: "the average length"
    of a visit kept in minutes). What the model read either as is said with the answer (`ctx.assumed`). A
    word said where rows may be meant as well ("which product") does not stop the request: when the call
    finds nothing it means, the answer notes it (`ctx.doubtful`)."""
    if ctx.route != Route.READ or ctx.request.approved or ctx.reply is not None or not ctx.catalog.tables:
        return  # with no tables at all, planning says so
    if ctx.request.said:
        return  # a question asked again as corrected: it was checked when asked, and the correction defines words
    catalog = ctx.catalog
    found = missing_concepts(ctx.request.text, ctx.services.concepts.stored(catalog, ctx.services.values))
    if not found:
        return
    shown = [c.table for c in ctx.considered] or list(catalog.tables)
    tables = {name: [c.name for c in catalog.tables[name].columns] for name in shown}
    text_columns = catalog.text_column_pairs()
    found = [c for c in found if c.kind != "name" or where_stored(ctx.session, text_columns, c.word) is None]
    missing = []
    for concept in (c for c in found if c.sure):
        # a name by the data and the model's reading of it as a name; an attribute by the model, not the
        # words alone; where the model reads either as a column, the answer says so
        if concept.kind == "attribute":
            means = yield from _meaning(ctx, concept, tables)
        elif quoted(ctx.request.text, concept.word) or not may_name_a_column(concept.word, catalog):
            means = prompts.NOTHING  # a value no text column holds, by the user's quotes or words no name says
        else:
            means = yield from _name_meaning(ctx, concept, tables)
        if means == prompts.NOTHING:
            missing.append(concept)
        else:
            ctx.assumed.append(f"{concept if concept.kind == 'attribute' else repr(concept.word)}{READ_AS}{means}")
    if not missing:  # only doubtful words: the request goes on, noting those the model finds no meaning for
        for concept in (c for c in found if not c.sure):
            if (yield from _means_nothing(ctx, concept, tables)):
                ctx.doubtful.append(str(concept))
        return
    yield ConceptsMissing(tuple(str(m) for m in missing))
    ctx.reply = refusal(ctx, [str(m) for m in missing])


def read_as_a_column(assumed: str) -> bool:
    """Whether the model read the word of `assumed` (an entry of `ctx.assumed`) as one column.

    >>> read_as_a_column("no cost column: read as plants.capacity"), read_as_a_column("no age column: read as cars")
    (True, False)
    """
    return "." in assumed.rpartition(READ_AS)[2]


def refusal(ctx: Context, missing: Sequence[str]) -> Reply:
    """The reply that says what the data lacks (`missing`) and what the tables the request names hold."""
    shown = [c.table for c in ctx.considered] or list(ctx.catalog.tables)
    tables = {name: [c.name for c in ctx.catalog.tables[name].columns] for name in shown}
    said = stems(ctx.request.text)
    named = [name for name in tables if stems(words(name)) & said]
    return Reply(
        ctx.request.text,
        describe(missing, {name: tables[name] for name in named} or tables),
        [],
        None,
        [],
        ctx.calls.usage,
        ctx.services.model.name,
        route=ctx.route,
        missing=tuple(missing),
    )


def may_name_a_column(phrase: str, catalog: Catalog) -> bool:
    """Whether a capitalised phrase says a word of a table's or column's name or meaning (beyond words any
    request says): "the Free Meal Count" of a column described as free meals may name it, "Quellmire" no.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("schools", (Column("c14", "INTEGER", (), "pupils eligible for free meals"),), 3)])
    >>> may_name_a_column("Free Meal Count", catalog), may_name_a_column("Quellmire", catalog)
    (True, False)
    """
    return bool((stems(phrase.lower()) & (schema_stems(catalog) | meaning_stems(catalog))) - GENERIC_WORDS)


def _means_nothing(ctx: Context, concept: Missing, tables: dict[str, list[str]]) -> Generator[Event, None, bool]:
    return (yield from _meaning(ctx, concept, tables)) == prompts.NOTHING


def _meaning(ctx: Context, concept: Missing, tables: dict[str, list[str]]) -> Generator[Event, None, str]:
    """The table or column (`table.column`) the model takes the word to mean, or `prompts.NOTHING`."""
    messages = prompts.concept_messages(ctx.request.text, concept.word, tables, ctx.catalog.meanings())
    completion = yield from ctx.calls("concept", messages, prompts.concept_schema(tables), CONCEPT_MAX_TOKENS)
    return prompts.parse_json(completion.text, "means") or prompts.NOTHING


def _name_meaning(ctx: Context, concept: Missing, tables: dict[str, list[str]]) -> Generator[Event, None, str]:
    """What the model reads a capitalised phrase no stored value holds as: "a column" (what is asked
    about), else `prompts.NOTHING` (a value the rows would hold, which they do not)."""
    messages = prompts.name_messages(ctx.request.text, concept.word, tables, ctx.catalog.meanings())
    completion = yield from ctx.calls("concept", messages, prompts.NAME_SCHEMA, CONCEPT_MAX_TOKENS)
    return "a column" if prompts.parse_json(completion.text, "is") == "column" else prompts.NOTHING
