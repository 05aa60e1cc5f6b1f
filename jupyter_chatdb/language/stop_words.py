"""The common English words set aside when a request's words are matched with names, values or examples.

The lists differ because their uses do, and each is kept exactly as its use tuned it; each says what it
is for. Generic English only: no table's, column's or value's name.
"""

from __future__ import annotations

# English function words and request verbs: a stored value spelled like one (a kit's kind 'With') is not
# what a request means by "with" (`grounding/mentions.py`, and the words that name a column in
# `grounding/concepts.py`)
FUNCTION_WORDS = frozenset(
    "a an and any are as at be by can did do does each for from give had has have how in is it its list many "
    "more most much not of on or our per show than that the their them then there these they this those to "
    "was were what when where which who whom whose why will with".split()
)
# words too generic in a table's or column's name to tell tables apart or to say that a request names one
# (`id`, `name`, `type`), with the few function words such names hold ("number of ...")
GENERIC_WORDS = frozenset({"id", "name", "type", "code", "date", "the", "of", "a", "in", "is", "number", "details"})
