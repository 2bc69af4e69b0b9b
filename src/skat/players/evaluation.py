"""Hand evaluation shared by the computer players (views only, no hidden cards)."""

from __future__ import annotations

from ..engine.cards import JACKS, SUIT_MASKS
from ..engine.game import BASE_VALUE, TRUMPS, GameType
from ..engine.values import matadors

SUITS = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)


def trump_count(hand: int, game: GameType) -> int:
    return (hand & TRUMPS[game]).bit_count()


def best_suit(hand: int) -> GameType:
    """The suit with the most trumps (jacks + suit cards), ties to the higher card points."""
    return max(SUITS, key=lambda g: (trump_count(hand, g), g == GameType.CLUBS, -int(g)))


def plain_value(hand: int, game: GameType) -> int:
    """(matadors + 1) x base for this hand alone: the value a bidder can count on
    (R5), treating the unseen skat as holding no trump."""
    return (abs(matadors(game, hand)) + 1) * BASE_VALUE[game]


def jack_count(hand: int) -> int:
    return (hand & JACKS).bit_count()


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit] & ~JACKS).bit_count()
