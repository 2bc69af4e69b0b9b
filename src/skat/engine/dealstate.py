"""The state of one deal: every field `Deal` keeps, typed, and the queries
the deal's steps share (whose turn, the defenders, the turn and phase
checks). `Deal` (deal.py) builds and changes it; its steps (auction.py,
declaring.py, trickplay.py, settle.py) and the seat views (views.py) read
and change it through this type, so none of them imports deal.py."""

from __future__ import annotations

from .actions import Action
from .cards import Card
from .errors import Reason, reject
from .game import Contract, Rules
from .state import DealResult, Phase, Trick

POSITION_NAMES = ("forehand", "middlehand", "rearhand")

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_BIDDING = Phase.BIDDING
_DONE = Phase.DONE
_KONTRA = Phase.KONTRA
_PLAY = Phase.PLAY
_PUSH = Phase.PUSH


class DealState:
    """The fields of a deal (positions 0..2: forehand, middlehand, rearhand)."""

    __slots__ = (
        "_asked",
        "_bidder",
        "_claimed",
        "_conceded",
        "_contract",
        "_dealt",
        "_declarer",
        "_discard",
        "_g",
        "_hands",
        "_history",
        "_kontra",
        "_kontra_rule",
        "_leader",
        "_listener",
        "_named",
        "_ntricks",
        "_passed",
        "_phase",
        "_picked_up",
        "_played",
        "_points",
        "_pos",
        "_pusher",
        "_pushes",
        "_re",
        "_re_answered",
        "_re_pending",
        "_refused",
        "_result",
        "_seats",
        "_skat",
        "_skat_known",
        "_stage",
        "_taken",
        "_texts",
        "_to_act",
        "_to_play",
        "_trick",
        "_tricks",
        "_value",
        "bock_factor",
        "dealer",
        "deck",
        "forced_ramsch",
        "rules",
    )

    rules: Rules
    _kontra_rule: bool
    dealer: int
    deck: tuple[Card, ...]
    forced_ramsch: bool
    bock_factor: int
    _seats: tuple[int, ...]  # table seat of forehand, middlehand, rearhand
    _pos: tuple[int, ...]  # position of each table seat (-1: the dealer sitting out)
    _dealt: tuple[int, ...]  # the hands by position and the skat as dealt (masks)
    _hands: list[int]
    _skat: int
    _history: list[tuple[int, Action]]
    _texts: list[str]  # str() of each history action, made once (views.py)
    _value: int  # the bid
    _bidder: int
    _listener: int
    _to_act: int
    _stage: int  # 1, 2: the auction's rounds; 3: forehand alone
    _passed: int  # bitmask of positions
    _named: int  # positions that named or held a value
    _declarer: int  # position, -1 before the auction's end
    _contract: Contract | None
    _picked_up: bool
    _discard: tuple[Card, ...]
    _g: int  # the game type (GRAND during the auction)
    _trick: list[int]
    _leader: int
    _to_play: int
    _tricks: list[Trick]
    _points: list[int]
    _ntricks: list[int]
    _kontra: int  # the position that said Kontra, -1: none
    _re: bool
    _re_pending: bool
    _re_answered: bool
    _asked: int  # first_lead: index into the defenders' asking order
    _played: int  # positions that have played a card
    # R6.6: the declarer's claim, 0 none, else 1 + its level's index in
    # actions.CLAIM_LEVELS (game, Schneider, Schwarz); `_refused`: the
    # defenders (positions, bits) who said no to it or to the partner's
    # give-up (a claim refused by one is refused)
    _claimed: int
    _refused: int
    _conceded: int
    _result: DealResult | None
    _pusher: int  # Schieberamsch: whose turn to push
    _pushes: int  # pushed on unseen
    _skat_known: int  # who put the skat down last
    _taken: int  # the two cards the pusher took up
    _phase: Phase

    @property
    def players(self) -> int:
        return self.rules.players

    def position_of(self, seat: int) -> int | None:
        """Position of a table seat; ``None`` for the dealer sitting out."""
        if not 0 <= seat < len(self._pos):
            raise ValueError(f"no seat {seat} at a table of {len(self._pos)}")
        p = self._pos[seat]
        return None if p < 0 else p

    @property
    def current_seat(self) -> int | None:
        """The seat whose turn it is, ``None`` when the deal is over."""
        p = self._current()
        return None if p < 0 else self._seats[p]

    def _current(self) -> int:
        ph = self._phase
        if ph is _PLAY:
            return self._declarer if self._re_pending else self._to_play
        if ph is _BIDDING:
            return self._to_act
        if ph is _DONE:
            return -1
        if ph is _KONTRA:
            return self._declarer if self._re_pending else self._defenders()[self._asked]
        if ph is _PUSH:
            return self._pusher
        return self._declarer

    def _asked_to_concede(self, p: int) -> bool:
        """Whether defender ``p`` has a question to answer (R6.6): a claim
        nobody refused, or its partner's give-up, neither answered yet."""
        d = self._declarer
        if p == d or d < 0 or (self._conceded | self._refused) >> p & 1:
            return False
        partner = 3 - p - d
        return bool(self._claimed and not self._refused) or bool(self._conceded >> partner & 1)

    def _defenders(self) -> tuple[int, ...]:
        d = self._declarer
        return tuple(p for p in (0, 1, 2) if p != d)

    def _wrong_phase(self, p: int, action: Action) -> Exception:
        return reject(
            Reason.WRONG_PHASE,
            f"'{action}' is not possible during {self._phase.value}",
            seat=self._seats[p],
            action=action,
        )

    def _turn(self, p: int, action: Action) -> None:
        if p != self._current():
            raise reject(
                Reason.NOT_YOUR_TURN,
                f"it is {POSITION_NAMES[self._current()]}'s turn",
                seat=self._seats[p],
                action=action,
            )
