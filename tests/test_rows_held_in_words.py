"""A kept row named by the words of its label rather than its code ("5kg puppy kibble" for the feed labelled
'5 kg puppy kibble', coded 'FD-05'): the one row whose names hold every word and number the request says,
its table's noun aside. Real DuckDB, the scripted model."""

from __future__ import annotations

import datetime as dt

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.row_changes import Unanswerable, change_write, parse_reading
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

KENNEL = """
CREATE TABLE feed_store (
    feed_code VARCHAR PRIMARY KEY,
    feed_label VARCHAR NOT NULL UNIQUE,
    bag_kg INTEGER NOT NULL,
    kind VARCHAR NOT NULL CHECK (kind IN ('dry', 'wet')),
    bags_ready INTEGER NOT NULL
);
CREATE TABLE feedings (dog VARCHAR NOT NULL, feed_code VARCHAR NOT NULL REFERENCES feed_store (feed_code),
                       fed_on DATE NOT NULL, bags INTEGER NOT NULL);
INSERT INTO feed_store VALUES ('FD-05', '5 kg puppy kibble', 5, 'dry', 8), ('FD-15', '15 kg puppy kibble', 15, 'dry', 3),
    ('WT-01', '1 kg senior stew', 1, 'wet', 12);
INSERT INTO feedings VALUES ('Rusk', 'FD-15', DATE '2025-02-01', 1), ('Rusk', 'WT-01', DATE '2025-02-01', 2);
"""


def added(feed: str, bags: str = "4") -> dict:
    return {
        "does": "change",
        "table": "feed_store",
        "which": [{"column": "feed_code", "value": feed}],
        "set": [{"column": "bags_ready", "how": "add", "value": bags}],
    }


@pytest.fixture
def kennel(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=KENNEL, summarize=False)
    yield chatdb
    chatdb.close()


def test_a_row_named_by_the_words_of_its_label_is_the_one_changed(kennel: ChatDB, scripted: ScriptedBackend):
    scripted.push({"route": "write"}, added("5kg puppy kibbles"))
    reply = kennel.ask("2025-03-02 | delivery | 5kg puppy kibbles | 4 more in", allow_writes=True)
    assert not reply.pending
    assert kennel.session.rows("SELECT feed_code, bags_ready FROM feed_store ORDER BY 1") == [
        ("FD-05", 12),
        ("FD-15", 3),
        ("WT-01", 12),
    ]


def write(kennel: ChatDB, reading: dict, text: str):
    shapes = shapes_of(kennel.session, Catalog.read(kennel.session))
    stored = StoredRows(kennel.session)
    return change_write(parse_reading(reading), shapes, stored, text, dt.date(2025, 3, 2))


def test_words_that_fit_several_rows_or_that_the_request_does_not_say_name_none(kennel: ChatDB):
    # both kibbles hold "puppy kibble": no one row is named
    with pytest.raises(Unanswerable):
        write(kennel, added("puppy kibble"), "2025-03-02 | delivery | puppy kibble | 4 more in")
    # the model's words, not the request's ("5kg" is not said): no row is named by them
    with pytest.raises(Unanswerable):
        write(kennel, added("5kg puppy kibbles"), "2025-03-02 | delivery | the small kibble | 4 more in")
    # a number no label holds is not set aside: "7kg" names no kibble
    with pytest.raises(Unanswerable):
        write(kennel, added("7kg puppy kibble"), "2025-03-02 | delivery | 7kg puppy kibble | 4 more in")
    # the table's own noun alone names nothing
    with pytest.raises(Unanswerable):
        write(kennel, added("feed"), "2025-03-02 | delivery | feed | 4 more in")


def test_a_reference_named_by_the_words_of_its_label_is_the_row_it_refers_to(kennel: ChatDB):
    """Rusk's feeding of "senior stews" is named by the feed it refers to, said by its label's words."""
    reading = {
        "does": "change",
        "table": "feedings",
        "which": [{"column": "dog", "value": "Rusk"}, {"column": "feed_code", "value": "senior stews"}],
        "set": [{"column": "bags", "how": "add", "value": "1"}],
    }
    written = write(kennel, reading, "Rusk got 1 more tin of senior stews on 1 Feb 2025")
    assert "WT-01" in written.params.values() and "FD-15" not in written.params.values()
