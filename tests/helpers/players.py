"""The leak test's pieces: what a seat may know (R3.6, R3.7) and the same
deal with everything else relabelled at random, and the option sets the
leak tests run under; and a deal played on by given players up to a
phase (`play_until`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from skat.engine import (
    Action,
    Card,
    Deal,
    Discard,
    IllegalActionError,
    Phase,
    Pickup,
    Play,
    Rules,
    deck_from_hands,
)
from skat.engine.actions import PLAYS


class _Chooser(Protocol):
    def choose(self, view: Any) -> Action: ...


def play_until(deal: Deal, players: Sequence[_Chooser], phase: Phase) -> int | None:
    """Play ``deal`` on with ``players`` (one a seat) up to ``phase`` or the
    card play: the seat to act if ``phase`` was reached, else None."""
    while not deal.is_terminal() and deal.phase not in (phase, Phase.PLAY):
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(deal.view(seat)), seat)
    if deal.is_terminal() or deal.phase is not phase:
        return None
    return deal.current_seat


def _relabel(action: Action, sigma: Sequence[int]) -> Action:
    if isinstance(action, Play):
        return PLAYS[sigma[action.card]]
    if isinstance(action, Discard):
        return Discard(tuple(Card(sigma[c]) for c in action.cards))
    return action


def may_know(deal: Deal, seat: int) -> int:
    """The cards ``seat`` may know now by R3.6/R3.7, from the deal (not the view):
    its own dealt cards, every card played, the skat for the declarer after
    pickup, and the declarer's cards once an Ouvert game is announced."""
    pos = deal.position_of(seat)
    assert pos is not None
    known = deal.dealt_hand(pos).mask
    for trick in deal.tricks:
        for c in trick.cards:
            known |= 1 << c
    for c in deal.current_trick:
        known |= 1 << c
    declarer = deal.declarer
    if declarer is not None:
        d_seat = deal.seat_of(declarer)
        if d_seat == seat and (d_seat, Pickup()) in deal.history:
            known |= deal.dealt_skat.mask | deal.skat.mask
        contract = deal.contract
        if contract is not None and contract.ouvert and deal.phase in (Phase.KONTRA, Phase.PLAY):
            known |= deal.hand(d_seat).mask
    return known


def reshuffled(deal: Deal, seat: int, rng: random.Random, tries: int = 40) -> Deal | None:
    """The same deal with the cards ``seat`` cannot see relabelled at random.

    Kept: the seat's own dealt cards and every card it may know (which is
    what its view may show, `may_know`). The other
    cards are permuted consistently (hands, skat and the hidden discards), and
    the action history is replayed; a permutation that contradicts the play
    (a card given to a seat that showed a void) is refused by the engine and
    another is drawn, as is one that moves cards only within a hand. None
    when no such permutation is found.
    """
    fixed = may_know(deal, seat)
    free = [c for c in Card if not fixed >> c & 1]
    if len(free) < 2:
        return None
    for _ in range(tries):
        perm = free[:]
        rng.shuffle(perm)
        if perm == free:
            continue
        sigma = list(range(32))
        for a, b in zip(free, perm, strict=True):
            sigma[a] = b
        hands = [[Card(sigma[c]) for c in deal.dealt_hand(p)] for p in range(3)]
        skat = [Card(sigma[c]) for c in deal.dealt_skat]
        groups = [*(deal.dealt_hand(p) for p in range(3)), deal.dealt_skat]
        if all(set(g) == set(h) for g, h in zip(groups, [*hands, skat], strict=True)):
            continue  # only moved cards within one hand: nothing was hidden differently
        new = Deal(
            deck_from_hands(hands, skat),
            rules=deal.rules,
            dealer=deal.dealer,
            ramsch=deal.forced_ramsch,
            bock_factor=deal.bock_factor,
        )
        try:
            for s, action in deal.history:
                new.apply(_relabel(action, sigma), s)
        except IllegalActionError:
            continue
        return new
    return None


LEAK_CONFIGS: list[tuple[str, Rules, dict[str, object]]] = [
    ("3p", Rules(), {}),
    ("3p-ramsch", Rules(all_pass="ramsch"), {}),
    ("3p-forced-ramsch", Rules(), {"ramsch": True}),
    ("3p-kontra-first_lead", Rules(kontra=True, kontra_window="first_lead"), {}),
    ("3p-kontra-own_first_card-bock", Rules(kontra=True), {"bock_factor": 2}),
    ("4p-kontra-trick_one", Rules(players=4, kontra=True, kontra_window="trick_one"), {}),
]


def review_leaks(answer: object, deal: Deal, seat: int) -> list[str]:
    """Every decision of a review answer (the server's or `skat review`'s:
    objects with ``move``, ``action`` and ``best``) that names a card
    ``seat`` could not know at that decision (`may_know` of the deal
    replayed up to it): a review is judged from the seat's own view, so
    neither its choice nor the best one may show another card. The rest of
    the answer (the luck, the summary) may name no card at all."""
    import json
    import re

    card = re.compile(r"\b[CSHD][AKQJT987]\b")
    out: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, dict):
            if {"move", "action", "best"} <= x.keys():
                fresh = deal.fresh()
                for who, action in deal.history[: x["move"]]:
                    fresh.apply(action, who)
                allowed = may_know(fresh, seat)
                for text in (x["action"], x["best"]):
                    for tok in card.findall(text):
                        if not allowed >> Card.parse(tok) & 1:
                            out.append(f"move {x['move']}: {text!r} shows {tok}")
                return
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            for tok in card.findall(x):
                out.append(f"{tok} outside a decision: {json.dumps(x)[:80]}")

    walk(answer)
    return out
