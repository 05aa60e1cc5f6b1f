"""notebooks/quickstart.ipynb runs end to end in a real kernel with the embedded model."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .conftest import requires_model

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "quickstart.ipynb"

pytestmark = [requires_model, pytest.mark.model]


def test_quickstart_answers_every_question(monkeypatch, tmp_path):
    monkeypatch.setenv("CHATDB_MODEL", "local")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    chatdb_cells = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.startswith("%%chatdb")]
    assert len(chatdb_cells) == 3
    for cell in chatdb_cells:
        (chain,) = [o for o in cell.outputs if "sql" in o.get("metadata", {}).get("jupyter_chatdb", {})]
        shown = chain["data"]
        assert "Step 1 (done" in shown["text/plain"] and "Answer: " in shown["text/plain"]
        assert 'class="chatdb-step"' in shown["text/html"] and "**Request:**" in shown["text/markdown"]
        assert "application/vnd.jupyter.widget-view+json" not in shown  # done: static, so it reads after a restart
    # right for the right reason: each answer's SQL totals, ranks or averages what its question asks
    sql = {
        cell.source.splitlines()[-1]: " ".join(
            statement
            for o in cell.outputs
            if "sql" in o.get("metadata", {}).get("jupyter_chatdb", {})
            for statement in o["metadata"]["jupyter_chatdb"]["sql"]
        ).lower()
        for cell in chatdb_cells
    }
    assert "group by" in sql["How many units did each region sell in total?"]
    revenue = sql["Which product brought in the most revenue (units times unit price)?"]
    assert "group by product" in revenue and "sum(units * unit_price)" in revenue  # each product's total
    (answer,) = [o for o in chatdb_cells[1].outputs if "sql" in o.get("metadata", {}).get("jupyter_chatdb", {})]
    assert "cherry" in answer["data"]["text/plain"].split("Answer: ")[1]  # 64, against apple's 41.3
    assert "avg(" in sql["What was the average unit price of apples?"]
    charts = [o for cell in chatdb_cells for o in cell.outputs if "image/png" in o.get("data", {})]
    assert charts  # units per region, at least
    last = notebook.cells[-1].outputs[0]["data"]["text/plain"]
    assert "North" in last and "37" in last  # units_by_region, kept with -o: North sold 12 + 8 + 7 + 10
