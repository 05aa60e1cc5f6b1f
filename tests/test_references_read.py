"""References the reading gets wrong where the request settles them: a number of something else read as
the thing's code (`named_reference.named_for_what_names_nothing`), the row a value is copied from read
among the rows changed (`row_changes._without_the_row_copied_from`), and a kept row named for a line the
reading left out (`from_facts._named_rows_left`). Real DuckDB, the scripted model, on an invented
costume hire."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import Event, FactsNotUsed
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.scripted import ScriptExhausted

COSTUMES = """
CREATE SEQUENCE customer_ids START 10;
CREATE SEQUENCE hire_ids START 1;
CREATE TABLE costumes (costume_code VARCHAR PRIMARY KEY, title VARCHAR UNIQUE NOT NULL,
                       size VARCHAR NOT NULL CHECK (size IN ('S', 'M', 'L')));
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY DEFAULT nextval('customer_ids'),
                        name VARCHAR UNIQUE NOT NULL, phone VARCHAR);
CREATE TABLE hires (hire_id INTEGER PRIMARY KEY DEFAULT nextval('hire_ids'),
                    customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
                    costume_code VARCHAR NOT NULL REFERENCES costumes (costume_code),
                    hired_on DATE NOT NULL, back_on DATE);
INSERT INTO costumes VALUES ('C-101', 'Pirate Captain', 'M'), ('C-102', 'Snow Queen', 'S'),
                            ('C-103', 'Night Owl', 'L'), {more};
INSERT INTO customers (customer_id, name, phone) VALUES (1, 'Ines Vale', '0301 1111'), (2, 'Paul Roy', '0301 2222');
""".format(  # more costumes than a list of kinds holds: named by what the request says, not picked
    more=", ".join(f"('C-{n}', 'Plain costume {n}', 'M')" for n in range(104, 118))
)


def test_a_number_read_as_a_code_that_names_nothing_is_the_costume_the_request_names(scripted: ScriptedBackend):
    """The words "for 5 days" read as the costume coded '5', which no costume is: the hire is of 'Pirate Captain', the
    one costume the request names."""
    chatdb = ChatDB(model=scripted, schema=COSTUMES, summarize=False)
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {"hires": [{"customer": "Paul Roy", "costume_code": "5", "hired_on": "2025-05-03"}]}
    scripted.push({"route": "write"}, adds, read)
    reply = chatdb.ask('Paul Roy took "Pirate Captain" out on 3 May 2025 for 5 days', allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT customer_id, costume_code, CAST(hired_on AS VARCHAR) FROM hires") == [
        (2, "C-101", "2025-05-03")
    ]
    chatdb.close()


def test_a_number_is_not_swapped_where_the_request_names_two_costumes(scripted: ScriptedBackend):
    """Two costumes named: which one the '5' stands for is not the request's to say; the reading is not
    written (the plan is asked instead, which this script does not answer)."""
    chatdb = ChatDB(model=scripted, schema=COSTUMES, summarize=False)
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {"hires": [{"customer": "Paul Roy", "costume_code": "5", "hired_on": "2025-05-03"}]}
    scripted.push({"route": "write"}, adds, read)
    not_used: list[str] = []

    def seen(event: Event) -> None:
        if isinstance(event, FactsNotUsed):
            not_used.append(event.reason)

    with pytest.raises(ScriptExhausted):
        chatdb.ask(
            'Paul Roy took "Pirate Captain" or "Snow Queen" out on 3 May 2025 for 5 days',
            allow_writes=True,
            on_event=seen,
        )
    assert not_used == ["no costumes row is named '5'"]
    assert chatdb.session.rows("SELECT count(*) FROM hires") == [(0,)]
    chatdb.close()


def test_a_value_copied_from_another_row_changes_only_the_row_it_is_copied_to(scripted: ScriptedBackend):
    """The request "Ines Vale uses Paul Roy's phone from now on" read as changing the customer named both Ines and
    Paul, copying from Paul: Ines's phone is Paul's, Paul's is as it was."""
    chatdb = ChatDB(model=scripted, schema=COSTUMES, summarize=False)
    change = {
        "does": "change",
        "table": "customers",
        "which": [{"column": "name", "value": "Ines Vale"}, {"column": "name", "value": "Paul Roy"}],
        "set": [{"column": "phone", "how": "copy", "value": "", "from": [{"column": "name", "value": "Paul Roy"}]}],
    }
    scripted.push({"route": "write"}, change)
    reply = chatdb.ask("Ines Vale uses Paul Roy's phone from now on: copy his number onto hers.", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT name, phone FROM customers ORDER BY name") == [
        ("Ines Vale", "0301 2222"),
        ("Paul Roy", "0301 2222"),
    ]
    chatdb.close()


def test_a_new_customer_read_without_the_hire_it_names_is_read_again_for_it(scripted: ScriptedBackend):
    """A new customer and a first hire of a kept costume, read as the customer alone: read once more for
    the customer's rows, the hire of 'Night Owl' is written too."""
    chatdb = ChatDB(model=scripted, schema=COSTUMES, summarize=False)
    adds = {"does": "add", "table": "customers", "which": [], "set": []}
    alone = {"customers": [{"name": "Mira Holt", "phone": "0301 4471"}]}
    both = {
        "customers": [{"name": "Mira Holt", "phone": "0301 4471"}],
        "hires": [{"customer": "Mira Holt", "costume_code": "Night Owl", "hired_on": "2025-05-04"}],
    }
    scripted.push(adds, alone, both)  # a record of `key: value` lines: routed as a write by code
    text = "new customer\nname: Mira Holt\nphone: 0301 4471\nhiring today: Night Owl\nfrom: 2025-05-04"
    reply = chatdb.ask(text, allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT name FROM customers WHERE customer_id = 10") == [("Mira Holt",)]
    assert chatdb.session.rows("SELECT customer_id, costume_code FROM hires") == [(10, "C-103")]
    chatdb.close()


def test_a_new_customer_naming_no_kept_row_is_not_read_again(scripted: ScriptedBackend):
    """A new customer whose record names no kept costume: one reading, as before."""
    chatdb = ChatDB(model=scripted, schema=COSTUMES, summarize=False)
    scripted.push({"customers": [{"name": "Mira Holt", "phone": "0301 4471"}]})  # names no kept row: no change read
    reply = chatdb.ask("new customer\nname: Mira Holt\nphone: 0301 4471", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT count(*) FROM hires") == [(0,)]
    chatdb.close()
