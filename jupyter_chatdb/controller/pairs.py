"""Whether a sentence pairs each label of a result with that label's own figures.

A small model phrasing "how many of each kind" can print every count and every kind yet pair them
wrongly ("10 dinghies, 15 ketches" where the table says 15 dinghies): each number is in the result, so a
check of numbers alone passes it. Here the sentence is cut into clauses (at commas, semicolons, "and",
line breaks); a clause that says exactly one label of the result and numbers must say one of that row's
figures for each of its numbers. Labels are the values of the result's text columns.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from ..language.numbers import CLAUSE_FIGURE, THOUSANDS_COMMA
from .answer import matches

CLAUSE = re.compile(r"[;,\n]|\band\b|\bwhile\b|\bwhereas\b", re.IGNORECASE)
MAX_ROWS = 200  # rows of a result whose labels are looked for


def mispaired(sentence: str, result: pd.DataFrame | None, request: str = "") -> list[tuple[str, str]]:
    """The (label, number) pairs of `sentence` that no row of `result` holds (a number the `request`
    says, "in 2024", pairs with nothing).

    >>> kinds = pd.DataFrame({"kind": ["dinghy", "ketch", "yawl"], "boats": [15, 10, 25]})
    >>> mispaired("There are 10 dinghy boats, 15 ketch boats and 25 yawl boats.", kinds)
    [('dinghy', '10'), ('ketch', '15')]
    >>> mispaired("dinghy: 15; ketch: 10; yawl: 25.", kinds)
    []
    >>> mispaired("The most common kind is yawl, with 25 boats.", kinds)  # "with 25" is its own clause
    []
    >>> mispaired("Yawl (25) leads, then dinghy (15).", kinds)
    []
    >>> mispaired("In 2024 the yawl count was 25.", kinds, "How many boats of each kind in 2024?")
    []
    """
    labels = _labels(result)
    if not labels:
        return []
    rows = _figures_by_label(result)  # type: ignore[arg-type]  # labels come from a result
    found: list[tuple[str, str]] = []
    asked = {float(n) for n in CLAUSE_FIGURE.findall(THOUSANDS_COMMA.sub("", request))}
    clauses = CLAUSE.split(THOUSANDS_COMMA.sub("", sentence))
    for at, clause in enumerate(clauses):
        said = [label for label in labels if _says(clause, label)]
        if len(said) != 1:
            continue
        numbers = [n for n in CLAUSE_FIGURE.findall(clause) if not _inside_label(n, said)]
        if not numbers and at + 1 < len(clauses) and not any(_says(clauses[at + 1], x) for x in labels):
            numbers = CLAUSE_FIGURE.findall(clauses[at + 1])  # "yawl, with 25 boats": the figure in the next clause
        numbers = [n for n in numbers if float(n) not in asked]
        label = said[0]
        for number in numbers:
            if not matches(number, rows[label]):
                found.append((label, number))
    return found


def lists_without_figures(sentence: str, result: pd.DataFrame | None) -> bool:
    """Whether `sentence` names two or more labels of `result` and none of its figures ("The top three
    are A, B and C", where the table has their counts).

    >>> kinds = pd.DataFrame({"kind": ["dinghy", "ketch"], "boats": [15, 10]})
    >>> lists_without_figures("The kinds are dinghy and ketch.", kinds), lists_without_figures("dinghy 15, ketch 10", kinds)
    (True, False)
    """
    labels = _labels(result)
    if len([label for label in labels if _says(sentence, label)]) < 2:
        return False
    figures = [f for values in _figures_by_label(result).values() for f in values]  # type: ignore[arg-type]
    return not any(matches(n, figures) for n in CLAUSE_FIGURE.findall(THOUSANDS_COMMA.sub("", sentence)))


def _labels(result: pd.DataFrame | None) -> list[str]:
    """The distinct text values of `result` that a sentence could name (longest first, so that "sea
    kayak" is found before "kayak")."""
    if result is None or result.empty or len(result.columns) < 2:
        return []
    texts = [c for c in result.columns if result[c].dtype == object or pd.api.types.is_string_dtype(result[c])]
    numbers = [c for c in result.columns if pd.api.types.is_numeric_dtype(result[c]) and result[c].dtype != bool]
    if not texts or not numbers:
        return []
    values = {str(v) for c in texts for v in result[c].head(MAX_ROWS).dropna() if len(str(v).strip()) >= 2}
    return sorted(values, key=len, reverse=True)


def _figures_by_label(result: pd.DataFrame) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for _, row in result.head(MAX_ROWS).iterrows():
        figures = [float(v) for v in row if _is_number(v)]
        for value in row:
            if isinstance(value, str):
                found.setdefault(value, []).extend(figures)
    return found


def _is_number(value: object) -> bool:
    """A finite number, numpy's included; not a flag."""
    return pd.api.types.is_number(value) and not pd.api.types.is_bool(value) and math.isfinite(float(value))  # type: ignore[arg-type]


def _says(clause: str, label: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", clause, re.IGNORECASE) is not None


def _inside_label(number: str, labels: list[str]) -> bool:
    """Whether `number` is only part of a label said in the clause ("Route 66")."""
    return any(number in label for label in labels)
