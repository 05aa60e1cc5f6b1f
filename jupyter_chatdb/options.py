"""The controller's knobs, each with its one default. Frozen: `ChatDB.configure(...)` makes a new one;
features are switched off by leaving their stage out of the strategy (`ChatDB(without=...)`).

`%config ChatDB.<option>` (config.py) takes its defaults from here and builds this object for each cell.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_STEPS = 12  # the longest plan a model may write


@dataclass(frozen=True)
class Options:
    revisions: int = 2  # model revisions of a failing plan per request
    candidates: int = 1  # >1: sample that many plans for a read and vote on their results
    second_look: int = 1  # >1: statements in all for a doubtful native read, voted on (`stages/second_look.py`)
    examples: int = 6  # worked examples per planning prompt: all of the built-in ones, so the prompt's prefix is cached
    values: bool = True  # check literals against the stored values of their columns and correct them
    top_tables: int = 5  # schema selection: the K tables most like the request, plus the tables joined to them
    select_over: int = 12  # select tables only when there are more than this many (else all go into the prompt)
    approve_share: float = 0.5  # a write changing more than this share of a table's rows waits for approval
    procedure_match: float = 0.35  # a write this close in meaning to a procedure's forms is offered it
