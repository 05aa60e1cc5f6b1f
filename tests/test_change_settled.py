"""A change the model reads loosely, settled by the request and the data (issue 51): rows named too loosely
are narrowed by a day the request gives, never widened; a state read as the one the row is in already is
asked again among the others; a value of a row referring to the one named is emptied; a key copied from
the row itself is no change. Real DuckDB, the
scripted model, an invented kennel."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, Event
from jupyter_chatdb.llm import ScriptedBackend

KENNEL = """
CREATE TABLE dogs (
    dog VARCHAR PRIMARY KEY,
    owner VARCHAR NOT NULL,
    size VARCHAR NOT NULL CHECK (size IN ('small', 'medium', 'large')),
    coat VARCHAR
);
INSERT INTO dogs VALUES ('Pip', 'Ines Roth', 'small', NULL), ('Rolo', 'Mo Berg', 'small', 'wiry'),
    ('Tux', 'Mo Berg', 'large', NULL);
CREATE TABLE stays (
    stay_no INTEGER PRIMARY KEY,
    dog VARCHAR NOT NULL REFERENCES dogs (dog),
    booked_from DATE NOT NULL,
    stage VARCHAR NOT NULL CHECK (stage IN ('booked', 'checked_in', 'collected', 'cancelled')),
    fee INTEGER NOT NULL,
    yard VARCHAR
);
INSERT INTO stays VALUES (1, 'Pip', DATE '2024-06-03', 'collected', 40, NULL), (2, 'Pip', DATE '2024-07-10', 'booked', 60, NULL),
    (3, 'Rolo', DATE '2024-06-01', 'checked_in', 30, 'B');
"""


@pytest.fixture
def kennel(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=KENNEL, summarize=False)
    yield chatdb
    chatdb.close()


def change(which: list[tuple[str, str]], *settings: dict) -> dict:
    picks = [{"column": c, "value": v} for c, v in which]
    return {"does": "change", "table": "stays", "which": picks, "set": list(settings)}


def stays(chatdb: ChatDB) -> list[tuple]:
    return chatdb.session.rows("SELECT stay_no, booked_from::VARCHAR, stage, fee FROM stays ORDER BY stay_no")


def test_rows_named_by_the_thing_alone_are_narrowed_by_the_day_the_request_gives(
    kennel: ChatDB, scripted: ScriptedBackend
):
    """Pip has two stays; the model names them by the dog alone. The request gives the record's day and
    the stay's: only the July stay is booked on a day it gives, so it alone changes."""
    scripted.push({"route": "write"}, change([("dog", "Pip")], {"column": "fee", "how": "add", "value": "5"}))
    reply = kennel.ask("12 July 2024 | fee | Pip (booked from 2024-07-10) | up by 5", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith("UPDATE")
    assert stays(kennel) == [
        (1, "2024-06-03", "collected", 40),
        (2, "2024-07-10", "booked", 65),
        (3, "2024-06-01", "checked_in", 30),
    ]


def test_the_day_a_record_is_dated_set_over_the_rows_day_still_narrows_by_the_day_it_holds(
    kennel: ChatDB, scripted: ScriptedBackend
):
    """'12 July | checked in | Pip (booked from 10 July)' read as setting the stage and the record's day:
    the day said before 'booked' is the record's, so the rows are narrowed by the July stay's own day, and
    that day is left as it is."""
    checked_in = {"column": "stage", "how": "to", "value": "checked_in"}
    dated = {"column": "booked_from", "how": "to", "value": "2024-07-12"}
    scripted.push({"route": "write"}, change([("dog", "Pip")], checked_in, dated))
    reply = kennel.ask("12 July 2024 | checked in | Pip (booked from 10 July 2024)", allow_writes=True)
    assert not reply.pending and "12 July 2024 read as the day of the record" in reply.plan[0].goal
    assert stays(kennel) == [
        (1, "2024-06-03", "collected", 40),
        (2, "2024-07-10", "checked_in", 60),
        (3, "2024-06-01", "checked_in", 30),
    ]


def test_the_day_a_change_moves_the_row_from_names_it(kennel: ChatDB, scripted: ScriptedBackend):
    """'moved from 10 July to 14 July', read with the dog alone naming the rows: the day it is moved from
    names the July stay, which alone moves."""
    moved = {"column": "booked_from", "how": "to", "value": "2024-07-14"}
    scripted.push({"route": "write"}, change([("dog", "Pip")], moved))
    reply = kennel.ask("Pip's stay moved from 10 July 2024 to 14 July 2024", allow_writes=True)
    assert not reply.pending, reply.answer
    assert stays(kennel) == [
        (1, "2024-06-03", "collected", 40),
        (2, "2024-07-14", "booked", 60),
        (3, "2024-06-01", "checked_in", 30),
    ]


def test_a_day_the_change_moves_the_row_to_names_no_row_and_the_write_waits(kennel: ChatDB, scripted: ScriptedBackend):
    """'moved to 3 June', read with the dog alone naming the rows: Pip's June stay holds that day already,
    but the day a row is moved to names no row it is moved from; two rows are named and the write waits."""
    moved = {"column": "booked_from", "how": "to", "value": "2024-06-03"}
    scripted.push({"route": "write"}, change([("dog", "Pip")], moved))
    events: list[Event] = []
    reply = kennel.ask("Pip's stay moved to 3 June 2024", allow_writes=True, on_event=events.append)
    assert reply.pending
    assert "2 rows of stays" in next(e for e in events if isinstance(e, ApprovalNeeded)).reason
    assert stays(kennel)[1] == (2, "2024-07-10", "booked", 60)


def test_a_state_the_row_is_in_already_is_asked_again_among_the_others(kennel: ChatDB, scripted: ScriptedBackend):
    """Rolo is checked in; the model reads 'went home' as checked in, which changes nothing. It is asked
    among the other stages, each way round, and picks 'collected' both times: that is written."""
    checked_in = {"column": "stage", "how": "to", "value": "checked_in"}
    scripted.push({"route": "write"}, change([("dog", "Rolo")], checked_in))
    scripted.push({"option": "set stage to 'collected'"}, {"option": "set stage to 'collected'"})
    reply = kennel.ask("2024-06-05 | Rolo | went home with his owner", allow_writes=True)
    assert not reply.pending
    assert stays(kennel)[2] == (3, "2024-06-01", "collected", 30)
    assert scripted.remaining == 0


def test_a_state_picked_differently_each_way_round_waits_showing_both(kennel: ChatDB, scripted: ScriptedBackend):
    checked_in = {"column": "stage", "how": "to", "value": "checked_in"}
    scripted.push({"route": "write"}, change([("dog", "Rolo")], checked_in))
    scripted.push({"option": "set stage to 'collected'"}, {"option": "set stage to 'cancelled'"})
    events: list[Event] = []
    reply = kennel.ask("2024-06-05 | Rolo | went home with his owner", allow_writes=True, on_event=events.append)
    assert reply.pending
    reason = next(e for e in events if isinstance(e, ApprovalNeeded)).reason
    assert "already holds" in reason and "'collected'" in reason and "'cancelled'" in reason
    assert stays(kennel)[2] == (3, "2024-06-01", "checked_in", 30)


def test_a_value_of_the_row_referring_to_the_one_named_is_emptied_where_picked_each_way_round(
    kennel: ChatDB, scripted: ScriptedBackend
):
    """'Rolo is in no yard now', read as emptying the dog's owner, which cannot be empty: the model is shown
    the dog's row and picks, among leaving it, emptying the yard of its stay (a column the request names)
    and its sizes, the yard, each way round. Rolo's one stay loses its yard; the dog is untouched."""
    no_owner = {"column": "owner", "how": "clear", "value": ""}
    scripted.push(
        {"route": "write"},
        {"does": "change", "table": "dogs", "which": [{"column": "dog", "value": "Rolo"}], "set": [no_owner]},
    )
    scripted.push({"option": "clear yard of the stays row"}, {"option": "clear yard of the stays row"})
    reply = kennel.ask("2024-06-05 took Rolo out of yard B, he is in no yard now", allow_writes=True)
    assert not reply.pending
    assert kennel.session.rows("SELECT stay_no, yard FROM stays ORDER BY stay_no") == [(1, None), (2, None), (3, None)]
    assert kennel.session.rows("SELECT owner, size FROM dogs WHERE dog = 'Rolo'") == [("Mo Berg", "small")]
    assert scripted.remaining == 0


def test_an_emptying_picked_once_only_waits_showing_both_picks(kennel: ChatDB, scripted: ScriptedBackend):
    no_owner = {"column": "owner", "how": "clear", "value": ""}
    scripted.push(
        {"route": "write"},
        {"does": "change", "table": "dogs", "which": [{"column": "dog", "value": "Rolo"}], "set": [no_owner]},
    )
    scripted.push({"option": "clear yard of the stays row"}, {"option": "leave the dogs row as it is"})
    events: list[Event] = []
    reply = kennel.ask(
        "2024-06-05 took Rolo out of yard B, he is in no yard now", allow_writes=True, on_event=events.append
    )
    assert reply.pending
    assert "then as: leave the dogs row as it is" in next(e for e in events if isinstance(e, ApprovalNeeded)).reason
    assert kennel.session.rows("SELECT yard FROM stays WHERE stay_no = 3") == [("B",)]


def test_a_key_copied_from_the_row_itself_is_no_change_and_a_state_of_the_row_referring_to_it_is_asked(
    kennel: ChatDB, scripted: ScriptedBackend
):
    """'Mo Berg's small dog was collected' read as the dog's name copied from its own row: that sets
    nothing (and DuckDB would refuse to rewrite a key stays refer to), so it is asked as a change that
    sets nothing, among leaving the dog as it is and the stay's state the request says (its size names
    the dog among Mo Berg's two: no state of it)."""
    own = [{"column": "owner", "value": "Mo Berg"}, {"column": "size", "value": "small"}]
    copied = {"does": "change", "table": "dogs", "which": own, "set": [{"column": "dog", "how": "copy", "from": own}]}
    scripted.push({"route": "write"}, copied, {"option": "set stays stage to 'collected'"})
    reply = kennel.ask("2024-06-05 Mo Berg's small dog was collected", allow_writes=True)
    offered = scripted.calls[-1].json_schema["properties"]["option"]["enum"]
    assert offered == ["leave the dogs row as it is", "set stays stage to 'collected'"]
    assert not reply.pending and scripted.remaining == 0
    assert stays(kennel)[2] == (3, "2024-06-01", "collected", 30)
    assert kennel.session.rows("SELECT dog, coat FROM dogs ORDER BY dog") == [
        ("Pip", None),
        ("Rolo", "wiry"),
        ("Tux", None),
    ]


def test_an_unsaid_state_asked_again_as_the_one_the_request_says_is_that_one(kennel: ChatDB, scripted: ScriptedBackend):
    """ "Pip is in the kennel now, checked in for his July stay", read as 'collected', a state the request
    does not say; asked again, the model picks 'checked_in', which it says: that is written, not held."""
    collected = {"column": "stage", "how": "to", "value": "collected"}
    scripted.push(
        {"route": "write"},
        change([("dog", "Pip"), ("booked_from", "2024-07-10")], collected),
        {"option": "set stage to 'checked_in'"},
    )
    reply = kennel.ask("Pip is in the kennel now, checked in for his stay of 10 July 2024", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert stays(kennel)[1] == (2, "2024-07-10", "checked_in", 60)


def test_an_unsaid_state_asked_again_as_another_unsaid_one_waits(kennel: ChatDB, scripted: ScriptedBackend):
    """Read as 'collected', asked again as 'cancelled': neither is said, so the write waits."""
    collected = {"column": "stage", "how": "to", "value": "collected"}
    scripted.push(
        {"route": "write"},
        change([("dog", "Pip"), ("booked_from", "2024-07-10")], collected),
        {"option": "set stage to 'cancelled'"},
    )
    reply = kennel.ask("Pip's stay of 10 July 2024 is over", allow_writes=True)
    assert reply.pending and scripted.remaining == 0
    assert "the request does not say which stage" in reply.answer
    assert stays(kennel)[1] == (2, "2024-07-10", "booked", 60)
