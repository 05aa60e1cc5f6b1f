"""A new row read without the rows referring to it that the request gives: "new customer ... hiring today:
Night Owl", read as the customer alone. The kept rows the request names that such rows would refer to,
and that nothing written refers to, say a row was left out (`named_rows_left`); the request is then
read once more for them (`from_facts`), offered the new row's table, the tables referring to it and the
tables those name, and made to give a row of the one referring table the request's words name where
several could hold it (`again_for_rows_referring`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...language.words import stems, words
from ...recording.scope import parents
from ...recording.shapes import Shape
from ..context import Context
from .rows_named import rows_named


@dataclass(frozen=True)
class RowsLeft:
    """A table written (`table`), the kept rows the request names that no write refers to (`said`, as
    the request says them), and the tables whose rows would refer to both (`referring`)."""

    table: str
    said: tuple[str, ...]
    referring: tuple[str, ...]


def named_rows_left(
    ctx: Context, shapes: Mapping[str, Shape], written: Mapping[str, int], statements: list[str]
) -> RowsLeft | None:
    """For the first table `written` (table -> rows written) whose referring tables are not written, the
    kept rows the request names, of tables those refer to, that none of `statements` refers to; None
    where there are none."""
    sql = " ".join(statements).lower()
    for table in written:
        referring = [name for name in referring_tables(shapes, table) if name not in written]
        referred = {parent.lower() for name in referring for parent in parents(shapes[name])}
        referred -= {shapes[table].table.lower()}
        if not referred:
            continue
        of_them = {name: shape for name, shape in shapes.items() if shape.table.lower() in referred}
        left = [
            named
            for named in rows_named(ctx, of_them)
            if f'"{named.table.lower()}"' not in sql and f" {named.table.lower()} " not in sql
        ]
        if left:
            tables = {shapes[named.table].table.lower() for named in left if named.table in shapes}
            holding = tuple(name for name in referring if {p.lower() for p in parents(shapes[name])} & tables)
            return RowsLeft(table, tuple(named.said for named in left), holding)
    return None


def referring_tables(shapes: Mapping[str, Shape], table: str) -> list[str]:
    """The tables of `shapes` with a column referring to rows of `table`."""
    target = shapes[table].table.lower()
    return [
        name
        for name, shape in shapes.items()
        if name != table
        and any(
            f.reference is not None and f.reference.table.lower() == target
            for f in (*shape.fields, *shape.required_references)
        )
    ]


def again_for_rows_referring(
    shapes: Mapping[str, Shape], left: RowsLeft, text: str
) -> tuple[dict[str, Shape], tuple[str, ...]]:
    """The tables to read the request again by (the new row's table, the tables referring to it, and the
    tables those name rows of), and those it must give rows of: the new row's table, and the one table
    of `left.referring` there is, or the one whose name the request says ("first hire: ..."). The words
    only choose among tables the data already points to; the reading must still agree."""
    referring = referring_tables(shapes, left.table)
    named = {parent for name in (left.table, *referring) for parent in parents(shapes[name])}
    names = {left.table, *referring} | {n for n, shape in shapes.items() if shape.table in named}
    offered = {name: shape for name, shape in shapes.items() if name in names}
    said = stems(text)
    lines = list(left.referring)
    if len(lines) > 1:
        lines = [name for name in lines if stems(words(shapes[name].table)) & said]
    return offered, (left.table, lines[0]) if len(lines) == 1 else (left.table,)
