"""Results compared as values, for voting over candidate plans."""

from __future__ import annotations

import math

import pandas as pd


def signature(frame: pd.DataFrame) -> tuple:
    """A hashable form of a result that ignores column names, row order and float noise.

    >>> signature(pd.DataFrame({"a": [2, 1]})) == signature(pd.DataFrame({"total": [1.0, 2.0]}))
    True
    """
    rows = [tuple(_value(v) for v in row) for row in frame.itertuples(index=False, name=None)]
    return (len(frame.columns), tuple(sorted(rows, key=repr)))


def _value(value: object) -> object:
    if hasattr(value, "item") and not isinstance(value, (str, pd.Timestamp)):
        value = value.item()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return None if isinstance(value, float) and math.isnan(value) else round(float(value), 6)
    try:
        return round(float(value), 6)  # type: ignore[arg-type]  # Decimal, or text that is not a number
    except (TypeError, ValueError):
        return str(value)
