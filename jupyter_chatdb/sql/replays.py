"""Recorded plans of answered requests, so a cell can be re-run without the model (`%%chatdb --replay`).

They live beside the journal in the database's private schema: with a database file they survive a
kernel restart; with an in-memory database they last as long as the kernel.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import pandas as pd

from .session import Session

SCHEMA = "chatdb_journal"
TABLE = f"{SCHEMA}.replays"


@dataclass(frozen=True)
class Recorded:
    request: str
    route: str  # read | write
    steps: list[dict[str, object]]  # [{"goal", "sql", "binds"}], placeholders kept
    model: str
    result_sha256: str | None


def result_digest(frame: pd.DataFrame | None) -> str | None:
    """A fingerprint of a result's columns and rows, to tell whether a replay gives the same answer.

    >>> result_digest(pd.DataFrame({"n": [1]})) == result_digest(pd.DataFrame({"n": [1]}))
    True
    >>> result_digest(pd.DataFrame({"n": [1]})) == result_digest(pd.DataFrame({"n": [2]}))
    False
    """
    if frame is None:
        return None
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()


class Replays:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._created = False  # the table was made (or found) by this object: no catalog query per request

    def record(self, recorded: Recorded) -> None:
        self._ensure_table()
        self.session.rows(
            f"INSERT INTO {TABLE} VALUES (current_localtimestamp(), ?, ?, ?, ?, ?)",
            [recorded.request, recorded.route, json.dumps(recorded.steps), recorded.model, recorded.result_sha256],
        )

    def find(self, request: str) -> Recorded | None:
        """The latest recording of exactly this request text, or None."""
        if not self._exists():
            return None
        rows = self.session.rows(
            f"SELECT request, route, steps, model, result_sha256 FROM {TABLE} "
            "WHERE request = ? ORDER BY recorded_at DESC, rowid DESC LIMIT 1",
            [request],
        )
        if not rows:
            return None
        request, route, steps, model, digest = rows[0]
        return Recorded(request, route, json.loads(steps), model, digest)

    def _exists(self) -> bool:
        return bool(
            self.session.rows(
                "SELECT 1 FROM duckdb_tables() WHERE schema_name = ? AND table_name = 'replays'", [SCHEMA]
            )
        )

    def _ensure_table(self) -> None:
        if not self._created:
            self.session.rows(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
            self.session.rows(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (recorded_at TIMESTAMP, request VARCHAR, route VARCHAR,"
                " steps VARCHAR, model VARCHAR, result_sha256 VARCHAR)"
            )
            self._created = True
