"""The example notebook (python/examples/tour.ipynb) runs headlessly from top to bottom,
and the set it displays shows as a picture."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "tour.ipynb"


def test_the_example_notebook_runs(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pictures = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) == 1 and pictures[0]["data"]["image/svg+xml"].lstrip().startswith("<svg")
    text = "".join(o.get("text", "") for o in outputs)
    assert "ps_floord(n, i)" in text and "True" in text and "column" in text
