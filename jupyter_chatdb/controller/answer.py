"""Answers grounded in results: every number the user reads comes from a result, not the model's arithmetic."""

from __future__ import annotations

import math
import re

import pandas as pd

from ..language.numbers import ANSWER_FIGURE

PLAIN_ROWS = 5  # rows a plain answer lists before it just counts them


def plain_answer(result: pd.DataFrame | None, affected: int | None) -> str:
    """An answer built from the result alone (no model call).

    >>> plain_answer(pd.DataFrame({"total": [42]}), None)
    'total: 42'
    >>> plain_answer(pd.DataFrame({"region": ["North", "South"], "units": [37, 16]}), None)
    'North (37); South (16).'
    >>> plain_answer(None, 3)
    '3 rows changed.'
    """
    if affected is not None:
        return f"{affected} row{'s' if affected != 1 else ''} changed."
    if result is None or result.empty:
        return "Nothing matched."
    if result.shape == (1, 1):
        return f"{result.columns[0]}: {readable(result.iat[0, 0])}"
    if len(result) == 1:
        return "; ".join(f"{column}: {readable(value)}" for column, value in result.iloc[0].items()) + "."
    rows = [_row_text(list(row)) for row in result.head(PLAIN_ROWS).itertuples(index=False)]
    more = f"; and {len(result) - PLAIN_ROWS} more" if len(result) > PLAIN_ROWS else ""
    return "; ".join(rows) + more + "."


def is_grounded(answer: str, result: pd.DataFrame | None, affected: int | None, request: str) -> bool:
    """True when every number in `answer` is a value of the result (or of the request), maybe rounded.

    >>> frame = pd.DataFrame({"region": ["North", "South"], "units": [37, 16]})
    >>> is_grounded("North sold the most, 37 units.", frame, None, "Which region sold most?")
    True
    >>> is_grounded("37 + 16 = 53", frame, None, "How many in total?")
    False
    >>> is_grounded("The average was $1.21.", pd.DataFrame({"avg": [1.2125]}), None, "average?")
    True
    """
    known = _numbers_in(result) + _numbers(request)
    if affected is not None:
        known.append(float(affected))
    return all(matches(token, known) for token in ANSWER_FIGURE.findall(answer))


def adds_units(answer: str, result: pd.DataFrame | None, request: str) -> bool:
    """True when `answer` puts a unit sign (%, $, €, £) on a number that neither the request nor the
    result (its values or column names) has.

    >>> frame = pd.DataFrame({"region": ["South"], "avg_price": [4.625]})
    >>> adds_units("South: 4.625%", frame, "Average price per region?")
    True
    >>> adds_units("South: 4.625%", frame, "What percent of the price?"), adds_units("South: 4.625", frame, "")
    (False, False)
    """
    signs = set(re.findall(r"(?<=\d)\s?%|[$€£](?=\s?\d)", answer))
    if not signs:
        return False
    shown = request + " " + ("" if result is None else " ".join(map(str, result.columns)) + result.head(50).to_string())
    if "%" in {sign.strip() for sign in signs} and re.search(r"percent|%", shown, re.IGNORECASE):
        signs = {sign for sign in signs if sign.strip() != "%"}
    return any(sign.strip() not in shown for sign in signs)


def _numbers_in(result: pd.DataFrame | None) -> list[float]:
    if result is None:
        return []
    values: list[float] = [float(len(result))]
    for value in result.head(50).to_numpy().ravel():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            values.append(float(value))
        elif hasattr(value, "item") and isinstance(value.item(), (int, float)):
            values.append(float(value.item()))
        elif isinstance(value, str):
            values += _numbers(value)
        elif isinstance(value, pd.Timestamp):
            values += [float(value.year), float(value.month), float(value.day)]
    return values


def _numbers(text: str) -> list[float]:
    return [_number(token) for token in ANSWER_FIGURE.findall(text)]


def _number(token: str) -> float:
    return float(token.replace(",", ""))


def matches(token: str, known: list[float]) -> bool:
    """Whether the number `token` is one of `known`, as written or rounded to its decimals."""
    number = _number(token)
    decimals = len(token.split(".")[1]) if "." in token else 0
    return any(math.isclose(number, value) or round(value, decimals) == number for value in known)


def _row_text(row: list[object]) -> str:
    label, *rest = row
    return f"{readable(label)} ({', '.join(readable(v) for v in rest)})" if rest else readable(label)


def readable(value: object) -> str:
    """A value as a sentence says it: a fraction rounded to 2 decimals (3 significant digits below 1);
    the table keeps every digit.

    >>> readable(22.137404580152673), readable(0.0012345), readable(7.0), readable(1017.5), readable("x")
    ('22.14', '0.00123', '7', '1017.5', 'x')
    """
    if not isinstance(value, float) or not math.isfinite(value):
        return str(value)
    if value.is_integer():
        return str(int(value))
    rounded = round(value, 2) if abs(value) >= 1 else float(f"{value:.3g}")
    return format(rounded, "f").rstrip("0").rstrip(".") if abs(rounded) >= 1e-4 else f"{rounded:.3g}"


def for_reading(result: pd.DataFrame) -> pd.DataFrame:
    """`result` with its fractions as `readable` says them (what the model phrasing an answer is shown)."""
    shown = result.copy()
    for column in shown.columns:
        if pd.api.types.is_float_dtype(shown[column]):
            shown[column] = shown[column].map(lambda v: readable(v) if pd.notna(v) else v)
    return shown
