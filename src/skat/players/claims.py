"""How a computer defender answers a claim or a partner's concession (R6.6).

The engine's reading (docs/rules-decisions.md, R6.6): a declarer's `claim`
(`claim schneider`, `claim schwarz`: with the level he claims) shows his
cards and changes nothing by itself; a defender agrees by conceding, or
says no (`refuse`), and the claim is accepted once both have conceded. An
accepted claim counts the game and only the levels claimed.

- **After a claim** a computer defender concedes exactly when the shown
  cards make what was claimed against every defence: the open-card solver
  is asked in every world the defender cannot tell apart (its partner's
  hand and the skat from the cards it has not seen, every shown void
  kept), with the partner playing the best defence in each. One world where
  the declarer can be stopped short of the claim, and it refuses at once
  (the person who claimed reads the answer beside the controls).
- **After its partner conceded** (a person who gives up beside it, no claim
  standing) a concession hands every card not yet won by the defence to
  the declarer (docs/rules-decisions.md): Schneider when the defence has 30
  card points or fewer, Schwarz when it has no trick. The computer joins
  only when that loses nothing the defence could still keep: in every one
  of `GIVE_UP_WORLDS` worlds it samples (uniform among those consistent
  with what it saw) the declarer, against open-card defence, makes his
  game, and Schneider and Schwarz as far as the concession would give
  them. Otherwise it says no (`refuse`) at once and plays on; the person's
  concession stands.

The declarer's target is the contract's card condition as in
`analysis.py`: 61 card points, 90 with Schneider announced, every trick
with Schwarz announced or Ouvert, no trick in Null.
"""

from __future__ import annotations

import itertools
import random

from ..engine import Action, GameType, View
from ..engine.actions import CLAIM_LEVELS, CONCEDE, REFUSE
from ..engine.cards import mask_indices
from .solver import Stopped, limit, null_wins, reaches, takes_all
from .worlds import Knowledge, Sampler, World, solver_positions

#: Worlds sampled before a partner gives up too (it joins only if the
#: concession costs the defence nothing in every one of them).
GIVE_UP_WORLDS = 24


def _conceded(view: View, seat: int) -> bool:
    return (seat, "concede") in view.history


def standing_claim(view: View) -> int | None:
    """The level of the declarer's claim still open to an answer (0 the
    game, 1 Schneider, 2 Schwarz), None when there is none or it was
    refused."""
    level = None
    for _, text in view.history:
        if text == "refuse":
            return None
        if text.startswith("claim"):
            words = text.split()
            level = CLAIM_LEVELS.index(words[1]) if len(words) > 1 else 0
    return level


def declarer_wins(view: View, know: Knowledge, world: World, level: int = 0) -> bool:
    """Whether the declarer meets his contract in ``world`` against the best
    defence, and the claimed ``level`` (1 Schneider, 2 Schwarz) with it."""
    c = view.contract
    assert c is not None
    pos = solver_positions(view, know.declarer, [world])[0]
    if c.game == GameType.NULL:
        return null_wins(pos)
    n = c.normalised()
    if n.schwarz or level >= 2:
        return takes_all(pos)
    return reaches(pos, 90 if n.schneider or level >= 1 else 61)


def concession_costs_nothing(view: View, know: Knowledge, world: World) -> bool:
    """Whether the defenders' concession (every card they have not won to
    the declarer) gives him nothing the best defence keeps in ``world``: the
    game, Schneider (the defence at 30 card points or fewer now), Schwarz
    (the defence without a trick)."""
    c = view.contract
    assert c is not None
    pos = solver_positions(view, know.declarer, [world])[0]
    if c.game == GameType.NULL:
        return null_wins(pos)
    kept = [t for t in view.tricks if t.winner != know.declarer]
    if not kept or c.normalised().schwarz:
        return takes_all(pos)
    if sum(t.points for t in kept) <= 30 or c.normalised().schneider:
        return reaches(pos, 90)
    return reaches(pos, 61)


def claim_worlds(know: Knowledge) -> list[World]:
    """Every world a defender cannot tell apart once the declarer's cards
    are shown: the partner's hand and the skat from the unseen cards."""
    me, d = know.me, know.declarer
    partner = 3 - me - d
    if know.sizes[d] != know.known[d].bit_count():
        raise ValueError("the declarer's cards are not all shown")
    unknown = know.unknown
    skat_need = 0 if know.skat is not None else 2
    cards = mask_indices(unknown)
    worlds = []
    for skat in itertools.combinations(cards, skat_need):
        s = sum(1 << c for c in skat)
        rest = unknown & ~s
        if rest & know.voids[partner]:
            continue  # the partner showed it holds none of these
        hands = list(know.known)
        hands[partner] |= rest
        worlds.append(World((hands[0], hands[1], hands[2]), s | (know.skat or 0)))
    return worlds


def answer(view: View, seed: int = 0, budget: float | None = None) -> Action | None:
    """``concede`` when this computer defender agrees (see the module
    docstring), ``refuse`` when it says no to a claim or to its partner's
    give-up, None when nothing is asked of it. Only for a seat that may
    concede now. With a ``budget`` in seconds, a question not
    settled by then plays on (the solver stops a search running then)."""
    try:
        with limit(budget):
            return _answer(view, seed)
    except Stopped:  # any question asked after the budget is up stops too
        return REFUSE if REFUSE in view.offers else None


def _answer(view: View, seed: int) -> Action | None:
    if CONCEDE not in view.offers or view.contract is None or view.seat is None:
        return None
    know = Knowledge.from_view(view)
    if know.me == know.declarer:
        return None
    partner_seat = view.seats[3 - know.me - know.declarer]
    level = standing_claim(view)
    if level is not None and view.open_cards is not None and REFUSE in view.offers:
        worlds = claim_worlds(know)
        if worlds and all(declarer_wins(view, know, w, level) for w in worlds):
            return CONCEDE
        return REFUSE
    if _conceded(view, partner_seat) and REFUSE in view.offers:
        rng = random.Random(seed)
        sampler = Sampler(know)
        for _ in range(GIVE_UP_WORLDS):
            if not concession_costs_nothing(view, know, sampler.sample(rng)):
                return REFUSE  # said at once: the person reads it beside the controls
        return CONCEDE
    return None


def answer_within(view: View, seed: int, budget: float | None) -> str | None:
    """`answer` for a worker process or thread: the action's text or None."""
    action = answer(view, seed, budget)
    return None if action is None else str(action)


def pending(view: View, asked: int) -> int | None:
    """The index in ``view.history`` of the latest claim or concession by
    another seat that this seat has not been asked about (``asked``: the
    index it answered last, -1 for none), or None."""
    for i in range(len(view.history) - 1, asked, -1):
        seat, text = view.history[i]
        if (text == "concede" or text.startswith("claim")) and seat != view.seat:
            return i
    return None


__all__ = [
    "GIVE_UP_WORLDS",
    "answer",
    "answer_within",
    "claim_worlds",
    "concession_costs_nothing",
    "declarer_wins",
    "pending",
    "standing_claim",
]
