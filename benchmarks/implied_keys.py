"""The keys the data implies (`grounding/keys.py`) against the foreign keys the 15 Spider databases declare.

Each database's tables are bound as DataFrames (no declared keys, as in a notebook); the references the
data implies are compared with the declared foreign keys of the SQLite file. Prints, per database and in
all, the declared keys found, those missed, and the implied references that no declared key states.

    python benchmarks/implied_keys.py
"""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

from spider import DATASET, read_sqlite

from jupyter_chatdb.grounding.keys import ImpliedKeys
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session


def declared(path: Path) -> set[tuple[str, str, str, str]]:
    """(table, column, target, key) of every single-column foreign key, in lower case."""
    found = set()
    with sqlite3.connect(path) as con:
        tables = [row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in con.execute(f'PRAGMA foreign_key_list("{table}")'):
                _, _, target, column, key = row[:5]
                if key is None:  # refers to the target's primary key
                    pk = [r[1] for r in con.execute(f'PRAGMA table_info("{target}")') if r[5]]
                    key = pk[0] if len(pk) == 1 else None
                if key is not None:
                    found.add((table.lower(), column.lower(), target.lower(), key.lower()))
    return found


def main() -> int:
    total_found = total_declared = total_other = 0
    started = time.perf_counter()
    for path in sorted((DATASET / "database").glob("*.sqlite")):
        session = Session()
        for name, frame in read_sqlite(path).items():
            session.bind(name, frame)
        implied = {
            (r.table.lower(), r.column.lower(), r.target.lower(), r.key.lower())
            for r in ImpliedKeys().references(Catalog.read(session), session)
        }
        keys = declared(path)
        found, other = keys & implied, implied - keys
        total_found, total_declared, total_other = (
            total_found + len(found),
            total_declared + len(keys),
            total_other + len(other),
        )
        print(f"{path.stem:32} declared {len(keys):3}  found {len(found):3}  not declared {len(other):3}")
        for reference in sorted(other):
            print(f"{'':34}not declared: {reference[0]}.{reference[1]} -> {reference[2]}.{reference[3]}")
        session.close()
    print(
        f"all: {total_found} of {total_declared} declared keys found, {total_other} implied that none declares "
        f"({time.perf_counter() - started:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
