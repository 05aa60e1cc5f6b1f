"""A line's number and the same kind of number on the row it names are kept as the request labels them.

"Calder delivered 20 bales of rye bought at 4.50, resale price 8": a small model may give the hay row
`price` 4.50, the cost, copied from the wrong place; asked for "Ann bought 10 bales of rye", it may give
the order line `price_charged` 10, the count, and the hay a made-up price. Both numbers are in the request,
so checking that values are stated does not catch it. But a request labels a price or a cost with the
words just before it ("resale price 8"), or writes it as money ("£8": a line's own, never set on the row
it names). So where a line and the row it names both have a number of the
same kind (`facts.same_kind_of_number`: a line's resale_price and its hay's price), each such number is
kept only when the request labels it with its column's words (`labelled`); a named row's unlabelled one
takes the line's when that is labelled, and a line's unlabelled one is left out, to be taken from the
row it names when its table needs it (`facts._takeable`), but where the request says it right after the
line's item ("ultrasound 32, massage 43": each item with its own fee) and the line holds it nowhere else
("apples 3" read as 3 apples at 3 is a count copied into the price).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..language.numbers import STATED_NUMBER
from ..language.stop_words import FUNCTION_WORDS, LABEL_GENERIC_WORDS, LIST_WORDS
from ..language.words import letter_words, stem, words
from .facts import same_kind_of_number
from .shapes import Shape


@dataclass
class Agreement:
    set_from_lines: list[str] = field(default_factory=list)  # "table.field = value" set on a named row
    unlabelled: list[str] = field(default_factory=list)  # "table.field = value" left out


def agreed(shapes: Mapping[str, Shape], rows: dict[str, list[dict]], text: str) -> Agreement:
    """Keep, in `rows`, a line's number and its named row's number of the same kind as the request labels
    them (see the module). A line's labelled number whose named row the reading left out is set on that
    row all the same (the row is added to the reading, named): "2 parcels at 3.20, to resell at 5" sets
    the parcel kind's resale price whether or not the model gave its row."""
    done = Agreement()
    for table, listed in list(rows.items()):
        shape = shapes.get(table)
        if shape is None or not shape.required_references:
            continue
        for line in listed:
            for reference in (f for f in shape.fields if f.reference is not None and f.name in line):
                assert reference.reference is not None
                parent = shapes.get(reference.reference.table)
                if parent is None or not parent.natural_key:
                    continue
                named = [r for r in rows.get(parent.table, []) if r.get(parent.natural_key) == line[reference.name]]
                for mine in shape.fields:
                    column = same_kind_of_number(mine, parent) if mine.reference is None else ""
                    if not column:
                        continue
                    said = line.get(mine.name)
                    if not named and said is not None and labelled(said, mine.column, text):
                        named = [{parent.natural_key: line[reference.name], column: said}]
                        rows.setdefault(parent.table, []).extend(named)
                        done.set_from_lines.append(f"{parent.table}.{column} = {said!r}")
                        continue
                    item = line[reference.name]
                    _agree(line, mine.name, mine.column, named, column, text, done, (table, parent.table), item)
    return done


def _agree(
    line: dict,
    name: str,
    column: str,
    named: list[dict],
    twin: str,
    text: str,
    done: Agreement,
    tables: tuple[str, str],
    item: object,
) -> None:
    value = line.get(name)
    sure = value is not None and labelled(value, column, text)
    copied = any(_same_number(other, value) for key, other in line.items() if key != name)  # a count, copied
    own = said_as_money(value, text) or (not copied and said_after_its_item(value, item, text))
    if value is not None and not sure and not own:
        del line[name]
        done.unlabelled.append(f"{tables[0]}.{name} = {value!r}")
    for row in named:
        theirs = row.get(twin)
        if theirs is None or labelled(theirs, twin, text):
            continue
        if sure:
            row[twin] = value
            done.set_from_lines.append(f"{tables[1]}.{twin} = {value!r}")
        else:
            del row[twin]
            done.unlabelled.append(f"{tables[1]}.{twin} = {theirs!r}")


CURRENCY = r"[£$€¥₹]"
MORE_OF_ITS_NAME = 2  # words said after an item's own, before its number: "voicing work 70"


def said_as_money(value: object, text: str) -> bool:
    """Whether `text` writes `value` as an amount of money ("£27", "27.50 €"): a line's own price or fee,
    not a count copied into it.

    >>> said_as_money(27, "spar £27, sail £45"), said_as_money(3, "3 bales at £4.50")
    (True, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    for found in re.finditer(rf"{CURRENCY}\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?{CURRENCY}", text):
        if abs(float((found.group(1) or found.group(2)).replace(",", "")) - value) < 1e-9:
            return True
    return False


def _same_number(one: object, other: object) -> bool:
    numbers = [v for v in (one, other) if isinstance(v, int | float) and not isinstance(v, bool)]
    return len(numbers) == 2 and abs(float(numbers[0]) - float(numbers[1])) < 1e-9


def said_after_its_item(value: object, item: object, text: str) -> bool:
    """Whether `text` says `value` right after the words of `item`, the row its line names ("ultrasound
    32", "pitch raise: 90" for 'pitch_raise'): a list of items, each with its own number, as a line's own
    price or fee is written.

    >>> said_after_its_item(43, "massage", "visit: ultrasound 32, soft tissue massage 43")
    True
    >>> said_after_its_item(90, "pitch_raise", "jobs: pitch raises: 90")
    True
    >>> said_after_its_item(10, "rye", "Ann bought 10 bales of rye")
    False
    >>> said_after_its_item(4.5, "rye", "rye at 4.50"), said_after_its_item(65, "voicing", "tone shaping 65")
    (False, False)

    The item's words may be followed by a word or two more of its name, not by a word of the sentence
    ("for", "at"):

    >>> said_after_its_item(70, "voicing", "jobs: voicing work 70")
    True
    >>> said_after_its_item(50, "massage", "a massage for 50"), said_after_its_item(5, "rye", "rye bales 3 and 5")
    (False, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(item, str):
        return False
    wanted = {stem(word) for word in words(item).split()}
    for found in STATED_NUMBER.finditer(text):
        if wanted and abs(float(found.group().replace(",", "")) - value) < 1e-9:
            segment = re.split(r"[,;|()\n]", text[: found.start()])[-1]
            said = letter_words(segment)
            stems = [stem(word) for word in said]
            if not stems or not wanted <= set(stems):
                continue
            last = max(i for i, s in enumerate(stems) if s in wanted)
            after = said[last + 1 :]  # the words of the item's name said after its own ("voicing work")
            if len(after) <= MORE_OF_ITS_NAME and not set(after) & FUNCTION_WORDS:
                return True
    return False


def label_stems(column: str) -> set[str]:
    """The stems of the words of `column` that may label its values ("resale_price": resale, price), the
    generic ones left out."""
    return {stem(word) for word in words(column).split()} - LABEL_GENERIC_WORDS


def labelled(value: object, column: str, text: str) -> bool:
    """Whether `text` says `value` just after a word of `column` (between it and the number before; a
    list of numbers, "4 and 5", shares the words before its first).

    >>> text = "20 bales of timothy bought at 4.50, resale price 6"
    >>> labelled(6, "resale_price", text), labelled(4.5, "price", text), labelled(4.5, "resale_price", text)
    (True, False, False)
    >>> labelled(7, "resale_price", "costs: 4 and 5; resale prices: 6 and 7, respectively")
    True
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    wanted = label_stems(column)
    start, label = 0, set[str]()
    for found in STATED_NUMBER.finditer(text):
        between = {stem(word) for word in letter_words(text[start : found.start()])}
        label = label if between <= LIST_WORDS else between
        if abs(float(found.group().replace(",", "")) - value) < 1e-9 and wanted & label:
            return True
        start = found.end()
    return False
