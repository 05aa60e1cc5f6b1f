"""What a reader knows a row by: a table's label column, and whether a request asks for a reference as such.

Used by `sql.key_labels.labels_for_keys`, which shows a joined table's label instead of the key that reaches
it: a label stands for a key only where it is one, held by every row and different in each, so that no two
rows shown by their keys look the same, and none is shown blank.
"""

from __future__ import annotations

from ..language.cues import SECRET_WORDS
from ..language.words import stems, words
from ..sql.catalog import TEXT_TYPES, Catalog
from ..sql.names import quote_identifier, quote_table, split_table
from ..sql.session import Session

LABEL_WORDS = ("name", "title", "label")  # preferred among such columns; any other may serve


def label_column(catalog: Catalog, session: Session, table: str) -> str | None:
    """The text column, no key and named like no secret (`SECRET_WORDS`), whose stored values are all
    there and all differ, that names `table`'s rows: one whose name says name, title or label first, else
    the first such column; None when there is none."""
    entry = catalog.tables.get(table)
    if entry is None:
        return None
    keys = {c.lower() for c in entry.primary_key} | {c.lower() for k in entry.foreign_keys for c in k.columns}
    candidates = [
        c.name
        for c in entry.columns
        if c.type.upper().startswith(TEXT_TYPES) and c.name.lower() not in keys and not _secret(c.name)
    ]
    candidates.sort(key=lambda name: not any(w in words(name).split() for w in LABEL_WORDS))
    for name in candidates:
        column = quote_identifier(name)
        distinct, rows = session.rows(f"SELECT count(DISTINCT {column}), count(*) FROM {quote_table(table)}")[0]
        if rows and distinct == rows:  # a NULL is no distinct value: every row holds one of its own
            return name
    return None


def _secret(column: str) -> bool:
    """Whether `column`'s name says its values may be secret.

    >>> _secret("api_token"), _secret("passwordHash"), _secret("hound_name")
    (True, True, False)
    """
    return any(word in SECRET_WORDS for word in words(column).split())


def names_reference(request: str, column: str, target: str) -> bool:
    """Whether `request` names the referencing `column` beyond the table it reaches: a word of its name
    that is not the table's ("id" of `hound_id` for `hounds`).

    >>> names_reference("List each hound's id and grooming day", "hound_id", "hounds")
    True
    >>> names_reference("List each hound and grooming day", "hound_id", "hounds")
    False
    """
    own = stems(words(column)) - stems(words(split_table(target)[1]))
    return bool(own & stems(request))
