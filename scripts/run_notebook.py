"""Execute a notebook headless and print what each %%chatdb cell asked, ran and answered.

python scripts/run_notebook.py notebooks/quickstart.ipynb [--save executed.ipynb]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

CELL_TIMEOUT_S = 900


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--save", type=Path, help="write the executed notebook here")
    args = parser.parse_args()
    notebook = nbformat.read(args.notebook, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(args.notebook.parent)}},
    )
    try:
        client.execute()
    except CellExecutionError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        if args.save:
            nbformat.write(notebook, args.save)
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("%%chatdb"):
            print(chatdb_output(cell), end="\n\n")
    return 0


def chatdb_output(cell: nbformat.NotebookNode) -> str:
    """The text of the chain view: request, SQL steps and answer."""
    texts = [o.get("data", {}).get("text/plain", "") for o in cell.outputs if o.output_type == "display_data"]
    return "\n".join(texts) or f"(no output) {cell.source}"


if __name__ == "__main__":
    sys.exit(main())
