"""The model's wording of an answer, kept only when every number in it comes from a result."""

from __future__ import annotations

from collections.abc import Generator

import pandas as pd

from . import prompts
from .answer import adds_units, is_grounded
from .context import ModelCalls
from .events import Event
from .pairs import lists_without_figures, mispaired
from .top_n import top_n

ANSWER_MAX_TOKENS = 120


def phrase(
    calls: ModelCalls,
    request: str,
    sql: list[str],
    result: pd.DataFrame | None,
    affected: int | None,
    known: pd.DataFrame | None,
) -> Generator[Event, None, str | None]:
    """The answer in the model's words, or None when it did its own arithmetic (a number no result in
    `known` holds), added a unit the data does not have (a "%" on a price), paired a label of the result
    with another row's figure, named the top N without their figures, or said nothing usable: then
    the plain answer (written from the rows) stands."""
    messages = prompts.answer_messages(request, sql, result, affected)
    completion = yield from calls("answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
    phrased = prompts.parse_json(completion.text, "answer")
    if not phrased or adds_units(phrased, known, request):
        return None
    if mispaired(phrased, result, request) or (sql and top_n(sql[-1]) and lists_without_figures(phrased, result)):
        return None
    return phrased if is_grounded(phrased, known, affected, request) else None
