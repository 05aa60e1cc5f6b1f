"""Rules as requests: one proposed in words or SQL (previewed, kept when approved), or kept as written."""

from __future__ import annotations

from ..controller.planned_steps import PlannedStep
from ..controller.request import Request
from ..errors import SQLRefused
from ..sql import guard, trees
from ..sql.catalog import Catalog
from ..sql.rules import Rule, checked_rule
from ..sql.session import Session


def proposal(name: str, text: str) -> Request:
    """The request that drafts (from words, one model call) or checks (SQL) rule `name` and previews it."""
    written = is_write_sql(text)
    rule = Rule(name, text.strip() if written else "", "" if written else " ".join(text.split()))
    return Request(rule.sentence or f"rule {name}", summarize=False, rule=rule, seen=written)


def kept(session: Session, name: str, sql: str, sentence: str) -> tuple[Rule, Request]:
    """Rule `name` checked (it must change nothing when run twice), and the request that runs and keeps it."""
    catalog = Catalog.read(session, samples=0)
    rule = checked_rule(session, Rule(name, sql, sentence), catalog.schema())
    request = Request(
        rule.sentence or f"rule {name}",
        allow_writes=True,
        summarize=False,
        approved=(PlannedStep(rule.describe(), rule.sql),),
        seen=True,
        rule=rule,
    )
    return rule, request


def is_write_sql(text: str) -> bool:
    """Whether `text` is SQL that writes, not a sentence ("Update the stock as ..." is a sentence).

    >>> is_write_sql("update hay set n = 1"), is_write_sql("Update stock as bought minus sold")
    (True, False)
    """
    try:
        return all(guard.classify(tree) is guard.Kind.WRITE for tree in trees.parse(text))
    except SQLRefused:
        return False
