"""Where a notebook's memory lives: one value that names every file of it."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

MEMORY_FOLDER = ".chatdb"


@dataclass(frozen=True)
class MemoryFiles:
    """The files of one notebook's memory, side by side in one folder (by default `.chatdb` beside it).

    >>> files = MemoryFiles.of_notebook({}, {"JPY_SESSION_NAME": "/work/shop/sales.ipynb"})
    >>> files.thoughts.as_posix(), files.index.name, files.values.name
    ('/work/shop/.chatdb/sales.memory.sqlite', 'sales.thoughts.ann', 'sales.values.sqlite')
    >>> MemoryFiles.of_notebook({}, {}, name="scratch", folder=Path("/tmp/m")).thoughts.as_posix()
    '/tmp/m/scratch.memory.sqlite'
    """

    folder: Path
    notebook: str  # the notebook's name without its suffix

    @property
    def thoughts(self) -> Path:
        """The thought memory's records (SQLite)."""
        return self.folder / f"{self.notebook}.memory.sqlite"

    @property
    def index(self) -> Path:
        """The thought memory's Annoy index."""
        return self.folder / f"{self.notebook}.thoughts.ann"

    @property
    def procedures(self) -> Path:
        """Procedures learned from approved writes or taught (SQLite)."""
        return self.folder / f"{self.notebook}.procedures.sqlite"

    @property
    def reads(self) -> Path:
        """Reads the user verified or corrected, kept as examples (SQLite)."""
        return self.folder / f"{self.notebook}.reads.sqlite"

    @property
    def values(self) -> Path:
        """The data-value memory's columns and vectors, and the tables' descriptions (SQLite)."""
        return self.folder / f"{self.notebook}.values.sqlite"

    @classmethod
    def of_notebook(
        cls,
        namespace: Mapping[str, object],
        environ: Mapping[str, str] = os.environ,
        name: str | None = None,
        folder: Path | None = None,
    ) -> MemoryFiles:
        """The notebook is known from Jupyter Server (JPY_SESSION_NAME) or VS Code (__vsc_ipynb_file__);
        otherwise `name` (or "notebook") in the working directory. `folder` replaces the `.chatdb` folder."""
        notebook = environ.get("JPY_SESSION_NAME") or namespace.get("__vsc_ipynb_file__")
        if name is None and isinstance(notebook, str) and notebook:
            path = Path(notebook)
            return cls(folder or path.parent / MEMORY_FOLDER, path.stem)
        return cls(folder or Path.cwd() / MEMORY_FOLDER, name or "notebook")

    @classmethod
    def of_thoughts(cls, thoughts: Path) -> MemoryFiles:
        """The files beside a thought memory's records file.

        >>> MemoryFiles.of_thoughts(Path("/m/nb.memory.sqlite")).index.as_posix()
        '/m/nb.thoughts.ann'
        """
        return cls(thoughts.parent, thoughts.name.removesuffix(".memory.sqlite"))


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection to the SQLite file at `path` (its folder made first), or to one in memory for None,
    shared by threads and committing each statement; raises OSError or sqlite3.Error for the caller to say
    what to do."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False, isolation_level=None)
