"""Which functions model-written SQL may call: an allow-list, so a function nobody reviewed is refused.

`allowed_functions.txt` (written by `scripts/allowed_functions.py` from DuckDB's own function list,
then reviewed) holds the scalar, aggregate and window functions that only compute on their arguments.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

# table functions that only compute rows from their arguments (no table, file, catalog or setting)
TABLE_FUNCTIONS = frozenset({"range", "generate_series", "unnest", "repeat", "repeat_row", "json_each", "json_tree"})
# they advance or read a sequence: allowed only in statements of a write request
SEQUENCE_FUNCTIONS = frozenset({"nextval", "currval"})
# SQL syntax that sqlglot writes as a call: CAST(x AS INT), EXISTS(SELECT ...), COLUMNS(*) ...
SYNTAX_CALLS = frozenset(
    {
        "cast",
        "try_cast",
        "coalesce",
        "extract",
        "exists",
        "columns",
        "grouping",
        "grouping_id",
        "row",
        "if",
        "ifnull",
        "struct_pack",
        "list",
        "map",
        "array",
        "any",
        "all",
        "some",
        "interval",
        "lambda",
        "distinct",
    }
)


@cache
def compute_functions() -> frozenset[str]:
    """The names of the reviewed functions that only compute (lower case)."""
    text = resources.files(__package__).joinpath("allowed_functions.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def is_computing(name: str) -> bool:
    """
    >>> is_computing("upper"), is_computing("read_text"), is_computing("nextval"), is_computing("CAST")
    (True, False, False, True)
    """
    name = name.lower()
    return name in compute_functions() or name in SYNTAX_CALLS
