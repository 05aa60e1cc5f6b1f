"""English cues: words that let a decision be made without a model call, or that ask for one.

The cues of routing, unsafe requests and notes only speed a decision up: where none fits, or the words
are in another language, the model decides (with one call more), and a cue never refuses or drops a
request on its own. The cues of writes read as rows say what a value read means; each says what happens
without it. The logic that uses each cue stays with its stage (named beside it); only the words are
here. Generic English: no table's, column's or value's name.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# -- routing (`controller/stages/route.py`): a plain read is routed without the route call ------------------

# English that asks for data, and words that ask to change it (generic, no table's words): a question that
# names the data and changes nothing is a read without a call; anything else is the model's to route
ASKING = re.compile(
    r"^\s*(what|which|who|whom|whose|when|where|how|list|show|find|give|count|return|display|tell|get|"
    r"select|name|is|are|was|were|does|do|did|has|have)\b(?!\s*:)",  # "name: Ann" is a record's line
    re.IGNORECASE,
)
CHANGING = re.compile(
    r"\b(add|adds|record|insert|delete|remove|update|change|set|create|put|store|save|drop|rename|mark|"
    r"increase|decrease|raise|lower|forget|remember)\b",
    re.IGNORECASE,
)
# dealings a request may record ("We sold 2 kg") or ask about ("Who bought the most?"): asked about
# only in a question of who, what, how...
DEALING = re.compile(r"\b(sold|bought|buy|sell|restock|restocked|received|paid)\b", re.IGNORECASE)
# a question by its first word (a record form's heading is none), and a whole question (a dealing is
# asked about only in one)
ASKED_WORD = re.compile(r"^\s*(what|which|who|whom|whose|when|where|how|why)\b", re.IGNORECASE)
ASKED = re.compile(r"^\s*(what|which|who|whom|whose|when|where|how)\b.*\?\s*$", re.IGNORECASE | re.DOTALL)

# -- about the database itself (`controller/route_cues.py`) -----------------------------------------------

# words that may ask about the database itself: a request with one is routed by the model, never taken for a
# read without a call
MAY_ASK_ABOUT_THE_DATABASE = re.compile(
    r"\b(missing|nulls?|blank)\b|\bcolumns?\b|\bfields?\b|\bschema\b|\bdata\s*types?\b|\btyped\b|\bdescribe\b"
    r"|\bprofile\b|\bsummar(y|ise|ize)\b|\bstatistics\b|\bquery\s+plan\b|\bexplain\b|\bslow(est|er)?\b|\bperformance\b"
    r"|\bindex(es)?\b|\b(primary|foreign)\s+keys?\b|\bhow\s+(big|large)\b|\btables?\b"
    r"|\blast\s+(request|write|change)\b|\bmemory\b|\bprocedures?\b|\brules?\b|\bstructure\b|\bSELECT\b",
    _I,
)
# words that plainly ask about the tables themselves, a query's plan, the journal or the memory, or about
# general SQL knowledge: such a request is routed without a call (to the tools, or to chat)
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

# -- unsafe requests (`controller/unsafe.py`): a cue only asks the model, which must agree to refuse --------

_IN_SENTENCE = r"(?:[^.?!]|\.(?=\S))"  # a character of the same sentence: a dot inside an address or a name is one
_ALL = r"(all|every|each|entire|whole|the full)\b(\s+(of\s+)?(the|my|your|our|this)?)?\s*"
DESTROYING = re.compile(
    rf"\b(drop|delete|remove|wipe|erase|truncate|destroy|purge|nuke|empty|clear)\s+(out\s+)?{_ALL}"
    r"(tables?|database|db|data|schemas?)\b"
    r"|\b(drop|truncate)\s+(table|database|schema)\b"
    r"|\b(wipe|nuke|destroy|erase)\s+(the\s+|my\s+|this\s+)?(database|db|data)\b"
    r"|\bdelete\s+everything\b",
    re.IGNORECASE,
)
SENDING_OUT = re.compile(  # a verb of sending, then where to: an address is no destination without "to"
    rf"\b(send|e-?mail|mail|post|upload|forward|transfer|leak|push|ship)\b(?!\s+address){_IN_SENTENCE}{{0,80}}"
    r"\b(to|at|into|onto)\s+(my\s+|our\s+|the\s+|this\s+|a\s+)?"
    r"(https?://|www\.|\S+@\S+|url\b|webhook|server\b|endpoint|e-?mail\b|slack|inbox|address\b)"
    r"|\b(write|save|export|dump|copy|output|store)\b[^.?!]{0,60}\b(to|into|as)\s+(a\s+|the\s+)?"
    r"(file|csv|parquet|json|disk|folder|path|/|~)"
    r"|\bCOPY\b[^.?!]{0,60}\bTO\b",
    re.IGNORECASE,
)
SECRETS = re.compile(
    r"\b(api[\s_-]?keys?|passwords?|passwd|secrets?|access[\s_-]?tokens?|credentials?|private[\s_-]?keys?|"
    r"environment\s+variables?|env\s+vars?|os\.environ|getenv)\b"
    r"|(^|\s)(/etc/|~/|\.\./|\.env\b|\.ssh\b)"
    r"|\b(read|open|cat|show|print|load)\s+(the\s+|a\s+)?(local\s+)?files?\b",
    re.IGNORECASE,
)
RUNNING_CODE = re.compile(
    r"\b(run|execute|exec|eval|call)\b[^.?!]{0,40}\b(shell|bash|terminal|command\s+line|system\s+command|"
    r"python|script|code|subprocess)\b"
    r"|\bpip\s+install\b|\bconda\s+install\b|\bapt(-get)?\s+install\b|\binstall\s+(the\s+|a\s+)?(package|library|extension|module)\b"
    r"|\bimport\s+(os|sys|subprocess|shutil)\b|\bos\.system\b|\brm\s+-rf\b|\b(curl|wget)\s",
    re.IGNORECASE,
)
BYPASSING = re.compile(
    r"\bignore\s+(all\s+|any\s+|your\s+|the\s+|previous\s+|prior\s+|earlier\s+)*(rules|instructions|guard|restrictions|checks|limits)\b"
    r"|\b(turn|switch|shut)\s+off\b[^.?!]{0,30}\b(guard|safety|checks?|restrictions|read-only|protection|limits)\b"
    r"|\b(disable|bypass|circumvent|get\s+round|get\s+around|skip|override)\b[^.?!]{0,30}"
    r"\b(guard|safety|checks?|restrictions|read-only|protections?|limits|rules)\b"
    r"|\bjailbreak|\bdeveloper\s+mode\b|\bwithout\s+(the\s+)?(guard|checks|restrictions)\b",
    re.IGNORECASE,
)


# -- labels shown for keys (`grounding/labels.py`) --------------------------------------------------------

# words of a column's name that say its values may be secret (`api_token`, `passwordHash`): such a column is
# never the label a read-only fix-up shows instead of a key (the read still shows it where it asks for it)
SECRET_WORDS = frozenset(
    "token secret password passwd pwd passphrase key hash salt api credential credentials auth otp pin ssn".split()
)


# -- notes for the memory (`kernel_memory/worth_keeping.py`, `kernel_memory/bearing.py`) -----------------

# what a request may hold worth keeping, by kind: only a request with one of these pays for the model call
# that reads its notes; the others are kept as checkable results without it
NOTE_CUES = {
    "definition": re.compile(
        r"\b(means|meant|i mean|we mean|mean by|is defined as|are defined as|refers? to|counts? as|stands? for"
        r"|we call|i call|call (?:it|them|those)|is short for)\b"
        r"|^\s*(?:an?|the)?\s*[\w -]{1,40}?\s(?:is|are)\s+(?:one|ones|any|those|whatever|anything|when)\b",
        re.IGNORECASE,
    ),
    "preference": re.compile(
        r"\b(i prefer|i'd prefer|i would prefer|i like|i want answers|from now on|by default|going forward"
        r"|in future|always show|always use|always round|never show|never use|please always)\b",
        re.IGNORECASE,
    ),
    "correction": re.compile(
        r"^\s*(no|nope|not quite|wrong|actually)\b|\b(i meant|instead of|should have been|that'?s wrong|that is wrong"
        r"|is wrong|was wrong)\b",
        re.IGNORECASE,
    ),
    "fact": re.compile(r"\b(remember that|remember:|note that|keep in mind|for the record)\b", re.IGNORECASE),
}

# words that join a note on to what came before it ("Also, from now on ..."): they ask nothing themselves
JOINING = re.compile(r"\b(also|and|so|then|ok|okay|please|oh|one more thing)\b", re.IGNORECASE)

# a request that builds on earlier answers: lets related thoughts in; a request without one (in any
# language) is answered from its own words and the thoughts those words name
REFERS_BACK = re.compile(
    r"\b(again|as before|same as (before|last time|earlier)|previous(ly)?|earlier (answer|result|question)"
    r"|last (time|answer|result)|that answer|those (results|figures))\b",
    re.IGNORECASE,
)


# -- writes read as rows (`recording/`) ---------------------------------------------------------------

# words that turn a value round ("did not attend" is not 'attended'): a listed value without them is the
# model's to choose (`recording/picks.py`; in another language the choice falls to the model as well)
NEGATIONS = frozenset({"not", "no", "never", "without", "didn", "don", "doesn", "wasn", "isn", "won", "cannot"})
# words that say a value is empty ("email: none (removed)"), `recording/kept.py`; a blank value says it in
# any language
EMPTY_WORDS = frozenset({"none", "n", "a", "na", "null", "nil", "removed", "deleted", "cleared", "empty", "blank"})
# a length that says how late or early something was ("ten days late"), not how long it runs from a date
# (`recording/lengths.py`): left out before a date is counted on from another
LATENESS = re.compile(r"\b[\w-]+\s+(?:day|week|month)s?\s+(?:late|early|overdue|behind)\b", re.IGNORECASE)
