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

from IPython.display import DisplayHandle, display

from ..controller.events import Event, ModelText, Reply
from ..sql.replays import result_digest
from ..widgets.chain import Actions, ChainView
from ..widgets.render import mime_bundle
from ..widgets.state import ChainState

if TYPE_CHECKING:
    from ..api import ChatDB

STREAM_REFRESH_S = 0.25  # re-render streamed model output at most this often
METADATA_KEY = "jupyter_chatdb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class View:
    """Plain rich output: one display re-rendered as events arrive (terminal IPython, tests)."""

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
        if isinstance(event, ModelText) and now - self._last_render < STREAM_REFRESH_S:
            return
        self._last_render = now
        self.refresh()

    def finished(self, reply: Reply) -> None:
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

    def failed(self, message: str) -> None:
        self.state.failed(message)
        self.refresh(final=True)

    def approving(self) -> None:
        self.state.approving()
        self.refresh()

    def rejected(self) -> None:
        self.state.rejected()
        self.refresh(final=True)

    def step_rerun(self, index: int, reply: Reply) -> None:
        self.state.rerun(index, reply)
        self.refresh(final=True)

    def step_rerun_failed(self, index: int, sql: str, message: str) -> None:
        self.state.rerun_failed(index, sql, message)
        self.refresh(final=True)

    def refresh(self, final: bool = False) -> None:
        self._show(mime_bundle(self.state))

    def _show(self, bundle: Mapping[str, object]) -> None:
        if self._handle is None:
            self._handle = display(bundle, raw=True, metadata=self._metadata, display_id=True)
        else:
            self._handle.update(bundle, raw=True, metadata=self._metadata)


class WidgetView(View):
    """The live chain widget, with the static rendering beside it in the same output.

    Frontends with the widget manager show the widget; nbconvert, GitHub and viewers without a
    kernel show the text/html. The static part is rewritten only when the chain ends, so the live
    widget is not redrawn on every event.
    """

    def __init__(self, state: ChainState, kernel_id: str = "") -> None:
        super().__init__(state)
        self.widget = ChainView(state, self.actions, kernel_id=kernel_id)

    def refresh(self, final: bool = False) -> None:
        self.widget.refresh()
        if final or self._handle is None:
            widget_data, _ = cast(tuple[dict[str, object], dict[str, object]], self.widget._repr_mimebundle_())
            self._show({**mime_bundle(self.state), WIDGET_MIME: widget_data[WIDGET_MIME]})


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
