"""Live widget outputs turn static when the next cell runs.

JupyterLab shows a saved widget output as "Error displaying widget: model not found" once the kernel
that owned the widget is gone, even when the output also holds static HTML. So a widget stays in an
output only while the user may still click it (Stop, Approve, Edit, Mark right), and at the latest until
the next cell runs. Then its output is the static HTML, which reads the same after save, restart and
reopen in JupyterLab, VS Code and nbconvert.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

LOG = logging.getLogger(__name__)


class LiveOutputs:
    """What to make static before the next cell runs."""

    def __init__(self, shell: object) -> None:
        self._settle: list[Callable[[], None]] = []
        events = getattr(shell, "events", None)
        if events is not None:
            events.register("pre_run_cell", self.settle_all)

    def add(self, settle: Callable[[], None]) -> None:
        self._settle.append(settle)

    def settle_all(self, *_info: object) -> None:
        settle, self._settle = self._settle, []
        for one in settle:
            try:
                one()
            except Exception:  # a view that cannot be redrawn must not stop the user's next cell
                LOG.exception("could not make a widget output static")

    def close(self, shell: object) -> None:
        events = getattr(shell, "events", None)
        if events is not None:
            try:
                events.unregister("pre_run_cell", self.settle_all)
            except ValueError:
                pass
