"""No module of src/skat imports another in a circle (issue 50, point 5),
type-only imports included: a circle makes the order in which modules load
matter and lets two modules each assume the other (the computer seats once
reached into their actor, which owns them; the metrics imported the
registry and the store, which count with them). What a module needs of
one above it comes as a parameter or a `typing.Protocol`.

A package's modules importing their own package (``from . import x``
loads the package first) is how Python packages load, not a circle; an
import of a package's ``__init__`` from elsewhere is an edge to it. The
browser client's modules have their own test (tests/web/test_client_modules.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.graphs import circle

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    """Every module of skat by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted((SRC / "skat").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _edges(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of skat that module ``name`` imports, anywhere in it."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for a in node.names:  # `from p import m` names the module p.m when there is one
                found.add(f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module)
    edges = set()
    for target in found:
        while target and target not in modules:  # `import skat.engine.cards.x`: its module
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            edges.add(target)
    return edges


def test_no_module_of_src_imports_another_in_a_circle() -> None:
    modules = _modules()
    edges = {name: _edges(name, path, modules) for name, path in modules.items()}
    assert sum(map(len, edges.values())) > 300  # the imports were really read
    found = circle(edges)
    assert found is None, "import circle: " + " -> ".join(found)


def test_the_circle_finder_finds_a_circle_and_only_one() -> None:
    """The finder the circle tests share (tests/helpers/graphs.py) names the
    modules of a circle in order and finds none in a tree."""
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
