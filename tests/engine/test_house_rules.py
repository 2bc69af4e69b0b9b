"""A house rule that changes a game's value (issue 50, point 3): matadors
counted at most `Rules.max_matadors` (docs/rules-decisions.md, "Matadors
counted at most"). The ISkO counts every matador (R5.2); the rule is valued
through the one seam every valuation takes: `value_game(..., rules=...)`."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from skat.engine import Card, Contract, Deal, GameType, Rules, deck_from_hands
from skat.engine.iss import to_iss
from skat.engine.reckoner import reckon
from skat.engine.records import GameRecord
from skat.engine.values import matadors, reachable_max, value_game
from skat.players import make_player, play_deal
from skat.series import ListOptions

#: Forehand: every jack and six clubs, "with 10" in Clubs, "with 4" in Grand.
HANDS = [
    "CJ SJ HJ DJ CA CT CK CQ C9 C8".split(),
    "SA ST SK SQ S9 S8 S7 HA HT HK".split(),
    "HQ H9 H8 H7 DA DT DK DQ D9 D8".split(),
]
SKAT = ["C7", "D7"]


def _mask(cards: list[str]) -> int:
    return sum(1 << int(Card.parse(c)) for c in cards)


def test_the_cap_counts_at_most_that_many_matadors_with_or_without() -> None:
    cards12 = _mask(HANDS[0] + SKAT)
    capped = Rules(max_matadors=4)
    assert matadors(GameType.CLUBS, cards12) == 11
    assert matadors(GameType.CLUBS, cards12, capped) == 4
    # "without 4" stays "without 4"; "without 6" counts as "without 4"
    without6 = _mask("CA CT CK CQ C9 S7 S8 S9 H7 H8 D7 D8".split())
    assert matadors(GameType.CLUBS, without6) == -4
    without = _mask("DA CT CK CQ C9 S7 S8 S9 H7 H8 D7 D8".split())
    assert matadors(GameType.CLUBS, without) == -5
    assert matadors(GameType.CLUBS, without, capped) == -4
    # with 11, game 12 x 12 = 144 by the ISkO; "with 4, game 5" x 12 = 60 capped
    clubs = Contract(GameType.CLUBS)
    assert value_game(clubs, 18, 61, 5, cards12).value == 144
    assert value_game(clubs, 18, 61, 5, cards12, rules=capped).value == 60
    assert value_game(clubs, 18, 61, 5, cards12, rules=Rules()).value == 144
    assert reachable_max(GameType.CLUBS, cards12, capped) == 7 * 12  # with 4, Schneider, Schwarz
    assert reckon("clubs", cards=" ".join(HANDS[0] + SKAT), rules=capped).valuation.value == 60


@pytest.mark.parametrize("bad", [0, -1, True, 4.0, "4"])
def test_the_cap_is_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(ValueError, match="max_matadors"):
        Rules(max_matadors=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_matadors"):
        ListOptions(max_matadors=bad)  # type: ignore[arg-type]
    assert ListOptions(max_matadors=4).deal_rules().max_matadors == 4
    assert ListOptions().deal_rules().max_matadors is None


def test_a_deal_under_the_cap_is_settled_by_it_and_stays_out_of_iss() -> None:
    """A list with the option settles its games by the cap (the sheet's
    entries come from the deal's result); an ISS record cannot carry it."""
    values = {}
    for cap in (None, 2):
        deal = Deal(deck_from_hands(HANDS, SKAT), rules=Rules(max_matadors=cap))
        players = [make_player("heuristic", random.Random(s)) for s in range(3)]
        result = play_deal(deal, players)
        assert result.kind == "game" and result.valuation is not None
        assert result.declarer_seat == deal.seat_of(0)
        values[cap] = (result.valuation.matadors, result.valuation.value, result.contract)
        record = GameRecord.from_deal(deal)
        if cap is None:
            assert to_iss(record)
        else:
            with pytest.raises(ValueError, match=r"house rules.*max_matadors"):
                to_iss(record)
    (m0, v0, c0), (m2, v2, c2) = values[None], values[2]
    assert c0 == c2 and m0 >= 4 and m2 == 2 and v2 < v0


def test_skat_value_takes_the_rules() -> None:
    cmd = [sys.executable, "-m", "skat", "value", "clubs", "--cards", " ".join(HANDS[0])]
    capped = subprocess.run(
        [*cmd, "--rules", json.dumps({"max_matadors": 4}), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(capped.stdout)["value"] == 60
    bad = subprocess.run([*cmd, "--rules", "[4]"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "BAD_RULES" in bad.stderr
