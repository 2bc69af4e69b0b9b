"""\"Could I have won?\": `skat analyse` and `skat.players.analysis` (issue 9, point 4).

The three games below were played perfectly (open cards) by every seat
except for one wrong card in trick 7; each verdict is checked against a
plain minimax over the engine (`tests/helpers/solver.py`), which shares no code
with the solver.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skat.cli import main
from skat.engine import Deal, GameType, deck_from_hands
from skat.engine.records import GameRecord, replay
from skat.players.analysis import analyse_deal
from tests.helpers.analysed import DECLARER_BLUNDER, DEFENDER_BLUNDER, NULL_BLUNDER
from tests.helpers.paths import ISS_FILE
from tests.helpers.solver import hand_deal, minimax


def _deal(data: dict[str, Any]) -> Deal:
    return replay(GameRecord.from_dict(data))


def _before_card(data: dict[str, Any], trick: int, index: int) -> Deal:
    """The game replayed up to card ``index`` (0..2) of ``trick``."""
    record = GameRecord.from_dict(data)
    deal = record.new_deal()
    cards = 0
    for seat, text in data["actions"]:  # type: ignore[union-attr]
        if text.startswith("play"):
            if cards == 3 * (trick - 1) + index:
                return deal
            cards += 1
        deal.apply_text(text, seat)
    raise AssertionError("the game is shorter")


def _verdict(deal: Deal, card: str, null: bool) -> bool:
    """Minimax over the engine: does the declarer win after ``card``?"""
    child = deal.clone()
    child.apply_text(f"play {card}")
    if null:
        return bool(minimax(child, "null"))
    return minimax(child, "points") >= 61


@pytest.mark.parametrize(
    ("data", "seat", "card", "better", "declarer_wins_before"),
    [
        (DEFENDER_BLUNDER, 1, "HK", "H8", False),
        (DECLARER_BLUNDER, 1, "H7", "HA", True),
        (NULL_BLUNDER, 1, "DA", "DJ", False),
    ],
    ids=["defender-suit", "declarer-grand", "defender-null"],
)
def test_the_turning_card(
    data: dict[str, Any], seat: int, card: str, better: str, declarer_wins_before: bool
) -> None:
    deal = _deal(data)
    a = analyse_deal(deal, str(data["id"]))
    null = deal.contract is not None and deal.contract.game == GameType.NULL
    assert a.can_win is declarer_wins_before
    assert a.turning_card is not None
    assert a.turning_card.to_dict() == {"seat": seat, "trick": 7, "card": card, "better": better}
    # independent check: four tricks left, plain minimax over the engine
    index = next(
        i for i in range(3) if str(deal.tricks[6].cards[i]) == card
    )  # the card's place in trick 7
    before = _before_card(data, 7, index)
    assert before.current_seat == seat
    assert _verdict(before, card, null) is not declarer_wins_before
    assert _verdict(before, better, null) is declarer_wins_before
    # one position per trick; the last one is the game as it ended
    assert [p["trick"] for p in a.positions] == list(range(1, len(deal.tricks) + 1))
    key = "declarer_can_win" if null else "best_declarer_points"
    if not null:
        assert deal.result is not None
        assert a.positions[-1][key] == deal.result.declarer_points
        flips = [p[key] >= 61 for p in a.positions]
        assert flips == [declarer_wins_before] * 7 + [not declarer_wins_before] * 3
    else:
        assert [p[key] for p in a.positions] == [False] * 7 + [True] * 3


def test_a_game_nothing_could_change_has_no_turning_card() -> None:
    """Four jacks, four aces and two tens (EX-18): the first legal card every time still wins."""
    deck = deck_from_hands(
        [
            "CJ SJ HJ DJ CA SA HA DA CT ST".split(),
            "HT DT CK SK HK DK CQ SQ HQ DQ".split(),
            "C9 S9 H9 D9 C8 S8 H8 D8 C7 S7".split(),
        ],
        ["H7", "D7"],
    )
    deal = hand_deal(deck, GameType.GRAND, 0)
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    a = analyse_deal(deal, "jacks")
    assert a.can_win is True
    assert a.turning_card is None
    assert a.positions[0] == {"trick": 1, "best_declarer_points": 120}
    assert "no card turned" in a.describe()


def test_games_without_trick_play_are_skipped() -> None:
    deal = Deal(list(range(32)))
    for _ in range(3):
        deal.apply_text("pass")
    assert deal.is_terminal()
    a = analyse_deal(deal, "thrown-in")
    assert a.to_dict() == {"id": "thrown-in", "skipped": "passed: thrown in"}


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout


def test_cli_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps([DEFENDER_BLUNDER, DECLARER_BLUNDER, NULL_BLUNDER]))
    code, out = _run("analyse", "--json", str(path))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == ["spades-8", "grand-55", "null-1"]
    assert rows[0]["turning_card"] == {"seat": 1, "trick": 7, "card": "HK", "better": "H8"}
    # every swing, with the outcome before and after it (issue 26, point 2)
    (swing,) = rows[0]["turning_cards"]
    assert swing == {
        "seat": 1,
        "trick": 7,
        "card": "HK",
        "better": "H8",
        "declarer_winning_before": False,
        "declarer_winning_after": True,
        "best_after": 63,
        "best_better": 59,
    }
    assert len(rows[0]["positions"]) == 10
    assert set(rows[0]["positions"][0]) == {"trick", "best_declarer_points"}
    assert set(rows[2]["positions"][0]) == {"trick", "declarer_can_win"}
    code, out = _run("analyse", str(path))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert "trick 7: seat 1 played H7" in lines[1]
    assert "could have made" not in out
    assert re.search(
        r"with best play on both sides the declarer would have made \d+ card points; "
        r"made \d+ \((won|lost)\)",
        lines[1],
    ), lines[1]
    assert "with best play on both sides the declarer " in lines[2] and "the Null; took" in lines[2]
    assert "HA would have kept the win" in lines[1]


def test_cli_a_list_record(tmp_path: Path) -> None:
    """A list record: one object per deal, Ramsch and thrown-in deals skipped with a note."""
    out_path = tmp_path / "list.json"
    seed = "ab" * 32
    args = ["random-list", str(out_path), "--deals", "6", "--seed", seed, "--rng", "3"]
    assert _run(*args, "--options", '{"all_pass": "ramsch", "kontra": true}')[0] == 0
    code, out = _run("analyse", "--json", str(out_path))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 6
    assert all(r["id"].endswith(f"-{i}") for i, r in enumerate(rows, 1))
    for r in rows:
        assert "skipped" in r or r["positions"][0]["trick"] == 1


@pytest.mark.slow
def test_cli_iss_records() -> None:
    code, out = _run("analyse", "--json", str(ISS_FILE))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 48 and all("id" in r for r in rows)
    played = [r for r in rows if "skipped" not in r]
    assert played and all(r["positions"] and r["positions"][0]["trick"] == 1 for r in played)
    assert any("skipped" in r for r in rows)


def test_cli_unreadable_file(tmp_path: Path) -> None:
    code, _ = _run("analyse", str(tmp_path / "missing.json"))
    assert code == 2  # unreadable input (skat -h: the exit statuses)


def _heuristic_games(count: int) -> list[Deal]:
    """Suit, Grand and Null games played by `heuristic` (which errs often
    enough for games with more than one swing)."""
    import random

    from skat.players import make_player
    from skat.players.loop import play_deal

    games: list[Deal] = []
    rng = random.Random(11)
    while len(games) < count:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = Deal(deck)
        players = [make_player("heuristic", random.Random(rng.random())) for _ in range(3)]
        result = play_deal(deal, players)
        if result.kind == "game" and deal.tricks:
            games.append(deal)
    return games


def test_every_swing_is_listed_and_they_alternate() -> None:
    """Issue 26, point 2: every card that changed the open-card outcome, for
    either side. The swings alternate (a declarer's loss given back by a
    defender's error), the first is `turning_card`, the last one's outcome is
    the game's result on the cards, and for suit and Grand the solver's best
    points after the card and after the better card lie on the two sides of
    the contract's target (an independent reckoning by `best_points`)."""
    several = 0
    for deal in _heuristic_games(24):
        a = analyse_deal(deal)
        swings = a.turning_cards
        assert (a.turning_card is None) is (not swings)
        if swings:
            assert a.turning_card is swings[0]
        state = a.can_win
        for s in swings:
            assert s.kept_win is state
            state = not state
        contract = deal.contract
        assert contract is not None and deal.result is not None
        if contract.game == GameType.NULL:
            assert state is (deal.result.declarer_tricks == 0)
            continue
        c = contract.normalised()
        target = 90 if c.schneider else 61
        if not c.schwarz and deal.result.ended == "played":
            assert state is (deal.result.declarer_points >= target)
        for s in swings:
            assert s.best_after is not None and s.best_better is not None
            if s.kept_win and not c.schwarz:  # the card threw the declarer's win away
                assert s.best_after < target <= s.best_better
            elif not c.schwarz:  # the card gave the declarer the game
                assert s.best_better < target <= s.best_after
        out = a.to_dict()
        assert [t["card"] for t in out["turning_cards"]] == [s.card for s in swings]
        several += len(swings) > 1
    assert several > 0, "no game with two swings: the test checks too little"


def test_the_board_steps_through_every_card_with_the_solvers_values() -> None:
    """Issue 26, point 1: the analysis board of a deal, card by card. Each
    step's values chain (the value after a card is the value before the
    next), the card played is one of the alternatives with the value after
    it, the best alternative is listed first for the player to move, hands
    shrink by the card played, and the swings are the analysis's."""
    from skat.players.analysis import deal_board

    for data in (DEFENDER_BLUNDER, DECLARER_BLUNDER, NULL_BLUNDER):
        deal = _deal(data)
        board = deal_board(deal, str(data["id"]))
        steps = board["steps"]
        assert len(steps) == 30
        null = board["null"]
        first = board["start"]
        assert steps[0]["before"] == (
            int(first["declarer_can_win"]) if null else first["best_declarer_points"]
        )
        for k, s in enumerate(steps):
            values = {a["card"]: a["value"] for a in s["alternatives"]}
            assert values[s["card"]] == s["after"]
            mover_is_declarer = s["seat"] == board["declarer_seat"]
            best = max(values.values()) if mover_is_declarer else min(values.values())
            assert s["alternatives"][0]["value"] == best
            assert sum(len(h) for h in s["hands"].values()) == 30 - k
            assert s["card"] in s["hands"][str(s["seat"])]
            if k + 1 < len(steps):
                assert steps[k + 1]["before"] == s["after"]
        analysis = analyse_deal(deal)
        swings = [(s["trick"], s["card"]) for s in steps if s["swing"]]
        assert swings == [(t.trick, t.card) for t in analysis.turning_cards]
        assert swings, "each of these games has its wrong card in trick 7"
        assert board["verdict"]["turning_cards"][0]["trick"] == 7
        assert [a for a in board["auction"] if a[1].startswith("announce")]
