"""Frames that repeat another table's rows (`grounding/copies.py`): found without a query per pair of
tables, kept per version of the tables, and the same copies as comparing every pair row by row (real
DuckDB; the session counts its queries)."""

from __future__ import annotations

import pandas as pd

from jupyter_chatdb.grounding.copies import Copies, copies, copies_pair_by_pair
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session


class CountingSession(Session):
    """A real session that counts the queries `rows` runs (those `copies` asks)."""

    def __init__(self) -> None:
        super().__init__()
        self.queries = 0

    def rows(self, sql: str, params: list[object] | None = None) -> list[tuple]:
        self.queries += 1
        return super().rows(sql, params)


def months(count: int) -> dict[str, pd.DataFrame]:
    """A kite shop's orders, one frame per month, each month one order more than the one before."""
    return {
        f"orders_{month:03}": pd.DataFrame(
            {
                "day": [f"m{month}-d{day}" for day in range(month + 2)],
                "kite": ["Aria", "Bolt", "Cirrus"][month % 3 : month % 3 + 1] * (month + 2),
                "kg": [round(0.5 + day * 0.25, 2) for day in range(month + 2)],
            }
        )
        for month in range(count)
    }


def read(session: CountingSession) -> Catalog:
    catalog = Catalog.read(session, samples=0)
    session.queries = 0
    return catalog


def test_many_frames_are_compared_without_a_query_per_pair():
    session = CountingSession()
    frames = months(30)
    frames["heavy"] = frames["orders_020"][frames["orders_020"].kg > 3]  # a scratch slice: the one copy
    for name, frame in frames.items():
        session.bind(name, frame)
    catalog = read(session)
    assert copies(session, catalog) == {"heavy": "orders_020"}
    assert session.queries <= 2 * len(frames)  # a sample per frame, a look-up per table; was 465 pairs


def test_a_read_over_frames_that_did_not_change_asks_nothing_of_the_data():
    session, found = CountingSession(), Copies()
    frames = months(12)
    frames["light"] = frames["orders_009"].head(3)
    for name, frame in frames.items():
        session.bind(name, frame)
    catalog = read(session)
    assert found.find(session, catalog) == {"light": "orders_009"}
    session.queries = 0
    assert found.find(session, catalog) == {"light": "orders_009"}
    assert session.queries == 0


def test_a_frame_changed_under_its_name_or_in_place_is_found_anew():
    session, found = Session(), Copies()
    kites = pd.DataFrame({"name": ["Aria", "Bolt", "Cirrus"], "span": [2, 5, 3]})
    wide = kites[kites.span > 2].copy()
    session.bind("kites", kites)
    session.bind("wide", wide)
    assert found.find(session, Catalog.read(session)) == {"wide": "kites"}
    session.bind("wide", pd.DataFrame({"name": ["Bolt", "Dart"], "span": [5, 4]}))  # another object, same size
    assert found.find(session, Catalog.read(session)) == {}
    session.bind("wide", wide)
    assert found.find(session, Catalog.read(session)) == {"wide": "kites"}
    kites.loc[1, "span"] = 6  # in place, then bound again (as each cell binds the notebook's frames)
    session.bind("kites", kites)
    assert found.find(session, Catalog.read(session)) == {}


def test_a_stored_table_written_since_is_compared_again():
    session, found = Session(), Copies()
    session.run("CREATE TABLE hives (yard VARCHAR, frames INTEGER)")
    session.run("INSERT INTO hives VALUES ('north', 8), ('south', 10), ('east', 6)")
    session.bind("full", pd.DataFrame({"yard": ["south"], "frames": [10]}).astype({"frames": "int32"}))
    assert found.find(session, Catalog.read(session)) == {"full": "hives"}
    session.run("UPDATE hives SET frames = 12 WHERE yard = 'south'")  # as many rows as before
    assert found.find(session, Catalog.read(session)) == {}


def test_the_same_copies_as_comparing_every_pair_row_by_row():
    session = Session()
    session.run("CREATE TABLE hounds (name VARCHAR, breed VARCHAR, age INTEGER)")
    session.run("INSERT INTO hounds VALUES ('Rex', 'beagle', 3), ('Moss', NULL, 5), ('Rex', 'beagle', 3)")
    hounds = pd.DataFrame({"name": ["Rex", "Moss", "Ivy", "Ivy"], "breed": ["beagle", None, "pointer", "pointer"]})
    frames = {
        "twice": hounds.iloc[[2, 3]],  # a row twice, held twice: a copy
        "thrice": hounds.iloc[[2, 3, 3]],  # a row three times, held twice: not a copy
        "nulls": hounds.iloc[[1]],  # a missing breed matches a missing breed
        "upper": hounds.rename(columns={"name": "NAME"}).iloc[[0, 1]][["breed", "NAME"]],  # case and order
        "stored": pd.DataFrame({"name": ["Moss", "Rex"], "age": pd.array([5, 3], dtype="int32")}),  # of hounds
        "ages": pd.DataFrame({"name": ["Rex"], "age": [3]}),  # BIGINT: not hounds' INTEGER
        "none": hounds.iloc[[]],  # no rows: held by any table of its columns
        "floats": pd.DataFrame({"name": ["a", "b"], "w": [0.0, float("nan")]}),
        "zeros": pd.DataFrame({"name": ["a"], "w": [-0.0]}),
        "other": pd.DataFrame({"name": ["Rex", "Zed"], "breed": ["beagle", "collie"]}),
        "kites": pd.DataFrame({"name": [f"k{i}" for i in range(200)], "kg": [i * 0.5 for i in range(200)]}),
    }
    frames["most"] = frames["kites"].iloc[:150]  # more rows than a sample: compared row by row
    frames["almost"] = frames["most"].assign(kg=[*frames["most"].kg[:-1], -1.0])  # its last row held nowhere
    session.bind("pack", hounds)
    for name, frame in frames.items():
        session.bind(name, frame)
    catalog = Catalog.read(session)
    expected = copies_pair_by_pair(session, catalog)
    assert copies(session, catalog) == expected
    assert {"twice", "nulls", "upper", "stored", "none", "zeros", "most"} <= set(expected)
    assert not {"thrice", "ages", "other", "almost"} & set(expected)


def test_a_frame_whose_cells_pandas_cannot_hash_is_compared_on_each_read():
    session, found = CountingSession(), Copies()
    hives = pd.DataFrame({"yard": ["north", "south", "east"], "queens": [["Ada"], ["Bea", "Cy"], []]})
    session.bind("hives", hives)
    session.bind("two", hives.iloc[[0, 1]])  # lists: no version, so nothing is kept
    catalog = read(session)
    assert found.find(session, catalog) == {"two": "hives"}
    session.queries = 0
    assert found.find(session, catalog) == {"two": "hives"} and session.queries > 0
