"""A write the user approved, made reusable: the values its request said become typed parameters, and the
statements repeated for each item ("3 kg of kiwi and 5 kg of pear": one insert per fruit) become one
group of steps run for each item of a list.

    request:  "We bought 3 kg of kiwi and 5 kg of pear from Calder"
    ran:      INSERT INTO lots (supplier, crop, kg) VALUES ('Calder', 'kiwi', 3), ('Calder', 'pear', 5)
    becomes:  INSERT INTO lots (supplier, crop, kg) VALUES ($supplier, $item_crop, $item_kg)   -- per item
              with supplier = 'Calder', items = [{crop: kiwi, kg: 3}, {crop: pear, kg: 5}]

A literal is a parameter only where the request says its value; other literals (a status, a unit) stay.
Every decision reads sqlglot's tree, never the SQL text. What a procedure's SQL says afterwards (its
$parameters, their columns and types, its tables) is read in `procedure_sql.py`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlglot import exp

from ..language.codes import said_in_a_clause
from ..language.dates import days_said
from ..language.moments import iso_moment, moments_said, slashed_days
from ..language.spoken import durations_said, spelled_numbers
from ..language.stop_words import FUNCTION_WORDS
from ..language.words import stem, stems
from ..sql.trees import DIALECT, target_table
from .procedure_sql import outside, parse_statements, written_or_compared

ITEM_PREFIX = "item_"  # a parameter named so takes a value per item; its steps run once for each
ITEMS = "items"  # the list parameter of the values per item
PARAMETER_NAME = re.compile(r"[a-z_][a-z0-9_]*")
GENERIC_COLUMNS = frozenset({"name", "id", "title", "code", "label", "value"})


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str  # "text" | "number" | "days" (a length of time, bound as a number of days)

    @property
    def per_item(self) -> bool:
        return self.name.startswith(ITEM_PREFIX)


@dataclass(frozen=True)
class GeneralStep:
    goal: str
    sql: str  # $parameters where the request's values were
    binds: tuple[str, ...] = ()  # result columns later steps use, as in the plan it came from
    loop: int = 0  # n > 0: run once for each item, with the other steps of loop n (0: once)

    @property
    def per_item(self) -> bool:
        return self.loop > 0


@dataclass(frozen=True)
class Generalized:
    steps: tuple[GeneralStep, ...]
    parameters: tuple[Parameter, ...]
    example: Mapping[str, object]  # the request's own values: the scalars, and "items" (a list of dicts)


def generalize(
    request: str,
    steps: Sequence[tuple[str, str, tuple[str, ...]]],
    today: dt.date | None = None,
    listed: Mapping[tuple[str, str], Sequence[str]] | None = None,
) -> Generalized:
    """The reusable form of the statements `steps` (goal, sql, binds) that carried out `request`. `listed`:
    the schema's CHECK lists ((table, column) in lower case -> entries): an entry written to its column
    that the request says in other words sharing one ("kids' craft afternoon" for 'craft session') is a
    value of the request; one it shares no word with ('lost' for "gone missing") is the procedure's own.

    >>> g = generalize("Calder sent 3 kg of kiwi and 5 kg of pear", [
    ...     ("lots", "INSERT INTO lots (supplier, crop, kg) VALUES ('Calder', 'kiwi', 3), ('Calder', 'pear', 5)", ())])
    >>> [s.sql for s in g.steps], g.example
    (['INSERT INTO lots (supplier, crop, kg) VALUES ($supplier, $item_crop, $item_kg)'], \
{'supplier': 'Calder', 'items': [{'item_crop': 'kiwi', 'item_kg': 3}, {'item_crop': 'pear', 'item_kg': 5}]})
    """
    split = [part for goal, sql, binds in steps for part in _one_row_each(goal, sql, binds)]
    said = _Said(request)
    lists = {(table.lower(), column.lower()): tuple(entries) for (table, column), entries in (listed or {}).items()}
    trees = [parse_statements(sql) for _, sql, _ in split]
    literals = [
        [node for tree in step for node in _literals(tree) if said.says(node) or said.in_words(node, lists)]
        for step in trees
    ]
    runs = _repeated([_shape(step, found) for step, found in zip(trees, literals)])
    count = runs[0].count if runs else 1
    names = _Names()
    example: dict[str, object] = {}
    items: list[dict[str, object]] = [{} for _ in range(count)] if runs else []
    out: list[GeneralStep] = []
    today = today or dt.date.today()
    for index, ((goal, _, binds), step) in enumerate(zip(split, trees)):
        run = next((r for r in runs if r.start <= index < r.end), None)
        if run is not None and index >= run.start + run.length:
            continue  # a repeat: its values became items
        for position, node in enumerate(literals[index]):
            repeats = [literals[index + k * run.length][position] for k in range(count)] if run else [node]
            values = [_value(r) for r in repeats]
            if len(set(map(repr, values))) > 1:
                name = names.item(_hint(node), values)
                for item, each in zip(items, values):
                    item[name] = each
            else:
                name = names.scalar(_hint(node), values[0])
                example[name] = values[0]
            node.replace(exp.Placeholder(this=name))
        if run is None:
            for tree in step:
                _days_after_as_said(tree, said, names, example)
        for tree in step:
            _latest_for_an_unsaid_day(tree)
            _today_as_current_date(tree, today)
        sql = "; ".join(tree.sql(dialect=DIALECT) for tree in step)
        out.append(GeneralStep(goal, sql, tuple(binds), runs.index(run) + 1 if run else 0))
    if items:
        example[ITEMS] = items
    return Generalized(tuple(out), names.parameters(), example)


# -- the request's values ---------------------------------------------------------------------------


class _Said:
    """What a request says: its words, its numbers (in figures or words), its days in any form ("31 March
    2024"), its moments (a day and a time said together: "8 April 2024 11:45") and codes said in words
    within a clause ("game 36" for 'G-036')."""

    def __init__(self, request: str) -> None:
        self.text = " ".join(re.findall(r"\w+", request.casefold()))
        figures = re.findall(r"(?<![\w.])\d+(?:\.\d+)?", request.replace(",", ""))
        self.numbers = {float(n) for n in figures} | set(spelled_numbers(request))  # "five frames" says 5
        slashed = slashed_days(request, True) | slashed_days(request, False)  # the literal says which order
        self.days = {day.isoformat() for day in days_said(request) | slashed}
        self.moments = {*moments_said(request), *moments_said(request, True), *moments_said(request, False)}
        self.lengths = durations_said(request)
        self.stems = stems(request)
        self.request = request

    def says(self, literal: exp.Literal) -> bool:
        """
        >>> said = _Said("event: reading group, 31 March 2024, 11 came; moved: game 36")
        >>> [said.says(exp.Literal.string(v)) for v in ("2024-03-31", "reading group", "2024-03-30", "G-036", "G-037")]
        [True, True, False, True, False]
        >>> said = _Said("booking: Ann with Bo, room 1, 8 April 2024 11:45, 60 min; paid 09/04/2024")
        >>> [said.says(exp.Literal.string(v)) for v in ("2024-04-08 11:45:00", "2024-04-08 11:00:00", "R1", "2024-04-09")]
        [True, False, True, True]
        >>> said = _Said("Checked the hive: brood on five frames, twenty-one mites")
        >>> [said.says(exp.Literal.number(n)) for n in (5, 21, 4)]
        [True, True, False]
        """
        if literal.is_string:
            moment = iso_moment(literal.this)
            if literal.this in self.days or moment in self.moments or said_in_a_clause(self.request, literal.this):
                return True
            words = " ".join(re.findall(r"\w+", literal.this.casefold()))
            return bool(words) and re.search(rf"\b{re.escape(words)}\b", self.text) is not None
        try:
            return float(literal.this) in self.numbers
        except ValueError:
            return False

    def in_words(self, literal: exp.Literal, listed: Mapping[tuple[str, str], Sequence[str]]) -> bool:
        """Whether `literal` is an entry of the list of the column it is written to, that the request says
        in words sharing one with it.

        >>> said = _Said("2024-03-04 event: kids' craft afternoon at Central")
        >>> tree = parse_statements("INSERT INTO events (kind, state) VALUES ('craft session', 'lost')")[0]
        >>> listed = {("events", "kind"): ("craft session", "talk"), ("events", "state"): ("held", "lost")}
        >>> [said.in_words(node, listed) for node in _literals(tree)]
        [True, False]
        """
        if not literal.is_string or not listed:
            return False
        column, said_by = written_or_compared(literal)
        table = target_table(said_by) if isinstance(said_by, (exp.Insert, exp.Update)) else None
        entries = listed.get((table or "", column.lower()), ())
        return literal.this in entries and bool(_content_stems(literal.this) & self.stems)


def _content_stems(text: str) -> set[str]:
    """The stems of `text`'s words that say something: no function word ("on loan" is "loan")."""
    return {stem(word) for word in re.findall(r"[^\W\d_]+", text.lower()) if word not in FUNCTION_WORDS}


def _days_after_as_said(tree: exp.Expr, said: _Said, names: _Names, example: dict[str, object]) -> None:
    """Each day of `tree` the request does not say that is a day it says plus a length of time it says (a
    loan due back "two weeks" from the day lent), written as that sum of two parameters, in place: the
    next request's own day and length ("a week") make its own due day, not the first one's."""
    for node in _literals(tree):
        written = isinstance(written_or_compared(node)[1], (exp.Insert, exp.Update))  # never a WHERE's bound
        day = _iso_day(node.this) if written and node.is_string and not said.says(node) else None
        if day is None:
            continue
        sums = [
            (start, words, length)
            for start in sorted(said.days)
            for words, length in said.lengths
            if not length.months and length.days and length.after(dt.date.fromisoformat(start)) == day
        ]
        if not sums:
            continue
        start, words, length = sums[0]
        column = _hint(node)
        start_name = names.scalar(f"{column}_from", start)
        example.setdefault(start_name, start)
        days_name = names.days(f"{column}_days", words)
        example[days_name] = words
        start_day = exp.Cast(this=exp.Placeholder(this=start_name), to=exp.DataType.build("DATE"))
        days = exp.Cast(this=exp.Placeholder(this=days_name), to=exp.DataType.build("INTEGER"))
        node.replace(exp.Paren(this=exp.Add(this=start_day, expression=days)))


def _iso_day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) else None
    except ValueError:
        return None


def _literals(tree: exp.Expr) -> list[exp.Literal]:
    """The literal values of a statement in the order written (not the numbers of LIMIT or OFFSET)."""
    return [node for node in tree.find_all(exp.Literal) if not isinstance(outside(node)[1], (exp.Limit, exp.Offset))]


def _value(literal: exp.Literal) -> object:
    """
    >>> _value(exp.Literal.number(3)), _value(exp.Literal.number("2.5")), _value(exp.Literal.string("x"))
    (3, 2.5, 'x')
    """
    if literal.is_string:
        return literal.this
    text = literal.this
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def _hint(literal: exp.Literal) -> str:
    """The column a literal is written to or compared with, as a parameter's name ("value" if none); a
    column of a name every table has ("name", "id") with its table's: "suppliers_name"."""
    column = _column_of(literal)
    if column in GENERIC_COLUMNS:
        table = next(iter(literal.root().find_all(exp.Table)), None)
        return f"{table.name}_{column}" if table is not None else column
    return column


def _column_of(literal: exp.Expr) -> str:
    return written_or_compared(literal)[0]


class _Names:
    """Parameter names: a column's name, once per value (the same value twice is one parameter)."""

    def __init__(self) -> None:
        self.types: dict[str, str] = {}
        self.by_value: dict[str, str] = {}

    def scalar(self, hint: str, value: object) -> str:
        key = repr(value)
        if key not in self.by_value:
            self.by_value[key] = self._new(_identifier(hint), value)
        return self.by_value[key]

    def item(self, hint: str, values: Sequence[object]) -> str:
        """The parameter of a value that changes from item to item (`values`, one per item)."""
        key = repr(list(values))
        if key not in self.by_value:
            self.by_value[key] = self._new(ITEM_PREFIX + _identifier(hint), values[0])
        return self.by_value[key]

    def days(self, hint: str, words: str) -> str:
        """The parameter of a length of time said in words ("two weeks"), bound as a number of days."""
        name = self._new(_identifier(hint), words)
        self.types[name] = "days"
        return name

    def _new(self, base: str, value: object) -> str:
        name, n = base, 2
        while name in self.types:
            name, n = f"{base}_{n}", n + 1
        self.types[name] = "text" if isinstance(value, str) else "number"
        return name

    def parameters(self) -> tuple[Parameter, ...]:
        return tuple(Parameter(name, kind) for name, kind in self.types.items())


def _identifier(text: str) -> str:
    """
    >>> _identifier("Bales Left"), _identifier("2nd")
    ('bales_left', 'p_2nd')
    """
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "value"
    return name if PARAMETER_NAME.fullmatch(name) else f"p_{name}"


# -- repeated steps -----------------------------------------------------------------------------------


def _one_row_each(goal: str, sql: str, binds: tuple[str, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    """A step that inserts several rows of values, as one step per row (so each row can be an item)."""
    trees = parse_statements(sql)
    if binds or len(trees) != 1 or not isinstance(trees[0], exp.Insert):
        return [(goal, sql, binds)]
    values = trees[0].expression
    if not isinstance(values, exp.Values) or len(values.expressions) < 2:
        return [(goal, sql, binds)]
    rows = []
    for row in values.expressions:
        one = trees[0].copy()
        one.expression.set("expressions", [row.copy()])
        rows.append((goal, one.sql(dialect=DIALECT), binds))
    return rows


@dataclass(frozen=True)
class _Run:
    start: int
    length: int  # steps per item
    count: int  # items

    @property
    def end(self) -> int:
        return self.start + self.length * self.count


def _repeated(shapes: list[str]) -> list[_Run]:
    """The runs of steps repeated per item, in order: each run is `count` >= 2 consecutive groups of
    steps of the same shapes, the run covering most steps first, then others of as many items."""
    runs: list[_Run] = []
    while True:
        taken = {i for run in runs for i in range(run.start, run.end)}
        best: _Run | None = None
        for length in range(1, len(shapes) // 2 + 1):
            for start in range(len(shapes) - length):
                group, count = shapes[start : start + length], 1
                while shapes[start + count * length : start + (count + 1) * length] == group:
                    count += 1
                run = _Run(start, length, count)
                if count < 2 or taken & set(range(start, run.end)) or (runs and count != runs[0].count):
                    continue
                if best is None or length * count > best.length * best.count:
                    best = run
        if best is None:
            return sorted(runs, key=lambda run: run.start)
        runs.append(best)


def _shape(step: list[exp.Expr], said: list[exp.Literal]) -> str:
    """A step's SQL with the request's values blanked: steps of one shape differ only in those values."""
    marked = {id(node) for node in said}
    shapes = []
    for tree in step:
        blanks = [i for i, node in enumerate(_literals(tree)) if id(node) in marked]
        copy = tree.copy()
        for i, node in enumerate(_literals(copy)):
            if i in blanks:
                node.replace(exp.Placeholder())
        shapes.append(copy.sql(dialect=DIALECT))
    return "; ".join(shapes)


def _latest_for_an_unsaid_day(tree: exp.Expr) -> None:
    """A row looked up by a value the request says and a day it does not ("K-7 is back": the hire of
    kayak K-7 that went out on 1 May, a day found in the data, not said) is, for the next request, that
    thing's latest row by the day's column, not the row of the first one's day; in place.

    >>> tree = parse_statements("UPDATE hires SET back_on = $back_on WHERE hire = (SELECT hire FROM hires "
    ...     "WHERE kayak = $kayak AND out_on = CAST('2024-05-01' AS DATE))")[0]
    >>> _latest_for_an_unsaid_day(tree); tree.sql(dialect=DIALECT)
    'UPDATE hires SET back_on = $back_on WHERE hire = (SELECT hire FROM hires WHERE kayak = $kayak ORDER BY out_on DESC LIMIT 1)'
    """
    for select in list(tree.find_all(exp.Select)):
        where = select.args.get("where")
        if not isinstance(select.parent, exp.Subquery) or where is None or select.args.get("limit"):
            continue
        terms = list(where.this.flatten()) if isinstance(where.this, exp.And) else [where.this]
        days = [(term, column) for term in terms if (column := _unsaid_day_of(term)) is not None]
        said = [term for term in terms if term.find(exp.Placeholder) is not None]
        if len(days) != 1 or not said or not all(isinstance(term, exp.EQ) for term in terms):
            continue
        ((day, column),) = days
        select.set("where", exp.Where(this=exp.and_(*(term for term in terms if term is not day))))
        select.order_by(exp.Ordered(this=column.copy(), desc=True), copy=False)
        select.limit(1, copy=False)


def _unsaid_day_of(term: exp.Expr) -> exp.Column | None:
    """The column of a comparison `column = <a day written in the SQL>`, else None."""
    if not isinstance(term, exp.EQ):
        return None
    for column, value in ((term.this, term.expression), (term.expression, term.this)):
        literal = value.this if isinstance(value, exp.Cast) else value
        if isinstance(column, exp.Column) and isinstance(literal, exp.Literal) and literal.is_string:
            if _iso_day(literal.this) is not None:
                return column
    return None


def _today_as_current_date(tree: exp.Expr, today: dt.date) -> None:
    """A date literal of the day the write ran was "today": it stays so (CURRENT_DATE), not that day."""
    for node in list(tree.find_all(exp.Literal)):
        if node.is_string and node.this == today.isoformat():
            target = node.parent if isinstance(node.parent, exp.Cast) else node
            target.replace(exp.CurrentDate())
