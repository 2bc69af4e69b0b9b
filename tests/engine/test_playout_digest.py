"""The engine's answers on many random deals, pinned (issue 52, playouts).

The playout hot path (`Deal.__init__`, `legal_actions`, `apply`, the auction,
the trick play and the settlement) is tuned for speed; these tests hold what
a user of the engine sees to what it was before the tuning: every legal
action list, every accepted action and every result of 1,050 random
deals under several house rules (the digest below was recorded with the code
before issue 52's playout work), and the rejections of bad decks.
"""

from __future__ import annotations

import hashlib
import random
from typing import Literal

import pytest

from skat.engine import Contract, Deal, GameType, Rules
from skat.engine.actions import KONTRA
from skat.engine.errors import InvalidCardError

#: sha256 of the playouts below, recorded with the engine before the tuning.
GOLDEN = "6f34f369112b30dec02d402bd55a81fe40ad209a22f4126a0d36bd9dc2bbf828"

RULES = (
    Rules(),
    Rules(all_pass="ramsch"),
    Rules(kontra=True),
    Rules(kontra=True, kontra_window="first_lead", kontra_requires_bid=True),
    Rules(kontra=True, kontra_window="trick_one", enforce_reachable_announcement=True),
    Rules(players=4, all_pass="ramsch", schieberamsch=True, max_matadors=4),
    Rules(announce_before_discard=True, claim_levels="taken"),
)


def playout_digest(deals_per_rules: int = 150, seed: int = 52) -> str:
    """Uniformly random deals, as `skat.bench.playouts` plays them, with
    off-turn Kontras (R9.3) where a table plays them and now and then a
    claim, a concession or a refusal (R6.6), hashed."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    for rules in RULES:
        deck = list(range(32))
        for i in range(deals_per_rules):
            rng.shuffle(deck)
            dealer = i % rules.players
            deal = Deal(deck, rules=rules, dealer=dealer, bock_factor=1 + i % 2)
            while not deal.is_terminal():
                for seat in deal.kontra_seats():
                    if rng.random() < 0.2:
                        deal.apply(KONTRA, seat)
                        break
                mover = deal.current_seat
                offers = deal.offers(mover) if mover is not None else ()
                if offers and rng.random() < 0.03:  # a claim, a concession, a refusal (R6.6)
                    deal.apply(offers[rng.randrange(len(offers))], mover)
                    continue
                legal = deal.legal_actions()
                h.update(" ".join(map(str, legal)).encode())
                deal.apply(legal[rng.randrange(len(legal))])
            h.update(" ".join(f"{s}:{a}" for s, a in deal.history).encode())
            h.update(repr(deal.result).encode())
    return h.hexdigest()


def test_random_playouts_give_the_recorded_answers() -> None:
    assert playout_digest() == GOLDEN


BAD_DECKS = [
    list(range(31)),  # a card short
    [*range(32), 0],  # a card too many
    [0, *range(31)],  # CA twice, D7 missing
    [*range(31), 32],  # no card 32
    [-1, *range(1, 32)],  # a negative card
    [*range(31), "CA"],  # CA twice, once by name
]


@pytest.mark.parametrize("deck", BAD_DECKS)
def test_a_bad_deck_is_refused_with_the_reason(deck: list[object]) -> None:
    with pytest.raises(ValueError, match="each of the 32 cards exactly once"):
        Deal(deck)  # type: ignore[arg-type]


def test_a_deck_with_a_non_card_names_it() -> None:
    with pytest.raises(InvalidCardError, match="not a card: None"):
        Deal([*range(31), None])  # type: ignore[list-item]


def test_a_deck_of_names_deals_as_its_numbers() -> None:
    rng = random.Random(7)
    deck = list(range(32))
    rng.shuffle(deck)
    names = [str(Deal(deck).deck[i]) for i in range(32)]
    by_name, by_number = Deal(names), Deal(deck)
    assert by_name.deck == by_number.deck
    for seat in range(3):
        assert by_name.hand(seat) == by_number.hand(seat)


@pytest.mark.parametrize("players", [3, 4])
def test_forehand_sits_left_of_every_dealer(players: Literal[3, 4]) -> None:
    for dealer in range(players):
        deal = Deal(list(range(32)), rules=Rules(players=players), dealer=dealer)
        seats = [deal.seat_of(p) for p in range(3)]
        assert seats == [(dealer + 1 + p) % players for p in range(3)]  # R1.4
        assert [deal.position_of(s) for s in seats] == [0, 1, 2]
        assert (deal.position_of(dealer) is None) == (players == 4)
        assert deal.current_seat == seats[1]  # middlehand speaks first (R2.2)


@pytest.mark.parametrize("game", list(GameType), ids=str)
def test_normalised_contracts_follow_r3_4(game: GameType) -> None:
    for flags in range(16):
        hand, schneider, schwarz, ouvert = (bool(flags >> i & 1) for i in range(4))
        c = Contract(game, hand, schneider, schwarz, ouvert)
        n = c.normalised()
        if game in (GameType.NULL, GameType.RAMSCH):
            assert n == c
            continue
        assert n == Contract(
            game,
            hand or schneider or schwarz or ouvert,
            schneider or schwarz or ouvert,
            schwarz or ouvert,
            ouvert,
        )
        assert n.normalised() == n
