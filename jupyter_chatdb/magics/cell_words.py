"""A magic's line and cell as words: split the way a shell splits them, read as numbers, names and notebook variables."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from IPython.core.error import UsageError

VARIABLE = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


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


def expand_variables(text: str, namespace: Mapping[str, object]) -> str:
    """Replace {name} by the notebook variable's value; {{ and }} stay as literal braces.

    >>> expand_variables("Sales of {fruit} ({{kg}})", {"fruit": "apple"})
    'Sales of apple ({kg})'
    """

    def value(match: re.Match[str]) -> str:
        token, name = match.group(0), match.group(1)
        if name is None:
            return token[0]
        if name not in namespace:
            raise UsageError(
                f"{{{name}}} is not a variable of the notebook: define it, or write {{{{{name}}}}} for literal braces."
            )
        return str(namespace[name])

    return VARIABLE.sub(value, text)


def question(cell: str) -> tuple[str, bool]:
    """The cell's text, and whether it ends with ';' (the result is then not the cell's value)."""
    text = cell.strip()
    if not text or text == ";":
        raise UsageError("Write your question in the cell, below %%chatdb.")
    return (text[:-1].rstrip(), True) if text.endswith(";") else (text, False)


def said_requests(ids: list[int]) -> str:
    """
    >>> said_requests([3, 2])
    'requests 3, 2'
    """
    return f"request{'s' if len(ids) != 1 else ''} {', '.join(map(str, ids))}"


def keep_name(words: list[str]) -> str | None:
    """The NAME of `%chatdb approve --keep NAME`, None without --keep."""
    if not words:
        return None
    if len(words) != 2 or words[0] != "--keep":
        raise UsageError("Use %chatdb approve, or %chatdb approve --keep NAME to keep it as a procedure.")
    return words[1]


def whole_number(words: list[str], usage: str, default: int | None = None) -> int:
    """The one whole number in `words` (or `default` when there is none), written in ASCII digits; else a
    UsageError quoting `usage` ("²" is a digit to `str.isdigit` but no number to `int`).

    >>> whole_number(["12"], "%chatdb undo [N]"), whole_number([], "%chatdb undo [N]", default=1)
    (12, 1)
    >>> whole_number(["²"], "%chatdb undo [N]")
    Traceback (most recent call last):
    ...
    IPython.core.error.UsageError: Use %chatdb undo [N] with a whole number.
    """
    if not words and default is not None:
        return default
    if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()):
        raise UsageError(f"Use {usage} with a whole number.")
    return int(words[0])
