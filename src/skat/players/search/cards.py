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
point taken makes his errors costlier), then to `heuristic`'s card (with
the lab setting ``policy``, to the learned card policy's: `by_policy`).
Null: `null_wins`. Kontra and Re are read from the same worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...engine import Action, Contract, GameType, Kontra, Play, View
from ...engine.cards import POINTS
from ...engine.values import seeger_fabian_others, value_game
from .. import seatmodel
from ..cardplay import CardPlay
from ..solver.api import Stopped
from ..solver.position import card_orders
from ..worlds import Inference, Knowledge, Sampler, World, solver_positions
from .decision import Clock, Decision, OutOfTime
from .entries import LOST, LOST_SCHNEIDER, SCHNEIDER, SCHWARZ, WON
from .settings import KONTRA_P, SearchSettings

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


@dataclass
class CardSolves:
    """The first pass of a card decision: per world (with its multiplicity)
    whether the declarer makes his contract after each legal card, and the
    position after it, for the second pass (`entries`)."""

    cards: list[int]  # the legal cards
    first_of: dict[int, int]  # each card's class of equal cards (`card_classes`)
    outcomes: Outcomes
    me_declarer: bool
    done: list[Solved]

    @property
    def total(self) -> int:
        return sum(m for m, _, _ in self.done)

    def wins(self) -> dict[int, int]:
        """Per card, the worlds (counted with multiplicity) the declarer wins after it."""
        return {c: sum(m for m, _, per in self.done if per[c][0]) for c in self.cards}


def solve_cards(d: Decision, inference: Inference) -> CardSolves | None:
    """The first pass over the worlds of ``d`` (the deciding threshold of
    every legal card in every world, one solve per class of equal cards);
    None when no world was solved."""
    view, know, clock = d.view, d.know, d.clock
    cards = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
    c = view.contract
    assert c is not None
    outcomes = Outcomes(view, know, d.solver, c)
    first_of = card_classes(view)
    solved = list(dict.fromkeys(first_of[card] for card in cards))
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
    return CardSolves(cards, first_of, outcomes, know.me == know.declarer, done)


def entries(s: CardSolves, cards: Sequence[int], clock: Clock, refine: bool) -> dict[int, float]:
    """The second pass: per card of ``cards``, its utility (`Outcomes.utility`)
    summed over the worlds with their multiplicities (divide by ``s.total``
    for the expected value). With ``refine``, Schneider and Schwarz are
    solved world by world (a world not refined in time keeps its coarse
    class, as do all of them without ``refine``)."""
    util = s.outcomes.utility(s.me_declarer)
    scores = dict.fromkeys(cards, 0.0)
    for mult, cards12, per in s.done:
        if refine and clock.over:
            refine = False
        outs: dict[int, Any] = {}
        if refine:
            try:
                for card in cards:
                    first = s.first_of[card]
                    if first not in outs:
                        outs[first] = s.outcomes.outcome(*per[first])
                    outs[card] = outs[first]
            except Stopped:
                refine = False
        if not refine:
            outs = {card: s.outcomes.coarse(per[card][0]) for card in cards}
        for card in cards:
            scores[card] += mult * util(outs[card], cards12)
    return scores


def card_values(d: Decision, inference: Inference) -> tuple[dict[int, float], float] | None:
    """What the player weighs for each legal card of ``d``, on its own worlds
    and solves (the review reads it, `skat.players.review`): per card its
    expected utility (the declarer's Seeger-Fabian entry; for a defender
    the defenders' bonus minus that entry, R8.2), every card refined; and
    the declarer's share of the worlds won after the best card for the
    defenders (what Kontra is read from). None when nothing was solved."""
    s = solve_cards(d, inference)
    if s is None:
        return None
    total = s.total
    scores = entries(s, s.cards, d.clock, refine=True)
    return {c: v / total for c, v in scores.items()}, min(s.wins().values()) / total


def play(d: Decision, inference: Inference) -> Action | None:
    """The card (or Kontra) for ``d``'s view; None when nothing was solved."""
    view = d.view
    legal = view.legal_actions
    plays = [a for a in legal if isinstance(a, Play)]
    kontra = next((a for a in legal if isinstance(a, Kontra)), None)
    if not plays:
        return None
    c = view.contract
    assert c is not None
    if len(plays) == 1 and kontra is None:
        return plays[0]
    if kontra is None and len(set(card_classes(view).values())) == 1:
        # one class of equal cards: every world values them alike, so every
        # pass below would keep them all tied; the worlds are not drawn
        return _tied_choice(view, plays, d.settings)
    return _solved_play(d, inference, plays, kontra)


def _tied_choice(view: View, plays: Sequence[Play], st: SearchSettings) -> Play:
    """Of ``plays``, all of one class of equal cards, the one `play` takes
    of cards still tied after its passes."""
    cards = [int(a.card) for a in plays]
    choice = by_policy(view, cards) if st.policy is not None else CardPlay(view).choose(cards)
    return next(a for a in plays if a.card == choice)


def _solved_play(
    d: Decision, inference: Inference, plays: Sequence[Play], kontra: Kontra | None
) -> Action | None:
    """`play` by the worlds' solves."""
    view = d.view
    c = view.contract
    assert c is not None
    s = solve_cards(d, inference)
    if s is None:
        return None
    cards, me_declarer = s.cards, s.me_declarer
    total = s.total
    wins = s.wins()
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
    # pass 2: Schneider and Schwarz for the cards still in the running
    scores = entries(s, running, d.clock, refine=len(running) > 1)
    top = max(scores.values())
    st = d.settings
    slack = 1e-9 + (st.policy or 0.0) * total
    tied = [card for card in running if scores[card] >= top - slack]
    if len(tied) > 1 and st.traps and decided(wins, total, me_declarer, st.decided):
        chance = reply_model(view) if st.play_model else None
        tied = by_traps(
            tied, s.done[: st.traps], s.outcomes.primary, me_declarer, d.clock, s.first_of, chance
        )
    if len(tied) > 1 and c.game != GameType.NULL:
        early = len(view.hand) >= 9 and st.early_tiebreak_worlds is not None
        heads = s.done[: st.early_tiebreak_worlds] if early else s.done
        tied = by_points(
            tied, heads[: st.tiebreak_worlds], me_declarer, d.solver, d.clock, s.first_of
        )
    if len(tied) == 1:
        choice = tied[0]
    elif st.policy is not None:
        choice = by_policy(view, tied)
    else:
        choice = CardPlay(view).choose(tied)
    return next(a for a in plays if a.card == choice)


def by_policy(view: View, tied: Sequence[int]) -> int:
    """Of ``tied`` (legal cards of ``view``'s seat), the one the learned card
    policy (`seatmodel.card_policy`: what `search` plays, learned from its
    choices) finds likeliest; the first in card order of equals."""
    probs = seatmodel.card_policy().probabilities(seatmodel.Moment.from_view(view), tied)
    return max(sorted(tied), key=lambda card: probs[card])


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


def decided(wins: dict[int, int], total: int, me_declarer: bool, share: float) -> bool:
    """Is the contract lost for ``me``'s side after every card in all but
    ``share`` of the worlds (all cards open)? As declarer: won in at most
    that share; as defender: won by the declarer in all but it."""
    if me_declarer:
        return max(wins.values()) <= share * total
    return min(wins.values()) >= (1 - share) * total


def by_traps(
    tied: list[int],
    done: Sequence[Solved],
    makes: Callable[[Any], bool],
    me_declarer: bool,
    clock: Clock,
    first_of: dict[int, int],
    chance: Chance | None = None,
) -> list[int]:
    """Of cards tied on the expected entry where the game looks decided,
    those that give the other side the most ways to go wrong: per world of
    ``done``, when the next card after ours is an opponent's, the share of
    its legal replies after which the contract's fate turns (``makes``: does
    the declarer make it, all cards open from there); a world where our
    side plays next counts none, one the card already wins for our side
    counts 1. The others play by what they see, not by the open cards, so
    a card that leaves them a guess wins back games the open-card points
    call lost (issue 53, point 3). With ``chance`` (`reply_model`), each
    reply counts by how likely that seat plays it, else all alike. All of
    ``tied`` if the time runs out."""
    totals = dict.fromkeys(tied, 0.0)
    for mult, _, per in done:
        shares: dict[int, float] = {}
        for card in tied:
            first = first_of.get(card, card)
            if first not in shares:
                if clock.over:
                    return tied
                try:
                    shares[first] = _traps(*per[first], first, makes, me_declarer, chance)
                except Stopped:
                    return tied
            totals[card] += mult * shares[first]
    top = max(totals.values())
    return [card for card in tied if totals[card] >= top - 1e-9]


#: How likely the seat to move at a solver position plays each of its legal cards.
#: (The position after our card, our card, the replies.)
Chance = Callable[[Any, int, list[int]], dict[int, float]]


def _traps(
    made: bool,
    after: Any,
    card: int,
    makes: Callable[[Any], bool],
    me_declarer: bool,
    chance: Chance | None = None,
) -> float:
    """`by_traps`'s share of one world after one card."""
    if made == me_declarer:  # ours in this world already
        return 1.0
    mover = after.to_move
    if (mover != after.declarer) != me_declarer or not after.tricks_left:
        return 0.0  # our side plays next
    replies = after.legal_cards()
    if chance is None:
        return sum(makes(after.play(r)) != made for r in replies) / len(replies)
    probs = chance(after, card, replies)
    return sum(probs[r] for r in replies if makes(after.play(r)) != made)


def reply_model(view: View, uniform: float = 0.2) -> Chance:
    """`Chance` by the learned seat model (`seatmodel`; issue 53, point 4),
    ``uniform`` of it uniform play: the seat sees the tricks completed
    before ``view``'s moment, and the current one's cards if it completed."""
    c = view.contract
    assert c is not None
    model = seatmodel.default()
    gone = 0
    for t in view.tricks:
        for x in t.cards:
            gone |= 1 << int(x)
    in_trick = 0
    for _, x in view.trick:
        in_trick |= 1 << int(x)
    done = len(view.tricks)

    def chance(after: Any, card: int, replies: list[int]) -> dict[int, float]:
        closed = not after.trick  # our card completed the trick
        seen = gone | (in_trick | 1 << card if closed else 0)
        trick = tuple(((after.leader + i) % 3, x) for i, x in enumerate(after.trick))
        m = seatmodel.Moment(
            c.game,
            after.to_move,
            after.declarer,
            after.hands[after.to_move],
            trick,
            seen,
            done + closed,
        )
        probs = model.probabilities(m, replies)
        share = uniform / len(replies)
        return {r: share + (1 - uniform) * probs[r] for r in replies}

    return chance


def world_wins(d: Decision, inference: Inference) -> tuple[Outcomes, list[tuple[int, bool, int]]]:
    """Per card-play world of ``d`` (as many as the clock allows): its
    multiplicity, whether the declarer makes his contract from here, all
    cards open, and his twelve cards there."""
    c = d.view.contract
    assert c is not None
    outcomes = Outcomes(d.view, d.know, d.solver, c)
    rows: list[tuple[int, bool, int]] = []
    for pos, world, mult in positions(d.view, d.know, card_worlds(d, inference)):
        if rows and d.clock.over:
            break
        try:
            won = outcomes.primary(pos)
        except Stopped:
            if not rows:
                raise
            break
        rows.append((mult, won, outcomes.cards12(world)))
    if not rows:
        raise OutOfTime
    return outcomes, rows


def win_probability(d: Decision, inference: Inference) -> float:
    """The declarer's share of the card-play worlds he wins (Kontra, Re)."""
    _, rows = world_wins(d, inference)
    return sum(m for m, won, _ in rows if won) / sum(m for m, _, _ in rows)


def doubling_values(d: Decision, inference: Inference) -> tuple[float, float]:
    """The expected utility (`Outcomes.utility`) of ``d``'s seat without and
    with doubling the game now (Kontra, Re: R9.3), in the worlds
    `win_probability` reads; each world's outcome is the coarse won or lost."""
    outcomes, rows = world_wins(d, inference)
    me_declarer = d.know.me == d.know.declarer
    total = sum(m for m, _, _ in rows)
    out = []
    for factor in (outcomes.factor, 2 * outcomes.factor):
        util = outcomes.utility(me_declarer, factor)
        out.append(sum(m * util(outcomes.coarse(won), c12) for m, won, c12 in rows) / total)
    return out[0], out[1]


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

    def utility(
        self, declarer: bool, factor: int | None = None
    ) -> Callable[[tuple[int, int], int], float]:
        """The seat's utility of an outcome class: the declarer's Seeger-Fabian
        entry; a defender's bonus minus it (R8.2). ``factor``: Kontra and Re's
        (the view's by default)."""
        c = self.contract
        bid = self.view.bid
        players = self.view.players
        factor = self.factor if factor is None else factor
        rules = self.view.rules  # the table's house rules that change a value

        def u(outcome: tuple[int, int], cards12: int) -> float:
            points, tricks = outcome
            v = value_game(c, bid, points, tricks, cards12, rules=rules)
            entry = v.seeger_fabian_entry(factor)
            if declarer:
                return float(entry)
            return float(seeger_fabian_others(v.won, players) - entry)

        return u
