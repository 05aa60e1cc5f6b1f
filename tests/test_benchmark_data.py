"""Benchmark data and harnesses: the value-perturbed Spider questions, and the fruit shop's taught statements."""

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
perturb = pytest.importorskip("perturb")


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("American Motor Company", ("AMC", "abbreviation")),
        ("Todd Casey", ("T. Casey", "abbreviation")),
        ("usa", ("United States", "synonym")),
        ("France", ("france", "case")),
        ("volvo", ("Volvo", "case")),
        ("1970", None),
        ("F", None),
    ],
)
def test_variants_are_what_the_stored_value_is_not(literal, expected):
    assert perturb.variant(literal) == expected


def test_a_quoted_literal_is_rewritten_only_as_a_whole_word():
    question = {
        "id": 1,
        "db_id": "pets_1",
        "question": "How many Bachelors and cat owners?",
        "query": "SELECT count(*) FROM t WHERE degree = 'Bachelor' OR kind = 'cat'",
    }
    changed = perturb.perturb(question)
    assert (changed["question"], changed["literal"], changed["kind"]) == (
        "How many Bachelors and Cat owners?",
        "cat",
        "case",
    )


@pytest.mark.skipif(not perturb.DATASET.is_dir(), reason="the shared Spider subset is not here")
def test_the_recorded_questions_are_those_the_rules_make(tmp_path):
    fresh = tmp_path / "perturbed.jsonl"
    perturb.write(fresh)
    assert fresh.read_text() == perturb.PERTURBED.read_text()
    assert all(q["variant"] != q["literal"] and q["variant"] in q["question"] for q in perturb.load())


@pytest.mark.parametrize("with_rule", [False, True], ids=["taught", "taught+rules"])
def test_the_fruit_shops_taught_statements_replay_the_records_exactly(with_rule):
    """The taught mode's statements (`fruitshop.TAUGHT`), run with each record's facts, keep every state check,
    with the stock rule (`fruitshop.STOCK_RULE`) run after each record or without."""
    import json

    from jupyter_chatdb import ChatDB
    from jupyter_chatdb.llm import ScriptedBackend

    fruitshop = pytest.importorskip("fruitshop")
    dataset = fruitshop.DATASET
    if not dataset.is_dir():
        pytest.skip("the fruit-shop dataset is not beside the checkout")
    records = [json.loads(line) for line in (dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    db = ChatDB(model=ScriptedBackend(), schema=dataset / "schema.sql", summarize=False)
    if with_rule:
        db.keep_rule("stock", fruitshop.STOCK_RULE)
    taught: set[str] = set()
    for record in records:
        if record["kind"] in taught:
            db.run_procedure(record["kind"], fruitshop.taught_values(record), allow_writes=True)
        else:
            taught.add(record["kind"])
            fruitshop.teach(db, record)
    assert fruitshop.check_state(db, records) == {"stock per fruit": (5, 5), "valid sales": (1, 1), "revenue": (1, 1)}
    assert len(db.rules) == with_rule
    db.close()


def test_a_decimal_scores_as_the_float_a_dataframe_holds():
    import duckdb

    spider = pytest.importorskip("spider")
    con = duckdb.connect()
    con.execute("CREATE TABLE fees (amount DECIMAL(8, 2)); INSERT INTO fees VALUES (12.50), (16.15)")
    frame = con.execute("SELECT sum(amount) FROM fees").df()
    assert spider.same(frame, con.execute("SELECT sum(amount) FROM fees").fetchall(), ordered=False)
    assert not spider.same(frame, [(28.66,)], ordered=False)
