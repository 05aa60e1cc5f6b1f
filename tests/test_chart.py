"""Charts chosen from a result's shape, drawn as PNG."""

import pandas as pd
import pytest

from jupyter_chatdb.widgets.chart import MAX_BARS, Chart, chart_png, choose_chart

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("frame", "chart"),
    [
        (pd.DataFrame({"region": ["North", "South", "East"], "units": [17, 4, 3]}), Chart("bar", "region", ("units",))),
        (
            pd.DataFrame({"day": pd.to_datetime(["2024-01-01", "2024-01-02"]), "kg": [1.5, 2.0], "n": [3, 4]}),
            Chart("line", "day", ("kg", "n")),
        ),
        (pd.DataFrame({"year": [2021, 2022, 2023], "sales": [5.0, 7.5, 6.0]}), Chart("line", "year", ("sales",))),
        (pd.DataFrame({"n": [3]}), None),  # one number
        (pd.DataFrame({"name": ["Ann", "Bo"], "city": ["Ely", "Bath"]}), None),  # nothing to measure
        (pd.DataFrame({"region": ["North", "North"], "units": [1, 2]}), None),  # a category twice: not one bar each
        (pd.DataFrame({"item": [f"i{n}" for n in range(MAX_BARS + 1)], "kg": range(MAX_BARS + 1)}), None),
        (pd.DataFrame({"id": [7, 3, 9], "kg": [1, 2, 3]}), None),  # numbers only, not years in order
    ],
)
def test_the_chart_follows_the_shape_of_the_result(frame, chart):
    assert choose_chart(frame) == chart


def test_charts_are_pngs_for_bars_long_labels_and_lines():
    bars = pd.DataFrame({"region": ["North", "South"], "units": [17, 4], "kg": [2.5, 1.0]})
    long = pd.DataFrame({"customer": ["Alexandra Longname", "Bartholomew Short"], "spent": [10.0, 20.0]})
    line = pd.DataFrame({"year": [2021, 2022, 2023], "sales": [5.0, 7.5, 6.0]})
    for frame in (bars, long, line):
        chart = choose_chart(frame)
        assert chart is not None and chart_png(frame, chart).startswith(PNG)
