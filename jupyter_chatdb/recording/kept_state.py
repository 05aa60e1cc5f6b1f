"""The state a kept row is in after a record adds rows belonging to it: the jobs of a booked call written
under it may say the call was made ("Ida tuned Noor's upright"), so the call is 'done' now, though no
word of the record is a state's. The model is shown the record, the kept row and the table's CHECK-listed
entries of its states (listed columns with a default: the state a new row starts in) as options, leaving
the row as it is first, and picks one in a short constrained call; asked again with the options the other
way round (a small model leans to what it reads first or last), a state is set only where both agree. Only
an entry the schema lists can be written, on the one row the rows added belong to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..llm.base import JSONSchema, Message
from .change_choices import CHOICE_MAX_TOKENS, Option, choice_messages, choice_schema, state_options
from .row_changes import Reading
from .shapes import Shape

__all__ = ["CHOICE_MAX_TOKENS", "state_question", "states_offered"]

INSTRUCTIONS = """\
A record adds rows that belong to a kept row. Say what the kept row's state is after the record. Reply with \
JSON: "option", leaving the row as it is unless the record says or shows that its state changed.

Examples:
Request: Ida tuned Noor Haddad's upright on 3 Feb 2025 at 14:00: tuning 70, voicing 65
Row: calls called_at '2025-02-03 14:00:00', state 'planned'
Options: leave the calls row as it is | set state to 'missed' | set state to 'done'
{"option": "set state to 'done'"}
Request: sail loft job 12: 2 m of cloth added, 9.00 a metre
Row: sail_repairs sail_no 12, state 'open'
Options: leave the sail_repairs row as it is | set state to 'closed'
{"option": "leave the sail_repairs row as it is"}
Request: kennel stay of Pip, 2 May 2025: one bath, 6.50
Row: stays dog 'Pip', arrived_on '2025-05-02', state 'in'
Options: leave the stays row as it is | set state to 'home'
{"option": "leave the stays row as it is"}"""


def states_offered(table: str, shape: Shape, row: Mapping[str, object]) -> list[Option]:
    """Leaving the kept row `row` of `table` (its shape's key in the shapes read) as it is, then each other
    entry of its table's states (the last listed first); none where its table lists no states, or the row
    has left the state rows start in (a job on the stand already is not moved on by the parts fitted)."""
    # a listed column a row starts in (its default), the row still in it: a booking with work written under it
    states = {f.column.lower() for f in shape.fields if f.default is not None and row.get(f.column) == f.default}
    options = [
        option
        for option in state_options(Reading("change", table, (), ()), shape, row)
        if not option.reading.settings or option.reading.settings[0].column.lower() in states
    ]
    return options if len(options) > 1 else []


def state_question(
    request: str, shape: Shape, row: Mapping[str, object], options: Sequence[Option]
) -> tuple[list[Message], JSONSchema]:
    """The messages and schema of the question: `options` for the kept row `row`, after `request`."""
    return choice_messages(request, shape, row, options, INSTRUCTIONS), choice_schema(options)
