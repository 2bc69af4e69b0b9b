"""The card-play move generator and trick winner against a naive reference.

The reference model in this file is written from the rules text alone
(SKAT-RULES.md R1.3 card order, R4.1 turn order, R4.2 effective suit, R4.3
following, R4.4 trick winner, R6.6 early ends). It works on card *names*
(``'CJ'``, ``'HT'``) and never looks at the engine's tables (``FOLLOW``,
``EFFECTIVE``, ``TRICK_KEY``) or at its legality checks.

* (a) At every card-play step of many random deals of every game type the
  engine's ``Play`` actions equal the reference's legal cards.
* (b) Every completed trick has the reference's winner, the winner leads the
  next trick, and the deal ends exactly where R6.6 says.
* (c) Perft: from three fixed deals the number of card-play sequences of 3, 4,
  5, 6 and 9 plies (a sequence that ends the deal earlier, R6.6, counts as one
  complete sequence) is counted with the engine (``clone`` + ``legal_actions``)
  and with an independent recursive reference; both must agree with each other
  and with the golden numbers recorded below.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skat.engine import (
    Announce,
    Card,
    Deal,
    GameType,
    Pickup,
    Play,
    Rules,
    deck_from_hands,
)
from skat.engine.game import EFFECTIVE, TRUMP_ORDER

# ------------------------------------------------------- the reference model

TRUMP = "trump"
JACKS = ("CJ", "SJ", "HJ", "DJ")
PLAIN_ORDER = "ATKQ987"  # R1.3, suit and Grand games, non-trump suits
NULL_ORDER = "AKQJT987"  # R1.3, Null
#: Our game names: a trump suit letter, or grand / null / ramsch.
GAME_OF = {
    "CLUBS": "C",
    "SPADES": "S",
    "HEARTS": "H",
    "DIAMONDS": "D",
    "GRAND": "grand",
    "NULL": "null",
    "RAMSCH": "ramsch",
}


def effective_suit(card: str, game: str) -> str:
    """R4.2: ``'trump'`` or the printed suit letter."""
    suit, rank = card[0], card[1]
    if game == "null":
        return suit
    if rank == "J":
        return TRUMP  # suit, Grand and Ramsch: every jack is trump
    if game in "CSHD" and suit == game:
        return TRUMP
    return suit


def trump_rank(card: str, game: str) -> int:
    """R1.3: position in the trump sequence, 0 = highest."""
    if card in JACKS:
        return JACKS.index(card)
    return 4 + PLAIN_ORDER.index(card[1])


def plain_rank(card: str, game: str) -> int:
    """R1.3: position within its suit, 0 = highest."""
    return (NULL_ORDER if game == "null" else PLAIN_ORDER).index(card[1])


def naive_legal(hand: set[str] | frozenset[str], trick: list[str], game: str) -> set[str]:
    """R4.3: follow the led effective suit if possible, otherwise anything."""
    if not trick:
        return set(hand)
    led = effective_suit(trick[0], game)
    same = {c for c in hand if effective_suit(c, game) == led}
    return same or set(hand)


def naive_winner(cards: list[str], game: str) -> int:
    """R4.4: index (in play order) of the card that wins the trick."""
    trumps = [i for i, c in enumerate(cards) if effective_suit(c, game) == TRUMP]
    if trumps:
        return min(trumps, key=lambda i: trump_rank(cards[i], game))
    led = effective_suit(cards[0], game)
    same = [i for i, c in enumerate(cards) if effective_suit(c, game) == led]
    return min(same, key=lambda i: plain_rank(cards[i], game))


def ends_deal(game: str, schwarz_announced: bool, declarer: int, winner: int, done: int) -> bool:
    """R4.1 / R6.6: does the trick just completed end the deal?"""
    if done == 10:
        return True
    if game == "null":
        return winner == declarer  # R6.6 (1)
    if game == "ramsch":
        return False  # R6.6 (3)
    return schwarz_announced and winner != declarer  # R6.6 (2)


@dataclass(frozen=True)
class NaiveState:
    """A card-play position of the reference model (positions 0..2)."""

    hands: tuple[frozenset[str], frozenset[str], frozenset[str]]
    trick: tuple[str, ...]
    leader: int
    declarer: int  # -1 in Ramsch
    game: str
    schwarz_announced: bool
    tricks_done: int = 0
    over: bool = False

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def play(self, card: str) -> NaiveState:
        p = self.to_play
        hands = list(self.hands)
        assert card in hands[p]
        hands[p] = hands[p] - {card}
        trick = (*self.trick, card)
        if len(trick) < 3:
            return replace(self, hands=tuple(hands), trick=trick)  # type: ignore[arg-type]
        winner = (self.leader + naive_winner(list(trick), self.game)) % 3
        done = self.tricks_done + 1
        over = ends_deal(self.game, self.schwarz_announced, self.declarer, winner, done)
        return replace(
            self,
            hands=tuple(hands),  # type: ignore[arg-type]
            trick=(),
            leader=winner,
            tricks_done=done,
            over=over,
        )


def naive_perft(state: NaiveState, depth: int) -> tuple[int, int]:
    """(complete sequences of ``depth`` plies or ending the deal, those ending it)."""
    if state.over:
        return 1, 1
    if depth == 0:
        return 1, 0
    total = ended = 0
    for card in sorted(naive_legal(state.hands[state.to_play], list(state.trick), state.game)):
        a, b = naive_perft(state.play(card), depth - 1)
        total += a
        ended += b
    return total, ended


def engine_perft(deal: Deal, depth: int) -> tuple[int, int]:
    """The same count with the engine: ``clone`` and ``legal_actions`` (plays only)."""
    if deal.is_terminal():
        return 1, 1
    if depth == 0:
        return 1, 0
    total = ended = 0
    for action in deal.legal_actions():
        if not isinstance(action, Play):
            continue
        child = deal.clone()
        child.apply(action)
        a, b = engine_perft(child, depth - 1)
        total += a
        ended += b
    return total, ended


def names(cards: object) -> frozenset[str]:
    return frozenset(Card(c).name for c in cards)  # type: ignore[attr-defined]


# -------------------------------------------------- reference vs engine tables


@pytest.mark.parametrize("game", list(GameType), ids=str)
def test_effective_suit_and_trump_order_tables(game: GameType) -> None:
    """R1.3, R4.2: the engine's effective-suit table and trump order agree with the text."""
    g = GAME_OF[game.name]
    for card in Card:
        eff = effective_suit(card.name, g)
        engine = EFFECTIVE[game][card]
        assert (engine == 4) == (eff == TRUMP), card.name
        if eff != TRUMP:
            assert "CSHD"[engine] == eff, card.name
    if g == "null":
        expected: list[str] = []
    else:
        trumps = [c.name for c in Card if effective_suit(c.name, g) == TRUMP]
        expected = sorted(trumps, key=lambda c: trump_rank(c, g))
    assert [c.name for c in TRUMP_ORDER[game]] == expected


def test_following_example_r4_3() -> None:
    """R4.3 example (Hearts trump): spades are led; a player whose only spade-printed
    card is SJ holds no spade and may play anything."""
    hand = {"SJ", "CA", "D7", "HT"}
    assert naive_legal(hand, ["SA"], "H") == hand
    deck = deck_from_hands(
        [
            "SA S9 S8 S7 C9 C8 C7 D9 D8 DA".split(),
            "SJ CA D7 HT HA HK HQ H9 H8 H7".split(),
            "ST SK SQ CT CK CQ CJ DT DK DQ".split(),
        ],
        "HJ DJ".split(),
    )
    deal = Deal(deck)
    for text in ("bid 18", "pass", "pass", "announce hearts hand", "play SA"):
        deal.apply_text(text)
    assert {a.card.name for a in deal.legal_actions() if isinstance(a, Play)} == names(
        deal.dealt_hand(1)
    )


# ----------------------------------------------------- random deals, (a) + (b)

AUCTIONS = (
    ("pass", "pass", "bid 18"),  # R2.5 A2: Vorhand declares
    ("bid 18", "pass", "pass"),  # R2.5 A4: Mittelhand declares
    ("pass", "bid 18", "pass"),  # Hinterhand declares
)
TARGETS = (
    "CLUBS",
    "SPADES",
    "HEARTS",
    "DIAMONDS",
    "GRAND",
    "NULL",
    "ramsch-forced",
    "ramsch-all-pass",
)
TABLES = ((3, 2), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3))  # (players, dealer)

decks = st.permutations(list(Card))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.sampled_from(TABLES)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def start_game(
    deck: list[Card], target: str, rng: random.Random, table: tuple[int, int]
) -> tuple[Deal, str, bool]:
    """A deal at its first card, plus our game name and the Schwarz-announced flag."""
    players, dealer = table
    if target == "ramsch-forced":
        return Deal(deck, rules=Rules(players=players), dealer=dealer, ramsch=True), "ramsch", False
    if target == "ramsch-all-pass":
        deal = Deal(deck, rules=Rules(players=players, all_pass="ramsch"), dealer=dealer)
        for text in ("pass", "pass", "pass"):
            deal.apply_text(text)
        return deal, "ramsch", False
    deal = Deal(deck, rules=Rules(players=players), dealer=dealer)
    for text in rng.choice(AUCTIONS):
        deal.apply_text(text)
    game = GameType[target]
    if rng.random() < 0.5:
        deal.apply(Pickup())
        deal.apply(rng.choice(deal.legal_actions()))  # a random discard
    options = [
        a for a in deal.legal_actions() if isinstance(a, Announce) and a.contract.game is game
    ]
    announce = rng.choice(options)
    assert isinstance(announce, Announce)
    deal.apply(announce)
    c = announce.contract
    return deal, GAME_OF[target], bool(c.schwarz or c.ouvert) and game is not GameType.NULL


def play_checked(deal: Deal, game: str, schwarz_announced: bool, rng: random.Random) -> int:
    """Play ``deal`` out at random, checking (a) and (b) at every step; returns plays made."""
    declarer = -1 if game == "ramsch" else deal.declarer
    assert declarer is not None
    leader = 0  # R4.1: Vorhand leads to the first trick
    plays = 0
    while not deal.is_terminal():
        trick = [c.name for c in deal.current_trick]
        pos = (leader + len(trick)) % 3
        seat = deal.seat_of(pos)
        assert deal.current_seat == seat, "R4.1: clockwise from the leader"
        legal = deal.legal_actions()
        assert all(isinstance(a, Play) for a in legal)
        engine = {a.card.name for a in legal if isinstance(a, Play)}
        hand = names(deal.hand(seat))
        assert engine == naive_legal(hand, trick, game), (game, sorted(hand), trick)
        # every seat not to move has no card play
        for other in range(deal.players):
            if other != seat:
                assert not any(isinstance(a, Play) for a in deal.legal_actions(other))
        before = len(deal.tricks)
        deal.apply(Play(Card[rng.choice(sorted(engine))]))
        plays += 1
        if len(deal.tricks) > before:  # a trick was completed
            t = deal.tricks[-1]
            cards = [c.name for c in t.cards]
            assert t.leader == leader
            winner = (leader + naive_winner(cards, game)) % 3
            assert t.winner == winner, (game, cards, leader)
            over = ends_deal(game, schwarz_announced, declarer, winner, len(deal.tricks))
            assert deal.is_terminal() == over, (game, len(deal.tricks), winner, declarer)
            leader = winner
    return plays


@pytest.mark.parametrize("target", TARGETS)
@SETTINGS
@given(deck=decks, seed=seeds, table=tables)
def test_move_generator_matches_naive_reference(
    target: str, deck: list[Card], seed: int, table: tuple[int, int]
) -> None:
    """(a) R4.2/R4.3 legal cards and (b) R4.4 trick winners, R4.1 turn order, R6.6 ends."""
    rng = random.Random(seed)
    deal, game, schwarz_announced = start_game(deck, target, rng, table)
    plays = play_checked(deal, game, schwarz_announced, rng)
    assert plays >= 3 and plays % 3 == 0
    assert deal.result is not None


@pytest.mark.parametrize("game", ["C", "S", "H", "D", "grand", "null", "ramsch"])
@settings(max_examples=300, deadline=None, database=None)
@given(cards=st.permutations(sorted(c.name for c in Card)).map(lambda p: p[:3]))
def test_naive_winner_is_consistent(game: str, cards: list[str]) -> None:
    """(b) sanity of the reference itself: rotating who leads never changes which card
    wins unless the led suit changes; a trump always beats a non-trump; the
    winner follows the led suit or is a trump."""
    w = cards[naive_winner(cards, game)]
    eff = [effective_suit(c, game) for c in cards]
    if TRUMP in eff:
        assert effective_suit(w, game) == TRUMP
    else:
        assert effective_suit(w, game) == eff[0]
    for i in range(1, 3):
        if eff[i] == eff[0]:
            rotated = [cards[i], cards[(i + 1) % 3], cards[(i + 2) % 3]]
            assert rotated[naive_winner(rotated, game)] == w


# ------------------------------------------------------------------ (c) perft


@dataclass(frozen=True)
class FixedDeal:
    hands: tuple[str, str, str]  # by position: Vorhand, Mittelhand, Hinterhand
    skat: str
    actions: tuple[str, ...]  # auction and declaration
    declarer: int
    game: str
    schwarz_announced: bool
    discard: str = ""


FIXED = {
    # Vorhand takes the game at 18 (R2.4), picks up, discards D7 D8, plays Grand.
    "grand-pickup": FixedDeal(
        hands=(
            "CJ SJ CA CT CK SA ST HA D7 D8",
            "HJ C9 C8 S9 S8 HT HK HQ DA DT",
            "DJ CQ C7 SK SQ S7 H9 H8 DK DQ",
        ),
        skat="H7 D9",
        actions=("pass", "pass", "bid 18", "pickup", "discard D7 D8", "announce grand"),
        declarer=0,
        game="grand",
        schwarz_announced=False,
        discard="D7 D8",
    ),
    # Mittelhand bids 18, both others pass; Null Hand. Vorhand leads.
    "null-hand": FixedDeal(
        hands=(
            "CA CK CQ CJ SA SK ST HA H7 DA",
            "C7 C8 S7 S9 HK H8 HT D7 D8 DJ",
            "CT C9 SQ SJ S8 HQ HJ H9 DK DQ",
        ),
        skat="DT D9",
        actions=("bid 18", "pass", "pass", "announce null hand"),
        declarer=1,
        game="null",
        schwarz_announced=False,
    ),
    # Hinterhand bids 18 to Vorhand, who passes; Hearts Hand, Schwarz announced.
    "hearts-hand-schwarz": FixedDeal(
        hands=(
            "DJ H8 CT CK C9 ST SK DA DT D7",
            "H7 CQ C8 C7 SQ S9 S8 DK DQ D9",
            "CJ SJ HJ HA HT HK HQ H9 CA SA",
        ),
        skat="S7 D8",
        actions=("pass", "bid 18", "pass", "announce hearts hand schwarz"),
        declarer=2,
        game="H",
        schwarz_announced=True,
    ),
}

#: Golden perft numbers (sequences, of which ended the deal by R6.6) per depth,
#: computed by both the engine and the reference model.
GOLDEN: dict[str, dict[int, tuple[int, int]]] = {
    "grand-pickup": {
        3: (42, 0),
        4: (378, 0),
        5: (720, 0),
        6: (1582, 0),
        9: (53136, 0),
    },
    "null-hand": {
        3: (58, 4),
        4: (490, 4),
        5: (1034, 4),
        6: (2444, 180),
        9: (83364, 5972),
    },
    "hearts-hand-schwarz": {
        3: (121, 23),
        4: (905, 23),
        5: (1799, 23),
        6: (3317, 728),
        9: (240059, 29513),
    },
}


def fixed_deal(name: str) -> tuple[Deal, NaiveState]:
    spec = FIXED[name]
    deal = Deal(deck_from_hands([h.split() for h in spec.hands], spec.skat.split()))
    for text in spec.actions:
        deal.apply_text(text)
    hands = [frozenset(h.split()) for h in spec.hands]
    if spec.discard:
        d = spec.declarer
        hands[d] = (hands[d] | frozenset(spec.skat.split())) - frozenset(spec.discard.split())
    state = NaiveState(
        hands=(hands[0], hands[1], hands[2]),
        trick=(),
        leader=0,
        declarer=spec.declarer,
        game=spec.game,
        schwarz_announced=spec.schwarz_announced,
    )
    # the engine is at the first card of the deal with the same hands
    assert deal.declarer == spec.declarer
    assert deal.current_seat == deal.seat_of(0)
    for p in range(3):
        assert names(deal.hand(deal.seat_of(p))) == hands[p]
    return deal, state


@pytest.mark.parametrize("name", list(FIXED))
@pytest.mark.parametrize("depth", [3, 4, 5, 6, pytest.param(9, marks=pytest.mark.slow)])
def test_perft(name: str, depth: int) -> None:
    """(c) Perft counts: engine == independent reference == golden values."""
    deal, state = fixed_deal(name)
    engine = engine_perft(deal, depth)
    naive = naive_perft(state, depth)
    assert engine == naive
    assert engine == GOLDEN[name][depth]
    # the perft run never touched the deal it started from
    assert len(deal.tricks) == 0 and not deal.current_trick


def test_perft_sees_early_ends() -> None:
    """R6.6: the Null and Schwarz-announced deals can end after the first trick."""
    assert GOLDEN["null-hand"][3][1] > 0
    assert GOLDEN["hearts-hand-schwarz"][3][1] > 0
    assert GOLDEN["grand-pickup"][5][1] == 0
