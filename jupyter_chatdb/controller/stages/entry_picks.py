"""The entries of CHECK lists a new row's reading gives, checked by asking the model again.

A small model reads a listed value in the request's own words ("monthly debit" for 'standing order'), or gives an
entry the request does not say in words. Words none of the list are mapped by the model among the list
(`listed_values`); an entry it gave, not chose, is asked for again without the one read
(`entries_asked_again`); and so is a reference to a row of a listed table the request names only by the
entry's meaning ("just starting out" for a rower's grade 'novice', `references_given`). A different
pick the second time is a guess, not a reading: the write waits, saying so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass

from ...llm.base import Message
from ...recording import facts
from ...recording.described import described_in
from ...recording.picks import entry_said, mapped
from ...recording.references_named import UnnamedReference
from ...recording.resolve import StoredRows
from ...recording.shapes import Field, Shape
from ...recording.stated import is_stated
from .. import prompts
from ..context import Context
from ..events import Event

CHOICES = 3  # model calls at most, per request, to map read words to a listed value


@dataclass(frozen=True)
class Doubt:
    """A listed value the model chose one way and another way asked again: why the write waits, where a
    row written holds it."""

    table: str
    field: str
    value: object
    why: str

    def holds_in(self, rows: Mapping[str, object]) -> bool:
        """Whether a row of `rows` (table -> rows to write) holds the doubtful value."""
        listed = rows.get(self.table)
        return isinstance(listed, list) and any(
            isinstance(row, dict) and row.get(self.field) == self.value for row in listed
        )


def listed_values(
    ctx: Context, shapes: dict[str, Shape], read: dict, today: dt.date
) -> Generator[Event, None, tuple[set[tuple[str, int, str]], list[Doubt], set[tuple[str, str, str]]]]:
    """Each value read for a field the schema lists, as the listed value it means (`picks.mapped`), else as
    the model chooses among the list (up to `CHOICES` words, `_chosen`), else left out. Returns the (table,
    index, field) of those read from words the request says, the choices the model made two ways (`Doubt`),
    and the (table, field, value) it chose."""
    calls, said, unsure = 0, set(), []
    chosen: dict[tuple[str, str, str], str | None] = {}  # words mapped once, however many rows repeat them
    for table, listed in read.items():
        shape = shapes.get(table)
        if shape is None or not isinstance(listed, list):
            continue
        for index, row in enumerate(listed):
            if not isinstance(row, dict):
                continue
            for field in (f for f in shape.fields if f.allowed and row.get(f.name) is not None):
                words = row[field.name]
                value = words if words in field.allowed else mapped(words, field.allowed)
                if value is None and _the_key_of_a_listed_row(ctx, field, words):
                    continue  # 'P-138' of a spares row listed by its names: named, not to choose
                if value is None and field.reference is not None:  # "Ola Berg's river kayak": the one it describes
                    value = _described_entry(ctx, shapes, field, words)
                asked = (table, field.name, str(words))
                if value is None and asked in chosen:
                    value = chosen[asked]
                elif value is None and calls < CHOICES and isinstance(words, str):
                    calls += 1
                    value, again = yield from _chosen(
                        ctx, table, field.column, words, list(field.allowed), field.required
                    )
                    chosen[asked] = value
                    if again != value:
                        why = f"{table}.{field.column}: {words!r} was read as {value!r}, and as {again!r} asked again"
                        unsure.append(Doubt(table, field.name, value, why))
                if value is None:
                    del row[field.name]
                    continue
                row[field.name] = value
                if is_stated(words, ctx.request.text, today):
                    said.add((table, index, field.name))
    return said, unsure, {(table, name, value) for (table, name, _), value in chosen.items() if value is not None}


def _the_key_of_a_listed_row(ctx: Context, field: Field, words: object) -> bool:
    """Whether `words` are the key of the one row of the small table `field` refers to, whose names are
    its list (a spare's code, where the spares are listed by name): a row named as kept."""
    reference = field.reference
    if reference is None or not reference.name:
        return False
    return StoredRows(ctx.session).named_exactly(reference.table, (reference.name,), words, reference.name) is not None


def _described_entry(ctx: Context, shapes: dict[str, Shape], field: Field, words: object) -> str | None:
    """The listed row of the table `field` refers to that `words` describe by a row it refers to
    (`described`); None where they describe none, or one not listed."""
    reference = field.reference
    if reference is None or not isinstance(words, str):
        return None
    found = described_in(shapes, reference.table, words, StoredRows(ctx.session), reference.name)
    return str(found) if found is not None and str(found) in field.allowed else None


def entries_asked_again(
    ctx: Context, shapes: dict[str, Shape], rows: Mapping[str, object], chosen: set[tuple[str, str, str]]
) -> Generator[Event, None, list[str]]:
    """The doubts about the CHECK-listed entries a new row gets that the request does not say in words ("back
    in the air" read as 'retired'), and the model gave rather than chose (`chosen`), but for its
    column's DEFAULT (what the row holds unless told otherwise): the model is asked which entry the request
    gives, without the one read (twice: the list each way round, up to `CHOICES` entries), and a different
    pick is a guess. A kept row's change holds only entries it says (`stated_only`)."""
    doubts: list[str] = []
    asked: set[tuple[str, str, str]] = set(chosen)
    for table, listed in rows.items():
        shape = shapes.get(table)
        if shape is None or not isinstance(listed, list):
            continue
        for row in listed:
            if not isinstance(row, dict) or facts.lacks(shapes, table, row):
                continue
            for field in shape.fields:
                value = row.get(field.name)
                if not field.allowed or field.reference is not None or not isinstance(value, str):
                    continue
                if value not in field.allowed or value == field.default or entry_said(value, ctx.request.text):
                    continue  # a value the column holds unless told otherwise is no guess
                if (table, field.name, value) in asked:
                    continue
                if len(asked) - len(chosen) == CHOICES:
                    return doubts
                asked.add((table, field.name, value))
                picks = yield from _given_otherwise(ctx, table, field, value)
                if picks:
                    doubts.append(f"{table}.{field.column}: read as {value!r}, and as {picks} asked again")
    return doubts


def references_given(ctx: Context, unnamed: Sequence[UnnamedReference]) -> Generator[Event, None, list[str]]:
    """Why each reference a new row gives to a row the request does not name (`references_named.py`) is in
    doubt, but for those it names by what they mean: a row of a table whose keys the schema lists (a rower's
    grade, said as "just starting out") is named only by its entry's meaning, so the model is
    asked which entry the request gives, without the one read (twice, the list each way round, up to
    `CHOICES` entries), and the same pick both times settles it."""
    doubts: list[str] = []
    asked = 0
    for reference in unnamed:
        field = reference.field
        if not field.checked or str(reference.value) not in field.allowed or asked == CHOICES:
            doubts.append(str(reference))
            continue
        asked += 1
        picks = yield from _given_otherwise(ctx, reference.table, field, reference.value)
        if picks:
            doubts.append(f"{reference}, and asked again it reads {picks}")
    return doubts


def _given_otherwise(ctx: Context, table: str, field: Field, value: object) -> Generator[Event, None, str]:
    """The picks (`given_each_way`) where either is not `value` ("'club' and 'elite'");
    "" where both are."""
    first, again = yield from given_each_way(ctx, table, field.column, list(field.allowed))
    if first == value and again == value:
        return ""
    return " and ".join(dict.fromkeys(repr(p) for p in (first, again)))


def given_each_way(
    ctx: Context, table: str, column: str, options: list[str]
) -> Generator[Event, None, tuple[str | None, str | None]]:
    """The value of `options` the model reads the request to give for `column`, asked without the value
    read first (shown its own pick, a small model keeps it: 'retired' for "back in the air"), the list
    each way round."""
    text = ctx.request.text
    return (yield from _picks(ctx, lambda shown: prompts.given_entry_messages(text, table, column, shown), options))


def _chosen(
    ctx: Context, table: str, column: str, said: str, options: list[str], required: bool
) -> Generator[Event, None, tuple[str | None, str | None]]:
    """The listed value the model takes `said` to mean, and what it takes asked again with the list the
    other way round; a different pick the second time is a guess, not a reading. It may keep `said` (none
    fits) unless the column needs a value: then it must pick one ("a roomy spot" is one of the listed
    pitch sizes). A column with a default is asked twice too: "a tidy-up" read once as a groom's 'show cut'."""
    text = ctx.request.text
    return (
        yield from _picks(
            ctx,
            lambda shown: prompts.value_choice_messages(text, table, column, said, shown),
            options,
            None if required else said,
        )
    )


def _picks(
    ctx: Context, messages_of: Callable[[list[str]], list[Message]], options: list[str], kept: str | None = None
) -> Generator[Event, None, tuple[str | None, str | None]]:
    """The model's pick among `options` (None: none of them), then its pick with the list the other way
    round; `kept`: the words it may keep instead (offered last both times), a pick of None."""
    picks = []
    for shown in (options, options[::-1]):
        schema = {
            "type": "object",
            "properties": {"value": {"enum": shown if kept is None else [*shown, kept]}},
            "required": ["value"],
        }
        completion = yield from ctx.calls("value", messages_of(shown), schema, CHOICE_MAX_TOKENS)
        chosen = prompts.parse_json(completion.text, "value")
        picks.append(chosen if chosen in options else None)
    return picks[0], picks[-1]


CHOICE_MAX_TOKENS = 40
