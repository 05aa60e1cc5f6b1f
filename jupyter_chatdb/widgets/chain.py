"""The live chain view: one widget whose synced traits are rendered from `ChainState`.

The browser side (chain.js) only draws what the traits say and sends the user's clicks back
(approve, approve and keep as a procedure, reject, re-run an edited step, mark a read right); the Stop button asks the
Jupyter server to interrupt the kernel, which the controller turns into a rollback. Button clicks reach the kernel once the cell
has finished, which is exactly when a pending write waits for approval.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import anywidget
from traitlets import Bool, Dict, List, Unicode

from ..controller.events import Event
from ..errors import ChatDBError
from .render import chain_html
from .state import ChainState

HERE = Path(__file__).parent
LOG = logging.getLogger(__name__)


@dataclass
class Actions:
    """What the view's buttons do; the magic wires them to the engine."""

    approve: Callable[[], object] | None = None
    keep: Callable[[str], object] | None = None  # approve, then keep the writes as the procedure named so
    reject: Callable[[], object] | None = None
    rerun: Callable[[int, str], object] | None = None  # step index, edited SQL
    verify: Callable[[], object] | None = None  # keep the read as a verified example


class ChainView(anywidget.AnyWidget):
    _esm = HERE / "chain.js"
    _css = HERE / "chain.css"

    html = Unicode("").tag(sync=True)  # the request, cards, note and answer, from render.chain_html
    phase = Unicode("running").tag(sync=True)  # running | pending | done | failed | rejected
    steps = List(Dict()).tag(sync=True)  # [{"index", "sql"}] for the Edit and Copy buttons
    kernel_id = Unicode("").tag(sync=True)  # for the Stop button's interrupt request
    busy = Unicode("").tag(sync=True)  # what a clicked button is doing ("Applying ...")
    keep_name = Unicode("").tag(sync=True)  # a pending write's proposed procedure name ("": none offered)
    verifiable = Bool(False).tag(sync=True)  # a read the user may mark right (the Mark right button)

    def __init__(self, state: ChainState, actions: Actions | None = None, kernel_id: str = "", **kwargs) -> None:
        super().__init__(kernel_id=kernel_id, **kwargs)
        self.state = state
        self.actions = actions or Actions()
        self.on_msg(self._on_message)
        self.refresh()

    def apply(self, event: Event) -> None:
        self.state.apply(event)
        self.refresh()

    def refresh(self) -> None:
        """Push the state to the browser (one message for all traits); nothing once the view is closed."""
        if self.comm is None:
            return
        with self.hold_sync():
            self.html = chain_html(self.state)
            self.phase = self.state.phase
            self.keep_name = self.state.keep_name
            self.verifiable = self.state.verifiable and self.actions.verify is not None
            self.steps = [{"index": card.index, "sql": card.sql} for card in self.state.cards.values()]

    def _on_message(self, _widget: object, content: dict, _buffers: object) -> None:
        action = content.get("action")
        handler: Callable[[], object] | None
        if action == "approve":
            handler = self.actions.approve
        elif action == "keep" and self.actions.keep is not None:
            keep, name = self.actions.keep, str(content.get("name", "")).strip() or self.state.keep_name
            handler = lambda: keep(name)  # noqa: E731
        elif action == "reject":
            handler = self.actions.reject
        elif action == "verify":
            handler = self.actions.verify
        elif action == "rerun" and self.actions.rerun is not None:
            rerun, index, sql = self.actions.rerun, int(content.get("index", 0)), str(content.get("sql", ""))
            handler = lambda: rerun(index, sql)  # noqa: E731
        else:
            handler = None
        if handler is None or action is None:
            return
        self.busy = {
            "approve": "Applying...",
            "keep": "Applying...",
            "reject": "",
            "rerun": "Running...",
            "verify": "",
        }[action]
        try:
            handler()
        except ChatDBError:
            pass  # the handler already showed the message in the view
        except Exception as error:  # a click has no cell to show a traceback in: show it here, log the rest
            LOG.exception("jupyter-chatdb: the %s button failed", action)
            self.state.failed(f"{type(error).__name__}: {error}")
        finally:
            if self.comm is not None:  # the view may have turned static (closed) meanwhile
                self.busy = ""
            self.refresh()
