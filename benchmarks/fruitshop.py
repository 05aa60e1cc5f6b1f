"""The ChatDB fruit-shop evaluation (shared/datasets/fruitshop_sample, or --dataset).

Four modes on the same records and questions, each in a fresh ChatDB loaded from schema.sql:
- cold: every record through `ask(..., allow_writes=True)` with an empty memory (no procedures): a
  write that names a kept row is first read for what it does to rows (a change an UPDATE written by
  code), one that adds rows is read as the rows it states, its SQL written by code (`recording/`), and
  planned when that cannot express it;
- facts: cold without the change reading (a write read only as the rows it states), as before issue 51;
- planned: cold, with every write planned by the model (without the stage `write_from_facts`), as the
  system did before the eleventh session;
- taught: the first record of each kind is taught with its correct statements (`ChatDB.teach`, with
  that record's values), as a user who fixes the first plan once, and run; the rest go through the
  system, which runs the taught procedure for a request of its kind;
- one-round: the Foundation's baseline, one SQL call per record.
A mode with "+rules" (cold+rules, taught+rules, one-round+rules, ...) first keeps the rule a user would state
once, "a fruit's stock_kg is what was bought minus what was sold and not returned" (`ChatDB.keep_rule`,
its SQL as a user would write it), so every write is followed by it.
After every 10 records (and at the end) the database is checked against the records' facts (stock per
fruit, valid sales, revenue); then the questions are asked of it, and of a database loaded exactly from
the facts (answering apart from recording).

    python benchmarks/fruitshop.py --modes cold,taught,one-round  # the issue's three modes, embedded model
    python benchmarks/fruitshop.py --modes taught,one-round --no-questions -v
    python benchmarks/fruitshop.py --modes taught,taught+rules,one-round,one-round+rules --no-questions
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import FactsExtracted, FactsNotUsed
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM, Completion, Message, Usage

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "fruitshop_sample"


class CountingModel:
    """Counts every call and token of the model it wraps, failed requests included."""

    def __init__(self, model: LLM) -> None:
        self.model, self.name, self.usage = model, model.name, Usage()

    def complete(self, messages: list[Message], **kwargs: object) -> Completion:
        completion = self.model.complete(messages, **kwargs)  # type: ignore[arg-type]
        self.usage += completion.usage
        return completion


@dataclass
class Run:
    strategy: str  # the mode
    applied: int = 0
    refused: int = 0  # records that failed with nothing written
    half_written: int = 0  # records that failed and still changed the database (never expected)
    procedure_used: int = 0  # records run by a taught procedure (taught mode)
    from_facts: int = 0  # records whose SQL code wrote from the rows the model read (facts mode), applied or not
    applied_by_kind: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    record_seconds: list[float] = field(default_factory=list)
    question_seconds: list[float] = field(default_factory=list)
    correct: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    correct_on_facts: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    state: dict[str, tuple[int, int]] = field(default_factory=dict)  # check -> (right, total), at the end
    states: list[tuple[int, dict[str, tuple[int, int]]]] = field(default_factory=list)  # after every 10 records
    record_usage: Usage = field(default_factory=Usage)
    question_usage: Usage = field(default_factory=Usage)


def main() -> int:
    args = parse_args()
    records = [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    questions = [
        json.loads(line) for line in (args.dataset / "questions.jsonl").read_text().splitlines() if line.strip()
    ]
    if args.records and args.records < len(records):
        records = records[: args.records]
        questions = []  # the gold answers describe the whole month
    model = CountingModel(select_backend(args.model))
    if args.no_questions:
        questions = []
    runs = [evaluate(mode, model, records, questions, args) for mode in args.modes.split(",")]
    report(runs, records, questions, model.name, args)
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local", help="model for ChatDB (default: the embedded model)")
    parser.add_argument(
        "--modes", default="cold,taught,one-round", help=f"some of {', '.join(MODES)}, each also with +rules"
    )
    parser.add_argument("--no-questions", action="store_true", help="records and state checks only")
    parser.add_argument(
        "--records", type=int, default=0, help="feed only the first N records (questions are then skipped)"
    )
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/fruitshop_details.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


MODES = ("cold", "facts", "planned", "taught", "one-round")
STATE_EVERY = 10


def evaluate(
    mode: str, model: CountingModel, records: list[dict], questions: list[dict], args: argparse.Namespace
) -> Run:
    run = Run(mode)
    base, _, extra = mode.partition("+")
    if base not in MODES or extra not in ("", "rules"):
        raise SystemExit(f"Unknown mode {mode!r}: use {', '.join(MODES)}, each also with +rules.")
    strategy = {"one-round": "one-round", "facts": "facts"}.get(base, "native")
    without = ("write_from_facts", "read_change") if base == "planned" else ()
    db = ChatDB(model=model, schema=args.dataset / "schema.sql", summarize=False, strategy=strategy, without=without)
    if extra == "rules":
        db.keep_rule("stock", STOCK_RULE, "a fruit's stock_kg is what was bought minus what was sold and not returned")
    taught: set[str] = set()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.with_name(f"{args.out.stem}_{mode}.jsonl").open("w") as details:
        for number, record in enumerate(records, start=1):
            before, started, journal = model.usage, time.perf_counter(), _fingerprint(db)
            seen: list[object] = []  # the request's events
            try:
                if base == "taught" and record["kind"] not in taught:
                    taught.add(record["kind"])
                    reply = teach(db, record)
                else:
                    reply = db.ask(record["text"], allow_writes=True, on_event=seen.append)
                    run.procedure_used += bool(reply.procedure)
                ok, detail = not reply.pending, {"answer": reply.answer, "sql": reply.sql, "procedure": reply.procedure}
            except ChatDBError as error:
                ok, detail = False, {"error": str(error)}
                written = _fingerprint(db) != journal
                run.refused += not written
                run.half_written += written
            run.record_seconds.append(time.perf_counter() - started)
            run.record_usage += _minus(model.usage, before)
            run.applied += ok
            run.from_facts += any(isinstance(e, FactsExtracted) for e in seen)  # applied or not
            run.applied_by_kind[record["kind"]].append(ok)
            detail["not_from_facts"] = [e.reason for e in seen if isinstance(e, FactsNotUsed)]  # why it was planned
            details.write(json.dumps({"record": record["id"], "ok": ok, **detail}, default=str) + "\n")
            details.flush()
            if args.verbose:
                print(
                    f"[{mode}] {record['id']} {'ok ' if ok else 'ERR'} {run.record_seconds[-1]:5.1f}s {detail}"[:400],
                    flush=True,
                )
            if number % STATE_EVERY == 0 or number == len(records):
                run.states.append((number, check_state(db, records[:number])))
                if args.verbose:
                    print(f"[{mode}] state after {number} records: {_state_text(run.states[-1][1])}", flush=True)
        run.state = run.states[-1][1] if run.states else {}
        if questions:
            ask_questions(db, questions, run, run.correct, model, details, args)
            facts_db = ChatDB(model=model, schema=args.dataset / "schema.sql", summarize=False, strategy=strategy)
            load_facts(facts_db, all_records(args))
            ask_questions(facts_db, all_questions(args), run, run.correct_on_facts, model, details, args, label="facts")
            facts_db.close()
    db.close()
    return run


def _fingerprint(db: ChatDB) -> tuple:
    """Every row of every table: whether a failed record left anything written."""
    return tuple(tuple(db.session.rows(f"SELECT * FROM {t} ORDER BY ALL")) for t in sorted(db.session.stored_tables()))


def _state_text(state: dict[str, tuple[int, int]]) -> str:
    return ", ".join(f"{check} {right}/{total}" for check, (right, total) in state.items())


# -- the taught mode: each kind's correct statements, as a user would teach them once --------------

STOCK_RULE = """
    UPDATE fruits SET stock_kg =
        coalesce((SELECT sum(i.quantity_kg) FROM purchase_items AS i WHERE i.fruit_id = fruits.fruit_id), 0)
        - coalesce((SELECT sum(i.quantity_kg) FROM sale_items AS i JOIN sales AS s ON s.sale_id = i.sale_id
                    WHERE i.fruit_id = fruits.fruit_id AND s.returned_on IS NULL), 0)
"""

TAUGHT = {
    "purchase": """
        INSERT INTO suppliers (name, phone, email) SELECT $supplier, $phone, $email
            WHERE NOT EXISTS (SELECT 1 FROM suppliers WHERE name = $supplier);
        INSERT INTO purchases (supplier_id, purchase_date)
            SELECT supplier_id, CAST($purchase_date AS DATE) FROM suppliers WHERE name = $supplier;
        INSERT INTO fruits (name) SELECT $item_fruit WHERE NOT EXISTS (SELECT 1 FROM fruits WHERE name = $item_fruit);
        INSERT INTO purchase_items SELECT (SELECT max(purchase_id) FROM purchases), fruit_id, $item_kg, $item_unit_cost,
            $item_selling_price FROM fruits WHERE name = $item_fruit;
        UPDATE fruits SET stock_kg = stock_kg + $item_kg, selling_price = $item_selling_price WHERE name = $item_fruit
    """,
    "sale": """
        INSERT INTO customers (full_name, phone, email) SELECT $customer, $phone, $email
            WHERE NOT EXISTS (SELECT 1 FROM customers WHERE full_name = $customer);
        INSERT INTO sales (customer_id, sale_date)
            SELECT min(customer_id), CAST($sale_date AS DATE) FROM customers WHERE full_name = $customer;
        INSERT INTO sale_items SELECT (SELECT max(sale_id) FROM sales), fruit_id, $item_kg, selling_price
            FROM fruits WHERE name = $item_fruit;
        UPDATE fruits SET stock_kg = stock_kg - $item_kg WHERE name = $item_fruit
    """,
    "price_change": """
        INSERT INTO price_changes (fruit_id, change_date, new_price)
            SELECT fruit_id, CAST($change_date AS DATE), $new_price FROM fruits WHERE name = $fruit;
        UPDATE fruits SET selling_price = $new_price WHERE name = $fruit
    """,
    "return": """
        UPDATE fruits SET stock_kg = stock_kg + i.quantity_kg FROM sale_items AS i
            WHERE i.fruit_id = fruits.fruit_id AND i.sale_id = (SELECT min(s.sale_id) FROM sales AS s
            JOIN customers AS c ON c.customer_id = s.customer_id WHERE c.full_name = $customer
            AND s.sale_date = CAST($sale_date AS DATE) AND s.returned_on IS NULL);
        UPDATE sales SET returned_on = CAST($return_date AS DATE) WHERE sale_id = (SELECT min(s.sale_id) FROM sales AS s
            JOIN customers AS c ON c.customer_id = s.customer_id WHERE c.full_name = $customer
            AND s.sale_date = CAST($sale_date AS DATE) AND s.returned_on IS NULL)
    """,
}


def teach(db: ChatDB, record: dict) -> object:
    """Teach the record's kind with its correct statements and this record's values, then run them."""
    values = taught_values(record)
    db.teach(record["kind"], TAUGHT[record["kind"]], [record["text"]], example=values)
    return db.run_procedure(record["kind"], values, allow_writes=True)


def taught_values(record: dict) -> dict[str, object]:
    """A record's facts as the values of its kind's taught statements."""
    facts, day = record["facts"], record["date"]
    if record["kind"] == "purchase":
        supplier = facts["supplier"]
        items = [
            {
                "item_fruit": i["fruit"],
                "item_kg": i["kg"],
                "item_unit_cost": i["unit_cost"],
                "item_selling_price": i["sell_price"],
            }
            for i in facts["items"]
        ]
        return {
            "supplier": supplier["name"],
            "phone": supplier["phone"],
            "email": supplier["email"],
            "purchase_date": day,
            "items": items,
        }
    if record["kind"] == "sale":
        customer = facts["customer"]
        items = [{"item_fruit": i["fruit"], "item_kg": i["kg"]} for i in facts["items"]]
        return {
            "customer": customer["name"],
            "phone": customer["phone"],
            "email": customer["email"],
            "sale_date": day,
            "items": items,
        }
    if record["kind"] == "price_change":
        return {"change_date": day, "new_price": facts["new_price"], "fruit": facts["fruit"]}
    return {"customer": facts["customer"]["name"], "sale_date": facts["sale_date"], "return_date": day}


def ask_questions(
    db: ChatDB,
    questions: list[dict],
    run: Run,
    correct: dict[str, list[bool]],
    model: CountingModel,
    details,
    args: argparse.Namespace,
    label: str = "replayed",
) -> None:  # type: ignore[no-untyped-def]
    for question in questions:
        before, started = model.usage, time.perf_counter()
        try:
            reply = db.ask(question["text"])
            texts = [reply.answer, reply.result.to_csv(index=False) if reply.result is not None else ""]
            detail = {"answer": reply.answer, "sql": reply.sql}
        except ChatDBError as error:
            texts, detail = [], {"error": str(error)}
        right = any(matches(text, question) for text in texts)
        if label == "facts":
            run.question_seconds.append(time.perf_counter() - started)
            run.question_usage += _minus(model.usage, before)
        correct[question["difficulty"]].append(right)
        details.write(
            json.dumps(
                {"on": label, "question": question["id"], "right": right, "gold": question["answer"], **detail},
                default=str,
            )
            + "\n"
        )
        details.flush()
        if args.verbose:
            print(
                f"[{run.strategy} {label}] {question['id']} {'ok ' if right else 'no '} "
                f"{time.perf_counter() - started:5.1f}s {detail}",
                flush=True,
            )


def all_records(args: argparse.Namespace) -> list[dict]:
    return [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]


def all_questions(args: argparse.Namespace) -> list[dict]:
    return [json.loads(line) for line in (args.dataset / "questions.jsonl").read_text().splitlines() if line.strip()]


def load_facts(db: ChatDB, records: list[dict]) -> None:
    """The exact database the records describe, written from their structured facts (no model)."""
    rows = db.session.rows

    def fruit_id(name: str) -> int:
        rows("INSERT INTO fruits (name) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM fruits WHERE name = ?)", [name, name])
        return rows("SELECT fruit_id FROM fruits WHERE name = ?", [name])[0][0]

    def person_id(table: str, name_column: str, person: dict) -> int:
        id_column = table[:-1] + "_id"
        found = rows(f"SELECT {id_column} FROM {table} WHERE {name_column} = ?", [person["name"]])
        if found:
            return found[0][0]
        return rows(
            f"INSERT INTO {table} ({name_column}, phone, email) VALUES (?, ?, ?) RETURNING {id_column}",
            [person["name"], person["phone"], person["email"]],
        )[0][0]

    for record in records:
        facts, day = record["facts"], record["date"]
        if record["kind"] == "purchase":
            supplier = person_id("suppliers", "name", facts["supplier"])
            purchase = rows(
                "INSERT INTO purchases (supplier_id, purchase_date) VALUES (?, ?) RETURNING purchase_id",
                [supplier, day],
            )[0][0]
            for item in facts["items"]:
                fruit = fruit_id(item["fruit"])
                rows(
                    "INSERT INTO purchase_items VALUES (?, ?, ?, ?, ?)",
                    [purchase, fruit, item["kg"], item["unit_cost"], item["sell_price"]],
                )
                rows(
                    "UPDATE fruits SET stock_kg = stock_kg + ?, selling_price = ? WHERE fruit_id = ?",
                    [item["kg"], item["sell_price"], fruit],
                )
        elif record["kind"] == "sale":
            customer = person_id("customers", "full_name", facts["customer"])
            sale = rows("INSERT INTO sales (customer_id, sale_date) VALUES (?, ?) RETURNING sale_id", [customer, day])[
                0
            ][0]
            for item in facts["items"]:
                fruit = fruit_id(item["fruit"])
                rows(
                    "INSERT INTO sale_items SELECT ?, fruit_id, ?, selling_price FROM fruits WHERE fruit_id = ?",
                    [sale, item["kg"], fruit],
                )
                rows("UPDATE fruits SET stock_kg = stock_kg - ? WHERE fruit_id = ?", [item["kg"], fruit])
        elif record["kind"] == "price_change":
            fruit = fruit_id(facts["fruit"])
            rows(
                "INSERT INTO price_changes (fruit_id, change_date, new_price) VALUES (?, ?, ?)",
                [fruit, day, facts["new_price"]],
            )
            rows("UPDATE fruits SET selling_price = ? WHERE fruit_id = ?", [facts["new_price"], fruit])
        elif record["kind"] == "return":
            sale = rows(
                "SELECT s.sale_id FROM sales AS s JOIN customers AS c USING (customer_id)"
                " WHERE c.full_name = ? AND s.sale_date = ? AND s.returned_on IS NULL",
                [facts["customer"]["name"], facts["sale_date"]],
            )[0][0]
            rows("UPDATE sales SET returned_on = ? WHERE sale_id = ?", [day, sale])
            rows(
                "UPDATE fruits SET stock_kg = stock_kg + i.quantity_kg FROM sale_items AS i"
                " WHERE i.fruit_id = fruits.fruit_id AND i.sale_id = ?",
                [sale],
            )


# -- the expected state, replayed from the records' facts ----------------------------------------


def expected_state(records: list[dict]) -> tuple[dict[str, Decimal], int, Decimal]:
    """Stock per fruit, number of valid sales and revenue (returned sales excluded)."""
    stock: dict[str, Decimal] = defaultdict(Decimal)
    price: dict[str, Decimal] = {}
    sales: list[dict] = []  # {customer, date, lines: [(fruit, kg, price)], returned}
    for record in records:
        facts = record["facts"]
        if record["kind"] == "purchase":
            for item in facts["items"]:
                stock[item["fruit"]] += Decimal(str(item["kg"]))
                price[item["fruit"]] = Decimal(str(item["sell_price"]))
        elif record["kind"] == "price_change":
            price[facts["fruit"]] = Decimal(str(facts["new_price"]))
        elif record["kind"] == "sale":
            lines = [(i["fruit"], Decimal(str(i["kg"])), price[i["fruit"]]) for i in facts["items"]]
            for fruit, kg, _ in lines:
                stock[fruit] -= kg
            sales.append(
                {"customer": facts["customer"]["name"], "date": record["date"], "lines": lines, "returned": False}
            )
        elif record["kind"] == "return":
            sale = next(
                s
                for s in sales
                if s["customer"] == facts["customer"]["name"] and s["date"] == facts["sale_date"] and not s["returned"]
            )
            sale["returned"] = True
            for fruit, kg, _ in sale["lines"]:
                stock[fruit] += kg
    valid = [s for s in sales if not s["returned"]]
    revenue = sum((kg * p for s in valid for _, kg, p in s["lines"]), Decimal())
    return dict(stock), len(valid), revenue


def check_state(db: ChatDB, records: list[dict]) -> dict[str, tuple[int, int]]:
    stock, sale_count, revenue = expected_state(records)
    actual_stock = dict(db.session.rows("SELECT name, stock_kg FROM fruits"))
    right_stock = sum(Decimal(str(actual_stock.get(f, "NaN"))) == kg for f, kg in stock.items())
    (actual_sales,) = db.session.rows("SELECT count(*) FROM sales WHERE returned_on IS NULL")[0]
    (actual_revenue,) = db.session.rows(
        "SELECT coalesce(sum(i.quantity_kg * i.unit_price), 0) FROM sale_items AS i"
        " JOIN sales AS s ON i.sale_id = s.sale_id WHERE s.returned_on IS NULL"
    )[0]
    return {
        "stock per fruit": (right_stock, len(stock)),
        "valid sales": (int(actual_sales == sale_count), 1),
        "revenue": (int(abs(Decimal(str(actual_revenue)) - revenue) < Decimal("0.005")), 1),
    }


# -- scoring by the dataset's rules ------------------------------------------------------------

NUMBER = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?%?")
DATE_FORMS = [
    re.compile(r"(\d{4})-(\d{2})-(\d{2})"),
]
MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}


def matches(text: str, question: dict) -> bool:
    gold, kind = question["answer"], question["answer_type"]
    if kind == "number":
        tolerance = max(question["tolerance"] * abs(gold), 0.01)
        return any(abs(value - gold) <= tolerance for value in numbers(text))
    if kind == "date":
        return gold in dates(text)
    if kind == "list":
        return all(matches(text, {**question, "answer": g, "answer_type": "text"}) for g in gold)
    return re.search(rf"\b{re.escape(str(gold).lower())}(e?s)?\b", text.lower()) is not None


def numbers(text: str) -> list[float]:
    """Numbers in `text`, ignoring dates, phone numbers and e-mail addresses.

    >>> numbers("Revenue $1,234.50 on 2023-01-05 (call 123-919-6618)")
    [1234.5]
    """
    text = re.sub(r"\S+@\S+", " ", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2}(?:[ T][\d:.]+)?|\d{3}-\d{3}-\d{4}|\d{1,2}/\d{1,2}/\d{4}", " ", text)
    return [float(t.strip("$%").replace(",", "")) for t in NUMBER.findall(text) if t.strip("$%-")]


def dates(text: str) -> set[str]:
    """ISO dates in `text`, from the common forms the dataset lists.

    >>> sorted(dates("January 5, 2023 or 6 Jan 2023 or 2023-01-31 or 05/01/2023"))
    ['2023-01-05', '2023-01-06', '2023-01-31']
    """
    found = {f"{y}-{m}-{d}" for y, m, d in re.findall(r"(\d{4})-(\d{2})-(\d{2})", text)}
    for month, day, year in re.findall(r"([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})", text):
        if month.lower() in MONTHS:
            found.add(f"{year}-{MONTHS[month.lower()]:02d}-{int(day):02d}")
    for day, month, year in re.findall(r"(\d{1,2}) ([A-Za-z]{3})[a-z]*\.?,? (\d{4})", text):
        if month.lower() in MONTHS:
            found.add(f"{year}-{MONTHS[month.lower()]:02d}-{int(day):02d}")
    for day, month, year in re.findall(r"\b(\d{2})/(\d{2})/(\d{4})\b", text):  # day first, as the dataset writes it
        found.add(f"{year}-{month}-{day}")
    return found


def _minus(after: Usage, before: Usage) -> Usage:
    return Usage(
        after.prompt_tokens - before.prompt_tokens,
        after.completion_tokens - before.completion_tokens,
        after.calls - before.calls,
    )


def report(runs: list[Run], records: list[dict], questions: list[dict], model: str, args: argparse.Namespace) -> None:
    print(f"\nFruit shop: {len(records)} records, {len(questions)} questions, model {model}")
    header = f"  {'':34}" + "".join(f"{run.strategy:>14}" for run in runs)
    print(header)

    def line(label: str, values: list[str]) -> None:
        print(f"  {label:34}" + "".join(f"{v:>14}" for v in values))

    line("records applied without error", [f"{r.applied}/{len(records)}" for r in runs])
    line("failed, nothing written", [str(r.refused) for r in runs])
    line("failed, half written", [str(r.half_written) for r in runs])
    line("run by a taught procedure", [str(r.procedure_used) for r in runs])
    line("written from the facts read", [str(r.from_facts) for r in runs])
    for kind in dict.fromkeys(record["kind"] for record in records):
        line(f"  applied: {kind}", [f"{sum(r.applied_by_kind[kind])}/{len(r.applied_by_kind[kind])}" for r in runs])
    for index, (number, _) in enumerate(runs[0].states):
        exact = [sum(right for right, _ in r.states[index][1].values()) for r in runs]
        total = sum(t for _, t in runs[0].states[index][1].values())
        line(f"state checks exact, {number} records", [f"{e}/{total}" for e in exact])
    for check in runs[0].state:
        line(f"final state: {check}", [f"{r.state[check][0]}/{r.state[check][1]}" for r in runs])
    line("seconds per record (median)", [f"{statistics.median(r.record_seconds):.1f}" for r in runs])
    line("LLM calls per record", [f"{r.record_usage.calls / len(records):.2f}" for r in runs])
    line(
        "tokens in/out per record",
        [
            f"{r.record_usage.prompt_tokens // len(records)}/{r.record_usage.completion_tokens // len(records)}"
            for r in runs
        ],
    )
    if not questions:
        print("  (questions skipped: --no-questions, or --records, as their gold answers need all records)")
        return
    for level in ("easy", "hard"):
        line(f"questions {level} (replayed db)", [_accuracy(r.correct[level]) for r in runs])
    line("questions all (replayed db)", [_accuracy([x for v in r.correct.values() for x in v]) for r in runs])
    for level in ("easy", "hard"):
        line(f"questions {level} (exact db)", [_accuracy(r.correct_on_facts[level]) for r in runs])
    line("questions all (exact db)", [_accuracy([x for v in r.correct_on_facts.values() for x in v]) for r in runs])
    line("seconds per question (median)", [f"{statistics.median(r.question_seconds):.1f}" for r in runs])
    line("LLM calls per question", [f"{r.question_usage.calls / len(r.question_seconds):.2f}" for r in runs])
    line(
        "tokens in/out per question",
        [
            f"{r.question_usage.prompt_tokens // len(r.question_seconds)}"
            f"/{r.question_usage.completion_tokens // len(r.question_seconds)}"
            for r in runs
        ],
    )
    a, b = ([x for v in r.correct_on_facts.values() for x in v] for r in runs) if len(runs) == 2 else ([], [])
    if a:
        print(
            f"  exact-db question accuracy, {runs[0].strategy} - {runs[1].strategy}: "
            f"{100 * (sum(a) - sum(b)) / len(a):+.1f} points"
        )
    print(f"  details: {args.out.parent}/")


def _accuracy(values: list[bool]) -> str:
    return f"{sum(values)}/{len(values)} {100 * sum(values) / len(values):.0f}%" if values else "-"


if __name__ == "__main__":
    sys.exit(main())
