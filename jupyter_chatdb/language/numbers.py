"""The numbers a text writes in figures: one pattern per reading, each named for what it reads.

They differ on purpose, and each says how: what stands around a figure decides whether it is one (a
piece of a date, a code or a word is not, for some readings), and whether a sign or a thousands comma
belongs to it. Numbers written in words and lengths of time are read in `spoken.py`; dates and times of
day in `dates.py`.

>>> text = "On 2024-05-01 Ann paid -1,250.5 for R3 and 12 kg"
>>> ANY_FIGURE.findall(text), DIGIT_RUN.findall(text)
(['2024', '05', '01', '1', '250.5', '3', '12'], ['2024', '05', '01', '1', '250', '5', '3', '12'])
>>> ANSWER_FIGURE.findall(text), CLAUSE_FIGURE.findall(THOUSANDS_COMMA.sub("", text))
(['2024', '05', '01', '-1,250.5', '12'], ['2024', '05', '01', '-1250.5', '12'])
>>> STATED_NUMBER.findall(text), COUNT_FIGURE.findall(text)
(['1,250.5', '3', '12'], ['2024', '05', '01', '1', '250.5', '3', '12'])
"""

from __future__ import annotations

import re

# every figure with its decimals, wherever it stands (inside a date or a code too): a value a kept
# request's SQL compares with, looked for among a request's figures
ANY_FIGURE = re.compile(r"\d+(?:\.\d+)?")
# every run of digits, no decimals: the number a code carries ("R3") and the whole numbers said beside it
DIGIT_RUN = re.compile(r"\d+")
# a figure an answer writes: a sign and thousands commas are its own ("-1,250.5"); not the end of a word or
# of a dotted code ("v2", "1.2.3")
ANSWER_FIGURE = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?")
# a figure in a clause of an answer, its thousands commas taken out first (THOUSANDS_COMMA): a word of its
# own, so a label that holds digits ("2024a") gives none
CLAUSE_FIGURE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w])")
# the comma between thousands ("1,250"), taken out before CLAUSE_FIGURE reads a clause
THOUSANDS_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
# a number a request states, standing alone: not a piece of a date, a time, a phone number or a code
# ("2024-05-01", "17:00", "555-0172"); commas inside it, no sign
STATED_NUMBER = re.compile(r"(?<![\d.])(?<!\d[/:-])(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?!\d|[/.:-]\d)")
# the count in figures before a unit of time ("21 days"), matched whole: not a piece of a longer number
COUNT_FIGURE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.]\d)")
