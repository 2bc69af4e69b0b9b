"""``skat play``: a game of Skat in the terminal against two computer players.

The human sits in seat 0 ("You"); the computer players sit to the left
(seat 1, who plays after you) and to the right (seat 2). Everything the game
shows comes from the human's view, ``deal.view(0)`` (SKAT-RULES.md R3.7): the
other hands and the skat stay hidden until the deal is over, only played
cards and the declarer's open cards in Ouvert games are shown. The list is a
real `Series` with a committed seed, so a list can be replayed with
``--seed``.

`run_game` is the testable core: it reads answers line by line from any text
source and writes to a rich `Console` (colours only where the console has
them, so output stays plain when it is piped or captured).

The modules: `words` (cards, the menu, typed answers as actions), `draw`
(what the person sees) and `game` (the loop and the person's turn).
"""

from __future__ import annotations

from .draw import Screen
from .game import (
    QUIT_WORDS,
    SEAT_NAMES,
    GameOutcome,
    LineSource,
    QuitGame,
    TerminalGame,
    bot_rng,
    run_game,
)
from .words import (
    BIDS_SHOWN,
    RANK_LABELS,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_STYLES,
    SUIT_SYMBOLS,
    BadInput,
    Choice,
    action_markup,
    card_markup,
    card_text,
    cards_markup,
    choices,
    discard_cards,
    hand_order,
    interpret,
    parse_card_word,
)

__all__ = [
    "BIDS_SHOWN",
    "QUIT_WORDS",
    "RANK_LABELS",
    "SEAT_NAMES",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "SUIT_STYLES",
    "SUIT_SYMBOLS",
    "BadInput",
    "Choice",
    "GameOutcome",
    "LineSource",
    "QuitGame",
    "Screen",
    "TerminalGame",
    "action_markup",
    "bot_rng",
    "card_markup",
    "card_text",
    "cards_markup",
    "choices",
    "discard_cards",
    "hand_order",
    "interpret",
    "parse_card_word",
    "run_game",
]
