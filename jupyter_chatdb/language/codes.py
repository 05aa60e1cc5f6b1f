"""Codes said in words: 'G-012' is "glasshouse 12", 'C7' is "row C, bed 7" (`code_fit`). A code's letter
runs are matched against the words said, its digit runs against the numbers said; the grammar of which
words come before which is the code's own.
"""

from __future__ import annotations

import re

from .numbers import DIGIT_RUN
from .stop_words import NUMBERING_WORDS
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
    is not; more when each of its letter runs is a whole word said, or begins the first word. The letters
    before the code's number are words said before the request's number, those after it words after ("21
    days" is no 'D-021'); a word that only announces a number ("no.", "number") fits least: "DVD number 8"
    is 'D-008' before 'N-008'.

    >>> code_fit("hot-glasshouse 12", "H-012"), code_fit("hot-glasshouse 12", "G-012"), code_fit("glasshouse 12", "G-012")
    (3, 2, 3)
    >>> code_fit("row C, bed 7", "C7"), code_fit("row C, bed 7", "R7"), code_fit("tunnel 56", "T-056")
    (4, 3, 3)
    >>> code_fit("tunnel 56", "T-057"), code_fit("tunnel 56", "56"), code_fit("Tamarisk", "T-056")
    (0, 0, 0)
    >>> code_fit("for 21 days", "D-021"), code_fit("bed 7 row C", "7C"), code_fit("DVD number 8", "N-008")
    (0, 4, 1)
    """
    parts = re.findall(r"[a-z]+|\d+", code.lower())
    numbers = [int(p) for p in parts if p.isdigit()]
    said_numbers = [int(n) for n in DIGIT_RUN.findall(said)]
    if not numbers or numbers != said_numbers or all(p.isdigit() for p in parts):
        return 0
    first = next(i for i, p in enumerate(parts) if p.isdigit())
    at_number = DIGIT_RUN.search(said)
    assert at_number is not None  # said holds the code's numbers
    before, after = letter_words(said[: at_number.start()]), letter_words(said[at_number.end() :])
    fits = [_run_fit(parts[:first], before), _run_fit([p for p in parts[first:] if not p.isdigit()], after)]
    return min(fits)


def _run_fit(runs: list[str], said_words: list[str]) -> int:
    """How well the letter `runs` are the `said_words` in order: 4 each a whole word, 3 where one begins the
    first word, 2 another word, 1 a word that announces a number; 0 when one is not said; 4 for no runs."""
    score, start = 4, 0
    for run in runs:
        at = next((i for i in range(start, len(said_words)) if said_words[i].startswith(run)), None)
        if at is None:
            return 0
        word = said_words[at]
        kind = 1 if word in NUMBERING_WORDS and word != run else 4 if word == run else 3 if at == 0 else 2
        score, start = min(score, kind), at + 1
    return score
