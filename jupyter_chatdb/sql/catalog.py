"""What the model is told about the data: tables, columns, types, keys, what a column means and a few
sample values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .names import quote_identifier, quote_string, quote_table, readable_identifier, readable_table
from .session import Session

SAMPLE_VALUES = 3
ALL_VALUES_UP_TO = 6  # value hints: a text column with at most this many distinct values lists them all
SAMPLE_CHARS = 40
MEANING_CHARS = 160  # of a column's meaning, shown in every prompt that shows the column
TEXT_TYPES = ("VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR")  # what DuckDB may call a text column
MOMENT_TYPES = ("TIMESTAMP", "DATETIME")  # with or without a time zone, in any unit


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    samples: tuple[str, ...] = ()
    meaning: str = ""  # what the column holds, in words: its comment, or as the user described it


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    table: str
    references: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    row_count: int
    is_frame: bool = False
    primary_key: tuple[str, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()

    def ddl(self, writes: bool = False) -> str:
        """A compact CREATE TABLE with what a column means and sample values as comments, the form code
        models know best; for a request that may write, a DataFrame's says it is read-only.

        >>> columns = (Column("id", "INTEGER"), Column("city", "VARCHAR", ("Oslo",)), Column("c7", "INTEGER", (), "beds free"))
        >>> print(Table("t", columns, 2, primary_key=("id",)).ddl())
        CREATE TABLE t (
          id INTEGER PRIMARY KEY,
          city VARCHAR, -- e.g. 'Oslo'
          c7 INTEGER -- beds free
        ); -- 2 rows
        """
        lines = []
        for index, column in enumerate(self.columns):
            line = f"  {readable_identifier(column.name)} {column.type}"
            if self.primary_key == (column.name,):
                line += " PRIMARY KEY"
            if index < len(self.columns) - 1 or self._constraints():
                line += ","
            said = [column.meaning] if column.meaning else []
            if column.samples:
                said.append("e.g. " + ", ".join(quote_string(value) for value in column.samples))
            if said:
                line += " -- " + "; ".join(said)
            lines.append(line)
        lines += self._constraints()
        rows = f"{self.row_count} row" + ("" if self.row_count == 1 else "s")
        if writes and self.is_frame:
            rows += ", a DataFrame of the notebook: read-only, never written"
        return f"CREATE TABLE {readable_table(self.name)} (\n" + "\n".join(lines) + f"\n); -- {rows}"

    def _constraints(self) -> list[str]:
        constraints = []
        if len(self.primary_key) > 1:
            constraints.append(f"  PRIMARY KEY ({', '.join(self.primary_key)})")
        for key in self.foreign_keys:
            constraints.append(
                f"  FOREIGN KEY ({', '.join(key.columns)}) REFERENCES {key.table} ({', '.join(key.references)})"
            )
        return [c + ("," if i < len(constraints) - 1 else "") for i, c in enumerate(constraints)]


class Catalog:
    """A snapshot of the session's tables and bound DataFrames."""

    def __init__(self, tables: Iterable[Table]) -> None:
        self.tables = {table.name: table for table in tables}

    @classmethod
    def read(cls, session: Session, samples: int = SAMPLE_VALUES) -> Catalog:
        rows = session.rows(
            "SELECT database_name, table_name, column_name, data_type, database_name = current_database(), comment"
            " FROM duckdb_columns()"
            " WHERE NOT internal AND schema_name = 'main'"
            " AND (database_name IN (current_database(), 'temp') OR list_contains(?, database_name))"
            " ORDER BY CASE database_name WHEN current_database() THEN 0 WHEN 'temp' THEN 1 ELSE 2 END, database_name,"
            " table_oid, column_index",
            [list(session.attached)],
        )
        columns: dict[str, list[tuple[str, str, str]]] = {}
        frames: set[str] = set()
        described = session.meanings()
        for database, table, column, data_type, own, comment in rows:
            if "." in table:  # read as database.table: left out (`Session.dotted_tables`)
                continue
            name = table if own or database == "temp" else f"{database}.{table}"
            meaning = described.get((name.lower(), column.lower()), comment or "")
            columns.setdefault(name, []).append((column, data_type, " ".join(meaning.split())[:MEANING_CHARS]))
            if database == "temp":
                frames.add(name)
        keys = _keys(session)
        return cls(
            Table(
                name,
                tuple(Column(c, t, _samples(session, name, c, t, samples), m) for c, t, m in cols),
                _count(session, name),
                is_frame=name in frames,
                primary_key=keys[0].get(name, ()),
                foreign_keys=tuple(keys[1].get(name, ())),
            )
            for name, cols in columns.items()
        )

    def schema(self) -> dict[str, list[str]]:
        """table -> column names, for the guard."""
        return {name: [c.name for c in table.columns] for name, table in self.tables.items()}

    def meanings(self) -> dict[str, dict[str, str]]:
        """table -> column -> what it means, for the columns whose meaning is known."""
        return {
            name: {c.name: c.meaning for c in table.columns if c.meaning}
            for name, table in self.tables.items()
            if any(c.meaning for c in table.columns)
        }

    def text_columns(self) -> dict[str, dict[str, bool]]:
        """table -> {text column (lower case): whether its sample values are all numbers}, for the fix-ups
        that read text as numbers."""
        return {
            name: {
                c.name.lower(): _all_numbers(c.samples) for c in table.columns if c.type.upper().startswith(TEXT_TYPES)
            }
            for name, table in self.tables.items()
        }

    def moment_columns(self) -> dict[str, set[str]]:
        """table -> its TIMESTAMP columns (lower case), for the fix-up that compares their days."""
        return {
            name: {c.name.lower() for c in table.columns if c.type.upper().startswith(MOMENT_TYPES)}
            for name, table in self.tables.items()
        }

    def text_column_pairs(self, names: Iterable[str] | None = None) -> list[tuple[str, str]]:
        """(table, column) of the text columns of tables `names` (None: all), as the catalog names them."""
        return [
            (name, column.name)
            for name in (names if names is not None else self.tables)
            for column in self.tables[name].columns
            if column.type.upper().startswith(TEXT_TYPES)
        ]

    def prompt_text(self, names: Iterable[str] | None = None, writes: bool = False) -> str:
        """The CREATE TABLEs of tables `names` (None: all); `writes`: DataFrames are said to be read-only."""
        chosen = self.tables if names is None else {n: self.tables[n] for n in names if n in self.tables}
        return "\n\n".join(table.ddl(writes) for table in chosen.values())

    def __len__(self) -> int:
        return len(self.tables)


def _all_numbers(values: Iterable[str]) -> bool:
    """
    >>> _all_numbers(["12", "-3.5", "1e3"]), _all_numbers(["12", "A7"]), _all_numbers([])
    (True, False, False)
    """
    found = False
    for value in values:
        try:
            float(value)
        except ValueError:
            return False
        found = True
    return found


def _keys(session: Session) -> tuple[dict[str, tuple[str, ...]], dict[str, list[ForeignKey]]]:
    primary: dict[str, tuple[str, ...]] = {}
    foreign: dict[str, list[ForeignKey]] = {}
    for table, kind, columns, referenced, referenced_columns in session.rows(
        "SELECT CASE WHEN database_name = current_database() THEN table_name ELSE database_name || '.' || table_name END,"
        " constraint_type, constraint_column_names,"
        " CASE WHEN database_name = current_database() THEN referenced_table ELSE database_name || '.' || referenced_table END,"
        " referenced_column_names FROM duckdb_constraints()"
        " WHERE constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY') AND schema_name = 'main'"
        " AND (database_name = current_database() OR list_contains(?, database_name))",
        [list(session.attached)],
    ):
        if kind == "PRIMARY KEY":
            primary[table] = tuple(columns)
        else:
            foreign.setdefault(table, []).append(ForeignKey(tuple(columns), referenced, tuple(referenced_columns)))
    return primary, foreign


def _count(session: Session, table: str) -> int:
    if session.remote is not None and session.is_remote(table):
        return session.remote.row_count(table)  # the sample here is not the table
    return session.rows(f"SELECT count(*) FROM {quote_table(table)}")[0][0]


def _samples(session: Session, table: str, column: str, data_type: str, limit: int) -> tuple[str, ...]:
    """The `limit` most frequent values of a text column, or all of them when there are at most
    ALL_VALUES_UP_TO (a low-cardinality column: the model then knows every value it may compare with)."""
    if not limit or not data_type.upper().startswith(TEXT_TYPES):
        return ()
    quoted = quote_identifier(column)  # the most frequent values first, ties by value: a stable prompt
    rows = session.rows(
        f"SELECT {quoted} FROM {quote_table(table)} WHERE {quoted} IS NOT NULL"
        f" GROUP BY {quoted} ORDER BY count(*) DESC, {quoted} LIMIT {ALL_VALUES_UP_TO + 1}"
    )
    shown = rows if len(rows) <= ALL_VALUES_UP_TO else rows[:limit]
    return tuple(str(value)[:SAMPLE_CHARS] for (value,) in shown)
