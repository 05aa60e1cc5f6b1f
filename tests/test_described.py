"""Kept rows a request describes by a row they refer to ("Ola Berg's sea kayak"): found before the change
call, and shown to it by their key (`recording/described.py`). Real DuckDB, scripted model, on an
invented kayak repair shop."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.described import rows_described
from jupyter_chatdb.recording.named_rows import NamedRow
from jupyter_chatdb.recording.owning_table import on_the_table_named
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.row_changes import Pick, Reading, parse_reading
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

KAYAKS = """
CREATE SEQUENCE repair_seq START 4;
CREATE TABLE owners (owner_name VARCHAR PRIMARY KEY);
CREATE TABLE kayaks (kayak_code VARCHAR PRIMARY KEY, owner_name VARCHAR NOT NULL REFERENCES owners (owner_name),
                     kind VARCHAR NOT NULL CHECK (kind IN ('sea', 'river')));
CREATE TABLE repairs (repair_no INTEGER PRIMARY KEY DEFAULT nextval('repair_seq'),
                      kayak_code VARCHAR NOT NULL REFERENCES kayaks (kayak_code),
                      state VARCHAR NOT NULL CHECK (state IN ('waiting', 'done')),
                      cost DECIMAL(6, 2) NOT NULL DEFAULT 20);
CREATE TABLE payments (repair_no INTEGER NOT NULL REFERENCES repairs (repair_no), paid_on DATE NOT NULL,
                       amount DECIMAL(6, 2) NOT NULL);
INSERT INTO owners VALUES ('Ola Berg'), ('Kai Moe');
INSERT INTO kayaks VALUES ('KY-1', 'Ola Berg', 'sea'), ('KY-2', 'Ola Berg', 'river'), ('KY-3', 'Kai Moe', 'river');
INSERT INTO repairs (repair_no, kayak_code, state) VALUES (1, 'KY-1', 'waiting'), (2, 'KY-2', 'waiting'), (3, 'KY-3', 'waiting');
"""


def described_in(chatdb: ChatDB, text: str) -> list[NamedRow]:
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))
    return rows_described(text, shapes, StoredRows(chatdb.session))


def test_a_row_described_by_its_owner_and_a_listed_value_is_found_by_its_key(scripted: ScriptedBackend):
    """The shortest words before the noun that fit one row: the owner's one kayak, or the one of the kind
    said. Two kayaks of one owner, a description in another clause, or no noun, name nothing."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    assert described_in(chatdb, "Took Ola Berg's sea kayak out on 2024-07-01") == [
        NamedRow("kayaks", "kayak_code", "KY-1", "Ola Berg's sea kayak")
    ]
    assert described_in(chatdb, "repair | Kai Moe's old kayaks | done") == [
        NamedRow("kayaks", "kayak_code", "KY-3", "Kai Moe's old kayaks")
    ]
    assert described_in(chatdb, "Ola Berg's kayak is done") == []
    assert described_in(chatdb, "Ola Berg, sea kayak done") == []  # the owner is in another clause
    assert described_in(chatdb, "Kai Moe paid for the repair") == []
    chatdb.close()


def test_the_change_call_is_shown_the_described_row_by_its_key(scripted: ScriptedBackend):
    """Named by its key in the prompt, the kayak is named so in the reading, and its repair is changed."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    done = {"column": "state", "how": "to", "value": "done"}
    reading = {
        "does": "change",
        "table": "repairs",
        "which": [{"column": "kayak_code", "value": "KY-1"}],
        "set": [done],
    }
    scripted.push({"route": "write"}, reading)
    reply = chatdb.ask("2024-07-01 | repair done | Ola Berg's sea kayak", allow_writes=True)
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "kayaks kayak_code 'KY-1' (said: Ola Berg's sea kayak)" in prompt
    assert not reply.pending
    assert chatdb.session.rows("SELECT repair_no, state FROM repairs ORDER BY 1") == [
        (1, "done"),
        (2, "waiting"),
        (3, "waiting"),
    ]
    chatdb.close()


def test_a_new_rows_reference_to_a_row_the_request_does_not_name_waits(scripted: ScriptedBackend):
    """A new repair read with a kayak the request never names (the list's first) waits, saying so; one
    named by its code, or described by its owner, is written."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    adds = {"does": "add", "table": "repairs", "which": [], "set": []}
    cases = [
        ("new repair | Kai Moe's kayak | waiting", "KY-3", False),
        ("new repair | KY-2 | waiting", "KY-2", False),
        ("new repair | the red one | waiting", "KY-1", True),
    ]
    for request, kayak, waits in cases:
        scripted.push({"route": "write"}, adds, {"repairs": [{"kayak_code": kayak, "state": "waiting"}]})
        reply = chatdb.ask(request, allow_writes=True)
        assert reply.pending is waits, request
    assert "repairs.kayak_code = 'KY-1': the request names no such kayaks row" in reply.answer
    assert chatdb.session.rows("SELECT repair_no, kayak_code FROM repairs WHERE repair_no > 3 ORDER BY 1") == [
        (4, "KY-3"),
        (5, "KY-2"),
    ]
    chatdb.close()


def test_a_new_rows_reference_given_as_the_description_of_a_kept_row_is_that_rows_key(scripted: ScriptedBackend):
    """The model copies the request's description into the new repair's kayak: the one kayak it describes
    is the one referred to, whether kayaks are few enough to be listed or not."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    adds = {"does": "add", "table": "repairs", "which": [], "set": []}
    read = {"repairs": [{"kayak_code": "Ola Berg's river kayak", "state": "waiting"}]}
    scripted.push(adds, read)
    reply = chatdb.ask("new repair\nkayak: Ola Berg's river kayak\nstate: waiting", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows("SELECT kayak_code, state FROM repairs WHERE repair_no > 3") == [("KY-2", "waiting")]
    chatdb.close()
    many = KAYAKS + "".join(f"INSERT INTO kayaks VALUES ('KY-{n}', 'Kai Moe', 'sea');\n" for n in range(4, 16))
    chatdb = ChatDB(model=scripted, schema=many, summarize=False)  # too many kayaks to list: found by code
    scripted.push(adds, read)
    reply = chatdb.ask("new repair\nkayak: Ola Berg's river kayak\nstate: waiting", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows("SELECT kayak_code, state FROM repairs WHERE repair_no > 3") == [("KY-2", "waiting")]
    chatdb.close()


def test_a_change_read_on_a_table_lacking_its_columns_is_the_change_of_the_row_described(scripted: ScriptedBackend):
    """'Ola Berg's sea kayak | cost up by 10' read on the payments, which have no cost: the one table with
    a cost is the repairs, and the request names its row by the kayak described."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    on_payments = {
        "does": "change",
        "table": "payments",
        "which": [{"column": "paid_on", "value": "2024-07-03"}],
        "set": [{"column": "cost", "how": "add", "value": "10"}],
    }
    scripted.push({"route": "write"}, on_payments)
    reply = chatdb.ask("2024-07-03 | cost | Ola Berg's sea kayak | up by 10", allow_writes=True)
    assert not reply.pending
    assert chatdb.session.rows("SELECT repair_no, cost FROM repairs ORDER BY 1") == [(1, 30), (2, 20), (3, 20)]
    chatdb.close()


def test_a_change_on_the_table_having_its_columns_needs_one_row_named_per_column(scripted: ScriptedBackend):
    """Two kayaks named: no one repair is meant, and the reading is left as it was; none named, likewise."""
    chatdb = ChatDB(model=scripted, schema=KAYAKS, summarize=False)
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))
    reading = parse_reading(
        {
            "does": "change",
            "table": "payments",
            "which": [],
            "set": [{"column": "cost", "how": "add", "value": "10"}],
        }
    )
    one = [NamedRow("kayaks", "kayak_code", "KY-1", "Ola Berg's sea kayak")]
    two = [*one, NamedRow("kayaks", "kayak_code", "KY-3", "Kai Moe's kayak")]
    on_repairs = Reading("change", "repairs", (Pick("kayak_code", "KY-1"),), reading.settings)
    assert on_the_table_named(reading, shapes, one) == on_repairs
    assert on_the_table_named(reading, shapes, two) is None
    assert on_the_table_named(reading, shapes, []) is None
    chatdb.close()


FLASKS = """
CREATE TABLE flasks (flask_code VARCHAR PRIMARY KEY, flask_name VARCHAR NOT NULL);
CREATE TABLE flask_orders (buyer VARCHAR NOT NULL, flask_code VARCHAR NOT NULL REFERENCES flasks (flask_code),
                           flasks INTEGER NOT NULL);
INSERT INTO flasks VALUES ('FL-250', '250 ml steel flask'), ('FL-500', '500 ml steel flask'), ('FL-750', 'tall flask');
"""


def test_a_new_rows_reference_named_by_the_number_in_its_code_is_written(scripted: ScriptedBackend):
    """ "250ml flasks" names the flask coded 'FL-250', whose number no other flask's code holds. A number
    the request gives as a count ("flasks: 25") or in a day names none."""
    chatdb = ChatDB(model=scripted, schema=FLASKS, summarize=False)
    cases = [
        ("order | Ana Puig | 250ml flasks: 3", "FL-250", 3, False),
        ("order | Ana Puig | flasks: 25", "FL-500", 25, True),
        ("order 2024-05-25 | Ana Puig | flasks: 2", "FL-250", 2, True),
    ]
    adds = {"does": "add", "table": "flask_orders", "which": [], "set": []}
    for number, (request, flask, count, waits) in enumerate(cases):
        row = {"buyer": "Ana Puig", "flask_code": flask, "flasks": count}
        read = [adds] if number else []  # Ana Puig is kept after the first order: the change call is asked
        scripted.push({"route": "write"}, *read, {"flask_orders": [row]})
        reply = chatdb.ask(request, allow_writes=True)
        assert reply.pending is waits, request
    assert "flask_orders.flask_code = 'FL-250': the request names no such flasks row" in reply.answer
    assert chatdb.session.rows("SELECT * FROM flask_orders") == [("Ana Puig", "FL-250", 3)]
    chatdb.close()


def test_a_reference_to_a_numbered_key_the_request_does_not_name_waits_and_nothing_fails(scripted: ScriptedBackend):
    """A reference whose kept key is the whole number the request gives for something else ("12 flasks",
    buyer 12) is no row the request names by its number: the write waits, and the check of codes is not
    run on a number column (DuckDB cannot search it as text)."""
    chatdb = ChatDB(
        model=scripted,
        schema="CREATE TABLE buyers (buyer_no INTEGER PRIMARY KEY, buyer_name VARCHAR NOT NULL);"
        "CREATE TABLE orders (buyer_no INTEGER NOT NULL REFERENCES buyers (buyer_no), flasks INTEGER NOT NULL);"
        "INSERT INTO buyers VALUES (12, 'Ana Puig'), (14, 'Rui Sato');",
        summarize=False,
    )
    adds = {"does": "add", "table": "orders", "which": [], "set": []}  # "12" is a kept key: the change call
    scripted.push({"route": "write"}, adds, {"orders": [{"buyer_no": "Ana Puig", "flasks": 12}]})
    reply = chatdb.ask("order: 12 flasks for the corner stall", allow_writes=True)
    assert reply.pending and "the request names no such buyers row" in reply.answer
    chatdb.close()
