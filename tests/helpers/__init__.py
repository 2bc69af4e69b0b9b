"""Helpers shared by the test modules (no test module imports another):

- `paths`: the repository root, ../shared, the golden files;
- `stores`: the database the server tests run against (SQLite or PostgreSQL);
- `server`: an in-process server (Starlette's TestClient) and websocket peers;
- `processes`: a real `skat serve` process and websocket humans that play;
- `browser`: driving the page in Chromium (Playwright);
- `cluster`: workers behind nginx sharing PostgreSQL;
- `solver`: Hand deals and a plain minimax over the engine;
- `players`: relabelling what a seat cannot see (the leak tests);
- `marks`: a parametrized test's cases beyond the first marked slow;
- `wire`: a server message as the JSON a client reads.

Fixtures live in the conftest.py files: tests/conftest.py (the store, the
ISS lines, the browser) and tests/server/conftest.py (PostgreSQL for the
cluster).
"""
