"""What the schema allows a column to hold, read from the database rather than guessed from words.

- A CHECK that lists a column's values (`coat IN ('bay', 'grey')`, or `coat = 'bay' OR coat = 'grey'`;
  read by `sql.check_lists`) is shown to the model as its list; the words it reads are mapped to one of
  them by code ("a grey mare" -> 'grey', `picks.py`), so nothing the database would refuse is written.
- A reference to a small table whose rows were there before (a paddock, a stable block, a price band) is
  shown as the names of those rows (`choices`), to be picked, not added.
"""

from __future__ import annotations

from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session

# a referenced table this small is a list of kinds (paddocks, grades, bands), offered as a list of its
# names; a larger one may gain rows and is named by what the request says, found by code (`resolve.py`)
MAX_CHOICES = 12


def choices(session: Session, table: str, name: str, limit: int = MAX_CHOICES) -> tuple[str, ...]:
    """The distinct names (column `name`) of `table`'s rows when there are at most `limit`; () otherwise."""
    column = quote_identifier(name)
    rows = session.rows(f"SELECT DISTINCT {column} FROM {quote_table(table)} ORDER BY {column} LIMIT {limit + 1}")
    values = tuple(str(row[0]) for row in rows if row[0] is not None)
    return values if 0 < len(values) <= limit else ()
