"""Figures shown in the units a user prefers ("from now on show outputs in GW"): converted by code after
the read, never by the model while it writes the read.

A preference says how figures are shown, not which rows are asked for; a model shown "in GW" beside a
ranking has ranked by the wrong figure and divided by the wrong power of ten. So a preference that names
a unit is kept from the planner, and each result column whose figures are one stored column's (the
column itself, or its total, mean, least, most, rounded: not a count, a product or a ratio) is converted
from that column's unit, read from its description or its name, by the exact factor. A column whose
unit nothing says is shown as stored, and the answer says so and how to say it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd
import sqlglot
from sqlglot import exp

from ..kernel_memory.thoughts import Thought
from ..language.cues import JOINING, NOTE_CUES
from ..language.units import Unit, column_unit, decimals_said, factor, target_unit, target_unit_at
from ..language.words import stems
from ..sql.catalog import Catalog, Table

# what a figure read from one column may pass through and stay in that column's unit
KEEPS_UNIT = (
    exp.Column,
    exp.Sum,
    exp.Avg,
    exp.Min,
    exp.Max,
    exp.Round,
    exp.Cast,
    exp.TryCast,
    exp.DataType,
    exp.Abs,
    exp.Coalesce,
    exp.Add,
    exp.Sub,
    exp.Neg,
    exp.Paren,
    exp.Alias,
    exp.Identifier,
)
DEPTH = 4  # subqueries and CTEs followed back to the tables


@dataclass(frozen=True)
class Preference:
    """Figures of `unit`'s kind are to be shown in `unit`, as the user said in `text`."""

    text: str
    unit: Unit
    decimals: int | None = None  # "with one decimal"


@dataclass(frozen=True)
class Shown:
    """A result in the preferred units; the columns converted and those a preference names left as
    stored, in words."""

    frame: pd.DataFrame
    converted: tuple[str, ...] = ()
    as_stored: tuple[str, ...] = ()


def unit_preferences(texts: Iterable[str]) -> list[Preference]:
    """The preferences among `texts` (newest first) that name a unit to show figures in: the newest for
    each kind of unit.

    >>> [p.unit.symbol for p in unit_preferences(["Show weights in tonnes.", "Round to cents.", "Weights in kg."])]
    ['t']
    """
    kept: dict[str, Preference] = {}
    for text in texts:
        unit = target_unit(text)
        if unit is not None and unit.kind not in kept:
            kept[unit.kind] = Preference(text, unit, decimals_said(text))
    return list(kept.values())


def shown_in_units(frame: pd.DataFrame, sql: str, catalog: Catalog, preferences: list[Preference]) -> Shown:
    """`frame`, the result of `sql`, with each column whose stored unit is known converted to the preferred
    unit of its kind (its name says the new unit); a column a preference names whose unit is not known
    is left as stored, and a note says so."""
    sources = _column_sources(sql, catalog, len(frame.columns)) if preferences else []
    shown, converted, as_stored, renamed = frame.copy(), list[str](), list[str](), dict[str, str]()
    for column, source in zip(frame.columns, sources, strict=False):
        if source is None or frame[column].dtype == bool or not pd.api.types.is_numeric_dtype(frame[column]):
            continue
        table, stored, unit = source
        for preference in preferences:
            by = factor(unit, preference.unit)
            if unit is not None and by is not None and by != 1.0:
                shown[column] = [None if pd.isna(v) else _figure(v * by, preference.decimals) for v in frame[column]]
                renamed[column] = _named_in(str(column), unit, preference.unit)
                converted.append(f"{column} is shown in {preference.unit.symbol} (stored in {unit.symbol})")
            elif by is not None and preference.decimals is not None and pd.api.types.is_float_dtype(frame[column]):
                shown[column] = [None if pd.isna(v) else _figure(v, preference.decimals) for v in frame[column]]
            elif unit is None and _names(preference.text, stored):
                as_stored.append(
                    f"{column} is shown as stored, in a unit nothing states (to have it converted, say it: "
                    f'%chatdb describe {table}.{stored} "in <unit>")'
                )
    return Shown(shown.rename(columns=renamed), tuple(converted), tuple(as_stored))


def _figure(value: float, decimals: int | None) -> float:
    """A converted figure: rounded as the user asked, else without the float's last-digit noise."""
    return round(float(value), decimals) if decimals is not None else float(f"{value:.12g}")


def _named_in(column: str, stored: Unit, shown: Unit) -> str:
    """The result column's name with the unit it is now shown in.

    >>> from jupyter_chatdb.language.units import UNITS
    >>> _named_in("load_kg", UNITS["kg"], UNITS["t"]), _named_in("total_output", UNITS["kW"], UNITS["MW"])
    ('load_t', 'total_output (MW)')
    >>> _named_in("kg", UNITS["kg"], UNITS["t"])
    't'
    """
    if column.lower() == stored.symbol.lower():
        return shown.symbol
    words = column.split("_")
    if len(words) > 1 and words[-1].lower() == stored.symbol.lower():
        return "_".join([*words[:-1], shown.symbol.lower() if column.islower() else shown.symbol])
    return f"{column} ({shown.symbol})"


def _names(text: str, column: str) -> bool:
    """Whether `text` names the column by one of its words."""
    return bool(stems(column.replace("_", " ")) & stems(text))


Source = tuple[str, str, Unit | None]  # table, column, the column's unit


def _column_sources(sql: str, catalog: Catalog, width: int) -> list[Source | None]:
    """For each column of `sql`'s result, the stored column its figures are in the unit of; None where
    they are no one column's (a count, a product, a ratio, a literal) or the statement is not one SELECT."""
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return []
    if not isinstance(tree, exp.Select) or any(isinstance(e, exp.Star) for e in tree.expressions):
        return []
    tables = {name.lower(): table for name, table in catalog.tables.items()}
    ctes = {cte.alias_or_name.lower(): cte.this for cte in tree.find_all(exp.CTE)}
    found = [_source(e, tree, tables, ctes, DEPTH) for e in tree.expressions]
    return found if len(found) == width else []


def _source(
    node: exp.Expression, select: exp.Select, tables: dict[str, Table], ctes: dict[str, exp.Expression], depth: int
) -> Source | None:
    if depth < 0 or not _keeps_unit(node):
        return None
    columns = list(node.find_all(exp.Column))
    found = [_column_source(c, select, tables, ctes, depth) for c in columns]
    if not found or any(f is None for f in found) or len({f[2] for f in found if f}) != 1:
        return None
    return found[0]


def _keeps_unit(node: exp.Expression) -> bool:
    """Whether every part of `node` keeps its figures in their column's unit (a literal only as the
    decimals of a rounding or the default of a COALESCE)."""
    for part in node.walk():
        if isinstance(part, exp.Literal):
            if not isinstance(part.parent, (exp.Round, exp.Coalesce)) or part.arg_key == "this":
                return False
        elif not isinstance(part, KEEPS_UNIT):
            return False
    return True


def _column_source(
    column: exp.Column, select: exp.Select, tables: dict[str, Table], ctes: dict[str, exp.Expression], depth: int
) -> Source | None:
    """The stored column `column` reads, through the subqueries and CTEs it names."""
    name = column.name.lower()
    for alias, source in _from(select, ctes).items():
        if column.table and column.table.lower() != alias:
            continue
        if isinstance(source, exp.Select):
            inner = [e for e in source.expressions if e.alias_or_name.lower() == name]
            if inner:
                return _source(inner[0], source, tables, ctes, depth - 1)
        elif (table := tables.get(source)) is not None:
            for stored in table.columns:
                if stored.name.lower() == name:
                    return table.name, stored.name, column_unit(stored.name, stored.meaning)
    return None


def _from(select: exp.Select, ctes: dict[str, exp.Expression]) -> dict[str, exp.Select | str]:
    """What `select` reads from, by the name its columns say: a table's name, or a subquery's or CTE's SELECT."""
    sources: dict[str, exp.Select | str] = {}
    for part in [select.args.get("from_"), *(select.args.get("joins") or [])]:
        if part is None:
            continue
        item = part.this
        alias = item.alias_or_name.lower()
        if isinstance(item, exp.Subquery) and isinstance(item.this, exp.Select):
            sources[alias] = item.this
        elif isinstance(item, exp.Table):
            named = ctes.get(item.name.lower())
            sources[alias] = named if isinstance(named, exp.Select) else item.name.lower()
    return sources


# where a clause ends and the next begins inside a sentence
CLAUSE_BREAK = re.compile(r"\s*(?:[,;:]\s*(?:and\s+|then\s+)?|\s+and\s+|\s+then\s+)", re.IGNORECASE)
SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+")


def split_preference(text: str) -> tuple[str, str] | None:
    """A request that asks something and also states a preference of units, as (the question, the
    preference); None when it states none, or nothing but one.

    >>> split_preference("Top 3 sites by turbines, from now on show outputs in MW")
    ('Top 3 sites by turbines', 'from now on show outputs in MW')
    >>> split_preference("From now on give weights in tonnes. Which hives gave most honey?")
    ('Which hives gave most honey?', 'From now on give weights in tonnes.')
    >>> split_preference("Show loads in tonnes from now on and list the 5 heaviest looms")
    ('list the 5 heaviest looms', 'Show loads in tonnes from now on')
    >>> split_preference("Loads in tonnes from now on, then list the looms")
    ('list the looms', 'Loads in tonnes from now on')
    >>> split_preference("I prefer hives over 20 kg, list them"), split_preference("From now on, in tonnes.")
    (None, None)
    """
    at = 0
    for sentence in SENTENCE_BREAK.split(text):
        start = text.index(sentence, at)
        at = start + len(sentence)
        cue = NOTE_CUES["preference"].search(sentence)
        if cue is None:
            continue
        breaks = list(CLAUSE_BREAK.finditer(sentence))
        shown = _shown_in(sentence, cue.start(), breaks)
        if shown is None:
            continue
        first, said = min(cue.start(), shown[0]), shown[1]
        begin = max((b.end() for b in breaks if b.end() <= first), default=0)
        end = min((b.start() for b in breaks if b.start() >= max(cue.end(), said)), default=len(sentence))
        clause = sentence[begin:end]
        before, after = text[: start + begin], text[start + end :]
        question = (_trimmed(before) + " " + _trimmed(after)).strip()
        if re.search(r"\w", JOINING.sub("", question)):
            return question, clause.strip()
    return None


def preference_alone(text: str) -> Preference | None:
    """The preference of units `text` states, where it states nothing else: a preference's cue, a unit to
    show figures in, and no question (`split_preference` finds none beside it).

    >>> alone = preference_alone("From now on, give loads in tonnes with one decimal.")
    >>> alone.unit.symbol, alone.decimals
    ('t', 1)
    >>> preference_alone("From now on, round money to cents."), preference_alone("Loads in tonnes, from now on. Top looms?")
    (None, None)
    """
    unit = target_unit(text)
    if unit is None or not NOTE_CUES["preference"].search(text) or split_preference(text) is not None:
        return None
    return Preference(text.strip(), unit, decimals_said(text))


def unit_asked(text: str, catalog: Catalog) -> tuple[str, str, Unit] | None:
    """A question that asks for figures in a unit ("What is the total output in MW?") where a column of the
    tables holds figures of that kind in another unit: (the question without it, what it said, the unit);
    None otherwise (a preference says it with a cue: `split_preference`).

    >>> from jupyter_chatdb.sql.catalog import Column
    >>> catalog = Catalog([Table("looms", (Column("output_m", "DOUBLE"),), 3)])
    >>> unit_asked("What is the total output in km?", catalog)
    ('What is the total output?', 'in km', Unit(symbol='km', kind='length', size=1000.0))
    >>> unit_asked("What is the total output in tonnes?", catalog), unit_asked("Looms in Hall B?", catalog)
    (None, None)
    """
    found = target_unit_at(text)
    if found is None or NOTE_CUES["preference"].search(text):
        return None
    unit, start, end = found
    held = (column_unit(c.name, c.meaning) for table in catalog.tables.values() for c in table.columns)
    if not any(other is not None and other.kind == unit.kind and other != unit for other in held):
        return None
    question = (text[:start].rstrip(" ,;:") + text[end:]).strip()
    return question, text[start:end], unit


def words_before(text: str, said: str, count: int = 4) -> str:
    """The last `count` words of `text` before `said`, and `said`: what a unit asked in a question is said of
    ("its total area in hectares"), the words that may name a column left as stored.

    >>> words_before("Which variety has most trees, and what is its total area in hectares?", "in hectares")
    'is its total area in hectares'
    """
    before = text[: text.find(said)].split()
    return " ".join([*before[-count:], said])


def preference_thought(preference: Preference) -> Thought:
    """A preference of units as the memory keeps it, in the user's words: a newer one for the same kind of
    unit replaces it."""
    return Thought(preference.unit.kind, "preference", preference.text, preference.text, "preference")


def _shown_in(sentence: str, cue: int, breaks: list[re.Match[str]]) -> tuple[int, int] | None:
    """Where the unit said with the cue at `cue` starts and ends: after the cue in its clause, else before
    it in the clause the cue ends ("Loads in tonnes, from now on"); None if neither says one."""
    begin = max((b.end() for b in breaks if b.end() <= cue), default=0)
    after = target_unit_at(sentence[begin:])
    if after is not None:
        return begin + after[1], begin + after[2]
    before = max((b.end() for b in breaks if b.end() < begin), default=0)
    found = target_unit_at(sentence[before:begin])
    return None if found is None else (before + found[1], before + found[2])


def _trimmed(part: str) -> str:
    """A piece of a request cut where a clause was taken out: without the break left at its edge."""
    return re.sub(
        r"^(?:\s*(?:[,;:]|and\b|then\b))+\s*|(?:\s*(?:[,;:]|\band|\bthen))+\s*$", "", part.strip(), flags=re.I
    )
