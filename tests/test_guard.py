import pytest

from jupyter_chatdb.errors import SQLRefused
from jupyter_chatdb.sql.guard import Kind, check

SCHEMA = {"singer": ["singer_id", "name", "country", "age"], "concert": ["concert_id", "singer_id", "year"]}


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT name FROM singer",
        "WITH old AS (SELECT * FROM singer WHERE age > 40) SELECT count(*) AS n FROM old",
        "SELECT s.name, count(*) AS shows FROM singer AS s JOIN concert AS c ON s.singer_id = c.singer_id"
        " GROUP BY s.name ORDER BY shows DESC",
        "SELECT name FROM singer UNION SELECT country FROM singer",
        "SELECT * FROM range(3)",
        "SELECT country, avg(age) AS mean_age FROM singer GROUP BY 1 HAVING mean_age > 30",
        "SELECT x.n FROM (SELECT count(*) AS n FROM singer) AS x",
        "SELECT name FROM singer;",
        "SELECT name FROM singer; -- the names",
    ],
)
def test_reads_pass(sql):
    checked = check(sql, SCHEMA)
    assert [s.kind for s in checked.statements] == [Kind.READ]
    assert not checked.writes


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT 1; DROP TABLE singer", "DROP is not allowed"),
        ("SELECT 1; SELECT 2", "Only one statement can run without writes allowed, and this SQL has 2"),
        ("DELETE FROM singer", "This request would change data (DELETE); allow writes"),
        ("INSERT INTO singer VALUES (1, 'a', 'b', 3)", "This request would change data (INSERT)"),
        ("UPDATE singer SET age = 1", "This request would change data (UPDATE)"),
        ("ATTACH 'other.db'", "ATTACH statements are not allowed"),
        ("COPY singer TO 'out.csv'", "COPY statements are not allowed"),
        ("INSTALL httpfs", "INSTALL statements are not allowed"),
        ("LOAD httpfs", "LOAD statements are not allowed"),
        ("PRAGMA version", "PRAGMA statements are not allowed"),
        ("SET threads = 1", "SET statements are not allowed"),
        ("CALL pragma_version()", "CALL statements are not allowed"),
        ("EXPORT DATABASE 'dump'", "does not parse"),
        ("BEGIN", "Transaction control statements are not allowed"),
        ("SELECT * FROM read_csv('/etc/passwd')", "read_csv() is not allowed"),
        ("SELECT * FROM read_parquet('x.parquet')", "read_parquet() is not allowed"),
        ("SELECT * FROM glob('*')", "glob() is not allowed"),
        ("SELECT (SELECT content FROM read_text('/etc/hosts'))", "read_text() is not allowed"),
        ("SELECT * FROM 'data.csv'", "Reading the file 'data.csv' is not allowed"),
        ("SELECT * FROM sqlite_scan('a.db', 't')", "sqlite_scan() is not allowed"),
    ],
)
def test_refusals_explain_why(sql, message):
    with pytest.raises(SQLRefused) as refused:
        check(sql, SCHEMA)
    assert message in str(refused.value)
    assert not refused.value.fixable or "parse" in message


def test_policy_refusals_hold_with_writes_allowed():
    for sql in ("SELECT 1; DROP TABLE singer", "ATTACH 'x.db'", "INSERT INTO singer SELECT * FROM read_csv('x')"):
        with pytest.raises(SQLRefused):
            check(sql, SCHEMA, allow_writes=True)


def test_writes_pass_when_allowed():
    checked = check(
        "INSERT INTO concert VALUES (9, 1, 2024); UPDATE singer SET age = age + 1 WHERE singer_id = 1;"
        " DELETE FROM concert WHERE year < 2000 RETURNING concert_id",
        SCHEMA,
        allow_writes=True,
    )
    assert [s.kind for s in checked.statements] == [Kind.WRITE] * 3
    assert [s.returns_rows for s in checked.statements] == [False, False, True]
    assert checked.statements[1].sql == "UPDATE singer SET age = age + 1 WHERE singer_id = 1"


def test_create_then_use_in_one_request():
    checked = check(
        "CREATE TABLE notes (id INTEGER, body VARCHAR); INSERT INTO notes (id, body) VALUES (1, 'x')",
        SCHEMA,
        allow_writes=True,
    )
    assert [s.kind for s in checked.statements] == [Kind.DDL, Kind.WRITE]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT name FROM singers", "Unknown table 'singers'; did you mean 'singer'?"),
        ("SELECT nme FROM singer", "Unknown column 'nme' in singer; did you mean 'name'?"),
        ("SELECT s.yeer FROM concert AS s", "Unknown column 'yeer' in concert; did you mean 'year'?"),
        ("SELECT zzz FROM singer", "Unknown column 'zzz' in singer; available: age, country, name, singer_id."),
        ('SELECT age FROM singer WHERE name = "Joe"', "(string literals take single quotes: 'Joe')"),
    ],
)
def test_unknown_names_get_suggestions(sql, message):
    with pytest.raises(SQLRefused) as refused:
        check(sql, SCHEMA)
    assert str(refused.value) == message or message in str(refused.value)
    assert refused.value.fixable


def test_an_unknown_column_is_said_to_be_a_column_of_the_tables_that_have_it():
    schema = {"riders": ["id", "name"], "horses": ["id", "withers"], "ponies": ["id", "withers"]}
    with pytest.raises(SQLRefused) as refused:
        check("SELECT withers FROM riders", schema)
    assert str(refused.value) == (
        "Unknown column 'withers' in riders; available: id, name. It is a column of horses, ponies."
    )


def test_names_are_case_insensitive():
    check("SELECT Name, COUNTRY FROM Singer", SCHEMA)


def test_parse_error_has_position():
    with pytest.raises(SQLRefused, match=r"does not parse at line 1, column \d+"):
        check("SELECT name FROM singer WHERE (", SCHEMA)


def test_empty_sql_is_refused():
    with pytest.raises(SQLRefused, match="no SQL statement"):
        check("  ;  ", SCHEMA)


def test_the_journal_schema_is_out_of_reach():
    with pytest.raises(SQLRefused, match="holds ChatDB's journal"):
        check("SELECT * FROM chatdb_journal.requests", allow_writes=True)
    with pytest.raises(SQLRefused, match="holds ChatDB's journal"):
        check("DELETE FROM chatdb_journal.requests WHERE request_id = 1", allow_writes=True)


def test_writes_know_their_target_and_whether_they_touch_every_row():
    update_all, delete_some, insert_if_new, create = check(
        "UPDATE t SET a = 1; DELETE FROM t WHERE a = 2; "
        "INSERT INTO t SELECT 3 WHERE NOT EXISTS (SELECT 1 FROM t WHERE a = 3); CREATE TABLE u (b INTEGER)",
        {"t": ["a"]},
        allow_writes=True,
    ).statements
    assert (update_all.target, update_all.unbounded) == ("t", True)
    assert (delete_some.target, delete_some.unbounded, delete_some.conditional) == ("t", False, False)
    assert insert_if_new.conditional and create.creates == "TABLE" and create.target == "u"


def test_only_tables_and_sequences_may_be_created():
    with pytest.raises(SQLRefused, match="only CREATE TABLE and CREATE SEQUENCE are"):
        check("CREATE VIEW v AS SELECT 1", allow_writes=True)
