"""The kept rows a request names: by a stored value ("Calder") or a code said in words ("glasshouse 12" for
'G-012'). The change's reading is shown them, and a new row's parent is found by them."""

from __future__ import annotations

from collections.abc import Mapping

from ...recording.named_rows import NamedRow, codes_said
from ...recording.resolve import StoredRows
from ...recording.shapes import Shape
from ..context import Context
from .ground_values import mentioned


def rows_named(ctx: Context, shapes: Mapping[str, Shape]) -> list[NamedRow]:
    """The kept rows of the tables of `shapes` the request names, by a stored value or a code said in words."""
    names = {shape.table: name for name, shape in shapes.items()}
    by_value = [NamedRow(names.get(m.table, m.table), m.column, m.value, m.value) for m in mentioned(ctx, list(shapes))]
    by_code = codes_said(ctx.request.text, shapes, StoredRows(ctx.session))
    return [*by_value, *(n for n in by_code if n.value not in {m.value for m in by_value})]
