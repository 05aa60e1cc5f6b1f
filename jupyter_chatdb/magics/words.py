"""A magic's line as words, the way a shell splits it."""

from __future__ import annotations

import shlex

from IPython.core.error import UsageError


def split_words(line: str, magic: str) -> list[str]:
    """The words of `line`; an unclosed quote is a UsageError that says so (not a traceback).

    >>> split_words('describe sales "one row per sale"', "%chatdb")
    ['describe', 'sales', 'one row per sale']
    >>> split_words('describe t "x', "%chatdb")
    Traceback (most recent call last):
    ...
    IPython.core.error.UsageError: The %chatdb line does not parse (No closing quotation): close each quote you open.
    """
    try:
        return shlex.split(line)
    except ValueError as error:
        raise UsageError(f"The {magic} line does not parse ({error}): close each quote you open.") from None
