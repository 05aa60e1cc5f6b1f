"""A ranking of single rows that names a thing many rows hold: "Which kite brought in the most hire
money?" written as `SELECT kite FROM hires ORDER BY days * day_rate DESC LIMIT 1` names the kite of the
one best hire, not the kite whose hires add up to most.

A small model writes this often. The statement says it (rows ranked by a measure, no grouping, a LIMIT,
only the thing shown) and the data settles it (the thing shown repeats across the rows ranked). Code then
writes the other reading, each kite's hires totalled (`GROUP BY kite ORDER BY SUM(days * day_rate)`), and
the model picks between the two in one short constrained call: a small model told to write the query again
wrote totals of the wrong columns. A question about single rows ("the hire that brought in most") keeps
its statement; a read the check does not fit pays one query.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace

import duckdb
import sqlglot
from sqlglot import exp

from ...errors import ChatDBError
from ...llm.base import JSONSchema, Message
from ...sql.session import Session
from ...sql.trees import DIALECT
from ..context import Context
from ..events import Event, ReadRechecked
from ..kinds import Form, Route
from ..stage import stage


@dataclass(frozen=True)
class Repeated:
    """A column a ranking of rows shows, one value of it and how many of the rows ranked hold it, and the
    ranking of each of its values by the measure totalled (`per_thing`)."""

    column: str
    value: str
    rows: int
    measure: str
    per_thing: str
    most: str = "highest"  # or "lowest": the ranking's direction

    def why(self) -> str:
        """What the card says of the check."""
        return f"{self.column} repeats across the rows ranked ({self.value!r} is in {self.rows} of them)"


CHOICE_INSTRUCTIONS = """\
You check which query answers a question about a database. Reply with JSON {"choice": 1} or {"choice": 2}."""
CHOICE_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {"choice": {"type": "integer", "enum": [1, 2]}},
    "required": ["choice"],
}
CHOICE_MAX_TOKENS = 12


@stage
def rank_per_thing(ctx: Context) -> Iterator[Event]:
    """For a native read ranking single rows by a computed measure, showing only a thing that repeats
    across them: the model picks between the rows' ranking and each thing's total, one short call."""
    if ctx.route != Route.READ or ctx.form != Form.NATIVE or len(ctx.steps) != 1 or ctx.request.approved:
        return
    sql = ctx.steps[0].sql
    repeated = ranked_rows_repeating(ctx.session, sql)
    if repeated is None:
        return
    messages = choice_messages(ctx.request.text, sql, repeated)
    completion = yield from ctx.calls("choose", messages, CHOICE_SCHEMA, CHOICE_MAX_TOKENS)
    try:
        picked = json.loads(completion.text).get("choice")
    except (json.JSONDecodeError, AttributeError):
        picked = None
    chosen = repeated.per_thing if picked == 2 else sql
    yield ReadRechecked(repeated.why(), sql, chosen)
    if chosen != sql:
        ctx.steps = [replace(ctx.steps[0], sql=chosen)]


def choice_messages(question: str, sql: str, repeated: Repeated) -> list[Message]:
    """The two readings of a ranking, in words and SQL.

    >>> per_kite = "SELECT kite FROM hires GROUP BY kite ORDER BY SUM(days * day_rate) DESC LIMIT 1"
    >>> r = Repeated("kite", "Swift", 3, "days * day_rate", per_kite)
    >>> per_hire = "SELECT kite FROM hires ORDER BY days * day_rate DESC LIMIT 1"
    >>> print(choice_messages("Which kite brought in most?", per_hire, r)[1]["content"])
    Question: Which kite brought in most?
    1: the kite of the single rows with the highest days * day_rate
    SELECT kite FROM hires ORDER BY days * day_rate DESC LIMIT 1
    2: each kite's rows added up, the kites with the highest total days * day_rate ('Swift' is in 3 rows)
    SELECT kite FROM hires GROUP BY kite ORDER BY SUM(days * day_rate) DESC LIMIT 1
    """
    thing, measure, most = repeated.column, repeated.measure, repeated.most
    return [
        {"role": "system", "content": CHOICE_INSTRUCTIONS},
        {
            "role": "user",
            "content": f"Question: {question}\n"
            f"1: the {thing} of the single rows with the {most} {measure}\n{sql}\n"
            f"2: each {thing}'s rows added up, the {thing}s with the {most} total {measure} "
            f"({repeated.value!r} is in {repeated.rows} rows)\n{repeated.per_thing}",
        },
    ]


def ranked_rows_repeating(session: Session, sql: str) -> Repeated | None:
    """The column `sql` shows that repeats across the rows it ranks, where `sql` is one SELECT ranking
    single rows by a measure computed from two or more of their columns that it does not show (ORDER BY
    days * day_rate), with a LIMIT and no grouping, aggregate or DISTINCT, and shows plain columns; None
    otherwise, or where each value shown is one row's. A ranking by one stored value ("the kite with the
    longest line") is about single rows, and is left alone.

    >>> session = Session()
    >>> _ = session.run("CREATE TABLE sales (product VARCHAR, units INTEGER, price DOUBLE)")
    >>> _ = session.run("INSERT INTO sales VALUES ('fig', 2, 1.0), ('kale', 9, 1.0), ('fig', 8, 1.0)")
    >>> repeated = ranked_rows_repeating(session, "SELECT product FROM sales ORDER BY units * price DESC LIMIT 1")
    >>> repeated.why()
    "product repeats across the rows ranked ('fig' is in 2 of them)"
    >>> repeated.per_thing
    'SELECT product FROM sales GROUP BY product ORDER BY SUM(units * price) DESC LIMIT 1'
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
    most = "highest" if tree.args["order"].expressions[0].args.get("desc") else "lowest"
    return Repeated(thing.name, str(rows[0][0]), int(rows[0][1]), keys[0].sql(DIALECT), _per_thing(tree, things), most)


def _per_thing(tree: exp.Select, things: list[exp.Column]) -> str:
    """The ranking of each value of the columns shown by its rows' measures totalled: GROUP BY them, ORDER
    BY the SUM of each key, in its direction, the same LIMIT."""
    totalled = tree.copy()
    totalled.set("group", exp.Group(expressions=[t.copy() for t in things]))
    for ordered in totalled.args["order"].expressions:
        ordered.set("this", exp.Sum(this=ordered.this.copy()))
    return totalled.sql(DIALECT)


def _computed(key: exp.Expression) -> bool:
    """Whether an ORDER BY key is arithmetic over two or more columns of the rows (units * price)."""
    arithmetic = (exp.Mul, exp.Add, exp.Sub, exp.Div)
    return isinstance(key, arithmetic) and len({c.sql() for c in key.find_all(exp.Column)}) >= 2
