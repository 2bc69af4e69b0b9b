"""The game-value reckoner behind ``skat value`` and the calculator page:
a contract and what happened, in; the value with its reasons and the list
entries, out (R5-R9.6). Impossible combinations are refused with their R10
reason codes (`ReckonerError` carries codes beyond R10 for bad cards)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import parse_cards, to_mask
from .errors import IllegalActionError, Reason, reject
from .game import NULL_VALUES, TRUMP_ORDER, Contract, GameType
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
    factor: int
    players: int

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
    players: int = 3,
) -> Reckoning:
    """Value a game. Without ``points``/``tricks`` the game as announced is
    taken as just made (61; 90 with Schneider announced; 120 and ten tricks
    with Schwarz announced or Ouvert; no trick in Null)."""
    try:
        g = game if isinstance(game, GameType) else GameType.parse(game)
    except ValueError as exc:
        raise ReckonerError("BAD_GAME", str(exc)) from None
    if g == GameType.RAMSCH:
        raise ReckonerError("BAD_GAME", "Ramsch has no game value")
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
    val = value_game(c, bid, points, tricks, cards12)
    return Reckoning(c, val, 4 if re else 2 if kontra else 1, players)


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
