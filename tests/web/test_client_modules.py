"""The browser client's ES modules (src/skat/web/static), checked without a
browser: every name a module imports is exported by the module it names,
no module imports another in a circle, no module is over 700 lines,
`common.js` (which every page uses while it loads) imports no page module,
and every literal word key exists in all three languages. The browser tests
(test_browser.py) run them for real."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.graphs import circle

STATIC = Path(__file__).resolve().parents[2] / "src" / "skat" / "web" / "static"
IMPORT = re.compile(r'^import\s+(?:(\w+)|\{([^}]*)\})\s+from\s+"\./([\w.]+)";', re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\s*\*?|const|let|class)\s+([\w$]+)", re.M)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)
DATA = {"cards.js"} | {
    f"{kind}_{lang}.js" for kind in ("i18n", "rules") for lang in ("en", "de", "da")
}


def _modules() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js"))}


def _exports(text: str) -> set[str]:
    names = set(EXPORT.findall(text))
    for group in EXPORT_LIST.findall(text):
        names.update(n.strip().split(" as ")[-1] for n in group.split(",") if n.strip())
    if re.search(r"^export default\b", text, re.M):
        names.add("default")
    return names


def test_every_import_names_an_export_of_its_module() -> None:
    modules = _modules()
    exports = {name: _exports(text) for name, text in modules.items()}
    checked = 0
    for name, text in modules.items():
        for default, names, target in IMPORT.findall(text):
            assert target in modules, f"{name} imports ./{target}, which does not exist"
            wanted = {"default"} if default else {n.strip() for n in names.split(",") if n.strip()}
            missing = wanted - exports[target]
            assert not missing, f"{name} imports {sorted(missing)} that ./{target} does not export"
            checked += len(wanted)
    assert checked > 50  # the page is really made of modules


def test_no_module_imports_another_in_a_circle() -> None:
    """Issue 50, point 5: the state and the socket (state.js) below the
    drawing, the drawing below the page (table.js), the router (nav.js)
    below the pages; a module that needs something above it is handed a
    function instead. Every import is one IMPORT reads (no dynamic one)."""
    modules = _modules()
    edges: dict[str, set[str]] = {}
    for name, text in modules.items():
        statements = re.findall(r"^import\b", text, re.M)
        found = IMPORT.findall(text)
        assert len(found) == len(statements), f"{name} has an import this test cannot read"
        assert "import(" not in text, f"{name} imports dynamically"
        edges[name] = {target for *_, target in found}
    found = circle(edges)
    assert found is None, "import circle: " + " -> ".join(found)
    assert sum(map(len, edges.values())) > 30  # the page is really made of modules


def test_no_module_is_over_700_lines_and_the_entry_is_small() -> None:
    for name, text in _modules().items():
        if name in DATA:
            continue
        assert text.count("\n") <= 700, f"{name} has {text.count(chr(10))} lines"
    assert _modules()["app.js"].count("\n") < 150  # the router, not the page


def test_common_imports_only_the_data_modules() -> None:
    """Every page module uses common.js while it loads (constants, the
    language): if it imported a page module, a cycle could run that module
    before common.js had its values."""
    targets = {target for *_, target in IMPORT.findall(_modules()["common.js"])}
    assert targets <= DATA, sorted(targets - DATA)


def test_every_word_key_the_modules_use_exists_in_each_language() -> None:
    modules = _modules()
    used: set[str] = set()
    for name, text in modules.items():
        if name not in DATA:
            used.update(re.findall(r'\bt\("([\w.]+)"', text))
    assert len(used) > 100
    for lang in ("en", "de", "da"):
        keys = set(re.findall(r'^\s*"([\w.]+)":', modules[f"i18n_{lang}.js"], re.M))
        missing = used - keys
        assert not missing, f"i18n_{lang}.js lacks {sorted(missing)}"
