"""Terms the user defines ("a heavy pony is ..."), and whether a request uses them: the words in the singular.

A plain English singular, not a stem: a term is kept and shown as the user can read it ("heavy pony",
where the stem would be "heavi poni"), and it meets its plural ("heavy ponies"), not its other forms
("heavier").
"""

from __future__ import annotations

from .words import lower_words


def uses_terms(text: str, terms: tuple[str, ...]) -> bool:
    """Whether `text` uses any of `terms` as words, in the singular or the plural.

    >>> uses_terms("How many big orders came in?", ("big order",)), uses_terms("Bigger orders?", ("big order",))
    (True, False)
    >>> uses_terms("Which heavy ponies are there?", (term_key("heavy ponies"),))
    True
    """
    words = singular_words(text)
    for term in terms:
        wanted = singular_words(term)
        if wanted and any(words[i : i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
            return True
    return False


def term_key(term: str) -> str:
    """A term as kept: lower case, each word in the singular, so "Big Orders" and "big order" are one.

    >>> term_key("Heavy  Ponies"), term_key("big boxes"), term_key("glasses"), term_key("horses"), term_key("bus")
    ('heavy pony', 'big box', 'glass', 'horse', 'bus')
    """
    return " ".join(singular_words(term))


def singular_words(text: str) -> list[str]:
    """The words of `text` (`lower_words`: a camelCase word stays one), each in the singular."""
    return [singular(word) for word in lower_words(text)]


def singular(word: str) -> str:
    """A lower-case English word in the singular, by its ending ("ponies", "boxes", "horses"; not "bus").

    >>> [singular(w) for w in ("ponies", "boxes", "glasses", "horses", "bus", "news", "ties")]
    ['pony', 'box', 'glass', 'horse', 'bus', 'new', 'tie']
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word
