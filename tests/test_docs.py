"""The docs a reviewer checks stay true (issue 50, point 6): each claim kind
a page makes about the code is compared with the code here, one test per
kind. A failure names the page and says what to change there."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import create_engine, inspect

from skat.series.spec import LIST_SPEC
from skat.server import messages, protocol
from skat.server.app import create_app
from skat.server.config import ServerConfig
from skat.server.errors import ErrorCode
from skat.server.offer import SETTINGS_SPEC
from skat.server.schema import MIGRATIONS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SRC = ROOT / "src" / "skat"


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table of a page: rows of cells, the header first, the
    separator row dropped."""
    out: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not re.fullmatch(r"[\s|:-]+", line):
                rows.append(cells)
        elif rows:
            out.append(rows)
            rows = []
    return out


def _ticked(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _row(text: str, first: str) -> str:
    """The whole line of the table row whose first cell is ``first``."""
    found = re.search(rf"^\| {re.escape(first)} \|.*$", text, re.M)
    assert found is not None, f"no table row for {first}"
    return found.group(0)


# ------------------------------------------------------- every table renders
ALL_PAGES = sorted([*DOCS.glob("*.md"), *DOCS.glob("lab/*.md"), ROOT / "README.md"])


@pytest.mark.parametrize("path", ALL_PAGES, ids=lambda p: p.name)
def test_every_table_has_a_header_and_a_separator(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    fence = False
    for i, line in enumerate(lines):
        fence ^= line.startswith("```")
        if fence or not line.startswith("|") or (i and lines[i - 1].startswith("|")):
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        assert re.fullmatch(r"\|( *:?-+:? *\|)+", nxt), (
            f"{path.name}:{i + 1}: a table row with no header and separator row above it "
            "(it renders as text)"
        )
        width = line.count("|")
        for j in range(i + 1, len(lines)):
            if not lines[j].startswith("|"):
                break
            cells = len(re.split(r"(?<!\\)\|", lines[j].strip())) - 1
            assert cells == width, (
                f"{path.name}:{j + 1}: {cells - 1} cells, the header has {width - 1}"
            )


# ------------------------------------------------------------- links resolve
def _slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M):
        slug = _slug(heading)
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


@pytest.mark.parametrize("path", ALL_PAGES, ids=lambda p: p.name)
def test_every_link_to_a_page_and_section_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.exists(), f"{path.name} links to {target}, which does not exist"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{path.name} links to {target}: no such section"


def _headings(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [h.lower() for h in re.findall(r"^#+ (.+)$", text, re.M)]


@pytest.mark.parametrize(
    "path", [p for p in ALL_PAGES if p.parent.name != "lab"], ids=lambda p: p.name
)
def test_every_section_cited_by_name_exists(path: Path) -> None:
    """`docs/benchmarks.md, "Open-card solver"` names a heading of that page
    (its start is enough; the lab's dated pages cite what was there then)."""
    text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
    cited = re.findall(r"(?:docs/)?([\w/-]+\.md),? \"([^\"]+)\"", text)
    for page, name in cited:
        dest = DOCS / page if (DOCS / page).exists() else ROOT / page
        if not dest.exists():
            continue  # not one of ours (../shared/...)
        assert any(h.startswith(name.lower()) for h in _headings(dest)), (
            f'{path.name} cites {page}, "{name}": no such section'
        )


# ------------------------------------------------------ the README's docs index
def test_the_readme_lists_every_page_of_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = readme[readme.index("## Documentation") :]
    index = index[: index.index("\n## ", 1)]
    listed = set(re.findall(r"^- `(docs/[\w/.-]+\.md)`", index, re.M))
    pages = {str(p.relative_to(ROOT)) for p in [*DOCS.glob("*.md"), *DOCS.glob("lab/*.md")]}
    assert listed == pages, (
        f"README.md's Documentation: add {pages - listed}, drop {listed - pages}"
    )


# ------------------------------------------- architecture.md's module tables
def _modules(folder: Path) -> dict[str, Path]:
    """What a module table of that folder must list: its modules (not
    ``__init__.py``), its sub-packages as ``name/``, the client's modules."""
    if folder.name == "web":
        return {p.name: p for p in (folder / "static").glob("*.js")}
    out = {p.name: p for p in folder.glob("*.py") if p.name != "__init__.py"}
    if folder != SRC:  # the layers have tables of their own
        out |= {f"{p.name}/": p for p in folder.iterdir() if (p / "__init__.py").exists()}
    return out


def _first_line(path: Path) -> str:
    if path.is_dir():
        path = path / "__init__.py"
    if path.suffix != ".py":
        return ""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.split("\n\n")[0].replace("\n", " ")


def _expand(name: str) -> list[str]:
    braces = re.search(r"\{([^}]*)\}", name)
    if braces is None:
        return [name]
    return [name.replace(braces.group(0), x) for x in braces.group(1).split(",")]


def _module_tables() -> dict[Path, dict[str, str]]:
    """Each module table of docs/architecture.md by the folder named last
    before it (`src/skat/...`): module name -> the row's description."""
    text = _page("architecture.md")
    out: dict[Path, dict[str, str]] = {}
    pos = 0
    for block in re.finditer(r"(?:^\|.*\n)+", text, re.M):
        rows = _tables(block.group(0))[0]
        if rows[0][0] != "module":
            continue
        folders = re.findall(r"`(src/skat[\w/]*)`", text[pos : block.start()])
        before = re.findall(r"`(src/skat[\w/]*)`", text[: block.start()])
        folder = ROOT / (folders or before)[-1]
        pos = block.end()
        table = out.setdefault(folder, {})
        for cells in rows[1:]:
            for name in _ticked(cells[0]):
                for one in _expand(name):
                    table[one] = cells[1]
    return out


def test_the_module_tables_list_every_module_of_the_tree() -> None:
    tables = _module_tables()
    folders = [SRC, *(p for p in SRC.iterdir() if (p / "__init__.py").exists()), SRC / "web"]
    assert set(tables) == set(folders), sorted(str(p) for p in set(folders) ^ set(tables))
    for folder, table in tables.items():
        tree = _modules(folder)
        where = f"docs/architecture.md's table of {folder.relative_to(ROOT)}"
        for name in sorted(set(tree) - set(table)):
            first = _first_line(tree[name])
            raise AssertionError(f"{where} lacks `{name}`: add its row (its docstring: {first!r})")
        gone = set(table) - set(tree)
        assert not gone, f"{where} names modules that are gone: {sorted(gone)}"
        for name, row in table.items():
            if name.endswith("/"):  # a sub-package's row names each of its modules
                inner = {p.name for p in tree[name].iterdir() if p.suffix in (".py", ".c")}
                inner.discard("__init__.py")
                missing = inner - set(_ticked(row))
                assert not missing, f"{where}: the row of `{name}` does not name {sorted(missing)}"


def _code_names(row: str) -> set[str]:
    """The names in a row that are code: CamelCase or snake_case identifiers."""
    names = set()
    for tick in _ticked(row):
        tick = tick.removesuffix("()")
        for part in re.split(r"[.(,]", tick):
            if re.fullmatch(r"_?[A-Z][a-z]+[A-Z]\w*|_?[a-z]+(?:_[a-z0-9]+)+", part.strip()):
                names.add(part.strip())
    return names


def test_every_name_a_module_row_gives_is_in_its_module() -> None:
    for folder, table in _module_tables().items():
        tree = _modules(folder)
        for name, row in table.items():
            path = tree[name]
            files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            source = "\n".join(f.read_text(encoding="utf-8") for f in files)
            if folder.name == "cli" or folder.name == "web":
                continue  # command names and CSS words, not identifiers
            package = "\n".join(p.read_text(encoding="utf-8") for p in folder.rglob("*.py"))
            for code in sorted(_code_names(row)):
                # in its module, or a type of the package the row refers to
                found = re.search(rf"\b{code}\b", source) or re.search(
                    rf"^(class|def) {code}\b", package, re.M
                )
                assert found, (
                    f"docs/architecture.md, the row of `{name}` ({folder.name}) names `{code}`, "
                    "which is not in it"
                )


def _message_writers() -> dict[str, set[str]]:
    """Server module -> the types of the top-level messages it constructs."""
    classes = {
        cls.__name__: str(cls.__struct_config__.tag) for cls in messages._Message.__subclasses__()
    }
    out: dict[str, set[str]] = {}
    for path in sorted((SRC / "server").glob("*.py")):
        if path.name == "messages.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            a.asname or a.name
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.module == "messages"
            for a in n.names
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = None
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                name = f.attr if f.value.id in ("m", "messages") else None
            elif isinstance(f, ast.Name) and f.id in imported:
                name = f.id
            if name in classes:
                out.setdefault(path.name, set()).add(classes[name])
    return out


def test_who_writes_a_server_message_is_as_the_messages_row_says() -> None:
    row = _module_tables()[SRC / "server"]["messages.py"]
    said = row[row.index("Who writes them:") :]
    clauses = said.split("; ")
    writers = _message_writers()
    named = {n for n in _ticked(said) if n.endswith(".py")}
    assert named == set(writers), (
        "docs/architecture.md, the row of `messages.py`: the modules that build a message are "
        f"{sorted(writers)}"
    )
    for module, tags in writers.items():
        text = " ".join(c for c in clauses if f"`{module}`" in c)
        missing = tags - set(_ticked(text))
        assert not missing, f"docs/architecture.md, `messages.py`: `{module}` also writes {missing}"


# --------------------------------------------------------------- protocol.md
def _tags(union: object) -> dict[str, type[msgspec.Struct]]:
    return {str(t.__struct_config__.tag): t for t in union.__args__}  # type: ignore[attr-defined]


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start : end if end >= 0 else None]


def test_the_client_messages_table_is_the_protocol() -> None:
    table = _tables(_section(_page("protocol.md"), "### Client to server"))[0]
    documented = {_ticked(r[0])[0]: _ticked(r[1]) for r in table[1:]}
    types = _tags(protocol.ClientMessage)
    assert set(documented) == set(types), "docs/protocol.md, Client to server"
    for tag, cls in types.items():
        fields = [
            f.name + ("?" if f.required is False else "")
            for f in msgspec.inspect.type_info(cls).fields  # type: ignore[attr-defined]
        ]
        assert documented[tag] == fields, (
            f"docs/protocol.md, Client to server: `{tag}` has {fields}"
        )


def test_the_server_messages_table_is_the_messages_module() -> None:
    text = _page("protocol.md")
    table = _tables(_section(text, "### Server to client"))[0]
    documented = {_ticked(r[0])[0]: r[1] for r in table[1:]}
    types = _tags(messages.ServerMessage)
    assert set(documented) == set(types), "docs/protocol.md, Server to client"
    for tag, cls in types.items():
        for name in cls.__struct_fields__:
            assert re.search(rf"`{name}[`:]", documented[tag]), (
                f"docs/protocol.md: `{tag}` lacks `{name}`"
            )
    for kind in _tags(messages.EventOut):
        assert f"`{kind}`" in documented["event"], f"docs/protocol.md: the event kind `{kind}`"
    for part in (messages.TableOut, messages.SeatOut, messages.DealOut, messages.PastDealOut):
        for name in part.__struct_fields__:
            assert f"`{name}`" in documented["state"], f"docs/protocol.md, `state`: `{name}`"
    view = text[text.index("`view` is the engine's `View`") :]
    view = view[: view.index("\n\n")]
    for name in messages.ViewOut.__struct_fields__:
        assert f"`{name}`" in view, f"docs/protocol.md, the paragraph on `view`: `{name}`"


def test_the_table_options_are_the_option_spec() -> None:
    row = _row(_page("protocol.md"), "`POST /api/tables`")
    listed = re.search(r"R0\.4 \(([^;)]*)", row)
    assert listed is not None
    documented = _ticked(listed.group(1))
    spec = [o.name for o in LIST_SPEC if o.name != "deals"]
    assert sorted(documented) == sorted(spec), "docs/protocol.md, `POST /api/tables`'s list options"
    assert "`deals`" in row
    for option in SETTINGS_SPEC:
        said = re.search(rf"`{option.name}` \((.{{0,250}})", row)
        assert said is not None, f"docs/protocol.md, `POST /api/tables` lacks `{option.name}`"
        for choice in option.choices:
            word = str(choice) if isinstance(choice, int) else f"`{choice}`"
            assert word in said.group(1), f"docs/protocol.md: `{option.name}` may be {choice}"
    bots = re.search(r"a table may choose: ((?:`[\w-]+`(?:, | or ))*`[\w-]+`)", row)
    assert bots is not None
    named = set(_ticked(bots.group(1)))
    assert named == set(ServerConfig().offered_players), "docs/protocol.md: the players offered"


def _documented_routes(text: str) -> set[str]:
    out = set()
    for table in _tables(text):
        if table[0][0] != "method and path":
            continue
        for cells in table[1:]:
            for tick in _ticked(cells[0]):
                path = tick.split()[-1]
                path = re.sub(r"\bID\b", "{id}", path).replace("/N/", "/{number}/")
                path = re.sub(r"\?.*|#.*", "", path.replace("PAGE", "{page}"))
                out.add(path.replace("/deals/N", "/deals/{number}"))
    return out


def test_the_http_tables_give_every_route() -> None:
    app = create_app("sqlite+aiosqlite:///unused.db")  # the routes only: never started
    routes = set()
    for route in app.routes:
        path = getattr(route, "path", "")
        if path.startswith("/static") or path.startswith("/ws/"):
            continue
        path = re.sub(r"\{(\w+)(:\w+)?\}", lambda g: "{" + g.group(1) + "}", path)
        routes.add(re.sub(r"\{(table_id|tournament_id|profile_id)\}", "{id}", path))
    downloads = {"/api/tables/{id}/list.json", "/api/tables/{id}/sheet.csv"}
    downloads.add("/api/tables/{id}/games.iss")
    documented = _documented_routes(_page("protocol.md"))
    assert "/api/tables/{id}/{kind}" in routes
    documented -= downloads
    documented.add("/api/tables/{id}/{kind}")
    assert documented == routes, (
        f"docs/protocol.md's HTTP tables: add {sorted(routes - documented)}, "
        f"drop {sorted(documented - routes)}"
    )


def test_the_errors_table_gives_every_error_code() -> None:
    table = _tables(_section(_page("protocol.md"), "### Errors"))[0]
    documented = {c for r in table[1:] for c in _ticked(r[0])}
    codes = {str(c) for c in ErrorCode}
    assert documented == codes, f"docs/protocol.md, Errors: add {codes - documented}"


def test_the_limits_name_real_settings() -> None:
    text = _page("protocol.md")
    table = _tables(text[text.index("**Limits**") :])[0]
    fields = {f.name: f for f in dataclasses.fields(ServerConfig)}
    serve = (SRC / "cli" / "serve.py").read_text() + (SRC / "server" / "config.py").read_text()
    for cells in table[1:]:
        for name in _ticked(cells[2]):
            if name.startswith("--"):
                flag = name.removeprefix("--").replace("-", "_")
                assert flag in fields or name in serve, f"docs/protocol.md, Limits: {name}"
            elif "." in name:
                module, attr = name.split(".")
                assert hasattr(__import__(f"skat.server.{module}", fromlist=[attr]), attr), name
            else:
                assert name in fields, (
                    f"docs/protocol.md, Limits: `{name}` is no ServerConfig field"
                )
                default = fields[name].default
                if re.fullmatch(r"[\d,]+", cells[1]) and isinstance(default, int):
                    assert int(cells[1].replace(",", "")) == default, f"Limits: `{name}`"


# ---------------------------------------------------------------- storage.md
def test_the_migrations_table_is_the_steps() -> None:
    text = _page("storage.md")
    assert "`store.MIGRATIONS`" not in text
    table = _tables(_section(text, "## Schema versions and migrations"))[0]
    rows = {int(r[0]): r[1] for r in table[1:]}
    assert sorted(rows) == list(range(1, len(MIGRATIONS) + 1)), (
        f"docs/storage.md: a row for each of the {len(MIGRATIONS)} steps of schema.MIGRATIONS"
    )
    engine = create_engine("sqlite://")
    with engine.begin() as conn:
        for version, step in enumerate(MIGRATIONS, 1):
            before = set(inspect(conn).get_table_names())
            step(conn)
            made = {
                t: [c["name"] for c in inspect(conn).get_columns(t)]
                for t in set(inspect(conn).get_table_names()) - before
            }
            lead = re.match(r"(`[^`]+`(?:, `[^`]+`)*)", rows[version])
            assert lead is not None, f"docs/storage.md, version {version}: name its tables first"
            said: dict[str, list[str] | None] = {}
            for tick in _ticked(lead.group(1)):
                made_by, _, listed = tick.partition("(")
                said[made_by] = (
                    [c.strip() for c in listed.rstrip(")").split(",")] if listed else None
                )
            assert set(said) == set(made), (
                f"docs/storage.md, version {version} makes {sorted(made)}"
            )
            for made_by, columns in said.items():
                assert columns is None or columns == made[made_by], (
                    f"docs/storage.md: {made_by} has {made[made_by]}"
                )


# ----------------------------------------------------------- benchmarks.md
KEYS = ("goal", "figure", "met", "command", "date", "history")


def _entries() -> dict[str, dict[str, str]]:
    text = _page("benchmarks.md")
    current = text[text.index("## Current figures") : text.index("\n## Measured and not kept")]
    out = {}
    for block in re.split(r"^### ", current, flags=re.M)[1:]:
        title, _, body = block.partition("\n")
        items = re.findall(r"^- (\w+): (.*(?:\n  .*)*)", body, re.M)
        out[title] = {k: re.sub(r"\s+", " ", v) for k, v in items}
    return out


def test_benchmarks_is_a_page_of_current_figures() -> None:
    lines = _page("benchmarks.md").count("\n")
    assert lines <= 400, f"docs/benchmarks.md has {lines} lines: history goes to docs/lab/"
    entries = _entries()
    assert len(entries) > 20
    for title, entry in entries.items():
        assert tuple(entry) == KEYS, f"docs/benchmarks.md, {title}: give {KEYS} in that order"
        assert re.match(r"\d{4}-\d\d-\d\d", entry["date"]), f"{title}: the date"
        assert "lab/benchmarks-history.md#" in entry["history"], f"{title}: its history"


def test_every_benchmark_command_runs_a_script_and_options_that_exist() -> None:
    from skat.players.search.settings import SearchSettings

    settings = {f.name for f in dataclasses.fields(SearchSettings)}
    cli = "\n".join(p.read_text() for p in (SRC / "cli").glob("*.py"))
    for title, entry in _entries().items():
        for command in _ticked(entry["command"]):
            if not command.startswith(".venv/bin/"):
                continue  # run in another tree (a worktree of an older commit)
            module = re.search(r"-m (bench\.[\w.]+|pytest)", command)
            if module and module.group(1) != "pytest":
                path = ROOT / (module.group(1).replace(".", "/") + ".py")
                assert path.exists(), f"docs/benchmarks.md, {title}: no {path.name}"
                source = path.read_text()
            elif module:
                source = ""
                for test in re.findall(r"tests/[\w/]+\.py", command):
                    assert (ROOT / test).exists(), f"docs/benchmarks.md, {title}: {test}"
            else:
                assert command.startswith(".venv/bin/skat "), command
                source = cli
            for flag in re.findall(r"(?<!\w)--[a-z][\w-]*", command):
                assert f'"{flag}"' in source, f"docs/benchmarks.md, {title}: `{flag}`"
            for variant in re.findall(r"search@([^\" ]+)", command):
                for key in re.findall(r"(\w+)=", variant):
                    assert key in settings, f"docs/benchmarks.md, {title}: no setting {key}"


# ------------------------------------------------------------------ players.md
def test_every_path_players_md_names_exists() -> None:
    page = _page("players.md")
    for path in sorted(set(re.findall(r"`((?:src|tests|bench|docs)/[\w./-]+)`", page))):
        if re.search(r"[A-Z]{3,}", path):
            continue  # a placeholder: players/NAME.py
        assert (ROOT / path.rstrip("/")).exists(), f"docs/players.md names {path}"
    players = SRC / "players"
    for path in sorted(set(re.findall(r"`players/([\w/]+\.py)(?:::(\w+))?`", page))):
        file, name = path
        assert (players / file).exists(), f"docs/players.md names players/{file}"
        if name:
            assert re.search(rf"\b{name}\b", (players / file).read_text()), f"{file}::{name}"
