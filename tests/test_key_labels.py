"""Showing a label instead of a key never changes what a read returns: real DuckDB, invented hounds.

Two hounds share a name (Aria, hounds 2 and 7), so a rewrite that groups, de-duplicates, orders or filters
by the label instead of the key shows other rows than the read as written."""

from __future__ import annotations

import pandas as pd
import pytest
from sqlglot import exp

from jupyter_chatdb import ChatDB
from jupyter_chatdb.grounding.labels import label_column
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.column_owners import Link
from jupyter_chatdb.sql.key_labels import labels_for_keys
from jupyter_chatdb.sql.session import Session
from jupyter_chatdb.sql.trees import parse, written

NAMES = ["Bramble", "Aria", "Cobble", "Dusk", "Ember", "Fable", "Aria", "Gorse", "Hazel", "Ivy"]
HOUNDS = pd.DataFrame({"hound_id": range(1, 11), "name": NAMES})
GROOMS = pd.DataFrame(
    {
        "groom_no": range(1, 15),
        "hound_id": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 3, 3, 10],
        "day": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    }
)
LINKS = [Link("grooms", ("hound_id",), "hounds", ("hound_id",))]
JOINED = "FROM grooms AS g JOIN hounds AS h ON g.hound_id = h.hound_id"


@pytest.fixture
def kennel() -> Session:
    session = Session()
    session.bind("hounds", HOUNDS)
    session.bind("grooms", GROOMS)
    yield session
    session.close()


def relabelled(session: Session, sql: str) -> exp.Expr | None:
    """The read with each hound shown by its name, which repeats (what a label chosen from nearly
    distinct values gave)."""
    schema = Catalog.read(session, samples=0).schema()
    return labels_for_keys(parse(sql)[0], schema, lambda: LINKS, lambda table: "name", lambda c, t: False)


def assert_same_rows(session: Session, sql: str, fixed: exp.Expr) -> None:
    """The relabelled read returns as many rows as the read as written, with the same values in every
    column it did not relabel."""
    before, after = session.rows(sql), session.rows(written(fixed))
    assert len(after) == len(before), written(fixed)
    given = parse(sql)[0].expressions
    for i, (old, new) in enumerate(zip(given, fixed.expressions)):
        if old.sql() == new.sql():
            assert sorted(map(repr, (row[i] for row in after))) == sorted(map(repr, (row[i] for row in before)))


# each read, and whether it may still show the name (its rows cannot change)
READS = {
    "grouped by position": (f"SELECT g.hound_id, count(*) AS grooms {JOINED} GROUP BY 1", False),
    "grouped by all": (f"SELECT g.hound_id, count(*) AS grooms {JOINED} GROUP BY ALL", False),
    "distinct": (f"SELECT DISTINCT g.hound_id {JOINED}", False),
    "grouped by its alias, having": (
        f"SELECT g.hound_id AS hound, count(*) AS grooms {JOINED} GROUP BY hound HAVING count(*) > 1",
        False,
    ),
    "union": (
        f"SELECT g.hound_id {JOINED} WHERE g.day = 'Tue' UNION SELECT g.hound_id {JOINED} WHERE g.day = 'Sun'",
        False,
    ),
    "ordered by position, limited": (f"SELECT g.hound_id, g.day {JOINED} ORDER BY 1, 2 LIMIT 3", False),
    "ordered by its alias, limited": (
        f"SELECT g.hound_id AS hound, g.day {JOINED} ORDER BY hound, g.day LIMIT 3",
        False,
    ),
    "filtered by its alias": (f"SELECT g.hound_id AS hound, g.day {JOINED} WHERE hound < 3", False),
    "grouped by the key, having": (
        f"SELECT g.hound_id, count(*) AS grooms {JOINED} GROUP BY g.hound_id HAVING count(*) > 1",
        True,
    ),
    "grouped by the key": (f"SELECT g.hound_id AS hound, count(*) AS grooms {JOINED} GROUP BY g.hound_id", True),
    "ordered by the key, limited": (f"SELECT g.hound_id, g.day {JOINED} ORDER BY g.hound_id, g.day LIMIT 3", True),
    "shown as it is": (f"SELECT g.groom_no, g.hound_id {JOINED}", True),
}


@pytest.mark.parametrize("sql, relabels", READS.values(), ids=READS.keys())
def test_a_relabelled_read_returns_the_rows_of_the_read_as_written(kennel, sql, relabels):
    fixed = relabelled(kennel, sql)
    assert (fixed is not None) == relabels
    if fixed is not None:
        assert_same_rows(kennel, sql, fixed)


def labelled(session: Session, table: str, frame: pd.DataFrame) -> str | None:
    session.bind(table, frame)
    return label_column(Catalog.read(session, samples=0), session, table)


def test_a_unique_name_held_by_every_row_is_the_label(kennel):
    frame = pd.DataFrame(
        {"kite_id": [1, 2, 3], "colour": ["red", "red", "blue"], "kite_name": ["Gale", "Wisp", "Zephyr"]}
    )
    assert labelled(kennel, "kites", frame) == "kite_name"


def test_a_name_two_rows_share_is_no_label(kennel):
    assert label_column(Catalog.read(kennel, samples=0), kennel, "hounds") is None


def test_a_column_that_looks_like_a_secret_is_no_label(kennel):
    tokens = [f"tok-{n:04x}" for n in range(10)]
    frame = pd.DataFrame({"hive_id": range(10), "api_token": tokens, "passwordHash": tokens, "salt": tokens})
    assert labelled(kennel, "hives", frame) is None


def test_a_column_mostly_null_is_no_label(kennel):
    titles = ["Swift", "Osprey", "Merlin"] + [None] * 17
    frame = pd.DataFrame({"ferry_id": range(20), "title": titles})
    assert labelled(kennel, "ferries", frame) is None


def test_a_read_grouped_by_position_keeps_each_hound_apart(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register("hounds", HOUNDS)
    chatdb.register("grooms", GROOMS)
    scripted.push(f"SELECT g.hound_id, count(*) AS grooms {JOINED} GROUP BY 1 ORDER BY 1")
    try:
        reply = chatdb.ask("How many grooms did each hound have?")
    finally:
        chatdb.close()
    assert len(reply.result) == 10
    assert reply.result["grooms"].tolist() == [2, 1, 3, 1, 1, 1, 1, 1, 1, 2]
