"""How alike two spellings are: the same words, initials, abbreviated words, one typo, shared trigrams."""

from __future__ import annotations

import re

from ..language.words import normal_text


def abbreviates(short: str, long: str) -> bool:
    """Whether `short` is `long` with some words cut to their initial ("R. Okafor") or several words
    written as their capital initials ("Welcome to NY"), and at least one word kept whole.

    >>> abbreviates("R. Okafor", "Rita Okafor"), abbreviates("Ferry to NY", "Ferry to New York")
    (True, True)
    >>> abbreviates("R", "Rita"), abbreviates("R. Okafor", "Ray Jones")
    (False, False)
    """
    a, b = re.findall(r"[A-Za-z0-9]+", short), re.findall(r"[A-Za-z0-9]+", long)
    i = j = whole = cut = 0
    while i < len(a) and j < len(b):
        word, n = a[i], len(a[i])
        if word.lower() == b[j].lower():
            whole, i, j = whole + 1, i + 1, j + 1
        elif n == 1 and b[j].lower().startswith(word.lower()) and len(b[j]) > 1:
            cut, i, j = cut + 1, i + 1, j + 1
        elif n > 1 and word.isupper() and "".join(w[0] for w in b[j : j + n]).upper() == word and j + n <= len(b):
            cut, i, j = cut + 1, i + 1, j + n
        else:
            return False
    return i == len(a) and j == len(b) and whole > 0 and cut > 0


def one_typo(a: str, b: str) -> bool:
    """Whether `a` is `b` with one letter wrong, missing, extra, or two neighbours swapped.

    >>> one_typo("wesesx", "wessex"), one_typo("carrol", "carol"), one_typo("pear", "pearl"), one_typo("ab", "ab")
    (True, True, True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1 or swapped(a, b)
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def initials(text: str) -> str:
    words = re.findall(r"[A-Za-z]+", text)
    return "".join(w[0] for w in words).upper() if len(words) > 1 else ""


def trigrams(text: str) -> set[str]:
    padded = f"  {normal_text(text)} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def swapped(a: str, b: str) -> bool:
    """Whether `a` is `b` with two neighbouring letters swapped: a typo, seldom another word, even in a
    short one (where one letter wrong is as likely another word: "hound", "round").

    >>> swapped("atlse", "atlas"), swapped("tlaes", "tales"), swapped("round", "hound"), swapped("ab", "ab")
    (False, True, False, False)
    """
    if len(a) != len(b):
        return False
    wrong = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(wrong) == 2 and wrong[1] == wrong[0] + 1 and a[wrong[0]] == b[wrong[1]] and a[wrong[1]] == b[wrong[0]]
