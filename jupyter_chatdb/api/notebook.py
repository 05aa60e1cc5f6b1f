"""What a notebook's ChatDBs share, side by side in one folder (`.chatdb/<notebook>.*`): the thought
memory, the procedures, the verified reads and the value memory. The magics hold one of these and ask it for engines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ..errors import ChatDBError
from ..kernel_memory.files import MemoryFiles
from ..kernel_memory.procedures import ProcedureBook, ProcedureError
from ..kernel_memory.thoughts import ThoughtMemory, open_memory
from ..kernel_memory.verified_reads import VerifiedReadError, VerifiedReads
from ..llm.base import LLM
from .facade import ChatDB


class NotebookMemory:
    """Opened on first use. A memory that cannot be opened (a folder that cannot be written, a missing
    embedding model) is off for the session, and `off` says why; `say` tells the user once."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.off: str | None = None  # why the thought memory could not be opened
        self._memory: ThoughtMemory | None = None
        self._procedures: ProcedureBook | None = None
        self._reads: VerifiedReads | None = None

    def memory(self, namespace: Mapping[str, object], folder: Path | None) -> ThoughtMemory | None:
        """The notebook's thought memory (its name read from `namespace`; `folder` replaces `.chatdb`)."""
        if self.off is None and self._memory is None:
            try:
                self._memory = open_memory(MemoryFiles.of_notebook(namespace, folder=folder).thoughts)
            except ChatDBError as error:
                self.off = str(error)
                self.say(f"{type(error).__name__}: {error}")
        return self._memory

    def procedures(self) -> ProcedureBook:
        """The notebook's procedures, kept beside its memory (in memory only when that is off or not opened)."""
        if self._procedures is None:
            path = self._memory.store.path if self._memory is not None else None
            try:
                self._procedures = ProcedureBook(None if path is None else MemoryFiles.of_thoughts(path).procedures)
            except ProcedureError as error:
                self.say(f"{type(error).__name__}: {error} They are kept for this session only.")
                self._procedures = ProcedureBook(None)
        return self._procedures

    def reads(self) -> VerifiedReads:
        """The reads the notebook's user verified, kept beside its memory (in memory only when that is off)."""
        if self._reads is None:
            path = self._memory.store.path if self._memory is not None else None
            try:
                self._reads = VerifiedReads(None if path is None else MemoryFiles.of_thoughts(path).reads)
            except VerifiedReadError as error:
                self.say(f"{type(error).__name__}: {error} They are kept for this session only.")
                self._reads = VerifiedReads(None)
        return self._reads

    def chatdb(
        self, model: str | LLM | None, database: str, memory: ThoughtMemory | None, summarize: bool, strategy: str
    ) -> ChatDB:
        """A ChatDB on `database` ("" in memory) that shares the notebook's memory, procedures and value memory."""
        return ChatDB(
            model,
            database or None,
            summarize=summarize,
            strategy=strategy,
            memory=memory,
            values_path=self._values_path(memory),
            procedures=self.procedures(),
            reads=self.reads(),
        )

    @staticmethod
    def _values_path(memory: ThoughtMemory | None) -> Path | None:
        """The value memory lives beside the thought memory: `.chatdb/<notebook>.values.sqlite`."""
        path = memory.store.path if memory is not None else None
        return None if path is None else MemoryFiles.of_thoughts(path).values

    def close(self) -> None:
        if self._memory is not None:
            self._memory.store.close()
            self._memory = None
        if self._procedures is not None:
            self._procedures.close()
            self._procedures = None
        if self._reads is not None:
            self._reads.close()
            self._reads = None
