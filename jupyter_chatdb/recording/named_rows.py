"""The kept rows a request names by a code said in words: "glasshouse 12" for the row coded 'G-012', "seed
tray no. 14" for 'S-014'. A code is found only where its one number is a number the request says and
the words just before that number spell its letters (`language.codes.code_fit`); of several codes that fit, only
one that fits better than every other counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..language.codes import code_fit
from ..language.dates import DATES, DAY_MONTH_YEAR, MONTH_THEN_DAY, SLASHED
from ..language.words import any_words, stem, words
from .labelled_lines import LINE
from .resolve import StoredRows
from .shapes import Shape

WINDOW_WORDS = 4  # the words before a number that may spell a code's letters
CLAUSE_END = re.compile(r"[,;:|()\[\]\"\n]|->|=")
NUMBER = re.compile(r"(?<![\w.\-/:])\d{1,9}(?![\w\-/]|[.:]\d)")  # "no. 88", "tray 4: ..."; not "05/04", "4.5", "15:30"


@dataclass(frozen=True)
class NamedRow:
    table: str
    column: str
    value: object  # the stored code
    said: str  # the request's words for it


def codes_said(text: str, shapes: Mapping[str, Shape], stored: StoredRows) -> list[NamedRow]:
    """The rows of `shapes`' tables whose code (a text key or unique column holding letters and one number)
    the request says in words.

    The words before each number, back to the clause's start and at most `WINDOW_WORDS`, are matched
    against the codes holding that number; where they spell no code's letters, the word just before it
    may be its table's noun (`_by_their_noun`)."""
    spans = _spans_before_numbers(text)
    if not spans:
        return []
    numbers = sorted({number for number, _ in spans})
    named: list[NamedRow] = []
    fitted: list[tuple[int, str]] = []  # the numbers said whose words spell some code's letters
    for shape in shapes.values():
        for column in _code_columns(shape):
            codes = stored.codes_holding(shape.table, column, numbers)
            for number, said in spans:
                scored = [(code_fit(said, code), code) for code in codes if _one_number(code) == number]
                best = max((score for score, _ in scored), default=0)
                winners = [code for score, code in scored if score == best]
                if best and (number, said) not in fitted:
                    fitted.append((number, said))
                if best and len(winners) == 1 and not any(n.value == winners[0] for n in named):
                    named.append(NamedRow(shape.table, column, winners[0], _from_its_letters(said, winners[0])))
    return [*named, *_by_their_noun([span for span in spans if span not in fitted], shapes, stored)]


def with_codes_named(
    shapes: Mapping[str, Shape], read: dict, named: Sequence[NamedRow]
) -> tuple[dict, set[tuple[str, int, str]]]:
    """`read` (table -> rows) with each code a row gives as a part of the words a request says a kept code
    in (`named`, from `codes_said`) written as that code: '18' of "fiction shelf no. 18" is 'F-018', where
    one code said holds it; and the (table, index, field) so written, values the request says in words. A
    row whose own code is so written keeps none of the words its code was said in as a value of another
    column ("fiction" as its title): they name it, they do not change it."""
    filled: dict = {}
    said: set[tuple[str, int, str]] = set()
    for table, listed in read.items():
        shape = shapes.get(table)
        if shape is None or not isinstance(listed, list):
            filled[table] = listed
            continue
        filled[table] = []
        for index, row in enumerate(listed):
            written = _with_its_codes(shape, row, named) if isinstance(row, dict) else row
            said |= {(table, index, name) for name in _codes_written(row, written)}
            filled[table].append(written)
    return filled, said


def _codes_written(row: object, written: object) -> list[str]:
    """The fields `written` holds a code in where `row` held a part of its words."""
    if not isinstance(row, dict) or not isinstance(written, dict):
        return []
    return [name for name, value in written.items() if name in row and row[name] != value]


def _with_its_codes(shape: Shape, row: dict, named: Sequence[NamedRow]) -> dict:
    """`row` of `shape` with the codes it gives in part written whole (`with_codes_named`)."""
    written = dict(row)
    for field in shape.fields:
        if field.reference is not None and field.reference.name:
            where = (field.reference.table, field.reference.name)
        elif field.column in shape.naming:
            where = (shape.table, field.column)
        else:
            continue
        value = row.get(field.name)
        code = _the_code_holding(value, [n for n in named if (n.table, n.column) == where])
        if code is None:
            continue
        written[field.name] = code.value
        if where == (shape.table, field.column):  # its own code: the words it was said in are its name
            words_said = set(any_words(code.said))
            for other in shape.fields:
                kept = written.get(other.name)
                if other != field and isinstance(kept, str) and set(any_words(kept) or ["-"]) <= words_said:
                    del written[other.name]
    return written


def _the_code_holding(value: object, named: Sequence[NamedRow]) -> NamedRow | None:
    """The one code of `named` that `value` (not a code itself) is a part of the words of: each of its
    words said in them, its number among them; None where none or several are.

    >>> kits = [NamedRow("kites", "tag", "K-012", "box kite no. 12"), NamedRow("kites", "tag", "S-004", "spare 4")]
    >>> _the_code_holding("12", kits).value, _the_code_holding("kite 12", kits).value, _the_code_holding("K-012", kits)
    ('K-012', 'K-012', None)
    >>> _the_code_holding("7", kits), _the_code_holding("box", kits)
    (None, None)
    """
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None
    said = any_words(str(value))
    found = {
        n.value: n
        for n in named
        if str(value) != str(n.value) and any(w.isdigit() for w in said) and set(said) <= set(any_words(n.said))
    }
    return next(iter(found.values())) if len(found) == 1 else None


def new_codes_said(text: str, table: str, column: str, stored: StoredRows) -> dict[str, str]:
    """The codes no row of `table` holds in `column` that the request says in words, each with its words:
    a number and the words before it, written as the kept codes whose letters those words begin ("game 46"
    for 'G-046', beside 'G-012')."""
    found: dict[str, str] = {}
    for _, span in _spans_before_numbers(text):
        said = _since_the_last_number(span)
        code = stored.composed(table, column, said)
        if code is not None and stored.named_exactly(table, (column,), code, column) is None:
            found.setdefault(code, _from_its_letters(said, code))
    return found


def _since_the_last_number(span: str) -> str:
    """The words of `span` from the last number before its own on ("kite 15 or kite 16": 'kite 16')."""
    said = span.split()
    earlier = [i for i, word in enumerate(said[:-1]) if re.search(r"\d", word)]
    return " ".join(said[earlier[-1] + 1 :] if earlier else said)


def _by_their_noun(spans: list[tuple[int, str]], shapes: Mapping[str, Shape], stored: StoredRows) -> list[NamedRow]:
    """The rows said as their table's noun and a number ("courtesy kayak 2" for the loaner kayak 'L-2'), where
    the code's letters are not the words said: for each number said right after a word whose stem is the
    last word of a table's name, the one code of such tables holding that one number; failing that, of
    tables with that word anywhere in their name ("spare 2" for the spare skate 'PS-2'); none where there
    are several."""
    named: list[NamedRow] = []
    for number, said in spans:
        noun = stem(said.split()[-2]) if len(said.split()) > 1 else ""
        for naming in (lambda table: table[-1:], lambda table: table[:-1]):  # its last word, then the others
            found = [
                NamedRow(shape.table, column, code, " ".join(said.split()[-2:]))
                for shape in shapes.values()
                if noun and noun in {stem(word) for word in naming(words(shape.table).split())}
                for column in _code_columns(shape)
                for code in stored.codes_holding(shape.table, column, [number])
                if _one_number(code) == number
            ]
            if found:
                break
        if len(found) == 1:
            named += found
    return named


def _spans_before_numbers(text: str) -> list[tuple[int, str]]:
    """Each whole number of `text` with the words before it in its clause (at most `WINDOW_WORDS`), where
    there are any; a number a line gives as a `key: value` has its key's words ("berth: 4" as "berth 4").

    >>> _spans_before_numbers("05/04/2024 move: seed tray no. 14, Calder -> Ashby")
    [(14, 'seed tray no. 14')]
    >>> _spans_before_numbers("glasshouse 12 and 4.5 kg"), _spans_before_numbers("March 22, 2024 Ada, 3 May 2024")
    ([(12, 'glasshouse 12')], [])
    >>> _spans_before_numbers("glasshouse 12: shut at 15:30")
    [(12, 'glasshouse 12')]
    >>> _spans_before_numbers("new stay\\nboat: Tern\\nberth: 4\\nnights: 2")
    [(4, 'berth 4'), (2, 'nights 2')]
    """
    for said_day in (DATES, SLASHED, MONTH_THEN_DAY, DAY_MONTH_YEAR):  # "March 22" is no code 'M-022'
        text = said_day.sub(lambda m: "," * len(m.group()), text)
    keys = {line.start("value"): line.group("key") for line in LINE.finditer(text)}  # "berth" of "berth: 4"
    spans = []
    for match in NUMBER.finditer(text):
        clause = CLAUSE_END.split(text[: match.start()])[-1]
        before = (clause.split() or keys.get(match.start(), "").split())[-WINDOW_WORDS:]
        if any(re.search(r"[^\W\d_]", word) for word in before):
            spans.append((int(match.group()), " ".join([*before, match.group()])))
    return spans


def _from_its_letters(said: str, code: str) -> str:
    """`said` from the word that begins the code's letters ("seed tray no. 14" of "moved seed tray no. 14"
    for 'S-014')."""
    said_words = said.split()
    letters = re.findall(r"[a-z]+", code.lower())
    start = next((i for i, w in enumerate(said_words) if letters and w.lower().startswith(letters[0])), 0)
    return " ".join(said_words[start:])


def _code_columns(shape: Shape) -> list[str]:
    text_columns = {f.column for f in shape.fields if f.reference is None and f.type.upper().startswith("VARCHAR")}
    return [c for c in shape.naming if c in text_columns]


def _one_number(code: str) -> int | None:
    digits = re.findall(r"\d+", code)
    return int(digits[0]) if len(digits) == 1 else None
