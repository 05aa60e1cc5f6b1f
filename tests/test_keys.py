"""The keys the data implies for DataFrames: real DuckDB, invented tables."""

import pandas as pd

from jupyter_chatdb.grounding.keys import ImpliedKeys, Reference
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session


def references(**frames: pd.DataFrame) -> list[Reference]:
    session = Session()
    for name, frame in frames.items():
        session.bind(name, frame)
    return ImpliedKeys().references(Catalog.read(session), session)


def test_a_column_named_like_a_table_or_key_whose_values_are_all_keys_refers_to_it():
    found = references(
        regions=pd.DataFrame({"RegId": [1, 2, 3], "Region": ["north", "south", "west"]}),
        shops=pd.DataFrame({"ShopId": [1, 2, 3, 4], "Region": ["1", "2", "2", "3"], "Manager": [10, 11, 10, 12]}),
        staff=pd.DataFrame({"ShopId": [1, 1, 4], "name": ["Ann", "Bo", "Cy"]}),
    )
    assert set(found) == {
        Reference("shops", "Region", "regions", "RegId"),  # numbers stored as text are numbers
        Reference("staff", "ShopId", "shops", "ShopId"),
    }


def test_a_value_that_is_no_key_or_a_table_own_key_makes_no_reference():
    found = references(
        shops=pd.DataFrame({"shop_id": [1, 2], "town": ["Ely", "Wells"]}),
        sales=pd.DataFrame({"sale_id": [1, 2, 3], "shop_id": [1, 2, 9]}),  # 9 is no shop
        shop_notes=pd.DataFrame({"shop_note_id": [1, 2], "note": ["a", "b"]}),  # its own key, not a shop's
    )
    assert found == []


def test_a_key_unique_in_both_tables_refers_to_the_table_its_name_names():
    found = references(
        sailors=pd.DataFrame({"Sailor_ID": [1, 2, 3, 4], "Name": ["Ann", "Bo", "Cy", "Di"]}),
        skippers=pd.DataFrame({"Skipper_ID": [1, 2], "Sailor_ID": [2, 4], "Wins": [3, 5]}),
    )
    assert found == [Reference("skippers", "Sailor_ID", "sailors", "Sailor_ID")]


def test_references_are_kept_until_a_table_changes():
    session = Session()
    session.bind("kinds", pd.DataFrame({"kind_id": [1, 2]}))
    session.bind("pets", pd.DataFrame({"kind_id": [1, 1, 2]}))
    keys = ImpliedKeys()
    first = keys.references(Catalog.read(session), session)
    assert first == [Reference("pets", "kind_id", "kinds", "kind_id")]
    assert keys.references(Catalog.read(session), session) is first
    session.bind("pets", pd.DataFrame({"kind_id": [1, 3]}))
    assert keys.references(Catalog.read(session), session) == []
