"""A checked DuckDB read in a remote engine's dialect, with the same meaning, or a refusal saying why.

sqlglot writes the statement at its strict level: a construct it cannot write in the target dialect is
refused. But some constructs it writes with another meaning. Those found by the parity test
(`tests/test_spark_parity.py`, on Spark) are rewritten here where an equivalent exists, and refused
where none does:

- a non-integer cast to an integer type: DuckDB rounds (a double half to even, a decimal half away from
  zero), Spark truncates: the value is rounded first (`BROUND`, `ROUND`);
- the average of a decimal: a double in DuckDB, a decimal of 6 places in Spark: averaged as a double;
- day of the week: DuckDB counts Sunday as 0 (ISO: Monday 1 to Sunday 7), Spark's `DAYOFWEEK` Sunday as 1;
- a date minus a date: days in DuckDB, an interval in Spark (`DATEDIFF`); a date plus an interval: a
  timestamp in DuckDB, a date in Spark;
- `quantile_cont`/`percentile_cont`: sqlglot writes Spark's approximate or a form it rejects (`PERCENTILE`
  is the exact one); `quantile_disc` is refused;
- `regexp_replace` without the 'g' option replaces the first match in DuckDB, every match in Spark: refused.

For other dialects (any SQLAlchemy engine) only sqlglot's strict level applies, and the README says so:
the parity test covers Spark. Parameters (`$name`) are bound as literals in the tree, never spliced text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sqlglot
from sqlglot import ErrorLevel, exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify
from sqlglot.schema import MappingSchema

from ..errors import NotAllowed
from .trees import DIALECT

Types = Mapping[str, Mapping[str, str]]  # table -> column -> DuckDB type
# functions of remote engines that reach outside the query: never sent, whatever the guard allowed
REMOTE_EFFECTS = frozenset(
    {"reflect", "java_method", "try_reflect", "input_file_name", "read_files", "http_request", "dblink", "pg_read_file"}
)
SPARK_DIALECTS = frozenset({"spark", "databricks"})
_WHOLE = (exp.Round, exp.Floor, exp.Ceil, exp.Trunc, exp.Null)  # already whole: cast alike everywhere
_INTEGERS = {exp.DataType.Type.TINYINT, exp.DataType.Type.SMALLINT, exp.DataType.Type.INT, exp.DataType.Type.BIGINT}
_DOUBLES = {exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT}


class Untranslatable(NotAllowed):
    """A read that would mean something else on the remote engine, or cannot be written in its dialect."""


def transpiled(sql: str, dialect: str, types: Types, params: Mapping[str, object] | None = None) -> str:
    """`sql` (one checked DuckDB read) in `dialect`, with `params` bound; Untranslatable when its meaning
    would change there. `types`: the tables' column types, to see what a cast or a subtraction is of."""
    try:
        tree = sqlglot.parse_one(sql, read=DIALECT)
        tree = _bound(tree, params or {})
        schema = MappingSchema({t: dict(c) for t, c in types.items()}, dialect=DIALECT)
        tree = qualify(tree, dialect=DIALECT, schema=schema, validate_qualify_columns=False, identify=False)
        tree = annotate_types(tree, schema=schema, dialect=DIALECT)
    except SqlglotError as error:
        raise Untranslatable(f"This query cannot be read for the remote engine: {_first_line(error)}") from None
    if dialect in SPARK_DIALECTS:
        tree = tree.transform(_for_spark, copy=False)
    try:
        written = tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
    except SqlglotError as error:
        raise Untranslatable(f"This query cannot be written for {dialect}: {_first_line(error)}") from None
    _refuse_effects(written, dialect)
    return written


def _refuse_effects(written: str, dialect: str) -> None:
    """Defence in depth behind the guard's allow-list: no function that reaches outside the query
    (Java methods, files, the network) in what the remote engine is sent, read in its own dialect."""
    try:
        trees = sqlglot.parse(written, read=dialect)
    except SqlglotError:
        raise Untranslatable(f"The query written for {dialect} cannot be read back: write it more plainly.") from None
    for tree in trees:
        for function in tree.find_all(exp.Func) if tree is not None else ():
            if function.sql_name().lower() in REMOTE_EFFECTS or (
                isinstance(function, exp.Anonymous) and function.name.lower() in REMOTE_EFFECTS
            ):
                raise Untranslatable(f"{function.sql_name()} reaches outside the query: it is not run remotely.")


def _for_spark(node: exp.Expr) -> exp.Expr:
    rewrite = _SPARK_REWRITES.get(type(node))
    return rewrite(node) if rewrite else node


def _cast(node: exp.Expr) -> exp.Expr:
    assert isinstance(node, exp.Cast)
    if not node.to.is_type(*_INTEGERS) or isinstance(node.this, _WHOLE):
        return node
    of = node.this.type
    if of is None or of.is_type(exp.DataType.Type.UNKNOWN):
        raise Untranslatable(
            f"{node.sql(DIALECT)}: DuckDB rounds a number cast to an integer, Spark cuts it off, and what is "
            "cast here cannot be told: write round(...) or trunc(...) inside the cast."
        )
    if of.is_type(*_DOUBLES):
        node.set("this", exp.Anonymous(this="BROUND", expressions=[node.this]))
    elif of.is_type(exp.DataType.Type.DECIMAL):
        node.set("this", exp.Round(this=node.this))
    return node


def _average(node: exp.Expr) -> exp.Expr:
    """Spark averages a decimal as a decimal of 6 places; DuckDB as a double."""
    of = node.this.type
    if of is not None and of.is_type(exp.DataType.Type.DECIMAL):
        node.set("this", exp.Cast(this=node.this, to=exp.DataType.build("DOUBLE")))
    return node


def _day_of_week(node: exp.Expr) -> exp.Expr:
    return exp.Sub(this=_spark_day_of_week(node.this), expression=exp.Literal.number(1))


def _iso_day_of_week(node: exp.Expr) -> exp.Expr:
    shifted = exp.Mod(
        this=exp.Paren(this=exp.Add(this=_spark_day_of_week(node.this), expression=exp.Literal.number(5))),
        expression=exp.Literal.number(7),
    )
    return exp.Paren(this=exp.Add(this=shifted, expression=exp.Literal.number(1)))


def _extract(node: exp.Expr) -> exp.Expr:
    part = node.this.name.lower()
    if part in ("dow", "dayofweek"):
        return _day_of_week(exp.DayOfWeek(this=node.expression))
    if part in ("isodow", "dayofweek_iso"):
        return _iso_day_of_week(exp.DayOfWeekIso(this=node.expression))
    return node


def _spark_day_of_week(value: exp.Expr) -> exp.Expr:
    """Spark's DAYOFWEEK: Sunday 1 to Saturday 7."""
    return exp.Anonymous(this="DAYOFWEEK", expressions=[value])


def _date_arithmetic(node: exp.Expr) -> exp.Expr:
    assert isinstance(node, (exp.Add, exp.Sub))
    left, right = node.this, node.expression
    if isinstance(node, exp.Sub) and _is_date(left) and _is_date(right):
        return exp.Anonymous(this="DATEDIFF", expressions=[left, right])
    if (_is_date(left) and isinstance(right, exp.Interval)) or (_is_date(right) and isinstance(left, exp.Interval)):
        return exp.Cast(this=exp.Paren(this=node), to=exp.DataType.build("TIMESTAMP"))
    return node


def _is_date(node: exp.Expr) -> bool:
    return node.type is not None and node.type.is_type(exp.DataType.Type.DATE)


def _percentile(node: exp.Expr) -> exp.Expr:
    if isinstance(node, exp.PercentileDisc):
        raise Untranslatable("quantile_disc has no exact equal on Spark: use quantile_cont or median.")
    return exp.Anonymous(this="PERCENTILE", expressions=[node.this, node.expression])


def _within_group(node: exp.Expr) -> exp.Expr:
    """percentile_cont(q) WITHIN GROUP (ORDER BY x): sqlglot writes Spark's approximate percentile."""
    function, order = node.this, node.expression
    if isinstance(function, exp.PercentileCont) and isinstance(order, exp.Order) and len(order.expressions) == 1:
        return exp.Anonymous(this="PERCENTILE", expressions=[order.expressions[0].this, function.this])
    raise Untranslatable(f"{node.sql(DIALECT)} has no exact equal on Spark: use quantile_cont(x, q) or median.")


def _regexp_replace(node: exp.Expr) -> exp.Expr:
    modifiers = node.args.get("modifiers")
    if modifiers is None or modifiers.name != "g":
        raise Untranslatable(
            "regexp_replace replaces the first match in DuckDB and every match on Spark: add 'g' "
            "(regexp_replace(text, pattern, replacement, 'g')) to replace every match."
        )
    return node


_SPARK_REWRITES: dict[type[exp.Expr], Callable[[exp.Expr], exp.Expr]] = {
    exp.Cast: _cast,
    exp.Avg: _average,
    exp.DayOfWeek: _day_of_week,
    exp.DayOfWeekIso: _iso_day_of_week,
    exp.Extract: _extract,
    exp.Sub: _date_arithmetic,
    exp.Add: _date_arithmetic,
    exp.PercentileCont: _percentile,
    exp.PercentileDisc: _percentile,
    exp.WithinGroup: _within_group,
    exp.RegexpReplace: _regexp_replace,
}


def _bound(tree: exp.Expr, params: Mapping[str, object]) -> exp.Expr:
    """`tree` with each $name parameter replaced by its value as a literal node."""
    for node in list(tree.find_all(exp.Placeholder)):
        if node.name:
            if node.name not in params:
                raise Untranslatable(f"No value was given for ${node.name}.")
            node.replace(exp.convert(params[node.name]))
    return tree


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0][:200]
