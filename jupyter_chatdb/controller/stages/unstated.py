"""A write the model wrote itself (a plan's UPDATE or INSERT) that writes a value the request does not give
waits, saying which: a small model planning "SG-7 gilded on 3 May" may also mark the sign fitted, and one
planning a booking may fill in its status, or a new client's phone. A value is given where the request
states it (its figures, its words, a day it names), says a listed entry, or names the row it refers to (a
code said in parts, "berth 4" for 'B4'); a new row's column holds its DEFAULT unless told otherwise, and
its number, where an integer is its key, is nobody's to say. Code's
own writes bind their values and note their doubts where they are read (`recording/row_changes.py`,
`recording/facts.py`); this looks only at the values a statement spells out. Run after the steps, before
`finish`, on the chain's strategies (not on the one-round baseline, which is measured as the model writes).
A procedure's steps are the user's: the values it spells out are kept for every request of its kind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from ...recording.picks import entry_said
from ...recording.shapes import INTEGER_TYPES, Shape, shapes_of
from ...recording.stated import is_stated
from ...sql.names import quote_identifier, quote_table
from ...sql.rules import derived_columns
from ..context import Context
from ..events import Event
from ..kinds import Route
from ..stage import stage
from .rows_named import rows_named


@dataclass(frozen=True)
class Written:
    table: str
    column: str
    value: object
    added: bool  # in a new row (an INSERT), not a kept row's change

    @property
    def where(self) -> tuple[str, str]:
        return self.table.lower(), self.column.lower()


@stage
def hold_unstated_settings(ctx: Context) -> Iterator[Event]:
    """Hold the write for approval where a statement that changed rows writes a literal the request does
    not give."""
    if ctx.route != Route.WRITE or ctx.request.expected is not None or not ctx.session.in_transaction:
        return
    if ctx.procedure:
        return
    chain = ctx.running()
    today, text, columns_of, numbered = dt.date.today(), ctx.request.text, _columns_of(ctx), _numbered_keys(ctx)
    written = [
        found
        for step, as_run in zip(chain.steps, chain.done, strict=False)
        if step.rows_affected
        for found in literal_values(as_run.sql, columns_of)
    ]
    unsaid = [
        w
        for w in dict.fromkeys(written)
        if not (is_stated(w.value, text, today) or entry_said(w.value, text) or (w.added and w.where in numbered))
    ]
    if unsaid:
        defaults, keys = _given_unsaid(ctx)
        unsaid = [
            w
            for w in unsaid
            if str(w.value) not in keys.get(w.where, set()) and not (w.added and str(w.value) == defaults.get(w.where))
        ]
    ctx.held += [f"{w.table}.{w.column} is set to {w.value!r}, which the request does not give" for w in unsaid]
    yield from ()


def _columns_of(ctx: Context) -> Callable[[str], Sequence[str]]:
    """The columns of a table of the session, in their order, by its name in any case."""
    by_name = {name.lower(): [c.name for c in table.columns] for name, table in ctx.catalog.tables.items()}
    return lambda table: by_name.get(table.lower(), [])


def _numbered_keys(ctx: Context) -> set[tuple[str, str]]:
    """The (table, column) of each integer primary key: a new row's number, which nobody says."""
    return {
        (name.lower(), table.primary_key[0].lower())
        for name, table in ctx.catalog.tables.items()
        if len(table.primary_key) == 1
        and any(c.name == table.primary_key[0] and c.type.upper().startswith(INTEGER_TYPES) for c in table.columns)
    }


def _given_unsaid(ctx: Context) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], set[str]]]:
    """By (table, column): its DEFAULT, which a new row holds unless told otherwise; and for a reference,
    the keys of the rows the request names of the table it refers to."""
    rules = ctx.services.rules
    shapes = shapes_of(ctx.session, ctx.catalog, derived_columns(rules) if rules is not None else {})
    named = rows_named(ctx, shapes)
    defaults: dict[tuple[str, str], str] = {}
    keys: dict[tuple[str, str], set[str]] = {}
    for shape in shapes.values():
        for field in shape.fields:
            where = shape.table.lower(), field.column.lower()
            if field.default is not None:
                defaults[where] = field.default
            reference = field.reference
            if reference is None:
                continue
            for row in named:
                if _table_of(shapes, row.table) == reference.table.lower():
                    keys.setdefault(where, set()).update(
                        _keys(ctx, reference.table, reference.key, row.column, row.value)
                    )
    return defaults, keys


def _table_of(shapes: Mapping[str, Shape], name: str) -> str:
    shape = shapes.get(name)
    return (shape.table if shape is not None else name).lower()


def _keys(ctx: Context, table: str, key: str, column: str, value: object) -> set[str]:
    """The keys of the rows of `table` whose `column` holds `value` (a few at most), compared as text: a
    query that fails would end the write's transaction."""
    found = ctx.session.rows(
        f"SELECT DISTINCT {quote_identifier(key)} FROM {quote_table(table)}"
        f" WHERE CAST({quote_identifier(column)} AS VARCHAR) = ? LIMIT 5",
        [str(value)],
    )
    return {str(k) for (k,) in found}


def literal_values(sql: str, columns_of: Callable[[str], Sequence[str]] = lambda _: ()) -> list[Written]:
    """The values an UPDATE sets or an INSERT adds spelled out in it (numbers as numbers); `columns_of`
    gives a table's columns in order, for an INSERT that lists none.

    >>> def shown(sql, columns_of=lambda _: ()):
    ...     return [(w.table, w.column, w.value) for w in literal_values(sql, columns_of)]
    >>> shown("UPDATE signs SET state = 'gilded', coats = CAST(3 AS INT), note = $p1, hung_on = NULL")
    [('signs', 'state', 'gilded'), ('signs', 'coats', 3)]
    >>> shown("INSERT INTO signs (code, state) VALUES ('SG-7', 'fitted'), ($code, 'hung')")
    [('signs', 'code', 'SG-7'), ('signs', 'state', 'fitted'), ('signs', 'state', 'hung')]
    >>> shown("INSERT INTO signs SELECT 'SG-8', DATE '2024-05-03' WHERE NOT EXISTS (SELECT 1 FROM signs)",
    ...       lambda table: ["code", "hung_on"])
    [('signs', 'code', 'SG-8'), ('signs', 'hung_on', '2024-05-03')]
    """
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.ParseError:
        return []
    if isinstance(tree, exp.Update) and isinstance(tree.this, exp.Table):
        pairs = [
            (assignment.this.name, assignment.expression)
            for assignment in tree.expressions
            if isinstance(assignment, exp.EQ) and isinstance(assignment.this, exp.Column)
        ]
        return [Written(tree.this.name, c, value, False) for c, node in pairs if (value := _literal(node)) is not None]
    if not isinstance(tree, exp.Insert):
        return []
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    if not isinstance(table, exp.Table):
        return []
    listed = [c.name for c in target.expressions] if isinstance(target, exp.Schema) else list(columns_of(table.name))
    source = tree.expression
    if isinstance(source, exp.Values):
        rows = [row.expressions for row in source.expressions if isinstance(row, exp.Tuple)]
    elif isinstance(source, exp.Select):
        rows = [source.expressions]
    else:
        return []
    return [
        Written(table.name, column, value, True)
        for row in rows
        for column, node in zip(listed, row, strict=False)
        if (value := _literal(node)) is not None
    ]


def _literal(node: exp.Expression) -> object | None:
    """The value a literal spells out, under its casts and alias; None for anything else (NULL included)."""
    while isinstance(node, exp.Cast | exp.Alias):
        node = node.this
    if not isinstance(node, exp.Literal):
        return None
    if node.is_number:
        number = float(node.this)
        return int(number) if number.is_integer() else number
    return node.this
