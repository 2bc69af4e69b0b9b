"""Train the hand evaluator (skat.players.handeval) from forced games.

For random deals, every plausible game of each position's ten cards is
forced: the position becomes declarer at 18 (the others pass), then plays
the game as a Hand game and, separately, picks up the skat, puts away the two
cards `heuristic` would put away for that game, and declares it. Each forced
game gives one example to the model of its stage (``hand``; ``pickup`` from
the ten dealt cards, ``counted`` from the ten kept and the points put away),
labelled with its chance to be won and won with Schneider, in one of two ways
(``--solved`` blends them):

- **played** (``--solved 0``): the game played out by `heuristic` in all
  three seats, won or lost (1 or 0); cheap, but it rates a hand by
  `heuristic`'s card play, which wins less than the casual level's search;
- **solved** (``--solved 1``, the shipped file): the open-card solve of the
  true hands, read through the curves measured on `search`'s real games
  (`search.settings.WIN_CURVE`: a suit game reaching 53 open-card points won 97% of
  the time; `GRAND_CURVE`, `SCHNEIDER_CURVE`): what `search`'s auction
  expects of the game, as chances. A Null is always played out (see
  `labels_of`).

Each model is a logistic regression (L2-regularised Newton steps in NumPy,
soft labels allowed); the result is a JSON file with the weights and the
command that made it.

    python -m bench.strength.train_handeval --deals 8000 --seed 1 --jobs 2 \\
        --solved 1.0 --out src/skat/players/data/handeval.json

The same arguments give the same weights (the deals come from the seed, the
players and the solver are deterministic, the fit is exact).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench.strength.arena_plays import parse_curve
from skat.engine import (
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    Discard,
    GameType,
    Hold,
    Pass,
    Phase,
    Pickup,
)
from skat.engine.cards import JACKS, POINTS, mask_cards
from skat.engine.game import TRUMPS
from skat.players import solver
from skat.players.handeval import KINDS, STAGES, TARGETS, features, kind_of
from skat.players.heuristic import HeuristicPlayer
from skat.players.search.settings import NULL_HIDDEN, WIN_CURVE
from skat.players.solver import Position
from skat.players.strength import null_profile, suit_strength

GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND)
# kind, stage, features, won, won with Schneider (0/1 when played out; chances when solved)
Example = tuple[str, str, list[float], float, float]


def plausible(hand: int, game: GameType) -> bool:
    """Games a player might consider with these ten cards: the evaluator is
    trained (and used) on these only."""
    if game == GameType.NULL:
        return null_profile(hand)[1] <= 2.0
    if game == GameType.GRAND:
        nj = (hand & JACKS).bit_count()
        aces = sum(hand >> (8 * u) & 1 for u in range(4))
        return nj >= 2 or (nj == 1 and aces >= 3)
    return (hand & TRUMPS[game]).bit_count() >= 4


def discard_for(cards12: int, game: GameType) -> tuple[int, int]:
    """The two cards to put away for ``game``: the best ten kept by
    heuristic's count (Null: the least danger), points put away breaking
    ties."""
    cards = mask_cards(cards12)
    best: tuple[float, tuple[int, int]] | None = None
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            kept = cards12 & ~((1 << a) | (1 << b))
            pts = POINTS[a] + POINTS[b]
            if game == GameType.NULL:
                score = -null_profile(kept)[1] * 100 - pts / 100
            else:
                score = suit_strength(kept, game) + pts / 15
            if best is None or score > best[0]:
                best = (score, (a, b))
    assert best is not None
    return best[1]


def force(
    deck: Sequence[Card],
    dealer: int,
    position: int,
    game: GameType,
    hand: bool,
    discard: Callable[[int, GameType], tuple[int, int]] = discard_for,
) -> tuple[Deal, int]:
    """The deal with the player at ``position`` made declarer of ``game`` at
    18 (the others pass), Hand or after picking up and putting away what
    ``discard`` (`discard_for`) chooses, before the first card. Returns the
    deal and the points put away."""
    deal = Deal(deck, dealer=dealer)
    declarer = deal.seat_of(position)
    while deal.phase is Phase.BIDDING:
        seat = deal.current_seat
        legal = deal.legal_actions()
        if seat == declarer:
            act = next(
                (a for a in legal if isinstance(a, Bid | Hold)),
                next(a for a in legal if isinstance(a, Pass)),
            )
        else:
            act = next(a for a in legal if isinstance(a, Pass))
        deal.apply(act)
    assert deal.declarer_seat == declarer, "the forced auction went wrong"
    if hand:
        deal.apply(Announce(Contract(game, hand=True)))
        return deal, 0
    deal.apply(Pickup())
    a, b = discard(deal.hand(declarer).mask, game)
    deal.apply(
        next(x for x in deal.legal_actions() if isinstance(x, Discard) and set(x.cards) == {a, b})
    )
    deal.apply(Announce(Contract(game)))
    return deal, POINTS[a] + POINTS[b]


def played_labels(deal: Deal, game: GameType) -> tuple[float, float]:
    """(won, won with Schneider) of the game played out by `heuristic` in all
    three seats."""
    players = [HeuristicPlayer(random.Random(0)) for _ in range(3)]
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(deal.view(seat)), seat)
    result = deal.result
    assert result is not None
    won = int(bool(result.won))
    return won, int(won and game != GameType.NULL and result.declarer_points >= 90)


def _tier(pos: Position, curve: Sequence[tuple[int, float]]) -> tuple[int, float]:
    for i, (threshold, chance) in enumerate(curve):
        if threshold <= 0 or solver.reaches(pos, threshold):
            return i, chance
    return len(curve), 0.0


Curve = tuple[tuple[int, float], ...]
#: The curves the solved labels are read through: suit games, Grand.
#: The real win chance of a Grand by its open-card points from the first
#: card (of `search`'s 181 Grands 53-60 won 67%, 41-52 58%, 61 or more 99%),
#: and of Schneider in the games the top tier counts won (90 or more made
#: Schneider in play in 77% (suit) and 93% (Grand), 75-89 in 67% and 66%).
#: The labels' curves; the player itself was measured with them and kept
#: neither (docs/lab/strength-log.md).
GRAND_CURVE: Curve = ((61, 0.98), (53, 0.65), (41, 0.45), (0, 0.1))
SCHNEIDER_CURVE: Curve = ((90, 0.85), (75, 0.65), (0, 0.25))
CURVES: tuple[Curve, Curve] = (WIN_CURVE, GRAND_CURVE)


def solved_labels(
    deal: Deal, game: GameType, curves: tuple[Curve, Curve] = CURVES
) -> tuple[float, float]:
    """(win chance, Schneider chance) of the game by the open-card solve of
    the true hands, read through the curves measured on `search`'s real
    games (`search.settings.WIN_CURVE`, `GRAND_CURVE`, or ``curves``, and
    `SCHNEIDER_CURVE`; a plain Null the solve loses counts `NULL_HIDDEN`
    won, as `search` counts it): soft labels, what `search`'s auction
    expects of the game."""
    pos = Position.from_deal(deal)
    if game == GameType.NULL:
        ouvert = deal.contract is not None and deal.contract.ouvert
        return (1.0 if solver.null_wins(pos) else 0.0 if ouvert else NULL_HIDDEN), 0.0
    tier, win = _tier(pos, curves[1] if game == GameType.GRAND else curves[0])
    if tier > 0:
        return win, 0.0
    _, schneider = _tier(pos, SCHNEIDER_CURVE)
    return win, min(win, schneider)


def labels_of(
    deal: Deal, game: GameType, mode: float, curves: tuple[Curve, Curve] = CURVES
) -> tuple[float, float]:
    """The labels of a forced game: ``mode`` is the solved labels' share of
    a suit game's or Grand's (0: played out by `heuristic` only, 1: solved
    only, between: blended). A Null is always played out: the open-card
    defence sees where the declarer cannot duck, which a real one does not
    (with solved labels the model judged a Null Hand of sevens, eights and
    two nines, which nobody can beat, a coin toss)."""
    if mode <= 0 or game == GameType.NULL:
        return played_labels(deal, game)
    s = solved_labels(deal, game, curves)
    out = (mode * s[0], mode * s[1])
    if mode < 1:
        p = played_labels(deal, game)
        out = (out[0] + (1 - mode) * p[0], out[1] + (1 - mode) * p[1])
    return out


#: The dealer of the forced deals (forehand is position 0 at seat 0).
DEALER = 2


def forced_choices(deck: Sequence[Card]) -> Iterator[tuple[int, int, GameType]]:
    """(position, the ten cards dealt, game) of every plausible game of each
    position's ten cards in ``deck`` dealt by `DEALER`: the games forced."""
    probe = Deal(deck, dealer=DEALER)
    for position in range(3):
        dealt = probe.dealt_hand(position).mask
        for game in (*GAMES, GameType.NULL):
            if plausible(dealt, game):
                yield position, dealt, game


def examples_of_deal(
    seed: int, number: int, mode: float = 0.0, curves: tuple[Curve, Curve] = CURVES
) -> list[Example]:
    rng = random.Random(f"{seed}/{number}")
    deck = list(Card)
    rng.shuffle(deck)
    out: list[Example] = []
    for position, dealt, game in forced_choices(deck):
        kind = kind_of(game)
        deal, _ = force(deck, DEALER, position, game, True)
        won, schneider = labels_of(deal, game, mode, curves)
        out.append((kind, "hand", features(dealt, game, position), won, schneider))
        deal, pts = force(deck, DEALER, position, game, False)
        kept = deal.hand(deal.seat_of(position)).mask
        won, schneider = labels_of(deal, game, mode, curves)
        out.append((kind, "pickup", features(dealt, game, position), won, schneider))
        out.append((kind, "counted", features(kept, game, position, pts), won, schneider))
    return out


def _chunk(args: tuple[int, int, int, float, tuple[Curve, Curve]]) -> list[Example]:
    seed, lo, hi, mode, curves = args
    out: list[Example] = []
    for n in range(lo, hi):
        out += examples_of_deal(seed, n, mode, curves)
    return out


def generate(
    deals: int, seed: int, jobs: int, mode: float = 0.0, curves: tuple[Curve, Curve] = CURVES
) -> Iterator[Example]:
    step = 50
    chunks = [(seed, lo, min(deals, lo + step), mode, curves) for lo in range(0, deals, step)]
    if jobs <= 1:
        for c in chunks:
            yield from _chunk(c)
        return
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(_chunk, chunks):  # in order: the same examples whatever jobs
            yield from part


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method with an L2 penalty (the bias
    not penalised). Returns the bias followed by the weights."""
    n, d = x.shape
    a = np.hstack([np.ones((n, 1)), x])
    w = np.zeros(d + 1)
    pen = np.full(d + 1, l2)
    pen[0] = 0.0
    for _ in range(steps):
        z = np.clip(a @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        g = a.T @ (p - y) + pen * w
        h = (a * (p * (1 - p))[:, None]).T @ a + np.diag(pen) + 1e-9 * np.eye(d + 1)
        delta = np.linalg.solve(h, g)
        w -= delta
        if float(np.max(np.abs(delta))) < 1e-8:
            break
    return w


def train(
    deals: int,
    seed: int,
    jobs: int,
    l2: float = 1.0,
    solved: float = 0.0,
    curves: tuple[Curve, Curve] = CURVES,
) -> dict[str, object]:
    rows: dict[tuple[str, str], tuple[list[list[float]], list[float], list[float]]] = {}
    for kind, stage, f, won, schneider in generate(deals, seed, jobs, solved, curves):
        xs, ws, ss = rows.setdefault((kind, stage), ([], [], []))
        xs.append(f)
        ws.append(won)
        ss.append(schneider)
    weights: dict[str, dict[str, dict[str, list[float]]]] = {}
    counts: dict[str, dict[str, list[float]]] = {}
    for kind in KINDS:
        for stage in STAGES:
            if (kind, stage) not in rows:
                continue
            xs, ws, ss = rows[kind, stage]
            x = np.array(xs, dtype=float)
            counts.setdefault(kind, {})[stage] = [len(xs), round(sum(ws), 1), round(sum(ss), 1)]
            for target, y in zip(TARGETS, (ws, ss), strict=True):
                if kind == "null" and target == "schneider":
                    continue
                w = fit(x, np.array(y, dtype=float), l2)
                weights.setdefault(kind, {}).setdefault(stage, {})[target] = [
                    round(float(v), 6) for v in w
                ]
    return {"examples": counts, "weights": weights}


def _curve(text: str) -> Curve:
    """A curve on the command line: ``61:0.96/53:0.74/41:0.52/0:0.1``
    (thresholds of open-card points falling, each with its win chance)."""
    try:
        pairs = parse_curve(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a curve: {text!r}") from None
    thresholds = [t for t, _ in pairs]
    if not pairs or thresholds != sorted(thresholds, reverse=True) or thresholds[-1] != 0:
        raise argparse.ArgumentTypeError("thresholds must fall and end at 0")
    if any(not 0.0 <= c <= 1.0 for _, c in pairs):
        raise argparse.ArgumentTypeError("chances are between 0 and 1")
    return pairs


def _text(curve: Curve) -> str:
    return "/".join(f"{t}:{c:g}" for t, c in curve)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument(
        "--solved",
        type=float,
        default=0.0,
        help="the share of a suit game's or Grand's labels from the open-card solve"
        " (0: played out by heuristic; a Null always is)",
    )
    ap.add_argument(
        "--win-curve",
        type=_curve,
        default=WIN_CURVE,
        help="the solved labels' curve of a suit game, as 53:0.97/41:0.65/0:0.25"
        " (search.WIN_CURVE by default)",
    )
    ap.add_argument(
        "--grand-curve",
        type=_curve,
        default=GRAND_CURVE,
        help="the same for Grand (search.GRAND_CURVE by default)",
    )
    ap.add_argument("--out", default="-")
    args = ap.parse_args(argv)
    if not 0.0 <= args.solved <= 1.0:
        ap.error("--solved is a share between 0 and 1")
    start = time.perf_counter()
    curves = (args.win_curve, args.grand_curve)
    data = train(args.deals, args.seed, args.jobs, args.l2, args.solved, curves)
    command = (
        f"python -m bench.strength.train_handeval --deals {args.deals} --seed {args.seed}"
        f" --l2 {args.l2}"
    )
    if curves != CURVES:
        command += f" --win-curve {_text(args.win_curve)} --grand-curve {_text(args.grand_curve)}"
    players = "heuristic (card play of all three seats)"
    if args.solved > 0:
        command += f" --solved {args.solved}"
        players = f"{args.solved:g} of each label the open-card solve through search's curves" + (
            "" if args.solved >= 1 else f", {1 - args.solved:g} {players}"
        )
    data = {
        "command": command,
        "players": players,
        **data,
    }
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(f"trained in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
