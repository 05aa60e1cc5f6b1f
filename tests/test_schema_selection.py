"""Schema selection: which of many tables a request gets, with the real MiniLM embedder and DuckDB."""

import json

import duckdb
import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import TablesSelected
from jupyter_chatdb.grounding.joins import joined_tables
from jupyter_chatdb.grounding.selection import Considered, SchemaIndex, settle
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session

# Two small "databases" of DataFrames plus unrelated tables: 14 tables, more than Options.select_over.
FRAMES = {
    "shop_employee": pd.DataFrame(
        {"employee_id": [1, 2], "name": ["Ann", "Bo"], "age": [31, 45], "city": ["Bristol", "Leeds"]}
    ),
    "shop_hiring": pd.DataFrame({"shop_id": [1, 1], "employee_id": [1, 2], "start_from": ["2020", "2021"]}),
    "shop_shop": pd.DataFrame({"shop_id": [1], "name": ["North"], "district": ["Harbour"]}),
    "pets_pets": pd.DataFrame({"pet_id": [1, 2], "pet_type": ["dog", "cat"], "pet_age": [3, 5], "weight": [12.0, 4.1]}),
    "pets_has_pet": pd.DataFrame({"stu_id": [1], "pet_id": [1]}),
    "pets_student": pd.DataFrame({"stu_id": [1], "Fname": ["Ann"], "LName": ["Lee"], "age": [20], "major": [600]}),
    "flights": pd.DataFrame({"flight_no": [1], "source_airport": ["APG"], "dest_airport": ["ASY"], "airline": [1]}),
    "airports": pd.DataFrame({"airport_code": ["APG"], "airport_name": ["Phillips"], "city": ["Aberdeen"]}),
    "airlines": pd.DataFrame({"uid": [1], "airline": ["United Airlines"], "country": ["USA"]}),
    "museum": pd.DataFrame({"museum_id": [1], "name": ["Plaza"], "num_of_staff": [60]}),
    "visitor": pd.DataFrame({"visitor_id": [1], "name": ["Gonzalo"], "level_of_membership": [8]}),
    "tv_channel": pd.DataFrame({"channel_id": [1], "series_name": ["Sky Radio"], "country": ["Italy"]}),
    "battle": pd.DataFrame({"battle_id": [1], "name": ["Adrianople"], "result": ["Bulgarian victory"]}),
    "ship": pd.DataFrame({"ship_id": [1], "lost_in_battle": [1], "tonnage": ["t"]}),
}


@pytest.fixture(scope="module")
def embedder():
    return MiniLMEmbedder()


@pytest.fixture
def session():
    session = Session()
    for name, frame in FRAMES.items():
        session.bind(name, frame)
    yield session
    session.close()


@pytest.fixture
def catalog(session):
    return Catalog.read(session)


def test_the_tables_a_request_needs_are_among_the_candidates(catalog, embedder):
    index = SchemaIndex(embedder)
    top = [c.table for c in index.candidates("How much does the youngest dog weigh?", catalog, 3)]
    assert top[0] == "pets_pets"
    shops = {c.table: c for c in index.candidates("Which shops hired employees from Bristol?", catalog, 3)}
    assert {"shop_shop", "shop_hiring", "shop_employee"} <= set(shops)
    assert any(reason.startswith("similar to the request") for reason in shops["shop_shop"].reasons)


def test_a_table_holding_a_value_the_request_quotes_says_so(session, catalog, embedder):
    from jupyter_chatdb.grounding.values import ValueIndex

    index = SchemaIndex(embedder)
    found = {
        c.table: c for c in index.candidates("How many flights leave from Phillips?", catalog, 3, ValueIndex(session))
    }
    assert "holds 'Phillips' (airport_name)" in found["airports"].reasons and "'phillips'" in found["airports"].mentions
    found = {
        c.table: c
        for c in index.candidates("Count the flights to 'ASY' from Aberdeen.", catalog, 3, ValueIndex(session))
    }
    assert "'aberdeen'" in found["airports"].mentions  # the closing period and the quotes are not part of a value
    assert "holds 'ASY' (dest_airport)" in found["flights"].reasons
    found = {
        c.table: c for c in index.candidates("How many staff work in Plaza's halls?", catalog, 3, ValueIndex(session))
    }
    assert "'plaza'" in found["museum"].mentions  # a possessive 's is not part of a value


def test_word_forms_meet_and_an_attribute_named_with_its_table_is_a_mention(catalog):
    index = SchemaIndex(None)
    found = {c.table: c for c in index.candidates("Which shops do not hire anyone?", catalog, 3)}
    assert "hire" in found["shop_hiring"].mentions  # hiring
    found = {c.table: c for c in index.candidates("Which airlines fly from countries in Europe?", catalog, 3)}
    assert (
        "its columns are mentioned: airline, country" in found["airlines"].reasons
    )  # the columns' words, not "countri"
    found = {c.table: c for c in index.candidates("List the names of the visitors and of the museums.", catalog, 3)}
    assert {"visitor name", "name"} <= found["visitor"].mentions and "visitor name" not in found["museum"].mentions


def test_a_column_abbreviated_to_an_initial_matches_the_words_it_stands_for(catalog):
    index = SchemaIndex(None)
    found = {c.table: c for c in index.candidates("What are the students' first names and last names?", catalog, 3)}
    student = found["pets_student"]
    assert {"first", "last", "name", "student first"} <= student.mentions  # Fname, LName
    assert "its columns are mentioned: fname, lname" in student.reasons
    found = {c.table: c for c in index.candidates("List each student's pet names.", catalog, 3)}
    assert "name" not in found["pets_student"].mentions  # "pet name" is neither "f name" nor "l name"


def test_a_numbered_column_is_mentioned_only_with_its_word():
    session = Session()
    session.bind("addresses", pd.DataFrame({"line_1": ["1 Main St"], "line_3": ["Flat 2"], "city": ["Leeds"]}))
    session.bind("pets", pd.DataFrame({"pet_type": ["cat"], "pet_age": [3]}))
    index, catalog = SchemaIndex(None), Catalog.read(session)
    found = {c.table: c for c in index.candidates("Which pet is 3 years old?", catalog, 2)}
    assert not found["addresses"].mentions
    found = {c.table: c for c in index.candidates("Show line 1 of every address.", catalog, 2)}
    assert "line 1" in found["addresses"].mentions and "line 3" not in found["addresses"].mentions
    session.close()


def test_an_attached_database_name_is_context_not_a_mention(tmp_path):
    """A request for "singer names" brings the singer table, though the link table holds "singer", the
    concert table holds names, and every table of `concert_singer` has both words in its database's name."""
    con = duckdb.connect(str(tmp_path / "concert_singer.duckdb"))
    con.execute(
        "CREATE TABLE singer (singer_id INTEGER, name VARCHAR, age INTEGER);"
        "CREATE TABLE concert (concert_id INTEGER, concert_name VARCHAR, year INTEGER);"
        "CREATE TABLE singer_in_concert (concert_id INTEGER, singer_id INTEGER)"
    )
    con.close()
    session = Session()
    session.attach(tmp_path / "concert_singer.duckdb")
    catalog = Catalog.read(session)
    considered = SchemaIndex(None).candidates("List singer names and number of concerts for each singer.", catalog, 3)
    found = {c.table: c for c in considered}
    concert, singer = found["concert_singer.concert"], found["concert_singer.singer"]
    assert "singer" not in concert.mentions and "singer" in concert.context
    assert "singer name" in singer.mentions and "singer name" not in concert.mentions | concert.context
    chosen, changes = settle(
        ["concert_singer.singer_in_concert", "concert_singer.concert"], considered, joined_tables(catalog)
    )
    assert chosen == ["concert_singer.singer_in_concert", "concert_singer.concert", "concert_singer.singer"]
    assert changes == [
        ("concert_singer.singer", "added: it holds words of the request the others lack, and joins them")
    ]
    session.close()


def test_a_description_makes_a_table_findable(catalog, embedder):
    index = SchemaIndex(embedder)
    question = "List the galleries with more than 50 employees."
    assert index.candidates(question, catalog, 1)[0].table == "shop_employee"
    index.describe("museum", "Art galleries of the city and how many employees each has")
    best = index.candidates(question, catalog, 1)[0]
    assert best.table == "museum" and "its description matches" in best.reasons
    index.describe("museum", "")
    assert "museum" not in index.notes


def test_tables_join_by_declared_keys_and_by_shared_key_columns():
    session = Session()
    session.run("CREATE TABLE fruits (id INTEGER PRIMARY KEY, name VARCHAR)")
    session.run("CREATE TABLE sales (sale_id INTEGER, fruit_id INTEGER REFERENCES fruits (id), kg DOUBLE)")
    session.bind("stock", pd.DataFrame({"fruit_id": [1], "kg": [3.0]}))
    session.bind("weather", pd.DataFrame({"id": [1], "rain_mm": [3.0]}))
    links = joined_tables(Catalog.read(session))
    assert links["sales"] == {"fruits": "fruit_id", "stock": "fruit_id"}
    assert links["stock"] == {"sales": "fruit_id", "fruits": "fruit_id"}  # fruit_id names the table fruits
    assert links["weather"] == {}  # a bare `id` joins nothing


def test_key_names_join_tables_of_one_database_only(tmp_path):
    archive = duckdb.connect(str(tmp_path / "archive.duckdb"))
    archive.execute(
        "CREATE TABLE singer (singer_id INTEGER, name VARCHAR); CREATE TABLE song (singer_id INTEGER, title VARCHAR)"
    )
    archive.close()
    session = Session()
    session.attach(tmp_path / "archive.duckdb")
    session.bind("singer", pd.DataFrame({"singer_id": [1], "name": ["Joe"]}))
    session.bind("singer_in_concert", pd.DataFrame({"singer_id": [1], "concert_id": [2]}))
    links = joined_tables(Catalog.read(session))
    assert links["singer_in_concert"] == {"singer": "singer_id"}
    assert links["archive.song"] == {"archive.singer": "singer_id"}


def test_a_key_refers_to_a_table_by_another_name_and_its_words_call_that_table(tmp_path):
    """`Friend.student_id` refers to `Highschooler`, the one table of its database with an `id`, so a
    request for students' names asks for that table; `current_address_id` refers to `Addresses`."""
    school = duckdb.connect(str(tmp_path / "school.duckdb"))
    school.execute(
        "CREATE TABLE Highschooler (ID INTEGER, name VARCHAR, grade INTEGER);"
        "CREATE TABLE Friend (student_id INTEGER, friend_id INTEGER);"
        "CREATE TABLE Residents (resident_id INTEGER, current_address_id INTEGER);"
        "CREATE TABLE Addresses (address_id INTEGER, city VARCHAR);"
        "CREATE TABLE Visits (resident_address_id INTEGER, visit_date DATE);"
        "CREATE TABLE Visitors (resident_address_id INTEGER, name VARCHAR)"
    )
    school.close()
    session = Session()
    session.attach(tmp_path / "school.duckdb")
    session.bind("orders", pd.DataFrame({"customer_id": [1], "total": [9.5]}))
    session.bind("weather", pd.DataFrame({"id": [1], "rain_mm": [3.0]}))
    catalog = Catalog.read(session)
    links = joined_tables(catalog)
    assert links["school.Highschooler"] == {"school.Friend": "student_id"}
    assert links["school.Addresses"] == {"school.Residents": "current_address_id"}
    assert "school.Addresses" not in links["school.Visits"]  # a key two tables share is theirs, not a reference
    assert links["orders"] == {}  # a DataFrame's key does not refer to whichever frame has an `id`
    found = {
        c.table: c for c in SchemaIndex(None).candidates("What are the names of students with no friends?", catalog, 3)
    }
    assert {"student", "student name"} <= found["school.Highschooler"].mentions
    assert "keys referring to it are named in the request: student_id" in found["school.Highschooler"].reasons
    found = {c.table: c for c in SchemaIndex(None).candidates("Which residents currently live in Leeds?", catalog, 3)}
    assert "current" in found["school.Addresses"].mentions
    found = {c.table: c for c in SchemaIndex(None).candidates("List the high school kids by grade.", catalog, 3)}
    assert "highschool" in found["school.Highschooler"].mentions  # written apart, the table's name run together
    session.close()


def considered(table, *mentions):
    return Considered(table, 0.5, (), frozenset(mentions))


def test_settle_keeps_the_picked_tables_that_hold_the_request_and_what_joins_them():
    links = {
        "shop": {"hiring": "shop_id"},
        "hiring": {"shop": "shop_id", "employee": "employee_id"},
        "employee": {"hiring": "employee_id"},
        "airports": {},
        "staff": {},
        "people": {"players": "people_id"},
        "players": {"people": "people_id"},
    }
    shop, hiring, employee = (
        considered("shop", "shop"),
        considered("hiring"),
        considered("employee", "employee", "city"),
    )
    airports, staff = considered("airports", "city"), considered("staff", "employee")
    assert settle(["shop", "employee"], [shop, hiring, employee], links) == (
        ["shop", "employee", "hiring"],
        [("hiring", "added: it joins employee to the other chosen tables")],
    )
    assert settle(["employee", "airports", "staff"], [employee, airports, staff], links) == (
        ["employee"],
        [
            ("staff", "dropped: the other tables hold what it does, and it joins none of them"),
            ("airports", "dropped: the other tables hold what it does, and it joins none of them"),
        ],
    )
    assert settle(["shop", "hiring"], [shop, hiring], links) == (
        ["shop"],
        [("hiring", "dropped: holds nothing the request mentions")],
    )
    assert settle(["hiring"], [hiring, airports], links) == (["hiring"], [])  # nothing holds more of the request
    assert settle(["hiring"], [employee, hiring], links) == (
        ["employee"],
        [
            ("hiring", "dropped: holds nothing the request mentions"),
            ("employee", "added: the table most like the request"),
        ],
    )
    # picks from two databases: the group holding more of the request leads, whatever was picked first
    links |= {"a.singer": {}, "b.singer": {"b.concert": "singer_id"}, "b.concert": {"b.singer": "singer_id"}}
    singer_a, singer_b, concert_b = (
        considered("a.singer", "singer", "name"),
        considered("b.singer", "singer", "name"),
        considered("b.concert", "concert"),
    )
    assert settle(["a.singer", "b.singer", "b.concert"], [concert_b, singer_a, singer_b], links) == (
        ["b.singer", "b.concert"],
        [("a.singer", "dropped: the other tables hold what it does, and it joins none of them")],
    )
    # the group that can supply every word leads; a table of another database gives way to one of it
    pets, students, has_pet, student = (
        considered(t, w)
        for t, w in (("p.pets", "pet"), ("s.students", "student"), ("p.has_pet", "pet"), ("p.student", "student"))
    )
    assert settle(
        ["s.students", "p.has_pet"],
        [pets, students, has_pet, student],
        links | {t: {} for t in ("p.pets", "s.students", "p.has_pet", "p.student")},
    ) == (
        ["p.has_pet", "p.pets", "p.student"],
        [
            ("s.students", "dropped: the other tables hold what it does, and it joins none of them"),
            ("p.pets", "added: the table most like the request"),
            ("p.student", "added: it holds words of the request the others lack, and is of their database"),
        ],
    )
    players, people = considered("players", "player", "earning"), considered("people", "name")
    assert settle(["players"], [players, people], links) == (
        ["players", "people"],
        [("people", "added: it holds words of the request the others lack, and joins them")],
    )


def test_with_many_tables_the_plan_prompt_shows_only_the_chosen_ones():
    plan = {
        "steps": [
            {
                "goal": "lightest dog",
                "sql": "SELECT min(weight) AS kg FROM pets_pets WHERE pet_type = 'dog'",
                "binds": [],
            }
        ]
    }
    model = ScriptedBackend([{"route": "read"}, {"tables": ["pets_pets", "pets_has_pet"]}, plan])
    db = ChatDB(model=model, strategy="chain", summarize=False)
    for name, frame in FRAMES.items():
        db.register(name, frame)
    events = []
    reply = db.ask("How much does the lightest dog weigh?", on_event=events.append)
    assert reply.result["kg"].tolist() == [12.0]
    (selected,) = [e for e in events if isinstance(e, TablesSelected)]
    assert selected.total == len(FRAMES) and selected.refined
    assert selected.picked == ("pets_pets", "pets_has_pet") and selected.chosen == ("pets_pets",)
    assert "pets_has_pet" in {table for table, _, _ in selected.considered}
    choice, planning = model.calls[1], model.calls[2]
    assert json.loads(json.dumps(choice.json_schema))["properties"]["tables"]["items"]["enum"][0] == "pets_pets"
    prompt = planning.messages[-1]["content"]
    assert "CREATE TABLE pets_pets" in prompt and "pets_has_pet" not in prompt and "museum" not in prompt


def test_few_tables_all_go_into_the_prompt_without_a_choice():
    plan = {"steps": [{"goal": "count", "sql": "SELECT count(*) AS n FROM museum", "binds": []}]}
    model = ScriptedBackend([{"route": "read"}, plan])
    db = ChatDB(model=model, strategy="chain", summarize=False)
    for name in ("museum", "visitor"):
        db.register(name, FRAMES[name])
    events = []
    db.ask("How many museums are there?", on_event=events.append)
    assert not [e for e in events if isinstance(e, TablesSelected)]
    assert "CREATE TABLE visitor" in model.calls[1].messages[-1]["content"]


def test_an_unusable_choice_keeps_every_considered_table():
    plan = {"steps": [{"goal": "count", "sql": "SELECT count(*) AS n FROM museum", "binds": []}]}
    model = ScriptedBackend([{"route": "read"}, "not json", plan])
    db = ChatDB(model=model, strategy="chain", summarize=False)
    for name, frame in FRAMES.items():
        db.register(name, frame)
    events = []
    db.ask("How many museums are there?", on_event=events.append)
    (selected,) = [e for e in events if isinstance(e, TablesSelected)]
    assert not selected.refined and len(selected.chosen) == len(selected.considered) >= db.options.top_tables


def test_describe_needs_an_existing_table():
    db = ChatDB(model=ScriptedBackend([]), summarize=False)
    db.register("museum", FRAMES["museum"])
    db.describe("museum", "Museums of the city and their staff")
    assert db.tables().set_index("table").loc["museum", "description"] == "Museums of the city and their staff"
    with pytest.raises(Exception, match="There is no table 'gallery'"):
        db.describe("gallery", "x")


def test_descriptions_are_kept_with_the_notebook_values(tmp_path):
    path = tmp_path / "notebook.values.sqlite"
    first = ChatDB(model=ScriptedBackend([]), summarize=False, values_path=path)
    first.register("museum", FRAMES["museum"])
    first.register("shop_shop", FRAMES["shop_shop"])
    first.describe("museum", "Museums of the city and their staff")
    first.describe("shop_shop", "Shops")
    first.describe("shop_shop", "")  # removed, also from the file
    first.close()
    later = ChatDB(model=ScriptedBackend([]), summarize=False, values_path=path)  # a restarted kernel
    later.register("museum", FRAMES["museum"])
    later.register("shop_shop", FRAMES["shop_shop"])
    assert later.table_index.notes == {"museum": "Museums of the city and their staff"}
    assert later.tables().set_index("table")["description"].to_dict() == {
        "museum": "Museums of the city and their staff",
        "shop_shop": "",
    }
