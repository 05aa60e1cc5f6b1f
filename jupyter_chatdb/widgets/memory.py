"""The memory browser: a searchable table of thoughts with a Forget button on each row.

The browser side (memory.js) draws the rows and sends searches and forgets back; the kernel answers
them from the ThoughtMemory and updates the rows. Its static output is the same table as HTML.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import anywidget
import pandas as pd
from traitlets import Dict, List, Unicode

from ..kernel_memory.store import Record
from ..kernel_memory.thoughts import ThoughtMemory

HERE = Path(__file__).parent
COLUMNS = ["id", "kind", "text", "source", "freshness", "created"]
Freshness = Callable[[Record], str]  # how a thought stands against the tables now (`evidence.freshness`)


class MemoryBrowser(anywidget.AnyWidget):
    _esm = HERE / "memory.js"
    _css = HERE / "chain.css"

    rows = List(Dict()).tag(sync=True)
    query = Unicode("").tag(sync=True)
    status = Unicode("").tag(sync=True)

    def __init__(
        self,
        memory: ThoughtMemory,
        query: str = "",
        limit: int = 20,
        freshness: Freshness | None = None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.memory, self.limit, self.freshness = memory, limit, freshness
        self.on_msg(self._on_message)
        self.show(query)

    def show(self, query: str = "") -> None:
        """The newest live thoughts, or (with a query) those most related to it."""
        if query.strip():
            records = [r.record for r in self.memory.recall(query, k=self.limit, min_similarity=0.0)]
        else:
            records = self.memory.store.live(self.limit)
        with self.hold_sync():
            self.query, self.rows = query, [thought_row(r, self.freshness) for r in records]
            self.status = f"{len(self.memory.store)} live thoughts" + (
                f"; most related to {query!r} first" if query.strip() else ""
            )

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def _on_message(self, _widget: object, content: dict, _buffers: object) -> None:
        if content.get("action") == "search":
            self.show(str(content.get("text", "")))
        elif content.get("action") == "forget":
            forgotten = self.memory.forget([int(content["id"])])
            self.show(self.query)
            if forgotten:
                self.status = f"Forgot thought {forgotten[0]}. " + self.status

    def static_html(self) -> str:
        return f"<div>{html.escape(self.status)}</div>" + self.frame().to_html(index=False, border=0)

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, metadata


def thought_row(record: Record, freshness: Freshness | None = None, columns: list[str] = COLUMNS) -> dict:
    """One thought as `%mem` shows it: what kind it is, where it came from and how it stands now."""
    row = {column: getattr(record, column) for column in columns if column != "freshness"}
    if "freshness" in columns:
        row["freshness"] = freshness(record) if freshness is not None else ""
    return row
