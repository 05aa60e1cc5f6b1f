"""What a request is routed as, and the form its SQL is written in: closed sets, as enums.

Both are string enums: a route equals, prints and saves as its word ("read"), as events and saved
benchmarks show it.

>>> Route.READ == "read", f"{Route.CHAT}", str(Form.NATIVE)
(True, 'chat', 'native')
"""

from __future__ import annotations

from enum import Enum


class _Word(str, Enum):  # enum.StrEnum, which Python 3.10 lacks
    def __str__(self) -> str:
        return str(self.value)


class Route(_Word):
    READ = "read"  # a question about the data: SQL that reads
    WRITE = "write"  # a change to the data: SQL that writes (previewed unless writes are allowed)
    DATABASE = "database"  # a question about the database itself, answered by read-only tools
    UNSAFE = "unsafe"  # something no route may do: refused
    CHAT = "chat"  # nothing to run: a definition or preference for the memory, or a chat


class Form(_Word):
    PLAN = "plan"  # JSON steps (the chain-of-memory planner)
    NATIVE = "native"  # one read as SQLite in a code block (`native_sql.py`)
    SQL = "sql"  # one statement as JSON (the Foundation's prompt)
