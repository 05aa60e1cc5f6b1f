"""A write read for what it does to rows (issue 51): a change is an UPDATE or DELETE of rows that exist,
never a new row; a copied value is read from its row in SQL; a value the request does not give makes the
write wait, saying why; a plain statement of fact with writes allowed is a record. Real DuckDB, the
scripted model, on the default strategy (native), which reads a write for what it does to rows."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, ChangeRead, Event
from jupyter_chatdb.errors import QueryFailed
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.scripted import ScriptExhausted
from jupyter_chatdb.recording.owning_table import on_the_table_it_sets
from jupyter_chatdb.recording.row_changes import parse_reading
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog
from tests.conftest import ADDS

SCHEMA = """
CREATE TABLE ledger (entry_no INTEGER, zone VARCHAR, crates INTEGER, note VARCHAR);
INSERT INTO ledger VALUES (3, 'Harbour', 10, 'fragile'), (4, 'Uplands', 7, NULL);
CREATE TABLE checks (checker VARCHAR, dock VARCHAR, checked_on DATE, faults INTEGER);
INSERT INTO checks VALUES ('Tove Lind', 'Dock 2', DATE '2024-05-01', 1);
CREATE TABLE lock_visits (keeper VARCHAR NOT NULL, lock_name VARCHAR NOT NULL, visited_on DATE, repairs INTEGER);
CREATE TABLE bins (label VARCHAR, shelf VARCHAR);
INSERT INTO bins VALUES ('Alder', 'Top'), ('Birch', 'Top'), ('Cedar', 'Low');
"""


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def dock(model: ScriptedBackend):
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    yield chatdb
    chatdb.close()


def rows(chatdb: ChatDB, sql: str) -> list[tuple]:
    return chatdb.session.rows(sql)


def change(table: str, which: list[tuple[str, str]], *settings: dict) -> dict:
    picks = [{"column": c, "value": v} for c, v in which]
    return {"does": "change", "table": table, "which": picks, "set": list(settings)}


def removal(table: str, which: list[tuple[str, str]]) -> dict:
    return {**change(table, which), "does": "remove"}


def asked_again(option: str) -> dict:
    """The reply to the second, narrower question: the option picked among the readings of the same rows."""
    return {"option": option}


def approval_reason(events: list[Event]) -> str:
    """The reason the write waits for approval, as its card shows it."""
    return next(e for e in events if isinstance(e, ApprovalNeeded)).reason


def test_a_value_copied_from_another_row_is_read_from_that_row(dock: ChatDB, model: ScriptedBackend):
    copy = {"column": "zone", "how": "copy", "value": "", "from": [{"column": "entry_no", "value": "3"}]}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4")], copy))
    reply = dock.ask("Set the zone of entry 4 in the ledger to the zone of entry 3", allow_writes=True)
    assert [s.split()[0] for s in reply.sql] == ["UPDATE"] and not reply.pending
    assert rows(dock, "SELECT entry_no, zone FROM ledger ORDER BY 1") == [(3, "Harbour"), (4, "Harbour")]


def test_a_change_is_never_a_new_row_and_a_described_value_waits(dock: ChatDB, model: ScriptedBackend):
    """The junk the issue saw: a description of a value ('zone of the newest entry') written as one. It is
    no INSERT, and it waits. ('the zone of entry 3' names a row: its zone is copied, above.)"""
    events: list[Event] = []
    described = {"column": "zone", "how": "to", "value": "zone of the newest entry"}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4")], described))
    reply = dock.ask(
        "Set the zone of entry 4 in the ledger to the zone of the newest entry",
        allow_writes=True,
        on_event=events.append,
    )
    assert reply.pending and rows(dock, "SELECT count(*) FROM ledger") == [(2,)]
    assert "zone: 'zone of the newest entry' describes a value rather than giving one" in approval_reason(events)
    assert "It waits for approval" in reply.answer


def test_a_changed_number_a_cleared_value_and_an_added_amount(dock: ChatDB, model: ScriptedBackend):
    model.push(
        {"route": "write"},
        change("checks", [("checker", "Tove Lind")], {"column": "faults", "how": "to", "value": "3"}),
    )
    reply = dock.ask("Change the faults found in Tove Lind's check to 3", allow_writes=True)
    assert reply.sql[0].startswith("UPDATE") and rows(dock, "SELECT checker, faults FROM checks") == [("Tove Lind", 3)]
    cleared = {"column": "note", "how": "clear", "value": ""}
    more = {"column": "crates", "how": "add", "value": "5"}
    model.push(
        {"route": "write"},
        change("ledger", [("entry_no", "3")], cleared, more),
    )
    dock.ask("Entry 3 is no longer fragile, and 5 more crates came in", allow_writes=True)
    assert rows(dock, "SELECT crates, note FROM ledger WHERE entry_no = 3") == [(15, None)]


def test_a_removal_deletes_the_rows_it_names(dock: ChatDB, model: ScriptedBackend):
    model.push(
        {"route": "write"},
        removal("ledger", [("entry_no", "4")]),
    )
    reply = dock.ask("Delete entry 4 from the ledger", allow_writes=True)
    assert reply.sql[0].startswith("DELETE") and rows(dock, "SELECT entry_no FROM ledger") == [(3,)]


def test_a_change_to_rows_that_do_not_exist_writes_no_new_row_unseen(dock: ChatDB, model: ScriptedBackend):
    """Read as a change of a row that is not kept: the reading of rows goes on (a small model reads an
    event as a change now and then), and the new row it reads waits, saying which row was not found."""
    as_rows = {"checks": [{"checker": "Mia Eklund", "faults": 3}]}  # the reading of rows: a new row
    model.push(
        {"route": "write"},
        change("checks", [("checker", "Mia Eklund")], {"column": "faults", "how": "to", "value": "3"}),
        as_rows,
    )
    events: list[Event] = []
    reply = dock.ask("Change the faults in Mia Eklund's check to 3", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT checker, faults FROM checks") == [("Tove Lind", 1)]
    assert "it reads as a change of kept rows, but no row of checks has checker 'Mia Eklund'" in approval_reason(events)


def test_a_statement_of_fact_with_writes_allowed_is_a_record_without_a_name_check(dock: ChatDB, model: ScriptedBackend):
    """Into an empty table, with names no stored value resembles: the route call is told writes are
    allowed, no name check refuses it, and no change reading is asked for (it names no kept row)."""
    events: list[Event] = []
    reading = {
        "lock_visits": [{"keeper": "Ida Brandt", "lock_name": "Gullmarn", "visited_on": "2024-06-02", "repairs": 6}]
    }
    model.push({"route": "write"}, reading)
    reply = dock.ask(
        "Ida Brandt visited Gullmarn on 2 June 2024 and made 6 repairs", allow_writes=True, on_event=events.append
    )
    assert "writes here" in model.calls[0].messages[0]["content"]
    assert not any(isinstance(e, ChangeRead) for e in events)
    assert not reply.pending and rows(dock, "SELECT * FROM lock_visits")[0][:2] == ("Ida Brandt", "Gullmarn")


def test_a_fact_the_model_routes_as_a_read_is_a_record_where_writes_are_allowed(dock: ChatDB, model: ScriptedBackend):
    """The small model reads a statement as a read now and then; with writes allowed, a request that asks
    nothing is recorded. A question with writes allowed stays a read."""
    reading = {"lock_visits": [{"keeper": "Ida Brandt", "lock_name": "Gullmarn", "visited_on": "2024-06-02"}]}
    model.push({"route": "read"}, reading)
    reply = dock.ask("2024-06-02 lock visit: Ida Brandt at Gullmarn", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT keeper FROM lock_visits") == [("Ida Brandt",)]

    def reads(messages: list) -> str:  # routed as a read by a call, or without one
        return (
            '{"route": "read"}' if "You sort requests" in messages[0]["content"] else "SELECT count(*) FROM lock_visits"
        )

    model.push(reads, reads)
    reply = dock.ask("Quante visite abbiamo?", allow_writes=True)
    assert reply.route == "read" and reply.sql == ["SELECT COUNT(*) FROM lock_visits"]


def test_a_write_read_as_an_add_goes_on_as_before(dock: ChatDB, model: ScriptedBackend):
    reading = {"checks": [{"checker": "Tove Lind", "dock": "Dock 5", "checked_on": "2024-06-01", "faults": 0}]}
    model.push({"route": "write"}, ADDS, reading)
    dock.ask("Tove Lind checked Dock 5 on 1 June 2024: no faults", allow_writes=True)
    assert rows(dock, "SELECT count(*) FROM checks") == [(2,)]


def test_a_change_planned_as_an_insert_waits(dock: ChatDB, model: ScriptedBackend):
    """Read as a change that code cannot write (no column said): planned, and a plan that adds rows waits."""
    model.push(
        {"route": "write"},
        change("ledger", [("entry_no", "4")]),
        {"ledger": [{"entry_no": 4, "zone": "Harbour"}]},  # the reading of rows: refused, it adds a row
        {"steps": [{"goal": "add", "sql": "INSERT INTO ledger VALUES (4, 'Harbour', 7, NULL)", "binds": []}]},
    )
    events: list[Event] = []
    reply = dock.ask("Entry 4 goes where entry 3 is", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT count(*) FROM ledger") == [(2,)]
    assert "it adds rows to ledger, where the request changes rows already kept" in approval_reason(events)


def test_rows_named_by_a_day_in_words_and_days_set_or_moved_by_a_length(dock: ChatDB, model: ScriptedBackend):
    """A date column names its rows and takes its values in any form the request writes them: a day in
    words is the stored DATE, and "by a week" moves a date on by seven days."""
    which = [("checker", "Tove Lind"), ("checked_on", "1 May 2024")]
    model.push(
        {"route": "write"}, change("checks", which, {"column": "checked_on", "how": "to", "value": "3 May 2024"})
    )
    reply = dock.ask("Tove Lind's check of 1 May 2024 was on 3 May 2024", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT CAST(checked_on AS VARCHAR) FROM checks") == [("2024-05-03",)]
    later = {"column": "checked_on", "how": "add", "value": "a week"}
    model.push({"route": "write"}, change("checks", [("checker", "Tove Lind")], later))
    reply = dock.ask("Push Tove Lind's check back by a week", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT CAST(checked_on AS VARCHAR) FROM checks") == [("2024-05-10",)]


def test_a_day_the_request_does_not_say_waits(dock: ChatDB, model: ScriptedBackend):
    events: list[Event] = []
    wrong_day = {"column": "checked_on", "how": "to", "value": "2024-05-09"}
    model.push({"route": "write"}, change("checks", [("checker", "Tove Lind")], wrong_day))
    reply = dock.ask("Tove Lind's check was on 3 May 2024", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT CAST(checked_on AS VARCHAR) FROM checks") == [("2024-05-01",)]
    assert "checked_on: the request does not say '2024-05-09'" in next(
        e.reason for e in events if isinstance(e, ApprovalNeeded)
    )


def test_a_change_to_several_rows_waits_saying_how_many(dock: ChatDB, model: ScriptedBackend):
    events: list[Event] = []
    model.push({"route": "write"}, change("bins", [("shelf", "Top")], {"column": "shelf", "how": "to", "value": "Low"}))
    reply = dock.ask("The Top bins go to Low", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT count(*) FROM bins WHERE shelf = 'Top'") == [(2,)]
    assert "it would change 2 rows of bins, not one" in next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    dock.apply(reply)  # approved as shown: both rows
    assert rows(dock, "SELECT count(*) FROM bins WHERE shelf = 'Low'") == [(3,)]


def test_the_change_reading_is_shown_only_the_tables_of_the_rows_named(dock: ChatDB, model: ScriptedBackend):
    """'Tove Lind' is held by checks alone: the other tables are left out of the change call."""
    model.push(
        {"route": "write"},
        change("checks", [("checker", "Tove Lind")], {"column": "faults", "how": "to", "value": "2"}),
    )
    dock.ask("Tove Lind found 2 faults after all", allow_writes=True)
    change_call = next(c for c in model.calls if "what a write request does" in c.messages[0]["content"])
    tables = change_call.messages[1]["content"].split("Request:")[0]
    assert "checks:" in tables and "ledger:" not in tables and "bins:" not in tables


def test_a_value_read_but_not_said_waits_and_is_applied_as_shown(dock: ChatDB, model: ScriptedBackend):
    """'the bottom one' read as 'Low': the card says the request does not say 'Low', and one approval
    writes exactly that."""
    events: list[Event] = []
    read_as = {"column": "shelf", "how": "to", "value": "Low"}
    model.push({"route": "write"}, change("bins", [("label", "Birch")], read_as))
    reply = dock.ask("Set the Birch bin's shelf to the bottom one", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT shelf FROM bins WHERE label = 'Birch'") == [("Top",)]
    reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    assert reason == "shelf: the request does not say 'Low'; check it before approving"
    assert "'Low'" in reply.plan[0].sql or "'Low'" in " ".join(reply.sql)
    applied = dock.apply(reply)
    assert rows(dock, "SELECT shelf FROM bins WHERE label = 'Birch'") == [("Low",)]
    assert applied.answer.startswith("Recorded: bins: 1 changed")  # keyless, but an UPDATE adds no row


def test_numbers_in_words_and_a_count_of_none(dock: ChatDB, model: ScriptedBackend):
    """'no faults' is 0, not NULL; 'three more' adds 3."""
    model.push(
        {"route": "write"},
        change("checks", [("checker", "Tove Lind")], {"column": "faults", "how": "to", "value": "none"}),
    )
    reply = dock.ask("Tove Lind's check found no faults after all", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT faults FROM checks") == [(0,)]
    more = {"column": "crates", "how": "add", "value": "three"}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4")], more))
    reply = dock.ask("Three more crates came in for entry 4", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT crates FROM ledger WHERE entry_no = 4") == [(10,)]


def test_the_new_value_written_as_a_name_of_the_row_is_left_out_of_its_names(dock: ChatDB, model: ScriptedBackend):
    """A small model writes "zone: same as entry 3" among the values naming the row to change: no row has
    it, the entry number names the row alone, and the zone is copied."""
    copy = {"column": "zone", "how": "copy", "value": "", "from": [{"column": "entry_no", "value": "3"}]}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4"), ("zone", "same as entry 3")], copy))
    reply = dock.ask("zone change / entry: 4 / zone: same as entry 3", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT zone FROM ledger WHERE entry_no = 4") == [("Harbour",)]


def test_the_value_set_read_among_the_names_too_names_no_row(dock: ChatDB, model: ScriptedBackend):
    """ "Birch is on the low shelf now" read with shelf Low both among the names and as the value set: a row
    already on Low is no change (Cedar is), so the label alone names the row."""
    to_low = {"column": "shelf", "how": "to", "value": "Low"}
    model.push({"route": "write"}, change("bins", [("label", "Birch"), ("shelf", "Low")], to_low))
    reply = dock.ask("Birch is on the low shelf now", allow_writes=True)
    assert not reply.pending
    assert rows(dock, "SELECT label, shelf FROM bins ORDER BY label") == [
        ("Alder", "Top"),
        ("Birch", "Low"),
        ("Cedar", "Low"),
    ]


def test_a_change_setting_only_columns_its_table_lacks_is_read_for_its_names(dock: ChatDB, model: ScriptedBackend):
    """The new shelf read among the names and a column no bin has set: the names read alone, the shelf
    whose leaving out names one row is the value set."""
    unknown = {"column": "moved_on", "how": "to", "value": "2024-05-27"}
    model.push({"route": "write"}, change("bins", [("label", "Cedar"), ("shelf", "Top")], unknown))
    reply = dock.ask("Cedar has gone up to the top shelf (2024-05-27)", allow_writes=True)
    assert not reply.pending
    assert rows(dock, "SELECT shelf FROM bins WHERE label = 'Cedar'") == [("Top",)]


def test_a_number_said_only_as_part_of_a_day_names_no_row(dock: ChatDB, model: ScriptedBackend):
    """ "4" read as the entry from "4 May 2024": entry 4 is kept, but the request says 4 only as the day, so
    the zone alone names the row whose crates change; and 4 is no number the request gives."""
    to_12 = {"column": "crates", "how": "to", "value": "12"}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4"), ("zone", "Harbour")], to_12))
    reply = dock.ask("crates of the Harbour entry: 12 now (4 May 2024)", allow_writes=True)
    assert not reply.pending
    assert rows(dock, "SELECT entry_no, crates FROM ledger ORDER BY 1") == [(3, 12), (4, 7)]


def test_a_date_moved_by_the_length_the_request_gives(dock: ChatDB, model: ScriptedBackend):
    """The model adds a day it worked out ("May 8, 2024") to the date: the request gives one length, a
    week, and that is what moves it."""
    later = {"column": "checked_on", "how": "add", "value": "May 8, 2024"}
    model.push({"route": "write"}, change("checks", [("checker", "Tove Lind")], later))
    reply = dock.ask("check moved / checker: Tove Lind / later by: a week", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT CAST(checked_on AS VARCHAR) FROM checks") == [("2024-05-08",)]


def test_a_value_naming_another_row_is_copied_from_it(dock: ChatDB, model: ScriptedBackend):
    """The model reads "note: same as entry 3" as a pick and sets nothing: the value naming another row
    becomes the setting, and names that row (by its number, or its name), whose value is copied."""
    model.push({"route": "write"}, change("ledger", [("entry_no", "4"), ("note", "same as entry 3")]))
    reply = dock.ask("note change / entry: 4 / note: same as entry 3", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT note FROM ledger WHERE entry_no = 4") == [("fragile",)]
    dock.session.rows("INSERT INTO checks VALUES ('Ole Berg', 'Dock 7', DATE '2024-05-02', 0)")
    model.push({"route": "write"}, change("checks", [("checker", "Ole Berg"), ("dock", "same as Tove Lind")]))
    reply = dock.ask("dock change / checker: Ole Berg / dock: same as Tove Lind", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT dock FROM checks WHERE checker = 'Ole Berg'") == [("Dock 2",)]


def test_a_value_naming_another_row_and_saying_more_waits(dock: ChatDB, model: ScriptedBackend):
    """'next to Tove Lind' names another row but says more than "the same as": copied, but it waits."""
    events: list[Event] = []
    dock.session.rows("INSERT INTO checks VALUES ('Ole Berg', 'Dock 7', DATE '2024-05-02', 0)")
    model.push(
        {"route": "write"},
        change("checks", [("checker", "Ole Berg")], {"column": "dock", "how": "to", "value": "next to Tove Lind"}),
    )
    reply = dock.ask("Ole Berg's check is now the dock next to Tove Lind", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT dock FROM checks WHERE checker = 'Ole Berg'") == [("Dock 7",)]
    reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    assert "dock: 'next to Tove Lind' read as the dock of Tove Lind" in reason


REFERRED = """
CREATE TABLE crops (crop VARCHAR PRIMARY KEY, price DECIMAL(6, 2));
INSERT INTO crops VALUES ('quince', 2.50);
CREATE TABLE price_moves (crop VARCHAR REFERENCES crops (crop), moved_on DATE, new_price DECIMAL(6, 2));
CREATE TABLE orders (order_no INTEGER PRIMARY KEY, crop VARCHAR REFERENCES crops (crop));
INSERT INTO orders VALUES (7, 'quince');
CREATE TABLE refunds (order_no INTEGER REFERENCES orders (order_no), refunded_on DATE);
INSERT INTO refunds VALUES (7, DATE '2024-05-01');
"""


def test_a_change_the_data_does_not_bear_out_is_read_as_adding_rows(model: ScriptedBackend):
    """Each thing named is kept, but no row has them together (a price move of a kept crop), or the rows
    to remove are referred to (an order with a refund): the request goes on as one that adds rows."""
    farm = ChatDB(model=model, schema=REFERRED, summarize=False)
    set_price = {"column": "new_price", "how": "to", "value": "3.10"}
    move = {"price_moves": [{"crop": "quince", "moved_on": "2024-05-02", "new_price": 3.10}]}
    model.push({"route": "write"}, change("price_moves", [("crop", "quince")], set_price), move)
    reply = farm.ask("2024-05-02 quince now sells at 3.10", allow_writes=True)
    assert not reply.pending and rows(farm, "SELECT count(*) FROM price_moves") == [(1,)]
    removal_read = removal("orders", [("order_no", "7")])
    refund = {"refunds": [{"order_no": 7, "refunded_on": "2024-05-03"}]}
    model.push({"route": "write"}, removal_read, refund)
    events: list[Event] = []
    reply = farm.ask("Order 7 was refunded on 3 May 2024", allow_writes=True, on_event=events.append)
    assert rows(farm, "SELECT count(*) FROM orders") == [(1,)]
    assert [s.split()[0] for s in reply.sql] == ["INSERT"] and "refunds" in reply.sql[0]
    # the refund read names its order by a number code cannot look up, so it is written without it: the
    # write waits, saying the 7 is written nowhere
    assert reply.pending and "the request gives 7, which nothing written holds" in approval_reason(events)
    farm.close()


def test_a_number_named_beside_a_column_of_lengths_of_time_is_looked_up_in_whole_numbers_only(model: ScriptedBackend):
    """An INTERVAL column is no integer column: a number the request gives is not compared with it (DuckDB
    cannot), and the rental numbered so is changed."""
    hire = ChatDB(
        model=model,
        schema="CREATE TABLE rentals (rental_no INTEGER, hired_for INTERVAL, renter VARCHAR);"
        "INSERT INTO rentals VALUES (6, INTERVAL 1 DAY, 'Ole Berg'), (5, INTERVAL 3 DAY, 'Ida Brandt');",
        summarize=False,
    )
    model.push({"route": "write"}, change("rentals", [("rental_no", "5")], {"column": "renter", "how": "clear"}))
    reply = hire.ask("Rental 5 has no renter any more", allow_writes=True)
    assert not reply.pending and rows(hire, "SELECT rental_no, renter FROM rentals") == [(6, "Ole Berg"), (5, None)]
    hire.close()


TRAYS = """
CREATE TABLE benches (bench_code VARCHAR PRIMARY KEY, bench_name VARCHAR UNIQUE);
INSERT INTO benches VALUES ('B-3', 'Sunny'), ('B-4', 'Shady');
CREATE TABLE trays (
    tray_code VARCHAR PRIMARY KEY, crop VARCHAR, state VARCHAR CHECK (state IN ('growing', 'sold', 'composted')),
    bench VARCHAR REFERENCES benches (bench_code)
);
INSERT INTO trays VALUES ('T-014', 'basil', 'growing', 'B-4'), ('T-041', 'mint', 'growing', 'B-4'),
    ('P-014', 'chard', 'growing', 'B-4');
"""


def test_a_row_named_by_its_code_said_in_words_is_listed_for_the_change_reading(model: ScriptedBackend):
    """'tray 14' is the row coded 'T-014' (not 'P-014', not 'T-041'): the change call is told so, and a
    reading naming the row by its code changes it."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    state = {"column": "state", "how": "to", "value": "composted"}
    model.push({"route": "write"}, change("trays", [("tray_code", "T-014")], state))
    reply = chatdb.ask("2024-06-09 composted: tray 14, mould on the leaves", allow_writes=True)
    change_call = next(c for c in model.calls if "what a write request does" in c.messages[0]["content"])
    assert "Kept rows named: trays tray_code 'T-014' (said: tray 14)\n" in change_call.messages[1]["content"]
    assert reply.sql[0].startswith("UPDATE") and not reply.pending
    assert rows(chatdb, "SELECT tray_code FROM trays WHERE state = 'composted'") == [("T-014",)]
    chatdb.close()


def test_a_removal_leaving_a_day_the_request_gives_unused_waits(dock: ChatDB, model: ScriptedBackend):
    """'went out on 3 June' may be a day to set rather than a row to remove: the removal waits, saying so."""
    model.push(
        {"route": "write"},
        removal("ledger", [("entry_no", "4")]),
    )
    events: list[Event] = []
    reply = dock.ask("Entry 4 went out on 3 June 2024", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT count(*) FROM ledger") == [(2,)]
    assert "the request gives 3 June 2024, which removing rows does not use" in approval_reason(events)


def test_a_value_naming_a_referenced_row_by_part_of_its_code_said_in_words(model: ScriptedBackend):
    """'bench 3' names the bench coded 'B-3': a reading setting the bench to '3' sets it to that row."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    model.push(
        {"route": "write"}, change("trays", [("tray_code", "T-014")], {"column": "bench", "how": "to", "value": "3"})
    )
    reply = chatdb.ask("Tray 14 went over to bench 3", allow_writes=True)
    assert not reply.pending and rows(chatdb, "SELECT bench FROM trays WHERE tray_code = 'T-014'") == [("B-3",)]
    chatdb.close()


def test_a_removal_where_the_request_says_a_listed_value_of_its_rows_waits(model: ScriptedBackend):
    """'composted' is a state a tray may have: read as removing the tray, and so again when asked among the
    tray's states, the write waits, saying so."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    model.push({"route": "write"}, removal("trays", [("tray_code", "T-014")]), asked_again("remove the trays row"))
    events: list[Event] = []
    reply = chatdb.ask("composted: tray 14", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(chatdb, "SELECT count(*) FROM trays") == [(3,)]
    assert "the request says 'composted', a state a kept row may have, rather than removing it" in approval_reason(
        events
    )
    chatdb.close()


def test_a_removal_asked_again_among_the_rows_states_sets_the_state_picked(model: ScriptedBackend):
    """Asked among removing the tray and the states it may be in (those it is not in), the model picks one:
    the same tray's state is set, and the card says it was asked again."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    model.push({"route": "write"}, removal("trays", [("tray_code", "T-014")]), asked_again("set state to 'composted'"))
    events: list[Event] = []
    reply = chatdb.ask("2024-06-09 tray 14 mouldy, onto the heap", allow_writes=True, on_event=events.append)
    choice = model.calls[-1]
    assert choice.json_schema["properties"]["option"]["enum"] == [
        "remove the trays row",
        "set state to 'sold'",
        "set state to 'composted'",
    ]
    assert "Row: trays tray_code 'T-014'" in choice.messages[1]["content"]
    assert not reply.pending and reply.sql[0].startswith("UPDATE")
    assert rows(chatdb, "SELECT tray_code, state FROM trays ORDER BY 1") == [
        ("P-014", "growing"),
        ("T-014", "composted"),
        ("T-041", "growing"),
    ]
    read = next(e for e in events if isinstance(e, ChangeRead))
    assert (read.does, read.asked_again) == ("change", "set state to 'composted'")
    chatdb.close()


def _thrown_on_the_heap(model: ScriptedBackend, first: str, then: str) -> None:
    """Tray 41's state read as 'thrown on the heap', none of the list, then the two picks asked."""
    heap = {"column": "state", "how": "to", "value": "thrown on the heap"}
    model.push(
        {"route": "write"}, change("trays", [("tray_code", "T-041")], heap), asked_again(first), asked_again(then)
    )


def test_a_value_read_for_a_listed_column_that_is_none_of_its_entries_is_asked_among_them(model: ScriptedBackend):
    """'thrown on the heap' is no state a tray may have: the model picks among the entries, closest in
    meaning first, and the state picked is written, not the words."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    _thrown_on_the_heap(model, "set state to 'composted'", "set state to 'composted'")
    reply = chatdb.ask("2024-06-10 tray 41 was thrown on the heap", allow_writes=True)
    first, then = (call.json_schema["properties"]["option"]["enum"] for call in model.calls[-2:])
    # not the 'growing' it is in; the tray's removal last (a state none of the list may be its end)
    assert first == ["set state to 'composted'", "set state to 'sold'", "remove the trays row"]
    assert then == first[::-1] and model.remaining == 0
    assert not reply.pending and rows(chatdb, "SELECT state FROM trays WHERE tray_code = 'T-041'") == [("composted",)]
    chatdb.close()


def test_an_entry_picked_for_unlisted_words_that_changes_when_asked_the_other_way_round_waits(
    model: ScriptedBackend,
):
    """Asked among the entries each way round, the model picks 'composted', then 'sold': nothing is
    written; the write waits with the first pick, showing both."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    _thrown_on_the_heap(model, "set state to 'composted'", "set state to 'sold'")
    events: list[Event] = []
    reply = chatdb.ask("2024-06-10 tray 41 was thrown on the heap", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(chatdb, "SELECT state FROM trays WHERE tray_code = 'T-041'") == [("growing",)]
    assert "'composted'" in reply.sql[0]
    reason = approval_reason(events)
    assert "read as: set state to 'composted', then as: set state to 'sold'" in reason
    chatdb.close()


def test_a_number_read_as_adding_a_row_to_a_kept_row_is_a_change(dock: ChatDB, model: ScriptedBackend):
    """The model says "add" (rows) but names the kept row and a number to add to it: a change."""
    more = {"column": "crates", "how": "add", "value": "5"}
    model.push(
        {"route": "write"},
        {**change("ledger", [("entry_no", "4")], more), "does": "add"},
    )
    reply = dock.ask("entry 4: 5 more crates", allow_writes=True)
    assert not reply.pending and rows(dock, "SELECT entry_no, crates FROM ledger ORDER BY 1") == [(3, 10), (4, 12)]


def test_a_change_to_a_number_or_an_unlisted_column_is_not_asked_again(dock: ChatDB, model: ScriptedBackend):
    """Asking a number again turned "set it to 0.80" into taking 0.80 off: a number read "to" is written."""
    model.push(
        {"route": "write"}, change("bins", [("label", "Birch")], {"column": "shelf", "how": "to", "value": "Low"})
    )
    dock.ask("Birch bin: shelf Low", allow_writes=True)
    assert len(model.calls) == 2 and model.remaining == 0
    model.push(
        {"route": "write"}, change("ledger", [("entry_no", "3")], {"column": "crates", "how": "to", "value": "12"})
    )
    reply = dock.ask("we set the crates of entry 3 to 12 from now on", allow_writes=True)
    assert len(model.calls) == 4 and model.remaining == 0
    assert not reply.pending and rows(dock, "SELECT crates FROM ledger WHERE entry_no = 3") == [(12,)]


DEPOTS = """
CREATE TABLE depots (depot_code VARCHAR PRIMARY KEY, depot_name VARCHAR UNIQUE);
INSERT INTO depots VALUES ('EG', 'Eastgate'), ('NF', 'Northfield'), ('WM', 'Westmoor');
CREATE TABLE crates (crate_code VARCHAR PRIMARY KEY, depot_code VARCHAR);
INSERT INTO crates VALUES ('C-007', 'EG'), ('C-008', 'EG');
CREATE TABLE hauls (crate_code VARCHAR REFERENCES crates (crate_code), driver VARCHAR, hauled_on DATE);
INSERT INTO hauls VALUES ('C-007', 'Uma Kerr', DATE '2024-05-30');
"""


def test_a_move_the_model_reads_on_the_wrong_table_is_read_from_the_data(model: ScriptedBackend):
    """Read as a change of the hauls' driver, which names no driver kept: crate 7 is at Eastgate, the
    request names Eastgate and Northfield, so the data reads the move, and the crate's depot (a column
    named like the depots' key, with no REFERENCES) is set to Northfield's code."""
    chatdb = ChatDB(model=model, schema=DEPOTS, summarize=False)
    driver = {"column": "driver", "how": "to", "value": "Northfield"}
    model.push({"route": "write"}, change("hauls", [("driver", "Eastgate")], driver))
    reply = chatdb.ask("2024-06-02 transfer: crate 7, Eastgate -> Northfield", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith("UPDATE")
    assert rows(chatdb, "SELECT crate_code, depot_code FROM crates ORDER BY 1") == [("C-007", "NF"), ("C-008", "EG")]
    assert rows(chatdb, "SELECT driver FROM hauls") == [("Uma Kerr",)]
    chatdb.close()


HIRES = """
CREATE TABLE crew (name VARCHAR PRIMARY KEY, locker VARCHAR);
INSERT INTO crew VALUES ('Ann Roe', '12A'), ('Bo Lind', '7C');
CREATE TABLE hires (boat VARCHAR, starts_at TIMESTAMP, jetty VARCHAR);
INSERT INTO hires VALUES ('Kestrel', TIMESTAMP '2024-06-03 09:00', 'South'), ('Kestrel', TIMESTAMP '2024-06-04 09:00', 'South'),
    ('Osprey', TIMESTAMP '2024-06-05 10:00', 'North');
"""


LESSONS = """
CREATE TABLE coaches (coach VARCHAR PRIMARY KEY);
INSERT INTO coaches VALUES ('Mo Berg'), ('Ines Roth');
CREATE TABLE lessons (coach VARCHAR REFERENCES coaches (coach), starts_at TIMESTAMP, room VARCHAR);
INSERT INTO lessons VALUES ('Mo Berg', TIMESTAMP '2024-06-03 09:00', 'Hall'), ('Ines Roth', TIMESTAMP '2024-06-03 09:00', 'Hall'),
    ('Ines Roth', TIMESTAMP '2024-06-04 09:00', 'Loft');
"""


def test_rows_named_by_a_moment_alone_are_narrowed_by_the_kept_row_the_request_names(model: ScriptedBackend):
    """Two lessons at 9:00 on 3 June; the request names Mo Berg, a coach the lessons refer to: the model
    reads the moment and the new room among the names, and Mo's lesson alone moves."""
    chatdb = ChatDB(model=model, schema=LESSONS, summarize=False)
    which = [("starts_at", "2024-06-03 09:00:00"), ("room", "Loft")]
    model.push({"route": "write"}, change("lessons", which))
    reply = chatdb.ask("We moved Mo Berg's 9:00 lesson on 3 June 2024 into the Loft", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith("UPDATE")
    assert rows(chatdb, "SELECT coach, room FROM lessons ORDER BY starts_at, coach") == [
        ("Ines Roth", "Hall"),
        ("Mo Berg", "Loft"),
        ("Ines Roth", "Loft"),
    ]
    chatdb.close()


def test_a_reference_read_as_the_row_it_has_now_is_the_other_row_the_request_names(model: ScriptedBackend):
    """'now Mo Berg (was Ines Roth)': the model copies the coach from 'Ines Roth'; the lesson refers to
    Ines now and the request names one other coach, Mo Berg, who is set."""
    chatdb = ChatDB(model=model, schema=LESSONS, summarize=False)
    copied = {"column": "coach", "how": "copy", "value": "", "from": [{"column": "coach", "value": "Ines Roth"}]}
    model.push({"route": "write"}, change("lessons", [("starts_at", "2024-06-04 09:00:00")], copied))
    reply = chatdb.ask("2024-06-01 change: lesson of 4 June 2024 09:00, now Mo Berg (was Ines Roth)", allow_writes=True)
    assert not reply.pending
    assert rows(chatdb, "SELECT coach FROM lessons WHERE starts_at = TIMESTAMP '2024-06-04 09:00'") == [("Mo Berg",)]
    chatdb.close()


def test_a_moment_read_with_the_log_lines_day_is_the_moment_the_request_says_at_that_time(model: ScriptedBackend):
    """A small model joins the log line's day to the hire's time: the hire named is the one the request
    says at that time."""
    chatdb = ChatDB(model=model, schema=HIRES, summarize=False)
    which = [("boat", "Kestrel"), ("starts_at", "2024-06-01 09:00")]
    model.push({"route": "write"}, change("hires", which, {"column": "jetty", "how": "to", "value": "North"}))
    reply = chatdb.ask(
        "2024-06-01 swap: Kestrel, hire of 3 June 2024 09:00, leaves from jetty North", allow_writes=True
    )
    assert not reply.pending
    assert rows(chatdb, "SELECT day(starts_at), jetty FROM hires ORDER BY 1") == [
        (3, "North"),
        (4, "South"),
        (5, "North"),
    ]
    chatdb.close()


def test_a_name_given_for_a_locker_is_that_persons_locker(model: ScriptedBackend):
    """'shares Ann Roe's locker', read as setting the locker to 'Ann Roe': every kept locker has digits and
    a name has none, so it is Ann Roe's locker, copied."""
    chatdb = ChatDB(model=model, schema=HIRES, summarize=False)
    model.push({"route": "write"}, change("crew", [("name", "Bo Lind"), ("locker", "Ann Roe")]))
    reply = chatdb.ask("Bo Lind shares a locker with Ann Roe from today", allow_writes=True)
    assert not reply.pending and rows(chatdb, "SELECT locker FROM crew WHERE name = 'Bo Lind'") == [("12A",)]
    chatdb.close()


def test_the_one_name_whose_leaving_out_names_a_row_is_the_new_value(model: ScriptedBackend):
    """The new jetty read among the names, and no setting: Kestrel's hire of 3 June names one row, and
    'North' is what it is set to."""
    chatdb = ChatDB(model=model, schema=HIRES, summarize=False)
    model.push(change("hires", [("boat", "Kestrel"), ("starts_at", "2024-06-03 09:00"), ("jetty", "North")]))
    reply = chatdb.ask("hire change\nboat: Kestrel\nwhen: 2024-06-03 09:00\nnew jetty: North", allow_writes=True)
    assert not reply.pending
    assert rows(chatdb, "SELECT day(starts_at), jetty FROM hires ORDER BY 1") == [
        (3, "North"),
        (4, "South"),
        (5, "North"),
    ]
    chatdb.close()


FEES = """
CREATE TABLE guests (guest VARCHAR PRIMARY KEY);
INSERT INTO guests VALUES ('Ada Stone'), ('Bo Lind');
CREATE TABLE fees (guest VARCHAR NOT NULL REFERENCES guests (guest), paid_on DATE NOT NULL, amount DECIMAL(6, 2) NOT NULL);
INSERT INTO fees VALUES ('Bo Lind', DATE '2024-06-01', 12.50);
CREATE TABLE lamps (lamp VARCHAR PRIMARY KEY, lit_on DATE NOT NULL, hours INTEGER NOT NULL);
"""


def test_a_change_naming_every_value_of_a_new_row_and_setting_none_adds_it_read_by_its_table(model: ScriptedBackend):
    """A small model reads a payment as a change of the payments with the payer, day and amount as the
    rows it names and nothing to set: those are a new row's values. The request is read as adding to
    that table: the rows it states are read offered only it and the tables it names."""
    chatdb = ChatDB(model=model, schema=FEES, summarize=False)
    read = change("fees", [("guest", "Ada Stone"), ("paid_on", "2024-06-03"), ("amount", "12.50")])
    model.push({"route": "write"}, read, {"fees": [{"guest": "Ada Stone", "paid_on": "2024-06-03", "amount": 12.5}]})
    reply = chatdb.ask("Ada Stone paid 12.50 on 3 June 2024", allow_writes=True)
    assert not reply.pending and all(s.startswith("INSERT") for s in reply.sql)
    assert rows(chatdb, "SELECT guest, amount::DOUBLE FROM fees ORDER BY 1") == [("Ada Stone", 12.5), ("Bo Lind", 12.5)]
    offered = set(model.calls[-1].json_schema["properties"])
    assert "fees" in offered and "lamps" not in offered
    chatdb.close()


def test_the_new_value_read_among_the_names_wins_over_the_same_column_read_from_the_records_day(model: ScriptedBackend):
    """'jetty: North' and the record's day both read as the jetty, among the names: the one whose leaving
    out names one row is set; the day, which no jetty holds, is not."""
    chatdb = ChatDB(model=model, schema=HIRES, summarize=False)
    which = [("boat", "Kestrel"), ("starts_at", "2024-06-03 09:00"), ("jetty", "North"), ("jetty", "7 June 2024")]
    model.push(change("hires", which))
    reply = chatdb.ask(
        "hire change\nboat: Kestrel\nwhen: 2024-06-03 09:00\nnew jetty: North\ndate: 7 June 2024", allow_writes=True
    )
    assert not reply.pending
    assert rows(chatdb, "SELECT day(starts_at), jetty FROM hires ORDER BY 1") == [
        (3, "North"),
        (4, "South"),
        (5, "North"),
    ]
    chatdb.close()


def test_a_day_written_into_a_column_that_keeps_no_day_waits(dock: ChatDB, model: ScriptedBackend):
    """The record's day read as a bin's new shelf: no shelf kept is a day, so the write waits, saying so."""
    dock.session.run("INSERT INTO bins VALUES ('Elm', 'Middle')")  # three shelves kept: enough to say their form
    model.push(
        {"route": "write"},
        change("bins", [("label", "Alder")], {"column": "shelf", "how": "to", "value": "May 13, 2024"}),
    )
    model.push(asked_again("set shelf to 'May 13, 2024'"))  # a copy from Birch offered; the model keeps its reading
    events: list[Event] = []
    reply = dock.ask("Alder goes on Birch's shelf (May 13, 2024)", allow_writes=True, on_event=events.append)
    assert reply.pending and "shelf: 'May 13, 2024' is a day, as no shelf kept is" in approval_reason(events)
    assert rows(dock, "SELECT shelf FROM bins WHERE label = 'Alder'") == [("Top",)] and model.remaining == 0


def test_a_doubtful_value_is_asked_again_as_a_copy_from_the_other_row_named(dock: ChatDB, model: ScriptedBackend):
    """The record's day read as Cedar's new shelf, where the request names Birch too: the model is asked
    whether the shelf is copied from Birch, and the copy it picks is written from Birch's row."""
    dock.session.run("INSERT INTO bins VALUES ('Elm', 'Middle')")
    model.push(
        {"route": "write"},
        change("bins", [("label", "Cedar")], {"column": "shelf", "how": "to", "value": "May 13, 2024"}),
        asked_again("copy shelf from Birch"),
    )
    reply = dock.ask("Cedar goes on Birch's shelf (May 13, 2024)", allow_writes=True)
    assert not reply.pending and "SELECT" in reply.sql[0]
    assert rows(dock, "SELECT label, shelf FROM bins ORDER BY label") == [
        ("Alder", "Top"),
        ("Birch", "Top"),
        ("Cedar", "Top"),
        ("Elm", "Middle"),
    ]


def test_a_change_of_one_kept_row_that_sets_nothing_it_has_is_asked_among_its_states(model: ScriptedBackend):
    """'went to the market stall' read with only a column the trays lack: the model picks among the states
    the tray is not in (or leaving it). An entry the request does not say is a guess: the write waits,
    showing it; one it says ("sold at the stall") is written."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    stall = {"column": "sold_at", "how": "to", "value": "market stall"}
    model.push({"route": "write"}, change("trays", [("tray_code", "T-041")], stall), asked_again("set state to 'sold'"))
    events: list[Event] = []
    reply = chatdb.ask("2024-06-11 tray 41 went to the market stall", allow_writes=True, on_event=events.append)
    first = model.calls[2].json_schema["properties"]["option"]["enum"]
    assert first == ["leave the trays row as it is", "set state to 'composted'", "set state to 'sold'"]
    reason = approval_reason(events)
    assert reply.pending and "state: 'sold' was picked among its entries, and the request does not say it" in reason
    chatdb.apply(reply)
    model.push({"route": "write"}, change("trays", [("tray_code", "T-014")], stall), asked_again("set state to 'sold'"))
    reply = chatdb.ask("2024-06-12 tray 14 sold at the market stall", allow_writes=True)
    assert not reply.pending and rows(chatdb, "SELECT tray_code, state FROM trays ORDER BY 1") == [
        ("P-014", "growing"),
        ("T-014", "sold"),
        ("T-041", "sold"),
    ]
    chatdb.close()


def test_a_planned_change_setting_a_value_the_request_does_not_give_waits(dock: ChatDB, model: ScriptedBackend):
    """Code cannot write the reading (no column said), and the plan sets the zone the request gives and a
    note it does not: the write waits, naming the note; approved, it runs as planned."""
    model.push(
        {"route": "write"},
        change("ledger", [("entry_no", "4")]),
        {"ledger": []},
        {
            "steps": [
                {
                    "goal": "move",
                    "sql": "UPDATE ledger SET zone = 'Harbour', note = 'urgent' WHERE entry_no = 4",
                    "binds": [],
                }
            ]
        },
    )
    events: list[Event] = []
    reply = dock.ask("Entry 4 moves to Harbour", allow_writes=True, on_event=events.append)
    reason = approval_reason(events)
    assert reply.pending and "ledger.note is set to 'urgent', which the request does not give" in reason
    assert "zone" not in reason and rows(dock, "SELECT zone, note FROM ledger WHERE entry_no = 4") == [
        ("Uplands", None)
    ]
    dock.apply(reply)
    assert rows(dock, "SELECT zone, note FROM ledger WHERE entry_no = 4") == [("Harbour", "urgent")]


def test_a_failing_plan_after_a_reading_code_could_not_write_is_not_revised(dock: ChatDB, model: ScriptedBackend):
    """The plan is the model's guess once code's reading was not written: a failing step fails the request at
    once (no revision call), saying why the reading was not written, and nothing is changed."""
    model.push(
        {"route": "write"},
        change("ledger", [("entry_no", "4")]),
        {"ledger": []},
        {"steps": [{"goal": "move", "sql": "UPDATE ledger SET crates = 'many' WHERE entry_no = 4", "binds": []}]},
    )
    with pytest.raises(
        QueryFailed,
        match=r"(?s)Step 1 \(move\) failed: .*\nCode read the request but did not write it: the change is not code's",
    ):
        dock.ask("Entry 4 moves on with a lot more crates", allow_writes=True)
    assert not model.remaining and len(model.calls) == 4  # the route, the two readings and the plan
    assert rows(dock, "SELECT crates FROM ledger WHERE entry_no = 4") == [(7,)]
    nine = {"column": "crates", "how": "to", "value": "9"}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4")], nine))
    assert not dock.ask("Entry 4 now holds 9 crates", allow_writes=True).pending  # the session goes on


def test_a_plan_written_after_code_could_not_write_the_reading_waits(dock: ChatDB, model: ScriptedBackend):
    """The plan is the model's guess once code's reading was not written: though every value it sets is the
    request's, it waits, saying why code did not write it; approved, it runs as shown."""
    move = {"goal": "move", "sql": "UPDATE ledger SET zone = 'Harbour' WHERE entry_no = 4", "binds": []}
    model.push({"route": "write"}, change("ledger", [("entry_no", "4")]), {"ledger": []}, {"steps": [move]})
    events: list[Event] = []
    reply = dock.ask("Entry 4 moves to Harbour", allow_writes=True, on_event=events.append)
    assert reply.pending and rows(dock, "SELECT zone FROM ledger WHERE entry_no = 4") == [("Uplands",)]
    assert approval_reason(events).startswith(
        "the model planned it after code read the request but did not write it (the change is not code's to write"
    )
    dock.apply(reply)
    assert rows(dock, "SELECT zone FROM ledger WHERE entry_no = 4") == [("Harbour",)]


ORDERS = """
CREATE SEQUENCE order_seq START 1;
CREATE TABLE buyers (buyer VARCHAR PRIMARY KEY);
INSERT INTO buyers VALUES ('Ada Stone'), ('Bo Lind');
CREATE TABLE orders (order_no INTEGER PRIMARY KEY DEFAULT nextval('order_seq'),
                     buyer VARCHAR NOT NULL REFERENCES buyers (buyer), ordered_on DATE NOT NULL,
                     stage VARCHAR NOT NULL DEFAULT 'open' CHECK (stage IN ('open', 'wrapped', 'sent')));
INSERT INTO orders (buyer, ordered_on) VALUES ('Ada Stone', DATE '2024-05-15'), ('Bo Lind', DATE '2024-05-15');
"""


def test_a_new_rows_values_that_are_one_kept_row_of_a_table_with_states_are_asked_about_first(model: ScriptedBackend):
    """Ada's order of 15 May read as an order's own values: it is a kept order, so the model is asked
    among its states (or leaving it); left as it is, the values are read as a new order."""
    chatdb = ChatDB(model=model, schema=ORDERS, summarize=False)
    named = [("buyer", "Ada Stone"), ("ordered_on", "2024-05-15"), ("wrapped_on", "2024-05-20")]
    model.push({"route": "write"}, change("orders", named), asked_again("set stage to 'wrapped'"))
    reply = chatdb.ask("Ada Stone's order of 15 May 2024 is gift-wrapped now (2024-05-20)", allow_writes=True)
    assert not reply.pending
    assert rows(chatdb, "SELECT order_no, stage FROM orders ORDER BY 1") == [(1, "wrapped"), (2, "open")]
    again = [("buyer", "Bo Lind"), ("ordered_on", "2024-05-15")]
    model.push(
        {"route": "write"},
        change("orders", again),
        asked_again("leave the orders row as it is"),
        {"orders": [{"buyer": "Bo Lind", "ordered_on": "2024-05-15"}]},
    )
    reply = chatdb.ask("Bo Lind placed a second order on 15 May 2024", allow_writes=True)
    assert rows(chatdb, "SELECT buyer, stage FROM orders ORDER BY order_no") == [
        ("Ada Stone", "wrapped"),
        ("Bo Lind", "open"),
        ("Bo Lind", "open"),
    ]
    chatdb.close()


def test_a_number_added_to_a_column_the_request_does_not_name_is_asked_among_the_number_columns(model: ScriptedBackend):
    """'bottles | +6' read as adding 6 to the rack's depth: the request names the bottles, not the depth, so
    the model picks among the rack's numbers (the first reading last), and the one picked is written."""
    racks = "CREATE TABLE racks (rack_code VARCHAR PRIMARY KEY, depth_cm INTEGER, bottles INTEGER);"
    chatdb = ChatDB(model=model, schema=racks + "INSERT INTO racks VALUES ('R-7', 40, 12);", summarize=False)
    added = {"column": "depth_cm", "how": "add", "value": "6"}
    model.push({"route": "write"}, change("racks", [("rack_code", "R-7")], added), asked_again("add 6 to bottles"))
    reply = chatdb.ask("2024-06-07 | filled | R-7 bottles | +6", allow_writes=True)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == ["add 6 to bottles", "add 6 to depth_cm"]
    assert not reply.pending and rows(chatdb, "SELECT depth_cm, bottles FROM racks") == [(40, 18)]
    chatdb.close()


def test_a_change_that_set_nothing_is_asked_between_the_values_found_among_its_names_and_the_states(
    model: ScriptedBackend,
):
    """'T-041 | mouldy' read with a crop of 'mould' among the names and nothing set: the model picks
    between that crop and the states the tray is not in; a state the request does not say waits."""
    chatdb = ChatDB(model=model, schema=TRAYS, summarize=False)
    model.push(
        {"route": "write"},
        change("trays", [("tray_code", "T-041"), ("crop", "mould")]),
        asked_again("set state to 'composted'"),
    )
    reply = chatdb.ask("2024-06-12 | T-041 | mould all over, binned", allow_writes=True)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == [
        "set crop to 'mould'",
        "set state to 'composted'",
        "set state to 'sold'",
    ]
    assert reply.pending and "state: 'composted' was picked among its entries" in reply.answer
    chatdb.apply(reply)
    assert rows(chatdb, "SELECT crop, state FROM trays WHERE tray_code = 'T-041'") == [("mint", "composted")]
    chatdb.close()


def test_a_value_naming_another_row_that_its_column_cannot_hold_is_asked_as_a_copy_from_that_row(
    model: ScriptedBackend,
):
    """'to the plot of B-5' read as B-5 for the day the bed was sown: no day, but a bed; the model picks
    the column copied from it (the one read last among the options)."""
    beds = "CREATE TABLE beds (bed_code VARCHAR PRIMARY KEY, sown_on DATE, plot VARCHAR);"
    kept = "INSERT INTO beds VALUES ('B-2', DATE '2024-04-01', 'north'), ('B-5', DATE '2024-04-09', 'orchard');"
    chatdb = ChatDB(model=model, schema=beds + kept, summarize=False)
    sown = {"column": "sown_on", "how": "to", "value": "B-5"}
    model.push({"route": "write"}, change("beds", [("bed_code", "B-2")], sown), asked_again("copy plot from B-5"))
    reply = chatdb.ask("2024-05-02 | moved | B-2 | to the plot of B-5", allow_writes=True)
    options = model.calls[-1].json_schema["properties"]["option"]["enum"]
    assert options == ["copy plot from B-5", "copy sown_on from B-5"]
    assert not reply.pending and rows(chatdb, "SELECT bed_code, sown_on::VARCHAR, plot FROM beds ORDER BY 1") == [
        ("B-2", "2024-04-01", "orchard"),
        ("B-5", "2024-04-09", "orchard"),
    ]
    chatdb.close()


def test_a_value_read_from_another_row_into_a_column_that_cannot_hold_it_is_asked_as_a_copy(
    model: ScriptedBackend,
):
    """'moved to the same plot as B-5' read as the day sown, taken from B-5 but empty: the row it is read
    from is the one to copy from, and the model picks the column."""
    beds = "CREATE TABLE beds (bed_code VARCHAR PRIMARY KEY, sown_on DATE NOT NULL, plot VARCHAR);"
    kept = "INSERT INTO beds VALUES ('B-2', DATE '2024-04-01', 'north'), ('B-5', DATE '2024-04-09', 'orchard');"
    chatdb = ChatDB(model=model, schema=beds + kept, summarize=False)
    sown = {"column": "sown_on", "how": "to", "value": "", "from": [{"column": "bed_code", "value": "B-5"}]}
    model.push({"route": "write"}, change("beds", [("bed_code", "B-2")], sown), asked_again("copy plot from B-5"))
    reply = chatdb.ask("Moved B-2 on 02/05/2024 to the same plot as B-5, to water them together", allow_writes=True)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == [
        "copy plot from B-5",
        "copy sown_on from B-5",
    ]
    assert not reply.pending and rows(chatdb, "SELECT bed_code, sown_on::VARCHAR, plot FROM beds ORDER BY 1") == [
        ("B-2", "2024-04-01", "orchard"),
        ("B-5", "2024-04-09", "orchard"),
    ]
    chatdb.close()


BOAT_HIRES = """
CREATE SEQUENCE hire_seq START 1;
CREATE TABLE boats (boat VARCHAR PRIMARY KEY, mooring VARCHAR);
INSERT INTO boats VALUES ('Heron', 'M-3'), ('Tern', 'M-5');
CREATE TABLE hires (hire_no INTEGER PRIMARY KEY DEFAULT nextval('hire_seq'),
                    boat VARCHAR NOT NULL REFERENCES boats (boat), hired_on DATE NOT NULL,
                    hirer VARCHAR NOT NULL, note VARCHAR,
                    state VARCHAR NOT NULL DEFAULT 'booked' CHECK (state IN ('booked', 'out', 'back')));
INSERT INTO hires (boat, hired_on, hirer, note) VALUES ('Heron', DATE '2024-06-03', 'Ola Berg', 'life jackets'),
                                                     ('Tern', DATE '2024-06-03', 'Kai Moe', NULL);
"""


def test_a_kept_row_changed_in_columns_the_change_read_does_not_set_waits(model: ScriptedBackend):
    """The change read (a state no list holds, a required hirer cleared that the request names but gives
    no value of) cannot be written; the values read then change the kept hire's note, which the change
    read does not set: two readings that disagree on what changes, so the write waits, saying so."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    cancelled = {"column": "state", "how": "to", "value": "cancelled"}
    no_hirer = {"column": "hirer", "how": "clear", "value": ""}
    model.push(
        {"route": "write"},
        change("hires", [("boat", "Heron")], cancelled, no_hirer),
        {"hires": [{"boat": "Heron", "hired_on": "2024-06-03", "note": "customer rang to call it off"}]},
    )
    events: list[Event] = []
    text = "2024-06-02 | called off | Heron (hire of 3 June 2024), no hirer | customer rang to call it off"
    reply = chatdb.ask(text, allow_writes=True, on_event=events.append)
    reason = approval_reason(events)
    assert reply.pending and "read as setting hires.state, hires.hirer, but the values read set hires.note" in reason
    assert rows(chatdb, "SELECT note FROM hires ORDER BY hire_no") == [("life jackets",), (None,)]
    chatdb.close()


def test_a_required_day_read_as_cleared_that_the_request_gives_names_the_row(model: ScriptedBackend):
    """'Tern's hire of 3 June 2024: note oars missing' read with the hire day cleared too: the day, which
    cannot be emptied, is the one the hire holds, so it names the row and only the note is set. A state
    none of the list ('called off') is asked among the entries and the hire's removal; a removal picked
    waits, saying why."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    no_day = {"column": "hired_on", "how": "clear", "value": ""}
    noted = {"column": "note", "how": "to", "value": "oars missing"}
    model.push({"route": "write"}, change("hires", [("boat", "Tern")], noted, no_day))
    reply = chatdb.ask("Tern's hire of 3 June 2024: note oars missing", allow_writes=True)
    assert not reply.pending and rows(chatdb, "SELECT note FROM hires ORDER BY hire_no") == [
        ("life jackets",),
        ("oars missing",),
    ]
    cancelled = {"column": "state", "how": "to", "value": "cancelled"}
    removed = "remove the hires row"
    model.push({"route": "write"}, change("hires", [("boat", "Heron")], cancelled, no_day), asked_again(removed))
    model.push(asked_again(removed))
    events: list[Event] = []
    text = "2024-06-02 | called off | Heron (hire of 3 June 2024) | customer rang to call it off"
    reply = chatdb.ask(text, allow_writes=True, on_event=events.append)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == [
        removed,
        "set state to 'out'",
        "set state to 'back'",
    ]
    assert reply.pending and reply.sql[0].startswith('DELETE FROM "hires"')
    assert "state to 'cancelled', which is none of its entries, then as removing the row" in approval_reason(events)
    assert rows(chatdb, "SELECT boat FROM hires ORDER BY hire_no") == [("Heron",), ("Tern",)]
    chatdb.apply(reply)
    assert rows(chatdb, "SELECT boat FROM hires ORDER BY hire_no") == [("Tern",)]
    chatdb.close()


def test_a_removal_the_data_refuses_is_asked_as_clearing_a_value_the_request_names(model: ScriptedBackend):
    """'Heron | mooring given up, delete it' read as removing the boat, which its hires refer to: the model
    picks between keeping the boat and clearing the mooring the request names, and the mooring is cleared.
    A request that names no value of the boat is read for rows at once, with no question."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    model.push({"route": "write"}, removal("boats", [("boat", "Heron")]), asked_again("clear mooring"))
    reply = chatdb.ask("2024-06-05 | Heron | mooring given up, delete it", allow_writes=True)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == ["keep the boats row", "clear mooring"]
    assert not reply.pending and rows(chatdb, "SELECT * FROM boats ORDER BY 1") == [("Heron", None), ("Tern", "M-5")]
    model.push({"route": "write"}, removal("boats", [("boat", "Tern")]))
    with pytest.raises(ScriptExhausted):  # the next call reads the request for rows
        chatdb.ask("2024-06-06 | Tern | sold, delete it", allow_writes=True)
    assert "boats" in model.calls[-1].json_schema["properties"]
    assert rows(chatdb, "SELECT * FROM boats ORDER BY 1") == [("Heron", None), ("Tern", "M-5")]
    chatdb.close()


def test_a_change_setting_only_columns_its_table_lacks_is_the_referring_rows_change(model: ScriptedBackend):
    """'Heron is out on the water' read as the boat's state: the boats have no state, their hires do, so
    Heron's hire is set out. A column no table referring to the boat has leaves the reading as it was."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    model.push(
        {"route": "write"}, change("boats", [("boat", "Heron")], {"column": "state", "how": "to", "value": "out"})
    )
    reply = chatdb.ask("2024-06-03 Heron is out on the water", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith('UPDATE "hires"')
    assert rows(chatdb, "SELECT boat, state FROM hires ORDER BY hire_no") == [("Heron", "out"), ("Tern", "booked")]
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session, samples=0))
    painted = parse_reading(change("boats", [("boat", "Tern")], {"column": "hull", "how": "to", "value": "red"}))
    assert painted is not None and on_the_table_it_sets(painted, shapes) is None
    chatdb.close()


def test_a_change_naming_a_row_and_setting_nothing_is_asked_among_the_states_said_of_its_referring_rows(
    model: ScriptedBackend,
):
    """'Tern is back at the quay' read as naming the boat and setting nothing: the boats list no states,
    but their hires do, and the request says one: the model is asked between leaving the boat and
    setting its hire back, and the hire is set."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    model.push({"route": "write"}, change("boats", [("boat", "Tern")]), asked_again("set hires state to 'back'"))
    reply = chatdb.ask("2024-06-04 Tern is back at the quay", allow_writes=True)
    assert model.calls[-1].json_schema["properties"]["option"]["enum"] == [
        "leave the boats row as it is",
        "set hires state to 'back'",
    ]
    assert not reply.pending
    assert rows(chatdb, "SELECT boat, state FROM hires ORDER BY hire_no") == [("Heron", "booked"), ("Tern", "back")]
    chatdb.close()


KAYAKS = """
CREATE TABLE owners (owner_name VARCHAR PRIMARY KEY);
CREATE TABLE kayaks (kayak_code VARCHAR PRIMARY KEY, owner_name VARCHAR NOT NULL REFERENCES owners (owner_name),
                     kind VARCHAR NOT NULL CHECK (kind IN ('sea', 'river')));
CREATE TABLE repairs (repair_no INTEGER PRIMARY KEY, kayak_code VARCHAR NOT NULL REFERENCES kayaks (kayak_code),
                      state VARCHAR NOT NULL CHECK (state IN ('waiting', 'done')));
INSERT INTO owners VALUES ('Ola Berg'), ('Kai Moe');
INSERT INTO kayaks VALUES ('KY-1', 'Ola Berg', 'sea'), ('KY-2', 'Ola Berg', 'river'), ('KY-3', 'Kai Moe', 'river');
INSERT INTO repairs VALUES (1, 'KY-1', 'waiting'), (2, 'KY-2', 'waiting'), (3, 'KY-3', 'waiting');
"""


def test_a_row_described_by_the_row_it_refers_to_and_a_listed_value_is_that_row(model: ScriptedBackend):
    """'Ola Berg's sea kayak' under the kayak code: the one kayak of the owner named, of the kind said; Kai
    Moe's kayak is his one kayak. Ola Berg's two kayaks are not one, and nothing is written for them."""
    chatdb = ChatDB(model=model, schema=KAYAKS, summarize=False)
    done = {"column": "state", "how": "to", "value": "done"}
    for said in ("Ola Berg's sea kayak", "Kai Moe's kayak"):
        model.push({"route": "write"}, change("repairs", [("kayak_code", said)], done))
        assert not chatdb.ask(f"2024-07-01 | repair done | {said}", allow_writes=True).pending
    model.push({"route": "write"}, change("repairs", [("kayak_code", "Ola Berg's kayak")], done))
    with pytest.raises(ScriptExhausted):  # no one kayak: read for rows next, and nothing is written
        chatdb.ask("2024-07-01 | repair done | Ola Berg's kayak", allow_writes=True)
    assert rows(chatdb, "SELECT repair_no, state FROM repairs ORDER BY 1") == [(1, "done"), (2, "waiting"), (3, "done")]
    chatdb.close()


def test_a_value_asked_again_is_never_the_one_the_row_holds(model: ScriptedBackend):
    """'returned' is none of the hire states: asked among them, the state Tern's hire is in already is no
    option, since setting it would change nothing."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    returned = {"column": "state", "how": "to", "value": "returned"}
    back = asked_again("set state to 'back'")
    model.push({"route": "write"}, change("hires", [("boat", "Tern")], returned), back, back)
    reply = chatdb.ask("2024-06-04 | Tern | returned to the quay", allow_writes=True)
    assert model.calls[-2].json_schema["properties"]["option"]["enum"] == [
        "set state to 'back'",
        "set state to 'out'",
        "remove the hires row",
    ]
    assert not reply.pending
    assert rows(chatdb, "SELECT boat, state FROM hires ORDER BY hire_no") == [("Heron", "booked"), ("Tern", "back")]
    chatdb.close()


def test_a_state_confirmed_as_a_removal_waits_showing_the_removal(model: ScriptedBackend):
    """'Tern's hire is called off' read as the state 'back', which the request does not say: asked again,
    with the state read last, the model picks removing the hire. The two readings disagree: the removal
    waits, saying both; approved, it runs as shown."""
    chatdb = ChatDB(model=model, schema=BOAT_HIRES, summarize=False)
    back = {"column": "state", "how": "to", "value": "back"}
    model.push({"route": "write"}, change("hires", [("boat", "Tern")], back), asked_again("remove the hires row"))
    events: list[Event] = []
    reply = chatdb.ask("2024-06-02 Tern's hire is called off", allow_writes=True, on_event=events.append)
    options = model.calls[-1].json_schema["properties"]["option"]["enum"]
    assert options == ["set state to 'out'", "remove the hires row", "set state to 'back'"]
    assert reply.pending and "read as setting state to 'back', then as removing the row" in approval_reason(events)
    assert reply.sql[0].startswith('DELETE FROM "hires"') and rows(chatdb, "SELECT count(*) FROM hires") == [(2,)]
    chatdb.apply(reply)
    assert rows(chatdb, "SELECT boat FROM hires") == [("Heron",)]
    chatdb.close()
