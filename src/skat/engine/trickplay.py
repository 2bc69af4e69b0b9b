"""The card play (R4), Kontra and Re (R9.3) and the deals the ISS ends early
(a concession, a claim, a time-out, a player who left).

The steps of `Deal` (deal.py), one function each over the deal's state;
only `Deal` and its sibling step modules call them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import ramsch, settle
from .actions import (
    CLAIM_LEVELS,
    KONTRA,
    Abandon,
    Action,
    Claim,
    Concede,
    Kontra,
    NoKontra,
    NoRe,
    Play,
    Re,
    Refuse,
)
from .cards import CARDS, POINTS
from .errors import Reason, reject
from .game import EFFECTIVE, FOLLOW, TRICK_KEY, TRUMP, GameType
from .state import DECLARER_PHASES, Phase, Trick

if TYPE_CHECKING:
    from .dealstate import DealState

_SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")  # by effective-suit index
_NULL = GameType.NULL
_NEXT = (1, 2, 0)
_RAMSCH = GameType.RAMSCH
#: `Trick(...)` without the named tuple's Python-level ``__new__`` (the same value).
_new_trick = tuple.__new__

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_BIDDING = Phase.BIDDING
_KONTRA = Phase.KONTRA
_PLAY = Phase.PLAY


def card_phase(deal: DealState, p: int, action: Action) -> None:
    cls = action.__class__
    seat = deal._seats[p]
    ph = deal._phase
    if cls is Kontra:
        check_kontra(deal, p, raise_=True)
        deal._kontra = p
        deal._re_pending = True
        return
    if cls is Re or cls is NoRe:
        if not deal.rules.kontra or not deal._re_pending or p != deal._declarer:
            raise reject(
                Reason.RE_NOT_ALLOWED,
                "Re only answers a Kontra, by the declarer",
                seat=seat,
                action=action,
            )
        deal._re = cls is Re
        deal._re_pending = False
        deal._re_answered = True
        if ph is _KONTRA:
            deal._phase = _PLAY
        return
    if ph is _KONTRA:
        if cls is not NoKontra:
            raise deal._wrong_phase(p, action)
        if p == deal._declarer:
            raise reject(
                Reason.KONTRA_NOT_ALLOWED,
                "only a defender answers Kontra",
                seat=seat,
                action=action,
            )
        deal._turn(p, action)
        deal._asked += 1
        if deal._asked >= 2:
            deal._phase = _PLAY
        return
    if cls is Play:
        if deal._re_pending:
            raise reject(
                Reason.RE_DECISION_PENDING,
                "the declarer answers the Kontra first",
                seat=seat,
                action=action,
            )
        deal._turn(p, action)
        card: int = action.card  # type: ignore[attr-defined]
        hand = deal._hands[p]
        if not hand >> card & 1:
            raise reject(
                Reason.CARD_NOT_IN_HAND,
                f"{CARDS[card]} is not in your hand",
                seat=seat,
                action=action,
            )
        if deal._trick:
            follow = hand & FOLLOW[deal._g][deal._trick[0]]
            if follow and not follow >> card & 1:
                led = EFFECTIVE[deal._g][deal._trick[0]]
                what = "trump" if led == TRUMP else _SUIT_WORDS[led]
                raise reject(
                    Reason.MUST_FOLLOW_SUIT,
                    f"you must follow suit: play {what}",
                    seat=seat,
                    action=action,
                )
        play(deal, p, card)
    elif cls is Claim:
        if p != deal._declarer:
            raise reject(
                Reason.NOT_YOUR_TURN, "only the declarer can claim", seat=seat, action=action
            )
        if deal._claimed:  # R6.6: one showing of the cards a deal
            raise reject(
                Reason.WRONG_PHASE,
                "you have shown your cards already: a claim is made once a deal",
                seat=seat,
                action=action,
            )
        level: str = action.level  # type: ignore[attr-defined]
        if level != "game" and deal._g == _NULL:
            raise reject(
                Reason.NOT_APPLICABLE_TO_NULL,
                "Null has no Schneider or Schwarz to claim",
                seat=seat,
                action=action,
            )
        if level != "game":
            def_points = sum(deal._points[q] for q in deal._defenders())
            def_tricks = sum(deal._ntricks[q] for q in deal._defenders())
            if def_tricks if level == "schwarz" else def_points > 30:
                raise reject(
                    Reason.WRONG_PHASE,
                    f"the defenders have taken too much for {level.capitalize()}",
                    seat=seat,
                    action=action,
                )
        deal._claimed = 1 + CLAIM_LEVELS.index(level)
    elif cls is Refuse:
        if not deal._asked_to_concede(p):
            raise reject(
                Reason.WRONG_PHASE,
                "there is no claim or give-up for you to answer",
                seat=seat,
                action=action,
            )
        deal._refused |= 1 << p
    elif cls is Concede:
        if deal._g == _RAMSCH:
            raise deal._wrong_phase(p, action)
        if p == deal._declarer:
            settle.finish_game(deal, "declarer_conceded", "declarer_lost", seat)
            return
        deal._conceded |= 1 << p
        both = deal._conceded.bit_count() == 2
        stands = deal._claimed and not deal._refused  # nobody said no to the claim
        if both or (stands and deal.rules.concede_after_claim == "one"):
            settle.finish_game(
                deal,
                "defenders_conceded",
                "defenders_lost",
                seat,
                claimed=deal._claimed - 1 if stands else None,
            )
    else:
        raise deal._wrong_phase(p, action)


def check_kontra(deal: DealState, p: int, raise_: bool = False) -> bool:
    """R9.3: who may say Kontra, and when."""
    why = ""
    r = deal.rules
    if deal._phase not in (_KONTRA, _PLAY):
        if raise_:
            raise reject(Reason.WRONG_PHASE, "Kontra follows the announcement", seat=deal._seats[p])
        return False
    if not r.kontra:
        why = "Kontra is not played at this table"
    elif deal._g == _RAMSCH:
        why = "no Kontra in Ramsch"
    elif p == deal._declarer:
        why = "only a defender can say Kontra"
    elif deal._kontra >= 0:
        why = "Kontra was said already"
    elif r.kontra_requires_bid and not deal._named >> p & 1:
        why = "only a defender who bid may say Kontra"
    elif r.kontra_window == "own_first_card" and deal._played >> p & 1:
        why = "too late: you have played your first card"
    elif r.kontra_window == "first_lead" and (deal._phase is _PLAY):
        why = "too late: the first card is played"
    elif r.kontra_window == "trick_one" and deal._tricks:
        why = "too late: the first trick is complete"
    if why:
        if raise_:
            raise reject(Reason.KONTRA_NOT_ALLOWED, why, seat=deal._seats[p], action=KONTRA)
        return False
    return True


def play(deal: DealState, p: int, card: int) -> None:
    """Play a card known to be legal (the unchecked core of R4)."""
    deal._hands[p] &= ~(1 << card)
    deal._played |= 1 << p
    trick = deal._trick
    trick.append(card)
    if len(trick) < 3:
        deal._to_play = _NEXT[p]
        return
    complete_trick(deal)


def complete_trick(deal: DealState) -> None:
    """Settle a trick of three cards (R4.4, R4.7) and the early ends of R6.6."""
    trick = deal._trick
    g = deal._g
    keys = TRICK_KEY[g][EFFECTIVE[g][trick[0]]]
    c0, c1, c2 = trick
    k0, k1, k2 = keys[c0], keys[c1], keys[c2]
    lead = deal._leader
    if k0 >= k1 and k0 >= k2:
        w = lead
    elif k1 >= k2:
        w = _NEXT[lead]
    else:
        w = _NEXT[_NEXT[lead]]
    deal._points[w] += POINTS[c0] + POINTS[c1] + POINTS[c2]
    deal._ntricks[w] += 1
    deal._tricks.append(_new_trick(Trick, (lead, (CARDS[c0], CARDS[c1], CARDS[c2]), w)))
    deal._trick = []
    deal._leader = deal._to_play = w
    if len(deal._tricks) == 10:
        if g == _RAMSCH:
            ramsch.finish(deal, w)
        else:
            settle.finish_game(deal, "played", "played", None)
        return
    if g == _NULL:
        if w == deal._declarer:  # R6.6 (1)
            settle.finish_game(deal, "early", "played", None)
    elif g != _RAMSCH and w != deal._declarer:
        c = deal._contract
        if c is not None and c.schwarz:  # R6.6 (2)
            settle.finish_game(deal, "early", "played", None)


def abandon(deal: DealState, p: int, action: Abandon) -> None:
    seat = deal._seats[p]
    ph = deal._phase
    reason = action.reason
    if deal._contract is None or deal._g == _RAMSCH:
        # No game announced: nothing is scored; the seat that went is
        # penalised, or both defenders when one of them leaves a declarer
        # (ISS-FORMAT.md 4.4). A game announced before the discard
        # (Rules.announce_before_discard) is a declared game: it is
        # settled below like a time-out during play.
        n = deal.players
        pen = [0] * n
        if ph is _BIDDING or deal._g == _RAMSCH or p == deal._declarer:
            pen[seat] = 1
        else:
            for d in deal._defenders():
                pen[deal._seats[d]] = 1
        declarer = deal._declarer if ph in DECLARER_PHASES else -1
        settle.set_result(
            deal,
            kind="abandoned",
            declarer=declarer,
            valuation=None,
            ended=reason,
            plain=(0,) * n,
            sf=(0,) * n,
            penalties=tuple(pen),
            ended_by=seat,
        )
        return
    outcome = "declarer_lost" if p == deal._declarer else "defenders_lost"
    settle.finish_game(deal, reason, outcome, seat)
