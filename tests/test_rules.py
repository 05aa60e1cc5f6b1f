"""Rules that keep derived data true: drafted from a sentence (or written), approved, kept in the database
and run at the end of every write that changes a table they read; a scripted model, a real DuckDB."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import StepDone
from jupyter_chatdb.errors import SQLRefused
from jupyter_chatdb.sql.rules import RuleError

from .conftest import PLAN_WRITES, plan

HAY = """
CREATE SEQUENCE hay_seq START 1;
CREATE TABLE hay (hay_id INTEGER PRIMARY KEY DEFAULT nextval('hay_seq'), kind VARCHAR UNIQUE,
                  bales_left INTEGER NOT NULL DEFAULT 0 CHECK (bales_left >= 0), worth DOUBLE DEFAULT 0);
CREATE TABLE deliveries (hay_id INTEGER REFERENCES hay (hay_id), bales INTEGER, price DOUBLE);
CREATE TABLE feedings (hay_id INTEGER REFERENCES hay (hay_id), bales INTEGER);
CREATE TABLE riders (name VARCHAR);
INSERT INTO hay (kind) VALUES ('timothy'), ('clover');
INSERT INTO deliveries VALUES (1, 12, 3.0);
"""
SENTENCE = "a hay's bales_left is what was delivered minus what was fed"
BALES = (
    "UPDATE hay SET bales_left = coalesce((SELECT sum(d.bales) FROM deliveries d WHERE d.hay_id = hay.hay_id), 0)"
    " - coalesce((SELECT sum(f.bales) FROM feedings f WHERE f.hay_id = hay.hay_id), 0)"
)
WORTH = (
    "UPDATE hay SET worth = bales_left * coalesce((SELECT max(price) FROM deliveries d WHERE d.hay_id = hay.hay_id), 0)"
)


@pytest.fixture
def stable(scripted):
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, schema=HAY, summarize=False)
    yield chatdb
    chatdb.close()


def bales(db: ChatDB) -> dict[str, int]:
    return dict(db.session.rows("SELECT kind, bales_left FROM hay ORDER BY hay_id"))


def test_a_rule_drafted_from_a_sentence_is_previewed_then_kept_when_approved(stable, scripted):
    scripted.push(f"```sql\n{BALES};\n```")
    proposed = stable.propose_rule("bales", SENTENCE)
    assert proposed.pending and proposed.rule is not None and proposed.rule.sentence == SENTENCE
    assert "timothy" not in proposed.answer and "hay: 1 changed" in proposed.answer  # the draft's preview
    assert "Approve to keep rule 'bales': it runs after every write that changes deliveries, feedings or hay." in (
        proposed.answer
    )
    assert proposed.steps[0].goal == f"Rule 'bales': {SENTENCE}"
    assert bales(stable) == {"timothy": 0, "clover": 0} and len(stable.rules) == 0  # nothing kept yet

    applied = stable.apply(proposed)
    assert "Kept rule 'bales'" in applied.answer and [r.name for r in stable.rules] == ["bales"]
    assert bales(stable) == {"timothy": 12, "clover": 0}
    assert "Sentence: " + SENTENCE in scripted.calls[0].messages[-1]["content"]  # the model saw the sentence and tables
    assert "CREATE TABLE feedings" in scripted.calls[0].messages[-1]["content"]


def test_a_kept_rule_runs_as_its_own_step_after_writes_to_what_it_reads_and_undo_takes_it_back(stable, scripted):
    stable.keep_rule("bales", BALES, SENTENCE)
    seen = []
    fed = stable.run_sql("INSERT INTO feedings VALUES (1, 5)", allow_writes=True, on_event=seen.append)
    assert [s.goal for s in fed.steps] == ["SQL as written", f"Rule 'bales': {SENTENCE}"]
    assert any(isinstance(e, StepDone) and e.step.goal.startswith("Rule 'bales'") for e in seen)
    assert bales(stable) == {"timothy": 7, "clover": 0}
    assert "hay: 1 changed" in fed.answer

    scripted.push({"route": "write"}, plan("INSERT INTO riders VALUES ('Ada')"))
    other = stable.ask("Add the rider Ada", allow_writes=True)
    assert [s.goal for s in other.steps if s.goal.startswith("Rule")] == []  # riders: not read by the rule

    stable.undo(2)
    assert bales(stable) == {"timothy": 12, "clover": 0}  # the rule's change went with the request


def test_a_rule_that_fails_after_the_writes_leaves_nothing_written(stable):
    stable.keep_rule("bales", BALES, SENTENCE)
    with pytest.raises(RuleError, match="Rule 'bales' failed after the writes: .*CHECK.*Nothing was written"):
        stable.run_sql("INSERT INTO feedings VALUES (1, 40)", allow_writes=True)  # more than was delivered
    assert stable.session.rows("SELECT count(*) FROM feedings") == [(0,)]


def test_a_preview_shows_the_rules_changes_and_approving_applies_exactly_them(stable, scripted):
    stable.keep_rule("bales", BALES, SENTENCE)
    scripted.push({"route": "write"}, plan("INSERT INTO deliveries VALUES (2, 6, 4.0)"))
    pending = stable.ask("We got 6 bales of clover at 4")
    assert pending.pending and "hay: 1 changed" in pending.answer and bales(stable)["clover"] == 0
    stable.apply(pending)
    assert bales(stable) == {"timothy": 12, "clover": 6}


def test_a_rule_runs_after_one_whose_target_it_reads_each_once(stable):
    stable.keep_rule("bales", BALES)
    stable.keep_rule("worth", WORTH, "a hay's worth is its bales left at its delivery price")
    applied = stable.run_sql("INSERT INTO feedings VALUES (1, 2)", allow_writes=True)
    assert [s.goal.split(":")[0] for s in applied.steps] == ["SQL as written", "Rule 'bales'", "Rule 'worth'"]
    assert stable.session.rows("SELECT worth FROM hay WHERE kind = 'timothy'") == [(30.0,)]


def test_rules_that_are_not_one_idempotent_write_on_a_stored_table_are_refused(stable, scripted):
    with pytest.raises(RuleError, match="the second time: a rule must set derived values"):
        stable.keep_rule("more", "UPDATE hay SET bales_left = bales_left + 1")
    with pytest.raises(RuleError, match="one INSERT, UPDATE or DELETE"):
        stable.keep_rule("read", "SELECT * FROM hay")
    with pytest.raises(RuleError, match="cannot take \\$n"):
        stable.keep_rule("param", "UPDATE hay SET bales_left = $n")
    stable.register("stalls", pd.DataFrame({"horse": ["Tansy"], "hay": [0]}))
    with pytest.raises(RuleError, match="stalls is a DataFrame of the notebook"):
        stable.keep_rule("frame", "UPDATE stalls SET hay = 1")
    with pytest.raises(SQLRefused, match="holds ChatDB's journal and rules"):
        stable.run_sql("DELETE FROM chatdb_journal.rules", allow_writes=True)
    scripted.push(*["```sql\nUPDATE hay SET worth = worth + 1;\n```"] * 3)  # drafted, then repaired twice
    with pytest.raises(RuleError, match="the second time"):
        stable.propose_rule("more", "a hay's worth grows")
    assert "Running this SQL failed" in scripted.calls[1].messages[-1]["content"]
    assert "Write the corrected UPDATE statement" in scripted.calls[2].messages[-1]["content"]
    assert len(stable.rules) == 0


def test_a_drafted_rule_is_repaired_and_names_the_updated_row_as_the_model_meant(stable, scripted):
    scripted.push(
        "```sql\nUPDATE hay SET bales_left = (SELECT sum(d.bales) FROM deliveries d WHERE d.hay = h.hay_id);\n```",
        "```sql\nUPDATE hay SET bales_left = coalesce((SELECT sum(d.bales) FROM deliveries d"
        " WHERE d.hay_id = h.hay_id), 0);\n```",
    )
    proposed = stable.propose_rule("bales", "a hay's bales_left is what was delivered")
    assert "Unknown column 'hay' in deliveries" in scripted.calls[1].messages[-1]["content"]
    assert proposed.sql == [
        "UPDATE hay SET bales_left = COALESCE((SELECT SUM(d.bales) FROM deliveries AS d WHERE d.hay_id = hay.hay_id), 0)"
    ]


def test_a_written_rule_needs_no_model_call_and_rules_live_in_the_database_file(scripted, tmp_path):
    path = tmp_path / "stable.duckdb"
    first = ChatDB(model=scripted, without=PLAN_WRITES, database=path, schema=HAY, summarize=False)
    first.apply(first.propose_rule("bales", BALES))
    assert scripted.calls == [] and bales(first) == {"timothy": 12, "clover": 0}
    first.close()

    again = ChatDB(model=scripted, without=PLAN_WRITES, database=path, summarize=False)
    assert [r.name for r in again.rules] == ["bales"]
    again.run_sql("INSERT INTO feedings VALUES (1, 2)", allow_writes=True)
    assert bales(again) == {"timothy": 10, "clover": 0}
    again.rules.forget("bales")
    again.run_sql("INSERT INTO feedings VALUES (1, 2)", allow_writes=True)
    assert bales(again) == {"timothy": 10, "clover": 0}
    with pytest.raises(RuleError, match="There is no rule 'bales'"):
        again.rules.forget("bales")
    again.close()


def test_a_rule_that_no_longer_fits_the_tables_stops_writes_to_them_and_says_how_to_go_on(stable):
    stable.keep_rule("bales", BALES)
    stable.session.run("ALTER TABLE feedings RENAME COLUMN bales TO fed")
    with pytest.raises(RuleError, match="Rule 'bales' no longer fits the tables .*forget it with"):
        stable.run_sql("INSERT INTO feedings VALUES (1, 2)", allow_writes=True)
    assert stable.session.rows("SELECT count(*) FROM feedings") == [(0,)]
    stable.rules.forget("bales")
    stable.run_sql("INSERT INTO feedings VALUES (1, 2)", allow_writes=True)


def test_a_rule_changing_every_row_does_not_make_a_small_write_wait_for_approval(stable, scripted):
    stable.keep_rule("bales", BALES)
    scripted.push({"route": "write"}, plan("INSERT INTO deliveries VALUES (1, 1, 3.0), (2, 4, 3.0)"))
    applied = stable.ask("Timothy got 1 bale and clover 4, each at 3.0", allow_writes=True)
    assert not applied.pending and bales(stable) == {"timothy": 13, "clover": 4}  # every hay row changed
    scripted.push({"route": "write"}, plan("UPDATE deliveries SET bales = bales + 1"))
    waiting = stable.ask("Add a bale to every delivery", allow_writes=True)  # its own change is bulk
    assert waiting.pending and bales(stable) == {"timothy": 13, "clover": 4}
