"""A chart under a result where a picture says more, chosen from the result's shape alone.

- a time column (dates, or whole-number years in order) and measures: a line per measure;
- a category column (text) and measures, at most `MAX_BARS` rows: bars (horizontal when the labels are
  long or many);
- anything else (one row, no measure, several categories, too many bars): no chart.

The chart is a PNG (matplotlib's Agg backend, no display needed), so it reads the same in JupyterLab,
VS Code, nbconvert and on GitHub.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pandas as pd

MAX_BARS = 30
MAX_MEASURES = 3
MAX_POINTS = 2_000
YEARS = range(1000, 3000)


@dataclass(frozen=True)
class Chart:
    kind: str  # "line" | "bar"
    x: str
    measures: tuple[str, ...]


def choose_chart(frame: pd.DataFrame) -> Chart | None:
    """The chart that fits the result, or None.

    >>> choose_chart(pd.DataFrame({"region": ["North", "South"], "units": [17, 4]}))
    Chart(kind='bar', x='region', measures=('units',))
    >>> choose_chart(pd.DataFrame({"year": [2021, 2022, 2023], "sales": [5.0, 7.5, 6.0]}))
    Chart(kind='line', x='year', measures=('sales',))
    >>> choose_chart(pd.DataFrame({"n": [3]})) is None, choose_chart(pd.DataFrame({"a": ["x", "y"], "b": ["u", "v"]}))
    (True, None)
    """
    if len(frame) < 2 or len(frame) > MAX_POINTS or frame.columns.has_duplicates:
        return None
    numeric = [c for c in frame.columns if _is_measure(frame[c])]
    times = [c for c in frame.columns if _is_time(frame[c])]
    labels = [c for c in frame.columns if c not in numeric and c not in times]
    if times and not labels:
        x = times[0]
        measures = [c for c in numeric if c != x]
        return Chart("line", str(x), tuple(map(str, measures[:MAX_MEASURES]))) if measures else None
    if len(labels) == 1 and numeric and len(frame) <= MAX_BARS and frame[labels[0]].is_unique:
        return Chart("bar", str(labels[0]), tuple(map(str, numeric[:MAX_MEASURES])))
    return None


def chart_png(frame: pd.DataFrame, chart: Chart) -> bytes:
    """The chart drawn as a PNG."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(6.4, 3.2), dpi=100, layout="constrained")
    axes = figure.subplots()
    data = frame.sort_values(chart.x) if chart.kind == "line" else frame
    labels = [str(v) for v in data[chart.x]]
    if chart.kind == "line":
        for measure in chart.measures:
            axes.plot(data[chart.x], data[measure], marker="o" if len(data) <= 40 else None, label=measure)
        if pd.api.types.is_integer_dtype(data[chart.x]):  # years: no 2019.5
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    elif max(map(len, labels)) > 12 or len(labels) > 8:
        _bars(axes, labels[::-1], data[list(chart.measures)].iloc[::-1], horizontal=True)
    else:
        _bars(axes, labels, data[list(chart.measures)], horizontal=False)
    axes.set_xlabel(chart.x if chart.kind == "line" or len(labels) <= 8 else "")
    if len(chart.measures) > 1:
        axes.legend(frameon=False)
    elif chart.kind == "line" or (max(map(len, labels)) <= 12 and len(labels) <= 8):
        axes.set_ylabel(chart.measures[0])
    else:
        axes.set_xlabel(chart.measures[0])
    axes.spines[["top", "right"]].set_visible(False)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _bars(axes, labels: list[str], values: pd.DataFrame, horizontal: bool) -> None:
    width = 0.8 / len(values.columns)
    for offset, measure in enumerate(values.columns):
        positions = [i + (offset - (len(values.columns) - 1) / 2) * width for i in range(len(labels))]
        if horizontal:
            axes.barh(positions, values[measure], height=width, label=str(measure))
        else:
            axes.bar(positions, values[measure], width=width, label=str(measure))
    ticks = list(range(len(labels)))
    if horizontal:
        axes.set_yticks(ticks, labels)
    else:
        axes.set_xticks(ticks, labels)


def _is_measure(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column) and not _is_time(column)


def _is_time(column: pd.Series) -> bool:
    """Dates and times, or whole numbers that are years in increasing order."""
    if pd.api.types.is_datetime64_any_dtype(column):
        return True
    if not pd.api.types.is_integer_dtype(column) or column.isna().any():
        return False
    values = column.tolist()
    return all(v in YEARS for v in values) and values == sorted(values) and len(set(values)) == len(values)
