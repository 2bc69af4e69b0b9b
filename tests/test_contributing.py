"""docs/contributing.md stays true: every file it names exists, and the
steps it gives for a language and a computer player match the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from skat.series.spec import LANGS

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
STATIC = ROOT / "src" / "skat" / "web" / "static"


def test_every_file_the_page_names_exists() -> None:
    paths = set(re.findall(r"`((?:src|tests|bench|docs|scripts)/[\w./-]+)`", PAGE))
    links = {f"docs/{p}" for p in re.findall(r"\]\(([\w./-]+\.md)", PAGE)}
    assert len(paths) > 15
    for path in sorted(paths | links):
        assert (ROOT / path.rstrip("/")).exists(), f"docs/contributing.md names {path}"
    # the step modules a house rule goes in
    for name in re.findall(r"`(\w+\.py)`", PAGE):
        found = list((ROOT / "src" / "skat").rglob(name)) + list((ROOT / "tests").rglob(name))
        assert found, f"docs/contributing.md names {name}, which no folder has"


def test_a_language_is_in_the_three_places_the_page_gives() -> None:
    common = (STATIC / "common.js").read_text(encoding="utf-8")
    dicts = re.search(r"DICTS = \{([^}]*)\}", common)
    assert dicts is not None
    assert {x.strip() for x in dicts.group(1).split(",")} == set(LANGS)
    index = (ROOT / "src" / "skat" / "web" / "index.html").read_text(encoding="utf-8")
    assert set(re.findall(r'<option value="(\w+)">', index)) == set(LANGS)
    for lang in LANGS:
        assert (STATIC / f"i18n_{lang}.js").exists() and (STATIC / f"rules_{lang}.js").exists()


def test_every_module_that_registers_a_player_is_loaded_by_the_registry() -> None:
    players = ROOT / "src" / "skat" / "players"
    modules = [*players.glob("*.py"), *players.glob("*/__init__.py")]
    registering = {
        p.parent.name if p.stem == "__init__" else p.stem
        for p in modules
        if re.search(r"^@register\(", p.read_text(), re.M)
    }
    tree = ast.parse((players / "catalogue.py").read_text())
    loaded = {a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert registering and registering <= loaded, sorted(registering - loaded)
