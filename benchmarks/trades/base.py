"""What a trade of the multi-trade benchmark is, how its exact state is loaded, and its self-check.

A trade is an invented business with its own schema (DuckDB DDL with sequences, CHECK-listed values,
composite and text keys, reference rows present from the start, derived columns kept by a rule), a seeded
log of records (each a structured fact, the gold SQL that applies it, and its text in one of several
wordings), state checks and questions with gold SQL. Everything is generated from the facts, so the
texts, the gold SQL and the expected state cannot disagree; `self_check` proves it on a real DuckDB.

Nothing here may be copied into `jupyter_chatdb/`: `tests/test_no_benchmark_names.py` fails when a
table, column or stored value of a trade appears there.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import duckdb
import sqlglot
from sqlglot import exp

WORDINGS = ("log", "chatty", "keyvalue")  # a log-book line, a chatty sentence, `key: value` lines


@dataclass(frozen=True)
class Record:
    """One thing that happened, as the user would type it, and the gold statements that record it."""

    id: str  # "r01", ...
    kind: str  # the trade's record kind: "loan", "return", ...
    wording: str  # one of WORDINGS
    text: str  # what the user types
    facts: dict[str, object]  # the structured fact the text and the gold SQL are written from
    gold: tuple[str, ...]  # DuckDB statements that apply the record to the state before it (no $params)
    stated: tuple[str, ...] = ()  # values (as text) the text must state: checked by `self_check`

    @property
    def does(self) -> str:
        """What its gold does to rows: "new", or "change:" and how (see `does`)."""
        return does(self.gold)


@dataclass(frozen=True)
class Question:
    id: str  # "q01", ...
    text: str
    gold: str  # one SELECT on the exact final state
    family: str = ""  # what kind of question: "count", "top", "grouped", "lookup", "derived", ...


@dataclass(frozen=True)
class Rule:
    """A derived column kept true by one UPDATE, and the sentence a user would say it with."""

    name: str
    sentence: str
    sql: str


@dataclass(frozen=True)
class Trade:
    name: str  # "library", ...
    description: str  # one line: what the business is
    schema: str  # DDL: sequences, tables (CHECK lists, keys); no rows
    reference: str  # INSERTs of the reference rows present from the start
    rules: tuple[Rule, ...]
    records: tuple[Record, ...]
    questions: tuple[Question, ...]
    snapshot: dict[str, str]  # table -> SELECT of what a record may change, ids replaced by names where they are
    checks: dict[str, str] = field(default_factory=dict)  # name -> a SELECT of the state (stock, balances, ...)

    def kinds(self) -> list[str]:
        return sorted({record.kind for record in self.records})


def connect() -> duckdb.DuckDBPyConnection:
    return duckdb.connect()


def load(con: duckdb.DuckDBPyConnection, trade: Trade, upto: int | None = None, *, rules: bool = True) -> None:
    """The exact state after the first `upto` records (all: None): schema, reference rows, and each record's
    gold statements, each record followed by the rules (as a user's rule would run after every write)."""
    con.execute(trade.schema)
    if trade.reference.strip():
        con.execute(trade.reference)
    run_rules(con, trade, rules)
    for record in trade.records[:upto]:
        apply(con, trade, record, rules=rules)


def apply(con: duckdb.DuckDBPyConnection, trade: Trade, record: Record, *, rules: bool = True) -> None:
    con.execute("BEGIN TRANSACTION")
    try:
        for statement in record.gold:
            con.execute(statement)
        run_rules(con, trade, rules)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def run_rules(con: duckdb.DuckDBPyConnection, trade: Trade, rules: bool = True) -> None:
    for rule in trade.rules if rules else ():
        con.execute(rule.sql)


Rows = Callable[[str], list[tuple]]  # runs a SELECT, returns its rows: `con.execute(sql).fetchall()`


def rows_of(con: duckdb.DuckDBPyConnection) -> Rows:
    return lambda sql: con.execute(sql).fetchall()


def snapshot(con: duckdb.DuckDBPyConnection | Rows, trade: Trade) -> dict[str, list[tuple]]:
    """What the trade's snapshot queries return, each sorted: two states compare by what they state."""
    return _read(con, trade.snapshot)


def state_checks(con: duckdb.DuckDBPyConnection | Rows, trade: Trade) -> dict[str, list[tuple]]:
    return _read(con, trade.checks)


def _read(con: duckdb.DuckDBPyConnection | Rows, queries: dict[str, str]) -> dict[str, list[tuple]]:
    rows = con if callable(con) else rows_of(con)
    return {name: sorted(map(_plain_row, rows(sql)), key=repr) for name, sql in queries.items()}


def _plain_row(row: tuple) -> tuple:
    return tuple(_plain(value) for value in row)


def _plain(value: object) -> object:
    """Numbers compared to the cent, dates as ISO text, text without outer spaces: the values a record
    states, whatever type a column gives them."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)) or type(value).__name__ == "Decimal":
        return round(float(value), 2)  # type: ignore[arg-type]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value).strip()


# -- what a record does to rows ---------------------------------------------------------------------

CHANGES = ("set", "clear", "copy", "add", "remove")  # how a change record changes rows


def does(gold: Sequence[str]) -> str:
    """What gold statements do to rows, read from their SQL: "new" when one of them INSERTs (a new fact,
    an event row, whatever else it updates beside it), else "change:" and how each UPDATE SET and DELETE
    changes rows, sorted and joined by "+": "set" (a value given, or looked up by a name in another
    table), "clear" (NULL), "copy" (read from another row of the same table), "add" (`col = col + n` or
    `col - n`), "remove" (a DELETE).

    >>> does(["INSERT INTO visits (pet, day) VALUES ('Rex', DATE '2024-03-01')", "UPDATE pets SET seen = 1"])
    'new'
    >>> does(["UPDATE pets SET owner_phone = NULL WHERE pet_name = 'Rex'"])
    'change:clear'
    >>> does(["UPDATE pets SET kennel = (SELECT kennel FROM pets WHERE pet_name = 'Bo') WHERE pet_name = 'Rex'"])
    'change:copy'
    >>> does(["UPDATE pets SET kennel = (SELECT code FROM kennels WHERE label = 'East') WHERE pet_name = 'Rex'"])
    'change:set'
    >>> does(["UPDATE feed SET bags = bags - 3 WHERE kind = 'dry'", "DELETE FROM walks WHERE walk_id = 4"])
    'change:add+remove'
    >>> does(["UPDATE pets SET status = 'gone', left_on = DATE '2024-03-02', chip = NULL WHERE pet_name = 'Rex'"])
    'change:clear+set'
    """
    how: set[str] = set()
    for sql in gold:
        statement = sqlglot.parse_one(sql, read="duckdb")
        if isinstance(statement, exp.Insert):
            return "new"
        if isinstance(statement, exp.Delete):
            how.add("remove")
        elif isinstance(statement, exp.Update):
            table = statement.this.name if isinstance(statement.this, exp.Table) else ""
            for assignment in statement.expressions:
                how.add(_how_set(table, assignment.this.name, assignment.expression))
    return "change:" + "+".join(sorted(how)) if how else "change:set"


def _how_set(table: str, column: str, value: exp.Expression) -> str:
    while isinstance(value, exp.Paren):
        value = value.this
    if isinstance(value, exp.Null):
        return "clear"
    if isinstance(value, (exp.Add, exp.Sub)) and any(
        isinstance(side, exp.Column) and side.name == column for side in (value.this, value.expression)
    ):
        return "add"
    if any(t.name == table for select in value.find_all(exp.Select) for t in select.find_all(exp.Table)):
        return "copy"
    return "set"


def inserts_into(gold: Sequence[str]) -> tuple[str, ...]:
    """The tables gold statements INSERT into, in order, once each.

    >>> inserts_into(["INSERT INTO walks (pet) VALUES ('Rex')", "UPDATE pets SET n = 1", "INSERT INTO walks VALUES ('Bo')"])
    ('walks',)
    """
    statements = (sqlglot.parse_one(sql, read="duckdb") for sql in gold)
    return tuple(
        dict.fromkeys(
            s.this.find(exp.Table).name  # type: ignore[union-attr]
            for s in statements
            if isinstance(s, exp.Insert)
        )
    )


def fills_empty(trade: Trade) -> dict[str, tuple[str, ...]]:
    """Each "new" record that INSERTs into a table empty before it: record id -> those tables (a plain fact
    into an empty table: nothing there for the model to copy the shape of)."""
    filled: dict[str, tuple[str, ...]] = {}
    con = connect()
    try:
        load(con, trade, 0)
        for record in trade.records:
            empty = tuple(
                t
                for t in inserts_into(record.gold)
                if not con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]  # type: ignore[index]
            )
            if empty:
                filled[record.id] = empty
            apply(con, trade, record)
    finally:
        con.close()
    return filled


# -- the self-check --------------------------------------------------------------------------------


@dataclass
class Problems:
    found: list[str] = field(default_factory=list)

    def add(self, problem: str) -> None:
        self.found.append(problem)


def self_check(trade: Trade, *, min_records: int = 50, min_questions: int = 30) -> list[str]:
    """What is wrong with `trade` (empty: nothing): sizes, wordings, kinds, that each record states its
    values, that its gold statements run and change the state, that rules are correlated and idempotent,
    that every question's gold SQL runs on the final state and returns rows, and that the state checks run."""
    problems = Problems()
    if len(trade.records) < min_records:
        problems.add(f"{len(trade.records)} records, fewer than {min_records}")
    if len(trade.questions) < min_questions:
        problems.add(f"{len(trade.questions)} questions, fewer than {min_questions}")
    wordings = {record.wording for record in trade.records}
    if not set(WORDINGS) <= wordings:
        problems.add(f"wordings {sorted(wordings)}: each of {WORDINGS} is needed")
    if len(set(record.id for record in trade.records)) != len(trade.records):
        problems.add("record ids repeat")
    if len(set(q.id for q in trade.questions)) != len(trade.questions):
        problems.add("question ids repeat")
    for record in trade.records:
        for value in record.stated:
            if not _states(record.text, value):
                problems.add(f"{record.id}: the text does not state {value!r}: {record.text!r}")
    con = connect()
    try:
        load(con, trade, 0)
        _check_reference(con, trade, problems)
        for record in trade.records:
            before = snapshot(con, trade)
            try:
                apply(con, trade, record)
            except duckdb.Error as error:
                problems.add(f"{record.id}: a gold statement fails: {error}")
                continue
            if snapshot(con, trade) == before:
                problems.add(f"{record.id}: its gold statements change nothing the snapshot shows")
        for rule in trade.rules:
            _check_rule(con, rule, problems)
        for question in trade.questions:
            try:
                rows = con.execute(question.gold).fetchall()
            except duckdb.Error as error:
                problems.add(f"{question.id}: its gold SQL fails: {error}")
                continue
            if not rows or all(v is None for row in rows for v in row):
                problems.add(f"{question.id}: its gold SQL returns nothing on the final state")
        for name, sql in trade.checks.items():
            try:
                con.execute(sql).fetchall()
            except duckdb.Error as error:
                problems.add(f"check {name}: fails: {error}")
    finally:
        con.close()
    return problems.found


def _check_reference(con: duckdb.DuckDBPyConnection, trade: Trade, problems: Problems) -> None:
    if not trade.reference.strip():
        problems.add("no reference rows: a trade starts with some (rooms, kinds, tools, ...)")
    checks = con.execute(
        "SELECT count(*) FROM duckdb_constraints() WHERE constraint_type = 'CHECK' AND database_name = current_database()"
    ).fetchone()
    if not checks or checks[0] < 1:
        problems.add("no CHECK constraint: a trade lists the values some column may take")
    if not con.execute("SELECT count(*) FROM duckdb_sequences()").fetchone()[0]:  # type: ignore[index]
        problems.add("no sequence: ids come from sequences")


def _check_rule(con: duckdb.DuckDBPyConnection, rule: Rule, problems: Problems) -> None:
    """A rule must change nothing when run again on the final state (correlated, idempotent)."""
    before = _all_rows(con)
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(rule.sql)
        if _all_rows(con) != before:
            problems.add(f"rule {rule.name}: run again on the final state it changed rows")
    finally:
        con.execute("ROLLBACK")


def _all_rows(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    tables = [
        name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'").fetchall()
    ]
    return {name: sorted(map(_plain_row, con.execute(f'SELECT * FROM "{name}"').fetchall())) for name in tables}


def _states(text: str, value: str) -> bool:
    """Whether `text` states `value` (case and spaces aside; a number as written or with its decimals)."""
    flat = " ".join(text.lower().split())
    wanted = " ".join(value.lower().split())
    if wanted in flat:
        return True
    if re.fullmatch(r"-?\d+(\.\d+)?", wanted):
        number = float(wanted)
        return any(abs(float(n) - number) < 1e-9 for n in re.findall(r"-?\d+(?:\.\d+)?", flat))
    return False


# -- writing texts --------------------------------------------------------------------------------

NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def in_words(n: int) -> str:
    """A small whole number in words: 'seven'.

    >>> in_words(7), in_words(20)
    ('seven', '20')
    """
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def date_forms(day: dt.date) -> tuple[str, ...]:
    """Ways the records write a date: ISO, '3 March 2024', 'March 3, 2024', '03/03/2024' (day first).

    >>> date_forms(dt.date(2024, 3, 5))
    ('2024-03-05', '5 March 2024', 'March 5, 2024', '05/03/2024')
    """
    month = day.strftime("%B")
    return (
        day.isoformat(),
        f"{day.day} {month} {day.year}",
        f"{month} {day.day}, {day.year}",
        day.strftime("%d/%m/%Y"),
    )


def keyvalue(kind: str, pairs: Sequence[tuple[str, object]]) -> str:
    """A record as `key: value` lines under its kind.

    >>> print(keyvalue("loan", [("member", "Ana Ruiz"), ("days", 14)]))
    loan
    member: Ana Ruiz
    days: 14
    """
    return "\n".join([kind, *(f"{key}: {value}" for key, value in pairs)])


def sql_text(value: str) -> str:
    """A text literal for gold SQL."""
    return "'" + value.replace("'", "''") + "'"


def sql_date(day: dt.date) -> str:
    """A DATE literal for gold SQL."""
    return f"DATE '{day.isoformat()}'"


def lookup(table: str, column: str, by: str, value: str) -> str:
    """The subquery that finds a row's `column` by its `by` value, for gold SQL.

    >>> lookup("members", "member_id", "name", "Ana Ruiz")
    "(SELECT member_id FROM members WHERE name = 'Ana Ruiz')"
    """
    return f"(SELECT {column} FROM {table} WHERE {by} = {sql_text(value)})"


class Turns:
    """Hands each class of record the wordings in turn, a shuffled round of all three per class, so that a
    class of three records (three copies from another row, three clears) comes once in each wording whatever
    places in the log its records take. `next` says the wording a record of the class would take; `take`
    uses it up, once the record is made.

    >>> turns = Turns(random.Random(0))
    >>> sorted(turns.take("clear") for _ in WORDINGS) == sorted(WORDINGS)
    True
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left: dict[str, list[str]] = {}

    def next(self, key: str) -> str:
        if not self.left.get(key):
            self.left[key] = self.rng.sample(WORDINGS, len(WORDINGS))
        return self.left[key][0]

    def take(self, key: str) -> str:
        wording = self.next(key)
        self.left[key].pop(0)
        return wording


Builder = Callable[[int], Trade]  # seed -> the trade
