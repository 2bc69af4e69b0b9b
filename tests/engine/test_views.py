"""No view shows a card its seat may not know (SKAT-RULES.md R3.6, R3.7).

Random complete deals (three and four players, Hand games, pickup games,
Ouvert games, Ramsch, Kontra on, declarer claims) are checked at every step,
for every seat and for the spectator view ``deal.view(None)``: the cards a view
shows (``View.known_cards()``) must lie within what that seat may know:

* its own current hand;
* the cards already played (completed tricks and the current trick);
* the skat, only for the declarer and only after he picked it up (the dealt
  skat and his discards); never in a Hand game before the end;
* the declarer's cards in an Ouvert game once it is announced (R3.6), or once
  the declarer has shown them with a ``Claim``;
* everything once the deal is over.

The allowed set is computed from the deal's history and public state, not from
the view code.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skat.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Claim,
    Deal,
    Discard,
    GameType,
    Phase,
    Pickup,
    Play,
    Rules,
    deck_from_hands,
)
from tests.helpers.marks import slow_beyond_first

CONFIGS: dict[str, dict[str, Any]] = {
    "3p": {},
    "3p-dealer0": {"dealer": 0},
    "4p-dealer0": {"rules": Rules(players=4), "dealer": 0},
    "4p-dealer1": {"rules": Rules(players=4), "dealer": 1},
    "4p-dealer2": {"rules": Rules(players=4), "dealer": 2},
    "4p-dealer3": {"rules": Rules(players=4), "dealer": 3},
    "all-pass-ramsch": {"rules": Rules(all_pass="ramsch")},
    "forced-ramsch": {"ramsch": True},
    "kontra-own_first_card": {"rules": Rules(kontra=True)},
    "kontra-first_lead": {"rules": Rules(kontra=True, kontra_window="first_lead")},
    "kontra-trick_one": {"rules": Rules(kontra=True, kontra_window="trick_one")},
    "4p-kontra": {"rules": Rules(players=4, kontra=True), "dealer": 1},
}
MODES = ("any", "hand", "pickup", "ouvert")

decks = st.permutations(list(Card))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
modes = st.sampled_from(MODES)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def cheap(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """Pass/hold and the two lowest bids, so that every contract stays possible."""
    bids = [a for a in actions if isinstance(a, Bid)][:2]
    return tuple(a for a in actions if not isinstance(a, Bid)) + tuple(bids)


def choose(deal: Deal, rng: random.Random, mode: str) -> tuple[int | None, Action]:
    legal = deal.legal_actions()
    assert legal
    ph = deal.phase
    if ph is Phase.BIDDING:
        return None, rng.choice(cheap(legal))
    if ph is Phase.SKAT:
        announces = [a for a in legal if isinstance(a, Announce)]
        ouvert = [a for a in announces if a.contract.ouvert]
        if mode == "pickup" or (mode == "ouvert" and not ouvert):
            return None, Pickup()
        if mode == "hand":
            return None, rng.choice(announces)
        if mode == "ouvert":
            return None, rng.choice(ouvert)
    if ph is Phase.DECLARE and mode == "ouvert":
        ouvert = [a for a in legal if isinstance(a, Announce) and a.contract.ouvert]
        if ouvert:
            return None, rng.choice(ouvert)
    contract = deal.contract
    if (
        ph is Phase.PLAY
        and contract is not None
        and contract.game is not GameType.RAMSCH
        and rng.random() < 0.02
    ):
        declarer = deal.declarer
        assert declarer is not None
        if Claim() in deal.offers(deal.seat_of(declarer)):  # once a deal (R6.6)
            return deal.seat_of(declarer), Claim()
    if rng.random() < 0.15:
        seat = rng.randrange(deal.players)
        own = deal.legal_actions(seat)
        if own:
            return seat, rng.choice(own)
    return None, rng.choice(legal)


def played_cards(deal: Deal) -> set[Card]:
    return {c for t in deal.tricks for c in t.cards} | set(deal.current_trick)


def allowed_cards(deal: Deal, seat: int | None) -> set[Card]:
    """What ``seat`` (``None``: a spectator) may know now, from R3.6/R3.7."""
    if deal.is_terminal():
        return set(Card)
    allowed = played_cards(deal)
    actions = [a for _, a in deal.history]
    declarer = deal.declarer
    declarer_seat = None if declarer is None else deal.seat_of(declarer)
    if seat is not None and deal.position_of(seat) is not None:
        allowed |= set(deal.hand(seat))
        if seat == declarer_seat and any(isinstance(a, Pickup) for a in actions):
            allowed |= set(deal.dealt_skat) | set(deal.skat)
    if declarer_seat is not None:
        announced = [a for a in actions if isinstance(a, Announce)]
        ouvert = bool(announced) and announced[0].contract.ouvert
        claimed = any(isinstance(a, Claim) for a in actions)
        if ouvert or claimed:
            allowed |= set(deal.hand(declarer_seat))
    return allowed


def check_views(deal: Deal) -> None:
    over = deal.is_terminal()
    declarer = deal.declarer
    declarer_seat = None if declarer is None else deal.seat_of(declarer)
    actions = [a for _, a in deal.history]
    picked_up = any(isinstance(a, Pickup) for a in actions)
    for seat in (*range(deal.players), None):
        view = deal.view(seat)
        known = set(view.known_cards())
        leaked = known - allowed_cards(deal, seat)
        assert not leaked, (
            f"seat {seat} in phase {deal.phase} sees {sorted(c.name for c in leaked)}; "
            f"history {[(s, str(a)) for s, a in deal.history]}"
        )
        active = seat is not None and deal.position_of(seat) is not None
        if active:
            assert view.hand == deal.hand(seat)
            assert view.legal_actions == deal.legal_actions(seat)
        else:  # spectator, or the dealer sitting out at four players (R1.4)
            assert len(view.hand) == 0
            assert view.legal_actions == ()
        if not over:
            assert view.dealt is None
            if view.skat is not None:
                assert seat == declarer_seat and picked_up, f"seat {seat} sees the skat"
        # history: same actions; a discard shows its cards only to the declarer
        assert len(view.history) == len(deal.history)
        for (s, action), (vs, text) in zip(deal.history, view.history, strict=True):
            assert vs == s
            if isinstance(action, Discard) and not over and seat != s:
                assert text == "discard"
            else:
                assert text == str(action)


def make_deal(config: str, deck: list[Card]) -> Deal:
    return Deal(deck, **CONFIGS[config])


def play_and_check(deal: Deal, rng: random.Random, mode: str) -> Deal:
    for _ in range(500):
        check_views(deal)
        if deal.is_terminal():
            return deal
        seat, action = choose(deal, rng, mode)
        deal.apply(action, seat)
    raise AssertionError("deal did not end")


@pytest.mark.parametrize("config", slow_beyond_first(list(CONFIGS)))
@SETTINGS
@given(deck=decks, seed=seeds, mode=modes)
def test_views_never_leak(config: str, deck: list[Card], seed: int, mode: str) -> None:
    """R3.7 at every step of random deals, for every seat and the spectator."""
    deal = play_and_check(make_deal(config, deck), random.Random(seed), mode)
    assert deal.result is not None


# --------------------------------------------------------- worked examples

HANDS = (
    "CJ SJ CA CT CK SA ST HA D7 D8".split(),
    "HJ C9 C8 S9 S8 HT HK HQ DA DT".split(),
    "DJ CQ C7 SK SQ S7 H9 H8 DK DQ".split(),
)
SKAT = "H7 D9".split()
DECK = deck_from_hands(HANDS, SKAT)


def test_discard_is_hidden_from_defenders_and_spectators() -> None:
    """R3.7: discarded cards are seen only by the declarer until the deal ends."""
    deal = Deal(DECK)  # dealer seat 2: seat == position
    for text in ("pass", "pass", "bid 18", "pickup", "discard D7 H7", "announce grand"):
        deal.apply_text(text)
    for seat in (1, 2, None):
        view = deal.view(seat)
        assert (0, "discard") in view.history
        assert view.skat is None
        assert Card.D7 not in view.known_cards() and Card.H7 not in view.known_cards()
    own = deal.view(0)
    assert (0, "discard D7 H7") in own.history
    assert own.skat is not None and set(own.skat) == {Card.D7, Card.H7}
    check_views(deal)


def test_hand_game_skat_unseen_until_the_end() -> None:
    """R3.1, R3.7: in a Hand game nobody sees the skat until the deal ends."""
    deal = Deal(DECK)
    for text in ("pass", "pass", "bid 18", "announce grand hand"):
        deal.apply_text(text)
    rng = random.Random(7)
    while not deal.is_terminal():
        for seat in (0, 1, 2, None):
            view = deal.view(seat)
            assert view.skat is None
            assert not set(view.known_cards()) & {Card.H7, Card.D9}
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.view(1).dealt is not None  # revealed after the end


def test_ouvert_cards_shown_after_announcement_only() -> None:
    """R3.6: in an Ouvert game the declarer's cards are shown after the announcement."""
    deal = Deal(DECK)
    for text in ("pass", "pass", "bid 18"):
        deal.apply_text(text)
    assert not set(deal.view(1).known_cards()) & set(deal.hand(0))
    deal.apply_text("announce grand ouvert")
    for seat in (1, 2, None):
        assert set(deal.hand(0)) <= set(deal.view(seat).known_cards())
    deal.apply(Play(Card.CJ))
    for seat in (1, 2, None):
        assert set(deal.hand(0)) <= set(deal.view(seat).known_cards())
    check_views(deal)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_player_dealer_sees_no_hand(dealer: int) -> None:
    """R1.4: at four players the dealer sits out: no hand, no moves, no skat."""
    deal = Deal(DECK, rules=Rules(players=4), dealer=dealer)
    rng = random.Random(dealer)
    while not deal.is_terminal():
        view = deal.view(dealer)
        assert len(view.hand) == 0 and view.legal_actions == ()
        assert view.skat is None and view.position is None
        assert set(view.known_cards()) <= allowed_cards(deal, dealer)
        deal.apply(rng.choice(cheap(deal.legal_actions())))
