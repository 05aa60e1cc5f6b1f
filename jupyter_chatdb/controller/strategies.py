"""Strategies: tuples of stages. A feature is switched off by leaving its stage out (`without`)."""

from __future__ import annotations

from ..sql.fixup_rules import RULE_NAMES
from .stage import Stage
from .stages.change_rows import read_change
from .stages.finish import answer, fall_back, finish
from .stages.frames import refuse_writes_to_frames
from .stages.from_facts import write_from_facts
from .stages.ground_values import CORRECT_VALUES
from .stages.guessed import hold_guessed_writes
from .stages.honesty import check_concepts
from .stages.one_statement import foundation_sql, native_read
from .stages.per_thing import rank_per_thing
from .stages.planning import plan, vote
from .stages.procedure import use_procedure
from .stages.route import chat, route, route_quickly
from .stages.rule_steps import draft_rule
from .stages.run import run_steps
from .stages.second_look import second_look
from .stages.table_choice import consider_tables, flatten_joins, flatten_joins_on_repair, leave_out_copies, pick_tables
from .stages.thinking import post_think, recall
from .stages.tools import refuse_unsafe, use_tools
from .stages.units_aside import set_preference_aside
from .stages.unstated import hold_unstated_settings
from .stages.unwritten import hold_unwritten_numbers

# plain language to SQL steps: the chain-of-memory controller; a question about the database itself is
# answered by tools, an unsafe request refused
ASK: tuple[Stage, ...] = (
    consider_tables,
    route,
    refuse_unsafe,
    refuse_writes_to_frames,
    use_tools,
    recall,
    chat,
    set_preference_aside,  # a preference of units stated beside a question: applied to the answer, not planned
    check_concepts,
    use_procedure,
    pick_tables,
    leave_out_copies,
    plan,
    vote,
    run_steps,
    hold_unwritten_numbers,  # a record written in part waits (`stages/unwritten.py`)
    hold_unstated_settings,  # a change the model wrote setting a value the request does not give waits
    hold_guessed_writes,  # a write planned after code read it but could not write it waits (`stages/guessed.py`)
    finish,
    answer,
    fall_back,
    post_think,
)
# the same, but a read is one statement in the model's native form (SQLite in a code block), a request
# plainly asking about the data is routed without a model call, and a write is first read for what it does
# to rows (a change an UPDATE, a removal a DELETE) and, where it adds rows, as the rows it states
NATIVE: tuple[Stage, ...] = (
    consider_tables,
    route_quickly,
    refuse_unsafe,
    refuse_writes_to_frames,
    use_tools,
    recall,
    chat,
    set_preference_aside,  # a preference of units stated beside a question: applied to the answer, not planned
    check_concepts,
    use_procedure,
    read_change,  # a write no procedure takes that names a kept row: what it does to rows (`stages/change_rows.py`)
    write_from_facts,  # a write that adds rows: the rows it states, written by code (`recording/`)
    pick_tables,
    leave_out_copies,
    native_read,
    rank_per_thing,  # a ranking of single rows naming a thing many rows hold: written again once, told so
    *ASK[ASK.index(plan) : ASK.index(finish)],
    second_look,  # a doubtful read: more statements, voted on by their results
    *ASK[ASK.index(finish) :],
)


def _before(strategy: tuple[Stage, ...], stage: Stage, added: Stage) -> tuple[Stage, ...]:
    """`strategy` with `added` run just before `stage`."""
    at = strategy.index(stage)
    return (*strategy[:at], added, *strategy[at:])


# native, and the model is also shown views that flatten the references of each table nothing refers to
# (`grounding/flat_views.py`); measured on 2026-11-23: better on the tune half, worse on the report half
FLAT = _before(NATIVE, native_read, flatten_joins)
# native, and the views are offered with the first repair of a read that failed
REPAIR_FLAT = _before(NATIVE, native_read, flatten_joins_on_repair)
# native without reading a write for what it does to rows: a write no procedure takes is read only as the
# rows it states (native from the eleventh session to the fifty-first issue)
FACTS = tuple(stage for stage in NATIVE if stage is not read_change)
# the Foundation's baseline: one SQL statement (several writes) as JSON, repaired `revisions` times
ONE_ROUND: tuple[Stage, ...] = (foundation_sql, run_steps, finish, answer)
# a plan the user approved (or wrote, or recorded): run exactly it, without the model
APPROVED: tuple[Stage, ...] = (run_steps, finish, answer)
# a rule proposed: its statement drafted from the user's sentence (or as written), checked and previewed
RULE: tuple[Stage, ...] = (draft_rule, *APPROVED)
# native under its name before reading a write for what it does to rows was native (the fifty-first issue)
CHANGES = NATIVE
STRATEGIES = {
    "chain": ASK,
    "changes": CHANGES,
    "native": NATIVE,
    "flat": FLAT,
    "repair-flat": REPAIR_FLAT,
    "facts": FACTS,
    "one-round": ONE_ROUND,
}
STAGES = {stage.name: stage for strategy in STRATEGIES.values() for stage in strategy}


def without(strategy: tuple[Stage, ...], *names: str) -> tuple[Stage, ...]:
    """`strategy` with the named stages left out (a fix-up rule's name is left to `fixup_rules.without`).

    >>> [s.name for s in without(APPROVED, "finish", "labels_for_keys")]
    ['run_steps', 'answer']
    """
    unknown = [name for name in names if name not in STAGES and name not in RULE_NAMES and name != CORRECT_VALUES]
    if unknown:
        raise ValueError(
            f"Unknown stage {unknown[0]!r}: the stages are {', '.join(STAGES)}; the fix-up rules "
            f"{', '.join(RULE_NAMES)}; and {CORRECT_VALUES}."
        )
    return tuple(stage for stage in strategy if stage.name not in names)
