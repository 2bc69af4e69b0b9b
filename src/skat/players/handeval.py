"""A learned hand evaluator (issue 25): the chance that a hand wins each game
it may declare, and the chance of Schneider, before card play.

Three stages, each with a model of its own:

- ``pickup``: the ten cards dealt, the skat still to come (bidding, and
  whether to pick up);
- ``hand``: the ten cards dealt, played without the skat (Hand game);
- ``counted``: the ten cards kept after the discard, with the card points put
  away (the declaration after the pickup).

Each (game kind, stage) has two logistic models over the features below: the
win and Schneider. The weights are learned from forced games
(``bench/strength/train_handeval.py``, which says how; the file
``data/handeval.json`` records the command that made it): suit games and
Grand labelled by the open-card solve of the true hands read through the win
curves measured on `search`'s real games (what `search`'s auction expects),
Null by games `heuristic` played out. Suit games share one
model: the trump suit is mapped onto a canonical one, and the three side suits
are sorted, so that a hand and its image under a change of suits read alike.
The features are of the hand alone and the declarer's position (forehand
leads first), so the evaluator is cheap: a few hundred operations a game.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..engine.cards import JACKS, POINTS, mask_cards
from ..engine.game import BASE_VALUE, NULL_VALUES, TRUMPS, Contract, GameType, Rules
from ..engine.values import matadors
from .strength import cold_null, null_profile

STAGES = ("pickup", "hand", "counted")
KINDS = ("suit", "grand", "null")
TARGETS = ("win", "schneider")

_JACK_BITS = (4, 12, 20, 28)  # CJ SJ HJ DJ
# rank bits within a suit's byte: A T K Q (J) 9 8 7 = bits 0 1 2 3 (4) 5 6 7
_SUIT_RANKS = (0, 1, 2, 3, 5, 6, 7)


def kind_of(game: GameType) -> str:
    if game == GameType.GRAND:
        return "grand"
    if game == GameType.NULL:
        return "null"
    if game.is_suit:
        return "suit"
    raise ValueError(f"no evaluation for {game.name}")


def _side(byte: int) -> list[float]:
    """Features of one side suit (jack removed): A, T, K, Q, its length, an
    unguarded ten, a void."""
    n = byte.bit_count()
    a, t, k, q = (float(byte >> r & 1) for r in range(4))
    return [a, t, k, q, float(n), float(t and not a and n == 1), float(n == 0)]


def _position(position: int) -> list[float]:
    return [float(position == 0), float(position == 1)]


def suit_features(hand: int, trump: int, position: int, skat_points: int = 0) -> list[float]:
    """A suit game with trump suit ``trump`` (0-3): the jacks, the trump
    suit's cards and length, the three side suits sorted, the card points,
    the position."""
    f = [float(hand >> b & 1) for b in _JACK_BITS]
    byte = hand >> (8 * trump) & 0xEF
    f += [float(byte >> r & 1) for r in _SUIT_RANKS]
    n = (hand & TRUMPS[GameType(trump)]).bit_count()
    f += [float(n), float(max(0, n - 5)), float(max(0, 5 - n))]
    sides = sorted(
        (_side(hand >> (8 * u) & 0xEF) for u in range(4) if u != trump),
        key=lambda s: (s[4], s[0], s[1], s[2]),
        reverse=True,
    )
    for s in sides:
        f += s
    f.append(sum(POINTS[c] for c in mask_cards(hand)) / 10.0)
    f.append(skat_points / 10.0)
    f += _position(position)
    return f


def grand_features(hand: int, position: int, skat_points: int = 0) -> list[float]:
    """Grand: the jacks and their number, the four suits sorted (with a
    run of A T K), the card points, the position."""
    f = [float(hand >> b & 1) for b in _JACK_BITS]
    nj = (hand & JACKS).bit_count()
    f += [float(nj), float(nj <= 1)]
    sides = []
    for u in range(4):
        byte = hand >> (8 * u) & 0xEF
        s = _side(byte)
        s.append(float(byte & 7 == 7))
        # cards under the ace and ten that run once both are in
        s.append(float(max(0, byte.bit_count() - 2)) if byte & 3 == 3 else 0.0)
        sides.append(s)
    sides.sort(key=lambda s: (s[0], s[1], s[4]), reverse=True)
    for s in sides:
        f += s
    f.append(sum(POINTS[c] for c in mask_cards(hand)) / 10.0)
    f.append(skat_points / 10.0)
    f += _position(position)
    return f


def _null_suit(byte: int) -> list[float]:
    """A suit in Null order (7 8 9 T J Q K A; the jack belongs to its suit):
    its length, the low cards held, and how many of the others' cards under
    the suit's highest card it cannot duck."""
    # null rank: 7=0 8=1 9=2 T=3 J=4 Q=5 K=6 A=7
    ranks = 0
    for bit, nr in ((7, 0), (6, 1), (5, 2), (1, 3), (4, 4), (3, 5), (2, 6), (0, 7)):
        if byte >> bit & 1:
            ranks |= 1 << nr
    n = ranks.bit_count()
    # walk up: each card of ours needs one card of theirs below it to duck
    theirs = 0
    gaps = 0
    for r in range(8):
        if ranks >> r & 1:
            if theirs == 0:
                gaps += 1
            else:
                theirs -= 1
        else:
            theirs += 1
    return [float(n), float(ranks & 1), float(ranks >> 1 & 1), float(gaps), float(n == 0)]


def null_features(hand: int, position: int, skat_points: int = 0) -> list[float]:
    sides = sorted((_null_suit(hand >> (8 * u) & 0xFF) for u in range(4)), reverse=True)
    f: list[float] = []
    for s in sorted(sides, key=lambda s: (s[3], s[0]), reverse=True):
        f += s
    f.append(float(sum(s[3] for s in sides)))
    f.append(float(sum(1 for s in sides if s[3] > 0)))
    f += _position(position)
    return f


def features(hand: int, game: GameType, position: int, skat_points: int = 0) -> list[float]:
    """The feature vector of a ten-card hand for ``game`` (the bias not
    included)."""
    k = kind_of(game)
    if k == "suit":
        return suit_features(hand, int(game), position, skat_points)
    if k == "grand":
        return grand_features(hand, position, skat_points)
    return null_features(hand, position, skat_points)


@dataclass(frozen=True)
class Chances:
    win: float
    schneider: float  # won with Schneider (a part of ``win``)


def _logistic(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Evaluator:
    """The models of a data file: ``weights[kind][stage][target]`` is the
    bias followed by one weight per feature. An optional
    ``calibration[kind][stage][target]`` is ``(a, b)`` of a recalibration
    learned from games played out (`bench.strength.calibrate_handeval`):
    the model's logit ``z`` becomes ``a * z + b``."""

    def __init__(self, data: Mapping[str, object]) -> None:
        weights = data["weights"]
        assert isinstance(weights, dict)
        calibration = data.get("calibration") or {}
        assert isinstance(calibration, dict)
        self.weights: dict[tuple[str, str, str], tuple[float, ...]] = {}
        self.calibration: dict[tuple[str, str, str], tuple[float, float]] = {}
        for kind in KINDS:
            for stage in STAGES:
                for target in TARGETS:
                    w = weights.get(kind, {}).get(stage, {}).get(target)
                    if w is not None:
                        self.weights[kind, stage, target] = tuple(float(x) for x in w)
                    ab = calibration.get(kind, {}).get(stage, {}).get(target)
                    if ab is not None:
                        self.calibration[kind, stage, target] = (float(ab[0]), float(ab[1]))
        self.meta = {k: v for k, v in data.items() if k != "weights"}

    def _p(self, key: tuple[str, str, str], f: Sequence[float]) -> float:
        w = self.weights.get(key)
        if w is None:
            return 0.0
        if len(w) != len(f) + 1:
            raise ValueError(f"model {'/'.join(key)}: {len(w) - 1} weights, {len(f)} features")
        z = w[0] + sum(a * b for a, b in zip(w[1:], f, strict=True))
        ab = self.calibration.get(key)
        if ab is not None:
            z = ab[0] * z + ab[1]
        return _logistic(z)

    def chances(
        self, hand: int, game: GameType, position: int, stage: str, skat_points: int = 0
    ) -> Chances:
        """P(win) and P(won with Schneider) of declaring ``game`` with the
        ten cards ``hand`` at ``stage`` (see the module docstring)."""
        if stage not in STAGES:
            raise ValueError(f"stage must be one of {STAGES}")
        kind = kind_of(game)
        f = features(hand, game, position, skat_points)
        win = self._p((kind, stage, "win"), f)
        schneider = 0.0 if kind == "null" else min(win, self._p((kind, stage, "schneider"), f))
        return Chances(win, schneider)


def game_value(
    game: GameType,
    cards: int,
    hand: bool = False,
    ouvert: bool = False,
    rules: Rules | None = None,
) -> int:
    """The value the declarer can count on (R5): matadors of ``cards`` plus
    one, plus Hand, times the base value; Null's fixed values. ``rules``: the
    table's house rules that change a value (the matador cap), as the engine
    settles the game."""
    if game == GameType.NULL:
        return NULL_VALUES[hand, ouvert]
    return (abs(matadors(game, cards, rules)) + 1 + int(hand)) * BASE_VALUE[game]


#: How much the 40 a defender gains from a lost game (R8.2, three players)
#: weighs against the declarer in his choices: 1 counts one defender's 40
#: (the margin to a neighbour at the table), 0 only the declarer's own entry.
FORTY = 1.0


def expected_result(
    chances: Chances, game: GameType, value: int, bid: int = 0, forty: float = FORTY
) -> float:
    """Seeger-Fabian expectation of declaring (R8.2, three players): +50 and
    the value when won (a level more with Schneider), -50 and twice the
    value when lost, and ``forty`` times the 40 each defender then gains.
    A game worth less than ``bid`` is lost at the bid unless Schneider lifts
    it (R5.6)."""
    base = BASE_VALUE.get(game, 0)
    lost = 50.0 + 40.0 * forty
    if value < bid:
        if game == GameType.NULL or value + base < bid:
            return -(2 * bid + lost)
        won = chances.schneider
        return won * (bid + 50) - (1 - won) * (2 * bid + lost)
    plain = chances.win - chances.schneider
    extra = 0 if game == GameType.NULL else base
    return (
        plain * (value + 50)
        + chances.schneider * (value + extra + 50)
        - (1 - chances.win) * (2 * value + lost)
    )


#: What a bid against the hand costs its chances: (value, shift) adds
#: ``shift`` to the log-odds of winning (and of Schneider) once another seat
#: has bid or held ``value`` (`contested`). The evaluator learned from games
#: in which the others passed at once; these were fitted on 3,520 games
#: `club` declared against `heuristic`, with the evaluator's own log-odds as
#: an offset (standard errors 0.13, 0.15, 0.21; `bench/strength/fit_contest.py`,
#: docs/lab/strength-log.md, 2026-12-05).
CONTEST: tuple[tuple[int, float], ...] = ((24, -1.01), (36, -0.29), (48, -0.62))


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def contested(chances: Chances, shown: int, shifts: Sequence[tuple[int, float]]) -> Chances:
    """The chances of a game when another seat has bid or held ``shown``:
    the evaluator learned from games in which the others passed at once, but
    a seat that bids shows strength that will sit against the declarer.
    Each ``(value, shift)`` of ``shifts`` that ``shown`` reaches moves both
    chances by ``shift`` on the logistic scale."""
    shift = sum(d for t, d in shifts if shown >= t)
    if not shift or chances.win <= 0.0:
        return chances
    win = _logistic(_logit(chances.win) + shift)
    schneider = 0.0
    if chances.schneider > 0.0:
        schneider = min(win, _logistic(_logit(chances.schneider) + shift))
    return Chances(win, schneider)


# ------------------------------------------------ decisions before the card play
#: Null Ouvert Hand's value (R5.5), bid to and played with a cold Null hand.
OUVERT_HAND = NULL_VALUES[True, True]
BID_FLOOR = 0.0  # expected result a game must promise for a bid (passing scores 0)
HAND_MARGIN = 5.0  # how much more a Hand game must promise than picking up

#: Every game the evaluator judges, Null last.
GAMES = (
    GameType.CLUBS,
    GameType.SPADES,
    GameType.HEARTS,
    GameType.DIAMONDS,
    GameType.GRAND,
    GameType.NULL,
)


def considered(hand: int, game: GameType, counted: bool = False) -> bool:
    """The games the evaluator judges (it was trained on these; others are
    hopeless): a suit with four trumps, Grand with two jacks or one and
    three aces, Null without too much danger."""
    if game == GameType.NULL:
        return null_profile(hand)[1] <= (1.5 if counted else 2.0)
    if game == GameType.GRAND:
        nj = (hand & JACKS).bit_count()
        aces = sum(hand >> (8 * u) & 1 for u in range(4))
        return nj >= 2 or (nj == 1 and aces >= 3)
    return (hand & TRUMPS[game]).bit_count() >= 4


def options(
    evaluator: Evaluator,
    hand: int,
    position: int,
    stage: str,
    bid: int = 0,
    shown: int = 0,
    shifts: Sequence[tuple[int, float]] = (),
    rules: Rules | None = None,
    forty: float = FORTY,
) -> list[tuple[float, GameType, int]]:
    """(expected result at ``bid``, game, the value it may bid to) of every
    game considered with the ten cards ``hand`` before the skat (stage
    ``pickup`` or ``hand``), the chances lowered by what another seat showed
    in the auction (`contested`; fitted on suit games and Grand, applied to
    Null as well, as measured). The value counts Schneider only where it
    is likely (over 0.6)."""
    out = []
    is_hand = stage == "hand"
    for game in GAMES:
        if not considered(hand, game):
            continue
        ch = contested(evaluator.chances(hand, game, position, stage), shown, shifts)
        value = game_value(game, hand, hand=is_hand, rules=rules)
        score = expected_result(ch, game, value, bid, forty)
        if game != GameType.NULL and ch.schneider > 0.6:
            value += BASE_VALUE[game]
        out.append((score, game, value))
    return out


def bid_limit(
    evaluator: Evaluator,
    hand: int,
    position: int,
    floor: float = BID_FLOOR,
    shown: int = 0,
    shifts: Sequence[tuple[int, float]] = (),
    rules: Rules | None = None,
    forty: float = FORTY,
) -> int:
    """The highest value to bid or hold with ``hand``: that of the best game
    (pickup or Hand) whose expected result is above ``floor``; 0 to pass.
    ``shown``: the highest value another seat bid or held, which lowers the
    chances by ``shifts`` (see `contested`)."""
    best = OUVERT_HAND if cold_null(hand, position == 0) else 0
    for stage in ("pickup", "hand"):
        for score, _game, value in options(
            evaluator, hand, position, stage, 0, shown, shifts, rules, forty
        ):
            if score > floor:
                best = max(best, value)
    return best


def hand_game(
    evaluator: Evaluator,
    hand: int,
    position: int,
    bid: int,
    margin: float,
    rules: Rules | None = None,
    forty: float = FORTY,
) -> Contract | None:
    """The game to play Hand when its expected result at ``bid`` beats the
    best pickup game's by more than ``margin``; None: pick up the skat. Ten
    cards that win a Null played open whatever the others hold
    (`strength.cold_null`) play Null Ouvert Hand, the highest Null (R5.5),
    where the bid allows it and no Hand game promises more."""
    picks = options(evaluator, hand, position, "pickup", bid, rules=rules, forty=forty)
    pick = max((s for s, _, _ in picks), default=-1e9)
    hands = [
        (score, Contract(game, hand=True))
        for score, game, _ in options(
            evaluator, hand, position, "hand", bid, rules=rules, forty=forty
        )
    ]
    if bid <= OUVERT_HAND and cold_null(hand, position == 0):
        won = expected_result(Chances(1.0, 0.0), GameType.NULL, OUVERT_HAND, bid, forty)
        hands.append((won, Contract(GameType.NULL, hand=True, ouvert=True)))
    if hands:
        score, contract = max(hands, key=lambda o: o[0])
        if score > pick + margin:
            return contract
    return None


def counted_result(
    evaluator: Evaluator,
    kept: int,
    cards12: int,
    skat_points: int,
    position: int,
    bid: int,
    game: GameType,
    rules: Rules | None = None,
    forty: float = FORTY,
) -> float:
    """Expected result at ``bid`` of declaring ``game`` with the ten cards
    ``kept`` after the discard (``cards12``: the twelve, whose matadors
    count; ``skat_points``: the points put away)."""
    ch = evaluator.chances(kept, game, position, "counted", skat_points)
    return expected_result(ch, game, game_value(game, cards12, rules=rules), bid, forty)


def put_aways(
    evaluator: Evaluator,
    cards12: int,
    position: int,
    bid: int,
    games: tuple[GameType, ...] = GAMES,
    rules: Rules | None = None,
    forty: float = FORTY,
    only: Mapping[GameType, Collection[int]] | None = None,
) -> list[tuple[float, int, GameType]]:
    """(expected result, the two cards as a mask, the game) of every pair
    put away from the twelve cards with every game of ``games`` the ten
    kept are considered for, best first; the points put away break ties
    (then the order of the pairs and of ``games``). ``only`` restricts a
    game to the given pairs (masks)."""
    cards = mask_cards(cards12)
    out: list[tuple[float, int, GameType]] = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            mask = (1 << a) | (1 << b)
            kept = cards12 & ~mask
            pts = POINTS[a] + POINTS[b]
            for g in games:
                if only is not None and g in only and mask not in only[g]:
                    continue
                if not considered(kept, g, counted=True):
                    continue
                s = counted_result(evaluator, kept, cards12, pts, position, bid, g, rules, forty)
                s += pts / 100
                out.append((s, mask, g))
    out.sort(key=lambda r: -r[0])  # stable: equal results keep their order
    return out


def best_put_away(
    evaluator: Evaluator,
    cards12: int,
    position: int,
    bid: int,
    rules: Rules | None = None,
    forty: float = FORTY,
    only: Mapping[GameType, Collection[int]] | None = None,
) -> tuple[float, int, GameType | None]:
    """(expected result, the two cards as a mask, the game) of the best
    discard of the twelve cards with its best game, every pair (or those of
    ``only``, `put_aways`) and every game considered; the points put away
    break ties. The game is None when no game is considered."""
    ranked = put_aways(evaluator, cards12, position, bid, rules=rules, forty=forty, only=only)
    return ranked[0] if ranked else (-1e18, 0, None)


@cache
def default() -> Evaluator:
    """The shipped evaluator (``skat/players/data/handeval.json``)."""
    text = resources.files("skat.players").joinpath("data/handeval.json").read_text()
    return Evaluator(json.loads(text))


__all__ = [
    "BID_FLOOR",
    "CONTEST",
    "FORTY",
    "GAMES",
    "HAND_MARGIN",
    "KINDS",
    "STAGES",
    "Chances",
    "Evaluator",
    "best_put_away",
    "bid_limit",
    "considered",
    "contested",
    "counted_result",
    "default",
    "expected_result",
    "features",
    "game_value",
    "hand_game",
    "kind_of",
    "options",
    "put_aways",
]
