"""A live, plain rich-output view: one display that is re-rendered as controller events arrive."""

from __future__ import annotations

import time

from IPython.display import DisplayHandle, display

from ..controller.events import Event, ModelText
from ..widgets.render import mime_bundle
from ..widgets.state import ChainState

STREAM_REFRESH_S = 0.25  # re-render streamed model output at most this often


class LiveDisplay:
    def __init__(self, preview_rows: int = 10) -> None:
        self.state = ChainState(preview_rows=preview_rows)
        self._handle: DisplayHandle | None = None
        self._last_render = 0.0

    def apply(self, event: Event) -> None:
        self.state.apply(event)
        now = time.monotonic()
        if isinstance(event, ModelText) and now - self._last_render < STREAM_REFRESH_S:
            return
        self._last_render = now
        self._render()

    def _render(self) -> None:
        bundle = mime_bundle(self.state)
        if self._handle is None:
            self._handle = display(bundle, raw=True, display_id=True)
        else:
            self._handle.update(bundle, raw=True)
