"""A magic's line as words, the way a shell splits it."""

from __future__ import annotations

import shlex

from IPython.core.error import UsageError


def split_words(line: str, magic: str, *, escapes: bool = True) -> list[str]:
    """The words of `line`, quotes grouping words and left out; an unclosed quote is a UsageError that says
    so (not a traceback). `escapes=False` keeps each backslash as written (a Windows path in an option).

    >>> split_words('describe sales "one row per sale"', "%chatdb")
    ['describe', 'sales', 'one row per sale']
    >>> split_words(r'--teach "a b" --db C:\\data\\shop.duckdb', "%%chatdb", escapes=False)
    ['--teach', 'a b', '--db', 'C:\\\\data\\\\shop.duckdb']
    >>> split_words('describe t "x', "%chatdb")
    Traceback (most recent call last):
    ...
    IPython.core.error.UsageError: The %chatdb line does not parse (No closing quotation): close each quote you open.
    """
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split, lexer.commenters = True, ""  # as shlex.split
    if not escapes:
        lexer.escape = ""
    try:
        return list(lexer)
    except ValueError as error:
        raise UsageError(f"The {magic} line does not parse ({error}): close each quote you open.") from None
