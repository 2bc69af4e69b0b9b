"""`SearchPlayer`: the decisions of the strong level, dispatched by phase,
each on its own clock and random stream, with `heuristic` behind it."""

from __future__ import annotations

import random
from dataclasses import replace
from types import ModuleType
from typing import Any

from ...engine import Action, Announce, Contract, GameType, Kontra, NoKontra, NoRe, Phase, Re, View
from .. import bidmodel, seatmodel
from ..base import BasePlayer
from ..handeval import Evaluator
from ..handeval import default as default_evaluator
from ..heuristic import HeuristicPlayer
from ..solver.api import Stopped
from ..solver.api import limit as solver_limit
from ..worlds import Inference, Knowledge
from . import cards, contract
from .decision import Clock, Decision, OutOfTime
from .settings import HARD_LIMIT, KONTRA_P, RE_P, SearchSettings


def _solver() -> ModuleType | None:
    try:
        from .. import solver
    except ImportError:  # pragma: no cover - the solver ships with the package
        return None
    return solver


class SearchPlayer(BasePlayer):
    """The strong player (see the package's docstring). ``settings`` (or
    keyword changes of the defaults: ``SearchPlayer(rng, worlds=4)``) say
    how it searches; ``evaluator`` is the hand evaluator of its bids, its
    Hand games and its discard's prior (the shipped one by default)."""

    name = "search"

    def __init__(
        self,
        rng: random.Random | None = None,
        settings: SearchSettings | None = None,
        *,
        evaluator: Evaluator | None = None,
        seat_model: seatmodel.SeatModel | None = None,
        bids: bidmodel.BidModel | None = None,
        **changes: Any,
    ) -> None:
        super().__init__(rng)
        self.settings = replace(settings or SearchSettings(), **changes)
        self.evaluator = evaluator or default_evaluator()
        # the model of the other seats read with ``play_model`` (the shipped
        # one unless the lab gives another)
        self.seat_model = seat_model
        self.bids = bids  # the same for the bid model of ``bid_model``
        self.fallback = HeuristicPlayer(random.Random(self.rng.getrandbits(64)))
        # every decision draws its worlds from its own stream, seeded by the
        # player's seed and what the seat sees (the history's length, its
        # hand): the same view draws the same worlds whatever was decided
        # elsewhere, so two settings compared on the same deals differ only
        # from the first decision that changed (common random numbers)
        self._stream = self.rng.getrandbits(64)
        # the game chosen with the last discard: (ten cards kept, discard) -> game
        self._plan: dict[tuple[int, int], Contract] = {}
        self.fallbacks = 0  # decisions left to `heuristic` because of a failure or the clock

    @property
    def notes(self) -> dict[tuple[int, int], Contract]:
        """What this player carries to its next decision: the game planned
        with its last discard (`levels.choose_noted`, for a caller that
        makes each decision with a fresh player)."""
        return dict(self._plan)

    @notes.setter
    def notes(self, plan: dict[tuple[int, int], Contract]) -> None:
        self._plan = dict(plan)

    @property
    def time_budget(self) -> float | None:
        return self.settings.time_budget

    @time_budget.setter
    def time_budget(self, seconds: float | None) -> None:
        self.settings = replace(self.settings, time_budget=seconds)

    @property
    def time_limit(self) -> float | None:
        return self.settings.time_limit

    @time_limit.setter
    def time_limit(self, seconds: float | None) -> None:
        self.settings = replace(self.settings, time_limit=seconds)

    def _inference(self, play: bool) -> Inference:
        return self.settings.inference(play, self.seat_model, self.bids)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.contract is not None and view.contract.game == GameType.RAMSCH:
            return self.fallback.choose(view)  # the solver has no Ramsch
        budget = self.settings.time_budget
        clock = Clock.start(budget)
        self.rng.seed(f"{self._stream}/{len(view.history)}/{view.hand.mask}")
        action: Action | None
        try:
            # the solver stops any search (`Stopped`) at the time limit
            # (HARD_LIMIT times the budget unless given); the soft clock, read
            # between worlds and solves, lets the first world finish until then
            hard = self.settings.time_limit
            if hard is None and budget is not None:
                hard = HARD_LIMIT * budget
            with solver_limit(hard):
                action = self._choose(view, clock)
        except (OutOfTime, Stopped):
            action = None
        except Exception:
            if self.settings.strict:
                raise
            action = None
        if action is None or action not in legal:
            self.fallbacks += 1
            return self.fallback.choose(view)
        return action

    def _choose(self, view: View, clock: Clock) -> Action | None:
        solver = _solver()
        if solver is None:
            return None
        know = Knowledge.from_view(view)
        d = Decision(view, know, solver, clock, self.rng, self.settings)
        ph = view.phase
        legal = view.legal_actions
        if ph is Phase.BIDDING:
            return contract.bid(view, know, self.evaluator, self.settings)
        if ph is Phase.SKAT:
            return contract.hand_or_pickup(view, know, self.evaluator, self.settings)
        if ph is Phase.DISCARD:
            got = contract.discard(d, self.evaluator, self._inference(play=False))
            if got is None:
                return None
            action, game = got
            put = sum(1 << int(c) for c in action.cards)
            self._plan = {(view.hand.mask & ~put, put): game}  # this deal's only
            return action
        if ph is Phase.DECLARE:
            chosen = planned(view, self._plan)
            if chosen is None:
                chosen = contract.declare(d, self._inference(play=False))
            return None if chosen is None else Announce(chosen)
        if any(isinstance(a, (Re, NoRe)) for a in legal):
            p = cards.win_probability(d, self._inference(play=True))
            re_choice: type[Action] = Re if p >= RE_P else NoRe
            return next(a for a in legal if isinstance(a, re_choice))
        if ph is Phase.KONTRA:
            p = cards.win_probability(d, self._inference(play=True))
            kontra_choice: type[Action] = Kontra if p <= KONTRA_P else NoKontra
            return next((a for a in legal if isinstance(a, kontra_choice)), None)
        return cards.play(d, self._inference(play=True))


def planned(view: View, notes: Any) -> Contract | None:
    """The game planned with the discard that led to ``view`` (an
    announcement's), if ``notes`` (`SearchPlayer.notes`) hold it."""
    if not isinstance(notes, dict) or view.phase is not Phase.DECLARE:
        return None
    skat = view.skat.mask if view.skat is not None else 0
    game = notes.get((view.hand.mask, skat))
    return game if isinstance(game, Contract) else None
