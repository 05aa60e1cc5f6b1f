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
# English that asks for a column rather than naming one: aggregates, orderings, comparisons, and the words of
# counting and listing; a word of these is no missing attribute (`grounding/concepts.py`)
ASKING_WORDS = frozenset(
    "all also average avg both count different distinct every first last least max maximum mean min minimum "
    "most number numbers other others sum total unique value values various whole kind kinds sort "
    "information info detail details record records row rows entry entries result results data item items "
    "thing things one ones each per top bottom highest lowest largest smallest biggest greatest either neither "
    "order ordered ascending descending alphabetical alphabetically increasing decreasing sorted common "
    "name names amount across corresponding person people distinctive "
    "after before between below above over under less fewer greater than since until word words letter letters "
    "higher lower larger smaller bigger older younger longer shorter heavier lighter cheaper dearer earlier later "
    "more but nor yet so if while whether because although though into onto within without among along during "
    "against about named called titled labelled labeled substring contain contains containing include includes "
    "including start starts starting begin begins beginning end ends ending like having use uses using used".split()
)
# words too common to choose a worked example by (`controller/examples.py`, which also drops words of two
# letters or fewer): a shorter list than FUNCTION_WORDS, with "we"
EXAMPLE_STOP_WORDS = frozenset(
    "a an and are at by for from how in is it of on or the to was were what which who with we our".split()
)
# determiners, as stems ("every" is "everi"): skipped between a column's word and its owner's ("the age of
# each hound", `grounding/selection.py`)
DETERMINER_STEMS = frozenset({"the", "a", "an", "each", "all", "everi", "their", "its"})
# words of a column's name too generic to label a number with ("new price"), `recording/agreement.py`
LABEL_GENERIC_WORDS = frozenset({"id", "new", "old"})
# what stands between the numbers of a list ("4 and 5"), which share the words before the first
LIST_WORDS = frozenset({"and", "or"})
# words that announce a number ("no. 8", "number 8", and their short forms in a few languages): a code's
# letter is rather a word said before them ("DVD number 8" is 'D-008'), never refused for one
# (`codes.code_fit`)
NUMBERING_WORDS = frozenset({"no", "nr", "num", "number", "numero", "nummer", "numer", "n"})
