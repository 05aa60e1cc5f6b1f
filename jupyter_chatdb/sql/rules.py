"""Rules that keep derived data true: "a hay's bales_left is what was delivered minus what was fed".

A rule is one write statement the user approved (drafted by the model from their sentence, or written by
them) that sets derived values from the tables they derive from. It runs at the end of every write
transaction that changed a table it reads, as its own step, so the derived column stays true whatever a
plan forgot. A rule must be idempotent: run again at once, it changes nothing (checked when it is kept).

Rules live in the database itself (schema `chatdb_journal`, which no model-written SQL may touch), beside
the tables they keep true: a database file keeps them across restarts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from sqlglot import exp

from ..errors import ChatDBError, QueryFailed, SQLRefused, SQLSyntaxError
from . import guard, trees
from .journal import Recorder
from .names import quote_table
from .rule_checks import add_probe_rows, probe_rows, shape_problem
from .session import Session

RULES_TABLE = f"{guard.PRIVATE_SCHEMA}.rules"
SETUP = f"""
CREATE SCHEMA IF NOT EXISTS {guard.PRIVATE_SCHEMA};
CREATE TABLE IF NOT EXISTS {RULES_TABLE} (name VARCHAR PRIMARY KEY, sentence VARCHAR, sql VARCHAR, position INTEGER);
"""


class RuleError(ChatDBError):
    """A rule cannot be kept, found or run as asked."""


@dataclass(frozen=True)
class Rule:
    name: str
    sql: str  # one write statement, as the guard wrote it back
    sentence: str = ""  # what it keeps true, in the user's words

    def statement(self, schema: Mapping[str, Sequence[str]] | None = None) -> guard.Statement:
        """Its statement, checked by the guard (against `schema` when given): one write without parameters."""
        checked = guard.check(self.sql, schema, mode=guard.Mode.WRITE)
        if len(checked.statements) != 1 or checked.statements[0].kind is not guard.Kind.WRITE:
            raise RuleError("A rule is one INSERT, UPDATE or DELETE statement: write it as one.")
        statement = checked.statements[0]
        if statement.returns_rows:
            raise RuleError("A rule returns nothing: leave out RETURNING.")
        if statement.parameters:
            raise RuleError(f"A rule runs on its own, so it cannot take ${statement.parameters[0]}: write the value.")
        return statement

    def reads(self, schema: Mapping[str, Sequence[str]] | None = None) -> frozenset[str]:
        """The tables whose change makes it run: every table it names, its own included."""
        return frozenset(self.statement(schema).tables)

    def sets(self) -> tuple[str, tuple[str, ...]]:
        """The table and the columns it keeps true (an UPDATE's SET columns; none for other writes, and
        none where its SQL no longer reads as a rule: it keeps nothing true)."""
        if self.problem():
            return "", ()
        tree = trees.parse(self.sql)[0]
        if not isinstance(tree, exp.Update):
            return trees.target_table(tree) or "", ()
        return tree.this.name, tuple(e.this.name for e in tree.expressions if isinstance(e, exp.EQ))

    def describe(self) -> str:
        return f"Rule {self.name!r}" + (f": {self.sentence}" if self.sentence else "")

    def problem(self) -> str:
        """What keeps its SQL from running as a rule, as the guard says it ("" when nothing does): a rule
        stored by other means than `RuleBook.keep` may not parse.

        >>> Rule("broken", "UPDATE hay SET").problem()
        'it does not parse (DuckDB cannot parse this SQL: Parser Error: syntax error at end of input)'
        >>> Rule("bales", "UPDATE hay SET bales = 0").problem()
        ''
        """
        try:
            self.statement()
        except SQLSyntaxError as error:
            return f"it does not parse ({str(error).rstrip('.')})"
        except (SQLRefused, RuleError) as error:
            return f"it is no rule ({str(error).rstrip('.')})"
        return ""

    def listed_reads(self) -> str:
        """The tables whose change makes it run, for `%chatdb rules`; where its SQL cannot run, why, and
        how to be rid of it (while it is kept, every write fails on it).

        >>> Rule("bales", "UPDATE hay SET bales = (SELECT sum(n) FROM deliveries)").listed_reads()
        'deliveries, hay'
        >>> Rule("broken", "UPDATE hay SET").listed_reads()  # doctest: +ELLIPSIS
        'never: it does not parse (DuckDB cannot parse this SQL: ...); writes fail until %chatdb rules forget broken'
        """
        problem = self.problem()
        if problem:
            return f"never: {problem}; writes fail until %chatdb rules forget {self.name}"
        return ", ".join(sorted(self.reads()))

    def runs_after(self) -> str:
        """When it runs, for messages (for one whose SQL cannot run, why not, and what to do)."""
        if self.problem():
            return self.listed_reads()
        tables = sorted(self.reads())
        listed = ", ".join(tables[:-1]) + f" or {tables[-1]}" if len(tables) > 1 else tables[0]
        return f"after every write that changes {listed}"


def derived_columns(rules: Iterable[Rule]) -> dict[str, list[str]]:
    """table -> the columns `rules` keep true: what a write need not (and should not) set itself."""
    derived: dict[str, list[str]] = {}
    for rule in rules:
        table, columns = rule.sets()
        if table:  # "": a rule whose SQL cannot run keeps nothing true
            derived.setdefault(table, []).extend(columns)
    return derived


def checked_rule(session: Session, rule: Rule, schema: Mapping[str, Sequence[str]]) -> Rule:
    """`rule` with its SQL as the guard writes it back, once it is one write on a stored table that changes
    nothing when run a second time (tried in a transaction that is rolled back); RuleError otherwise."""
    if not rule.name.strip():
        raise RuleError("A rule needs a name.")
    statement = rule.statement(schema)
    if statement.target in session.frames:
        raise RuleError(f"{statement.target} is a DataFrame of the notebook: a rule can only keep stored tables true.")
    assert statement.target is not None
    target_rows = session.rows(f"SELECT count(*) FROM {quote_table(statement.target)}")[0][0]
    problem = shape_problem(trees.parse(statement.sql)[0], int(target_rows))
    if problem:
        raise RuleError(f"The rule would not be true for every row: {problem}.")
    session.begin()
    try:
        session.run(statement.sql)
        second = Recorder(session)
        second.before(statement)
        session.run(statement.sql)
        changed = second.changes()
    except QueryFailed as error:
        raise RuleError(f"The rule does not run: {error}") from None
    finally:
        session.rollback()
    if changed:
        raise RuleError(
            f"Run twice, the rule changed {changed[0].summary} the second time: a rule must set derived values "
            "from the tables they come from (SET x = (SELECT ...)), so that running it again changes nothing."
        )
    _run_with_probes(session, statement)
    return Rule(rule.name.strip(), statement.sql, rule.sentence.strip())


def _run_with_probes(session: Session, statement: guard.Statement) -> None:
    """Run the rule once more with a made-up row in each table it reads (`rule_checks.probe_rows`), all
    rolled back: a table empty today is tried with a row in it."""
    probed = probe_rows(session, [t for t in statement.tables if t != statement.target])
    if not probed:
        return
    session.begin()
    try:
        add_probe_rows(session, probed)
        session.run(statement.sql)
    except QueryFailed as error:
        raise RuleError(
            f"With a new row in {', '.join(probed)}, the rule fails: {str(error).rstrip('.')}. A value it sums "
            "or looks up may be missing: write coalesce(..., 0), and relate each subquery to the row it updates."
        ) from None
    finally:
        session.rollback()


class RuleBook:
    """The rules of one database, in the order they were kept (the order they run in)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def keep(self, rule: Rule) -> Rule:
        """Add `rule` (checked by `checked_rule`), replacing one of its name."""
        self.session.rows(SETUP)
        self.session.rows(
            f"INSERT OR REPLACE INTO {RULES_TABLE} VALUES (?, ?, ?,"
            f" coalesce((SELECT position FROM {RULES_TABLE} WHERE name = ?),"
            f" (SELECT coalesce(max(position), 0) + 1 FROM {RULES_TABLE})))",
            [rule.name, rule.sentence, rule.sql, rule.name],
        )
        return rule

    def forget(self, name: str) -> None:
        self.get(name)
        self.session.rows(f"DELETE FROM {RULES_TABLE} WHERE name = ?", [name])

    def get(self, name: str) -> Rule:
        found = [rule for rule in self if rule.name == name]
        if not found:
            raise RuleError(f"There is no rule {name!r}: %chatdb rules lists them.")
        return found[0]

    def __iter__(self) -> Iterator[Rule]:
        if not self._exists():
            return iter(())
        rows = self.session.rows(f"SELECT name, sql, sentence FROM {RULES_TABLE} ORDER BY position")
        return iter([Rule(name, sql, sentence) for name, sql, sentence in rows])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def _exists(self) -> bool:
        return bool(
            self.session.rows(
                "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ?"
                " AND table_name = 'rules'",
                [guard.PRIVATE_SCHEMA],
            )
        )


def run_rule(session: Session, recorder: Recorder, statement: guard.Statement, rule: Rule) -> int:
    """Run a rule's checked statement inside the open transaction; the rows it changed."""
    recorder.before(statement)
    try:
        result = session.run(statement.sql)
    except QueryFailed as error:
        raise RuleError(
            f"Rule {rule.name!r} failed after the writes: {str(error).rstrip('.')}. Nothing was written. "
            f"%chatdb rules show {rule.name} shows the rule; %chatdb rules forget {rule.name} forgets it."
        ) from None
    return int(result.scalar)  # type: ignore[call-overload]
