"""Kontra offered to every seat that may say it (issue 13 point 3).

R9.3's default window (``own_first_card``) lets a defender say Kontra at any
moment until his own first card, not only on his turn: the engine lists the
seats that may say it now (`Deal.kontra_seats`) and the game loop asks each
of them (`offturn_decision`) before the seat to move acts.
"""

from __future__ import annotations

import random

import pytest

from skat.engine import (
    Action,
    Card,
    Deal,
    IllegalActionError,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Phase,
    Re,
    Rules,
    View,
    deck_from_hands,
    parse_action,
)
from skat.players import PlayerError, ScriptedPlayer, make_player, offturn_decision, play_deal
from skat.players.heuristic import HeuristicPlayer
from skat.series.shuffle import deal_deck

# Forehand plays a thin Diamonds Hand game; rearhand holds the three top
# jacks, two diamonds and four aces and tens: a Kontra hand (R9.3).
FOREHAND = "DJ DK DQ D9 D8 D7 HA HK S7 C7".split()
MIDDLEHAND = "CK CQ C9 C8 SK SQ S9 S8 HQ H9".split()
REARHAND = "CJ SJ HJ DA DT CA CT SA ST HT".split()
SKAT = ["H8", "H7"]


def _deck() -> list[Card]:
    return deck_from_hands([FOREHAND, MIDDLEHAND, REARHAND], SKAT)


def _announced(rules: Rules) -> Deal:
    """Middlehand and rearhand pass, forehand bids 18 and announces Diamonds Hand."""
    deal = Deal(deck_from_hands([FOREHAND, MIDDLEHAND, REARHAND], SKAT), rules=rules)
    for seat, text in ((1, "pass"), (2, "pass"), (0, "bid 18"), (0, "announce diamonds hand")):
        deal.apply(parse_action(text), seat)
    return deal


class _Auction(HeuristicPlayer):
    """The heuristic with a fixed auction (so that the deal is the one above)."""

    def __init__(self, auction: list[str]) -> None:
        super().__init__(random.Random(1))
        self.auction = [parse_action(a) for a in auction]

    def choose(self, view: View) -> Action:
        if view.phase in (Phase.BIDDING, Phase.SKAT) and self.auction:
            return self.auction.pop(0)
        return super().choose(view)


# ------------------------------------------------------------------ engine
def test_kontra_seats_lists_every_defender_until_his_first_card() -> None:
    deal = _announced(Rules(kontra=True))
    assert deal.phase is Phase.PLAY and deal.current_seat == 0
    assert deal.kontra_seats() == (1, 2)  # both defenders, though forehand is to lead
    for seat in (1, 2):
        assert Kontra() in deal.legal_actions(seat)
    deal.apply(parse_action("play S7"), 0)
    deal.apply(parse_action("play SK"), 1)  # middlehand's first card closes his window
    assert deal.kontra_seats() == (2,)
    with pytest.raises(IllegalActionError):
        deal.apply(Kontra(), 1)
    deal.apply(Kontra(), 2)  # rearhand, before his own first card
    assert deal.kontra_seats() == ()  # said once; Re is the declarer's turn now
    assert deal.current_seat == 0 and set(deal.legal_actions()) == {Re(), NoRe()}


def test_kontra_seats_is_empty_without_kontra_and_outside_the_window() -> None:
    assert _announced(Rules()).kontra_seats() == ()
    assert Deal(_deck()).kontra_seats() == ()  # the auction
    # first_lead: the defenders are asked in turn before the first card; after it, nobody
    deal = _announced(Rules(kontra=True, kontra_window="first_lead"))
    assert deal.phase is Phase.KONTRA and deal.kontra_seats() == (1, 2)
    deal.apply(NoKontra(), deal.current_seat)
    deal.apply(NoKontra(), deal.current_seat)
    assert deal.phase is Phase.PLAY and deal.kontra_seats() == ()
    # trick_one: until the first trick is complete
    deal = _announced(Rules(kontra=True, kontra_window="trick_one"))
    for text in ("play S7", "play SK", "play SA"):
        assert deal.kontra_seats() == (1, 2)
        deal.apply(parse_action(text), deal.current_seat)
    assert deal.kontra_seats() == ()


# ------------------------------------------------------------------ loop
class _KontraAfterLead(ScriptedPlayer):
    """Scripted, and says Kontra off-turn once it has seen the first card led."""

    def __init__(self, actions: list[str]) -> None:
        super().__init__(actions)
        self.asked: list[int] = []

    def offturn(self, view: View) -> Action | None:
        assert view.legal_actions == (Kontra(),)
        self.asked.append(len(view.trick))
        return Kontra() if view.trick else None


def test_the_loop_asks_a_defender_off_turn_before_the_seat_to_move() -> None:
    deal = _announced(Rules(kontra=True))
    forehand = ScriptedPlayer(["play S7", "no_re"])
    middlehand = ScriptedPlayer(["play SK"])
    rearhand = _KontraAfterLead(["play SA"])
    seen: list[tuple[int, str]] = []
    with pytest.raises(RuntimeError, match="exhausted"):  # the scripts end after trick one
        play_deal(
            deal,
            [forehand, middlehand, rearhand],
            on_action=lambda d, s, a: seen.append((s, str(a))),
        )
    # rearhand said Kontra after forehand's lead, before middlehand played
    assert seen[:5] == [(0, "play S7"), (2, "kontra"), (0, "no_re"), (1, "play SK"), (2, "play SA")]
    assert rearhand.asked == [0, 1]  # asked before the lead (declined), then after it
    assert deal.view(1).kontra


def test_players_without_offturn_are_never_asked_and_a_bad_answer_is_refused() -> None:
    deal = _announced(Rules(kontra=True))
    assert offturn_decision(deal, [None, ScriptedPlayer([]), ScriptedPlayer([])]) is None

    class Wrong(ScriptedPlayer):
        def offturn(self, view: View) -> Action | None:
            return Pass()

    with pytest.raises(PlayerError, match="off-turn"):
        offturn_decision(deal, [None, Wrong([]), None])


def test_heuristic_says_kontra_before_its_own_turn() -> None:
    deal = Deal(_deck(), rules=Rules(kontra=True))
    players = [
        _Auction(["bid 18", "announce diamonds hand"]),
        _Auction(["pass"]),
        _Auction(["pass"]),
    ]
    result = play_deal(deal, players)
    history = [(s, str(a)) for s, a in deal.history]
    said = history.index((2, "kontra"))
    first_card = {
        s: next(i for i, (t, a) in enumerate(history) if t == s and a.startswith("play"))
        for s in (0, 1, 2)
    }
    # rearhand said it before any card of its own and before middlehand's first card:
    # off its turn, since forehand was to lead
    assert said < first_card[0] < first_card[1] < first_card[2]
    assert result.kontra and result.won is False  # and it paid: the declarer lost
    # a weak defender keeps quiet: middlehand was asked too and never said it
    assert all(a != "kontra" for s, a in history if s == 1)


def test_bots_say_kontra_off_turn_in_whole_deals() -> None:
    rules = Rules(kontra=True)
    off_turn = on_turn = 0
    for k in range(80):
        deal = Deal(deal_deck(bytes([k]) * 32, 1), rules=rules)
        players = [make_player("heuristic", random.Random(s)) for s in range(3)]
        log: list[tuple[int | None, int, Action]] = []

        def apply(action: Action, seat: int, deal: Deal = deal, log: list[object] = log) -> None:
            log.append((deal.current_seat, seat, action))
            deal.apply(action, seat)

        play_deal(deal, players, apply=apply)
        for current, seat, action in log:
            if isinstance(action, Kontra):
                off_turn += current != seat
                on_turn += current == seat
    assert off_turn >= 1  # said while another seat was to move
