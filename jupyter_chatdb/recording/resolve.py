"""Finding the stored row a request names, by what it calls it.

A request names a row as people do: by its name ("Copper Beech"), its code ("G-012"), or its code said in
words ("glasshouse 12" for 'G-012', "row C, bed 7" for 'C7'). `StoredRows.find` looks the words up among a
table's naming columns: the same text first, then the same text when case, spaces and punctuation are set
aside, then a code whose letters begin the words in order and whose numbers are the numbers said. Only a
single match counts: two rows that fit as well as each other are no answer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping, Sequence

import duckdb

from ..errors import QueryFailed
from ..language.codes import code_fit
from ..language.words import word_forms
from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session
from .reading_errors import NotExpressible

MAX_ROWS = 20_000  # the rows read for a lookup by name, at most
MAX_CODES = 200  # the codes read for the numbers a request says, at most


POSSESSIVE = re.compile(r"['\u2019]s?$")  # the "'s" of "Ann Roe's", or the "'" of "Jess'"


class StoredRows:
    """Lookups of stored rows by name, on one session's tables as they are now. A lookup the database
    cannot run (a value that is no date for a date column) means the reading is not code's to write."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def refusal(self, sql: str, params: Mapping[str, object]) -> str | None:
        """Why the database refuses the write `sql` (a constraint it breaks, a value its column cannot
        hold), tried in a transaction that is rolled back; None where it takes it, or where a transaction
        is open already (then nothing is tried)."""
        if self.session.in_transaction:
            return None
        self.session.begin()
        try:
            self.session.run(sql, params)
        except QueryFailed as failed:
            return str(failed).splitlines()[0]
        finally:
            self.session.rollback()
        return None

    def _rows(self, sql: str, params: list[object] | None = None) -> list[tuple]:
        try:
            return self.session.rows(sql, params)
        except duckdb.Error as error:
            raise NotExpressible(f"a value read does not fit its column ({str(error).splitlines()[0]})") from None

    def find(self, table: str, columns: Sequence[str], said: object, wanted: str) -> object | None:
        """The value of column `wanted` of the one row of `table` that `said` names by one of `columns`."""
        if not columns or said is None:
            return None
        text = str(said).strip()
        rows = self._naming_rows(table, columns, wanted)
        if (owner := POSSESSIVE.sub("", text)) != text and not any(
            v is not None and _same_squeezed(text, str(v)) for row in rows for v in row[1:]
        ):
            text = owner  # "Ann Roe's" names Ann Roe, where no row is named with the "'s"
        for matches in (_same, _same_squeezed, _code_said_in_words):
            found = {row[0] for row in rows if any(v is not None and matches(text, str(v)) for v in row[1:])}
            if len(found) == 1:
                return found.pop()
            if len(found) > 1 and matches is not _code_said_in_words:
                return None
        return _best_code(text, rows)

    def held_in_words(
        self, table: str, columns: Sequence[str], said: str, wanted: str, aside: Collection[str] = ()
    ) -> object | None:
        """The value of column `wanted` of the one row of `table` whose `columns` together hold every word
        and number of `said`, in any form, but for the words in `aside` (its table's noun): "5kg puppy
        kibbles" for the row labelled '5 kg puppy kibble'. None where no word is left to hold, or none or
        several rows hold them all."""
        wanted_forms = word_forms(said) - set(aside)
        if not columns or not wanted_forms:
            return None
        rows = self._naming_rows(table, columns, wanted)
        found = {
            row[0]
            for row in rows
            if wanted_forms <= set().union(*(word_forms(str(v)) for v in row[1:] if v is not None))
        }
        return found.pop() if len(found) == 1 else None

    def named_exactly(self, table: str, columns: Sequence[str], said: object, wanted: str) -> object | None:
        """`find`, but only a row one of whose `columns` is `said` (case, spaces and punctuation aside)."""
        if not columns or said is None:
            return None
        text = str(said).strip()
        rows = self._naming_rows(table, columns, wanted)
        found = {row[0] for row in rows if any(v is not None and _same_squeezed(text, str(v)) for v in row[1:])}
        return found.pop() if len(found) == 1 else None

    def named_in(self, table: str, columns: Sequence[str], text: str, wanted: str) -> object | None:
        """The value of column `wanted` of the one row of `table` one of whose `columns` `text` says as
        whole words ("Blue Harbour (K-056) for a week": the row named 'Blue Harbour', coded 'K-056')."""
        found = self.all_named_in(table, columns, text, wanted)
        return found.pop() if len(found) == 1 else None

    def all_named_in(self, table: str, columns: Sequence[str], text: str, wanted: str) -> set[object]:
        """The values of column `wanted` of the rows of `table` one of whose `columns` (three letters or
        more) `text` says as whole words."""
        lower = text.lower()
        return {
            row[0]
            for row in self._naming_rows(table, columns, wanted)
            for v in row[1:]
            if v is not None
            and len(str(v).strip()) >= 3
            and re.search(rf"(?<!\w){re.escape(str(v).strip().lower())}(?!\w)", lower)
        }

    def _naming_rows(self, table: str, columns: Sequence[str], wanted: str) -> list[tuple]:
        """(`wanted`, *`columns`) of the rows of `table`, up to `MAX_ROWS` and one more."""
        listed = ", ".join(quote_identifier(c) for c in columns)
        return self._rows(f"SELECT {quote_identifier(wanted)}, {listed} FROM {quote_table(table)} LIMIT {MAX_ROWS + 1}")

    def composed(self, table: str, column: str, said: object) -> str | None:
        """A new code for a row of `table` written as its kept codes are ("glasshouse 7" -> 'G-007' beside
        'G-012'), when every kept code whose letters the words begin has one form; None otherwise."""
        rows = self._rows(f"SELECT DISTINCT {quote_identifier(column)} FROM {quote_table(table)} LIMIT {MAX_ROWS + 1}")
        return compose_like(str(said), [str(value) for (value,) in rows if value is not None])

    def codes_holding(self, table: str, column: str, numbers: Sequence[int]) -> list[str]:
        """The values of `column` holding letters and a number among `numbers` (its first run of digits),
        at most `MAX_CODES`: the codes a number said may be part of."""
        listed = ", ".join("?" * len(numbers))
        quoted = quote_identifier(column)
        rows = self._rows(
            f"SELECT DISTINCT {quoted} FROM {quote_table(table)} WHERE regexp_matches({quoted}, '[A-Za-z]')"
            f" AND TRY_CAST(regexp_extract({quoted}, '\\d+') AS BIGINT) IN ({listed}) LIMIT {MAX_CODES}",
            list(numbers),
        )
        return [str(value) for (value,) in rows]

    def span(self, table: str, column: str) -> tuple[dt.date, dt.date] | None:
        """The oldest and newest days a date or moment column keeps; None when it keeps none."""
        quoted = quote_identifier(column)
        (low, high), *_ = self._rows(
            f"SELECT CAST(min({quoted}) AS DATE), CAST(max({quoted}) AS DATE) FROM {quote_table(table)}"
        )
        return (low, high) if isinstance(low, dt.date) and isinstance(high, dt.date) else None

    def some_values(self, table: str, column: str, limit: int = 50) -> list[str]:
        """Up to `limit` distinct kept values of `column`, as text (none NULL)."""
        quoted = quote_identifier(column)
        rows = self._rows(
            f"SELECT DISTINCT CAST({quoted} AS VARCHAR) FROM {quote_table(table)} WHERE {quoted} IS NOT NULL LIMIT {limit}"
        )
        return [str(value) for (value,) in rows]

    def count(self, table: str, where: str, params: Mapping[str, object], values: list[object] | None = None) -> int:
        """The rows of `table` that `where` holds for, with its $parameters from `params` (or its ? from
        `values`)."""
        sql = f"SELECT count(*) FROM {quote_table(table)} WHERE {where}"
        if values is not None:
            return int(self._rows(sql, values)[0][0])
        used = {name: value for name, value in params.items() if re.search(rf"\${name}\b", where)}
        try:
            counted = self.session.run(sql, used).scalar
        except QueryFailed as error:
            raise NotExpressible(f"a value read does not fit its column ({str(error).splitlines()[0]})") from None
        return int(counted)  # type: ignore[call-overload]

    def the_one(self, table: str, holding: Mapping[str, object], wanted: str) -> object | None:
        """Column `wanted` of the one row of `table` whose columns hold the values `holding` gives; None
        where none or several do."""
        where = " AND ".join(f"{quote_identifier(column)} = ?" for column in holding) or "TRUE"
        rows = self._rows(
            f"SELECT {quote_identifier(wanted)} FROM {quote_table(table)} WHERE {where} LIMIT 2", list(holding.values())
        )
        return rows[0][0] if len(rows) == 1 else None

    def all_holding(self, table: str, holding: Mapping[str, object], at_most: int) -> list[dict[str, object]]:
        """The rows of `table` whose columns hold the values `holding` gives, column -> value; none where
        more than `at_most` do."""
        where = " AND ".join(f"{quote_identifier(column)} = $h{i}" for i, column in enumerate(holding)) or "TRUE"
        params = {f"h{i}": value for i, value in enumerate(holding.values())}
        found = self.session.run(f"SELECT * FROM {quote_table(table)} WHERE {where} LIMIT {at_most + 1}", params).frame
        rows = [{str(k): _plain(v) for k, v in row.items()} for _, row in found.iterrows()]
        return rows if len(rows) <= at_most else []

    def one_row(self, table: str, where: str, params: Mapping[str, object]) -> dict[str, object] | None:
        """The one row of `table` that `where` holds for, column -> value (None when none or several)."""
        used = {name: value for name, value in params.items() if re.search(rf"\${name}\b", where)}
        try:
            found = self.session.run(f"SELECT * FROM {quote_table(table)} WHERE {where} LIMIT 2", used).frame
        except QueryFailed:
            return None
        return {str(k): _plain(v) for k, v in found.iloc[0].items()} if len(found) == 1 else None

    def some_row_has_none(self, table: str, key: str, child: str, column: str) -> bool:
        """Whether some row of `table` has no row of `child` referring to it (by `column`)."""
        rows = self._rows(
            f"SELECT 1 FROM {quote_table(table)} AS t WHERE NOT EXISTS (SELECT 1 FROM {quote_table(child)} AS c"
            f" WHERE c.{quote_identifier(column)} = t.{quote_identifier(key)}) LIMIT 1"
        )
        return bool(rows)

    def values_of(self, table: str, column: str, value: object, columns: Sequence[str]) -> dict[str, object] | None:
        """The `columns` of the one row of `table` whose `column` holds `value` (None when none or several)."""
        listed = ", ".join(quote_identifier(c) for c in columns)
        rows = self._rows(
            f"SELECT {listed} FROM {quote_table(table)} WHERE {quote_identifier(column)} = ? LIMIT 2", [value]
        )
        return dict(zip(columns, rows[0], strict=True)) if len(rows) == 1 else None

    def referring(self, table: str, where: str, params: Mapping[str, object]) -> str | None:
        """A table with rows referring to a row of `table` that `where` holds for, or None."""
        keys = self._rows(
            "SELECT table_name, constraint_column_names, referenced_column_names FROM duckdb_constraints() "
            "WHERE constraint_type = 'FOREIGN KEY' AND lower(referenced_table) = lower(?)",
            [table],
        )
        parent = quote_table(table)
        for child, columns, referenced in keys:
            pairs = " AND ".join(
                f"child.{quote_identifier(c)} = {parent}.{quote_identifier(r)}"
                for c, r in zip(columns, referenced, strict=True)
            )
            if self.count(
                table, f"({where}) AND EXISTS (SELECT 1 FROM {quote_table(child)} AS child WHERE {pairs})", params
            ):
                return str(child)
        return None

    def exists(self, table: str, column: str, value: object) -> bool:
        return bool(
            self._rows(f"SELECT 1 FROM {quote_table(table)} WHERE {quote_identifier(column)} = ? LIMIT 1", [value])
        )


def _same(said: str, stored: str) -> bool:
    return said == stored


def _same_squeezed(said: str, stored: str) -> bool:
    """
    >>> _same_squeezed("night-train", "The Night Train"), _same_squeezed("A 2", "A2")
    (False, True)
    """
    return squeezed(said) != "" and squeezed(said) == squeezed(stored)


def squeezed(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _code_said_in_words(said: str, stored: str) -> bool:
    return code_fit(said, stored) > 0


def _best_code(said: str, rows: Sequence[tuple]) -> object | None:
    """The row whose code fits the words best, when one fits better than every other."""
    scored: dict[object, int] = {}
    for row in rows:
        for value in row[1:]:
            if value is not None:
                scored[row[0]] = max(scored.get(row[0], 0), code_fit(said, str(value)))
    best = max(scored.values(), default=0)
    winners = [key for key, score in scored.items() if score == best]
    return winners[0] if best and len(winners) == 1 else None


def compose_like(said: str, codes: list[str]) -> str | None:
    """`said` (words and one number) written as the `codes` whose letters its words begin are written; of
    several forms, the one its words fit best (`code_fit`), where one does.

    >>> compose_like("glasshouse 7", ["G-012", "G-104", "T-003"]), compose_like("tunnel no. 12", ["T-3"])
    ('G-007', 'T-12')
    >>> compose_like("glasshouse 7", ["G-012", "G12"]), compose_like("glasshouse", ["G-012"]), compose_like("G-007", ["G-012"])
    (None, None, 'G-007')
    >>> compose_like("DVD number 8", ["D-021", "N-004"]), compose_like("glasshouse 7", ["G-012", "H-001"])
    ('D-008', 'G-007')
    """
    numbers = re.findall(r"\d+", said)
    if len(numbers) != 1:
        return None
    forms: dict[str, int] = {}  # each form, by how well the words said fit its letters
    for code in codes:
        digits = re.findall(r"\d+", code)
        fit = code_fit(said, re.sub(r"\d+", numbers[0], code, count=1)) if len(digits) == 1 else 0
        if fit:
            form = re.sub(r"\d+", numbers[0].zfill(len(digits[0])), code, count=1)
            forms[form] = max(fit, forms.get(form, 0))
    best = [form for form, fit in forms.items() if fit == max(forms.values())]
    return best[0] if len(best) == 1 else None


def _plain(value: object) -> object:
    """A value read into a frame as Python's own: numpy numbers as numbers, missing values as None."""
    if value is None or (isinstance(value, float) and value != value) or str(value) in ("NaT", "<NA>"):
        return None
    item = getattr(value, "item", None)
    return item() if callable(item) and type(value).__module__ == "numpy" else value
