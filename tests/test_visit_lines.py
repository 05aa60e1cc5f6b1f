"""Lines of a kept visit, read from a new record: each line's own price said right after its item is
written as said, not the price list's (`recording/agreement.said_after_its_item`); the lines belong to the
one kept visit on the day said, where the visit holds a moment, by the client's name where its tuner has a
name too (`facts._Writer.kept_parent`, `related.path_to`); and an entry
the model picked two ways for a value no write holds does not make the write wait
(`controller/stages/entry_picks.Doubt`). Real DuckDB, the scripted model, on an invented piano tuner."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ModelOutputError
from jupyter_chatdb.llm import ScriptedBackend

PIANO_TUNER = """
CREATE SEQUENCE client_ids START 1;
CREATE SEQUENCE call_ids START 1;
CREATE TABLE clients (client_id INTEGER PRIMARY KEY DEFAULT nextval('client_ids'), name VARCHAR UNIQUE NOT NULL,
                      piano VARCHAR NOT NULL);
CREATE TABLE tuners (tuner_id INTEGER PRIMARY KEY, name VARCHAR UNIQUE NOT NULL);
CREATE TABLE job_prices (job VARCHAR PRIMARY KEY CHECK (job IN ('tuning', 'pitch_raise', 'voicing', 'regulation')),
                         list_price DECIMAL(7, 2) NOT NULL);
CREATE TABLE calls (call_id INTEGER PRIMARY KEY DEFAULT nextval('call_ids'),
                    client_id INTEGER NOT NULL REFERENCES clients (client_id), called_at TIMESTAMP NOT NULL,
                    tuner_id INTEGER NOT NULL REFERENCES tuners (tuner_id), minutes INTEGER NOT NULL,
                    van VARCHAR NOT NULL CHECK (van IN ('north', 'south')),
                    state VARCHAR NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'done', 'missed')));
CREATE TABLE call_jobs (call_id INTEGER NOT NULL REFERENCES calls (call_id),
                        job VARCHAR NOT NULL REFERENCES job_prices (job)
                            CHECK (job IN ('tuning', 'pitch_raise', 'voicing', 'regulation')),
                        price DECIMAL(7, 2) NOT NULL);
INSERT INTO clients (name, piano) VALUES ('Noor Haddad', 'upright'), ('Elin Sato', 'grand');
INSERT INTO tuners VALUES (1, 'Ida Berg'), (2, 'Ole Dahl');
INSERT INTO job_prices VALUES ('tuning', 70), ('pitch_raise', 80), ('voicing', 65), ('regulation', 120);
INSERT INTO calls (client_id, called_at, tuner_id, minutes, van) VALUES
    (1, TIMESTAMP '2025-02-03 14:00:00', 1, 60, 'north'), (1, TIMESTAMP '2025-02-10 09:00:00', 2, 45, 'north'),
    (2, TIMESTAMP '2025-02-03 16:00:00', 2, 90, 'south');
"""

ADDS = {"does": "add", "table": "call_jobs", "which": [], "set": []}
LEAVE = {"option": "leave the calls row as it is"}  # the call's state, as the record leaves it


def test_lines_of_the_kept_call_on_the_day_said_keep_the_prices_said_after_their_items(scripted: ScriptedBackend):
    """Noor's call on 3 February (a moment, 14:00) is the one of her two calls the jobs belong to; the pitch
    raise's 90, said right after it, is its price, not the list's 80."""
    chatdb = ChatDB(model=scripted, schema=PIANO_TUNER, summarize=False)
    read = {"call_jobs": [{"job": "pitch_raise", "price": 90}, {"job": "voicing", "price": 65}]}
    scripted.push({"route": "write"}, ADDS, read, LEAVE)
    reply = chatdb.ask("Noor Haddad, 3 February 2025: pitch raise 90, voicing 65", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT call_id, job, price::DOUBLE FROM call_jobs ORDER BY job") == [
        (1, "pitch_raise", 90.0),
        (1, "voicing", 65.0),
    ]
    chatdb.close()


def test_a_price_said_after_a_longer_name_of_its_item_is_kept(scripted: ScriptedBackend):
    """ "voicing work 70" in a `key: value` line: the job's price is said after a word more of its name,
    so it is the line's own, not the list's 65 (which would leave the request's 70 unwritten)."""
    chatdb = ChatDB(model=scripted, schema=PIANO_TUNER, summarize=False)
    read = {"call_jobs": [{"job": "voicing", "price": 70}]}
    scripted.push(ADDS, read, LEAVE)
    reply = chatdb.ask("client: Elin Sato\nday: 3 February 2025\njobs: voicing work 70", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT call_id, job, price::DOUBLE FROM call_jobs") == [(3, "voicing", 70.0)]
    chatdb.close()


def test_a_price_not_said_after_its_item_is_the_lists(scripted: ScriptedBackend):
    """ "at 90" after the client's name is no price of the line's own: the list's price is taken."""
    chatdb = ChatDB(model=scripted, schema=PIANO_TUNER, summarize=False)
    read = {"call_jobs": [{"job": "pitch_raise", "price": 90}]}
    scripted.push({"route": "write"}, ADDS, read, LEAVE)
    reply = chatdb.ask("Noor Haddad, 3 February 2025, call 90 minutes: pitch raise", allow_writes=True)
    assert scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT price::DOUBLE FROM call_jobs") == ([] if reply.pending else [(80.0,)])
    chatdb.close()


def test_an_entry_picked_two_ways_for_a_value_not_written_does_not_hold_the_write(scripted: ScriptedBackend):
    """The call read beside its job names the kept call of 3 February and marks it done; its van, read as
    'unknown' and picked 'north' then 'south' asked again, is no value written (the call's van is north
    already), nor are its minutes (said by nobody: left out): the write does not wait on the van."""
    chatdb = ChatDB(model=scripted, schema=PIANO_TUNER, summarize=False)
    read = {
        "calls": [
            {
                "client": "Noor Haddad",
                "called_at": "2025-02-03 14:00:00",
                "van": "unknown",
                "state": "done",
                "minutes": 0,
            }
        ],
        "call_jobs": [{"job": "tuning", "price": 70}],
    }
    scripted.push({"route": "write"}, ADDS, read, {"value": "north"}, {"value": "south"})
    reply = chatdb.ask("Tuned Noor Haddad's upright, 2pm on 3 February 2025, done: tuning 70", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT call_id, van, state FROM calls ORDER BY call_id") == [
        (1, "north", "done"),
        (2, "north", "planned"),
        (3, "south", "planned"),
    ]
    assert chatdb.session.rows("SELECT call_id, job FROM call_jobs") == [(1, "tuning")]
    chatdb.close()


def test_lines_on_a_log_line_dated_by_the_record_belong_to_the_one_kept_call_named(scripted: ScriptedBackend):
    """ "20 February 2025 | jobs | Elin Sato | regulation 120": the day the line opens with is the
    record's, held by no call of Elin's; her one call is the one the job belongs to. Noor has two calls:
    the record's day tells neither, and code writes nothing (the plan is asked for)."""
    chatdb = ChatDB(model=scripted, schema=PIANO_TUNER, summarize=False)
    scripted.push({"route": "write"}, ADDS, {"call_jobs": [{"job": "regulation", "price": 120}]}, LEAVE)
    reply = chatdb.ask("20 February 2025 | jobs | Elin Sato | regulation 120", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT call_id, job FROM call_jobs") == [(3, "regulation")]
    scripted.push(
        {"route": "write"}, ADDS, {"call_jobs": [{"job": "voicing", "price": 65}]}, {"steps": []}, {"steps": []}
    )
    with pytest.raises(ModelOutputError):  # the plan asked for is empty: nothing is written
        chatdb.ask("20 February 2025 | jobs | Noor Haddad | voicing 65", allow_writes=True)
    assert chatdb.session.rows("SELECT call_id, job FROM call_jobs") == [(3, "regulation")]
    chatdb.close()
