"""A preference of units ("from now on show outputs in MW") changes how figures are shown, never which rows
are asked for: the read is planned without it, and code converts each column whose unit its description or
name states (real DuckDB, scripted model)."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import PreferenceSetAside
from jupyter_chatdb.controller.shown_units import Preference, shown_in_units, split_preference
from jupyter_chatdb.language.units import UNITS, column_unit, factor, target_unit
from jupyter_chatdb.sql.catalog import Catalog, Column, Table
from jupyter_chatdb.widgets.state import ChainState

from .conftest import native

BY_TURBINES = (
    "SELECT site, count(*) AS turbines, sum(output_kw) AS output_kw FROM turbines"
    " GROUP BY site ORDER BY turbines DESC, site LIMIT 2"
)


TALLEST = "SELECT site, max(hub_height) AS hub_height FROM turbines GROUP BY site ORDER BY site"


@pytest.fixture
def db(scripted):
    turbines = pd.DataFrame(
        {
            "site": ["Hollin Edge", "Hollin Edge", "Hollin Edge", "Skarn Moor", "Skarn Moor", "Tullow Rise"],
            "output_kw": [1500.0, 2000.0, 2500.0, 3000.0, 3600.0, 900.0],
            "hub_height": [80.0, 80.0, 95.0, 110.0, 110.0, 60.0],
        }
    )
    db = ChatDB(model=scripted, summarize=False)
    db.register("turbines", turbines)
    yield db
    db.close()


SPLITS = [
    ("Top 2 sites by turbines, from now on show outputs in MW", "Top 2 sites by turbines"),
    ("From now on give loads in tonnes. Which looms wove most?", "Which looms wove most?"),
    ("Show durations in hours from now on and list the 5 longest rides", "list the 5 longest rides"),
    ("Welche Höfe haben die meisten Bienen? From now on, weights in kg.", "Welche Höfe haben die meisten Bienen?"),
]
PREFERENCES = [
    "from now on show outputs in MW",
    "From now on give loads in tonnes.",
    "Show durations in hours from now on",
    "From now on, weights in kg.",
]


@pytest.mark.parametrize(("split", "preference"), list(zip(SPLITS, PREFERENCES, strict=True)))
def test_a_preference_of_units_is_split_from_the_question_it_is_said_with(split, preference):
    request_text, question = split
    assert split_preference(request_text) == (question, preference)


@pytest.mark.parametrize(
    "request_text",
    [
        "I prefer looms over 20 t, list them",  # a figure's unit: a condition on rows
        "From now on, show loads in tonnes.",  # nothing but the preference: a note for the memory
        "Top 2 sites by turbines, in MW",  # no cue of a standing preference
        "From now on round money to cents, then list the looms",  # no unit to show figures in
    ],
)
def test_nothing_is_split_from_a_request_that_states_no_preference_of_units_beside_a_question(request_text):
    assert split_preference(request_text) is None


def test_units_are_read_from_a_description_before_a_name_and_converted_only_within_their_kind():
    assert column_unit("output_kw", "rated output in MW") == UNITS["MW"]
    assert column_unit("stock_min", "") is None and column_unit("m_count", "") is None  # a minimum, a letter
    assert column_unit("CapacityMW", "") == UNITS["MW"] and column_unit("size_gb", "") == UNITS["GB"]
    assert factor(UNITS["kW"], UNITS["GW"]) == 1e-6 and factor(UNITS["kg"], UNITS["km"]) is None
    assert target_unit("weights in metric tons") == UNITS["t"] and target_unit("looms in Grimsby") is None


def test_only_figures_in_a_stated_unit_are_converted_and_a_named_column_without_one_is_said():
    catalog = Catalog(
        [Table("turbines", (Column("site", "TEXT"), Column("output_kw", "DOUBLE"), Column("hub_height", "DOUBLE")), 6)]
    )
    frame = pd.DataFrame({"site": ["a"], "n": [3], "output_kw": [6000.0], "per": [2000.0], "hub_height": [95.0]})
    sql = (
        "SELECT site, count(*) AS n, sum(output_kw) AS output_kw, sum(output_kw) / count(*) AS per,"
        " max(hub_height) AS hub_height FROM turbines GROUP BY site"
    )
    preferences = [Preference("outputs in MW", UNITS["MW"]), Preference("hub heights in km", UNITS["km"])]
    shown = shown_in_units(frame, sql, catalog, preferences)
    assert shown.frame.to_dict("list") == {
        "site": ["a"],
        "n": [3],
        "output_mw": [6.0],
        "per": [2000.0],
        "hub_height": [95.0],
    }
    assert shown.converted == ("output_kw is shown in MW (stored in kW)",)
    (as_stored,) = shown.as_stored
    assert as_stored.startswith("hub_height is shown as stored, in a unit nothing states")
    assert as_stored.endswith('%chatdb describe turbines.hub_height "in <unit>")')


def test_a_question_with_a_preference_is_planned_without_it_and_its_figures_converted_by_code(db, scripted):
    scripted.push({"route": "read"}, {"message": "units"}, native(BY_TURBINES))  # the clause only shows figures
    events = list(db.events("Top 2 sites by turbines, from now on show outputs in MW", use_memory=False))
    reply = events[-1].reply
    planned = scripted.calls[-1].messages[-1]["content"]
    assert "Top 2 sites by turbines" in planned and "MW" not in planned.split("Top 2 sites")[-1]
    assert reply.result.to_dict("list") == {
        "site": ["Hollin Edge", "Skarn Moor"],
        "turbines": [3, 2],
        "output_mw": [6.0, 6.6],
    }
    assert reply.units == ("output_kw is shown in MW (stored in kW)",) and "(stored in kW)" in reply.answer
    assert reply.steps[-1].result.frame["output_kw"].tolist() == [6000.0, 6600.0]  # the query's own result
    (aside,) = [e for e in events if isinstance(e, PreferenceSetAside)]
    assert aside.unit == "MW" and aside.question == "Top 2 sites by turbines"
    state = ChainState()
    for event in events:
        state.apply(event)
    assert any("figures are shown in MW after the query runs" in d for d in state.decisions)


def test_a_clause_the_model_reads_as_part_of_the_question_is_planned_as_written(db, scripted):
    """The words only suggest a preference: without the model's agreement nothing is taken out."""
    scripted.push({"route": "read"}, {"message": "rows"}, native(BY_TURBINES))
    reply = db.ask("Top 2 sites by turbines, from now on show outputs in MW", use_memory=False)
    assert "from now on show outputs in MW" in scripted.calls[-1].messages[-1]["content"]
    assert reply.result["output_kw"].tolist() == [6000.0, 6600.0] and reply.units == ()


def test_a_preference_for_a_column_no_unit_is_stated_for_converts_nothing_and_says_how_to_state_it(db, scripted):
    scripted.push(
        {"route": "read"},
        {"message": "units"},
        native(TALLEST),
    )
    reply = db.ask("Tallest hub per site, from now on show hub heights in feet", use_memory=False)
    assert reply.result["hub_height"].tolist() == [95.0, 110.0, 60.0] and reply.units == ()
    assert '%chatdb describe turbines.hub_height "in <unit>"' in reply.answer
    db.describe("turbines.hub_height", "height of the hub above ground (m)")
    scripted.push(
        {"route": "read"},
        {"message": "units"},
        native(TALLEST),
    )
    reply = db.ask("Tallest hub per site, from now on show hub heights in feet", use_memory=False)
    assert reply.result["hub_height (ft)"].round(1).tolist() == [311.7, 360.9, 196.9]


def test_a_question_asking_for_a_unit_is_planned_without_it_and_converted_for_this_question_only(db, scripted):
    total = "SELECT site, sum(output_kw) AS output_kw FROM turbines GROUP BY site ORDER BY site"
    scripted.push({"route": "read"}, {"message": "units"}, native(total))
    reply = db.ask("Total output of each site in MW", use_memory=False)
    said = scripted.calls[1].messages[-1]["content"]
    assert said == "in MW (said in: Total output of each site in MW)"
    assert scripted.calls[-1].messages[-1]["content"].rstrip().endswith("-- Total output of each site")
    assert reply.result["output_mw"].tolist() == [6.0, 6.6, 0.9]
    scripted.push({"route": "read"}, native(total))  # the next question is shown as stored
    assert db.ask("Total output of each site", use_memory=False).result["output_kw"].tolist() == [6000.0, 6600.0, 900.0]


def test_a_unit_no_column_holds_figures_of_is_left_in_the_question(db, scripted):
    """No column holds a mass: "in tonnes" is the model's to read, and no call asks about it."""
    scripted.push(native("SELECT count(*) AS n FROM turbines"))
    db.ask("How many turbines weigh in tonnes?", use_memory=False)
    assert "in tonnes" in scripted.calls[-1].messages[-1]["content"] and len(scripted.calls) == 1
