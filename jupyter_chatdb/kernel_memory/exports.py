"""A memory's records as JSON Lines: `%mem export` writes every record, `%mem import` reads the live ones
back as thoughts. A file that cannot be used, or a line that is not a memory record, is one sentence saying
so; an import reads and checks every line before anything is added, so a bad line adds nothing.

An export is UTF-8; one saved again as UTF-16 (or UTF-8 with a byte-order mark) by an editor is read by its mark.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import MemoryFileError
from .store import Store
from .thoughts import Thought

FROM_EXPORT = "import a file that %mem export wrote."
TEXT_FIELDS = ("text", "subject", "relation", "object", "kind", "sql", "source")  # text, or null
MARKS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True)
class Imported:
    """A live thought of an export, and the source it is kept with."""

    thought: Thought
    source: str


def export(store: Store, path: Path) -> int:
    """Write every record of `store` to `path`; how many."""
    try:
        return store.export_jsonl(path)
    except IsADirectoryError:
        raise MemoryFileError(f"{path} is a folder: export to a file in it, such as {path / 'memory.jsonl'}.") from None
    except FileNotFoundError:
        raise MemoryFileError(
            f"Cannot export to {path}: there is no folder {path.parent}; create it, or export elsewhere."
        ) from None
    except OSError as error:
        raise MemoryFileError(f"Cannot export to {path}: {error.strerror or error}.") from None


def read_export(path: Path) -> list[Imported]:
    """The live thoughts of the export at `path`, every line checked first."""
    imported = []
    for number, line in enumerate(_text(path).split("\n"), start=1):
        if line.strip():
            row = _row(line, path, number)
            if row.get("superseded_by") is None:
                imported.append(Imported(_thought(row), row.get("source") or f"import {path.name}"))
    return imported


def _text(path: Path) -> str:
    """The file's text, its line ends as \\n (a raw CR or LF is never inside a JSON line)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise MemoryFileError(f"There is no file {path}: {FROM_EXPORT}") from None
    except IsADirectoryError:
        raise MemoryFileError(f"{path} is a folder: {FROM_EXPORT}") from None
    except OSError as error:
        raise MemoryFileError(f"Cannot read {path}: {error.strerror or error}.") from None
    encoding = next((name for mark, name in MARKS if data.startswith(mark)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise MemoryFileError(
            f"{path} is not text (UTF-8, or UTF-16 with its byte-order mark): {FROM_EXPORT}"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _row(line: str, path: Path, number: int) -> dict:
    """One line as a memory record, or a MemoryFileError naming the line and what is wrong with it."""
    problem: str | None
    try:
        row = json.loads(line)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is an integer of 5000 digits
        row, problem = None, "not JSON"
    else:
        problem = _problem(row)
    if problem:
        raise MemoryFileError(f"{path}, line {number}: {problem}; nothing was imported: {FROM_EXPORT}")
    return row


def _problem(row: object) -> str | None:
    """What keeps `row` from being a memory record as an export writes it; None when nothing does.

    >>> _problem([1, 2]), _problem({"text": "Copper at 40 t.", "terms": "copper"})
    ('a list, not a memory record (a JSON object)', "'terms' must be a list of text")
    """
    if not isinstance(row, dict):
        return f"{_said(row)}, not a memory record (a JSON object)"
    wrong = next((f for f in TEXT_FIELDS if row.get(f) is not None and not isinstance(row[f], str)), None)
    if wrong is not None:
        return f"{wrong!r} must be text, not {_said(row[wrong])}"
    terms, tables, by = row.get("terms") or [], row.get("tables") or [], row.get("superseded_by")
    if not (isinstance(terms, list) and all(isinstance(term, str) for term in terms)):
        return "'terms' must be a list of text"
    if not (isinstance(tables, list) and all(_pair(pair) for pair in tables)):
        return "'tables' must be a list of [table, fingerprint] pairs"
    if by is not None and (isinstance(by, bool) or not isinstance(by, int)):
        return "'superseded_by' must be a record id or null"
    if not (row.get("text") or "").strip():
        return "no text"
    return None


def _pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(part, str) for part in value)


def _said(value: object) -> str:
    """What a JSON value is, in words.

    >>> _said("x"), _said(7), _said(True), _said(None), _said({})
    ('text', 'a number', 'true or false', 'null', 'an object')
    """
    if isinstance(value, bool):
        return "true or false"
    kinds = {str: "text", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return kinds.get(type(value), "null")


def _thought(row: dict) -> Thought:
    return Thought(
        row.get("subject") or "",
        row.get("relation") or "",
        row.get("object") or "",
        row["text"],
        row.get("kind") or "fact",
        tuple(row.get("terms") or ()),
        row.get("sql") or "",
        tuple((table, printed) for table, printed in row.get("tables") or ()),
    )
