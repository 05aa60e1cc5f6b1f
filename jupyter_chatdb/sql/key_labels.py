"""A fix-up for a small model's commonest way of showing a thing: by its reference instead of its name.

`labels_for_keys`: a read that joins a referenced table only to match its key (`JOIN hounds AS h ON
g.hound_id = h.hound_id`), reads nothing else of it, and shows the referencing column (`g.hound_id`) shows
that table's label instead (`h.name`): the join says the thing was meant, the key says nothing to a reader.
A reference the request names as such (its "id", "code", "number") stays as written.

The read's rows never change: a label is shown only where the read's groups, de-duplication, order and
filters all go by the reference itself, never by what is shown in its place (`GROUP BY 1`, `GROUP BY ALL`,
`DISTINCT`, `ORDER BY 1`, its alias named elsewhere, `QUALIFY`); a grouped read keeps the reference among
its groups. The label itself (`grounding/labels.py`) is held by every row of its table and differs in each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlglot import exp

from .column_owners import Link
from .fixups import Schema, _tolerant, lowered_columns
from .trees import table_key

Named = Callable[[str, str], bool]  # (referencing column, referenced table) -> the request names the column


@_tolerant
def labels_for_keys(
    tree: exp.Expr,
    schema: Schema,
    links: Callable[[], Sequence[Link]],
    label_of: Callable[[str], str | None],
    named: Named,
) -> exp.Expr | None:
    """`tree` with each such shown reference replaced by its table's label (`label_of(table)`: a text
    column naming each row, or None); its GROUP BY keeps the reference and adds the label. A statement
    that is no single SELECT, or whose rows the label could change (`_keeps_rows`), is left as it is.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> schema = {"grooms": ["groom_no", "hound_id", "day"], "hounds": ["hound_id", "name"]}
    >>> links = lambda: [Link("grooms", ("hound_id",), "hounds", ("hound_id",))]
    >>> sql = "SELECT g.hound_id, g.day FROM grooms AS g JOIN hounds AS h ON g.hound_id = h.hound_id"
    >>> written(labels_for_keys(parse(sql)[0], schema, links, lambda table: "name", lambda column, table: False))
    'SELECT h.name, g.day FROM grooms AS g JOIN hounds AS h ON g.hound_id = h.hound_id'
    """
    if not isinstance(tree, exp.Select) or not tree.args.get("joins") or not _keeps_rows(tree):
        return None
    tree = tree.copy()
    columns = lowered_columns(schema)
    aliases = {t.alias_or_name.lower(): table_key(t) for t in tree.find_all(exp.Table)}
    if any(table not in columns for table in aliases.values()):
        return None
    known = {(link.table.lower(), link.columns[0].lower()): link for link in links() if len(link.columns) == 1}
    changed = False
    for projection in tree.expressions:
        shown = projection.this if isinstance(projection, exp.Alias) else projection
        if not isinstance(shown, exp.Column) or not shown.table or _named_elsewhere(tree, projection):
            continue
        group = tree.args.get("group")
        if group is not None and not any(_same(key, shown) for key in group.expressions):
            continue
        replaced = _label(tree, shown, aliases, columns, known, label_of, named)
        if replaced is None:
            continue
        if group is not None:
            group.append("expressions", replaced.copy())
        shown.replace(replaced)
        changed = True
    return tree if changed else None


def _keeps_rows(select: exp.Select) -> bool:
    """Whether `select` groups, de-duplicates and orders its rows only by what it names, so that a label
    shown instead of a key changes none of them: no DISTINCT, no QUALIFY, no GROUP BY ALL, ROLLUP, CUBE
    or GROUPING SETS, and no group or order by position.

    >>> from jupyter_chatdb.sql.trees import parse
    >>> [_keeps_rows(parse(sql)[0]) for sql in ("SELECT a, b FROM t ORDER BY a", "SELECT a FROM t GROUP BY 1")]
    [True, False]
    """
    if any(select.args.get(part) for part in ("distinct", "qualify")):
        return False
    group = select.args.get("group")
    if group is not None and group.args.get("all"):
        return False
    order = select.args.get("order")
    keys = [*(group.expressions if group else []), *(o.this for o in (order.expressions if order else []))]
    return not any(isinstance(key, (exp.Literal, exp.Rollup, exp.Cube, exp.GroupingSets)) for key in keys)


def _named_elsewhere(select: exp.Select, projection: exp.Expr) -> bool:
    """Whether `select` names `projection` by its output name anywhere else (a filter, a group or an order
    by its alias): there it would name the label instead."""
    name = projection.alias_or_name.lower()
    own = {id(column) for column in projection.find_all(exp.Column)}
    return any(
        not column.table and column.name.lower() == name and id(column) not in own
        for column in select.find_all(exp.Column)
    )


def _label(
    select: exp.Select,
    shown: exp.Column,
    aliases: dict[str, str],
    columns: dict[str, set[str]],
    known: dict[tuple[str, str], Link],
    label_of: Callable[[str], str | None],
    named: Named,
) -> exp.Column | None:
    """The label column to show instead of `shown`, where `shown` references a table joined only on it."""
    table = aliases.get(shown.table.lower())
    link = known.get((table or "", shown.name.lower()))
    if table is None or link is None or named(shown.name, link.target):
        return None
    for join in select.args.get("joins") or []:
        target = join.this
        if not isinstance(target, exp.Table) or table_key(target) != link.target.lower() or join.side:
            continue
        alias = target.alias_or_name.lower()
        condition = join.args.get("on")
        if not _matches_key(condition, shown, alias, link.keys[0]) or _read_elsewhere(select, join, alias, columns):
            continue
        label = label_of(link.target)
        return (
            exp.Column(this=exp.to_identifier(label), table=exp.to_identifier(target.alias_or_name)) if label else None
        )
    return None


def _matches_key(condition: exp.Expr | None, shown: exp.Column, alias: str, key: str) -> bool:
    """Whether the join's condition is just `shown = alias.key` (either way round)."""
    if not isinstance(condition, exp.EQ):
        return False
    sides = (condition.this, condition.expression)
    return any(_same(side, shown) for side in sides) and any(
        isinstance(side, exp.Column) and side.table.lower() == alias and side.name.lower() == key.lower()
        for side in sides
    )


def _read_elsewhere(select: exp.Select, join: exp.Join, alias: str, columns: dict[str, set[str]]) -> bool:
    """Whether the joined table is read anywhere but its join condition: by its alias, or by a column of
    its own that no qualifier places (conservatively, any such name)."""
    condition = join.args.get("on")
    own = columns.get(table_key(join.this), set())
    for column in select.find_all(exp.Column):
        if condition is not None and column.find_ancestor(exp.Join) is join:
            continue
        if column.table.lower() == alias or (not column.table and column.name.lower() in own):
            return True
    return any(isinstance(star, exp.Star) for star in select.expressions)


def _same(node: exp.Expr, column: exp.Column) -> bool:
    return (
        isinstance(node, exp.Column)
        and node.name.lower() == column.name.lower()
        and node.table.lower() == column.table.lower()
    )
