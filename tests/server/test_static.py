"""The web client's files (issue 51): the page loads its modules from a URL
of this version's files, kept by browsers for a year; after an upgrade the
URL is another one, so a browser never mixes old and new modules."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from skat.server.app import WEB, static_version
from tests.helpers.server import serve


def test_the_page_loads_every_module_under_one_versioned_url(tmp_path: Path) -> None:
    with serve(tmp_path) as (app, client, _):
        version = app.state.static_version
        page = client.get("/")
        assert page.headers["cache-control"] == "no-cache"  # an upgrade shows at once
        assert f'src="/static/{version}/app.js"' in page.text
        assert f'href="/static/{version}/style.css"' in page.text
        assert '"/static/app.js"' not in page.text
        assert client.get("/t/abc").text == page.text  # a table's page is the same page
        # every module the client imports, followed from app.js: under the version, cached
        seen: set[str] = set()
        todo = ["app.js"]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            r = client.get(f"/static/{version}/{name}")
            assert r.status_code == 200, name
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
            imports = re.findall(r"""(?:from|import)\s*\(?\s*["']([^"']+)["']""", r.text)
            for target in imports:
                assert target.startswith("./"), f"{name} imports {target}: not relative"
                todo.append(target[2:])
        assert len(seen) > 5
        # the unversioned URL still answers, asked again each time
        plain = client.get("/static/app.js")
        assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
        assert client.get("/static/0123456789ab/app.js").status_code == 404


def test_the_version_changes_with_any_file_and_only_then(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(WEB / "static", copy)
    first = static_version(copy)
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert static_version(copy) == first == static_version(WEB / "static")
    board = copy / "board.js"
    board.write_text(board.read_text(encoding="utf-8") + "\n// next release\n", encoding="utf-8")
    assert static_version(copy) != first
    board.unlink()
    assert static_version(copy) not in (first,)
