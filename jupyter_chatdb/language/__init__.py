"""Reading the user's words: one place for how a request is split into words and stems (`words.py`, and
`terms.py` for the terms the memory keeps), how its numbers, dates and lengths of time are read
(`numbers.py`, `dates.py`, `spoken.py`), which common words are set aside (`stop_words.py`), and the
English cues that let a decision be made without a model call (`cues.py`).

It imports nothing of the package but `errors`; every room above it may import it (`sql/`, the engine,
does not). Word lists here are generic English: no table's, column's or value's name.

Left beside the logic they are part of: the places where a request names a column (`grounding/concepts.py`),
the separators of clauses and lists (`controller/pairs.py` CLAUSE, `recording/lists.py` SEPARATOR), a
record's `key: value` line (`controller/stages/route.py`, `recording/labelled_lines.py`), "today" and
"yesterday" in `recording/stated.py`, and the engine's own reading of a column's days (`sql/value_types.py`).
"""
