"""The rooms of the package import only rooms below them (`docs/architecture.md`): no arrow runs back up."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "jupyter_chatdb"
# a room may import the rooms of a lower rank only
RANKS = {
    "errors": 0,
    "options": 0,
    "language": 1,
    "llm": 1,
    "sql": 1,
    "kernel_memory": 2,
    "grounding": 3,
    "tools": 4,
    "recording": 4,
    "controller": 5,
    "api": 6,
    "config": 7,
    "widgets": 7,
    "magics": 8,
    "__init__": 9,
    "__main__": 9,
}
RELATIVE_IMPORT = re.compile(r"^\s*from (\.+)([\w.]*) import", re.MULTILINE)


def room_of(parts: list[str]) -> str:
    return parts[0].removesuffix(".py")


def imports() -> list[tuple[str, str, str]]:
    """(module, its room, the room it imports) for every relative import across rooms."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).parts)
        for match in RELATIVE_IMPORT.finditer(path.read_text()):
            dots, module = len(match.group(1)), match.group(2)
            folder = parts[:-1][: len(parts) - dots] if dots > 1 else parts[:-1]
            target = [*folder, *module.split(".")] if module else folder
            if target and room_of(target) != room_of(parts):
                found.append(("/".join(parts), room_of(parts), room_of(target)))
    return found


def test_every_room_has_a_rank():
    rooms = {room_of(list(p.relative_to(PACKAGE).parts)) for p in PACKAGE.rglob("*.py")}
    assert rooms <= set(RANKS), f"rooms without a rank: {sorted(rooms - set(RANKS))}"


def test_no_import_runs_back_up():
    upward = [f"{module} imports {target}" for module, room, target in imports() if RANKS[target] >= RANKS[room]]
    assert upward == []
