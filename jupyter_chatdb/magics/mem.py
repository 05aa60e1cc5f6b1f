"""`%mem`: show and edit the notebook's thought memory."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.display import display

from ..errors import ChatDBError
from ..kernel_memory import evidence, exports
from ..kernel_memory.store import Record
from ..kernel_memory.thoughts import ThoughtMemory
from ..widgets.memory import COLUMNS, Freshness, MemoryBrowser, thought_row
from .cell_words import split_words, whole_number
from .chatdb import ChatDBMagics

COMMANDS = ("list", "search", "add", "forget", "merge", "history", "export", "import", "clear", "rebuild")


@magics_class
class MemMagics(Magics):
    def __init__(self, shell, chatdb: ChatDBMagics) -> None:
        super().__init__(shell=shell)
        self.chatdb = chatdb
        self.browser: MemoryBrowser | None = None  # the last memory browser shown

    @line_cell_magic
    def mem(self, line: str, cell: str | None = None) -> object:
        """Show and edit the notebook's thought memory.

        %mem                  how many thoughts, where they are kept
        %mem list [N]         the N newest live thoughts (default 20); in JupyterLab a browser with search and Forget
        %mem search TEXT      the thoughts most related to TEXT
        %%mem add             each line of the cell is a statement; the model turns it into thoughts
        %mem forget ID|TEXT   forget a thought (by id, or the one most like TEXT); it stays in its history
        %mem merge            consolidate now: of thoughts with the same subject and relation keep the newest
        %mem history ID       a thought and the thoughts that replaced it
        %mem export PATH      every record, as JSON Lines
        %mem import PATH      add the live thoughts of an export
        %mem clear --yes      delete every record
        %mem rebuild          rebuild the search index from the records
        """
        words = split_words(line, "%mem")
        command, rest = (words[0], words[1:]) if words else ("", [])
        if cell is not None:
            if command != "add":
                raise UsageError("As a cell magic, %%mem only adds: %%mem add, then one statement per line.")
            return self._add(cell)
        if command and command not in COMMANDS:
            raise UsageError(f"Unknown %mem command {command!r}: use one of {', '.join(COMMANDS)} (see %mem?).")
        memory = self._memory()
        if not command:
            self._summary(memory)
            return None
        if command == "add":
            raise UsageError("Use %%mem add as a cell magic, with one statement per line below it.")
        return getattr(self, f"_{command}")(memory, rest)

    def _memory(self) -> ThoughtMemory:
        memory = self.chatdb.memory
        if memory is None:
            why = self.chatdb.memory_off or "it is turned off (%config ChatDB.memory = True turns it on)"
            raise ChatDBError(f"Thought memory is not available: {why}")
        return memory

    def _has_widgets(self) -> bool:
        """In a Jupyter kernel the lists are the memory browser; elsewhere plain tables."""
        return getattr(self.shell, "kernel", None) is not None

    def _browse(self, browser: MemoryBrowser) -> None:
        """Show the browser until the next cell runs; then its output is the static table it shows."""
        self.browser = browser
        handle = display(browser, display_id=True)

        def settle() -> None:
            static = {"text/html": browser.static_html(), "text/plain": browser.frame().to_string(index=False)}
            if handle is not None:
                handle.update(static, raw=True)
            browser.close()

        self.chatdb.live.add(settle)

    def _summary(self, memory: ThoughtMemory) -> None:
        records = memory.store.all()
        live = sum(r.live for r in records)
        print(
            f"{live} thought{'s' if live != 1 else ''} in memory "
            f"({len(records) - live} in history) at {memory.store.path or 'in memory'}"
        )

    def _list(self, memory: ThoughtMemory, words: list[str]) -> object:
        limit = whole_number(words, "%mem list [N]", default=20)
        if self._has_widgets():
            self._browse(MemoryBrowser(memory, limit=limit, freshness=self._freshness_now()))
            return None
        return _frame(memory.store.live(limit), self._freshness_now())

    def _search(self, memory: ThoughtMemory, words: list[str]) -> object:
        if not words:
            raise UsageError("Use %mem search TEXT.")
        if self._has_widgets():
            self._browse(MemoryBrowser(memory, query=" ".join(words), limit=10, freshness=self._freshness_now()))
            return None
        recalled = memory.recall(" ".join(words), k=10, min_similarity=0.0)
        frame = _frame([r.record for r in recalled], self._freshness_now())
        frame.insert(1, "similarity", [round(r.similarity, 3) for r in recalled])
        return frame

    def _add(self, cell: str) -> pd.DataFrame:
        memory = self._memory()
        statements = [line.strip() for line in cell.splitlines() if line.strip()]
        if not statements:
            raise UsageError("Write one statement per line below %%mem add.")
        stored: list[Record] = []
        for statement in statements:
            thoughts = self.chatdb.engine.thoughts_from(statement)
            for outcome in memory.remember_all(thoughts, source=f"%%mem add: {statement}"):
                stored.append(
                    outcome.record if outcome.record is not None else memory.store.get(outcome.duplicate_of or 0)
                )
        return _frame(stored)

    def _forget(self, memory: ThoughtMemory, words: list[str]) -> None:
        if not words:
            raise UsageError("Use %mem forget ID or %mem forget TEXT.")
        forgotten = (
            memory.forget([int(words[0])])
            if len(words) == 1 and words[0].isascii() and words[0].isdigit()  # "²" is a digit, but no int
            else memory.forget_matching(" ".join(words))
        )
        print(
            f"Forgot thought {forgotten[0]}: {memory.store.get(forgotten[0]).text}"
            if forgotten
            else "No live thought matches that."
        )

    def _merge(self, memory: ThoughtMemory, words: list[str]) -> None:
        merged = memory.merge()
        print(
            f"Merged {merged} thought{'s' if merged != 1 else ''} into newer ones with the same subject and relation."
        )

    def _history(self, memory: ThoughtMemory, words: list[str]) -> pd.DataFrame:
        return _frame(memory.store.history(whole_number(words, "%mem history ID")), live_only=False)

    def _freshness_now(self) -> Freshness:
        """How a result thought stands against the notebook's frames and tables as they are now."""
        engine, shell = self.chatdb.engine, self.shell
        assert shell is not None, "the magics are not registered with a shell"
        engine.bind_frames(shell.user_ns)
        return lambda record: evidence.freshness(record, engine.session)

    def _export(self, memory: ThoughtMemory, words: list[str]) -> None:
        path = _path(words, "export PATH")
        print(f"Exported {exports.export(memory.store, path)} records to {path}.")

    def _import(self, memory: ThoughtMemory, words: list[str]) -> None:
        """Every line is read and checked before any thought is added: a bad line adds nothing."""
        path = _path(words, "import PATH")
        added = sum(memory.remember(i.thought, source=i.source).record is not None for i in exports.read_export(path))
        print(f"Imported {added} thought{'s' if added != 1 else ''} from {path}.")

    def _clear(self, memory: ThoughtMemory, words: list[str]) -> None:
        if words != ["--yes"]:
            raise UsageError("%mem clear deletes every record for good: confirm with %mem clear --yes.")
        print(f"Deleted {memory.clear()} records.")

    def _rebuild(self, memory: ThoughtMemory, words: list[str]) -> None:
        print(f"Rebuilt the index from {memory.rebuild()} live thoughts.")


def _frame(records: list[Record], freshness: Freshness | None = None, live_only: bool = True) -> pd.DataFrame:
    columns = COLUMNS + ([] if live_only else ["superseded_by", "valid_to"])
    return pd.DataFrame([thought_row(r, freshness, columns) for r in records], columns=columns)


def _path(words: list[str], usage: str) -> Path:
    if len(words) != 1:
        raise UsageError(f"Use %mem {usage}.")
    return Path(words[0]).expanduser()
