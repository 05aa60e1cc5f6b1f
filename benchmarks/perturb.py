"""The value-perturbed Spider variant: literals in questions written the way stored values are not.

A question qualifies when its gold SQL compares a column with a string literal that the question
quotes (case aside). That literal is rewritten in the question, by rules, to a variant the column
does not hold verbatim: a synonym from a short list ("usa" -> "United States"), an abbreviation for
names of several words ("American Motor Company" -> "AMC", "Todd Casey" -> "T. Casey"), else a change
of case ("France" -> "france"). The variants are written to a file once and read from it afterwards,
so every run asks the same questions.

    python benchmarks/perturb.py   # (re)writes benchmarks/data/spider_perturbed.jsonl
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import sqlglot
from sqlglot import exp

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "spider_dev"
PERTURBED = Path(__file__).resolve().parent / "data" / "spider_perturbed.jsonl"
SYNONYMS = {  # stored value (lower case) -> how people also write it
    "usa": "United States",
    "korea": "South Korea",
    "math": "mathematics",
    "bachelor": "Bachelor's",
    "master": "Master's",
    "ppt": "PowerPoint",
    "welcome to ny": "Welcome to New York",
}


def variant(literal: str) -> tuple[str, str] | None:
    """(variant, kind) for a literal, or None when it is a number, a code or a single letter.

    >>> variant("American Motor Company"), variant("Todd Casey"), variant("usa"), variant("France"), variant("1970")
    (('AMC', 'abbreviation'), ('T. Casey', 'abbreviation'), ('United States', 'synonym'), ('france', 'case'), None)
    """
    if len(literal) < 2 or any(ch.isdigit() for ch in literal):
        return None
    if literal.lower() in SYNONYMS:
        return SYNONYMS[literal.lower()], "synonym"
    words = literal.split()
    if len(words) >= 3 and all(w.isalpha() for w in words):
        return "".join(w[0].upper() for w in words), "abbreviation"
    if len(words) == 2 and all(w.isalpha() and w[0].isupper() for w in words):
        return f"{words[0][0]}. {words[1]}", "abbreviation"
    swapped = literal.lower() if literal != literal.lower() else literal.title()
    return (swapped, "case") if swapped != literal else None


def perturb(question: dict) -> dict | None:
    """The question with its first qualifying literal rewritten, or None when it has none."""
    try:
        tree = sqlglot.parse_one(question["query"], read="sqlite")
    except sqlglot.errors.ParseError:
        return None
    for literal in tree.find_all(exp.Literal):
        if not literal.is_string or "%" in literal.this:
            continue
        found = re.search(rf"\b{re.escape(literal.this)}\b", question["question"], flags=re.IGNORECASE)
        rewritten = variant(literal.this) if found else None
        if found and rewritten:
            text = question["question"][: found.start()] + rewritten[0] + question["question"][found.end() :]
            return {
                **question,
                "original": question["question"],
                "question": text,
                "literal": literal.this,
                "variant": rewritten[0],
                "kind": rewritten[1],
            }
    return None


def load(path: Path = PERTURBED, dataset: Path = DATASET) -> list[dict]:
    """The perturbed questions, written from the dataset the first time."""
    if not path.is_file():
        write(path, dataset)
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path = PERTURBED, dataset: Path = DATASET) -> int:
    questions = json.loads((dataset / "dev.json").read_text())
    perturbed = [p for p in map(perturb, questions) if p is not None]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(p) + "\n" for p in perturbed))
    return len(perturbed)


if __name__ == "__main__":
    print(f"{write()} perturbed questions written to {PERTURBED}")
    sys.exit(0)
