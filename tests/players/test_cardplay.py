"""`CardPlay`, `heuristic`'s card rules: the shortcuts the play inference
takes (a public part read once, a master found by a mask) choose what the
plain reading chooses."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skat.engine import Deal, GameType, Phase
from skat.engine.game import EFFECTIVE, SUIT_OF, TRICK_KEY
from skat.players import make_player
from skat.players.cardplay import CardPlay
from skat.players.worlds import Knowledge, Sampler, seat_view


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(list(GameType)),
    outside=st.integers(0, (1 << 32) - 1),
    card=st.integers(0, 31),
)
def test_a_master_is_a_card_nothing_outside_reaches_when_its_suit_is_led(
    game: GameType, outside: int, card: int
) -> None:
    """`is_master`: no card outside (with the others or in the skat) is at
    least as strong as it in a trick of its own effective suit (trumps of
    the game included)."""
    play = object.__new__(CardPlay)
    play.g = game
    play.outside = outside & ~(1 << card)
    keys = TRICK_KEY[game][EFFECTIVE[game][card]]
    expected = all(keys[o] < keys[card] for o in range(32) if play.outside >> o & 1)
    assert play.is_master(card) == expected


def test_one_reading_of_a_play_holds_every_world_of_the_inference() -> None:
    """The play inference reads the public part of each earlier play once and
    gives it each world's hand with `CardPlay.holding`: the card chosen is
    the one a reading of that world's own view chooses, for declarers and
    defenders, in every game."""
    compared = 0
    rng = random.Random(5)
    for number in range(40):
        deck = list(range(32))
        rng.shuffle(deck)
        deal = Deal(deck)
        players = [make_player("heuristic", random.Random(number * 3 + s)) for s in range(3)]
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            c = view.contract
            if view.phase is Phase.PLAY and c is not None and c.game != GameType.RAMSCH:
                know = Knowledge.from_view(view)
                first: CardPlay | None = None
                p = (know.me + 1) % 3  # another seat's next decision in this trick
                trick = tuple((s, int(x)) for s, x in view.trick)
                for world in (Sampler(know).sample(random.Random(k)) for k in range(6)):
                    hand = world.hands[p]
                    skat = world.skat if p == know.declarer and not know.hand_game else -1
                    open_cards = -1
                    if trick:
                        led = EFFECTIVE[c.game][trick[0][1]]
                        follow = hand & SUIT_OF[c.game][led]
                        hand_legal = follow or hand
                    else:
                        hand_legal = hand
                    legal = [x for x in range(32) if hand_legal >> x & 1]
                    if not legal:
                        continue
                    own = CardPlay(seat_view(view, p, hand, skat, open_cards, trick, view.tricks))
                    if first is None:
                        first = own
                    held = first.holding(hand, skat, open_cards)
                    assert held.choose(legal) == own.choose(legal)
                    assert held.outside == own.outside and held.hand == own.hand
                    compared += 1
            deal.apply(players[seat].choose(view), seat)
    assert compared > 500
