"""Codes said in words: 'G-012' is "glasshouse 12", 'C7' is "row C, bed 7" (`code_fit`). A code's letter
runs are matched against the words said, its digit runs against the numbers said; the grammar of which
words come before which is the code's own.
"""

from __future__ import annotations

import re

from .numbers import DIGIT_RUN
from .words import letter_words

CLAUSE = re.compile(r"[,;:|()\n]|->")  # where a code said in words ends ("game 36, Hillside -> Riverside")
LABEL = re.compile(r"([^\W\d_])\s*:[ \t]+")  # a label's colon ("room: 3"), not a time's ("09:15")


def said_in_a_clause(text: str, code: str) -> bool:
    """Whether one clause of `text` says `code` in words (`code_fit`): a request says many numbers, a clause
    the code's own; a label is said with its value ("room: 3").

    >>> said_in_a_clause("booking | room: 3 | at 09:00", "R3"), said_in_a_clause("room 3 on 7 May", "R3")
    (True, False)
    """
    clauses = {*CLAUSE.split(text), *CLAUSE.split(LABEL.sub(r"\1 ", text))}
    return any(code_fit(clause, code) for clause in clauses if clause.strip())


def code_fit(said: str, code: str) -> int:
    """How well `code` (letters and numbers: 'G-012', 'C7') is what `said` spells out in words: 0 when it
    is not; more when each of its letter runs is a whole word said, or begins the first word.

    >>> code_fit("hot-glasshouse 12", "H-012"), code_fit("hot-glasshouse 12", "G-012"), code_fit("glasshouse 12", "G-012")
    (2, 1, 2)
    >>> code_fit("row C, bed 7", "C7"), code_fit("row C, bed 7", "R7"), code_fit("tunnel 56", "T-056")
    (3, 2, 2)
    >>> code_fit("tunnel 56", "T-057"), code_fit("tunnel 56", "56"), code_fit("Tamarisk", "T-056")
    (0, 0, 0)
    """
    parts = re.findall(r"[a-z]+|\d+", code.lower())
    letters = [p for p in parts if not p.isdigit()]
    numbers = [int(p) for p in parts if p.isdigit()]
    said_words = letter_words(said)
    said_numbers = [int(n) for n in DIGIT_RUN.findall(said)]
    if not letters or not numbers or numbers != said_numbers:
        return 0
    score, start = 3, 0
    for run in letters:
        at = next((i for i in range(start, len(said_words)) if said_words[i].startswith(run)), None)
        if at is None:
            return 0
        kind = 3 if said_words[at] == run else 2 if at == 0 else 1
        score, start = min(score, kind), at + 1
    return score
