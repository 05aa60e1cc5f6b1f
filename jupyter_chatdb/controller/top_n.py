"""Top-N answers: whether the N-th row shown ties with the first one left out.

"The 3 busiest harbours" cut at 3 rows hides a fourth with the same count; the answer says so. The
query is run once more with one row more (only its LIMIT changes, so it reads what it read before),
through the guard like every step.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from ..errors import ChatDBError
from ..sql import guard
from ..sql.session import Session
from .answer import readable


def top_n(sql: str) -> int | None:
    """N, where `sql` is a top-N query: its outermost SELECT is ordered and limited to N rows.

    >>> top_n("SELECT kind, count(*) AS n FROM boats GROUP BY kind ORDER BY n DESC LIMIT 3")
    3
    >>> top_n("SELECT kind FROM boats LIMIT 3"), top_n("SELECT kind FROM boats ORDER BY kind"), top_n("not sql")
    (None, None, None)
    """
    tree = _parsed(sql)
    if not isinstance(tree, exp.Select) or tree.args.get("order") is None or tree.args.get("limit") is None:
        return None
    count = tree.args["limit"].expression
    return int(count.this) if isinstance(count, exp.Literal) and count.is_int else None


def tie_note(session: Session, sql: str, params: dict[str, object], shown: int) -> str:
    """A note when the last of the `shown` rows of top-N `sql` ties with the row after it on every
    column it is ordered by but names (an order by name only breaks ties); else "".

    >>> from jupyter_chatdb.sql.session import Session
    >>> s = Session()
    >>> _ = s.run("CREATE TABLE harbours AS SELECT * FROM (VALUES ('Oban', 9), ('Wick', 7), ('Ayr', 7)) t(name, boats)")
    >>> tie_note(s, "SELECT name, boats FROM harbours ORDER BY boats DESC, name LIMIT 2", {}, 2)
    ' (Wick ties with the 2nd shown: boats 7.)'
    >>> tie_note(s, "SELECT name, boats FROM harbours ORDER BY boats DESC LIMIT 1", {}, 1)
    ''
    """
    tree, n = _parsed(sql), top_n(sql)
    if not isinstance(tree, exp.Select) or n is None or shown != n or n < 1:
        return ""
    keys = [o.this.alias_or_name for o in tree.args["order"].expressions if isinstance(o.this, exp.Column)]
    wider = tree.copy().limit(n + 1)
    try:
        (statement,) = guard.check(wider.sql(dialect="duckdb")).statements  # a read, as every step is run
        frame = session.run(statement.sql, params).frame
    except (ChatDBError, ValueError):  # refused, failed, or not one statement
        return ""
    if len(frame) <= n or not all(key in frame.columns for key in keys):
        return ""
    last, after = frame.iloc[n - 1], frame.iloc[n]
    keys = [key for key in keys if not isinstance(after[key], str)]  # an order by name only breaks ties
    if not keys:
        return ""
    if any(last[key] != after[key] for key in keys):
        return ""
    label = next((str(v) for v in after if isinstance(v, str)), f"row {n + 1}")
    said = ", ".join(f"{key} {readable(after[key])}" for key in keys)
    return f" ({label} ties with the {_ordinal(n)} shown: {said}.)"


def _parsed(sql: str) -> exp.Expr | None:
    try:
        return sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return None


def _ordinal(n: int) -> str:
    """
    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
