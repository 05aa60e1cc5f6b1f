"""The kept rows a request names: by a stored value ("Calder"), a code said in words ("glasshouse 12" for
'G-012'), or a description by a row they refer to ("Ola Berg's sea kayak"). The change's reading is shown
them, and a new row's parent is found by them."""

from __future__ import annotations

from collections.abc import Mapping

from ...recording.described import rows_described
from ...recording.named_rows import NamedRow, codes_said
from ...recording.resolve import StoredRows
from ...recording.shapes import Shape
from ..context import Context
from .ground_values import mentioned


def rows_named(ctx: Context, shapes: Mapping[str, Shape]) -> list[NamedRow]:
    """The kept rows of the tables of `shapes` the request names, by a stored value, a code said in words
    or a description."""
    names = {shape.table: name for name, shape in shapes.items()}
    by_value = [NamedRow(names.get(m.table, m.table), m.column, m.value, m.value) for m in mentioned(ctx, list(shapes))]
    stored = StoredRows(ctx.session)
    by_code = codes_said(ctx.request.text, shapes, stored)
    named = [*by_value, *(n for n in by_code if n.value not in {m.value for m in by_value})]
    by_description = rows_described(ctx.request.text, shapes, stored)
    return [*named, *(n for n in by_description if (n.table, n.value) not in {(m.table, m.value) for m in named})]
