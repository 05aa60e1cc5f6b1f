"""The multi-trade benchmark: invented businesses unlike the fruit shop, each a seeded generator.

Tune on TUNE, report on REPORT: a rule or cue is fitted on the first and only measured on the second.
"""

from __future__ import annotations

from importlib import import_module

from .base import Trade

TUNE = ("library", "clinic", "workshop", "apiary")  # workshop: its report failures were read in issue 51, session 6;
# apiary: the product's worked examples are a beekeeper's, so it is tuned on, never reported
REPORT = ("toolhire", "school", "warehouse", "pottery", "drycleaner", "climbing", "ferry", "translation")
TRADES = (*TUNE, *REPORT)


def build(name: str, seed: int = 0) -> Trade:
    """The trade `name`, generated from `seed`."""
    if name not in TRADES:
        raise KeyError(f"no trade {name!r}: one of {', '.join(TRADES)}")
    module = import_module(f"{__name__}.{name}")
    return module.build(seed)
