"""The shape of the change call's reply (`row_changes`), constrained by the schema: one branch per table,
so that the rows a reading names and the columns it sets are that table's (the rows may also be named by
a column of a row they refer to: `related.path_to`), and a CHECK-listed column is set, emptied or
copied, never counted. A small model that picked a table then says what that table can hold, never a
column of another; what it picks is still checked against the request and the data
(`row_changes.change_write`). A listed column's value stays free text: held to the list, a small model
starts an entry it did not mean where its words are none of them, and code maps the words to the list
(`picks.mapped`), or the write waits.

A reply is the same JSON whatever the branch: `{"does", "table", "which", "set"}`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..llm.base import JSONSchema
from .related import path_to
from .shapes import Field, Shape

DOES = ("add", "change", "remove")
HOW = ("to", "clear", "copy", "add", "subtract")
LISTED_HOW = ("to", "clear", "copy")  # an entry of a list is set, emptied or copied, never counted
MAX_PICKS = 4  # column values that name the rows a change is for
MAX_SETS = 6


def change_schema(shapes: Mapping[str, Shape]) -> JSONSchema:
    """The reply's JSON schema: for each table, its columns as enums, a CHECK-listed column's ways apart.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> state = Field("state", "state", "VARCHAR", True, allowed=("ready", "grounded"))
    >>> kites = Shape("kites", (Field("name", "name", "VARCHAR", True), state), "name", "")
    >>> schema = change_schema({"kites": kites})
    >>> schema["properties"]["table"], schema["properties"]["which"]["items"]["properties"]["column"]["enum"]
    ({'type': 'string', 'enum': ['kites']}, ['name', 'state'])
    >>> [s["properties"]["how"]["enum"] for s in schema["properties"]["set"]["items"]["anyOf"]]
    [['to', 'clear', 'copy', 'add', 'subtract'], ['to', 'clear', 'copy']]
    """
    branches = [_table_branch(name, shapes) for name in sorted(shapes)]
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


def own_columns(shape: Shape) -> list[str]:
    """The columns a reading may name a table's rows by: its fields, then columns that name a row."""
    return list(dict.fromkeys([*(f.name for f in shape.fields), *shape.unique]))


def _table_branch(name: str, shapes: Mapping[str, Shape]) -> JSONSchema:
    shape = shapes[name]
    pick = _pick(_naming_columns(name, shapes))
    plain = [f.name for f in shape.fields if not _listed(f)]
    listed = [f.name for f in shape.fields if _listed(f)]
    settings = [_setting(plain, list(HOW), pick)] if plain else []
    settings += [_setting(listed, list(LISTED_HOW), pick)] if listed else []
    sets: JSONSchema = {"type": "array", "maxItems": 0}  # a table with nothing to set
    if settings:
        setting = settings[0] if len(settings) == 1 else {"anyOf": settings}
        sets = {"type": "array", "items": setting, "maxItems": MAX_SETS}
    return {
        "type": "object",
        "properties": {
            "does": {"type": "string", "enum": list(DOES)},
            "table": {"type": "string", "enum": [name]},
            "which": {"type": "array", "items": pick, "maxItems": MAX_PICKS},
            "set": sets,
        },
        "required": ["does", "table", "which", "set"],
        "additionalProperties": False,
    }


def _naming_columns(name: str, shapes: Mapping[str, Shape]) -> list[str]:
    """The table's own columns, then those of the rows it refers to that name its rows (`path_to`)."""
    own = own_columns(shapes[name])
    seen = {column.lower() for column in own}
    others = []
    for other_name, other in shapes.items():
        for column in own_columns(other) if other_name != name else ():
            if column.lower() not in seen and path_to(shapes, name, column) is not None:
                seen.add(column.lower())
                others.append(column)
    return own + others


def _listed(field_: Field) -> bool:
    """Whether a column holds only the entries of its CHECK list (a reference's names are rows, not a list)."""
    return bool(field_.allowed) and field_.reference is None


def _pick(columns: list[str]) -> JSONSchema:
    return {
        "type": "object",
        "properties": {"column": {"type": "string", "enum": columns}, "value": {"type": "string"}},
        "required": ["column", "value"],
        "additionalProperties": False,
    }


def _setting(columns: list[str], how: list[str], pick: JSONSchema) -> JSONSchema:
    return {
        "type": "object",
        "properties": {
            "column": {"type": "string", "enum": columns},
            "how": {"type": "string", "enum": how},
            "value": {"type": "string"},
            "from": {"type": "array", "items": pick, "maxItems": MAX_PICKS},
        },
        "required": ["column", "how", "value"],
        "additionalProperties": False,
    }
