"""The fix-ups as one tuple of rules over one parsed tree, in the order they run (sqlglot's
`optimize(expression, rules=RULES)` shape): leaving a rule out of the tuple switches it off.

Each rule is a record: its name (as `ChatDB(without=...)` names it), one function `(tree, scope) -> fixed
copy | None`, and whether it rewrites only the model's reads (SQL a user wrote, and writes, stay as
written). The value correction (`controller/stages/ground_values.py`, a model call) runs between `BEFORE_VALUES`
and `AFTER_VALUES`: the first see the literals as written, the second the stored values meant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlglot import exp

from . import aliases, bare_columns, column_owners, fixups, key_labels, ties, value_types
from .column_owners import Link
from .fixups import Schema, TextColumns


@dataclass(frozen=True)
class Scope:
    """What the rules may read besides the tree: the schema, and what the request and the data say."""

    schema: Schema
    shown: Sequence[str] = ()  # the tables the model was shown
    views: Mapping[str, str] = field(default_factory=dict)  # views it was shown: name -> SELECT
    text_columns: TextColumns = field(default_factory=dict)
    moments: Mapping[str, set[str]] = field(default_factory=dict)  # table -> its TIMESTAMP columns
    links: Callable[[], Sequence[Link]] = lambda: ()  # the references between tables, asked when needed
    label_of: Callable[[str], str | None] = lambda table: None  # a table's label column
    named: key_labels.Named = lambda column, table: False  # the request names a reference as such


@dataclass(frozen=True)
class Rule:
    name: str
    apply: Callable[[exp.Expr, Scope], exp.Expr | None]
    reads_only: bool = False


BEFORE_VALUES: tuple[Rule, ...] = (
    Rule("with_views", lambda tree, s: fixups.with_views(tree, s.views)),
    Rule("qualify_tables", lambda tree, s: fixups.qualify_tables(tree, s.schema, s.shown)),
    Rule("quoted_strings", lambda tree, s: fixups.quoted_strings(tree, s.schema)),
    Rule("drop_unknown_joins", lambda tree, s: fixups.drop_unknown_joins(tree, s.schema)),
    Rule("swap_tables", lambda tree, s: column_owners.swap_tables(tree, s.schema)),
    Rule("requalify_columns", lambda tree, s: column_owners.requalify_columns(tree, s.schema)),
    Rule("join_owners", lambda tree, s: column_owners.join_owners(tree, s.schema, s.links)),
    Rule("bare_columns", lambda tree, s: bare_columns.bare_columns(tree)),
    Rule("ties_by_group", lambda tree, s: ties.ties_by_group(tree)),
)
AFTER_VALUES: tuple[Rule, ...] = (
    Rule("cast_text_numbers", lambda tree, s: value_types.cast_text_numbers(tree, s.schema, s.text_columns)),
    Rule("like_on_non_text", lambda tree, s: value_types.like_on_non_text(tree, s.schema, s.text_columns)),
    Rule("days_of_moments", lambda tree, s: value_types.days_of_moments(tree, s.schema, s.moments), reads_only=True),
    Rule(
        "labels_for_keys",
        lambda tree, s: key_labels.labels_for_keys(tree, s.schema, s.links, s.label_of, s.named),
        reads_only=True,
    ),
    Rule("readable_aliases", lambda tree, s: aliases.readable_aliases(tree), reads_only=True),
)
RULES = BEFORE_VALUES + AFTER_VALUES
RULE_NAMES = tuple(rule.name for rule in RULES)


def rewritten(tree: exp.Expr, scope: Scope, rules: Sequence[Rule], reads: bool) -> exp.Expr:
    """`tree` after each of `rules` in turn (the tree itself when none changes it); `reads`: the model's
    read, which the reads-only rules rewrite too.

    >>> from .trees import parse, written
    >>> tree = parse('SELECT count(*) FROM boats WHERE hull = "oak"')[0]
    >>> written(rewritten(tree, Scope({"boats": ["hull"]}), RULES, reads=True))
    "SELECT COUNT(*) AS count FROM boats WHERE hull = 'oak'"
    """
    for rule in rules:
        if reads or not rule.reads_only:
            tree = rule.apply(tree, scope) or tree
    return tree


def around_values(rules: Sequence[Rule]) -> tuple[list[Rule], list[Rule]]:
    """`rules` split into those that run before the value correction and those after it."""
    before = {rule.name for rule in BEFORE_VALUES}
    return [r for r in rules if r.name in before], [r for r in rules if r.name not in before]


def without(rules: Sequence[Rule], names: Sequence[str]) -> tuple[Rule, ...]:
    """`rules` with those named left out (names that are no rule's are ignored: they name stages)."""
    return tuple(rule for rule in rules if rule.name not in names)
