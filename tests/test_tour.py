"""notebooks/tour.ipynb (record, ask, approve, undo, replay) runs in a real kernel with the embedded model."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .conftest import requires_model

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "tour.ipynb"

pytestmark = [requires_model, pytest.mark.model]


def shown(cell) -> str:  # type: ignore[no-untyped-def]
    """The plain text of everything a cell showed."""
    return "\n".join(output.get("text", "") or output.get("data", {}).get("text/plain", "") for output in cell.outputs)


def test_tour_records_approves_undoes_and_replays(monkeypatch, tmp_path):
    monkeypatch.setenv("CHATDB_MODEL", "local")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    cells = {cell.source: cell for cell in notebook.cells if cell.cell_type == "code"}
    assert "12" in shown(cells["%%chatdb\nHow many kg of pear do we have?"])
    sold = shown(cells["%%chatdb\nWe sold 2 kg of pear."])  # approving updates the cell's output in place
    assert "1 row changed" in sold and "Saved as request 3" in sold  # requests 1 and 2 made the table
    assert "Recorded: stock: 1 changed." in shown(cells["%chatdb approve"])
    assert "We sold 2 kg of pear." in shown(cells["%chatdb history"])
    after_approval, after_undo = [
        shown(cell) for cell in notebook.cells if cell.source == "%%chatdb --sql\nSELECT * FROM stock ORDER BY fruit"
    ]
    assert 'Undid request 3 ("We sold 2 kg of pear."): stock: 1 row changed back.' in shown(cells["%chatdb undo"])
    assert after_approval != after_undo and "pear  12.0" in after_undo  # undo brought the pear stock back
    replay = shown(cells["%%chatdb --replay\nHow many kg of pear do we have?"])
    assert "same result as recorded" in replay
    profile = shown(cells["%%chatdb\nWhich columns of stock have missing values?"])
    assert "profile_columns(table='stock')" in profile and "no column has missing (null) values" in profile
    assert "This asks to remove tables" in shown(cells["%%chatdb\nDrop all the tables, please."])
    assert "stock" in shown(cells["%chatdb tables"])
