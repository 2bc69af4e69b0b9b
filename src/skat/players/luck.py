"""Luck apart from play (issue 48, point 2; docs/players.md, "Luck and
play"): what a seat's cards promised in a finished deal, by the learned
hand evaluator (`handeval`), against the Seeger-Fabian entry it made.

- ``dealt``: what the ten dealt cards promised the seat as a declarer, its
  best game (pickup or Hand) at no bid, or 0 (passing) when none promises
  more: the hand as it was dealt.
- ``promised``: what the cards promised in the role the deal gave the seat,
  the figure ``play`` is measured from:

  - the declarer: after the skat, the best discard of its twelve cards with
    its best game (`handeval.put_aways`), or for a Hand game the best Hand
    game of its ten: its own entry's expectation (R8.2: won, the value and
    50; lost, twice the value and 50, the value times the Bock factor);
  - a defender: the defenders' bonus (40 at three players, 30 at four:
    R8.2) times the chance that the declarer's cards, so valued, lose;
  - no game (thrown in: 0), Ramsch (the evaluator knows none), an abandoned
    deal or the dealer sitting out at four: what was made, so that these
    deals add nothing to ``play``.

- ``made``: the seat's Seeger-Fabian entry of the deal (Kontra, Re and Bock
  included: saying Kontra is a decision).
- ``play`` = ``made`` - ``promised``.

The promise is of the cards alone, never of a choice: the bid reached, the
discard made and the game announced are the seat's decisions, which the
review judges one by one (`review.py`). The figures are the evaluator's, a
model of a hand's chances: over one deal they are rough, over a list the
cards' part and the play's part come apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Deal, GameType, Rules
from ..engine.cards import POINTS, mask_cards
from ..engine.values import seeger_fabian_others
from .handeval import GAMES, Chances, Evaluator, considered, expected_result, game_value
from .handeval import default as default_evaluator


@dataclass(frozen=True)
class Luck:
    """What one seat's cards promised in one deal, and what it made."""

    deal: int
    seat: int
    role: str  # declarer, defender, or none (thrown in, Ramsch, abandoned, sitting out)
    dealt: float
    skat: float | None  # the declarer's promise after the skat (None: not the declarer)
    promised: float
    made: int

    @property
    def play(self) -> float:
        return self.made - self.promised

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "seat": self.seat,
            "role": self.role,
            "dealt": round(self.dealt, 1),
            "skat": None if self.skat is None else round(self.skat, 1),
            "promised": round(self.promised, 1),
            "made": self.made,
            "play": round(self.play, 1),
        }


def _best(
    ev: Evaluator, hand: int, position: int, stage: str, rules: Rules, bock: int
) -> tuple[float, Chances] | None:
    """The best game of the ten cards ``hand`` at ``stage`` (pickup or
    hand): its expected entry and its chances; None: no game considered."""
    best: tuple[float, Chances] | None = None
    for game in GAMES:
        if not considered(hand, game):
            continue
        ch = ev.chances(hand, game, position, stage)
        value = game_value(game, hand, hand=stage == "hand", rules=rules) * bock
        score = expected_result(ch, game, value, 0, 0.0)
        if best is None or score > best[0]:
            best = (score, ch)
    return best


def _after_skat(
    ev: Evaluator, cards12: int, position: int, rules: Rules, bock: int
) -> tuple[float, Chances] | None:
    """The best discard of the twelve cards with its best game: its
    expected entry and its chances; None: no game considered."""
    best: tuple[float, Chances] | None = None
    cards = mask_cards(cards12)
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            kept = cards12 & ~((1 << a) | (1 << b))
            pts = POINTS[a] + POINTS[b]
            for game in GAMES:
                if not considered(kept, game, counted=True):
                    continue
                ch = ev.chances(kept, game, position, "counted", pts)
                value = game_value(game, cards12, rules=rules) * bock
                score = expected_result(ch, game, value, 0, 0.0)
                if best is None or score > best[0]:
                    best = (score, ch)
    return best


def _lost(game: GameType, cards: int, hand: bool, rules: Rules, bock: int) -> tuple[float, Chances]:
    """No game considered: the declared game as good as lost."""
    value = game_value(game, cards, hand=hand, rules=rules) * bock
    return expected_result(Chances(0.0, 0.0), game, value, 0, 0.0), Chances(0.0, 0.0)


def promise(deal: Deal, seat: int, number: int = 1, evaluator: Evaluator | None = None) -> Luck:
    """What ``seat``'s cards promised in the finished ``deal`` against what
    it made (the module's docstring). ValueError for a deal not over or a
    seat not at the table."""
    r = deal.result
    if r is None:
        raise ValueError("the deal is not over")
    if not 0 <= seat < deal.players:
        raise ValueError(f"seat {seat} is not at this table")
    ev = evaluator or default_evaluator()
    made = r.seeger_fabian[seat]
    position = deal.position_of(seat)
    if position is None:  # the dealer sitting out at four
        return Luck(number, seat, "none", 0.0, None, float(made), made)
    rules, bock = deal.rules, deal.bock_factor
    hand10 = deal.dealt_hand(position).mask
    dealt = max(
        [0.0]
        + [
            got[0]
            for stage in ("pickup", "hand")
            if (got := _best(ev, hand10, position, stage, rules, bock)) is not None
        ]
    )
    if r.kind == "passed":
        return Luck(number, seat, "none", dealt, None, 0.0, made)
    contract = r.contract
    if r.kind != "game" or contract is None or r.declarer is None:
        return Luck(number, seat, "none", dealt, None, float(made), made)
    d_pos = r.declarer
    d_hand = deal.dealt_hand(d_pos).mask
    if contract.hand:
        got = _best(ev, d_hand, d_pos, "hand", rules, bock)
        declarer = got or _lost(contract.game, d_hand, True, rules, bock)
    else:
        cards12 = d_hand | deal.dealt_skat.mask
        got = _after_skat(ev, cards12, d_pos, rules, bock)
        declarer = got or _lost(contract.game, cards12, False, rules, bock)
    if d_pos == position:
        return Luck(number, seat, "declarer", dealt, declarer[0], declarer[0], made)
    bonus = seeger_fabian_others(False, deal.players)
    return Luck(number, seat, "defender", dealt, None, bonus * (1 - declarer[1].win), made)


__all__ = ["Luck", "promise"]
