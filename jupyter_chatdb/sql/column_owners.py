"""Fix-ups for a column taken from the wrong table, the commonest way a small model's join fails:

- `swap_tables`: a table read for columns it lacks, all of which exactly one table the query does not
  read has (a delivery's legs for a trip's): that table is read instead;
- `requalify_columns`: `s.name` where `s` has no `name` but exactly one other table of the query has;
- `join_owners`: a column none of the query's tables has (or a join condition's, of a table that lacks
  it), but exactly one table they reference (or that references them, where what is counted or summed
  is that table's) has: that table is joined on the reference.

Each reads one query scope at a time (sqlglot's scopes: a subquery sees its outer queries' tables), and
like the other fix-ups returns a fixed copy, or None when there is nothing it can fix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from .fixups import Schema, _tolerant, joined, lowered_columns, split
from .names import split_table
from .trees import table_key


@dataclass(frozen=True)
class Link:
    """`table`'s `columns` hold values of `target`'s `keys` (a declared or implied foreign key)."""

    table: str
    columns: tuple[str, ...]
    target: str
    keys: tuple[str, ...]


@_tolerant
def swap_tables(tree: exp.Expr, schema: Schema) -> exp.Expr | None:
    """A table whose alias qualifies columns it lacks is replaced by the one table of the schema, not
    read by the query, that has every column the alias qualifies.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> schema = {"trips": ["id", "day"], "trip_legs": ["trip_id", "tonnes"], "freight_legs": ["freight_id", "tonnes"]}
    >>> written(swap_tables(parse("SELECT SUM(l.tonnes) FROM trips AS t JOIN freight_legs AS l ON l.trip_id = t.id")[0], schema))
    'SELECT SUM(l.tonnes) FROM trips AS t JOIN trip_legs AS l ON l.trip_id = t.id'
    """
    tree = tree.copy()
    columns = lowered_columns(schema)
    names = {name.lower(): name for name in schema}
    changed = False
    for scope in _scopes(tree):
        tables = _tables(scope, columns)
        read = {table_key(t) for t in tables.values()}
        for alias, table in tables.items():
            used = {c.name.lower() for c in _own_columns(scope) if c.table.lower() == alias}
            if not used or used <= columns[table_key(table)]:
                continue
            others = [name for name in columns if name not in read and used <= columns[name]]
            if len(others) == 1:
                database, name = split_table(names[others[0]])
                if not table.alias:  # its columns were qualified with its name
                    for column in scope.expression.find_all(exp.Column):
                        if column.table.lower() == alias:
                            column.set("table", exp.to_identifier(name))
                table.set("this", exp.to_identifier(name))
                table.set("db", exp.to_identifier(database) if database else None)
                read.add(others[0])
                changed = True
    return joined(split(tree)) if changed else None


@_tolerant
def requalify_columns(tree: exp.Expr, schema: Schema) -> exp.Expr | None:
    """A qualified column its table lacks, which exactly one other table of its query has, is qualified
    with that one; a table named by its name where the query gave it an alias, by the alias.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> schema = {"poems": ["heading", "poet_id"], "poets": ["id", "name"]}
    >>> written(requalify_columns(parse("SELECT s.name FROM poems AS s JOIN poets AS p ON s.poet_id = p.id")[0], schema))
    'SELECT p.name FROM poems AS s JOIN poets AS p ON s.poet_id = p.id'
    """
    tree = tree.copy()
    columns = lowered_columns(schema)
    changed = False
    for scope in _scopes(tree):
        tables = _tables(scope, columns)
        by_name = {t.name.lower(): alias for alias, t in tables.items() if alias != t.name.lower()}
        for column in _own_columns(scope):
            qualifier = column.table.lower()
            if qualifier not in tables and qualifier in by_name and _unique_name(tables, qualifier):
                qualifier, changed = by_name[qualifier], True
                column.set("table", exp.to_identifier(tables[qualifier].alias_or_name))
            if qualifier not in tables or column.name.lower() in columns[table_key(tables[qualifier])]:
                continue
            owners = [t for t in tables.values() if column.name.lower() in columns[table_key(t)]]
            if len(owners) == 1 and not _compared_with(column, owners[0].alias_or_name):
                column.set("table", exp.to_identifier(owners[0].alias_or_name))
                changed = True
    return joined(split(tree)) if changed else None


def _compared_with(column: exp.Column, alias: str) -> bool:
    """Whether `column` is compared with a column of `alias` (requalified, it would compare a row with
    itself: `ON s.id = s.id`)."""
    comparison = column.parent
    if not isinstance(comparison, exp.EQ):
        return False
    other = comparison.expression if comparison.this is column else comparison.this
    return isinstance(other, exp.Column) and other.table.lower() == alias.lower()


@_tolerant
def join_owners(tree: exp.Expr, schema: Schema, links: Callable[[], Sequence[Link]]) -> exp.Expr | None:
    """A column that none of its query's tables (nor its outer queries') has, nor the query names, is
    taken from the one table that has it among those a table of the query refers to; failing that, among
    those that refer to one, where the query's aggregates read only such missing columns or are MIN, MAX
    or DISTINCT (a join to many rows would change any other count or sum). The table is joined on the
    link. So is a column of a join condition qualified with a table that lacks it (`ON t.id = c.trip_id`
    where the cargo's leg holds the trip), joined before that condition. `links` is called only when a
    column is missing.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> schema = {"riders": ["id", "horse_id", "tally"], "horses": ["horse_id", "withers"]}
    >>> links = lambda: [Link("riders", ("horse_id",), "horses", ("horse_id",))]
    >>> written(join_owners(parse("SELECT tally FROM riders ORDER BY withers DESC LIMIT 1")[0], schema, links))
    'SELECT riders.tally FROM riders JOIN horses ON riders.horse_id = horses.horse_id ORDER BY horses.withers DESC LIMIT 1'
    """
    tree = tree.copy()
    columns = lowered_columns(schema)
    changed = False
    for scope in _scopes(tree):
        select = scope.expression
        tables = _tables(scope, columns)
        if not isinstance(select, exp.Select) or not tables or len(tables) != len(scope.sources):
            continue  # derived tables and CTEs have columns of their own
        missing = _missing(scope, select, tables, columns)
        if not missing:
            continue
        owners = _owners(missing, tables, columns, select, links())
        if owners:
            _qualify_all(scope, tables, columns)
        for owner, wanted in owners.items():
            alias = _join(select, owner, tables, wanted)
            if alias is None:
                return None
            for column in wanted:
                column.set("table", exp.to_identifier(alias))
            changed = True
    return joined(split(tree)) if changed else None


def _scopes(tree: exp.Expr) -> Iterator[Scope]:
    for statement in split(tree):
        if isinstance(statement, exp.Query):
            yield from traverse_scope(statement)


def _qualify_all(scope: Scope, tables: dict[str, exp.Table], columns: dict[str, set[str]]) -> None:
    """Qualifies each unqualified column of the scope with the one table that has it, so that a table
    joined later cannot make it ambiguous."""
    for column in _own_columns(scope):
        owners = [t for t in tables.values() if column.name.lower() in columns[table_key(t)]]
        if not column.table and len(owners) == 1:
            column.set("table", exp.to_identifier(owners[0].alias_or_name))


def _own_columns(scope: Scope) -> list[exp.Column]:
    """The columns a scope's query reads itself (not its subqueries'). Not `scope.columns`: that also
    lists a subquery's unresolved columns and leaves out HAVING's."""
    select = scope.expression
    return [
        c
        for c in select.find_all(exp.Column)
        if c.find_ancestor(exp.Select) is select and isinstance(c.this, exp.Identifier)
    ]


def _tables(scope: Scope, columns: dict[str, set[str]]) -> dict[str, exp.Table]:
    """alias (lower case) -> stored table, of the tables this scope reads."""
    return {
        alias.lower(): source
        for alias, source in scope.sources.items()
        if isinstance(source, exp.Table) and table_key(source) in columns
    }


def _unique_name(tables: dict[str, exp.Table], name: str) -> bool:
    return sum(t.name.lower() == name for t in tables.values()) == 1


def _missing(
    scope: Scope, select: exp.Select, tables: dict[str, exp.Table], columns: dict[str, set[str]]
) -> list[exp.Column]:
    """Columns of the scope that no table it or its outer scopes read has, and that are no name the
    statement defines (aliases)."""
    known = set().union(*(columns[table_key(t)] for t in tables.values()))
    outer_names: set[str] = set()
    outer = scope.parent
    while outer is not None:
        known = known.union(*(columns[table_key(t)] for t in _tables(outer, columns).values()))
        outer_names |= {name.lower() for name in outer.sources}
        outer = outer.parent
    root = select.root()
    known |= {alias.alias.lower() for alias in root.find_all(exp.Alias)}
    known |= {c.name.lower() for a in root.find_all(exp.TableAlias) for c in a.columns}
    return [
        c
        for c in _own_columns(scope)
        if not _matched_with_subquery(c)
        and (
            c.name.lower() not in known
            and (not c.table or c.table.lower() in tables or c.table.lower() in columns.keys() - outer_names)
        )
        or (  # `ON c.trip_id = t.id` where c lacks it: another table joins them
            c.table.lower() in tables
            and c.name.lower() not in columns[table_key(tables[c.table.lower()])]
            and c.find_ancestor(exp.Join, exp.Select) is not select
        )
    ]


def _matched_with_subquery(column: exp.Column) -> bool:
    """`x IN (SELECT x FROM t)`, `x = (SELECT ...)`: the query already says where the value comes from
    (the model misnamed its own key), so nothing is joined for it."""
    parent = column.parent
    if isinstance(parent, exp.In):
        return parent.this is column and parent.args.get("query") is not None
    if isinstance(parent, (exp.EQ, exp.NEQ)):
        other = parent.expression if parent.this is column else parent.this
        return isinstance(other, exp.Subquery)
    return False


def _owners(
    missing: list[exp.Column],
    tables: dict[str, exp.Table],
    columns: dict[str, set[str]],
    select: exp.Select,
    links: Sequence[Link],
) -> dict[tuple[str, Link, str], list[exp.Column]]:
    """(table to join, the link, the alias of the query's table it links) -> the columns it gives."""
    counts = _counts_other_rows(select, missing)
    read = {table_key(t): t.alias_or_name for t in tables.values()}
    refers = [(link.target.lower(), link, read[link.table.lower()]) for link in links if link.table.lower() in read]
    referred = [(link.table.lower(), link, read[link.target.lower()]) for link in links if link.target.lower() in read]
    owners: dict[tuple[str, Link, str], list[exp.Column]] = {}
    for column in missing:
        named = column.table.lower() if column.table.lower() in columns and column.table.lower() not in tables else ""
        for candidates in (refers, [] if counts else referred):
            found = {
                c
                for c in candidates
                if c[0] not in read and column.name.lower() in columns[c[0]] and (not named or c[0] == named)
            }
            if len({c[0] for c in found}) == 1 and len(found) == 1:
                owners.setdefault(found.pop(), []).append(column)
                break
    return owners


def _counts_other_rows(select: exp.Select, missing: list[exp.Column]) -> bool:
    """Whether joining a table to many rows of the query's would change what it computes: an aggregate
    reads more than the `missing` columns (`COUNT(*)` reads every row), except MIN, MAX and DISTINCT
    ones, which repeated rows do not change. A sum of the missing columns is what the join is for."""
    wanted = {id(c) for c in missing}
    for aggregate in select.find_all(exp.AggFunc):
        if isinstance(aggregate, (exp.Max, exp.Min)) or aggregate.find(exp.Distinct):
            continue
        read = list(aggregate.find_all(exp.Column))
        if not read or any(id(c) not in wanted for c in read):
            return True
    return False


def _column(name: str, table: str) -> exp.Column:
    return exp.Column(this=exp.to_identifier(name), table=exp.to_identifier(table))


def _join(
    select: exp.Select, owner: tuple[str, Link, str], tables: dict[str, exp.Table], wanted: list[exp.Column]
) -> str | None:
    """Joins the owner table to `select` on its link, before the first join whose condition reads the
    `wanted` columns; its alias (None when that join is the linking table's own)."""
    target, link, alias = owner
    refers = link.target.lower() == target
    database, name = split_table(link.target if refers else link.table)
    taken = set(tables) | {t.alias_or_name.lower() for t in select.root().find_all(exp.Table)}
    own = (
        name
        if name.lower() not in taken
        else next(f"{name}_{n}" for n in range(2, 100) if f"{name}_{n}".lower() not in taken)
    )
    table = exp.Table(this=exp.to_identifier(name), db=exp.to_identifier(database) if database else None)
    if own != name or database:
        table.set("alias", exp.TableAlias(this=exp.to_identifier(own)))
    here, there = (link.columns, link.keys) if refers else (link.keys, link.columns)
    condition = exp.and_(*(_column(a, alias).eq(_column(b, own)) for a, b in zip(here, there, strict=True)))
    join = exp.Join(this=table, on=condition)
    joins = list(select.args.get("joins") or [])
    linking = next((i for i, j in enumerate(joins) if j.this.alias_or_name.lower() == alias.lower()), -1)
    wanted_ids = {id(c) for c in wanted}
    needed = next(
        (i for i, j in enumerate(joins) if any(id(c) in wanted_ids for c in j.find_all(exp.Column))), len(joins)
    )
    if needed <= linking:
        return None  # the condition that needs it is the linking table's own: no order works
    joins.insert(needed, join)
    select.set("joins", joins)
    tables[own.lower()] = table
    return own
