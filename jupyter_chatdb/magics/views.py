"""The views a cell shows: the live widget in a Jupyter kernel, plain rich output elsewhere.

Both keep a `ChainState` that only events (and the user's decisions) change, and both write the
static text/html and text/markdown of the chain, so a saved notebook reads well without a kernel.
The final output also carries provenance metadata: the model, the SQL and a hash of the result.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pandas as pd
from IPython.display import DisplayHandle, Image, display

from ..controller.events import Event, ModelText, Reply, TablesSelected
from ..sql.replays import result_digest
from ..widgets.chain import Actions, ChainView
from ..widgets.chart import chart_png, choose_chart
from ..widgets.render import mime_bundle
from ..widgets.state import ChainState

if TYPE_CHECKING:
    from ..api import ChatDB

STREAM_REFRESH_S = 0.25  # re-render streamed model output at most this often
METADATA_KEY = "jupyter_chatdb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
PENDING_HINT = "%chatdb approve applies it; %chatdb reject drops it."


class View:
    """Plain rich output: one display re-rendered as events arrive (terminal IPython, tests)."""

    settled = True  # nothing live to turn static later

    def __init__(self, state: ChainState) -> None:
        self.state = state
        self.actions = Actions()
        self._handle: DisplayHandle | None = None
        self._last_render = 0.0
        self._metadata: dict[str, object] = {}
        self.pending: tuple[ChatDB, Reply] | None = None  # the writes this view waits to have approved

    def apply(self, event: Event) -> None:
        self.state.apply(event)
        now = time.monotonic()
        if isinstance(event, ModelText) and event.text and now - self._last_render < STREAM_REFRESH_S:
            return  # streamed text is drawn a few times a second; a call's start (no text yet) at once
        self._last_render = now
        self.refresh()

    def finished(self, reply: Reply, value_below: bool = False) -> None:
        """The request ended; `value_below`: its result is the cell's value (shown once, there)."""
        if value_below:
            self.state.result_is_cell_value()
        self._metadata = {
            METADATA_KEY: {
                "model": reply.model,
                "request": reply.request,
                "sql": reply.sql,
                "result_sha256": result_digest(reply.result),
                "pending": reply.pending,
            }
        }
        self.refresh(final=True)

    def failed(self, message: str, shown_below: bool = False) -> None:
        self.state.failed(message, shown_below)
        self.refresh(final=True)

    def approving(self) -> None:
        self.state.approving()
        self.refresh()

    def kept(self, note: str) -> None:
        """What keeping the approved writes as a procedure came to, said on the card."""
        self.state.kept(note)
        self.refresh(final=True)

    def rejected(self) -> None:
        self.state.rejected()
        self.refresh(final=True)

    def verified(self, note: str) -> None:
        """What marking the read right came to, said on the card."""
        self.state.verified(note)
        self.refresh(final=True)

    def step_rerun(self, index: int, reply: Reply) -> None:
        self.state.rerun(index, reply)
        self.refresh(final=True)

    def step_rerun_failed(self, index: int, sql: str, message: str) -> None:
        self.state.rerun_failed(index, sql, message)
        self.refresh(final=True)

    def refresh(self, final: bool = False) -> None:
        self._show(mime_bundle(self.state))

    def settle(self) -> None:
        """Nothing is live in plain output."""

    def _show(self, bundle: Mapping[str, object]) -> None:
        if self._handle is None:
            self._handle = display(bundle, raw=True, metadata=self._metadata, display_id=True)
        else:
            self._handle.update(bundle, raw=True, metadata=self._metadata)


class WidgetView(View):
    """The live chain widget while the request runs or waits for the user, then its static rendering.

    A saved widget output reads "model not found" in JupyterLab once its kernel is gone, so the
    output keeps the widget only while something is left to click: a running request (Stop), a write
    waiting for approval, a failure to edit and run again, a read to mark right. It then becomes static HTML (`settle`):
    when the request is done, and at the latest when the next cell runs. nbconvert, GitHub and
    viewers without a kernel read the static part, which is rewritten only when the chain ends.
    """

    def __init__(self, state: ChainState, kernel_id: str = "") -> None:
        super().__init__(state)
        self.widget = ChainView(state, self.actions, kernel_id=kernel_id)
        self.settled = False

    def refresh(self, final: bool = False) -> None:
        clickable = self.state.phase == "done" and self.state.verifiable and self.actions.verify is not None
        if self.settled or (final and self.state.phase in ("done", "rejected") and not clickable):
            self.settle()
            return
        self.widget.refresh()
        if final or self._handle is None:
            widget_data, _ = cast(tuple[dict[str, object], dict[str, object]], self.widget._repr_mimebundle_())
            self._show({**mime_bundle(self.state), WIDGET_MIME: widget_data[WIDGET_MIME]})

    def settle(self) -> None:
        """Show the chain as static output from now on, and close the widget."""
        if not self.settled and self.state.phase == "pending":
            self.state.note = f"{self.state.note} {PENDING_HINT}"
        self.settled = True
        self._show(mime_bundle(self.state))
        self.widget.close()


def show_chart(result: pd.DataFrame) -> None:
    """A chart under the card, where the result's shape suits one (`widgets/chart.py`)."""
    chart = choose_chart(result)
    if chart is not None:
        display(Image(chart_png(result, chart), format="png"), metadata={METADATA_KEY: {"chart": chart.kind}})


def make_view(shell: object, preview_rows: int, verbose: bool = False) -> View:
    state = ChainState(preview_rows=preview_rows, verbose=verbose)
    kernel = getattr(shell, "kernel", None)
    if kernel is None:  # no frontend to draw widgets: plain rich output
        return View(state)
    return WidgetView(state, kernel_id=_kernel_id())


def _kernel_id() -> str:
    """The kernel's id as the Jupyter server knows it (its connection file is kernel-<id>.json)."""
    try:
        from ipykernel.connect import get_connection_file

        name = Path(get_connection_file()).stem
    except (ImportError, RuntimeError, AttributeError):
        return os.environ.get("JPY_KERNEL_ID", "")
    return name.removeprefix("kernel-")


def with_selection(tables: pd.DataFrame, selection: TablesSelected | None) -> pd.DataFrame:
    """The tables with what the last request's schema selection made of each: chosen tables first
    (in the model's order), then the others it considered, then the rest; `why` says why each was considered."""
    if selection is None:
        return tables
    chosen = {name: rank for rank, name in enumerate(selection.chosen, start=1)}
    changed = dict(selection.changes)
    considered = {
        name: "; ".join([*reasons, *([changed[name]] if name in changed else [])])
        for name, _, reasons in selection.considered
    }
    tables = tables.assign(
        last_request=[
            f"chosen ({chosen[t]})" if t in chosen else "considered" if t in considered else "" for t in tables["table"]
        ],
        why=[considered.get(t, "") for t in tables["table"]],
    )
    order = [chosen.get(t, len(chosen) + (1 if t in considered else 2)) for t in tables["table"]]
    return tables.iloc[sorted(range(len(tables)), key=order.__getitem__)].reset_index(drop=True)
