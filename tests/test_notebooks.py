"""The notebooks in notebooks/ run without errors, at small sizes.

Each notebook's first code cell (tagged ``parameters``) holds its parameters; the test
rewrites their values (papermill-style), runs the notebook with nbclient in a Jupyter
kernel started in notebooks/ whose ``PYTHONPATH`` carries this checkout, so the kernel
imports this ``solver``, and checks the outputs. The saved notebooks (run at full size)
must carry their outputs.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REASON = "the notebooks' tests need the test extra (pip install -e '.[test]')"
nbformat = pytest.importorskip("nbformat", reason=REASON)
nbclient = pytest.importorskip("nbclient", reason=REASON)
pytest.importorskip("ipykernel", reason=REASON)
pytest.importorskip("matplotlib", reason=REASON)

from solver.arena import match                             # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CELL_TIMEOUT = 120          # seconds a cell; a small run takes a few seconds a notebook


def _set_parameters(nb, values: dict) -> None:
    """Give the parameters of the notebook's first code cell new values."""
    cell = next(c for c in nb.cells if c.cell_type == "code")
    assert "parameters" in cell.metadata.get("tags", []), "the first code cell is not tagged"
    source = cell.source
    for name, value in values.items():
        source, found = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", source, flags=re.M)
        assert found == 1, f"{name} is not a parameter of the notebook"
    cell.source = source


def _run(name: str, parameters: dict, monkeypatch):
    """The notebook ``name`` executed with ``parameters``; a last cell added by the test
    prints where the kernel imported ``solver`` from."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    _set_parameters(nb, parameters)
    nb.cells.append(nbformat.v4.new_code_cell("import solver\nprint(solver.__file__)"))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + path if path else ""))
    monkeypatch.setenv("SOLVER_QUIET", "1")
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()                   # raises CellExecutionError on a cell's error
    assert Path(_text(nb.cells[-1]).strip()).resolve() == \
        (ROOT / "solver" / "__init__.py").resolve()
    return nb


def _text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream")


def _all_text(nb) -> str:
    return "".join(_text(c) for c in nb.cells if c.cell_type == "code")


def _pngs(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", []))


def test_quickstart_runs(monkeypatch):
    nb = _run("quickstart.ipynb", {"SAMPLES": 100, "SEED": 1}, monkeypatch)
    text = _all_text(nb)
    for expected in ("joker, 4 players", "bonus (cut 7c), 4 players", "classic, 4 players",
                     "classic:mandarin", "DECLARE the automatic win (dragon)",
                     "seat 0 v seat 1", "on the 100 that chose it"):
        assert expected in text
    assert _pngs(nb) >= 1


@pytest.fixture
def strength_dir(tmp_path):
    """A folder with a small play-strength file, as benchmarks/strength.py --json writes."""
    results = [match("model", other, "classic", players=2, deals=8, progress=False).to_dict()
               for other in ("field", "sbf")]
    (tmp_path / "strength-small.json").write_text(json.dumps(results))
    return tmp_path


def test_performance_plots_the_saved_results(monkeypatch, strength_dir):
    saved = sorted((ROOT / "benchmarks" / "results").glob("*.json"))
    assert saved, "benchmarks/results/ holds no saved benchmark run"
    nb = _run("performance.ipynb",
              {"RESULTS_DIRS": [str(ROOT / "benchmarks" / "results"), str(strength_dir)]},
              monkeypatch)
    text = _all_text(nb)

    def is_match(r):
        return isinstance(r, dict) and {"a", "b", "mean", "ci95"} <= r.keys()
    loaded = [json.loads(p.read_text()) for p in saved]
    strength_files = sum(is_match(d) or (isinstance(d, list) and bool(d) and all(map(is_match, d)))
                         for d in loaded) + 1
    edge_files = sum(isinstance(d, dict) and "truth" in d and "results" in d for d in loaded)
    setter_files = sum(isinstance(d, dict) and "cpu_us_a_hand" in d for d in loaded)
    assert (f"{strength_files} play-strength file(s), {edge_files} edge file(s), "
            f"{setter_files} setter-speed file(s)") in text
    assert "no play-strength results" not in text and "no setter-speed results" not in text
    assert "rows/s" in text and "first solve" in text and "µs a call" in text
    # Replayed settings are named by their commit, not by their file's path.
    assert "results/settings-" not in text and "solve at 6935e82 (saved settings)" in text
    assert _pngs(nb) >= 5   # throughput, by samples, by cards, edges, setters, strength


def test_performance_without_results(monkeypatch, tmp_path):
    nb = _run("performance.ipynb", {"RESULTS_DIRS": [str(tmp_path)]}, monkeypatch)
    text = _all_text(nb)
    assert "no play-strength results saved" in text and "no saved benchmark runs" in text
    assert "no setter-speed results saved" in text
    assert _pngs(nb) == 0


def test_strategy_runs(monkeypatch):
    nb = _run("strategy.ipynb", {"HANDS": 40, "SEARCH": 40, "SAMPLES": 100,
                                 "RESULTS": str(ROOT / "benchmarks" / "results")}, monkeypatch)
    text = _all_text(nb)
    for expected in ("most often: front", "The new model against the old one, example 1",
                     "units a deal"):
        assert expected in text
    assert _pngs(nb) >= 1


@pytest.mark.parametrize("name", ["quickstart.ipynb", "performance.ipynb", "strategy.ipynb"])
def test_saved_notebooks_carry_their_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code), f"{name} is saved unexecuted"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert _pngs(nb) >= 1


def test_the_saved_performance_notebook_stays_small():
    """Every saved run is plotted, in PNGs small enough (its ``show``) that the notebook
    stays under 300 KB (it was 1.5 MB)."""
    assert (NOTEBOOKS / "performance.ipynb").stat().st_size < 300_000


def _extra(name: str) -> list[str]:
    """The requirement names of one of pyproject.toml's extras."""
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11's tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    return [re.split(r"[<>=!~\[ ]", r, maxsplit=1)[0].lower() for r in extras[name]]


def test_the_notebooks_extra_installs_what_their_readme_runs():
    """Each ``jupyter`` command of notebooks/README.md comes from a package of the
    ``notebooks`` extra (``execute`` from nbclient, ``nbconvert`` from nbconvert), and
    every package that README names for them is in it."""
    readme = (NOTEBOOKS / "README.md").read_text()
    provider = {"execute": "nbclient", "nbconvert": "nbconvert"}
    commands = set(re.findall(r"^ +jupyter (\w+)", readme, flags=re.M))
    assert commands == set(provider), commands
    extra = _extra("notebooks")
    assert {provider[c] for c in commands} <= set(extra)
    named = re.search(r"the `notebooks` extra \(([^)]*)\)", readme)[1]
    assert {n.strip() for n in named.split(",")} == set(extra)


def test_the_notebooks_convert_to_html(tmp_path):
    """The README's conversion, ``jupyter nbconvert --to html``, writes a page with the
    notebook's plots in it."""
    pytest.importorskip("nbconvert", reason=REASON)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html",
                    "--output-dir", str(tmp_path), str(NOTEBOOKS / "quickstart.ipynb")],
                   check=True, capture_output=True, timeout=300)
    page = (tmp_path / "quickstart.html").read_text()
    assert "data:image/png;base64," in page and "Quickstart" in page
