"""`%chatdb procedures` and `%chatdb rules`: the notebook's procedures and rules, listed, shown and forgotten."""

from __future__ import annotations

import pandas as pd
from IPython.core.error import UsageError

from ..kernel_memory.procedures import Procedure, ProcedureBook
from ..sql.rules import RuleBook


def procedures_command(book: ProcedureBook, words: list[str]) -> object:
    """`%chatdb procedures [show|forget NAME]`: the procedures as a table, one shown, or one forgotten."""
    if not words:
        return pd.DataFrame(
            [(p.name, p.source, ", ".join(x.name for x in p.parameters), len(p.steps), p.requests[0]) for p in book],
            columns=["name", "source", "parameters", "steps", "learned from"],
        )
    if len(words) == 2 and words[0] == "show":
        procedure = book.get(words[1])
        print(f"{procedure.name} ({procedure.source}): {described(procedure)}")
        for step in procedure.steps:
            print(f"  {'per item: ' if step.per_item else ''}{step.sql}")
        return None
    if len(words) == 2 and words[0] == "forget":
        book.forget(words[1])
        print(f"Forgot procedure {words[1]!r}.")
        return None
    raise UsageError("Use %chatdb procedures, %chatdb procedures show NAME or %chatdb procedures forget NAME.")


def rules_command(book: RuleBook, words: list[str]) -> object:
    """`%chatdb rules [show|forget NAME]`: the rules as a table, one shown, or one forgotten."""
    if not words:
        return pd.DataFrame(
            [(r.name, r.sentence, r.listed_reads(), r.sql) for r in book],
            columns=["name", "says", "runs after writes to", "sql"],
        )
    if len(words) == 2 and words[0] == "show":
        rule = book.get(words[1])
        print(f"{rule.describe()}\n  runs {rule.runs_after()}:\n  {rule.sql}")
        return None
    if len(words) == 2 and words[0] == "forget":
        book.forget(words[1])
        print(f"Forgot rule {words[1]!r}.")
        return None
    raise UsageError("Use %chatdb rules, %chatdb rules show NAME or %chatdb rules forget NAME.")


def described(procedure: Procedure) -> str:
    """
    >>> from jupyter_chatdb.sql.generalize import Parameter
    >>> described(Procedure("feed", (), (Parameter("horse", "text"), Parameter("item_kg", "number")), ("Feed Ada",)))
    "parameters horse (text), item_kg (number, per item); for requests like 'Feed Ada'"
    """
    parameters = (
        ", ".join(f"{p.name} ({p.type}{', per item' if p.per_item else ''})" for p in procedure.parameters) or "none"
    )
    return f"parameters {parameters}; for requests like {procedure.requests[0]!r}"
