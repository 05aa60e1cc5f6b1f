"""The fix-up rules against their fixtures (`tests/fixtures/fixups/<rule>.sql`), as sqlglot's optimizer
tests read theirs: each case an input statement and the expected one."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pytest

from jupyter_chatdb.grounding.literals import replace_literals
from jupyter_chatdb.sql import aliases, bare_columns, column_owners, fixups, ties, value_types
from jupyter_chatdb.sql import key_labels as label_rule
from jupyter_chatdb.sql.column_owners import Link
from jupyter_chatdb.sql.fixup_rules import RULES
from jupyter_chatdb.sql.trees import parse, written

FIXTURES = Path(__file__).parent / "fixtures" / "fixups"
UNCHANGED = "unchanged"


@dataclass
class Case:
    title: str
    given: str
    expected: str | None  # None: the rule has nothing to fix
    settings: dict[str, object] = field(default_factory=dict)


def read_cases(path: Path) -> list[Case]:
    """Cases of a fixture file: `# key: value` lines set what the cases after them use (JSON, except the
    title), other lines are statements ending in ';', taken in pairs."""
    cases, settings, title, statements = [], {}, "", []
    for line in path.read_text().splitlines():
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            if key == "title":
                title = value
            elif key.isidentifier():
                settings[key] = json.loads(value)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        statements.append(line.rstrip().removesuffix(";"))
        if len(statements) == 2:
            given, expected = statements
            cases.append(Case(title, given, None if expected == UNCHANGED else expected, dict(settings)))
            statements = []
    assert not statements, f"{path.name}: a case without its expected statement"
    return cases


def cases_of(rule: str) -> list[pytest.param]:
    return [pytest.param(case, id=case.title) for case in read_cases(FIXTURES / f"{rule}.sql")]


def fixed_text(tree: object) -> str | None:
    return None if tree is None else written(tree)  # type: ignore[arg-type]


@pytest.mark.parametrize("case", cases_of("qualify_tables"))
def test_qualify_tables(case: Case) -> None:
    tree = parse(case.given)[0]
    fixed = fixups.qualify_tables(tree, case.settings["schema"], case.settings.get("shown", []))
    assert fixed_text(fixed) == case.expected
    assert written(tree) == written(parse(case.given)[0])  # the tree given is left as it was


@pytest.mark.parametrize("case", cases_of("drop_unknown_joins"))
def test_drop_unknown_joins(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(fixups.drop_unknown_joins(tree, case.settings["schema"])) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("to_duckdb"))
def test_to_duckdb(case: Case) -> None:
    trees = fixups.to_duckdb(case.given)
    assert (None if trees is None else "; ".join(map(written, trees))) == case.expected


@pytest.mark.parametrize("case", cases_of("from_sqlite"))
def test_from_sqlite(case: Case) -> None:
    trees = fixups.from_sqlite(case.given)
    assert (None if trees is None else "; ".join(map(written, trees))) == case.expected


@pytest.mark.parametrize("case", cases_of("quoted_strings"))
def test_quoted_strings(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(fixups.quoted_strings(tree, case.settings["schema"])) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("cast_text_numbers"))
def test_cast_text_numbers(case: Case) -> None:
    text = case.settings["text"]
    tree = parse(case.given)[0]
    assert fixed_text(value_types.cast_text_numbers(tree, case.settings["schema"], text)) == case.expected  # type: ignore[arg-type]
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("replace_literals"))
def test_replace_literals(case: Case) -> None:
    changes = {(table, column, old): new for table, column, old, new in case.settings["changes"]}  # type: ignore[attr-defined]
    tree = parse(case.given)[0]
    assert written(replace_literals(tree, case.settings["schema"], changes)) == case.expected  # type: ignore[arg-type]


@pytest.mark.parametrize("case", cases_of("with_views"))
def test_with_views(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(fixups.with_views(tree, case.settings["views"])) == case.expected  # type: ignore[arg-type]
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("like_on_non_text"))
def test_like_on_non_text(case: Case) -> None:
    tree = parse(case.given)[0]
    assert (
        fixed_text(value_types.like_on_non_text(tree, case.settings["schema"], case.settings["text"])) == case.expected
    )  # type: ignore[arg-type]
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("days_of_moments"))
def test_days_of_moments(case: Case) -> None:
    tree = parse(case.given)[0]
    moments = {table: set(columns) for table, columns in case.settings["moments"].items()}  # type: ignore[union-attr]
    assert fixed_text(value_types.days_of_moments(tree, case.settings["schema"], moments)) == case.expected  # type: ignore[arg-type]
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("labels_for_keys"))
def test_labels_for_keys(case: Case) -> None:
    tree = parse(case.given)[0]
    links = [Link(table, (column,), target, (key,)) for table, column, target, key in case.settings["links"]]  # type: ignore[union-attr]
    labels: dict[str, str | None] = case.settings["labels"]  # type: ignore[assignment]
    named: list[str] = case.settings["named"]  # type: ignore[assignment]
    fixed = label_rule.labels_for_keys(
        tree, case.settings["schema"], lambda: links, labels.get, lambda c, t: c in named
    )  # type: ignore[arg-type]
    assert fixed_text(fixed) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("swap_tables"))
def test_swap_tables(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(column_owners.swap_tables(tree, case.settings["schema"])) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("requalify_columns"))
def test_requalify_columns(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(column_owners.requalify_columns(tree, case.settings["schema"])) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("join_owners"))
def test_join_owners(case: Case) -> None:
    links = [Link(t, tuple(c), target, tuple(k)) for t, c, target, k in case.settings["links"]]  # type: ignore[attr-defined]
    tree = parse(case.given)[0]
    assert fixed_text(column_owners.join_owners(tree, case.settings["schema"], lambda: links)) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("bare_columns"))
def test_bare_columns(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(bare_columns.bare_columns(tree)) == case.expected
    assert written(tree) == written(parse(case.given)[0])


@pytest.mark.parametrize("case", cases_of("readable_aliases"))
def test_readable_aliases(case: Case) -> None:
    (tree,) = parse(case.given)
    assert fixed_text(aliases.readable_aliases(tree)) == case.expected


@pytest.mark.parametrize("case", cases_of("ties_by_group"))
def test_ties_by_group(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(ties.ties_by_group(tree)) == case.expected
    assert written(tree) == written(parse(case.given)[0])


def test_ties_are_broken_as_sqlite_breaks_them() -> None:
    rows = [(term, n) for term in (5, 3, 9, 1, 7) for n in range(2)] + [(4, 0)]
    queries = [
        "SELECT term FROM fairs GROUP BY term ORDER BY COUNT(*) DESC",
        "SELECT term FROM fairs GROUP BY term ORDER BY COUNT(*)",
    ]
    lite, duck = sqlite3.connect(":memory:"), duckdb.connect()
    for con in (lite, duck):
        con.execute("CREATE TABLE fairs (term INT, n INT)")
        con.executemany("INSERT INTO fairs VALUES (?, ?)", rows)
    for query in queries:
        fixed = written(ties.ties_by_group(parse(query)[0]))
        assert duck.execute(fixed).fetchall() == lite.execute(query).fetchall()


def test_bare_columns_run_on_duckdb_with_sqlites_meaning() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE riders (name TEXT, stable INT, age INT)")
    con.execute("INSERT INTO riders VALUES ('Ann', 1, 30), ('Bo', 1, 40), ('Cy', 2, 20)")
    oldest = bare_columns.bare_columns(parse("SELECT stable, name, MAX(age) FROM riders GROUP BY stable")[0])
    assert con.sql(written(oldest) + " ORDER BY stable").fetchall() == [(1, "Bo", 40), (2, "Cy", 20)]


def test_join_owners_asks_for_the_links_only_when_a_column_is_missing() -> None:
    asked: list[str] = []

    def links() -> list[Link]:
        asked.append("links")
        return []

    assert column_owners.join_owners(parse("SELECT a FROM t")[0], {"t": ["a"]}, links) is None
    assert asked == []
    assert column_owners.join_owners(parse("SELECT b FROM t")[0], {"t": ["a"]}, links) is None
    assert asked == ["links"]


def test_every_rule_has_fixtures() -> None:
    rules = {rule.name for rule in RULES}  # the tuple a step's SQL goes through
    rules |= {"to_duckdb", "from_sqlite", "replace_literals", "update_target_references"}  # read, ground, write
    assert {path.stem for path in FIXTURES.glob("*.sql")} == rules
    assert all(read_cases(FIXTURES / f"{rule}.sql") for rule in rules)


def test_a_steps_statements_are_fixed_up_together() -> None:
    schema = {"shop.fruits": ["name", "kg"], "shop.sales": ["fruit", "kg"]}
    trees = parse("INSERT INTO sales VALUES ('fig', 2); UPDATE fruits SET kg = kg - 2 WHERE name = 'fig'")
    fixed = fixups.with_tables_qualified(trees, schema)
    assert [written(t) for t in fixed] == [
        "INSERT INTO shop.sales VALUES ('fig', 2)",
        "UPDATE shop.fruits SET kg = kg - 2 WHERE name = 'fig'",
    ]
    assert fixups.split(fixups.joined(trees)) == trees


@pytest.mark.parametrize("case", cases_of("update_target_references"))
def test_update_target_references(case: Case) -> None:
    tree = parse(case.given)[0]
    assert fixed_text(fixups.update_target_references(tree)) == case.expected
    assert written(tree) == written(parse(case.given)[0])
