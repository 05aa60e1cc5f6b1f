"""Whether a request holds anything worth keeping that the data cannot say, decided without the model.

What a notebook's memory should keep is what the user says about their words and wishes: definitions
("a big order is one above 10 units"), preferences ("from now on show two decimals"), corrections ("no,
per month") and facts they ask to be remembered. Plain questions hold none of these, and their figures
are kept as checkable result thoughts (`evidence.py`) without a model call. So only a request with one of
these cues pays for the model call that reads its notes.
"""

from __future__ import annotations

from ..language.cues import NOTE_CUES


def cues_in(request: str) -> list[str]:
    """The kinds of note `request` may hold, in `NOTE_CUES` order (`language/cues.py`); empty when it holds none.

    >>> cues_in("How many orders came from the north region?")
    []
    >>> cues_in("A big order is one with qty above 10. How many are there?")
    ['definition']
    >>> cues_in("No, per month"), cues_in("From now on, round money to cents.")
    (['correction'], ['preference'])
    >>> cues_in("What is the mean price?")
    []
    """
    return [kind for kind, cue in NOTE_CUES.items() if cue.search(request)]
