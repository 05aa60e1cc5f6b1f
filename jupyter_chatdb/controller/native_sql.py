"""The form in which code models were trained to write SQL, for reads: the tables as CREATE TABLE
statements with a few example rows, the question as a SQL comment, and SQLite in a code block back.

Small models write their best SQL this way (constrained JSON costs them accuracy); the SQLite they write
is read into DuckDB's dialect with SQLite's meaning by `sql.fixups.from_sqlite`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..grounding.keys import Reference
from ..grounding.mentions import Mention
from ..llm.base import Message
from ..sql.catalog import Catalog, Table
from ..sql.names import quote_string, quote_table, readable_identifier, readable_table
from ..sql.session import Session

EXAMPLE_ROWS = 3
VALUE_CHARS = 40
STOP = (";", "\n```\n")  # the statement's end, or its code block's: what follows is explanation
ASK = "-- Using valid SQLite, answer the following questions for the tables provided above."


def schema_text(
    catalog: Catalog,
    session: Session,
    names: Sequence[str] | None,
    implied: Sequence[Reference],
    views: Mapping[str, str] | None = None,
) -> str:
    """Each table's CREATE TABLE, with the keys it declares or the data implies (`grounding.keys`), and
    example rows; then the `views` (name -> SELECT) the model may read as well."""
    chosen = [catalog.tables[n] for n in (names if names is not None else catalog.tables) if n in catalog.tables]
    parts = [_table_text(table, session, implied) for table in chosen]
    parts += [f"CREATE VIEW {readable_identifier(name)} AS\n{sql};" for name, sql in (views or {}).items()]
    return "\n\n".join(parts)


def _table_text(table: Table, session: Session, implied: Sequence[Reference]) -> str:
    """The CREATE TABLE, a column's meaning as a comment after it where one is known, and example rows."""
    lines = [f"  {readable_identifier(c.name)} {c.type}" for c in table.columns]
    lines += _keys(table, implied)
    meanings = [c.meaning for c in table.columns] + [""] * (len(lines) - len(table.columns))
    ended = [line + ("," if i < len(lines) - 1 else "") for i, line in enumerate(lines)]
    ended = [f"{line} -- {meaning}" if meaning else line for line, meaning in zip(ended, meanings, strict=True)]
    rows = session.rows(f"SELECT * FROM {quote_table(table.name)} LIMIT {EXAMPLE_ROWS}")
    shown = "\n".join(" ".join(_value(v) for v in row) for row in rows)
    header = " ".join(c.name for c in table.columns)
    return (
        f"CREATE TABLE {readable_table(table.name)} (\n" + "\n".join(ended) + "\n);\n"
        f"/*\n{len(rows)} example rows:\nSELECT * FROM {readable_table(table.name)} LIMIT {EXAMPLE_ROWS};\n{header}\n{shown}\n*/"
    )


def _keys(table: Table, implied: Sequence[Reference]) -> list[str]:
    """The keys a table declares; for one that declares none, the key other tables' references imply and
    its own references."""
    primary = table.primary_key or tuple(dict.fromkeys(r.key for r in implied if r.target == table.name))[:1]
    lines = [f"  PRIMARY KEY ({', '.join(map(readable_identifier, primary))})"] if primary else []
    lines += [_reference(key.columns, key.table, key.references) for key in table.foreign_keys]
    lines += [_reference((r.column,), r.target, (r.key,)) for r in implied if r.table == table.name]
    return lines


def _reference(columns: Sequence[str], table: str, references: Sequence[str]) -> str:
    keys, referenced = ", ".join(map(readable_identifier, columns)), ", ".join(map(readable_identifier, references))
    return f"  FOREIGN KEY ({keys}) REFERENCES {readable_table(table)} ({referenced})"


def _value(value: object) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def sql_messages(
    schema: str,
    question: str,
    notes: Sequence[str] = (),
    mentioned: Sequence[Mention] = (),
    examples: Sequence[tuple[str, str]] = (),
) -> list[Message]:
    """The tables and the instruction first (that prefix is the same for every question, so its state is
    cached), then the `examples` (question, SQL) the user verified on these tables, as questions answered
    before, then any notes and the stored values the question mentions, then the question.

    >>> print(sql_messages("CREATE TABLE t (kind TEXT);", "How many pears?", (), [Mention("t", "kind", "pear")])[0]["content"])
    CREATE TABLE t (kind TEXT);
    <BLANKLINE>
    -- Using valid SQLite, answer the following questions for the tables provided above.
    -- Values in the tables that the question mentions: t.kind = 'pear'
    -- How many pears?
    <BLANKLINE>
    >>> pears = ("How many pears?", "SELECT count(*) FROM t WHERE kind = 'pear'")
    >>> print(sql_messages("CREATE TABLE t (kind TEXT);", "How many plums?", examples=[pears])[0]["content"])
    CREATE TABLE t (kind TEXT);
    <BLANKLINE>
    -- Using valid SQLite, answer the following questions for the tables provided above.
    -- How many pears?
    SELECT count(*) FROM t WHERE kind = 'pear';
    -- How many plums?
    <BLANKLINE>
    """
    answered = "".join(f"-- {_one_line(asked)}\n{sql.strip().rstrip(';')};\n" for asked, sql in examples)
    noted = "".join(f"-- Note: {note}\n" for note in notes)
    if mentioned:
        listed = ", ".join(
            f"{readable_table(m.table)}.{readable_identifier(m.column)} = {quote_string(m.value)}" for m in mentioned
        )
        noted += f"-- Values in the tables that the question mentions: {listed}\n"
    return [{"role": "user", "content": f"{schema}\n\n{ASK}\n{answered}{noted}-- {question}\n"}]


def _one_line(text: str) -> str:
    return " ".join(text.split())


REPAIR = "Write the corrected SQLite query for the same question."


def repair_messages(
    previous: list[Message],
    reply: str,
    sql: str,
    problem: str,
    views: Mapping[str, str] | None = None,
    ask: str = REPAIR,
) -> list[Message]:
    """The conversation so far, the failure, any `views` (name -> SELECT) the corrected query may read,
    and what to write (`ask`)."""
    offered = "".join(
        f"CREATE VIEW {readable_identifier(name)} AS\n{view};\n\n" for name, view in (views or {}).items()
    )
    if offered:
        offered = f"These views join the tables for you; the corrected query may read them:\n{offered}"
    return [
        *previous,
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": f"Running this SQL failed:\n{sql}\nError: {problem}\n{offered}{ask}",
        },
    ]


def reply_sql(text: str, first: str = "SELECT|WITH") -> str:
    """The SQL of a reply: its first ```sql block, else the reply, from its first keyword of `first`
    (SELECT or WITH) up to the first ';' ("" when there is none).

    >>> reply_sql("Here it is:\\n```sql\\nSELECT a FROM t;\\n```\\nIt selects a.")
    'SELECT a FROM t'
    >>> reply_sql("SELECT count(*) FROM t; -- done")
    'SELECT count(*) FROM t'
    """
    block = re.search(r"```(?:sql|sqlite)?[ \t]*\n?(.*?)(?:```|$)", text, re.S | re.I)
    sql = block.group(1) if block else text
    start = re.search(rf"\b({first})\b", sql, re.I)
    return sql[start.start() :].split(";")[0].strip() if start else ""
