"""Train the model of the other seats' card play (skat.players.seatmodel;
issue 53, point 4) from the logged card play of a population of players.

Each deal is played by three members of ``--population`` (drawn per deal
from the seed; ``xskat`` is XSkat's computer in all three seats, built from
``../shared/xskat-4.0`` as the XSkat arena does), then replayed: every card
played from a choice of two or more legal cards is one example, the legal
cards described by `seatmodel.features` as the player saw them, the card
chosen its label. The model (one hidden layer of ``--hidden`` tanh units,
a softmax over the legal cards) is fitted by Adam on the summed
log-likelihood with L2; the deals of every tenth number are held out and
their mean log-likelihood per card is reported beside uniform play's.

    python -m bench.strength.train_seatmodel --deals 3000 --seed 1 --jobs 2 \\
        --population heuristic,club,xskat --out src/skat/players/data/seatmodel.json

The same arguments give the same weights (the deals, the draws of players
and the fit's start come from the seed; the players are deterministic
without a clock: ``club`` plays here as ``club@budget=0``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

import numpy as np

from skat.engine import Card, Deal, GameType, Phase, Play
from skat.players.arena import make_decks
from skat.players.loop import play_deal
from skat.players.seatmodel import FEATURES, Moment, features
from skat.series import ListOptions

T = TypeVar("T")

#: One example: the legal cards' feature rows and the index of the card played.
Example = tuple[list[list[float]], int]


def _player(name: str, rng: random.Random) -> Any:
    from bench.strength.arena_plays import variant
    from skat.players import make_player

    if name == "club":
        name = "club@budget=0"  # the casual level without its clock: reproducible
    variant(name)
    return make_player(name, rng, lab=True)


def played_deal(deck: Sequence[Card], dealer: int, names: Sequence[str], seed: int) -> Deal:
    """The deal played by ``names`` (one per seat; all ``xskat`` or none)."""
    options = ListOptions()
    if "xskat" in names:
        from bench.xskat.driver import play_deal_with_xskat, xskat_seed

        play = play_deal_with_xskat(
            deck, dealer=dealer, xseed=xskat_seed(seed, dealer), rules=options.deal_rules()
        )
        return play.deal
    deal = Deal(deck, rules=options.deal_rules(), dealer=dealer)
    rngs = [random.Random(seed * 7 + s) for s in range(3)]
    play_deal(deal, [_player(n, r) for n, r in zip(names, rngs, strict=True)])
    return deal


def examples_of(deal: Deal, seats: Collection[int] | None = None) -> list[Example]:
    """The card plays of a finished deal with a choice, as examples (of
    ``seats`` only when given: `train_cardpolicy` learns one seat's play)."""
    fresh = deal.fresh()
    out: list[Example] = []
    for seat, action in deal.history:
        if (
            isinstance(action, Play)
            and fresh.phase is Phase.PLAY
            and (seats is None or seat in seats)
        ):
            view = fresh.view(seat)
            if view.contract is not None and view.contract.game != GameType.RAMSCH:
                m = Moment.from_view(view)
                legal = m.legal()
                if len(legal) > 1:
                    out.append((features(m, legal), legal.index(int(action.card))))
        fresh.apply(action, seat)
    return out


def draw_names(seed: int, number: int, population: Sequence[str]) -> list[str]:
    """The players of deal ``number``: one member of the population drawn
    for the deal, ``xskat`` in all three seats or three others drawn per seat."""
    rng = random.Random(f"{seed}/{number}")
    pick = rng.choice(population)
    if pick == "xskat":
        return ["xskat"] * 3
    return [rng.choice([p for p in population if p != "xskat"] or [pick]) for _ in range(3)]


Chunk = tuple[int, int, int, tuple[str, ...]]  # seed, first and last deal, population


def _chunk(
    play: Callable[[Sequence[Card], int, Sequence[str], int], Deal],
    read: Callable[[Deal], list[T]],
    args: Chunk,
) -> list[tuple[int, list[T]]]:
    seed, lo, hi, population = args
    decks = make_decks(hi, seed)
    out = []
    for number in range(lo + 1, hi + 1):
        names = draw_names(seed, number, population)
        deal = play(decks[number - 1], (number - 1) % 3, names, seed * 100_003 + number)
        out.append((number, read(deal)))
    return out


def over_chunks(
    work: Callable[[Chunk], list[tuple[int, list[T]]]],
    deals: int,
    seed: int,
    jobs: int,
    population: Sequence[str],
) -> list[tuple[int, list[T]]]:
    """``work`` over deals 1..``deals`` of ``seed`` in chunks on ``jobs``
    processes: (deal number, its examples) in the deals' order, the same for
    any number of jobs."""
    step = max(1, deals // (8 * max(1, jobs)))
    chunks = [(seed, lo, min(deals, lo + step), tuple(population)) for lo in range(0, deals, step)]
    if jobs <= 1:
        results = [work(c) for c in chunks]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(work, chunks))
    return [row for part in results for row in part]


def over_population(
    play: Callable[[Sequence[Card], int, Sequence[str], int], Deal],
    read: Callable[[Deal], list[T]],
    deals: int,
    seed: int,
    jobs: int,
    population: Sequence[str],
) -> list[tuple[int, list[T]]]:
    """Deals 1..``deals`` of ``seed`` played by ``play`` (deck, dealer, the
    players' names by `draw_names`, a seed), each read into examples by
    ``read`` (`over_chunks`)."""
    return over_chunks(partial(_chunk, play, read), deals, seed, jobs, population)


def generate(
    deals: int,
    seed: int,
    jobs: int,
    population: Sequence[str],
    chunk: Callable[[Chunk], list[tuple[int, list[Example]]]] | None = None,
) -> list[tuple[int, list[Example]]]:
    """The examples of ``deals`` deals, played by ``chunk`` (the seat model's
    by default: `played_deal`, every seat's cards) in ``jobs`` processes."""
    if chunk is None:
        return over_population(played_deal, examples_of, deals, seed, jobs, population)
    return over_chunks(chunk, deals, seed, jobs, population)


def pack(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Examples padded to ten cards: features (n, 10, F), a mask of the
    legal cards (n, 10) and the index played (n)."""
    n, f = len(examples), len(FEATURES)
    x = np.zeros((n, 10, f))
    mask = np.zeros((n, 10), dtype=bool)
    y = np.zeros(n, dtype=int)
    for i, (rows, chosen) in enumerate(examples):
        x[i, : len(rows)] = rows
        mask[i, : len(rows)] = True
        y[i] = chosen
    return x, mask, y


def _forward(
    params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    h = np.tanh(x @ params["w1"].T + params["b1"])  # (n, 10, H)
    s = h @ params["w2"]  # (n, 10)
    s = np.where(mask, s, -1e9)
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s) * mask
    p /= p.sum(axis=1, keepdims=True)
    return h, p


def loglik(params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> float:
    """Mean log-likelihood per example."""
    _, p = _forward(params, x, mask)
    return float(np.mean(np.log(p[np.arange(len(y)), y] + 1e-12)))


def fit(
    x: np.ndarray,
    mask: np.ndarray,
    y: np.ndarray,
    hidden: int,
    seed: int,
    epochs: int = 30,
    batch: int = 512,
    l2: float = 1e-4,
    rate: float = 0.01,
) -> dict[str, np.ndarray]:
    """Adam on the mean negative log-likelihood plus ``l2`` times the squared weights."""
    rng = np.random.default_rng(seed)
    f = x.shape[2]
    params = {
        "w1": rng.normal(0.0, 1.0 / np.sqrt(f), (hidden, f)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden),
    }
    m1 = {k: np.zeros_like(v) for k, v in params.items()}
    m2 = {k: np.zeros_like(v) for k, v in params.items()}
    t = 0
    n = len(y)
    for _ in range(epochs):
        order = rng.permutation(n)
        for lo in range(0, n, batch):
            idx = order[lo : lo + batch]
            xb, mb, yb = x[idx], mask[idx], y[idx]
            h, p = _forward(params, xb, mb)
            ds = p.copy()  # d(-log p_y)/d score
            ds[np.arange(len(yb)), yb] -= 1.0
            ds /= len(yb)
            grads = {
                "w2": np.einsum("nk,nkh->h", ds, h) + 2 * l2 * params["w2"],
            }
            dh = ds[:, :, None] * params["w2"][None, None, :] * (1 - h * h)  # (n, 10, H)
            grads["w1"] = np.einsum("nkh,nkf->hf", dh, xb) + 2 * l2 * params["w1"]
            grads["b1"] = dh.sum(axis=(0, 1))
            t += 1
            for k in params:
                m1[k] = 0.9 * m1[k] + 0.1 * grads[k]
                m2[k] = 0.999 * m2[k] + 0.001 * grads[k] ** 2
                mh = m1[k] / (1 - 0.9**t)
                vh = m2[k] / (1 - 0.999**t)
                params[k] = params[k] - rate * mh / (np.sqrt(vh) + 1e-8)
    return params


def uniform_loglik(mask: np.ndarray) -> float:
    return float(np.mean(-np.log(mask.sum(axis=1))))


def accuracy(
    params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray, y: np.ndarray
) -> float:
    """The share of examples whose card played is the model's likeliest."""
    _, p = _forward(params, x, mask)
    return float(np.mean(p.argmax(axis=1) == y))


def fitted(
    rows: Sequence[tuple[int, list[Example]]], seed: int, hidden: int, epochs: int, made: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The model fitted to ``rows`` (the deals of every tenth number held
    out) as the shipped file's weights, and its report (``made``: the
    seconds the deals took)."""
    start = time.perf_counter()
    train_ex = [e for number, ex in rows if number % 10 for e in ex]
    held = [e for number, ex in rows if not number % 10 for e in ex]
    x, mask, y = pack(train_ex)
    params = fit(x, mask, y, hidden, seed, epochs)
    report: dict[str, Any] = {
        "examples": len(train_ex),
        "held_out": len(held),
        "seconds_play": round(made, 1),
        "seconds_fit": round(time.perf_counter() - start, 1),
        "train_loglik": round(loglik(params, x, mask, y), 4),
        "train_uniform": round(uniform_loglik(mask), 4),
        "train_top": round(accuracy(params, x, mask, y), 4),
    }
    if held:
        hx, hm, hy = pack(held)
        report["held_loglik"] = round(loglik(params, hx, hm, hy), 4)
        report["held_uniform"] = round(uniform_loglik(hm), 4)
        report["held_top"] = round(accuracy(params, hx, hm, hy), 4)
    weights = {
        "features": list(FEATURES),
        "w1": np.round(params["w1"], 6).tolist(),
        "b1": np.round(params["b1"], 6).tolist(),
        "w2": np.round(params["w2"], 6).tolist(),
    }
    return weights, report


def train(
    deals: int, seed: int, jobs: int, population: Sequence[str], hidden: int, epochs: int
) -> dict[str, Any]:
    start = time.perf_counter()
    rows = generate(deals, seed, jobs, population)
    weights, report = fitted(rows, seed, hidden, epochs, time.perf_counter() - start)
    return {
        "command": "python -m bench.strength.train_seatmodel " + " ".join(sys.argv[1:]),
        "population": list(population),
        "report": report,
        **weights,
    }


def population_parser(doc: str, deals: int, population: str) -> argparse.ArgumentParser:
    """The options every trainer of a population takes: ``--deals``,
    ``--seed``, ``--jobs``, ``--population`` and ``--out``."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=deals)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--population", default=population)
    ap.add_argument("--out", default="-")
    return ap


def write_model(data: dict[str, Any], out: str) -> None:
    """A trained model to ``out`` (``-``: standard output), its report to
    standard error."""
    text = json.dumps(data, indent=1) + "\n"
    if out == "-":
        sys.stdout.write(text)
    else:
        with open(out, "w") as f:
            f.write(text)
        print(json.dumps(data["report"]), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    ap = population_parser(__doc__, 2000, "heuristic,club,xskat")
    ap.add_argument("--hidden", type=int, default=12)
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args(argv)
    population = [p for p in args.population.split(",") if p]
    if not population or args.deals < 1 or args.hidden < 1:
        ap.error("give a population, at least one deal and one hidden unit")
    data = train(args.deals, args.seed, args.jobs, population, args.hidden, args.epochs)
    write_model(data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
