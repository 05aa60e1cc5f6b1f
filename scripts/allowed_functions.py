"""Write jupyter_chatdb/sql/allowed_functions.txt: the functions model-written SQL may call.

Run with the pinned DuckDB (`.venv/bin/python scripts/allowed_functions.py`) and review the diff: the
list is committed, so a new DuckDB release adds no function to it until someone has looked at it.
It holds DuckDB's own scalar, aggregate and macro functions (no extension is loaded in the engine)
minus every function that touches anything but its arguments: settings, variables, sequences,
SQL execution, logging, sleeping, the catalog and the environment. Table functions are not listed
here: the guard allows only the few that compute (range, unnest, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

TARGET = Path(__file__).resolve().parents[1] / "jupyter_chatdb" / "sql" / "allowed_functions.txt"

DENIED = {
    # sequences advance (or are read) only in writes: the guard allows these there and nowhere else
    "nextval",
    "currval",
    # settings, variables and state of the process
    "current_setting",
    "getvariable",
    "getenv",
    "setseed",
    "current_query",
    "current_query_id",
    # run or expose SQL and plans
    "json_serialize_sql",
    "json_deserialize_sql",
    "json_serialize_plan",
    "json_execute_serialized_sql",
    # logging and sleeping
    "write_log",
    "parse_duckdb_log_message",
    "pg_sleep",
    "sleep_ms",
    # catalog lookups (PostgreSQL compatibility): they read other objects than their arguments
    "col_description",
    "obj_description",
    "shobj_description",
    "pg_get_constraintdef",
    "pg_get_expr",
    "pg_get_viewdef",
    "pg_has_role",
    "in_search_path",
    "current_schemas",
}
DENIED_PATTERNS = (
    r"__internal_.*",  # DuckDB's own compression helpers
    r"has_.*_privilege",
    r"pg_.*_is_visible",
    "pg_is_other_temp_schema",
    "pg_my_temp_schema",
    "pg_postmaster_start_time",
    "pg_conf_load_time",
)


def allowed(name: str) -> bool:
    return name not in DENIED and not any(re.fullmatch(pattern, name) for pattern in DENIED_PATTERNS)


def main() -> None:
    con = duckdb.connect()
    names = sorted(
        {
            name
            for (name,) in con.execute(
                "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_type IN ('scalar', 'aggregate', 'macro')"
            ).fetchall()
        }
    )
    kept = [name for name in names if allowed(name)]
    source = f"DuckDB {duckdb.__version__}: {len(kept)} of {len(names)} functions"
    header = f"# Written by scripts/allowed_functions.py from {source}.\n"
    TARGET.write_text(header + "\n".join(kept) + "\n")
    print(f"{TARGET}: {len(kept)} allowed, {len(names) - len(kept)} denied")


if __name__ == "__main__":
    main()
