"""Rules (`sql/rules.py`): one drafted from the user's sentence, to be shown and approved; and, at the end
of a write transaction, each kept rule that reads a table the request changed, run as its own step
before the changes are committed or shown for approval."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import replace

from ...errors import SQLRefused
from ...sql import fixups, guard
from ...sql.journal import TableChange
from ...sql.rule_repairs import coalesced_sums, own_subqueries
from ...sql.rules import Rule, RuleError, checked_rule, run_rule
from ...sql.trees import parse, written
from .. import native_sql, prompts
from ..context import Context
from ..events import Event, Step, StepDone, StepPlanned, StepStarted
from ..kinds import Route
from ..planned_steps import PlannedStep
from ..stage import stage

RULE_MAX_TOKENS = 320
WRITES = "UPDATE|INSERT|DELETE|WITH"
REPAIR = "Write the corrected UPDATE statement for the same sentence."


@stage
def draft_rule(ctx: Context) -> Iterator[Event]:
    """The proposed rule's statement (written by the user, or drafted by the model from its sentence and
    repaired up to `revisions` times), checked (`checked_rule`) and made the plan: it runs as a write
    that waits for approval."""
    rule, schema = ctx.rule, ctx.catalog.schema()
    assert rule is not None
    if rule.sql:
        ctx.rule = checked_rule(ctx.session, rule, schema)
    else:
        ctx.rule = yield from _drafted(ctx, rule, schema)
    ctx.route, ctx.steps = Route.WRITE, [PlannedStep(ctx.rule.describe(), ctx.rule.sql)]


def _drafted(ctx: Context, rule: Rule, schema: dict[str, list[str]]) -> Generator[Event, None, Rule]:
    implied = ctx.services.keys.references(ctx.catalog, ctx.session)
    messages = prompts.rule_messages(native_sql.schema_text(ctx.catalog, ctx.session, None, implied), rule.sentence)
    for attempt in range(ctx.options.revisions + 1):
        purpose = "rule" if attempt == 0 else "repair"
        completion = yield from ctx.calls(purpose, messages, None, RULE_MAX_TOKENS, stop=native_sql.STOP)
        sql = native_sql.reply_sql(completion.text, WRITES)
        try:
            if not sql:
                raise RuleError(f"The model wrote no statement for the rule (it said: {completion.text[:200]!r}).")
            return checked_rule(ctx.session, replace(rule, sql=_fixed(sql)), schema)
        except (RuleError, SQLRefused) as error:
            if attempt == ctx.options.revisions:
                raise
            messages = native_sql.repair_messages(messages, completion.text, sql, str(error), ask=REPAIR)
    raise AssertionError("unreachable")


def _fixed(sql: str) -> str:
    """`sql` with each sum a subquery of its own and NULL-safe (`rule_repairs`), and the updated row named
    as the model meant it (`fixups.update_target_references`)."""
    sql = own_subqueries(sql)
    trees = parse(sql)
    if len(trees) != 1:
        return sql
    tree = fixups.update_target_references(trees[0]) or trees[0]
    tree = coalesced_sums(tree) or tree
    return written(tree)


def apply_rules(ctx: Context) -> Generator[Event, None, tuple[TableChange, ...] | None]:
    """Run, in the order they were kept, the rules reading a table the transaction changed (a rule's own
    writes count for the rules after it); each at most once. A rule that fails fails the request, so
    nothing is written. Returns the request's own changes, from before the first rule ran (None when
    none ran): what the request asks for, which the rules, approved once, only follow."""
    chain = ctx.running()
    rules = ctx.services.rules
    if not ctx.session.in_transaction or rules is None:
        return None
    assert chain.recorder is not None
    own = None
    proposed = ctx.rule.name if ctx.rule is not None else None  # replaced by the one proposed
    pending = {rule.name: (rule, _statement(rule, chain.schema)) for rule in rules if rule.name != proposed}
    while due := [name for name, (_, s) in pending.items() if set(s.tables) & chain.recorder.tables]:
        rule, statement = pending.pop(due[0])
        if own is None:
            own = tuple(chain.recorder.changes())
        index = len(chain.steps) + 1
        yield StepPlanned(index, rule.describe(), statement.sql)
        yield StepStarted(index, statement.sql)
        changed = run_rule(ctx.session, chain.recorder, statement, rule)
        step = Step(index, rule.describe(), statement.sql, "done", rows_affected=changed)
        chain.steps.append(step)
        yield StepDone(step)
    return own


def _statement(rule: Rule, schema: dict[str, list[str]]) -> guard.Statement:
    try:
        return rule.statement(schema)
    except SQLRefused as error:
        raise RuleError(
            f"Rule {rule.name!r} no longer fits the tables ({error}) Nothing was written; "
            f"forget it with %chatdb rules forget {rule.name}, or keep it again as it should be now."
        ) from None
