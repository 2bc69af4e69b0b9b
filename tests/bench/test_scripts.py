"""The benchmark scripts (bench/ by kind: speed, server, strength) import and
parse their options, run as ``python -m bench.KIND.NAME`` from the
repository's root with no ``sys.path`` edits (issue 29, point 7): a script
that a refactoring broke fails here, not on the day someone measures."""

from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("speed", "server", "strength")
SCRIPTS = sorted(
    f"bench.{p.parent.name}.{p.stem}"
    for kind in KINDS
    for p in (ROOT / "bench" / kind).glob("*.py")
    if p.stem != "__init__"
)


def test_every_script_is_in_a_kind() -> None:
    loose = [p.name for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__"]
    assert loose == [], f"bench/ keeps its scripts in {KINDS}: {loose}"
    assert len(SCRIPTS) >= 15


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_imports_and_prints_its_help(name: str) -> None:
    module = importlib.import_module(name)
    main = getattr(module, "main", None)
    if main is None:  # a helper of the other scripts, not run by itself
        assert name == "bench.server.cluster_server"
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "usage:" in out.getvalue()


def test_arena_variants_set_what_they_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """``club@...`` and ``search@...`` name lab players with those settings
    (the strength log's runs depend on it); a wrong key fails at once. The
    variants go to a copy of the lab's registry, gone after the test."""
    from skat.players import registry

    registry.player_names(lab=True)  # the lab's own players, before the copy
    monkeypatch.setattr(registry, "_LAB", dict(registry._LAB))
    from bench.strength.arena_plays import variant

    from skat.players import make_player
    from skat.players.club import CARD_BUDGET, CARD_WORLDS, ClubPlayer
    from skat.players.search import SearchPlayer

    variant("club@worlds=8,tiebreak_worlds=2,floor=3")
    club = make_player("club@worlds=8,tiebreak_worlds=2,floor=3")
    assert isinstance(club, ClubPlayer) and club.floor == 3.0
    assert (club.cards.worlds, club.cards.tiebreak_worlds) == (8, 2)
    assert club.cards.time_budget == CARD_BUDGET  # the clock kept
    assert club.cards.early_tiebreak_worlds is None  # club's own setting kept
    variant("club@budget=0")
    unclocked = make_player("club@budget=0")
    assert isinstance(unclocked, ClubPlayer)
    assert unclocked.cards.time_budget is None and unclocked.cards.worlds == CARD_WORLDS
    variant("search@worlds=6,early_schneider=False")
    search = make_player("search@worlds=6,early_schneider=False")
    assert isinstance(search, SearchPlayer)
    assert search.worlds == 6 and search.early_schneider is False
    with pytest.raises(TypeError):
        variant("club@no_such_setting=1")
    with pytest.raises(TypeError):
        variant("search@no_such_setting=1")
