"""The database side of the facade: binding DataFrames, attached files and remote engines, what is
there to ask, and the journal of applied writes."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import ChatDBError, QueryFailed
from ..grounding.selection import SchemaIndex
from ..grounding.values import ValueIndex
from ..llm.base import LLM
from ..sql import remote
from ..sql.journal import Journal
from ..sql.remote import RemoteEngine
from ..sql.session import Binding, Session
from ..sql.undo import Undone


@dataclass(frozen=True)
class Status:
    model: str
    frames: list[str]  # bound DataFrames
    stored: list[str]  # the session's own tables
    attached: list[str]  # tables of attached databases, as database.table
    applied: int  # write requests applied (undone ones included)
    remote: str | None = None  # the remote engine connected, in words
    remote_tables: list[str] = dataclasses.field(default_factory=list)  # its tables, read there


class DataMethods:
    """What `ChatDB` does with its session and journal alone, without the model."""

    model: LLM
    session: Session
    journal: Journal
    values: ValueIndex
    table_index: SchemaIndex

    def register(self, name: str, frame: pd.DataFrame) -> None:
        """Make `frame` queryable as table `name` (a live view: later changes to it are seen)."""
        self.session.bind(name, frame)

    def attach(self, path: str | Path, name: str | None = None) -> str:
        """Make another DuckDB file's tables queryable, read-only, as `name.table` (name: the file's stem)."""
        return self.session.attach(path, name)

    def bind_frames(self, namespace: Mapping[str, object]) -> Binding:
        """Bind every DataFrame of `namespace` by its variable name; drop names no longer there."""
        return self.session.bind_frames(namespace)

    def connect(self, target: object) -> list[str]:
        """Read the tables of a remote engine: a SparkSession, a Spark URL (sc://host:15002 for Spark
        Connect, spark://host:7077 or local[2] for a master), an SQLAlchemy engine or URL, or a
        `RemoteEngine`. Reads of its tables run there, in its dialect with the same meaning (or are
        refused); writes there are refused. Returns its tables."""
        engine = target if isinstance(target, RemoteEngine) else remote.connect(target)
        return self.session.connect_remote(engine)

    def disconnect(self) -> None:
        """Stop reading the remote engine's tables."""
        self.session.disconnect_remote()

    def status(self) -> Status:
        """What a request can use now, and how many write requests were applied."""
        return Status(
            self.model.name,
            sorted(self.session.frames),
            sorted(self.session.stored_tables()),
            self.session.attached_tables(),
            len(self.history()),
            self.session.remote.engine.describe() if self.session.remote else None,
            sorted(self.session.remote.columns) if self.session.remote else [],
        )

    def tables(self) -> pd.DataFrame:
        """The tables requests can use: name, kind (DataFrame or stored), rows, columns and description."""
        tables = self.session.tables()
        tables["description"] = [self.table_index.notes.get(name, "") for name in tables["table"]]
        return tables

    def describe(self, target: str, description: str) -> None:
        """Say in words what a table holds (`target` a table: schema selection finds it by this too) or what
        a column means (`target` "table.column": every prompt shows it beside the column, and a question
        naming the meaning finds the column); "" removes it. Kept with the notebook's memory."""
        tables = set(self.session.frames) | self.session.stored_tables() | set(self.session.attached_tables())
        if self.session.remote is not None:
            tables |= set(self.session.remote.columns)
        if target in tables:
            self.table_index.describe(target, description)
            if self.values.saved is not None:
                self.values.saved.save_note(target, description)
            return
        table, dot, column = target.rpartition(".")
        if not dot or table not in tables:
            raise ChatDBError(f"There is no table {target!r}: %chatdb tables lists them.")
        table, column = self.session.describe(table, column, description)
        if self.values.saved is not None:
            self.values.saved.save_column_note(table, column, description)

    def history(self) -> pd.DataFrame:
        """The applied write requests, oldest first, with their SQL and whether they were undone."""
        return self.journal.history()

    def undo(self, n: int = 1) -> list[Undone]:
        """Undo the last `n` applied write requests; what each took back (`.summary` says it in words)."""
        return self.journal.undo(n)

    def restore(self, request_id: int) -> list[Undone]:
        """Bring the data back to how it was right after request `request_id` (0: before the first); what
        each request undone took back."""
        return self.journal.restore(request_id)


def bootstrap(session: Session, schema: str | Path) -> None:
    """Run `schema` (a .sql file or SQL text) when the database has no tables yet."""
    path = Path(schema) if isinstance(schema, Path) or str(schema).strip().endswith(".sql") else None
    if path is not None and not path.is_file():
        raise ChatDBError(f"No schema file at {path}: give a .sql file or the SQL text itself.")
    if session.stored_tables():
        return  # an existing database keeps its tables
    text = path.read_text() if path else str(schema)
    try:
        session.run(text)
    except QueryFailed as error:
        raise ChatDBError(f"The schema did not load: {str(error).splitlines()[0]}") from None
