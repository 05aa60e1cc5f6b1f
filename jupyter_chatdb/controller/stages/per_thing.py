"""A ranking of single rows that names a thing many rows hold: "Which kite brought in the most hire
money?" written as `SELECT kite FROM hires ORDER BY days * day_rate DESC LIMIT 1` names the kite of the
one best hire, not the kite whose hires add up to most.

A small model writes this often. The statement says it (rows ranked by a measure, no grouping, a LIMIT,
only the thing shown) and the data settles it (the thing shown repeats across the rows ranked): the model
is then told so once and writes the query again, per thing or as it was. A question about single rows
("the hire that brought in most") keeps its statement; a read the check does not fit pays one query.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import duckdb
import sqlglot
from sqlglot import exp

from ...errors import ChatDBError, ModelOutputError
from ...sql.session import Session
from ...sql.trees import DIALECT
from .. import native_sql
from ..context import Context
from ..events import Event, ReadRechecked
from ..kinds import Form, Route
from ..stage import stage
from .one_statement import SQL_MAX_TOKENS, native_step


@dataclass(frozen=True)
class Repeated:
    """A column a ranking of rows shows, one value of it and how many of the rows ranked hold it."""

    column: str
    value: str
    rows: int

    def hint(self) -> str:
        """What the model is told before it writes the query again."""
        return (
            f"This query ranks single rows, and {self.column} repeats across them: {self.value!r} is in "
            f"{self.rows} rows. If the question asks about each {self.column} as a whole, total its rows per "
            f"{self.column} (GROUP BY {self.column}); if it asks about single rows, write the same query again."
        )


@stage
def rank_per_thing(ctx: Context) -> Iterator[Event]:
    """For a native read ranking single rows by a measure, showing only a thing that repeats across them:
    the query written again once, told so (`Repeated.hint`); the model's second query is the read."""
    if ctx.route != Route.READ or ctx.form != Form.NATIVE or len(ctx.steps) != 1 or ctx.request.approved:
        return
    sql = ctx.steps[0].sql
    repeated = ranked_rows_repeating(ctx.session, sql)
    if repeated is None:
        return
    messages = [
        *ctx.messages,
        {"role": "assistant", "content": ctx.plan_reply},
        {"role": "user", "content": f"{repeated.hint()}\n{native_sql.REPAIR}"},
    ]
    completion = yield from ctx.calls("repair", messages, None, SQL_MAX_TOKENS, stop=native_sql.STOP)
    try:
        again = native_step(ctx, completion.text)
    except ModelOutputError:
        return  # no SQL the second time: the first statement stands
    yield ReadRechecked(repeated.hint(), sql, again.sql)
    if again.sql != sql:
        ctx.steps, ctx.plan_reply = [again], completion.text


def ranked_rows_repeating(session: Session, sql: str) -> Repeated | None:
    """The column `sql` shows that repeats across the rows it ranks, where `sql` is one SELECT ranking
    single rows by a measure computed from two or more of their columns that it does not show (ORDER BY
    days * day_rate), with a LIMIT and no grouping, aggregate or DISTINCT, and shows plain columns; None
    otherwise, or where each value shown is one row's. A ranking by one stored value ("the kite with the
    longest line") is about single rows, and is left alone.

    >>> session = Session()
    >>> _ = session.run("CREATE TABLE sales (product VARCHAR, units INTEGER, price DOUBLE)")
    >>> _ = session.run("INSERT INTO sales VALUES ('fig', 2, 1.0), ('kale', 9, 1.0), ('fig', 8, 1.0)")
    >>> ranked_rows_repeating(session, "SELECT product FROM sales ORDER BY units * price DESC LIMIT 1")
    Repeated(column='product', value='fig', rows=2)
    >>> ranked_rows_repeating(session, "SELECT product FROM sales GROUP BY product ORDER BY sum(units) DESC LIMIT 1")
    >>> ranked_rows_repeating(session, "SELECT product FROM sales WHERE units > 5 ORDER BY units * price DESC LIMIT 1")
    >>> ranked_rows_repeating(session, "SELECT product FROM sales ORDER BY units DESC LIMIT 1")
    """
    try:
        tree = sqlglot.parse_one(sql, read=DIALECT)
    except (sqlglot.errors.SqlglotError, IndexError):  # what the guard refuses later, or cannot read
        return None
    if not isinstance(tree, exp.Select) or not tree.args.get("order") or not tree.args.get("limit"):
        return None
    if tree.args.get("group") or tree.args.get("distinct") or tree.args.get("having") or tree.args.get("with_"):
        return None
    if any(tree.find_all(exp.AggFunc, exp.Window)):
        return None
    shown = [e.unalias() for e in tree.expressions]
    things = [e for e in shown if isinstance(e, exp.Column)]
    if not things or any(isinstance(e, exp.Star) for e in shown):
        return None
    keys = [o.this for o in tree.args["order"].expressions]
    names = {t.name.lower() for t in things} | {e.alias.lower() for e in tree.expressions if e.alias}
    if any(isinstance(k, exp.Column) and not k.table and k.name.lower() in names for k in keys):
        return None  # ranked by what it shows: a list in order, not a measure of rows
    if not any(_computed(k) for k in keys):
        return None  # ranked by one stored value (the fastest car, the oldest rider): single rows are meant
    thing = things[0]
    counted = tree.copy()
    counted.set("order", None)
    counted.set("limit", None)
    counted.set("offset", None)
    label = exp.to_identifier("thing")
    counted.set("expressions", [exp.alias_(thing.copy(), label), exp.alias_(exp.Count(this=exp.Star()), "n")])
    counted.set("group", exp.Group(expressions=[exp.column(label)]))
    counted = counted.order_by(exp.Ordered(this=exp.column("n"), desc=True)).limit(1)
    try:
        rows = session.rows(f"{counted.sql(DIALECT)}")
    except (ChatDBError, duckdb.Error):
        return None
    if not rows or rows[0][1] < 2 or rows[0][0] is None:
        return None
    return Repeated(thing.name, str(rows[0][0]), int(rows[0][1]))


def _computed(key: exp.Expression) -> bool:
    """Whether an ORDER BY key is arithmetic over two or more columns of the rows (units * price)."""
    arithmetic = (exp.Mul, exp.Add, exp.Sub, exp.Div)
    return isinstance(key, arithmetic) and len({c.sql() for c in key.find_all(exp.Column)}) >= 2
