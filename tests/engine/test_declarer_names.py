"""One meaning per word: the declarer's seat and position (R1.4), which
differ whenever the dealer is not the last seat."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skat.cli import main
from skat.engine import Announce, Bid, Contract, Deal, GameType, Pass, Phase, Rules
from skat.engine.actions import PICKUP
from skat.engine.records import GameRecord

# Four players, seat 1 deals and sits out: forehand is seat 2, middlehand
# seat 3, rearhand seat 0 (R1.4).
RULES = Rules(players=4)
DEALER = 1


def _declared_by_middlehand() -> Deal:
    deal = Deal(list(range(32)), rules=RULES, dealer=DEALER)
    assert [deal.seat_of(p) for p in range(3)] == [2, 3, 0]
    deal.apply(Bid(18), seat=3)  # middlehand bids to forehand (R2.2)
    deal.apply(Pass(), seat=2)
    deal.apply(Pass(), seat=0)
    return deal


def test_deal_names_seat_and_position_apart() -> None:
    deal = _declared_by_middlehand()
    assert deal.phase is Phase.SKAT
    # The declarer is to move: current_seat is a seat, so is declarer_seat.
    assert deal.current_seat == deal.declarer_seat == 3
    assert deal.declarer_position == 1 == deal.position_of(3)
    # `declarer` is the documented alias of the position, not a seat.
    assert deal.declarer == deal.declarer_position != deal.current_seat


def _announced_grand() -> Deal:
    deal = _declared_by_middlehand()
    deal.apply(PICKUP, seat=3)
    deal.apply(deal.legal_actions(3)[0], seat=3)  # a discard
    deal.apply(Announce(Contract(GameType.GRAND)), seat=3)
    return deal


def _play_out(deal: Deal) -> None:
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])


def test_result_and_views_name_seat_and_position_apart() -> None:
    deal = _announced_grand()
    for seat in (None, 0, 1, 2, 3):
        view = deal.view(seat)
        assert (view.declarer_seat, view.declarer_position) == (3, 1)
        assert view.seats[view.declarer_position] == view.declarer_seat
    _play_out(deal)
    r = deal.result
    assert r is not None
    assert (r.declarer_seat, r.declarer_position, r.declarer) == (3, 1, 1)
    # entries are per seat: the declarer's score sits at his seat, the dealer scores 0
    assert r.plain[r.declarer_seat] == r.score != 0
    assert r.plain[DEALER] == 0
    # tricks name positions
    assert sum(1 for t in deal.tricks if t.winner == r.declarer_position) == r.declarer_tricks


def test_replay_json_gives_both() -> None:
    deal = _announced_grand()
    _play_out(deal)
    record = json.dumps(GameRecord.from_deal(deal, id="t").to_dict())
    result = CliRunner().invoke(main, ["replay", "-"], input=record)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["declarer_seat"], out["declarer_position"], out["declarer"]) == (3, 1, 1)
    assert out["plain"][out["declarer_seat"]] == out["score"]
    assert out["seeger_fabian"][DEALER] != 0 or out["won"]  # R8.2: the dealer gets the 30 too
