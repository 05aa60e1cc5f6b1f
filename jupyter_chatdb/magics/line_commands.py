"""The `%chatdb COMMAND ...` line commands: each takes the magics and the words after its name, and
its value, if any, is the cell's. `COMMANDS` names them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd
from IPython.core.error import UsageError

from ..errors import ChatDBError
from .books import described, procedures_command, rules_command, verified_command
from .cell_words import keep_name, said_requests, whole_number
from .views import with_selection

if TYPE_CHECKING:
    from .chatdb import ChatDBMagics


def disconnect(magics: ChatDBMagics, rest: list[str]) -> None:
    magics.engine.disconnect()
    print("Disconnected: the remote engine's tables are no longer read.")


def history(magics: ChatDBMagics, rest: list[str]) -> pd.DataFrame:
    return magics.engine.history()


def undo(magics: ChatDBMagics, rest: list[str]) -> None:
    for undone in magics.engine.undo(whole_number(rest, "%chatdb undo [N]", default=1)):
        print(undone.summary)


def restore(magics: ChatDBMagics, rest: list[str]) -> None:
    undone = magics.engine.restore(whole_number(rest, "%chatdb restore ID"))
    if not undone:
        print("Nothing to undo: the data is already as it was then.")
    for each in undone:
        print(each.summary)
    if undone:
        print(f"Restored: undid {said_requests([each.request_id for each in undone])}.")


def model(magics: ChatDBMagics, rest: list[str]) -> None:
    if len(rest) != 1:
        raise UsageError("Use %chatdb model NAME|URL, e.g. %chatdb model local.")
    magics.settings.model = rest[0]
    print(f"Model for the next cells: {magics.engine.model_name}.")


def approve(magics: ChatDBMagics, rest: list[str]) -> None:
    """The pending cell's output shows the steps; the outcome is said here too."""
    name = keep_name(rest)
    print(magics.approve(magics.last_pending).answer)
    if name:
        keep(magics, [name])


def reject(magics: ChatDBMagics, rest: list[str]) -> None:
    magics.reject(magics.last_pending)
    print("Rejected: nothing was written.")


def keep(magics: ChatDBMagics, words: list[str]) -> None:
    if len(words) != 1:
        raise UsageError('Use %chatdb keep NAME, e.g. %chatdb keep "record a delivery".')
    if magics.last_applied is None:
        raise ChatDBError("No write was approved yet: approve a waiting write first, then keep it.")
    engine, reply = magics.last_applied
    procedure = engine.learn(reply, words[0])
    print(f"Kept procedure {words[0]!r}: {described(procedure)}.")


def verify(magics: ChatDBMagics, rest: list[str]) -> None:
    if rest:
        raise UsageError("Use %chatdb verify: it marks the last read right.")
    if magics.last_read is None:
        raise ChatDBError("No read was answered yet: ask a question in a %%chatdb cell, then mark it right.")
    view, engine, reply = magics.last_read
    magics.verify(view, engine, reply)
    print(f"Kept as the verified SQL of {reply.request!r}.")


def verified(magics: ChatDBMagics, words: list[str]) -> object:
    return verified_command(magics.engine.reads, words)


def procedures(magics: ChatDBMagics, words: list[str]) -> object:
    return procedures_command(magics.engine.procedures, words)


def rules(magics: ChatDBMagics, words: list[str]) -> object:
    return rules_command(magics.engine.rules, words)


def step_to_new_cell(magics: ChatDBMagics, words: list[str]) -> None:
    cards = magics.last_view.state.cards if magics.last_view is not None else {}
    if not cards:
        raise UsageError("No step to copy yet: run a %%chatdb cell first.")
    index = whole_number(words, "%chatdb sql [N]", default=max(cards))
    if index not in cards:
        raise UsageError(f"The last request has steps {', '.join(map(str, cards))}, not {index}.")
    magics.kernel.set_next_input(f"%%chatdb --sql\n{cards[index].sql}", replace=False)


def status(magics: ChatDBMagics, rest: list[str]) -> None:
    engine = magics.engine
    engine.bind_frames(magics.kernel.user_ns)
    database = magics.settings.database or "in memory"
    shown = engine.status()
    print(f"Model: {shown.model}")
    print(f"Database: {database}")
    print(f"DataFrames: {', '.join(shown.frames) or 'none'}")
    print(f"Stored tables: {', '.join(shown.stored) or 'none'}")
    if shown.remote:
        print(f"Remote: {shown.remote}, read there: {', '.join(shown.remote_tables) or 'no tables'}")
    print(f"Applied write requests: {shown.applied}")
    memory = magics.memory
    print(
        f"Memory: {len(memory.store)} thoughts in {memory.store.path or 'memory'}"
        if memory
        else f"Memory: off ({magics.memory_off or 'turned off'})"
    )
    if magics.last_pending is not None:
        print("A write is waiting for approval: %chatdb approve or %chatdb reject.")


def tables(magics: ChatDBMagics, rest: list[str]) -> pd.DataFrame:
    engine = magics.engine
    engine.bind_frames(magics.kernel.user_ns)
    selection = magics.last_view.state.selection if magics.last_view is not None else None
    return with_selection(engine.tables(), selection)


def attach(magics: ChatDBMagics, words: list[str]) -> None:
    if len(words) not in (1, 2):
        raise UsageError("Use %chatdb attach FILE [NAME], e.g. %chatdb attach archive.duckdb.")
    engine = magics.engine
    name = engine.attach(*words)
    tables = [t for t in engine.status().attached if t.startswith(name + ".")]
    print(f"Attached {words[0]} as {name}: its tables are {', '.join(tables) or 'none'} (read-only).")


def connect(magics: ChatDBMagics, words: list[str]) -> None:
    if len(words) != 1:
        raise UsageError("Use %chatdb connect TARGET, e.g. %chatdb connect spark (a SparkSession variable).")
    named = magics.kernel.user_ns.get(words[0])
    target = named if named is not None and not isinstance(named, str) else words[0]
    tables = magics.engine.connect(target)
    print(
        f"Connected to {magics.engine.status().remote}: {', '.join(tables) or 'no tables'} "
        "(reads run there; writes there are refused)."
    )


def describe(magics: ChatDBMagics, words: list[str]) -> None:
    if len(words) != 2:
        raise UsageError(
            'Use %chatdb describe TABLE "what it holds", or TABLE.COLUMN "what it means" '
            '(an empty "" removes the description).'
        )
    engine = magics.engine
    engine.bind_frames(magics.kernel.user_ns)
    engine.describe(*words)
    print(f"Described {words[0]}." if words[1].strip() else f"Removed the description of {words[0]}.")


# %chatdb COMMAND ...: what each runs, given the words after it (its value, if any, is the cell's)
COMMANDS: dict[str, Callable[[ChatDBMagics, list[str]], object]] = {
    "tables": tables,
    "describe": describe,
    "attach": attach,
    "connect": connect,
    "disconnect": disconnect,
    "history": history,
    "undo": undo,
    "restore": restore,
    "model": model,
    "approve": approve,
    "reject": reject,
    "keep": keep,
    "verify": verify,
    "verified": verified,
    "procedures": procedures,
    "rules": rules,
    "sql": step_to_new_cell,
}
