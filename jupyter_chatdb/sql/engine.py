"""The locked-down DuckDB engine that runs model-written SQL (defence in depth behind the guard).

DuckDB's "Securing DuckDB" guide asks to treat such SQL like untrusted code. Once `connect_locked`
returns, the connection:
- reaches no file but its own database file and the files the user attached (`allowed_paths`), and
  its spill folder, a private temporary one (`enable_external_access = false`);
- installs and loads no extension, community or not, and so reaches no network;
- cannot change any setting again (`lock_configuration = true`), so none of the above can be undone.

What it does not stop: functions with effects inside the engine itself (profiling, logging,
checkpoints, sequences). Those are the guard's job: it allows only functions that compute.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import duckdb

from .names import quote_string

# set when the instance starts: they cannot be changed later, by us or by a statement
START_SETTINGS: dict[str, str | bool | int | float | list[str]] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "allow_persistent_secrets": False,
}
LOCKED_SETTINGS = {  # what a locked engine reports in duckdb_settings(); tests and the fuzz check them
    "enable_external_access": "false",
    "lock_configuration": "true",
    "autoinstall_known_extensions": "false",
    "autoload_known_extensions": "false",
    "allow_community_extensions": "false",
}


def connect_locked(database: Path, readable: Iterable[Path]) -> duckdb.DuckDBPyConnection:
    """A connection to `database` that can read only `readable` files besides it, then locked.

    A database file already open in this process with the same settings shares its engine, which is
    locked already: it keeps the files it was given then.
    """
    settings = {**START_SETTINGS, "temp_directory": str(spill_folder())}
    con = duckdb.connect(str(database), config=settings)
    if is_locked(con):
        return con
    try:
        paths = [str(path) for file in readable for path in (file, Path(f"{file}.wal"))]
        con.execute(f"SET allowed_paths = [{', '.join(quote_string(p) for p in paths)}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


@cache
def spill_folder() -> Path:
    """The process's private folder for DuckDB's temporary files (the one folder the engine may write)."""
    folder = Path(tempfile.mkdtemp(prefix="chatdb-spill-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def is_locked(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether `con` has every setting of a locked engine."""
    names = list(LOCKED_SETTINGS)
    found = dict(
        con.execute("SELECT name, value FROM duckdb_settings() WHERE list_contains(?, name)", [names]).fetchall()
    )
    return all(found.get(name) == value for name, value in LOCKED_SETTINGS.items())
