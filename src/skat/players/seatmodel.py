"""A learned model of how the other seats play their cards (issue 53, point 4).

For one card play of one position, `features` describes each legal card by
what a player sees when choosing it (is it trump, does it follow, win the
trick so far, smear on the partner's trick, is it the highest card still
out in its suit, ...); the model, a small network (one hidden layer, tanh),
scores every legal card and a softmax over them gives how likely that
position plays each. It is trained on the logged card play of a population
of players (`bench/strength/train_seatmodel.py`, which says how; the file
``data/seatmodel.json`` records the command that made it).

The card-play inference (`worlds.play_fit`) weighs a world by how likely the
cards the other seats played were with that world's hands: a floor of
uniform play is kept, since no model knows a stranger.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..engine.cards import POINTS
from ..engine.game import EFFECTIVE, TRICK_KEY, TRUMP, GameType
from ..engine.views import View

#: The features of one legal card, in the model's order.
FEATURES = (
    "trump",  # the card is trump
    "points",  # its card points / 11
    "lead",  # the trick is empty
    "follow",  # it follows the suit led
    "ruff",  # trump on a plain suit led
    "throw",  # neither: a card thrown off
    "wins",  # it beats the trick's cards so far
    "partner_ahead",  # the partner's card leads the trick so far
    "trick_points",  # card points in the trick so far / 25
    "last",  # the third card of the trick
    "declarer",  # the player is the declarer
    "higher_out",  # cards of its suit still out above it / 7
    "master",  # none of its suit still out is higher
    "suit_length",  # the player's cards of its suit / 7
    "lowest",  # the player's lowest card of its suit
    "highest",  # the player's highest card of its suit
    "suit_out",  # cards of its suit still out (not played, not the player's) / 7
    "tricks_done",  # completed tricks / 10
    "grand",
    "null",
    "declarer_behind",  # the declarer still plays to this trick after it
)


@dataclass(frozen=True)
class Moment:
    """One card play as its player saw it, by position."""

    game: GameType
    me: int  # the position to play
    declarer: int  # the declarer's position
    hand: int  # the player's cards before this one (mask)
    trick: tuple[tuple[int, int], ...]  # (position, card) played to the trick before it
    gone: int  # cards of completed tricks, and a skat the player knows (mask)
    tricks_done: int

    @classmethod
    def from_view(cls, view: View) -> Moment:
        """The moment of ``view``'s seat choosing a card (phase PLAY)."""
        c = view.contract
        me = view.position
        declarer = view.declarer_position
        if c is None or me is None or declarer is None:
            raise ValueError("no card play in this view")
        pos_of = {s: p for p, s in enumerate(view.seats)}
        gone = 0
        for t in view.tricks:
            for card in t.cards:
                gone |= 1 << int(card)
        if view.skat is not None and me == declarer:
            gone |= view.skat.mask
        trick = tuple((pos_of[s], int(card)) for s, card in view.trick)
        return cls(c.game, me, declarer, view.hand.mask, trick, gone, len(view.tricks))

    def legal(self) -> list[int]:
        """The cards the player may play (R4.2), in card order."""
        hand = self.hand
        if self.trick:
            eff = EFFECTIVE[self.game]
            led = eff[self.trick[0][1]]
            follow = [c for c in range(32) if hand >> c & 1 and eff[c] == led]
            if follow:
                return follow
        return [c for c in range(32) if hand >> c & 1]


@cache
def _above(game: int) -> tuple[int, ...]:
    """Per card, the mask of the cards of its effective suit that beat it."""
    eff = EFFECTIVE[game]
    out = []
    for c in range(32):
        keys = TRICK_KEY[game][eff[c]]
        out.append(sum(1 << x for x in range(32) if eff[x] == eff[c] and keys[x] > keys[c]))
    return tuple(out)


@cache
def _suit_masks(game: int) -> tuple[int, ...]:
    eff = EFFECTIVE[game]
    return tuple(sum(1 << c for c in range(32) if eff[c] == s) for s in range(5))


def features(m: Moment, cards: Sequence[int]) -> list[list[float]]:
    """One row of `FEATURES` per card of ``cards`` (legal cards of ``m``)."""
    g = int(m.game)
    eff = EFFECTIVE[g]
    above = _above(g)
    suits = _suit_masks(g)
    out_cards = ~(m.gone | m.hand) & 0xFFFFFFFF
    for _, card in m.trick:
        out_cards &= ~(1 << card)
    trick_points = sum(POINTS[card] for _, card in m.trick) / 25.0
    led = eff[m.trick[0][1]] if m.trick else -1
    best_key = -1
    best_pos = -1
    if m.trick:
        keys = TRICK_KEY[g][led]
        for p, card in m.trick:
            if keys[card] > best_key:
                best_key, best_pos = keys[card], p
    me_declarer = m.me == m.declarer
    partner_ahead = float(
        best_pos >= 0 and not me_declarer and best_pos != m.me and best_pos != m.declarer
    )
    n = len(m.trick)
    behind = float(not me_declarer and any((m.me + k) % 3 == m.declarer for k in range(1, 3 - n)))
    common = (
        float(not m.trick),
        trick_points,
        float(n == 2),
        float(me_declarer),
        m.tricks_done / 10.0,
        float(m.game == GameType.GRAND),
        float(m.game == GameType.NULL),
        behind,
    )
    rows = []
    for c in cards:
        s = eff[c]
        suit = suits[s]
        mine = m.hand & suit
        higher_out = (above[c] & out_cards).bit_count()
        wins = float(bool(m.trick) and TRICK_KEY[g][led][c] > best_key)
        rows.append(
            [
                float(s == TRUMP),
                POINTS[c] / 11.0,
                common[0],
                float(bool(m.trick) and s == led),
                float(bool(m.trick) and s != led and s == TRUMP),
                float(bool(m.trick) and s != led and s != TRUMP),
                wins,
                partner_ahead,
                common[1],
                common[2],
                common[3],
                higher_out / 7.0,
                float(higher_out == 0),
                mine.bit_count() / 7.0,
                float(not (mine & ~above[c] & ~(1 << c))),  # nothing of its suit below it
                float(not (mine & above[c])),
                (suit & out_cards).bit_count() / 7.0,
                common[4],
                common[5],
                common[6],
                common[7],
            ]
        )
    return rows


class SeatModel:
    """The scoring network: ``w1`` (hidden x features), ``b1``, ``w2`` (hidden)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if list(data["features"]) != list(FEATURES):
            raise ValueError("the model's features are not this code's")
        self.w1: list[list[float]] = [list(map(float, r)) for r in data["w1"]]
        self.b1: list[float] = list(map(float, data["b1"]))
        self.w2: list[float] = list(map(float, data["w2"]))
        self.data = data

    def scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        out = []
        for f in rows:
            s = 0.0
            for w, b, v in zip(self.w1, self.b1, self.w2, strict=True):
                s += v * math.tanh(b + sum(a * x for a, x in zip(w, f, strict=True)))
            out.append(s)
        return out

    def score(self, m: Moment, card: int) -> float:
        """One legal card's score (the softmax's input)."""
        return self.scores(features(m, [card]))[0]

    def probabilities(self, m: Moment, cards: Sequence[int] | None = None) -> dict[int, float]:
        """How likely the player of ``m`` plays each legal card."""
        legal = list(cards) if cards is not None else m.legal()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        scores = self.scores(features(m, legal))
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return {c: e / total for c, e in zip(legal, exps, strict=True)}


@cache
def load(name: str) -> SeatModel:
    """A network of this kind shipped in ``data/`` under ``name``."""
    text = resources.files("skat.players").joinpath(f"data/{name}").read_text()
    return SeatModel(json.loads(text))


def default() -> SeatModel:
    """The shipped model of the other seats (``data/seatmodel.json``)."""
    return load("seatmodel.json")


def card_policy() -> SeatModel:
    """`club`'s card policy, the same network trained on `search`'s own card
    choices (``data/cardpolicy.json``, `bench/strength/train_cardpolicy.py`;
    issue 53, point 5): how likely the strong level plays each legal card."""
    return load("cardpolicy.json")
