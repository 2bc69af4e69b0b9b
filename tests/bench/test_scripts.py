"""The benchmark scripts (bench/ by kind: speed, server, strength) import and
parse their options, run as ``python -m bench.KIND.NAME`` from the
repository's root with no ``sys.path`` edits (issue 29, point 7): a script
that a refactoring broke fails here, not on the day someone measures."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
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
        assert name in ("bench.server.cluster_server", "bench.strength.compat")
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "usage:" in out.getvalue()


def test_arena_variants_set_what_they_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``club@...`` and ``search@...`` name lab players with those settings
    (the strength log's runs depend on it); a wrong key fails at once. The
    variants go to a copy of the lab's registry, gone after the test."""
    from skat.players import player_names, registry

    player_names(lab=True)  # the lab's own players, before the copy
    monkeypatch.setattr(registry, "_LAB", dict(registry._LAB))
    from bench.strength.arena_plays import variant

    from skat.players import make_player
    from skat.players.club import CARD_BUDGET, CARD_WORLDS, ClubPlayer
    from skat.players.search import SearchPlayer

    variant("club@worlds=8,tiebreak_worlds=2,floor=3")
    club = make_player("club@worlds=8,tiebreak_worlds=2,floor=3", lab=True)
    assert isinstance(club, ClubPlayer) and club.floor == 3.0
    assert (club.cards.settings.worlds, club.cards.settings.tiebreak_worlds) == (8, 2)
    assert club.cards.time_budget == CARD_BUDGET  # the clock kept
    assert club.cards.settings.early_tiebreak_worlds is None  # club's own setting kept
    variant("club@budget=0")
    unclocked = make_player("club@budget=0", lab=True)
    assert isinstance(unclocked, ClubPlayer)
    assert unclocked.cards.time_budget is None and unclocked.cards.settings.worlds == CARD_WORLDS
    variant("search@worlds=6,play_miss=0.1")
    search = make_player("search@worlds=6,play_miss=0.1", lab=True)
    assert isinstance(search, SearchPlayer)
    assert search.settings.worlds == 6 and search.settings.play_miss == 0.1
    from skat.players.handeval import CONTEST

    assert search.settings.contest == CONTEST  # the default bidding, lowered by what others bid
    for name in ("search@contest=None", "club@contest=None"):
        variant(name)
        made = make_player(name, lab=True)
        assert isinstance(made, (SearchPlayer, ClubPlayer))
        assert (
            made.settings if isinstance(made, SearchPlayer) else made
        ).contest == ()  # the bidding before 2026-12-05
    variant("club@forty=0")  # issue 53: a defender's 40 in the declarer's choices
    bold = make_player("club@forty=0", lab=True)
    assert isinstance(bold, ClubPlayer) and bold.forty == 0.0
    variant("search@forty=0.5")
    half = make_player("search@forty=0.5", lab=True)
    assert isinstance(half, SearchPlayer) and half.settings.forty == 0.5
    # issue 53, point 4: another seat model's file read by play_model
    from skat.players import seatmodel

    model_file = tmp_path / "seats.json"
    shipped = seatmodel.default()
    model_file.write_text(json.dumps(dict(shipped.data)))
    name = f"search@play_model=True,seat_model={model_file}"
    variant(name)
    reads = make_player(name, lab=True)
    assert isinstance(reads, SearchPlayer) and reads.settings.play_model
    assert reads.seat_model is not None and reads.seat_model is not shipped
    assert reads.seat_model.w1 == shipped.w1
    # and the auction read by another bid model's file
    from skat.players import bidmodel

    bids_file = tmp_path / "bids.json"
    bids_file.write_text(json.dumps(dict(bidmodel.default().data)))
    name = f"search@bid_model=True,bid_model_file={bids_file}"
    variant(name)
    bidding = make_player(name, lab=True)
    assert isinstance(bidding, SearchPlayer) and bidding.settings.bid_model
    assert bidding.bids is not None and bidding.bids is not bidmodel.default()
    with pytest.raises(ValueError, match=r"club@no_such_setting=1: .*no_such_setting"):
        variant("club@no_such_setting=1")
    with pytest.raises(ValueError, match=r"search@no_such_setting=1: .*no_such_setting"):
        variant("search@no_such_setting=1")


def _row(
    number: int,
    alone: int,
    who: int,
    seat: int | None,
    contract: str | None,
    won: bool,
    sf: list[int],
) -> dict[str, object]:
    owner = [who if s == alone else 1 - who for s in range(3)]
    kind = "game" if seat is not None else "passed"
    return {
        "number": number,
        "alone": alone,
        "who": who,
        "owner": owner,
        "kind": kind,
        "declarer_seat": seat,
        "contract": contract,
        "won": won,
        "seeger_fabian": sf,
    }


def test_the_breakdown_splits_a_paired_result_into_card_play_game_and_auction(
    tmp_path: Path,
) -> None:
    """Two deals, every arrangement: the two arrangements with the same lone
    seat pair as in duplicate; the parts add up to the paired result."""
    from bench.strength.arena_plays import PARTS, breakdown, per_deal, print_breakdown

    rows = [
        # deal 1, seat 0 declares spades both times: A wins it, B loses it
        _row(1, 0, 0, 0, "spades", True, [74, 0, 0]),
        _row(1, 0, 1, 0, "spades", False, [-138, 40, 40]),
        # seat 1 (A) declares Grand; with the seats swapped seat 2 (A) clubs
        _row(1, 1, 0, 1, "grand", True, [0, 96, 0]),
        _row(1, 1, 1, 2, "clubs", True, [0, 0, 60]),
        # thrown in; with the seats swapped A at seat 0 loses hearts
        _row(1, 2, 0, None, None, False, [0, 0, 0]),
        _row(1, 2, 1, 0, "hearts", False, [-110, 40, 40]),
        # deal 2, seat 0: A takes Grand Hand where B takes spades
        _row(2, 0, 0, 0, "grand hand", True, [96, 0, 0]),
        _row(2, 0, 1, 0, "spades", True, [60, 0, 0]),
        *(_row(2, s, w, None, None, False, [0, 0, 0]) for s in (1, 2) for w in (0, 1)),
    ]
    parts = breakdown(rows)
    card, game, auction, none = (parts[p] for p in PARTS)
    # A's entries minus B's, over nine seat-plays a deal, over two deals
    assert card["per_game"] == pytest.approx((74 + 138 + 40 + 40) / 9 / 2)
    assert (card["pairs"], card["a_won"], card["b_won"]) == (1, 1.0, 0.0)
    assert game["per_game"] == pytest.approx((96 - 60) / 9 / 2)
    assert auction["per_game"] == pytest.approx((96 + 60 - 110 + 40 - 40) / 9 / 2)
    assert (auction["pairs"], none["pairs"], none["per_game"]) == (2, 2, 0.0)
    log = tmp_path / "plays.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    deals = per_deal(log)
    total = sum(p["per_game"] for p in parts.values())
    assert total == pytest.approx(sum(deals.values()) / len(deals))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_breakdown(log)
    assert "declarer won: A 100.0%, B 0.0%" in out.getvalue()
    assert f"all: A - B {total:+.2f} a game" in out.getvalue()


def test_the_calibration_reads_every_declared_game_of_an_arena_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`bench.strength.calibration` (issue 53, point 2): every game a player
    declared in an arena log is judged by the evaluator at the stage it was
    chosen at (after the pickup: the ten kept, from the logged discard), and
    the report counts them all, by class and by predicted chance."""
    from bench.strength.arena_plays import plays
    from bench.strength.calibration import main

    from skat.players.arena import make_decks

    decks = make_decks(4, 7)
    rows = [
        row
        for n, deck in enumerate(decks, 1)
        for row in plays(("heuristic", "novice", [int(c) for c in deck], n, 7))
    ]
    log = tmp_path / "plays.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    games = [r for r in rows if r["kind"] == "game" and r["contract"] != "ramsch"]
    assert games
    pickups = [r for r in games if "hand" not in r["contract"].split()]
    assert all(len(r["put_away"]) == 2 for r in pickups)
    out = tmp_path / "report.json"
    assert main([str(log), "--seed", "7", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    counted = sum(report[w]["all"]["n"] for w in report)
    assert counted == len(games)
    for who in report:
        assert 0.0 <= report[who]["all"]["predicted"] <= 1.0
        assert sum(c["n"] for c in report[who]["by_predicted"].values()) == report[who]["all"]["n"]
    assert "| class | bids |" in capsys.readouterr().out
    # --curve: every suit game and Grand solved from its first card, by tier
    tiers = tmp_path / "curve.json"
    assert main([str(log), "--seed", "7", "--curve", "--json", str(tiers)]) == 0
    curve = json.loads(tiers.read_text())
    solved = [r for r in games if not r["contract"].startswith("null")]
    cells = [c for who in curve.values() for cls in who.values() for c in cls.values()]
    assert sum(c["n"] for c in cells) == len(solved)
    assert all(0.0 <= c["won"] <= 1.0 for c in cells)
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.jsonl"), "--seed", "7"])
