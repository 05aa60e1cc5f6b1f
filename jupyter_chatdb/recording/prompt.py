"""The one prompt of the reading of writes: the rows a request states, given the fields of each table's rows."""

from __future__ import annotations

from ..llm.base import Message

FACTS_INSTRUCTIONS = """\
You read the facts a request asks to record. Given the tables and the fields of their rows, reply with \
the rows it states as JSON: for each table the request gives rows for, a list of them with the values it \
states. A row already kept that the request changes is given by the values that name it and its new values. \
Name a row of another table by its name (the field says which table); where a field lists its values, pick \
the one the request means. Leave out what the request does not say; give no row for a table it says \
nothing about. Dates are YYYY-MM-DD.

Example tables:
riders: rider_name (names the row, text), phone (text)
runs: rider (the name of a riders row), picked_up_on (date), dropped_on (date), fee (number), \
vehicle (one of: bike, cargo bike, van)
run_stops: postcode (text), parcels (integer), charge (number); each belongs to the runs row given with it \
(new, or kept and named by its values)
Request: New rider Mo Tran (07700 900111) took a run on 3 June 2024 on his e-cargo bike, fee 14.50: 2 parcels \
to E1 6AN at 3.20 each, 1 parcel to N1 9GU at 4.00.
{"riders": [{"rider_name": "Mo Tran", "phone": "07700 900111"}], "runs": [{"rider": "Mo Tran", "picked_up_on": \
"2024-06-03", "fee": 14.5, "vehicle": "cargo bike"}], "run_stops": [{"postcode": "E1 6AN", "parcels": 2, "charge": \
3.2}, {"postcode": "N1 9GU", "parcels": 1, "charge": 4.0}]}
Request: drop-off
rider: Mo Tran
picked up: 2024-06-03
delivered: 5 June 2024
{"runs": [{"rider": "Mo Tran", "picked_up_on": "2024-06-03", "dropped_on": "2024-06-05"}]}
Request: one more stop on Mo Tran's run of 3 June 2024: 1 parcel to E2 7AB at 3.20
{"runs": [{"rider": "Mo Tran", "picked_up_on": "2024-06-03"}], "run_stops": [{"postcode": "E2 7AB", "parcels": 1, \
"charge": 3.2}]}"""


def facts_messages(fields: str, request: str, today: str) -> list[Message]:
    """The tables' row fields (`recording.shapes.describe`), today's date (left out when `today` is empty:
    a request that gives its own dates, where a small model would write today into fields it does not say)
    and the request."""
    dated = f"Today: {today}\n" if today else ""
    return [
        {"role": "system", "content": FACTS_INSTRUCTIONS},
        {"role": "user", "content": f"Tables:\n{fields}\n{dated}Request: {request}"},
    ]
