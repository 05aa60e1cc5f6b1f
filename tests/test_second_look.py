"""A second look at a doubtful native read: real DuckDB, scripted model."""

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import CandidatesVoted, StepStarted
from jupyter_chatdb.controller.stages.second_look import choice_messages
from jupyter_chatdb.errors import RequestStopped

WELLS = "SELECT l.lot_id FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id WHERE t.town = 'Wells'"


@pytest.fixture
def lots(scripted) -> ChatDB:
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.configure(second_look=3)
    chatdb.register("lots", pd.DataFrame({"lot_id": [1, 2, 3], "town_id": [1, 1, 2], "acres": [4, 9, 2]}))
    chatdb.register("towns", pd.DataFrame({"town_id": [1, 2], "town": ["Ely", "Wells"]}))
    yield chatdb
    chatdb.close()


def test_a_read_that_found_nothing_is_kept_only_if_most_statements_agree(lots, scripted):
    scripted.push("SELECT lot_id FROM lots WHERE town_id = 5", "SELECT lot_id FROM lots WHERE town_id = 2", WELLS)
    seen = []
    reply = lots.ask("Which lots are in Wells?", on_event=seen.append)
    assert [call.temperature for call in scripted.calls] == [0.0, 0.7, 0.7]
    assert [call.messages for call in scripted.calls[1:]] == [scripted.calls[0].messages] * 2  # the same prompt
    assert reply.result["lot_id"].tolist() == [3]
    assert reply.sql == ["SELECT lot_id FROM lots WHERE town_id = 2"]  # the first of the two that agree
    voted = [e for e in seen if isinstance(e, CandidatesVoted)]
    assert [(v.candidates, v.agreeing) for v in voted] == [(3, 2)]
    # the candidates' runs are not shown as steps of the request: only the first statement's
    assert [e.index for e in seen if isinstance(e, StepStarted)] == [1]


def test_an_answer_no_statement_doubts_gets_no_second_look(lots, scripted):
    scripted.push(WELLS)
    reply = lots.ask("Which lots are in Wells?")
    assert len(scripted.calls) == 1 and reply.result["lot_id"].tolist() == [3]


def test_the_first_statement_stays_when_the_samples_agree_with_it(lots, scripted):
    scripted.push(
        "SELECT count(*) AS n FROM lots WHERE acres > 50", "SELECT count(*) FROM lots WHERE acres > 50", WELLS
    )
    reply = lots.ask("How many lots are larger than 50 acres?")
    assert reply.sql == ["SELECT COUNT(*) AS n FROM lots WHERE acres > 50"] and reply.result["n"].tolist() == [0]


def test_a_split_vote_is_settled_by_the_model_choosing_among_the_results(lots, scripted):
    scripted.push(
        "SELECT lot_id FROM lots WHERE town_id = 5",
        WELLS,
        "SELECT lot_id FROM lots WHERE acres > 3",
        {"choice": 3},
    )
    reply = lots.ask("Which lots are larger than 3 acres?")
    choice = scripted.calls[-1]
    assert choice.json_schema["properties"]["choice"]["enum"] == [1, 2, 3]
    assert "Candidate 3:\nSELECT lot_id FROM lots WHERE acres > 3\nResult (2 rows)" in choice.messages[1]["content"]
    assert reply.result["lot_id"].tolist() == [1, 2]


def test_a_sample_repeating_a_statement_is_a_vote_for_it_without_running_it_again(lots, scripted):
    scripted.push("SELECT lot_id FROM lots WHERE town_id = 5", WELLS, WELLS)
    seen = []
    reply = lots.ask("Which lots are in Wells?", on_event=seen.append)
    assert reply.result["lot_id"].tolist() == [3]
    assert [(v.candidates, v.agreeing) for v in seen if isinstance(v, CandidatesVoted)] == [(3, 2)]


def test_samples_that_fail_or_write_are_left_out(lots, scripted):
    scripted.push("SELECT lot_id FROM lots WHERE town_id = 5", "SELECT nothing FROM nowhere", "DELETE FROM lots")
    reply = lots.ask("Which lots are in Wells?")
    assert reply.result.empty and reply.sql == ["SELECT lot_id FROM lots WHERE town_id = 5"]
    assert len(lots.session.rows("SELECT * FROM lots")) == 3


def test_a_repaired_statement_is_doubtful(lots, scripted):
    scripted.push("SELECT acre FROM lots", "SELECT sum(acres) FROM lots", "SELECT sum(acres) AS total FROM lots", WELLS)
    reply = lots.ask("What is the total of the lots' acres?")
    assert len(scripted.calls) == 4 and reply.result.iloc[0, 0] == 15


def test_one_statement_in_all_the_default_means_no_second_look(scripted):
    lots = ChatDB(model=scripted, summarize=False, strategy="native")
    lots.register("lots", pd.DataFrame({"lot_id": [1, 2, 3], "town_id": [1, 1, 2]}))
    scripted.push("SELECT lot_id FROM lots WHERE town_id = 5")
    reply = lots.ask("Which lots are in town 5?")
    assert len(scripted.calls) == 1 and reply.result.empty
    lots.close()


def test_the_choice_shows_each_statement_with_its_first_rows():
    text = choice_messages("Largest lot?", [("SELECT max(acres) FROM lots", pd.DataFrame({"m": [9]}))])[1]["content"]
    assert text == "Question: Largest lot?\n\nCandidate 1:\nSELECT max(acres) FROM lots\nResult (1 row):\nm\n9"


def test_samples_repeating_the_slip_a_repair_put_right_do_not_outvote_it(lots, scripted):
    slip = WELLS.replace("'Wells'", "'Zzyzx'")  # a value no town has, which the repair put right
    scripted.push("SELECT lot FROM lots", "SELECT lot_id FROM lots WHERE town_id = 2", slip, slip)
    seen = []
    reply = lots.ask("Which lots are in Wells?", on_event=seen.append)
    assert len(scripted.calls) == 4  # the first, its repair, two samples; no choice: the slips do not count
    assert [(v.candidates, v.agreeing) for v in seen if isinstance(v, CandidatesVoted)] == [(3, 1)]
    assert reply.result["lot_id"].tolist() == [3]


def test_a_stop_while_sampling_ends_the_request_and_leaves_the_session_usable(lots, scripted):
    def stopped(messages):
        raise RequestStopped("Stopped.")

    scripted.push("SELECT lot_id FROM lots WHERE town_id = 5", stopped)
    with pytest.raises(RequestStopped):
        lots.ask("Which lots are in Wells?")
    scripted.push(WELLS)
    assert lots.ask("Which lots are in Wells?").result["lot_id"].tolist() == [3]
