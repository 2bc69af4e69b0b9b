"""Hand-made deals several test modules use (written seat by seat, the
dealer at seat 2 so that seat 0 is forehand)."""

from __future__ import annotations

from skat.engine import Deal, parse_action
from skat.engine.deal import deck_from_hands

#: Forehand holds all four jacks and six clubs (ten matadors): Clubs Hand
#: cannot be stopped; the skat that goes with it is C7 D7.
FOUR_JACKS_SIX_CLUBS = [
    ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8"],
    ["SA", "ST", "SK", "SQ", "S9", "S8", "HA", "HT", "HK", "HQ"],
    ["H9", "H8", "DA", "DT", "DK", "DQ", "D9", "D8", "S7", "H7"],
]

#: Forehand holds one jack and nothing else: no game of his wins (the claims'
#: refusals); the skat that goes with it is DA DT.
WEAK = [
    ["CJ", "S7", "S8", "H7", "H8", "D7", "D8", "C7", "C8", "S9"],
    ["SJ", "HJ", "CA", "CT", "CK", "CQ", "SK", "SQ", "HK", "HQ"],
    ["DJ", "C9", "SA", "ST", "H9", "HA", "DK", "DQ", "D9", "HT"],
]


def declared_hand(hands: list[list[str]], skat: list[str], game: str) -> Deal:
    """The deal of ``hands`` with forehand (seat 0) declarer of ``game``
    Hand at 18, the others having passed: ready for the first card."""
    deal = Deal(deck_from_hands(hands, skat))
    deal.apply(parse_action("pass"), seat=1)
    deal.apply(parse_action("pass"), seat=2)
    deal.apply(parse_action("bid 18"), seat=0)
    deal.apply(parse_action(f"announce {game} hand"), seat=0)
    return deal
