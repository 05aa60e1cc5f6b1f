"""A new row's reference to a kept row the request names only by what it means or by its number
(`controller/stages/entry_picks.references_given`, `recording/named_rows.py`). Real DuckDB, the
scripted model, on an invented rowing club and marina."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

ROWING = """
CREATE TABLE grades (grade VARCHAR PRIMARY KEY CHECK (grade IN ('novice', 'club', 'elite')),
                     yearly_fee DECIMAL(6, 2) NOT NULL);
CREATE TABLE rowers (rower_name VARCHAR PRIMARY KEY,
                     grade VARCHAR NOT NULL REFERENCES grades (grade) CHECK (grade IN ('novice', 'club', 'elite')),
                     joined_on DATE NOT NULL);
INSERT INTO grades VALUES ('novice', 80), ('club', 150), ('elite', 240);
INSERT INTO rowers VALUES ('Ada Lund', 'club', DATE '2024-01-10');
"""

MARINA = """
CREATE TABLE berths (berth_code VARCHAR PRIMARY KEY, label VARCHAR NOT NULL);
CREATE TABLE stays (boat VARCHAR NOT NULL, berth_code VARCHAR NOT NULL REFERENCES berths (berth_code),
                    nights INTEGER NOT NULL);
INSERT INTO berths VALUES ('B1', 'pontoon end'), ('B2', 'pontoon end'), ('B3', 'river side'), ('B4', 'crane bay');
"""


def test_a_listed_reference_said_by_its_meaning_is_written_when_asked_again_it_is_the_same(
    scripted: ScriptedBackend,
):
    """'novice' for "just starting out": the grades row is named by no word of the request, so the model is
    asked which grade the request gives, the list each way round; the same grade both times writes the row,
    and another grade either time makes it wait, saying what it read asked again."""
    chatdb = ChatDB(model=scripted, schema=ROWING, summarize=False)
    read = {"rowers": [{"rower_name": "Bo Falk", "grade": "novice", "joined_on": "2024-03-02"}]}
    scripted.push({"route": "write"}, read, {"value": "novice"}, {"value": "novice"})
    reply = chatdb.ask("Bo Falk joined on 2024-03-02, just starting out", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    asked = [call.messages[-1]["content"] for call in scripted.calls[-2:]]
    assert all("Bo Falk joined" in prompt and "- elite" in prompt for prompt in asked)
    assert "novice" not in scripted.calls[-1].messages[0]["content"]  # asked without the grade read
    read = {"rowers": [{"rower_name": "Cy Dahl", "grade": "elite", "joined_on": "2024-03-03"}]}
    scripted.push({"route": "write"}, read, {"value": "club"}, {"value": "elite"})
    reply = chatdb.ask("Cy Dahl joined on 2024-03-03, an ordinary member", allow_writes=True)
    assert reply.pending and scripted.remaining == 0
    assert (
        "rowers.grade = 'elite': the request names no such grades row, and asked again it reads 'club' and 'elite'"
        in (reply.answer)
    )
    assert chatdb.session.rows("SELECT rower_name, grade FROM rowers ORDER BY 1") == [
        ("Ada Lund", "club"),
        ("Bo Falk", "novice"),
    ]
    chatdb.close()


def test_a_reference_given_as_a_key_and_a_number_is_the_row_of_that_number(scripted: ScriptedBackend):
    """ "berth: 4" on a line of its own names 'B4', the one berth whose code holds 4 and the table's noun
    its key, as "berth 4" in a sentence does; a berth read that the request does not give is the one it
    names ("berth: 3", read as 'B4'). (A berth it names none of waits: `test_described.py`.)"""
    chatdb = ChatDB(model=scripted, schema=MARINA, summarize=False)
    cases = [
        ("new stay\nboat: Sea Wren\nberth: 4\nnights: 2", ("Sea Wren", "B4", 2)),
        ("new stay\nboat: Puffin\nberth: 3\nnights: 4", ("Puffin", "B4", 4)),
    ]
    adds = {"does": "add", "table": "stays", "which": [], "set": []}  # `key: value` lines: no route call
    for request, (boat, berth, nights) in cases:
        scripted.push(adds, {"stays": [{"boat": boat, "berth_code": berth, "nights": nights}]})
        reply = chatdb.ask(request, allow_writes=True)
        assert not reply.pending and scripted.remaining == 0, request
    assert chatdb.session.rows("SELECT boat, berth_code, nights FROM stays ORDER BY 1") == [
        ("Puffin", "B3", 4),
        ("Sea Wren", "B4", 2),
    ]
    chatdb.close()


GROOMING = """
CREATE TABLE grooms (dog VARCHAR NOT NULL, groomed_on DATE NOT NULL,
                     finish VARCHAR NOT NULL DEFAULT 'plain' CHECK (finish IN ('plain', 'trimmed', 'show cut')));
"""


def test_words_for_a_listed_column_with_a_default_picked_two_ways_wait(scripted: ScriptedBackend):
    """The words "a tidy-up" for a groom's finish, a column with a default: the model picks 'trimmed', and with the
    list the other way round 'show cut'. A guess, not a reading: the write waits, saying so."""
    chatdb = ChatDB(model=scripted, schema=GROOMING, summarize=False)
    read = {"grooms": [{"dog": "Rex", "groomed_on": "2025-04-02", "finish": "a tidy-up"}]}
    scripted.push({"route": "write"}, read, {"value": "trimmed"}, {"value": "show cut"})
    reply = chatdb.ask("Rex was groomed on 2025-04-02, a tidy-up", allow_writes=True)
    assert reply.pending and scripted.remaining == 0
    assert "'a tidy-up' was read as 'trimmed', and as 'show cut' asked again" in reply.answer
    assert chatdb.session.rows("SELECT count(*) FROM grooms") == [(0,)]
    chatdb.close()


def test_words_for_a_listed_column_with_a_default_picked_the_same_both_ways_are_written(scripted: ScriptedBackend):
    """The same pick with the list each way round (the words kept offered last both times): written."""
    chatdb = ChatDB(model=scripted, schema=GROOMING, summarize=False)
    read = {"grooms": [{"dog": "Rex", "groomed_on": "2025-04-02", "finish": "a tidy-up"}]}
    scripted.push({"route": "write"}, read, {"value": "trimmed"}, {"value": "trimmed"})
    reply = chatdb.ask("Rex was groomed on 2025-04-02, a tidy-up", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    offered = [call.json_schema["properties"]["value"]["enum"] for call in scripted.calls[-2:]]
    assert offered == [["plain", "trimmed", "show cut", "a tidy-up"], ["show cut", "trimmed", "plain", "a tidy-up"]]
    assert chatdb.session.rows("SELECT dog, finish FROM grooms") == [("Rex", "trimmed")]
    chatdb.close()
