"""Views that flatten references (`grounding.flat_views`): real DuckDB, invented tables."""

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.grounding.flat_views import flat_views
from jupyter_chatdb.grounding.keys import ImpliedKeys
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session

CLUBS = pd.DataFrame({"club_id": [1, 2], "club": ["Rovers", "Wanderers"], "city": ["Ely", "Wells"]})
COACHES = pd.DataFrame({"coach_id": [10, 11, 12], "name": ["Ann", "Bo", "Cy"], "club_id": [1, 1, 2]})
ROOMS = pd.DataFrame({"room_id": [5, 6], "name": ["Hall", "Gym"]})
LESSONS = pd.DataFrame(
    {
        "lesson_id": [1, 2, 3, 4],
        "coach_id": [10, 10, 12, 11],
        "room_id": [5, 6, 6, 5],
        "day": ["Mon", "Tue", "Tue", "Fri"],
    }
)


@pytest.fixture
def session() -> Session:
    session = Session()
    for name, frame in {"clubs": CLUBS, "coaches": COACHES, "rooms": ROOMS, "lessons": LESSONS}.items():
        session.bind(name, frame)
    yield session
    session.close()


def views_of(session: Session, shown=None):
    catalog = Catalog.read(session)
    return flat_views(catalog, ImpliedKeys().references(catalog, session), shown)


def test_a_table_nothing_refers_to_is_joined_with_what_it_refers_to_and_theirs(session):
    views = views_of(session)
    assert [(v.name, v.table) for v in views] == [
        ("lessons_details", "lessons")
    ]  # coaches, clubs, rooms are referred to
    frame = session.frame(f"SELECT * FROM ({views[0].sql}) ORDER BY lesson_id")
    columns, rows = list(frame.columns), list(frame.itertuples(index=False, name=None))
    # names kept where unique; the two `name`s prefixed by their tables; the keys joined on not repeated
    assert columns == [
        "lesson_id",
        "coach_id",
        "room_id",
        "day",
        "coaches_name",
        "club_id",
        "rooms_name",
        "club",
        "city",
    ]
    assert len(rows) == len(LESSONS)  # exactly the table's rows
    assert rows[0] == (1, 10, 5, "Mon", "Ann", 1, "Hall", "Rovers", "Ely")


def test_only_the_tables_shown_take_part(session):
    views = views_of(session, shown=("lessons", "rooms"))
    assert "coaches" not in views[0].sql and "LEFT JOIN rooms" in views[0].sql
    assert views_of(session, shown=("clubs", "rooms")) == []  # nothing refers to anything


def test_a_table_referred_to_twice_by_one_row_is_joined_twice_with_names_from_the_columns():
    session = Session()
    session.bind("towns", pd.DataFrame({"town_id": [1, 2, 3], "town": ["Ely", "Wells", "York"]}))
    session.bind("trips", pd.DataFrame({"trip_id": [1, 2], "from_town_id": [1, 2], "to_town_id": [3, 3]}))
    catalog = Catalog.read(session)
    implied = ImpliedKeys().references(catalog, session)
    assert len(implied) == 2
    (view,) = flat_views(catalog, implied)
    rows = session.rows(f"SELECT from_town_id_town, to_town_id_town FROM ({view.sql}) ORDER BY trip_id")
    assert rows == [("Ely", "York"), ("Wells", "York")]
    session.close()


def test_a_flat_read_of_a_view_runs_it_as_a_cte_over_the_tables(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="flat")
    for name, frame in {"clubs": CLUBS, "coaches": COACHES, "rooms": ROOMS, "lessons": LESSONS}.items():
        chatdb.register(name, frame)
    scripted.push("```sql\nSELECT city, COUNT(*) AS lessons FROM lessons_details GROUP BY city ORDER BY city;\n```")
    reply = chatdb.ask("How many lessons are given in each city?")
    assert "CREATE VIEW lessons_details AS\nSELECT" in scripted.calls[0].messages[-1]["content"]
    assert reply.sql[0].startswith("WITH lessons_details AS (SELECT ")
    assert reply.result.to_dict("records") == [{"city": "Ely", "lessons": 3}, {"city": "Wells", "lessons": 1}]
    chatdb.close()


def test_repair_flat_offers_the_views_with_the_first_repair_only(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="repair-flat")
    for name, frame in {"clubs": CLUBS, "coaches": COACHES, "rooms": ROOMS, "lessons": LESSONS}.items():
        chatdb.register(name, frame)
    scripted.push("```sql\nSELECT town, COUNT(*) AS lessons FROM lessons GROUP BY town;\n```")  # no table has it
    scripted.push("```sql\nSELECT city, COUNT(*) AS lessons FROM lessons_details GROUP BY city ORDER BY city;\n```")
    reply = chatdb.ask("How many lessons are given in each city?")
    first, repair = (call.messages[-1]["content"] for call in scripted.calls)
    assert "CREATE VIEW" not in first
    assert "Unknown column" in repair and "CREATE VIEW lessons_details AS\nSELECT" in repair
    assert reply.sql[0].startswith("WITH lessons_details AS (SELECT ")
    assert reply.result.to_dict("records") == [{"city": "Ely", "lessons": 3}, {"city": "Wells", "lessons": 1}]
    chatdb.close()


def test_native_reads_are_not_shown_views(scripted):
    chatdb = ChatDB(model=scripted, summarize=False)
    for name, frame in {"coaches": COACHES, "lessons": LESSONS}.items():
        chatdb.register(name, frame)
    scripted.push("```sql\nSELECT count(*) AS n FROM lessons;\n```")
    assert chatdb.ask("How many lessons are there?").result["n"].tolist() == [4]
    assert "CREATE VIEW" not in scripted.calls[0].messages[-1]["content"]
    chatdb.close()


def test_a_table_reached_by_three_paths_gets_an_alias_of_its_own_each_time():
    session = Session()
    for statement in (
        "CREATE TABLE clubs (club_id INTEGER PRIMARY KEY, club VARCHAR)",
        "CREATE TABLE coaches (coach_id INTEGER PRIMARY KEY, club_id INTEGER REFERENCES clubs (club_id))",
        "CREATE TABLE rooms (room_id INTEGER PRIMARY KEY, club_id INTEGER REFERENCES clubs (club_id))",
        "CREATE TABLE teams (team_id INTEGER PRIMARY KEY, club_id INTEGER REFERENCES clubs (club_id))",
        "CREATE TABLE lessons (lesson_id INTEGER, coach_id INTEGER REFERENCES coaches (coach_id),"
        " room_id INTEGER REFERENCES rooms (room_id), team_id INTEGER REFERENCES teams (team_id))",
        "INSERT INTO clubs VALUES (1, 'Rovers'), (2, 'Wanderers')",
        "INSERT INTO coaches VALUES (10, 1)",
        "INSERT INTO rooms VALUES (5, 2)",
        "INSERT INTO teams VALUES (7, 2)",
        "INSERT INTO lessons VALUES (1, 10, 5, 7), (2, NULL, 5, 7)",
    ):
        session.rows(statement)
    catalog = Catalog.read(session)
    (view,) = flat_views(catalog, [])
    assert view.sql.count("LEFT JOIN clubs") == 3
    frame = session.frame(f"SELECT * FROM ({view.sql}) ORDER BY lesson_id")  # runs: no alias twice
    assert len(frame) == 2 and frame.iloc[0].tolist()[-3:] == ["Rovers", "Wanderers", "Wanderers"]
    session.close()
