"""The review of one seat's decisions in a finished deal, each judged from
that seat's own view at that moment (issue 48, point 1; docs/players.md,
"The review").

For every decision the seat made, the deal is replayed up to it and the
seat's `View` rebuilt from the engine (`Deal.view`): the review sees what
the seat saw then and nothing else (never a hidden card, never a later
card). The strong player (`search`) values every legal action on that view
with its own machinery, and the review reports the chosen action's value,
the best action's and the difference, ``loss`` (>= 0), in expected
Seeger-Fabian points (R8.2) as the player weighs them: the declarer's
entry; for a defender, the defenders' bonus minus the declarer's entry.

- bid, hold or pass: `handeval.options` at the bid (the game the hand
  would play at that value; passing scores ``bid_floor``), as `contract.bid`;
- Hand or pickup: the evaluator's expected result of the best pickup game
  against each Hand game less ``HAND_MARGIN``, as `contract.hand_or_pickup`;
- discard and game: `contract.DiscardSolves`, the discard's solves in worlds
  of the opponents' hands with the evaluator's prior (every candidate solved
  in every world);
- a card: `cards.card_values`, the expected entry of every legal card over
  the worlds the player samples with its inference;
- Kontra and Re: `cards.doubling_values`, doubling against not doubling.

A decision with one legal action is ``fine`` with loss 0 and no search.
Ramsch (the solver knows none), the Schieberamsch's pushes, claims,
concessions and Kontra not said off one's turn are not judged. The worlds
of each decision are drawn from a stream seeded by ``seed`` and the view
(as the player's are), so a review of the same deal gives the same figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import (
    Action,
    Announce,
    Bid,
    Contract,
    Deal,
    Discard,
    GameType,
    Hold,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Phase,
    Pickup,
    Play,
    Re,
    View,
)
from ..engine.cards import mask_cards
from .handeval import (
    FORTY,
    HAND_MARGIN,
    Chances,
    Evaluator,
    expected_result,
    game_value,
    options,
)
from .handeval import default as default_evaluator
from .luck import Luck, promise
from .search import SearchSettings
from .search.cards import card_values, doubling_values
from .search.contract import DiscardSolves, discard_candidates, discard_games
from .search.contract import options as games_of
from .search.decision import Clock, Decision
from .search.entries import prior_entry
from .strength import cold_null
from .worlds import Knowledge

#: The verdicts by loss in expected Seeger-Fabian points: below the first
#: bound ``fine``, then ``inaccuracy``, ``mistake``, at or above the last
#: ``blunder``. A plain game won is worth about +70 to its declarer and lost
#: about -120 (R8.2), a swing near 200: a blunder (80) costs 40% of it, the
#: chance of a game turned. ``fine`` reaches above the noise of the strong
#: player's own few worlds (10 to 20 a card, against the review's 64): it
#: is ``fine`` on 95% or more of its decisions, measured with
#: `bench/strength/review_levels.py` (docs/benchmarks.md).
BOUNDS: tuple[float, float, float] = (20.0, 40.0, 80.0)
VERDICTS = ("fine", "inaccuracy", "mistake", "blunder")
_DOUBLING = (Kontra, NoKontra, Re, NoRe)
#: The review's worlds: the player's settings with more worlds than it plays
#: with, so that the review's own sampling noise stays below ``BOUNDS[0]``
#: on nearly all of the strong player's decisions (docs/benchmarks.md); it
#: runs once after the deal, not on the clock.
REVIEW_WORLDS = 64
REVIEW_DISCARD_WORLDS = 16


def verdict(loss: float) -> str:
    """The word for a loss (`BOUNDS`)."""
    for word, bound in zip(VERDICTS, BOUNDS, strict=False):
        if loss < bound:
            return word
    return VERDICTS[-1]


@dataclass(frozen=True)
class Judged:
    """One decision of the reviewed seat."""

    deal: int  # the deal's number in its list (1 for a single deal)
    seat: int
    move: int  # the action's index in the deal's history
    phase: str
    action: str
    best: str
    value: float  # expected Seeger-Fabian points of the action taken
    best_value: float
    loss: float
    verdict: str
    choices: int  # legal actions at the decision
    # a card's number in the deal's card play from 1 (the analysis board's
    # step), None for a decision before the card play or a Kontra
    step: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "seat": self.seat,
            "move": self.move,
            "phase": self.phase,
            "action": self.action,
            "best": self.best,
            "value": round(self.value, 2),
            "best_value": round(self.best_value, 2),
            "loss": round(self.loss, 2),
            "verdict": self.verdict,
            "choices": self.choices,
            "step": self.step,
        }

    def describe(self) -> str:
        head = f"deal {self.deal} move {self.move} ({self.phase}): {self.action}"
        if self.loss == 0:
            return f"{head}, {self.verdict}"
        return f"{head}, best {self.best}, loss {self.loss:.1f}: {self.verdict}"


class Reviewer:
    """The strong player's judgement of decisions: its settings (those of the
    ``search`` level by default), its hand evaluator and the review's seed."""

    def __init__(
        self,
        settings: SearchSettings | None = None,
        evaluator: Evaluator | None = None,
        seed: int = 0,
    ) -> None:
        self.settings = settings or SearchSettings(
            worlds=REVIEW_WORLDS, discard_worlds=REVIEW_DISCARD_WORLDS
        )
        self.evaluator = evaluator or default_evaluator()
        self.seed = seed
        s = self.settings
        # the player's inferences (the auction read by the bid model, as
        # the strong level reads it)
        self.before_play = s.inference(play=False)
        self.in_play = s.inference(play=True)

    def review(self, deal: Deal, seat: int, number: int = 1) -> list[Judged]:
        """Every judged decision of ``seat`` in the finished ``deal``.
        ValueError for a deal not over or a seat not at the table."""
        if deal.result is None:
            raise ValueError("the deal is not over")
        if not 0 <= seat < deal.players:
            raise ValueError(f"seat {seat} is not at this table")
        fresh = deal.fresh()
        out: list[Judged] = []
        cards = 0
        for move, (who, action) in enumerate(deal.history):
            if isinstance(action, Play):
                cards += 1
            if who == seat and fresh.phase is not Phase.DONE:
                judged = self.judge(fresh.view(seat), action, number, move)
                if judged is not None:
                    if isinstance(action, Play):
                        judged = replace(judged, step=cards)
                    out.append(judged)
            fresh.apply(action, who)
        return out

    def judge(self, view: View, action: Action, number: int = 1, move: int = 0) -> Judged | None:
        """The judgement of ``action`` taken on ``view``; None where the
        review does not judge (see the module's docstring)."""
        legal = view.legal_actions
        if action not in legal or view.seat is None:
            return None  # a claim, a concession, ...
        phase = str(view.phase)
        if view.phase is Phase.PUSH or (
            view.contract is not None and view.contract.game == GameType.RAMSCH
        ):
            return None
        if len(legal) == 1:
            return Judged(
                number, view.seat, move, phase, str(action), str(action), 0, 0, 0, "fine", 1
            )
        values = self.values(view, action)
        if values is None:
            return None
        mine = values[action]
        best = max(values, key=lambda a: (values[a], a == action))
        loss = max(0.0, values[best] - mine)
        if loss < 1e-9:
            best, loss = action, 0.0
        return Judged(
            number,
            view.seat,
            move,
            phase,
            str(action),
            str(best),
            mine,
            values[best],
            loss,
            verdict(loss),
            len(legal),
        )

    def values(self, view: View, action: Action) -> dict[Action, float] | None:
        """The expected result of every action the review compares at
        ``view`` (the legal ones, or those of the kind ``action`` is: cards
        with cards, doubling with not doubling); None: not judged."""
        from . import solver

        know = Knowledge.from_view(view)
        # the worlds of a decision come from the review's seed and the view,
        # never from what else was reviewed (a review replays exactly)
        rng = random.Random(f"review/{self.seed}/{len(view.history)}/{view.hand.mask}")
        d = Decision(view, know, solver, Clock(None), rng, self.settings)
        ph = view.phase
        if ph is Phase.BIDDING:
            return self._bidding(view, know)
        if ph is Phase.SKAT:
            return self._hand_or_pickup(view, know)
        if ph is Phase.DISCARD:
            return self._discard(d, action)
        if ph is Phase.DECLARE:
            return self._declare(d, action)
        if isinstance(action, _DOUBLING):
            plain, doubled = doubling_values(d, self.in_play)
            if any(isinstance(a, (Re, NoRe)) for a in view.legal_actions):
                return {Re(): doubled, NoRe(): plain}
            # Kontra said during the card play is compared with not saying it now
            return {Kontra(): doubled, NoKontra(): plain}
        if isinstance(action, Play):
            got = card_values(d, self.in_play)
            if got is None:
                return None
            per_card = got[0]
            return {a: per_card[int(a.card)] for a in view.legal_actions if isinstance(a, Play)}
        return None

    # ------------------------------------------------------------ contract
    def _forty(self) -> float:
        return FORTY if self.settings.forty is None else self.settings.forty

    def _bidding(self, view: View, know: Knowledge) -> dict[Action, float]:
        """Passing scores ``bid_floor``; a bid or hold at value ``b`` the best
        game the hand would declare at ``b`` (pickup or Hand), its chances
        lowered by what the others showed (`contract.bid`'s judgement)."""
        s = self.settings
        shown = know.shown_by_others if s.contest else 0

        def go_on(b: int) -> float:
            scores = [
                score
                for stage in ("pickup", "hand")
                for score, _, _ in options(
                    self.evaluator,
                    view.hand.mask,
                    know.me,
                    stage,
                    b,
                    shown,
                    s.contest,
                    view.rules,
                    self._forty(),
                )
            ]
            return max(scores, default=_lost_at(b, self._forty()))

        out: dict[Action, float] = {}
        for a in view.legal_actions:
            if isinstance(a, Pass):
                out[a] = s.bid_floor
            elif isinstance(a, Hold):
                out[a] = go_on(view.bid)
            elif isinstance(a, Bid):
                out[a] = go_on(a.value)
        return out

    def _hand_or_pickup(self, view: View, know: Knowledge) -> dict[Action, float]:
        """The best pickup game's expected result against each Hand game's
        less ``HAND_MARGIN`` (`handeval.hand_game`'s comparison)."""
        hand, bid, forty = view.hand.mask, view.bid, self._forty()
        picks = options(self.evaluator, hand, know.me, "pickup", bid, rules=view.rules, forty=forty)
        out: dict[Action, float] = {}
        for a in view.legal_actions:
            if isinstance(a, Pickup):
                out[a] = max((sc for sc, _, _ in picks), default=_lost_at(bid, forty))
            elif isinstance(a, Announce):
                c = a.contract
                ch = self.evaluator.chances(hand, c.game, know.me, "hand")
                if c.game == GameType.NULL and cold_null(hand, know.me == 0):
                    ch = Chances(1.0, 0.0)  # won open too (`hand_game`)
                if c == Contract(c.game, hand=True):
                    value = game_value(c.game, hand, hand=True, rules=view.rules)
                    out[a] = expected_result(ch, c.game, value, bid, forty) - HAND_MARGIN
                else:
                    # announced Schneider, Schwarz or Ouvert: the evaluator's
                    # chances (its Schneider chance for an announced level)
                    out[a] = prior_entry(c, bid, ch, hand, view.rules, forty) - HAND_MARGIN
        return out

    def _discard(self, d: Decision, action: Action) -> dict[Action, float] | None:
        """Each discard compared: the player's candidates and the one taken,
        each with its best game, every candidate solved in every world."""
        assert isinstance(action, Discard)
        view = d.view
        hand12 = view.hand.mask
        games = discard_games(view, hand12)
        if not games:
            return None  # no game worth solving: the player falls back
        taken = sum(1 << int(c) for c in action.cards)
        cands = discard_candidates(games, hand12)
        for c in dict.fromkeys(c for c, _ in cands):  # the games solved, one per Null
            if (c, taken) not in cands:
                cands.append((c, taken))
        table = DiscardSolves(d, self.evaluator, self.before_play, cands, hand12)
        best: dict[int, float] = {}
        for k in cands:
            table.advance(k, len(table.worlds), timed=False)
            v, _ = table.value(k)
            best[k[1]] = max(best.get(k[1], -1e9), v)
        by_cards = {tuple(mask_cards(m)): v for m, v in best.items()}
        return {
            a: by_cards[a.cards]
            for a in view.legal_actions
            if isinstance(a, Discard) and a.cards in by_cards
        }

    def _declare(self, d: Decision, action: Action) -> dict[Action, float] | None:
        """The games the player considers with these ten cards and the one
        announced, each valued with the discard made."""
        assert isinstance(action, Announce)
        view = d.view
        skat = view.skat.mask if view.skat is not None else 0
        hand12 = view.hand.mask | skat
        legal = set(view.legal_actions)
        games = [c for c in games_of(hand12) if Announce(c) in legal]
        if action.contract not in games:
            games.append(action.contract)
        cands = [(c, skat) for c in games]
        table = DiscardSolves(d, self.evaluator, self.before_play, cands, hand12)
        out: dict[Action, float] = {}
        for k in cands:
            table.advance(k, len(table.worlds), timed=False)
            out[Announce(k[0])] = table.expected(k, k[0])
        return out


def _lost_at(bid: int, forty: float) -> float:
    """A game lost at ``bid`` (nothing playable): -50, twice the bid and the
    defenders' 40s (`handeval.expected_result`)."""
    return -(2 * bid + 50.0 + 40.0 * forty)


def review_deal(
    deal: Deal, seat: int, number: int = 1, reviewer: Reviewer | None = None
) -> list[Judged]:
    """`Reviewer.review` with the strong player's defaults."""
    return (reviewer or Reviewer()).review(deal, seat, number)


#: How many of a list's decisions the summary names as its costliest (those
#: marked: a loss of at least ``BOUNDS[0]``).
COSTLIEST = 5


@dataclass(frozen=True)
class DealReview:
    """One seat's review of one deal: its judged decisions and its luck."""

    judged: tuple[Judged, ...]
    luck: Luck

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.luck.deal,
            "seat": self.luck.seat,
            "decisions": [j.to_dict() for j in self.judged],
            "luck": self.luck.to_dict(),
        }

    def describe(self) -> str:
        """The deal's luck against play in one line (`skat review`)."""
        lk = self.luck
        after = "" if lk.skat is None else f" (after the skat {lk.skat:+.0f})"
        return (
            f"deal {lk.deal}: the cards promised {lk.promised:+.0f}{after};"
            f" made {lk.made:+d}: {lk.play:+.0f} from play"
        )


def deal_review(
    deal: Deal, seat: int, number: int = 1, reviewer: Reviewer | None = None
) -> DealReview:
    """The review and the luck of ``seat`` in the finished ``deal``: the
    unit the server makes and keeps (one analysis pool call)."""
    r = reviewer or Reviewer()
    judged = tuple(r.review(deal, seat, number)) if deal.position_of(seat) is not None else ()
    return DealReview(judged, promise(deal, seat, number, r.evaluator))


def summary(seat: int, reviews: Sequence[DealReview | dict[str, Any]]) -> dict[str, Any]:
    """A list's review of one seat from its deals' reviews (`DealReview` or
    their dictionaries): each deal's luck against play with its loss, the
    totals ("the cards promised +280 over the list; made +312: +32 from
    play"), the verdicts counted and the costliest marked decisions. The
    server and `skat review` both answer with it."""
    dicts = [x.to_dict() if isinstance(x, DealReview) else x for x in reviews]
    deals = []
    every: list[dict[str, Any]] = []
    for d in dicts:
        decisions = d["decisions"]
        every += decisions
        deals.append(
            {
                **d["luck"],
                "decisions": len(decisions),
                "loss": round(sum(j["loss"] for j in decisions), 1),
                "marked": sum(1 for j in decisions if j["verdict"] != VERDICTS[0]),
            }
        )
    promised = round(sum(d["luck"]["promised"] for d in dicts), 1)
    made = sum(d["luck"]["made"] for d in dicts)
    costly = sorted(
        (j for j in every if j["loss"] >= BOUNDS[0]),
        key=lambda j: (-j["loss"], j["deal"], j["move"]),
    )
    return {
        "seat": seat,
        "deals": deals,
        "promised": promised,
        "made": made,
        "play": round(made - promised, 1),
        "decisions": len(every),
        "verdicts": {w: sum(1 for j in every if j["verdict"] == w) for w in VERDICTS},
        "average_loss": round(sum(j["loss"] for j in every) / len(every), 2) if every else 0.0,
        "costliest": costly[:COSTLIEST],
    }


def describe_summary(s: dict[str, Any]) -> str:
    """A `summary` in one line (`skat review`)."""
    head = (
        f"the cards promised {s['promised']:+.0f} over the list; made {s['made']:+d}:"
        f" {s['play']:+.0f} from play; {s['decisions']} decisions, average loss"
        f" {s['average_loss']:.1f}"
    )
    if not s["costliest"]:
        return head + "; no costly decision"
    worst = "; ".join(
        f"deal {j['deal']} move {j['move']} {j['action']} (best {j['best']}, loss {j['loss']:.0f})"
        for j in s["costliest"]
    )
    return f"{head}; costliest: {worst}"


def review_deals(
    deals: Sequence[Deal], seat: int, reviewer: Reviewer | None = None
) -> list[Judged]:
    """The review of ``seat`` over the finished deals of a list (numbered
    from 1); deals not over are left out."""
    r = reviewer or Reviewer()
    out: list[Judged] = []
    for number, deal in enumerate(deals, 1):
        if deal.result is not None:
            out += r.review(deal, seat, number)
    return out
