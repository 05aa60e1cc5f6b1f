"""The rooms of the package import only rooms below them (`docs/architecture.md`): no arrow runs back up."""

from __future__ import annotations

import ast
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


def module_imports() -> dict[str, set[str]]:
    """Each module's package-internal imports run when it loads (top level; not under TYPE_CHECKING)."""
    modules = {_dotted(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = graph.setdefault(name, set())
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join([*base, *([node.module] if node.module else [])])
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules.keys()
            found |= submodules or ({target} & modules.keys())
    return graph


def _dotted(path: Path) -> str:
    parts = ["jupyter_chatdb", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_imports_itself_in_a_circle():
    graph = module_imports()
    done: set[str] = set()

    def circle_from(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for target in sorted(graph.get(module, ())):
            found = circle_from(target, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    circles = [c for c in (circle_from(m, []) for m in sorted(graph)) if c]
    assert circles == [], " -> ".join(circles[0]) if circles else ""
