"""The layers of ARCHITECTURE.md: engine <- series <- players <- server <- web.

The engine imports only the standard library; no package imports a layer above it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "skat"
ORDER = ["engine", "series", "players", "server", "web"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package
                pkg = path.relative_to(SRC.parent).with_suffix("").parts[: -node.level]
                base = ".".join(pkg)
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                found.add(node.module)
    return found


def test_engine_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in (SRC / "engine").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "skat":
                assert name.startswith("skat.engine"), f"{path.name} imports {name}"
            else:
                assert top in stdlib, f"{path.name} imports non-stdlib {name}"


def test_no_layer_imports_upward() -> None:
    for i, layer in enumerate(ORDER):
        folder = SRC / layer
        if not folder.exists():
            continue
        above = ORDER[i + 1 :]
        for path in folder.rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "skat" and len(parts) > 1:
                    assert parts[1] not in above, f"{layer}/{path.name} imports {name}"
                    assert parts[1] != "cli", f"{layer}/{path.name} imports the CLI"
