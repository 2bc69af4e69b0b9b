"""The skat rules engine: pure, standard library only (SKAT-RULES.md).

Curated public API::

    from skat.engine import Deal, Rules, Card, parse_action
    deal = Deal(deck)                 # a permutation of the 32 cards (R1.5)
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    deal.result.seeger_fabian
"""

from .actions import (
    Abandon,
    Action,
    Announce,
    Bid,
    Claim,
    Concede,
    Discard,
    Hold,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Pickup,
    Play,
    Re,
    parse_action,
)
from .cards import Card, CardSet, parse_cards
from .deal import Deal, deck_from_hands
from .errors import IllegalActionError, Reason
from .game import Contract, GameType, Rules, sorted_cards
from .records import GameRecord, replay
from .state import DealResult, Phase, Trick
from .values import BID_VALUES, Valuation, matadors, value_game
from .views import View

__all__ = [
    "BID_VALUES",
    "Abandon",
    "Action",
    "Announce",
    "Bid",
    "Card",
    "CardSet",
    "Claim",
    "Concede",
    "Contract",
    "Deal",
    "DealResult",
    "Discard",
    "GameRecord",
    "GameType",
    "Hold",
    "IllegalActionError",
    "Kontra",
    "NoKontra",
    "NoRe",
    "Pass",
    "Phase",
    "Pickup",
    "Play",
    "Re",
    "Reason",
    "Rules",
    "Trick",
    "Valuation",
    "View",
    "deck_from_hands",
    "matadors",
    "parse_action",
    "parse_cards",
    "replay",
    "sorted_cards",
    "value_game",
]
