"""The package's modules form layers: no import circle in solver/.

Every ``import`` counts, at module level or inside a function: a lazy import hides a
circle from Python's import machinery but not from a reader, who still cannot
understand either module without the other.
"""
import ast
from pathlib import Path

import solver

PACKAGE = Path(solver.__file__).parent


def module_imports(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` (dotted name) -> the modules of the package it imports,
    wherever in the file the import statement stands.  ``from . import x`` counts as an
    import of submodule ``x`` when there is one, else of the package itself."""
    paths = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        paths[".".join(parts)] = path
    graph = {}
    for name, path in paths.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[:len(here.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                submodules = [f"{source}.{alias.name}" for alias in node.names]
                imported.update(m for m in submodules if m in paths)
                if not all(m in paths for m in submodules):
                    imported.add(source)     # a name defined in the module itself
        graph[name] = {m for m in imported if m in paths and m != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The sets of modules that import one another, directly or around a circle (the
    strongly connected components of more than one module; Tarjan's algorithm)."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_import_circle_in_the_package():
    circles = import_circles(module_imports(PACKAGE))
    assert circles == [], f"modules importing one another: {[sorted(c) for c in circles]}"


def test_the_layers_named_in_the_docstrings():
    """The rules are the bottom layer: rule_file.py (the rule-set file format) and
    _inputs.py (reading a user's files) import no module of the package and rules.py only
    them; the scoring parameters are packed above them, and display.py renders a
    Solution without importing solution.py."""
    graph = module_imports(PACKAGE)
    assert graph["solver.rule_file"] == graph["solver._inputs"] == set()
    assert graph["solver.rules"] == {"solver.rule_file", "solver._inputs"}
    assert "solver.scoring" not in graph["solver.rules"] | graph["solver.tables"]
    assert "solver.solution" not in graph["solver.display"]


def test_a_circle_through_a_function_level_import_is_found(tmp_path):
    """The check sees what the package's circles were made of: a lazy import inside a
    function (as rules.py's of scoring.py was) and ``from . import`` of a submodule."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from .high import g\n    return g\n")
    (package / "high.py").write_text("from . import low\n\ndef g():\n    return low\n")
    (package / "alone.py").write_text("import os\nfrom .low import f\n")
    assert import_circles(module_imports(package)) == [{"pkg.low", "pkg.high"}]
