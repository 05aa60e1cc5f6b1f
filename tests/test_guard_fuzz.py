"""A fast sample of the hostile-SQL fuzz (benchmarks/guard_fuzz.py runs 10,000 statements): nothing escapes."""

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import guard_fuzz  # noqa: E402


def test_a_sample_of_hostile_statements_changes_nothing_and_reads_no_file():
    tallies = guard_fuzz.run(count=150, seed=20261123, paths=("guard", "ask"), report=lambda line: None)
    for path, tally in tallies.items():
        assert tally.tried >= 150 and tally.accepted > 0, path  # the sample holds statements that do run
        assert tally.escapes == [], (path, tally.escapes[:3])


def test_the_grammar_calls_every_kind_of_duckdb_function(tmp_path):
    grammar = guard_fuzz.Grammar.from_duckdb(tmp_path, seed=1)
    assert {"read_text", "enable_profiling", "checkpoint", "nextval", "json_execute_serialized_sql"} <= set(
        grammar.functions
    )
    assert {"enable_logging", "query_table", "glob"} <= set(grammar.table_functions)
    kinds = {grammar.statement()[0] for _ in range(200)}
    assert kinds == {"call", "write", "table call", "file", "statement", "trick"}
