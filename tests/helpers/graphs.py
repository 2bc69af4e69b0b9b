"""Import graphs for the tests that keep the code free of import circles."""

from __future__ import annotations

from collections.abc import Mapping, Set


def circle(edges: Mapping[str, Set[str]]) -> list[str] | None:
    """An import circle of ``edges`` (module -> the modules it imports), as
    the modules along it with the first repeated at the end; None if there
    is none. Depth first, in name order, so the answer is stable."""
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for nxt in sorted(edges.get(name, ())):
            found = visit(nxt, (*path, name))
            if found:
                return found
        done.add(name)
        return None

    for name in sorted(edges):
        found = visit(name, ())
        if found:
            return found
    return None
