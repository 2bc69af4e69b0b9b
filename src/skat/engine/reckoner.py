"""The game-value reckoner behind ``skat value`` and the calculator page:
a contract and what happened, in; the value with its reasons and the list
entries, out (R5-R9.6). Impossible combinations are refused with their R10
reason codes (`ReckonerError` carries codes beyond R10 for bad cards).
`reckon_ramsch` does the same for a Ramsch deal (R9.1), which has no
declarer: card points and tricks per player in, one entry per player out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import parse_cards, to_mask
from .errors import IllegalActionError, Reason, reject
from .game import BASE_VALUE, NULL_VALUES, TRUMP_ORDER, Contract, GameType, Rules
from .ramsch import outcome as ramsch_outcome
from .state import RamschOutcome
from .values import BID_SET, Valuation, seeger_fabian_others, value_game


class ReckonerError(ValueError):
    """A request the reckoner refuses: ``code`` (an R10 code or BAD_CARDS,
    BAD_MATADORS) and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Reckoning:
    contract: Contract
    valuation: Valuation
    factor: int  # Kontra/Re times Bock (R9.6)
    players: int
    bock: bool = False
    # a Hand game valued from the ten cards held (R6.5): the lowest and the
    # highest game value over every skat the other 22 cards can make, when
    # they differ (the skat's jacks and trumps can change the matadors)
    between: tuple[int, int] | None = None

    @property
    def plain(self) -> int:
        return self.valuation.plain_entry(self.factor)

    @property
    def seeger_fabian(self) -> int:
        return self.valuation.seeger_fabian_entry(self.factor)

    @property
    def others(self) -> int:
        return seeger_fabian_others(self.valuation.won, self.players)

    def to_dict(self) -> dict[str, Any]:
        v = self.valuation
        return {
            "game": self.contract.game.label,
            "contract": self.contract.describe(),
            "matadors": v.matadors,
            "multiplier": v.multiplier,
            "value": v.value,
            "won": v.won,
            "overbid": v.overbid,
            "factor": self.factor,
            "bock": self.bock,
            "score": self.plain,
            "seeger_fabian": {
                "declarer": self.seeger_fabian,
                "others": [self.others] * (self.players - 1),
            },
            "explanation": v.explanation,
            "parts": [list(step) for step in v.parts],
            "words": list(self.contract.words),
            "levels": v.levels,
            "bid": v.bid,
            "hand": self.contract.hand,
            "ouvert": self.contract.ouvert,
            "between": list(self.between) if self.between else None,
            # the bid cannot be reached as it stands (overbid, R6.5); with
            # the skat unseen: not even with the best skat
            "short": v.overbid if self.between is None else self.between[1] < v.bid,
            # with the skat unseen: some skats leave the game short of the bid
            "may_be_short": self.between is not None and self.between[0] < v.bid,
        }


def reckon(
    game: str | GameType,
    *,
    cards: str | None = None,
    matadors: int | None = None,
    hand: bool = False,
    schneider_announced: bool = False,
    schwarz_announced: bool = False,
    ouvert: bool = False,
    bid: int = 18,
    points: int | None = None,
    tricks: int | None = None,
    kontra: bool = False,
    re: bool = False,
    bock: bool = False,
    players: int = 3,
    rules: Rules | None = None,
) -> Reckoning:
    """Value a game (under ``rules``: a table's house rules that change a
    game's value; None: the ISkO's). Without ``points``/``tricks`` the game as announced is
    taken as just made (61; 90 with Schneider announced; 120 and ten tricks
    with Schwarz announced or Ouvert; no trick in Null). ``bock`` doubles
    the entries, not the 50/40/30 (R9.4)."""
    try:
        g = game if isinstance(game, GameType) else GameType.parse(game)
    except ValueError as exc:
        raise ReckonerError("BAD_GAME", str(exc)) from None
    if g == GameType.RAMSCH:
        raise ReckonerError("BAD_GAME", "Ramsch has no game value; see reckon_ramsch")
    if players not in (3, 4):
        raise ReckonerError("BAD_PLAYERS", "3 or 4 players")
    contract = Contract(g, hand, schneider_announced, schwarz_announced, ouvert)
    try:
        _check(contract, bid, points, tricks, kontra, re)
    except IllegalActionError as exc:
        raise ReckonerError(exc.code.value, exc.message) from None
    if g == GameType.NULL:
        cards12 = 0
    elif cards is not None:
        try:
            parsed = parse_cards(cards)
        except IllegalActionError as exc:
            raise ReckonerError(exc.code.value, exc.message) from None
        if len(set(parsed)) != len(parsed) or len(parsed) > 12:
            raise ReckonerError("BAD_CARDS", "at most 12 different cards")
        cards12 = to_mask(parsed)
    elif matadors is not None:
        top = 4 if g == GameType.GRAND else 11
        if matadors == 0 or abs(matadors) > top:
            raise ReckonerError("BAD_MATADORS", f"{g.label} has with/without 1..{top}")
        order = TRUMP_ORDER[g]
        n = abs(matadors)
        cards12 = to_mask(order[:n]) if matadors > 0 else to_mask(order[n : n + 1])
    else:
        raise ReckonerError("BAD_CARDS", "give the cards or the matadors for a suit or Grand game")
    c = contract.normalised() if hand else contract
    if points is None:
        points = 0 if g == GameType.NULL else 120 if c.schwarz else 90 if c.schneider else 61
    if tricks is None:
        tricks = 10 if points == 120 else 0 if g == GameType.NULL or points == 0 else 5
    val = value_game(c, bid, points, tricks, cards12, rules=rules)
    factor = (4 if re else 2 if kontra else 1) * (2 if bock else 1)
    between = None
    if hand and g != GameType.NULL and cards is not None and cards12.bit_count() == 10:
        low, high = skat_range(c, cards12, rules)
        between = (low, high) if low != high else None
    return Reckoning(c, val, factor, players, bock, between)


def skat_range(contract: Contract, held: int, rules: Rules | None = None) -> tuple[int, int]:
    """The lowest and highest game value (R6.5: base value times the
    multiplier, as won) of a suit or Grand game whose declarer holds the ten
    cards of ``held`` and has not seen the skat: over every skat the other
    22 cards can make (the matadors count the skat's cards, R5.2)."""
    c = contract.normalised()
    rest = [card for card in range(32) if not held >> card & 1]
    points, tricks = (120, 10) if c.schwarz else (90, 5) if c.schneider else (61, 5)  # as made
    values = {
        value_game(c, 18, points, tricks, held | 1 << a | 1 << b, rules=rules).multiplier
        * BASE_VALUE[c.game]
        for i, a in enumerate(rest)
        for b in rest[i + 1 :]
    }
    return min(values), max(values)


def _check(
    c: Contract, bid: int, points: int | None, tricks: int | None, kontra: bool, re: bool
) -> None:
    if bid not in BID_SET:
        raise reject(Reason.BID_NOT_IN_LIST, f"{bid} is no game value")
    is_null = c.game == GameType.NULL
    if is_null and (c.schneider or c.schwarz):
        raise reject(Reason.NOT_APPLICABLE_TO_NULL, "Null has no Schneider or Schwarz")
    if not c.hand and (c.schneider or c.schwarz):
        raise reject(Reason.ANNOUNCEMENT_REQUIRES_HAND, "Schneider and Schwarz announced need Hand")
    if not c.hand and c.ouvert and not is_null:
        raise reject(Reason.OUVERT_REQUIRES_HAND, "suit and Grand Ouvert need Hand")
    if is_null and NULL_VALUES[c.hand, c.ouvert] < bid:
        raise reject(Reason.NULL_VALUE_BELOW_BID, f"{c.describe()} is below the bid {bid}")
    if re and not kontra:
        raise reject(Reason.RE_NOT_ALLOWED, "Re only after Kontra")
    if points is not None and not 0 <= points <= 120:
        raise reject(Reason.MALFORMED_ACTION, "card points are 0..120")
    if tricks is not None and not 0 <= tricks <= 10:
        raise reject(Reason.MALFORMED_ACTION, "tricks are 0..10")
    if points is not None and tricks is not None:
        if (tricks == 10 and points != 120) or (tricks == 0 and points > 22):
            raise reject(
                Reason.MALFORMED_ACTION, f"{points} card points are impossible with {tricks} tricks"
            )


# ------------------------------------------------------------------ Ramsch
#: Player names in explanations: the active players in seat order.
RAMSCH_NAMES = ("A", "B", "C")
_MAX_TRICK_POINTS = 33  # three aces
_MAX_SKAT_POINTS = 22  # two aces


@dataclass(frozen=True)
class RamschReckoning:
    """A Ramsch deal reckoned (R9.1): per active player, in seat order, the
    card points (skat included for the last trick's winner), the tricks (as
    given, or ``None``), who took no trick, and the list entry."""

    points: tuple[int, int, int]
    tricks: tuple[int, int, int] | None
    no_trick: tuple[bool, bool, bool]
    entries: tuple[int, int, int]
    bock: bool
    players: int
    outcome: RamschOutcome  # the settlement (ramsch.py), tricks as given or taken

    @property
    def factor(self) -> int:
        """The Bock factor (R9.4)."""
        return 2 if self.bock else 1

    @property
    def durchmarsch(self) -> int | None:
        """The player who took all ten tricks, if one did (`ramsch.py`)."""
        return self.outcome.durchmarsch

    @property
    def losers(self) -> tuple[int, ...]:
        return self.outcome.losers

    @property
    def jungfrau(self) -> tuple[int, ...]:
        """The players whose trickless deal doubled the loss."""
        return self.outcome.jungfrau

    @property
    def explanation(self) -> str:
        """In words, e.g. ``'most card points: A with 72; Jungfrau (C took no
        trick) x 2: loses 144'`` (EX-R3)."""
        names = RAMSCH_NAMES
        mods = []
        if self.jungfrau:
            mods.append(f"Jungfrau ({_and([names[i] for i in self.jungfrau])} took no trick) x 2")
        if self.bock:
            mods.append("Bock x 2")
        d = self.durchmarsch
        if d is not None:
            head = f"Durchmarsch: {names[d]} took all ten tricks"
            tail = f"wins {self.entries[d]}"
        else:
            losers = self.losers
            top = self.points[losers[0]]
            head = f"most card points: {_and([names[i] for i in losers])} with {top}"
            amount = -self.entries[losers[0]]
            tail = f"loses {amount}" if len(losers) == 1 else f"each loses {amount}"
        text = "; ".join([head, *mods]) + (": " if mods else ", ") + tail
        if self.players == 4:
            text += " (the dealer sits out and scores 0)"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "ramsch",
            "players": self.players,
            "points": list(self.points),
            "tricks": None if self.tricks is None else list(self.tricks),
            "no_trick": list(self.no_trick),
            "durchmarsch": self.durchmarsch,
            "losers": list(self.losers),
            "jungfrau": list(self.jungfrau),
            "bock": self.bock,
            "factor": self.factor,
            "entries": list(self.entries),
            "explanation": self.explanation,
        }


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def parse_numbers(text: str, what: str) -> list[int]:
    """``'61,41,18'`` (commas and/or spaces) -> ``[61, 41, 18]``; refuses
    anything else with ``BAD_POINTS`` / ``BAD_TRICKS``."""
    code = "BAD_TRICKS" if what == "tricks" else "BAD_POINTS"
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        message = f"{what} are whole numbers, e.g. 61,41,18; got {text!r}"
        raise ReckonerError(code, message) from None


def _ints(values: object, code: str, what: str) -> tuple[int, int, int]:
    if not isinstance(values, (list, tuple)) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ReckonerError(code, f"{what} are three whole numbers, one per player")
    if len(values) != 3:
        raise ReckonerError(
            code, f"{what} of the three players who play are needed, got {len(values)}"
        )
    return (values[0], values[1], values[2])


def reckon_ramsch(
    points: object,
    tricks: object = None,
    *,
    bock: bool = False,
    players: int = 3,
) -> RamschReckoning:
    """Reckon a Ramsch deal (R9.1, R9.4). ``points``: the card points of the
    three players who play, in seat order, the skat counted for whoever took
    the last trick (they sum to 120). ``tricks``: their tricks (sum 10);
    without them a player with 0 points is taken to have taken no trick
    (Jungfrau) and one with 120 all ten (Durchmarsch). At four players the
    dealer sits out and scores 0: still three values."""
    if not isinstance(players, int) or players not in (3, 4):
        raise ReckonerError("BAD_PLAYERS", "3 or 4 players")
    if not isinstance(bock, bool):
        raise ReckonerError("BAD_REQUEST", "bock must be true or false")
    pts = _ints(points, "BAD_POINTS", "card points")
    if any(p < 0 or p > 120 for p in pts):
        raise ReckonerError("BAD_POINTS", "card points are 0..120 each")
    if sum(pts) != 120:
        raise ReckonerError("BAD_POINTS", f"card points must sum to 120, not {sum(pts)}")
    given: tuple[int, int, int] | None = None
    if tricks is None:
        full = next((i for i, p in enumerate(pts) if p == 120), None)
        counts = [10 if i == full else 0 if p == 0 else 1 for i, p in enumerate(pts)]
    else:
        given = _ints(tricks, "BAD_TRICKS", "tricks")
        if any(t < 0 or t > 10 for t in given):
            raise ReckonerError("BAD_TRICKS", "tricks are 0..10 each")
        if sum(given) != 10:
            raise ReckonerError("BAD_TRICKS", f"tricks must sum to 10, not {sum(given)}")
        for name, p, t in zip(RAMSCH_NAMES, pts, given, strict=True):
            if t == 0 and p > 0:
                raise ReckonerError(
                    "BAD_TRICKS", f"{name} took no trick, so {name} cannot have {p} card points"
                )
            if p > _MAX_TRICK_POINTS * t + _MAX_SKAT_POINTS:
                raise ReckonerError(
                    "BAD_TRICKS", f"{name} cannot have {p} card points with {t} trick(s)"
                )
        counts = list(given)
    out = ramsch_outcome(pts, counts, 2 if bock else 1)
    e = out.entries
    no_trick = (counts[0] == 0, counts[1] == 0, counts[2] == 0)
    return RamschReckoning(pts, given, no_trick, (e[0], e[1], e[2]), bock, players, out)
