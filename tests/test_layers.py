"""The layers of ARCHITECTURE.md: engine <- series <- players <- server <- web,
and the command line on top (docs/architecture.md).

The engine imports only the standard library; no module imports a layer above
its own. Every module of src/skat belongs to a layer: a package's modules to
the package's, the modules at the root to the one named in ROOT_MODULES; a
module or package that is in no layer fails the test until it is given one.
The command line (the package ``skat.cli``) is the top layer: it may import
everything, and nothing outside it imports it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.helpers.graphs import circle

SRC = Path(__file__).resolve().parents[1] / "src" / "skat"
ORDER = ["engine", "series", "players", "server", "web", "cli"]
PACKAGES = ["engine", "series", "players", "server", "web", "cli"]  # src/skat/<layer>/
# The modules at the root of src/skat, each with its layer.
ROOT_MODULES = {
    "__init__": "engine",  # the package itself: a docstring and the version
    "sheetview": "series",  # a list's score sheet for people, spreadsheets, machines
    "levels": "players",  # the levels people choose, declared once (no import)
    "bench": "cli",  # `skat bench` and bench/
    "__main__": "cli",  # `python -m skat`: the command line
}


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports, absolute; ``from X import y`` gives both
    ``X`` and ``X.y`` (``y`` may be a module)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package
                pkg = path.relative_to(SRC.parent).with_suffix("").parts[: -node.level]
                base = ".".join(pkg)
                module = f"{base}.{node.module}" if node.module else base
            elif node.module:
                module = node.module
            else:  # pragma: no cover - `from . import` always has a level
                continue
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return found


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _layer_of_file(path: Path) -> str | None:
    rel = path.relative_to(SRC)
    if len(rel.parts) == 1:
        return ROOT_MODULES.get(path.stem)
    return rel.parts[0] if rel.parts[0] in PACKAGES else None


def _layer_of_import(name: str) -> str | None:
    """The layer of an imported ``skat...`` name (None: not a module of skat)."""
    parts = name.split(".")
    if parts[0] != "skat":
        return None
    if len(parts) == 1:
        return ROOT_MODULES["__init__"]
    head = parts[1]
    if head in PACKAGES:
        return head
    if head in ROOT_MODULES:
        return ROOT_MODULES[head]
    if (SRC / head).is_dir() or (SRC / f"{head}.py").exists():
        raise AssertionError(f"skat.{head} is in no layer")
    return ROOT_MODULES["__init__"]  # a name from skat/__init__.py


def test_the_layers_are_in_order() -> None:
    assert set(ROOT_MODULES.values()) <= set(ORDER)
    assert set(PACKAGES) <= set(ORDER)
    assert ORDER[0] == "engine" and ORDER[-1] == "cli"


def test_every_module_belongs_to_a_layer() -> None:
    modules = _modules()
    assert len(modules) > 30
    unassigned = [str(p.relative_to(SRC)) for p in modules if _layer_of_file(p) is None]
    assert unassigned == [], (
        f"modules in no layer: {unassigned}; add them to ROOT_MODULES or PACKAGES in "
        "tests/test_layers.py (and to docs/architecture.md)"
    )
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    assert packages <= set(PACKAGES), f"packages in no layer: {sorted(packages - set(PACKAGES))}"
    stale = [m for m in ROOT_MODULES if not (SRC / f"{m}.py").exists()]
    assert stale == [], f"ROOT_MODULES names modules that are gone: {stale}"


def test_engine_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in (SRC / "engine").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "skat":
                assert name.startswith("skat.engine"), f"{path.name} imports {name}"
            else:
                assert top in stdlib, f"{path.name} imports non-stdlib {name}"


def test_no_module_imports_a_layer_above_its_own() -> None:
    for path in _modules():
        layer = _layer_of_file(path)
        assert layer is not None, f"{path.relative_to(SRC)} is in no layer"
        rank = ORDER.index(layer)
        for name in _imports(path):
            other = _layer_of_import(name)
            if other is None:
                continue
            where = f"{path.relative_to(SRC)} ({layer})"
            assert ORDER.index(other) <= rank, f"{where} imports {name} ({other})"


def test_nothing_imports_the_command_line() -> None:
    """Nothing outside the package ``skat.cli`` imports it (bench.py, in its layer, neither)
    but ``python -m skat``'s ``__main__``."""
    for path in _modules():
        if path.relative_to(SRC).parts[0] in ("cli", "__main__.py"):
            continue
        for name in _imports(path):
            assert name.split(".")[:2] != ["skat", "cli"], f"{path.relative_to(SRC)} imports {name}"


def test_the_engine_has_no_import_circle() -> None:
    """Issue 29, point 3: the engine's modules import each other without a
    circle, type-only imports included (views.py once imported the deal's
    types from deal.py, which builds the views)."""
    engine = {p.stem: p for p in (SRC / "engine").glob("*.py") if p.stem != "__init__"}
    edges = {
        name: {
            parts[2]
            for imported in _imports(path)
            if (parts := imported.split("."))[:2] == ["skat", "engine"]
            and len(parts) > 2
            and parts[2] in engine
            and parts[2] != name
        }
        for name, path in engine.items()
    }
    found = circle(edges)
    assert found is None, "import circle: " + " -> ".join(found)


def _private_imports(path: Path) -> list[str]:
    """``from skat.x import _name`` in ``path``: a private name of another
    module (a package's own ``__init__`` re-exports are public names)."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        for a in node.names:
            # a private module of the package (the C solver `_csolver`) is no name
            if a.name.startswith("_") and not a.name.startswith("__") and a.name != "_csolver":
                found.append(f"{'.' * node.level}{node.module or ''}.{a.name}")
    return found


def test_no_module_imports_a_private_name_of_another() -> None:
    """Issue 50, point 7: what a module keeps private (a leading underscore)
    is not imported by another: what two modules share is public, so a
    reader knows what a change may break."""
    offenders = {
        str(path.relative_to(SRC)): names
        for path in _modules()
        if (names := _private_imports(path))
    }
    assert offenders == {}, offenders
