"""Whether a request holds anything worth keeping that the data cannot say, decided without the model.

What a notebook's memory should keep is what the user says about their words and wishes: definitions
("a big order is one above 10 units"), preferences ("from now on show two decimals"), corrections ("no,
per month") and facts they ask to be remembered. Plain questions hold none of these, and their figures
are kept as checkable result thoughts (`evidence.py`) without a model call. So only a request with one of
these cues pays for the model call that reads its notes.
"""

from __future__ import annotations

import re

CUES = {
    "definition": re.compile(
        r"\b(means|meant|i mean|we mean|mean by|is defined as|are defined as|refers? to|counts? as|stands? for"
        r"|we call|i call|call (?:it|them|those)|is short for)\b"
        r"|^\s*(?:an?|the)?\s*[\w -]{1,40}?\s(?:is|are)\s+(?:one|ones|any|those|whatever|anything|when)\b",
        re.IGNORECASE,
    ),
    "preference": re.compile(
        r"\b(i prefer|i'd prefer|i would prefer|i like|i want answers|from now on|by default|going forward"
        r"|in future|always show|always use|always round|never show|never use|please always)\b",
        re.IGNORECASE,
    ),
    "correction": re.compile(
        r"^\s*(no|nope|not quite|wrong|actually)\b|\b(i meant|instead of|should have been|that'?s wrong|that is wrong"
        r"|is wrong|was wrong)\b",
        re.IGNORECASE,
    ),
    "fact": re.compile(r"\b(remember that|remember:|note that|keep in mind|for the record)\b", re.IGNORECASE),
}


def cues_in(request: str) -> list[str]:
    """The kinds of note `request` may hold, in `CUES` order; empty when it holds none.

    >>> cues_in("How many orders came from the north region?")
    []
    >>> cues_in("A big order is one with qty above 10. How many are there?")
    ['definition']
    >>> cues_in("No, per month"), cues_in("From now on, round money to cents.")
    (['correction'], ['preference'])
    >>> cues_in("What is the mean price?")
    []
    """
    return [kind for kind, cue in CUES.items() if cue.search(request)]
