"""The strong player's card play: every legal card solved in worlds of the
hidden cards (docs/players.md).

For each world and each class of equal cards the solver's zero-window
questions give the outcome after that card: does the declarer reach 61 (or
90 / every trick when announced), then, for the cards still in the running,
Schneider (90, or out of it at 31) and Schwarz. Each class is valued by the
engine's own `value_game`: the declarer maximises his expected entry; the
defenders, as a team, maximise their bonus minus the declarer's entry. Ties
go to the card with the best open-card points over the first worlds (the
declarer's most, the defenders' least: a real opponent errs, and every
point taken makes his errors costlier), then to `heuristic`'s card. Null:
`null_wins`. Kontra and Re are read from the same worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ...engine import Action, Contract, GameType, Kontra, Play, View
from ...engine.cards import POINTS
from ...engine.values import seeger_fabian_others, value_game
from ..cardplay import CardPlay
from ..solver.api import Stopped
from ..solver.position import card_orders
from ..worlds import Inference, Knowledge, Sampler, World, solver_positions
from .decision import Clock, Decision, OutOfTime
from .entries import LOST, LOST_SCHNEIDER, SCHNEIDER, SCHWARZ, WON
from .settings import KONTRA_P

#: Per card decision and world: (its multiplicity, the declarer's twelve
#: cards there, per card: (the contract made?, the position after it)).
Solved = tuple[int, int, dict[int, tuple[bool, Any]]]


def world_count(view: View, worlds: int) -> int:
    """Worlds for a card decision: fewer while the solves are long."""
    left = len(view.hand)
    if left >= 9:
        return max(4, worlds // 2)
    if left >= 7:
        return max(6, (3 * worlds) // 4)
    return worlds


def card_worlds(d: Decision, inference: Inference) -> list[tuple[World, int]]:
    n = world_count(d.view, d.settings.worlds)
    return Sampler(d.know).weighted(d.rng, n, d.settings.pool * n, inference)


def positions(
    view: View, know: Knowledge, worlds: Sequence[tuple[World, int]]
) -> list[tuple[Any, World, int]]:
    """The solver's position of every world, with the world and its multiplicity."""
    found = solver_positions(view, know.declarer, [w for w, _ in worlds])
    return [(pos, w, m) for pos, (w, m) in zip(found, worlds, strict=True)]


def play(d: Decision, inference: Inference) -> Action | None:
    """The card (or Kontra) for ``d``'s view; None when nothing was solved."""
    view, know, clock = d.view, d.know, d.clock
    legal = view.legal_actions
    plays = [a for a in legal if isinstance(a, Play)]
    kontra = next((a for a in legal if isinstance(a, Kontra)), None)
    if not plays:
        return None
    c = view.contract
    assert c is not None
    if len(plays) == 1 and kontra is None:
        return plays[0]
    cards = [int(a.card) for a in plays]
    outcomes = Outcomes(view, know, d.solver, c)
    me_declarer = know.me == know.declarer
    util = outcomes.utility(me_declarer)
    # one solve per class of equal cards
    first_of = card_classes(view)
    solved = list(dict.fromkeys(first_of[card] for card in cards))
    # pass 1: the deciding threshold for every card in every world
    done: list[Solved] = []
    for pos, world, mult in positions(view, know, card_worlds(d, inference)):
        if done and clock.over:
            break
        per: dict[int, tuple[bool, Any]] = {}
        try:
            for card in solved:
                after = pos.play(card)
                per[card] = (outcomes.primary(after), after)
        except Stopped:  # a world not finished in time is left out
            if not done:
                raise
            break
        for card in cards:
            if card not in per:
                per[card] = per[first_of[card]]
        done.append((mult, outcomes.cards12(world), per))
    if not done:
        return None
    total = sum(m for m, _, _ in done)
    wins = {card: sum(m for m, _, per in done if per[card][0]) for card in cards}
    if kontra is not None and not me_declarer:
        if min(wins.values()) / total <= KONTRA_P:
            return kontra
    if len(plays) == 1:
        return plays[0]
    if me_declarer:
        best = max(wins.values())
        running = [card for card in cards if wins[card] >= best - 1]
    else:
        best = min(wins.values())
        running = [card for card in cards if wins[card] <= best + 1]
    # pass 2: Schneider and Schwarz for the cards still in the running,
    # world by world (a world not refined in time keeps its coarse class)
    scores = dict.fromkeys(running, 0.0)
    refine = len(running) > 1
    for mult, cards12, per in done:
        if refine and clock.over:
            refine = False
        outs: dict[int, Any] = {}
        if refine:
            try:
                for card in running:
                    first = first_of[card]
                    if first not in outs:
                        outs[first] = outcomes.outcome(*per[first])
                    outs[card] = outs[first]
            except Stopped:
                refine = False
        if not refine:
            outs = {card: outcomes.coarse(per[card][0]) for card in running}
        for card in running:
            scores[card] += mult * util(outs[card], cards12)
    top = max(scores.values())
    tied = [card for card in running if scores[card] >= top - 1e-9]
    if len(tied) > 1 and c.game != GameType.NULL:
        s = d.settings
        early = len(view.hand) >= 9 and s.early_tiebreak_worlds is not None
        heads = done[: s.early_tiebreak_worlds] if early else done
        tied = by_points(tied, heads[: s.tiebreak_worlds], me_declarer, d.solver, d.clock, first_of)
    choice = tied[0] if len(tied) == 1 else CardPlay(view).choose(tied)
    return next(a for a in plays if a.card == choice)


def by_points(
    tied: list[int],
    done: Sequence[Solved],
    me_declarer: bool,
    solver: ModuleType,
    clock: Clock,
    first_of: dict[int, int] | None = None,
) -> list[int]:
    """Of cards tied on the expected entry, those with the best expected
    open-card points over ``done`` (the declarer's most, the defenders'
    least); all of them if the time runs out first (one exact solve from
    the first trick can take seconds: the solver stops it when the time is
    up). A card of ``first_of`` takes the value of its class's first card."""
    sign = 1 if me_declarer else -1
    totals = dict.fromkeys(tied, 0)
    for mult, _, per in done:
        near: int | None = None  # the last card's value: the next one's is often close
        values: dict[int, int] = {}
        for card in tied:
            first = card if first_of is None else first_of.get(card, card)
            if first not in values:
                if clock.over:
                    return tied
                try:
                    near = values[first] = solver.best_points(per[first][1], near)
                except Stopped:
                    return tied
            totals[card] += sign * mult * values[first]
    top = max(totals.values())
    return [card for card in tied if totals[card] == top]


def win_probability(d: Decision, inference: Inference) -> float:
    """The declarer's share of the card-play worlds he wins (Kontra, Re)."""
    c = d.view.contract
    assert c is not None
    outcomes = Outcomes(d.view, d.know, d.solver, c)
    won = total = 0
    for pos, _, mult in positions(d.view, d.know, card_worlds(d, inference)):
        if total and d.clock.over:
            break
        try:
            won += mult * outcomes.primary(pos)
        except Stopped:
            if not total:
                raise
            break
        total += mult
    if not total:
        raise OutOfTime
    return won / total


#: Per game type, its effective suits (trumps first), each strongest card first.
_ORDERS = card_orders()


def equivalent_cards(game: GameType, cards: Sequence[int], gone: int) -> dict[int, int]:
    """Each of ``cards`` (one seat's legal cards) mapped to the first card of
    its class: cards of one effective suit with no card between them in that
    suit's order but ``gone`` ones (played, or put away) or cards of the same
    class, and the same card points (not needed in Null). In every world the
    open-card solver gives them the same value: swapping them changes no
    trick's winner and no points (the solver merges them the same way)."""
    mine = 0
    for c in cards:
        mine |= 1 << c
    null = game == GameType.NULL
    out: dict[int, int] = {}
    for group in _ORDERS[int(game)]:
        first = -1  # the open class's first card, -1 when none is open
        for card in group:
            if gone >> card & 1:
                continue
            if not mine >> card & 1:
                first = -1
                continue
            if first >= 0 and (null or POINTS[card] == POINTS[first]):
                out[card] = first
            else:
                first = card
                out[card] = card
    return out


def card_classes(view: View) -> dict[int, int]:
    """`equivalent_cards` of the cards ``view``'s seat may play: the cards of
    finished tricks and a skat the seat knows are gone; the current trick's
    are not (a card between two of ours may be the one to beat)."""
    c = view.contract
    assert c is not None
    gone = view.skat.mask if view.skat is not None else 0
    for t in view.tricks:
        for x in t.cards:
            gone |= 1 << int(x)
    cards = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
    return equivalent_cards(c.game, cards, gone)


class Outcomes:
    """Outcome classes and utilities of one card decision."""

    def __init__(self, view: View, know: Knowledge, solver: ModuleType, contract: Contract) -> None:
        self.view = view
        self.know = know
        self.solver = solver
        self.contract = contract
        self.game = contract.game
        self.factor = 4 if view.re else 2 if view.kontra else 1
        self.declarer_played = know.played_by[know.declarer]

    def cards12(self, world: World) -> int:
        """The declarer's ten dealt cards and the skat in this world (for matadors)."""
        return world.hands[self.know.declarer] | self.declarer_played | world.skat

    def coarse(self, won: bool) -> tuple[int, int]:
        """The class of a position known only to be won or lost."""
        if self.game == GameType.NULL:
            return (0, 0) if won else (0, 1)
        if self.contract.schwarz:
            return SCHWARZ if won else LOST
        if self.contract.schneider:
            return SCHNEIDER if won else LOST
        return WON if won else LOST

    def primary(self, pos: Any) -> bool:
        """Does the declarer make his contract from this position (all cards open)?"""
        s = self.solver
        c = self.contract
        if self.game == GameType.NULL:
            return bool(s.null_wins(pos))
        if c.schwarz:
            return bool(s.takes_all(pos))
        return bool(s.reaches(pos, 90 if c.schneider else 61))

    def outcome(self, won: bool, pos: Any) -> tuple[int, int]:
        """Representative (declarer points, tricks) of the class of this position."""
        s = self.solver
        c = self.contract
        if self.game == GameType.NULL:
            return (0, 0) if won else (0, 1)
        if c.schwarz:
            return SCHWARZ if won else LOST
        if won:
            if not c.schneider and not s.reaches(pos, 90):
                return WON
            if pos.defender_tricks == 0 and s.takes_all(pos):
                return SCHWARZ
            return SCHNEIDER
        return LOST if s.reaches(pos, 31) else LOST_SCHNEIDER

    def utility(self, declarer: bool) -> Callable[[tuple[int, int], int], float]:
        c = self.contract
        bid = self.view.bid
        players = self.view.players
        factor = self.factor
        rules = self.view.rules  # the table's house rules that change a value

        def u(outcome: tuple[int, int], cards12: int) -> float:
            points, tricks = outcome
            v = value_game(c, bid, points, tricks, cards12, rules=rules)
            entry = v.seeger_fabian_entry(factor)
            if declarer:
                return float(entry)
            return float(seeger_fabian_others(v.won, players) - entry)

        return u
