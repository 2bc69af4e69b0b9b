"""How a computer defender answers a claim or a partner's concession (R6.6).

The engine's reading (docs/rules-decisions.md, R6.6): a declarer's `claim`
shows his cards and changes nothing by itself; a defender agrees by
conceding, and the deal ends as lost for the defenders once both have
conceded. Play goes on while either of them has not.

- **After a claim** a computer defender concedes exactly when the shown
  cards win against every defence: the open-card solver is asked in every
  world the defender cannot tell apart (its partner's hand and the skat
  from the cards it has not seen, every shown void kept), with the partner
  playing the best defence in each. One world where the declarer can be
  stopped, and it plays on.
- **After its partner conceded** (a person who gives up beside it) it
  concedes the way a club player would: when the declarer wins in at least
  `GIVE_UP_SHARE` of the worlds it samples (uniform among those consistent
  with what it saw), even against open-card defence.

The declarer's target is the contract's card condition as in
`analysis.py`: 61 card points, 90 with Schneider announced, every trick
with Schwarz announced or Ouvert, no trick in Null.
"""

from __future__ import annotations

import itertools
import random

from ..engine import Action, GameType, View
from ..engine.actions import CONCEDE
from ..engine.cards import mask_indices
from .solver import Stopped, limit, null_wins, reaches, takes_all
from .worlds import Knowledge, Sampler, World, solver_positions

#: Share of sampled worlds the declarer must win before a partner gives up too.
GIVE_UP_SHARE = 0.9
#: Worlds sampled for that answer.
GIVE_UP_WORLDS = 24


def _conceded(view: View, seat: int) -> bool:
    return (seat, "concede") in view.history


def _claimed(view: View) -> bool:
    return any(text == "claim" for _, text in view.history)


def declarer_wins(view: View, know: Knowledge, world: World) -> bool:
    """Whether the declarer meets his contract in ``world`` against the best defence."""
    c = view.contract
    assert c is not None
    pos = solver_positions(view, know.declarer, [world])[0]
    if c.game == GameType.NULL:
        return null_wins(pos)
    n = c.normalised()
    if n.schwarz:
        return takes_all(pos)
    return reaches(pos, 90 if n.schneider else 61)


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
    docstring), None to play on. Only for a seat that may concede now.
    With a ``budget`` in seconds, a question not settled by then plays on
    (the solver stops a search running then)."""
    try:
        with limit(budget):
            return _answer(view, seed)
    except Stopped:  # any question asked after the budget is up stops too
        return None


def _answer(view: View, seed: int) -> Action | None:
    if CONCEDE not in view.offers or view.contract is None or view.seat is None:
        return None
    know = Knowledge.from_view(view)
    if know.me == know.declarer:
        return None
    partner_seat = view.seats[3 - know.me - know.declarer]
    if _claimed(view) and view.open_cards is not None:
        worlds = claim_worlds(know)
        if worlds and all(declarer_wins(view, know, w) for w in worlds):
            return CONCEDE
        if not _conceded(view, partner_seat):
            return None
    if _conceded(view, partner_seat):
        rng = random.Random(seed)
        sampler = Sampler(know)
        wins = sum(declarer_wins(view, know, sampler.sample(rng)) for _ in range(GIVE_UP_WORLDS))
        if wins >= GIVE_UP_SHARE * GIVE_UP_WORLDS:
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
        if text in ("claim", "concede") and seat != view.seat:
            return i
    return None


__all__ = ["GIVE_UP_SHARE", "answer", "answer_within", "claim_worlds", "declarer_wins", "pending"]
