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


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from([g for g in GameType if g not in (GameType.NULL, GameType.RAMSCH)]),
    pool=st.integers(0, (1 << 32) - 1),
    led=st.integers(0, 4),
    card=st.integers(0, 31),
    void_led=st.booleans(),
    void_trump=st.booleans(),
)
def test_an_unbeatable_card_is_one_no_card_the_next_seat_may_hold_beats(
    game: GameType, pool: int, led: int, card: int, void_led: bool, void_trump: bool
) -> None:
    """`_unbeatable` (by a mask of the stronger cards): the next seat cannot
    beat the trick's best card when no card it may hold is stronger, or,
    void in the led suit, no trump it may hold is."""
    play = object.__new__(CardPlay)
    play.g = game
    play.declarer = 0
    play.declarer_cards = -1
    play.outside = pool
    play.voids = {0: set(), 1: set(), 2: set()}
    if void_led:
        play.voids[1].add(led)
    if void_trump:
        play.voids[1].add(4)
    keys = TRICK_KEY[game][led]
    key = keys[card]
    cards = [c for c in range(32) if pool >> c & 1]
    if led in play.voids[1]:
        expected = 4 in play.voids[1] or all(
            keys[c] <= key for c in cards if EFFECTIVE[game][c] == 4
        )
    else:
        expected = all(keys[c] <= key for c in cards)
    assert play._unbeatable(led, key, 1) == expected


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(list(GameType)),
    hand=st.integers(1, (1 << 32) - 1),
    short=st.booleans(),
)
def test_the_lowest_card_is_the_cheapest_by_points_length_and_rank(
    game: GameType, hand: int, short: bool
) -> None:
    """`_lowest`: fewest points (a trump counts 15 more), then the shortest
    suit (or the longest) in the hand, then the weakest card."""
    play = object.__new__(CardPlay)
    play.g = game
    play.hand = hand
    cards = [c for c in range(32) if hand >> c & 1]
    eff = EFFECTIVE[game]

    def cost(c: int) -> tuple[int, int, int]:
        length = sum(1 for o in cards if eff[o] == eff[c])
        points = (11, 10, 4, 3, 2, 0, 0, 0)[c & 7]
        trump = 15 if eff[c] == 4 else 0
        return (points + trump, length if short else -length, TRICK_KEY[game][eff[c]][c])

    assert play._lowest(cards, short) == min(cards, key=cost)
    assert SUIT_OF[game][eff[cards[0]]] >> cards[0] & 1
