"""Is a name a request gives stored anywhere? Asked of the data itself, every text column in full, before a
read is refused for naming something the data does not hold.

The value memory keeps the most frequent values of a column (`values.MAX_VALUES`); a name among the rest,
stored in another case ("SEVEN OAKS UNIFIED" for "Seven Oaks Unified"), said with words around it ("the
Seven Oaks Unified district") or a letter or two off, is still the data's. Only a name none of these finds
is missing by the data.
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from ..errors import ChatDBError
from ..language.words import stem
from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session

TYPO_MIN_LENGTH = 7  # a name at least this long is found with up to TYPOS letters off
TYPOS = 2
# a shorter one with one letter wrong, missing, extra or two neighbours swapped, as the value memory finds
# the values it holds (`values.TYPO_MIN_LENGTH`)
ONE_TYPO_MIN_LENGTH = 5
PART_MIN_LENGTH = 4  # a stored value at least this long is found inside the name, as whole words


def where_stored(session: Session, columns: Iterable[tuple[str, str]], name: str) -> str | None:
    """`table.column` of the first text column of `columns` ((table, column) pairs) that holds `name`, in
    any case, inside a longer value, a stored value inside it as whole words, or with up to two letters
    off where it is long (one where it is shorter: "Tanr" is no typo of 'Tarn', "Vlemar" is of 'Velmar');
    None where none does (a remote engine's table is not searched here).

    >>> session = Session()
    >>> _ = session.run("CREATE TABLE districts (district VARCHAR, code VARCHAR)")
    >>> _ = session.run("INSERT INTO districts VALUES ('SEVEN OAKS UNIFIED', 'SO-1'), ('Velmar', 'VE'), ('Tarn', 'TA')")
    >>> names = ("Seven Oaks", "Seven Oaks Unified District", "Sevn Oaks Unifed", "Oakham", "Vlemar", "Tanr")
    >>> [where_stored(session, [("districts", "district")], name) for name in names]
    ['districts.district', 'districts.district', 'districts.district', None, 'districts.district', None]
    >>> where_stored(session, [("districts", "district")], "Vlemars")  # said in the plural, mistyped
    'districts.district'
    """
    wanted = " ".join(name.lower().split())
    if not wanted:
        return None
    # one word is looked for mistyped in the form said and as its stem ("Vlemars" for 'Velmar')
    forms = list(dict.fromkeys((wanted, wanted if " " in wanted else stem(wanted))))
    for table, column in columns:
        if session.is_remote(table):
            continue  # only a sample of it is here: the value memory reads its values there
        held = f"lower({quote_identifier(column)})"
        found = (
            f"contains({held}, ?) OR (length({held}) >= {PART_MIN_LENGTH}"
            f" AND contains(' ' || ? || ' ', ' ' || {held} || ' '))"
        )
        params: list[object] = [wanted, wanted]
        for form in forms:
            if len(form) >= TYPO_MIN_LENGTH:
                found += f" OR levenshtein({held}, ?) <= {TYPOS}"
                params.append(form)
            elif len(form) >= ONE_TYPO_MIN_LENGTH:
                found += f" OR (length({held}) >= {ONE_TYPO_MIN_LENGTH} AND damerau_levenshtein({held}, ?) <= 1)"
                params.append(form)
        try:
            rows = session.rows(f"SELECT 1 FROM {quote_table(table)} WHERE {found} LIMIT 1", params)
        except (ChatDBError, duckdb.Error):
            continue  # a column that cannot be read so (a remote table's sample, a view that fails) proves nothing
        if rows:
            return f"{table}.{column}"
    return None
