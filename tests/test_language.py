"""language/: reading the user's words, and the one fix it brought: a word ending in "est" is no superlative
by its ending alone ("interest", "harvest")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jupyter_chatdb.grounding.concepts import ENTITY_PLACES, StoredWords, attribute_phrases, missing_concepts
from jupyter_chatdb.language.words import superlative

LANGUAGE = Path(__file__).resolve().parents[1] / "jupyter_chatdb" / "language"


@pytest.mark.parametrize("word", ["largest", "newest", "cheapest", "oldest", "heaviest"])
def test_a_superlative_is_one(word):
    assert superlative(word)


@pytest.mark.parametrize("word", ["interest", "harvest", "request", "contest", "forest"])
def test_a_word_that_only_ends_like_one_is_not(word):
    assert not superlative(word)


def test_a_word_ending_in_est_names_a_column():
    assert attribute_phrases("What is the total interest of the loans?") == ["interest"]
    assert attribute_phrases("Which field gave the largest harvest?") == ["harvest"]
    assert attribute_phrases("Which horse has the largest weight?") == ["weight"]  # "largest" asks
    assert attribute_phrases("What is the newest price of pears?") == ["price"]
    stored = StoredWords({"loans": ["amount", "rate"]}, [])
    assert [m.word for m in missing_concepts("What is the total interest of the loans?", stored)] == ["interest"]


def test_after_a_superlative_comes_what_the_rows_are_about():
    assert attribute_phrases("Which is the newest boat?", ENTITY_PLACES) == ["boat"]
    assert "rate" not in attribute_phrases("Show the interest rate of the cheapest loan", ENTITY_PLACES)


def test_language_imports_nothing_of_ours_but_errors():
    relative = re.compile(r"^\s*from (\.+)([\w.]*) import", re.MULTILINE)
    outside = {
        f"{path.name}: {dots}{module}"
        for path in LANGUAGE.glob("*.py")
        for dots, module in relative.findall(path.read_text())
        if len(dots) > 1 and module != "errors"
    }
    assert outside == set()
