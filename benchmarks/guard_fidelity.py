"""What the allow-list guard costs right answers: Spider's gold SQL through the guard, no model.

The guard refuses what it cannot vouch for and runs the SQL written back from the tree it checked.
Both can cost accuracy: a legitimate query refused (a function missing from the allow-list), or a
query whose written-back form means something else. For every gold query of the Spider dev subset,
over the database bound into a ChatDB session as DataFrames (as `spider.py` does), this counts the
queries the guard accepts (after the controller's dialect fix-up), and compares the result of the
SQL as written with the result of the SQL written back: the baseline is the text as written, which
is what ran before the guard wrote statements back.

    python benchmarks/guard_fidelity.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from spider import DATASET, read_sqlite, same

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ChatDBError, SQLSyntaxError
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.sql import fixups, guard
from jupyter_chatdb.sql.catalog import Catalog


def main() -> int:
    questions = json.loads((DATASET / "dev.json").read_text())
    by_db: dict[str, list[dict]] = {}
    for question in questions:
        by_db.setdefault(question["db_id"], []).append(question)
    accepted, same_result, ran_as_written = 0, 0, 0
    refusals: Counter[str] = Counter()
    examples: dict[str, str] = {}
    differing: list[str] = []
    for db_id, asked in sorted(by_db.items()):
        chatdb = ChatDB(model=ScriptedBackend(), summarize=False)
        for name, frame in read_sqlite(DATASET / "database" / f"{db_id}.sqlite").items():
            chatdb.register(name, frame)
        schema = Catalog.read(chatdb.session, samples=0).schema()
        for question in asked:
            gold = question["query"]
            try:
                as_written = chatdb.session.run(gold).frame
            except ChatDBError:
                continue  # SQLite-only SQL: neither the old nor the new path can run it as written
            ran_as_written += 1
            try:
                checked = _check(gold, schema)
            except ChatDBError as error:
                reason = str(error).split(":")[0][:70]
                refusals[reason] += 1
                examples.setdefault(reason, gold)
                continue
            accepted += 1
            written_back = chatdb.session.run(checked.statements[0].sql).frame
            ordered = "order by" in gold.lower()
            if same(written_back, list(as_written.itertuples(index=False, name=None)), ordered):
                same_result += 1
            else:
                differing.append(f"{gold}  =>  {checked.statements[0].sql}")
        chatdb.close()
    print(f"Spider dev gold SQL that DuckDB runs as written: {ran_as_written} of {len(questions)}")
    print(
        f"accepted by the guard: {accepted} ({100 * accepted / ran_as_written:.1f}%); refused: {ran_as_written - accepted}"
    )
    print(f"same result written back as when run as written (the baseline): {same_result} of {accepted}")
    for reason, count in refusals.most_common():
        print(f"  refused {count}x: {reason} (e.g. {examples[reason][:110]})")
    for line in differing[:10]:
        print(f"  differs: {line[:200]}")
    return 0


def _check(sql: str, schema: dict[str, list[str]]) -> guard.Checked:
    """As the controller checks a step: SQL that does not parse gets one try as another dialect's."""
    try:
        return guard.check(sql, schema)
    except SQLSyntaxError:
        fixed = fixups.to_duckdb(sql)
        if fixed is None:
            raise
        return guard.check(fixed, schema)


if __name__ == "__main__":
    sys.exit(main())
