"""English cues for routing: words that plainly ask about the database itself, or general SQL knowledge.
A request they fit is routed without a model call; one that only may ask about the database
(`MAY_ASK_ABOUT_THE_DATABASE`) is routed by the model, never taken for a read without a call. Generic
words only: no table's or column's name."""

from __future__ import annotations

import re

from ..language.words import stems, words
from ..sql.catalog import Catalog

_I = re.IGNORECASE
MAY_ASK_ABOUT_THE_DATABASE = re.compile(
    r"\b(missing|nulls?|blank)\b|\bcolumns?\b|\bfields?\b|\bschema\b|\bdata\s*types?\b|\btyped\b|\bdescribe\b"
    r"|\bprofile\b|\bsummar(y|ise|ize)\b|\bstatistics\b|\bquery\s+plan\b|\bexplain\b|\bslow(est|er)?\b|\bperformance\b"
    r"|\bindex(es)?\b|\b(primary|foreign)\s+keys?\b|\bhow\s+(big|large)\b|\btables?\b"
    r"|\blast\s+(request|write|change)\b|\bmemory\b|\bprocedures?\b|\brules?\b|\bstructure\b|\bSELECT\b",
    _I,
)
PASTED_SELECT = re.compile(r"\bSELECT\b[\s\S]+\bFROM\b", _I)
PLAN_WORDS = re.compile(
    r"\b(explain|plan|slow|slower|fast|faster|speed|performance|operators?|runs?|executes?|takes?\s+(so\s+)?long|time)\b",
    _I,
)
ABOUT_THE_DATABASE = re.compile(
    r"\b(query|execution)\s+plan\b|\bexplain\s+analy[sz]e\b|\bprofile\b|\bprofiling\b|\bdata\s+quality\b"
    r"|\b(missing|null|blank|empty)\s+(values?|counts?|cells?|entries)\b|\bnulls\b|\bnull\s+counts?\b"
    r"|\b(column|data)\s+types?\b|\bschema\b|\b(primary|foreign)\s+keys?\b"
    r"|\b(which|what|list|show)\s+(me\s+)?(the\s+|its\s+|all\s+)?(columns|fields)\b"
    r"|\b(what|which)\s+tables\b|\b(list|show)\s+(me\s+)?(all\s+|every\s+)?(the\s+|of\s+the\s+)?tables\b"
    r"|\b(every|each|all)\s+(of\s+)?(the\s+)?tables?\s+(in|of|here|loaded|there)\b|\boverview\s+of\s+the\s+tables\b"
    r"|\btables\s+(are\s+)?(there|loaded|here)\b"
    r"|\b(last|latest|previous|my)\s+(write|request|change|update)s?\b[^.?!]{0,40}\b(change|changed|do|did)\b"
    r"|\bwrite\s+request\s+\d+|\brequest\s+\d+\b[^.?!]{0,40}\b(change|changed|did|added|removed)\b"
    r"|\b(the\s+notebook'?s?|your|the)\s+memory\b"
    r"|\b(last|latest|previous|that|my)\s+(query|select)\b[^.?!]{0,40}\b(slow|slower|fast|plan|run|ran|took|time)\b"
    r"|\bexplain\s+(the\s+|my\s+|that\s+)?(last\s+|previous\s+)?(query|select)\b",
    _I,
)
DESCRIBE = re.compile(r"\bdescribe\s+(the\s+)?([\w.]+)(\s+table)?\b", _I)
GENERAL_QUESTION = re.compile(
    r"\b(difference\s+between|what('s|\s+is|\s+are|\s+does|\s+do)|how\s+(does|do)|when\s+(should|do|would)\s+(i|you)\s+use|"
    r"why\s+(would|should|do)|explain\s+(what|how|the\s+difference))\b",
    _I,
)
SQL_CONCEPTS = re.compile(
    r"\b(sql|joins?|inner\s+join|left\s+join|outer\s+join|group\s+by|order\s+by|having|primary\s+key|foreign\s+key|"
    r"null|index(es)?|views?|transactions?|window\s+functions?|subquer(y|ies)|ctes?|union|normali[sz](ation|e)|"
    r"aggregates?|acid|schema)\b",
    _I,
)


def about_the_database(text: str, catalog: Catalog) -> bool:
    """The request plainly asks about the tables themselves, a query's plan, the journal or the memory.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("horses", (Column("coat", "VARCHAR"),), 3)])
    >>> [about_the_database(t, catalog) for t in ("Which columns of horses have missing values?",
    ...  "Why is SELECT coat FROM horses slow?", "Describe horses", "What did my last write change?",
    ...  "Why was that query so slow?")]
    [True, True, True, True, True]
    >>> [about_the_database(t, catalog) for t in ("Which horses have no coat?", "List the coats of horses")]
    [False, False]
    """
    if ABOUT_THE_DATABASE.search(text) or (PASTED_SELECT.search(text) and PLAN_WORDS.search(text)):
        return True
    described = DESCRIBE.search(text)
    if described is None:
        return False
    said = stems(words(described.group(2)))
    return bool(described.group(3)) or any(stems(words(name)) == said for name in catalog.tables)


def general_sql_question(text: str, catalog: Catalog) -> bool:
    """A question of general SQL knowledge that names no table: chat, answered without the data.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("horses", (Column("coat", "VARCHAR"),), 3)])
    >>> general_sql_question("What is the difference between an inner join and a left join?", catalog)
    True
    >>> general_sql_question("What does NULL mean in the horses table?", catalog)
    False
    """
    if not (GENERAL_QUESTION.search(text) and SQL_CONCEPTS.search(text)):
        return False
    said = stems(text)
    return not any(stems(words(name)) <= said for name in catalog.tables)
