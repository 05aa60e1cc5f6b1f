"""`%chatdb procedures`, `%chatdb rules` and `%chatdb verified`: the notebook's procedures, rules and verified
reads, listed, shown and forgotten;
`%%chatdb --teach NAME`: a procedure taught as SQL."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from IPython.core.error import UsageError

from ..api import ChatDB
from ..errors import ChatDBError
from ..kernel_memory.procedures import Procedure, ProcedureBook
from ..kernel_memory.verified_reads import VerifiedReads
from ..sql.rules import Rule, RuleBook


def procedures_command(book: ProcedureBook, words: list[str]) -> object:
    """`%chatdb procedures [show|forget NAME]`: the procedures as a table, one shown, or one forgotten."""

    def listed() -> pd.DataFrame:
        return pd.DataFrame(
            [(p.name, p.source, ", ".join(x.name for x in p.parameters), len(p.steps), p.requests[0]) for p in book],
            columns=["name", "source", "parameters", "steps", "learned from"],
        )

    return _book_command("procedure", words, listed, lambda name: _shown_procedure(book.get(name)), book.forget)


def rules_command(book: RuleBook, words: list[str]) -> object:
    """`%chatdb rules [show|forget NAME]`: the rules as a table, one shown, or one forgotten."""

    def listed() -> pd.DataFrame:
        return pd.DataFrame(
            [(r.name, r.sentence, r.listed_reads(), r.sql) for r in book],
            columns=["name", "says", "runs after writes to", "sql"],
        )

    return _book_command("rule", words, listed, lambda name: _shown_rule(book.get(name)), book.forget)


def verified_command(reads: VerifiedReads, words: list[str]) -> object:
    """`%chatdb verified [show|forget QUESTION]`: the verified reads as a table, one shown, or one forgotten."""

    def listed() -> pd.DataFrame:
        return pd.DataFrame(
            [(r.question, r.how, ", ".join(r.tables), r.sql) for r in reads],
            columns=["question", "how", "tables", "sql"],
        )

    def shown(question: str) -> str:
        kept = {" ".join(r.question.split()): r for r in reads}.get(" ".join(question.split()))
        if kept is None:
            raise ChatDBError(f"No verified read is kept for {question!r}: %chatdb verified lists them.")
        return f"{kept.question} ({kept.how})\n{kept.sql}"

    return _book_command("verified read", words, listed, shown, reads.forget)


def _book_command(
    kind: str,
    words: list[str],
    listed: Callable[[], pd.DataFrame],
    shown: Callable[[str], str],
    forget: Callable[[str], None],
) -> pd.DataFrame | None:
    """A book's subcommand: no word lists it, `show NAME` prints one entry, `forget NAME` forgets it."""
    if not words:
        return listed()
    if len(words) == 2 and words[0] == "show":
        print(shown(words[1]))
        return None
    if len(words) == 2 and words[0] == "forget":
        forget(words[1])
        print(f"Forgot {kind} {words[1]!r}.")
        return None
    raise UsageError(f"Use %chatdb {kind}s, %chatdb {kind}s show NAME or %chatdb {kind}s forget NAME.")


def _shown_procedure(procedure: Procedure) -> str:
    steps = "".join(f"\n  {'per item: ' if step.per_item else ''}{step.sql}" for step in procedure.steps)
    return f"{procedure.name} ({procedure.source}): {described(procedure)}{steps}"


def _shown_rule(rule: Rule) -> str:
    return f"{rule.describe()}\n  runs {rule.runs_after()}:\n  {rule.sql}"


def described(procedure: Procedure) -> str:
    """
    >>> from jupyter_chatdb.kernel_memory.generalize import Parameter
    >>> described(Procedure("feed", (), (Parameter("horse", "text"), Parameter("item_kg", "number")), ("Feed Ada",)))
    "parameters horse (text), item_kg (number, per item); for requests like 'Feed Ada'"
    """
    parameters = (
        ", ".join(f"{p.name} ({p.type}{', per item' if p.per_item else ''})" for p in procedure.parameters) or "none"
    )
    return f"parameters {parameters}; for requests like {procedure.requests[0]!r}"


def teach(engine: ChatDB, name: str, cell: str) -> None:
    """`%%chatdb --teach NAME`: '-- ' lines are the requests it is for, the rest its SQL."""
    lines = cell.splitlines()
    requests = [line.strip()[2:].strip() for line in lines if line.strip().startswith("--")]
    sql = "\n".join(line for line in lines if not line.strip().startswith("--"))
    procedure = engine.teach(name, sql, [r for r in requests if r])
    print(f"Kept procedure {name!r}: {described(procedure)}.")
