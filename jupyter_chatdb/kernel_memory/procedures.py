"""Procedural memory: writes the user approved or taught, kept as named procedures with typed parameters.

A later write request is matched to procedures by meaning (over the requests they were learned from,
their names and numbers left out, their own names, and what they do in words); the model chooses among
the closest (or none, one short constrained
call), then fills the chosen one's parameters (`values_schema`), and its
statements run with those values bound, never spliced into the SQL. Statements marked per item run once
for each item of the list parameter "items" (each crop of a delivery), the steps of one loop together.

Procedures are kept in a SQLite file beside the notebook's other memory, so they survive a restart.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import sqlite3
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sqlglot import exp

from ..errors import ChatDBError
from ..language.spoken import durations
from ..llm.base import Embedder, JSONSchema
from .files import connect
from .generalize import ITEM_PREFIX, ITEMS, Generalized, GeneralStep, Parameter
from .procedure_sql import parameters_of, parse_statements, referenced_tables, renamed, written_tables

MATCH_MIN = 0.35  # a request whose kind is this close in meaning to a procedure's forms may be of its kind
CANDIDATES = 3  # the closest procedures the model chooses among
KINDS_PER_REQUEST = 2  # `kinds_of` one request
MAX_ITEMS = 50  # items of one request: more are refused, to be split into several requests
MAX_DIGITS = sys.float_info.max_10_exp  # a number of more digits than a float holds is refused
WHOLE_UP_TO = 2**63  # a whole number below this binds as an integer; a larger one as a float
SCHEMA = """
CREATE TABLE IF NOT EXISTS procedures (
    name    TEXT PRIMARY KEY,
    body    TEXT NOT NULL,
    created TEXT NOT NULL
);
"""


class ProcedureError(ChatDBError):
    """A procedure cannot be taught, found or filled as asked."""


@dataclass(frozen=True)
class Procedure:
    name: str
    steps: tuple[GeneralStep, ...]
    parameters: tuple[Parameter, ...]
    requests: tuple[str, ...]  # the requests it was learned from or taught with: what later ones are matched to
    example: Mapping[str, object] = field(default_factory=dict)  # the first request's values, shown to the model
    source: str = "taught"  # "taught", or "request N": the approved write it was learned from

    @classmethod
    def learned(cls, name: str, request: str, generalized: Generalized, source: str) -> Procedure:
        if not any(step.sql for step in generalized.steps):
            raise ProcedureError("There are no statements to keep.")
        return cls(name, generalized.steps, generalized.parameters, (request,), generalized.example, source)

    @classmethod
    def taught(
        cls, name: str, statements: Sequence[str], requests: Sequence[str], types: Mapping[str, str] | None = None
    ) -> Procedure:
        """From SQL with $name parameters (`types`: name -> "number" where not text): a statement using an
        $item_... parameter runs per item."""
        steps: list[GeneralStep] = []
        loops = 0
        names: dict[str, None] = {}
        for number, sql in enumerate(statements, start=1):
            said = parameters_of(sql)
            names.update(dict.fromkeys(said))
            per_item = any(p.startswith(ITEM_PREFIX) for p in said)
            if per_item and not (steps and steps[-1].per_item):
                loops += 1  # the statements per item next to each other run as one loop
            steps.append(GeneralStep(f"step {number}", sql, (), loops if per_item else 0))
        if not steps:
            raise ProcedureError("Teach a procedure with at least one SQL statement.")
        types = types or {}
        return cls(name, tuple(steps), tuple(Parameter(p, types.get(p, "text")) for p in names), tuple(requests))

    @property
    def names(self) -> set[str]:
        """Its parameters' names, and "items" where it has some."""
        return {p.name for p in self.parameters} | ({ITEMS} if self.item_fields else set())

    def without_steps(self, indices: Sequence[int]) -> Procedure:
        """This procedure with the steps at `indices` left out, and the parameters only they used."""
        if not indices:
            return self
        steps = tuple(step for at, step in enumerate(self.steps) if at not in indices)
        used = set().union(*(parameters_of(step.sql) for step in steps if step.sql))
        kept = tuple(p for p in self.parameters if p.name in used)
        return dataclasses.replace(self, steps=steps, parameters=kept)

    def summary(self) -> str:
        """What it changes and what it is given, in words: for the model choosing among procedures.

        >>> from jupyter_chatdb.kernel_memory.generalize import GeneralStep
        >>> steps = (GeneralStep("", "UPDATE horses SET kg = kg + $item_kg WHERE name = $item_horse", loop=1),)
        >>> Procedure("feed", steps, (Parameter("item_horse", "text"), Parameter("item_kg", "number")), ()).summary()
        'changes horses; given items (horse, kg)'
        """
        changed = list(dict.fromkeys(t for step in self.steps for t in written_tables(step.sql)))
        given = [p.name for p in self.scalars]
        if self.item_fields:
            given.append(f"{ITEMS} ({', '.join(p.name.removeprefix(ITEM_PREFIX) for p in self.item_fields)})")
        return f"changes {', '.join(changed) or 'nothing'}; given {', '.join(given) or 'nothing'}"

    @property
    def tables(self) -> set[str]:
        """The tables its statements read or write (lower case)."""
        return set().union(*(referenced_tables(step.sql) for step in self.steps if step.sql))

    @property
    def scalars(self) -> list[Parameter]:
        return [p for p in self.parameters if not p.per_item]

    @property
    def item_fields(self) -> list[Parameter]:
        return [p for p in self.parameters if p.per_item]

    def values_schema(self) -> JSONSchema:
        """The JSON schema of this procedure's values: what one constrained call fills."""
        properties: dict[str, object] = {p.name: _json_type(p) for p in self.scalars}
        required = [p.name for p in self.scalars]
        if self.item_fields:
            item = {
                "type": "object",
                "properties": {p.name: _json_type(p) for p in self.item_fields},
                "required": [p.name for p in self.item_fields],
                "additionalProperties": False,
            }
            properties[ITEMS] = {"type": "array", "items": item, "minItems": 1, "maxItems": MAX_ITEMS}
            required.append(ITEMS)
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    def checked_values(self, values: Mapping[str, object]) -> dict[str, object]:
        """`values` with each parameter given and of its type (a whole number as an int), or a ProcedureError."""
        checked: dict[str, object] = {p.name: _typed(p, values.get(p.name)) for p in self.scalars}
        if self.item_fields:
            items = values.get(ITEMS)
            if not isinstance(items, list) or not items or not all(isinstance(i, Mapping) for i in items):
                raise ProcedureError(f"Procedure {self.name!r} needs a non-empty list of items.")
            self._check_count(items)
            checked[ITEMS] = [{p.name: _typed(p, item.get(p.name)) for p in self.item_fields} for item in items]
        return checked

    def expanded(self, values: Mapping[str, object]) -> tuple[list[GeneralStep], dict[str, object]]:
        """The steps to run for `values` (checked), the per-item ones repeated for each item with their own
        parameter names ($item_kg_2 for the second), and the parameters to bind."""
        bound = {name: value for name, value in values.items() if name != ITEMS}
        items = values.get(ITEMS) or []
        assert isinstance(items, list)
        self._check_count(items)
        steps: list[GeneralStep] = []
        index = 0
        while index < len(self.steps):
            if not self.steps[index].per_item:
                steps.append(self.steps[index])
                index += 1
                continue
            end = index
            while end < len(self.steps) and self.steps[end].loop == self.steps[index].loop:
                end += 1
            for number, item in enumerate(items, start=1):
                names = {p.name: f"{p.name}_{number}" for p in self.item_fields}
                bound.update({names[name]: value for name, value in item.items()})
                for step in self.steps[index:end]:
                    steps.append(GeneralStep(f"{step.goal} ({number})", renamed(step.sql, names), step.binds))
            index = end
        return steps, bound

    def _check_count(self, items: Sequence[object]) -> None:
        """A ProcedureError where there are more than MAX_ITEMS `items`: checked before anything runs."""
        if len(items) > MAX_ITEMS:
            raise ProcedureError(
                f"Procedure {self.name!r} takes at most {MAX_ITEMS} items per request; split it into several."
            )

    def to_json(self) -> str:
        return json.dumps(asdict(self), default=str)

    @classmethod
    def from_json(cls, text: str) -> Procedure:
        data = json.loads(text)
        return cls(
            data["name"],
            tuple(GeneralStep(s["goal"], s["sql"], tuple(s["binds"]), s["loop"]) for s in data["steps"]),
            tuple(Parameter(p["name"], p["type"]) for p in data["parameters"]),
            tuple(data["requests"]),
            data.get("example") or {},
            data.get("source", "taught"),
        )


@dataclass(frozen=True)
class Match:
    procedure: Procedure
    similarity: float
    request: str  # the request of the procedure it is closest to


class ProcedureBook:
    """One notebook's procedures, by name. `path=None` keeps them in memory (tests, scripts)."""

    def __init__(self, path: Path | None = None, embedder: Embedder | None = None) -> None:
        self.path, self.embedder = path, embedder
        try:
            self._db = connect(path)
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise ProcedureError(f"Procedures cannot be kept in {path} ({error}): make the folder writable.") from None
        self._lock = threading.Lock()
        self._vectors: dict[str, np.ndarray] = {}  # name -> its forms' embeddings

    def keep(self, procedure: Procedure) -> Procedure:
        """Add `procedure`, replacing one of its name."""
        if not procedure.name.strip():
            raise ProcedureError("A procedure needs a name.")
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO procedures (name, body, created) VALUES (?, ?, ?)",
                (procedure.name, procedure.to_json(), datetime.now(timezone.utc).isoformat(timespec="seconds")),
            )
        self._vectors.pop(procedure.name, None)
        return procedure

    def forget(self, name: str) -> None:
        with self._lock:
            gone = self._db.execute("DELETE FROM procedures WHERE name = ?", (name,)).rowcount
        if not gone:
            raise ProcedureError(f"There is no procedure {name!r}: %chatdb procedures lists them.")
        self._vectors.pop(name, None)

    def get(self, name: str) -> Procedure:
        row = self._db.execute("SELECT body FROM procedures WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise ProcedureError(f"There is no procedure {name!r}: %chatdb procedures lists them.")
        return Procedure.from_json(row[0])

    def __iter__(self) -> Iterator[Procedure]:
        rows = self._db.execute("SELECT body FROM procedures ORDER BY created, name").fetchall()
        return iter([Procedure.from_json(body) for (body,) in rows])

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM procedures").fetchone()[0])

    def candidates(
        self,
        request: str,
        minimum: float = MATCH_MIN,
        limit: int = CANDIDATES,
        named: Set[str] = frozenset(),
        refers: Mapping[str, Set[str]] | None = None,
    ) -> list[Match]:
        """The procedures whose forms (`_vectors_of`: requests, name, what they do) `request` is closest to
        in meaning (at least `minimum`), closest first, at most `limit`: for the model to choose among, since
        wordings of one kind differ widely.
        `named`: the tables the request names its things by (`grounding.named_tables`); of the close
        procedures, only those reaching the most of them are offered (`fitting`; `refers`: table -> the
        tables its rows refer to, lower case)."""
        procedures = list(self)
        if not procedures or self.embedder is None:
            return []
        wanted = self.embedder.embed(kinds_of(request))
        matches = []
        for procedure in procedures:
            similarities = (self._vectors_of(procedure) @ wanted.T).max(axis=1)  # each of its requests' forms
            at = int(np.argmax(similarities))
            by_request = at // KINDS_PER_REQUEST  # its name or what it does, past the requests: its first request
            request = procedure.requests[by_request] if by_request < len(procedure.requests) else procedure.requests[0]
            matches.append(Match(procedure, float(similarities[at]), request))
        matches.sort(key=lambda match: -match.similarity)
        return fitting([match for match in matches if match.similarity >= minimum], named, refers or {})[:limit]

    def _vectors_of(self, procedure: Procedure) -> np.ndarray:
        """Its forms' embeddings: each request's kind (`kinds_of`), then its name and what it does in
        words (`does_in_words`), which a request in another wording (a log line, `key: value` lines) is
        closer to than to a sentence of another kind."""
        assert self.embedder is not None
        if procedure.name not in self._vectors:
            values = _text_values(procedure.example)
            kinds = [kind for request in procedure.requests for kind in kinds_of(request, values)]
            self._vectors[procedure.name] = self.embedder.embed([*kinds, procedure.name, does_in_words(procedure)])
        return self._vectors[procedure.name]

    def close(self) -> None:
        self._db.close()


def does_in_words(procedure: Procedure) -> str:
    """What its statements do, the tables they write and what it is given, in lower-case words.

    >>> from jupyter_chatdb.kernel_memory.generalize import GeneralStep
    >>> steps = (GeneralStep("", "UPDATE hires SET ashore_on = $ashore_on WHERE kayak_code = $kayak_code"),)
    >>> does_in_words(Procedure("extend", steps, (Parameter("ashore_on", "text"), Parameter("kayak_code", "text")), ()))
    'change hires ashore on kayak code'
    """
    trees = [tree for step in procedure.steps if step.sql for tree in parse_statements(step.sql)]
    writes = [tree for tree in trees if isinstance(tree, (exp.Insert, exp.Update, exp.Delete))]
    done = ["add" if isinstance(t, exp.Insert) else "change" if isinstance(t, exp.Update) else "remove" for t in writes]
    written = [table for step in procedure.steps if step.sql for table in written_tables(step.sql)]
    given = [parameter.name.removeprefix(ITEM_PREFIX) for parameter in procedure.parameters]
    text = " ".join([*dict.fromkeys(done), *dict.fromkeys(written), *given])
    return " ".join(re.findall(r"[a-z]+", text.replace("_", " ").lower()))


def fitting(matches: Sequence[Match], named: Set[str], refers: Mapping[str, Set[str]]) -> list[Match]:
    """Of `matches`, those reaching the most of the `named` tables: touching them or, touching none, writing
    rows that refer to them (`refers`: table -> the tables its rows refer to; a loan's return reaches the
    member and item its loan refers to). A request about a rider's order is not a stable's delivery,
    however alike their verbs. All of them where none reaches any.

    >>> from jupyter_chatdb.kernel_memory.generalize import GeneralStep
    >>> def made(name, sql): return Match(Procedure(name, (GeneralStep("", sql),), (), ()), 0.5, "")
    >>> offered = [made("delivery", "INSERT INTO deliveries SELECT * FROM stables"),
    ...            made("order", "UPDATE orders SET paid = 1 WHERE bales = 4")]
    >>> [m.procedure.name for m in fitting(offered, {"riders"}, {"orders": {"riders"}})]
    ['order']
    >>> len(fitting(offered, {"bridles"}, {"orders": {"riders"}})), len(fitting(offered, {"riders"}, {}))
    (2, 2)
    """
    reached = [len(_reached(match.procedure, named, refers)) for match in matches]
    most = max(reached, default=0)
    return [match for match, count in zip(matches, reached) if count == most] if most else list(matches)


def _reached(procedure: Procedure, named: Set[str], refers: Mapping[str, Set[str]]) -> set[str]:
    """The `named` tables `procedure` touches; where it touches none, those its tables' rows refer to
    (lower case). A table touched is the stronger sign: every procedure writing a kennel's stays refers
    to its dogs."""
    touched = procedure.tables
    return (touched & named) or touched.union(*(refers.get(table, set()) for table in touched)) & named


def kinds_of(request: str, values: Sequence[str] = ()) -> list[str]:
    """A request without what it names (`values`, quoted texts, numbers, capitalised words): what kind of
    write it asks for, since names weigh more than verbs in a sentence's meaning. Twice: with its first
    word and without, as a capital there may open a name ("Ada bought") or a verb ("Restock: ...").

    >>> kinds_of("Ada Quick bought 3 saddles from 'Calder Mills' at 4.50", ["saddles"])
    ['ada bought from at', 'bought from at']
    """
    for value in sorted(values, key=len, reverse=True):
        request = re.sub(rf"(?i)\b{re.escape(value)}\b", " ", request)
    request = re.sub(r"[\"“‘'][^\"”’']*[\"”’']|\d+(?:[.,]\d+)*", " ", request)
    words = [w.strip(".,;:!?") for w in request.split()]
    kept = [w for i, w in enumerate(words) if w and (i == 0 or not w[:1].isupper())]
    with_first = " ".join(kept).lower()
    without = " ".join(kept[1:] if words and kept and kept[0] == words[0] else kept).lower()
    return [with_first, without]


def _text_values(example: Mapping[str, object]) -> list[str]:
    """The text values of a procedure's example, those of its items included."""
    found = [v for v in example.values() if isinstance(v, str)]
    items = example.get(ITEMS)
    for item in items if isinstance(items, list) else []:
        found += [v for v in item.values() if isinstance(v, str)]
    return found


def _json_type(parameter: Parameter) -> dict[str, str]:
    return {"type": "number" if parameter.type == "number" else "string"}


def _days(parameter: Parameter, value: object) -> int:
    """A length of time as a number of days: "two weeks" is 14, "21 days" and 21 are 21.

    >>> [_days(Parameter("due_days", "days"), v) for v in ("two weeks", "a fortnight", "21 days", 5, "7")]
    [14, 14, 21, 5, 7]
    """
    lengths = durations(str(value))
    if len(lengths) == 1 and lengths[0].days and not lengths[0].months:
        return lengths[0].days
    text = str(value).strip()
    if re.fullmatch(r"\d{1,5}", text):
        return int(text)
    raise ProcedureError(f"{parameter.name!r} must be a length of time in days or weeks, not {value!r}.")


def _typed(parameter: Parameter, value: object) -> object:
    """
    >>> _typed(Parameter("kg", "number"), 3.0), _typed(Parameter("kg", "number"), "2.5"), _typed(Parameter("n", "text"), 4)
    (3, 2.5, '4')
    >>> _typed(Parameter("kg", "number"), 10**400)
    Traceback (most recent call last):
    ...
    jupyter_chatdb.kernel_memory.procedures.ProcedureError: 'kg' is too large a number: give one of at most 308 digits.
    """
    if value is None or value == "":
        raise ProcedureError(f"No value was found for {parameter.name!r} in the request.")
    if parameter.type == "days":
        return _days(parameter, value)
    too_large = ProcedureError(f"{parameter.name!r} is too large a number: give one of at most {MAX_DIGITS} digits.")
    if parameter.type == "text":
        try:
            return str(value)
        except ValueError:  # an int of more digits than Python writes out
            raise too_large from None
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int beyond a float's range
        raise too_large from None
    except (TypeError, ValueError):
        raise ProcedureError(f"{parameter.name!r} must be a number, not {value!r}.") from None
    if math.isnan(number):
        raise ProcedureError(f"{parameter.name!r} must be a number, not {value!r}.")
    if math.isinf(number):  # "1" * 400 reads as infinity
        raise too_large
    return int(number) if number.is_integer() and abs(number) < WHOLE_UP_TO else number
