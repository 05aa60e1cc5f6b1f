"""Units of measure: which unit a column's figures are in (its description, else its name), which unit a
user asks figures to be shown in ("show weights in tonnes"), and the exact factor between two of one kind.

A unit is known by its symbol or its name. Symbols are read as written where case tells units apart
(`mW` a milliwatt, `MW` a megawatt); a column name in lower case reads each as the unit its trade most
often means (`capacity_mw`: megawatts, `dose_mg`: milligrams). Units of money are not converted: their
rates change.

>>> column_unit("output_kw", ""), column_unit("output", "power in megawatts (MW)")
(Unit(symbol='kW', kind='power', size=1000.0), Unit(symbol='MW', kind='power', size=1000000.0))
>>> target_unit("from now on show outputs in GW"), target_unit("hives over 20 kg, from now on")
(Unit(symbol='GW', kind='power', size=1000000000.0), None)
>>> factor(column_unit("load_kg", ""), target_unit("weights in tonnes"))
0.001
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    symbol: str  # as shown: "GW", "kg", "min"
    kind: str  # what it measures: two units convert only within one kind
    size: float  # in the kind's base unit (W, Wh, g, m, l, s, B, m2)


def _units() -> dict[str, Unit]:
    """Every spelling of every unit (symbols as written; names in lower case, singular and plural)."""
    table: dict[str, Unit] = {}

    def add(symbol: str, kind: str, size: float, *names: str) -> None:
        unit = Unit(symbol, kind, size)
        table[symbol] = unit
        for name in names:
            table[name] = table[name + "s"] = unit

    for prefix, size, word in (
        ("", 1.0, ""),
        ("k", 1e3, "kilo"),
        ("M", 1e6, "mega"),
        ("G", 1e9, "giga"),
        ("T", 1e12, "tera"),
    ):
        add(f"{prefix}W", "power", size, f"{word}watt")
        add(f"{prefix}Wh", "energy", size, f"{word}watt hour", f"{word}watt-hour")
        add(f"{prefix}B", "data", size, f"{word}byte")
    add("mW", "power", 1e-3, "milliwatt")
    add("J", "energy", 1 / 3600, "joule")
    add("kJ", "energy", 1e3 / 3600, "kilojoule")
    add("MJ", "energy", 1e6 / 3600, "megajoule")
    add("GJ", "energy", 1e9 / 3600, "gigajoule")
    add("mg", "mass", 1e-3, "milligram")
    add("g", "mass", 1.0, "gram")
    add("kg", "mass", 1e3, "kilogram", "kilo")
    add("t", "mass", 1e6, "tonne", "metric ton")
    add("lb", "mass", 453.59237, "pound")
    add("oz", "mass", 28.349523125, "ounce")
    add("mm", "length", 1e-3, "millimetre", "millimeter")
    add("cm", "length", 1e-2, "centimetre", "centimeter")
    add("m", "length", 1.0, "metre", "meter")
    add("km", "length", 1e3, "kilometre", "kilometer")
    add("mi", "length", 1609.344, "mile")
    add("ft", "length", 0.3048, "foot")
    table["feet"] = table["ft"]
    add("ml", "volume", 1e-3, "millilitre", "milliliter")
    add("cl", "volume", 1e-2, "centilitre", "centiliter")
    add("l", "volume", 1.0, "litre", "liter")
    add("hl", "volume", 100.0, "hectolitre", "hectoliter")
    add("m3", "volume", 1e3, "cubic metre", "cubic meter")
    add("s", "time", 1.0, "second")
    add("min", "time", 60.0, "minute")
    add("h", "time", 3600.0, "hour")
    add("d", "time", 86400.0, "day")
    add("wk", "time", 604800.0, "week")
    add("m2", "area", 1.0, "square metre", "square meter")
    add("km2", "area", 1e6, "square kilometre", "square kilometer")
    add("ha", "area", 1e4, "hectare")
    for spelling in ("sec", "secs"):
        table[spelling] = table["s"]
    for spelling in ("mins",):
        table[spelling] = table["min"]
    for spelling in ("hr", "hrs"):
        table[spelling] = table["h"]
    for spelling in ("L",):
        table[spelling] = table["l"]
    return table


UNITS = _units()
# a symbol in lower case (a column name) read as the unit its trade most often means: a megawatt, not a
# milliwatt; a megabyte, not a millibyte
LOWER = {spelling.lower(): unit for spelling, unit in sorted(UNITS.items(), key=lambda item: item[1].size)}
# a description says a unit as a symbol in brackets or after "in" ("(kg)", "in MW"), or by its name
SAID_UNIT = re.compile(r"\(([^)]{1,12})\)|\bin\s+([A-Za-z][\w-]*)")
NAME_LENGTH = 4  # a unit's name ("hours", "megawatts"), where a description does not put it in brackets
# symbols a word of a column name means something else by more often: a minimum ("stock_min"), a middle
# initial
NOT_IN_NAMES = frozenset({"min", "mi"})
# "in GW", "as tonnes", "into hours": the unit a figure is to be shown in (no figure before it)
SHOWN_IN = re.compile(r"\b(?:in|as|into)\s+(?=([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?))")  # words not consumed


def unit_named(word: str, *, lower: bool = False) -> Unit | None:
    """The unit `word` spells (as written; `lower`: a name in lower case, read as its usual unit)."""
    word = word.strip()
    found = UNITS.get(word) or (UNITS.get(word.lower()) if len(word) >= NAME_LENGTH else None)
    if found is None and lower:
        found = LOWER.get(word.lower())
    return found


def column_unit(name: str, meaning: str) -> Unit | None:
    """The unit a column's figures are in: said in its description ("in MW", "(kg)", "megawatts"), else
    by a word of its name (`weight_kg`, `distanceKm`); None when neither says one.

    >>> column_unit("lane", ""), column_unit("m_count", ""), column_unit("length", "in m")
    (None, None, Unit(symbol='m', kind='length', size=1.0))
    >>> column_unit("yarn_g", ""), column_unit("stock_min", "")
    (Unit(symbol='g', kind='mass', size=1.0), None)
    >>> column_unit("weaving_mins", ""), column_unit("archive", "scanned pages (GB)")
    (Unit(symbol='min', kind='time', size=60.0), Unit(symbol='GB', kind='data', size=1000000000.0))
    >>> column_unit("price_per_kg", ""), column_unit("price", "euros per kilogram"), column_unit("kg_per_hive", "")
    (None, None, Unit(symbol='kg', kind='mass', size=1000.0))
    """
    for match in SAID_UNIT.finditer(meaning):
        if not _per(meaning[: match.start()]) and (unit := unit_named(match.group(1) or match.group(2))):
            return unit
    for said in re.finditer(r"[A-Za-z][\w-]*", meaning):
        if (
            len(said.group()) >= NAME_LENGTH
            and not _per(meaning[: said.start()])
            and (unit := unit_named(said.group()))
        ):
            return unit
    words = _name_words(name)
    for at, word in enumerate(words):
        if len(word) == 1 and (at == 0 or at < len(words) - 1):
            continue  # one letter says a unit only where it ends a name: `yarn_g`, not `m_count`
        if at and words[at - 1].lower() == "per":
            continue  # what a rate is per (`price_per_kg`) is not the unit of its figures
        if word.lower() not in NOT_IN_NAMES and (unit := unit_named(word, lower=True)):
            return unit
    return None


def _per(before: str) -> bool:
    """Whether a unit said after `before` is what a rate is per ("price per kilogram", "EUR/kg")."""
    return bool(re.search(r"(?:\bper|/)\s*$", before, re.IGNORECASE))


def target_unit(text: str) -> Unit | None:
    """The unit `text` asks figures to be shown in: one said after "in", "as" or "into", with no figure
    before it (in "hives over 20 kg" the unit is the figure's, a condition on rows).

    >>> target_unit("please always give durations in hours"), target_unit("show distances as km")
    (Unit(symbol='h', kind='time', size=3600.0), Unit(symbol='km', kind='length', size=1000.0))
    >>> target_unit("from now on, in euros"), target_unit("in 2024 only"), target_unit("in future show loads in t")
    (None, None, Unit(symbol='t', kind='mass', size=1000000.0))
    >>> target_unit("show dates as day/month/year")  # a format, not a unit
    >>> target_unit("how much water in total in cubic metres?")
    Unit(symbol='m3', kind='volume', size=1000.0)
    """
    found = target_unit_at(text)
    return None if found is None else found[0]


def target_unit_at(text: str) -> tuple[Unit, int, int] | None:
    """`target_unit`, and where its words start ("in", "as") and end in `text`.

    >>> target_unit_at("loads in metric tons, please")
    (Unit(symbol='t', kind='mass', size=1000000.0), 6, 20)
    """
    for match in SHOWN_IN.finditer(text):
        words = list(re.finditer(r"\S+", match.group(1)))
        for count in (2, 1)[-len(words) :]:  # "metric tons", then "tons"
            said = " ".join(w.group().strip(",.;:!?") for w in words[:count])
            end = match.start(1) + len(match.group(1)[: words[count - 1].end()].rstrip(",.;:!?"))
            if text[end : end + 1] != "/" and (unit := unit_named(said)):
                return unit, match.start(), end
    return None


DECIMALS = re.compile(
    r"\b(\d+|no|zero|one|a single|two|three|four|five|six)\s+decimal(?:s|\s+places?|\s+digits?)?\b", re.I
)
DECIMAL_WORDS = {"no": 0, "zero": 0, "one": 1, "a single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def decimals_said(text: str) -> int | None:
    """The decimals `text` asks figures to be shown with ("with one decimal", "2 decimal places").

    >>> decimals_said("weights in kg with one decimal"), decimals_said("in tonnes, 2 decimal places")
    (1, 2)
    >>> decimals_said("in tonnes") is None
    True
    """
    match = DECIMALS.search(text)
    if match is None:
        return None
    said = match.group(1).lower()
    return int(said) if said.isdigit() else DECIMAL_WORDS[said]


def factor(source: Unit | None, target: Unit | None) -> float | None:
    """What a figure in `source` is multiplied by to be in `target`; None unless both measure one kind."""
    if source is None or target is None or source.kind != target.kind:
        return None
    return source.size / target.size


def _name_words(name: str) -> list[str]:
    """The words of a column name: `weight_kg` -> weight, kg; `distanceKm` -> distance, Km."""
    return [word for part in re.split(r"[_\W]+", name) for word in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", part)]
