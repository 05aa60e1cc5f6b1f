"""What `records.py` scores of one recorded write beside the exact state, which records a run asks, and
the figures it prints.

Per record and way: what the record's gold does to rows (`Record.does`: "new" or "change:<how>"), the
junk rows an applied write left (rows it added or wrote a value into that the exact state after the
record does not hold, counted as multisets per table and summed: a row no record states, or a value no
record states; a row a rule then derives from it differently counts too), whether a change was
written as an INSERT, whether it waited for approval and the reason the card gave, and the model calls
and seconds each purpose (stage) took, read from the request's events.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

import sqlglot
from sqlglot import exp
from trades import REPORT, TUNE
from trades.base import WORDINGS, Record, Trade

from jupyter_chatdb.controller.events import ApprovalNeeded, Event, ModelText

Snapshot = dict[str, list[tuple]]


def junk_rows(got: Snapshot, expected: Snapshot, before: Snapshot) -> int:
    """The rows a write left that no record states: of the rows `got` holds and `before` did not (added,
    or a row with a value written), those `expected` does not hold either; as multisets, per table, summed.

    >>> before = {"pets": [("Rex", 2), ("Bo", 1)], "walks": []}
    >>> expected = {"pets": [("Rex", 3), ("Bo", 1)], "walks": []}  # the record: Rex is 3 now
    >>> junk_rows(expected, expected, before)
    0
    >>> junk_rows(before, expected, before)  # nothing written: missing, not junk
    0
    >>> junk_rows({"pets": [("Rex", 4), ("Bo", 1)], "walks": []}, expected, before)  # a value no record states
    1
    >>> junk_rows({"pets": [("Rex", 3), ("Bo", 1), ("Bo", 1)], "walks": [("Bo", "2024-03-01")]}, expected, before)
    2
    """
    junk = 0
    for table, rows in got.items():
        written = Counter(rows) - Counter(before.get(table, []))
        wanted = Counter(expected.get(table, [])) - Counter(before.get(table, []))
        junk += sum((written - wanted).values())
    return junk


def writes_insert(statements: Sequence[str]) -> bool:
    """Whether any of `statements` INSERTs (read with sqlglot; one it cannot read, by its words).

    >>> writes_insert(["UPDATE pets SET age = age + 1 WHERE name = 'Rex'", "SELECT * FROM pets"])
    False
    >>> writes_insert(["WITH b AS (SELECT 'Bo' AS n) INSERT INTO pets (name) SELECT n FROM b"])
    True
    """
    for sql in statements:
        try:
            trees = sqlglot.parse(sql, read="duckdb")
        except sqlglot.errors.SqlglotError:
            if re.search(r"\bINSERT\s+INTO\b", sql, re.IGNORECASE):
                return True
            continue
        if any(tree is not None and tree.find(exp.Insert) is not None for tree in trees):
            return True
    return False


class Watch:
    """What a request's events say cheaply: each model call's purpose (a call starts with an empty
    `ModelText`) and about how long it took (from its start to its last text, within the 0.2 s the text
    is handed on at), and the reason an approval card gives."""

    def __init__(self) -> None:
        self.spans: list[list] = []  # [purpose, started, last text]
        self.reason = ""

    def __call__(self, event: Event) -> None:
        now = time.perf_counter()
        if isinstance(event, ModelText):
            if not event.text:
                self.spans.append([event.purpose, now, now])
            elif self.spans:
                self.spans[-1][2] = now
        elif isinstance(event, ApprovalNeeded):
            self.reason = event.reason

    def calls(self) -> dict[str, int]:
        return dict(Counter(purpose for purpose, _, _ in self.spans))

    def seconds(self) -> dict[str, float]:
        spent: dict[str, float] = defaultdict(float)
        for purpose, started, last in self.spans:
            spent[purpose] += last - started
        return {purpose: round(seconds, 2) for purpose, seconds in spent.items()}


# -- which records a run asks ---------------------------------------------------------------------


def pick(
    records: Sequence[Record], stride: int, spread: bool = False, empty: Iterable[str] = (), offset: int = 0
) -> list[int]:
    """The numbers of the records a run asks, in log order: every `stride`-th of the log, or (`spread`)
    every `stride`-th of each class (`Record.does`; the ids in `empty`, facts into an empty table, a class
    of their own), so that each class is asked at least once; from the `offset`-th on (of each class: a
    class with fewer records starts at its last), for records other runs did not ask.

    >>> from types import SimpleNamespace as R
    >>> log = [R(id=f"r{n}", does="new") for n in range(7)] + [R(id="r7", does="change:add"), R(id="r8", does="new")]
    >>> pick(log, 4), pick(log, 4, spread=True), pick(log, 4, spread=True, empty=["r1"])
    ([0, 4, 8], [0, 4, 7], [0, 1, 5, 7])
    >>> pick(log, 4, offset=2), pick(log, 4, spread=True, offset=2)
    ([2, 6], [2, 6, 7])
    """
    if not spread:
        return list(range(offset, len(records), stride))
    empty = set(empty)
    by_class: dict[str, list[int]] = defaultdict(list)
    for number, record in enumerate(records):
        by_class[record.does + (" into an empty table" if record.id in empty else "")].append(number)
    return sorted(
        number for numbers in by_class.values() for number in numbers[min(offset, len(numbers) - 1) :: stride]
    )


def print_classes(trade: Trade, picked: Sequence[int], empty: dict[str, tuple[str, ...]]) -> None:
    """A trade's records per class and wording, the records filling an empty table, and those `picked`."""
    print(f"{trade.name}: {len(trade.records)} records, {len(picked)} picked")
    for does, group in _groups(({"does": r.does, "wording": r.wording} for r in trade.records), "does"):
        wordings = Counter(r["wording"] for r in group)
        chosen = sum(trade.records[n].does == does for n in picked)
        print(f"  {does}: {len(group)} ({', '.join(f'{w} {wordings[w]}' for w in WORDINGS)}), {chosen} picked")
    asked = {trade.records[n].id for n in picked}
    print(
        "  into an empty table (* picked): "
        + ", ".join(f"{rid}{'*' if rid in asked else ''} {', '.join(tables)}" for rid, tables in empty.items())
    )


# -- figures ---------------------------------------------------------------------------------------


def summarize(rows: list[dict]) -> None:
    """Per trade, then per half (tune, report) over its trades: records (`record_scores.print_records`),
    the cumulative log's state checks and the questions."""
    by_trade: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_trade[row["trade"]].append(row)
    for name in sorted(by_trade, key=lambda n: (n not in TUNE, n)):
        part = "tune" if name in TUNE else "report" if name in REPORT else "?"
        print(f"{name} ({part})")
        print_records(name, [r for r in by_trade[name] if r["part"] == "records"])
        for way in dict.fromkeys(r["way"] for r in by_trade[name] if r["part"] == "cumulative"):
            last = [r for r in by_trade[name] if r["part"] == "cumulative" and r["way"] == way][-1]
            print(
                f"  cumulative {way}, after {last['after']} records: state checks {last['checks_right']}/"
                f"{last['checks']} right (wrong: {', '.join(last['wrong']) or 'none'}); {last['outcomes']}"
            )
        questions = [r for r in by_trade[name] if r["part"] == "questions"]
        for way in dict.fromkeys(r["way"] for r in questions):
            mine = [r for r in questions if r["way"] == way]
            right = sum(r["correct"] for r in mine)
            print(
                f"  questions {way}: {right}/{len(mine)} right ({_pct(right, len(mine))}), executed"
                f" {sum(r['executed'] for r in mine)}; median {statistics.median(r['seconds'] for r in mine):.1f} s"
            )
    for part, names in (("tune", TUNE), ("report", REPORT)):
        records = [r for n in names for r in by_trade.get(n, []) if r["part"] == "records"]
        if len({r["trade"] for r in records}) > 1:
            print(f"{part} trades together ({', '.join(n for n in names if n in by_trade)})")
            print_records(part, records)


def print_records(label: str, rows: list[dict]) -> None:
    """The records part's figures of `rows` (one trade, or several), per way. Rows saved before a field
    existed are left out of that field's figure."""
    for way in dict.fromkeys(r["way"] for r in rows):
        mine = [r for r in rows if r["way"] == way]
        exact = [r for r in mine if r["outcome"] == "exact"]
        outcomes = Counter(r["outcome"] for r in mine)
        seconds = statistics.median(r["seconds"] for r in mine)
        calls = statistics.mean(_calls(r) for r in mine)
        print(
            f"  {label} records {way}: {len(mine)}, exact {len(exact)} ({_pct(len(exact), len(mine))}); "
            f"{dict(outcomes)}; median {seconds:.1f} s, mean {calls:.2f} model calls"
        )
        classed = [r for r in mine if "does" in r]
        if classed:
            changes = [r for r in classed if r["does"].startswith("change")]
            new = [r for r in classed if r["does"] == "new"]
            empty = [r for r in new if r.get("into_empty")]
            print(
                f"    changes exact {_share(changes)}; new records exact {_share(new)}, of them into an empty table "
                f"{_share(empty)}; by class: "
                + ", ".join(f"{does} {_share(group)}" for does, group in _groups(classed, "does"))
            )
        if any("junk_rows" in r for r in mine):
            applied = [r for r in mine if r.get("junk_rows") is not None]
            inserts = sum(bool(r.get("insert_for_change")) for r in mine)
            print(
                f"    junk rows applied {sum(r['junk_rows'] for r in applied)} (in {sum(r['junk_rows'] > 0 for r in applied)}"
                f" of {len(applied)} applied); changes written as inserts {inserts}"
            )
        waited = [r for r in mine if r["outcome"] == "pending"]
        if waited:
            reasons = Counter(r.get("wait_reason") or "(no reason saved)" for r in waited)
            told = sum(bool(r.get("wait_reason")) for r in waited)
            print(
                f"    waiting for approval {len(waited)} ({_pct(len(waited), len(mine))}), {told} with a reason; most "
                "common: " + "; ".join(f"{reason!r} x{n}" for reason, n in reasons.most_common(3))
            )
            judged = [r for r in waited if r.get("if_approved")]
            if judged:  # whether each hold kept a wrong write out or held a right one
                held = Counter(str(r["if_approved"]).split(" (")[0] for r in judged)
                print(f"    held writes, had they been approved as shown: {dict(held)} of {len(judged)}")
        else:
            print("    waiting for approval 0")
        print("    by wording: " + ", ".join(f"{w} {_share(group)}" for w, group in _groups(mine, "wording")))
        print("    by kind: " + ", ".join(f"{k} {_count(group)}" for k, group in _groups(mine, "kind")))
        if way.endswith("+taught"):  # the procedure run: the record's own kind's, another's, or none
            own = [r for r in mine if r.get("own_procedure")]
            other = [r for r in mine if r.get("procedure") and not r.get("own_procedure")]
            print(
                f"    procedure run: its own kind's {len(own)} (exact {_count(own)}), another kind's {len(other)}, "
                f"none {len(mine) - len(own) - len(other)}"
            )
        _print_costs(mine)


def _print_costs(rows: list[dict]) -> None:
    """Model calls and seconds per purpose (stage), per record on average, where the rows saved them."""
    costed = [r for r in rows if "calls_by_purpose" in r]
    if not costed:
        return
    calls: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    for r in costed:
        calls.update(r["calls_by_purpose"])
        seconds.update(r.get("seconds_by_purpose", {}))
    model = sum(seconds.values())
    rest = sum(r["seconds"] for r in costed) - model
    n = len(costed)
    print(
        "    per record, by purpose: "
        + ", ".join(f"{p} {calls[p] / n:.2f} calls {seconds[p] / n:.1f} s" for p, _ in calls.most_common())
        + f"; outside the model {rest / n:.1f} s"
    )


def _calls(row: dict) -> int:
    """A record's model calls: counted from its events where saved (a failed request has no usage)."""
    return sum(row["calls_by_purpose"].values()) if "calls_by_purpose" in row else row.get("calls", 0)


def _groups(rows: Iterable[dict], key: str) -> list[tuple[str, list[dict]]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        grouped[str(r.get(key, "?"))].append(r)
    return sorted(grouped.items())


def _count(rows: list[dict]) -> str:
    return f"{sum(r['outcome'] == 'exact' for r in rows)}/{len(rows)}"


def _share(rows: list[dict]) -> str:
    """'3/4 (75.0%)' of the rows exact."""
    exact = sum(r["outcome"] == "exact" for r in rows)
    return f"{exact}/{len(rows)} ({_pct(exact, len(rows))})"


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"
