"""The arena: two players measured on duplicate deals (issue 4).

Each deal is played once per arrangement: every seat in turn holds one
player alone against copies of the other, and the same again with the roles
swapped (6 plays at three players, 8 at four where the dealer sits out and
still scores). The score of a deal is A's average Seeger-Fabian points per
seat and play minus B's, so luck of the cards cancels out; the report gives
the mean over deals with a 95% interval. Every play draws its players' RNGs
from (seed, deal, arrangement, seat) only, so A against A gives exactly zero
on every deal, and the result does not depend on ``jobs``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine import Card, Contract, Deal, GameType, Kontra
from ..series import ListOptions
from ..series.shuffle import deal_deck
from .catalogue import make_player
from .loop import Timings, play_deal


@dataclass
class Side:
    """Statistics of one player over all its seats and plays."""

    name: str
    points: int = 0  # Seeger-Fabian total over all its seat-plays
    seat_plays: int = 0
    declared: int = 0
    declarer_won: int = 0
    declarer_value: int = 0
    defended: int = 0
    defender_won: int = 0
    overbid: int = 0
    passed: int = 0  # deals thrown in or Ramsch while it sat at the table
    thrown_in: int = 0  # deals thrown in (all passed) while it sat at the table
    games: dict[str, int] = field(default_factory=dict)  # declared games: suit, grand, null
    kontra_said: int = 0  # defences in which this seat said Kontra (R9.3)
    kontra_won: int = 0  # ... and the defenders won
    re_said: int = 0  # declared games in which it answered Kontra with Re
    re_won: int = 0  # ... and the declarer won
    times: dict[str, list[float]] = field(default_factory=dict)

    _COUNTS = (
        "points",
        "seat_plays",
        "declared",
        "declarer_won",
        "declarer_value",
        "defended",
        "defender_won",
        "overbid",
        "passed",
        "thrown_in",
        "kontra_said",
        "kontra_won",
        "re_said",
        "re_won",
    )

    def merge(self, other: Side) -> None:
        for k in self._COUNTS:
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for kind, count in other.games.items():
            self.games[kind] = self.games.get(kind, 0) + count
        for phase, ts in other.times.items():
            self.times.setdefault(phase, []).extend(ts)


@dataclass
class DealOutcome:
    number: int
    diff: float  # A - B per seat and play
    sides: tuple[Side, Side]
    plays: int = 0  # plays of this deal (one per arrangement)
    thrown_in: int = 0  # of them thrown in (everybody passed)


def arrangements(players: int) -> list[tuple[int, int]]:
    """(alone seat, which player is alone: 0 = A, 1 = B)."""
    return [(seat, who) for seat in range(players) for who in (0, 1)]


def _rng(seed: int, deal: int, seat_alone: int, seat: int) -> random.Random:
    h = hashlib.sha256(f"{seed}/{deal}/{seat_alone}/{seat}".encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def play_duplicate(
    a: str, b: str, deck: Sequence[Card], number: int, seed: int, options: ListOptions
) -> DealOutcome:
    """Play one deal in every arrangement."""
    n = options.players
    rules = options.deal_rules()
    dealer = (options.first_dealer + number - 1) % n
    sides = (Side(a), Side(b))
    totals = [0, 0]
    plays = thrown_in = 0
    for alone, who in arrangements(n):
        names = [a, b] if who == 0 else [b, a]
        owner = [who if s == alone else 1 - who for s in range(n)]
        players = [
            make_player(
                names[0] if s == alone else names[1], _rng(seed, number, alone, s), lab=True
            )
            for s in range(n)
        ]
        timings = [Timings() for _ in range(n)]
        deal = Deal(deck, rules=rules, dealer=dealer)
        result = play_deal(deal, players, timings=timings)
        plays += 1
        thrown_in += result.kind == "passed"
        kontra_seat = next((s for s, act in deal.history if isinstance(act, Kontra)), None)
        for s in range(n):
            side = sides[owner[s]]
            entry = result.seeger_fabian[s]
            totals[owner[s]] += entry
            side.points += entry
            side.seat_plays += 1
            for phase, ts in timings[s].by_phase.items():
                side.times.setdefault(phase, []).extend(ts)
            if result.kind != "game":
                side.passed += 1
                side.thrown_in += result.kind == "passed"
                continue
            if result.declarer_seat == s:
                side.declared += 1
                side.declarer_won += bool(result.won)
                side.declarer_value += result.value
                side.overbid += bool(result.valuation and result.valuation.overbid)
                kind = _game_kind(result.contract)
                side.games[kind] = side.games.get(kind, 0) + 1
                if result.re:
                    side.re_said += 1
                    side.re_won += bool(result.won)
            elif deal.position_of(s) is not None:
                side.defended += 1
                side.defender_won += not result.won
                if kontra_seat == s:
                    side.kontra_said += 1
                    side.kontra_won += not result.won
    per = len(arrangements(n)) * n / 2  # seat-plays per player
    return DealOutcome(number, (totals[0] - totals[1]) / per, sides, plays, thrown_in)


def _game_kind(contract: Contract | None) -> str:
    if contract is None or contract.game.is_suit:
        return "suit"
    return "grand" if contract.game == GameType.GRAND else "null"


def _play_chunk(
    args: tuple[str, str, list[list[int]], list[int], int, dict[str, Any]],
) -> list[DealOutcome]:
    a, b, decks, numbers, seed, options = args
    opts = ListOptions.from_dict(options)
    return [
        play_duplicate(a, b, [Card(c) for c in deck], number, seed, opts)
        for deck, number in zip(decks, numbers, strict=True)
    ]


def make_decks(deals: int, seed: int) -> list[list[Card]]:
    """Deterministic decks for an arena run (the list shuffle of docs/fairness.md)."""
    key = hashlib.sha256(f"skat-arena/{seed}".encode()).digest()
    return [deal_deck(key, k) for k in range(1, deals + 1)]


def save_decks(path: str, decks: list[list[Card]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(
            {
                "format": "skat-deals",
                "version": 1,
                "decks": [" ".join(c.name for c in d) for d in decks],
            },
            fh,
        )


def load_decks(path: str) -> list[list[Card]]:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, dict) or data.get("format") != "skat-deals":
        raise ValueError(f"{path} is not a skat-deals file")
    from ..engine import parse_cards

    decks = [parse_cards(d) for d in data["decks"]]
    for d in decks:
        if len(d) != 32 or len(set(d)) != 32:
            raise ValueError("every deck must hold the 32 cards once")
    return decks


@dataclass
class ArenaReport:
    a: str
    b: str
    deals: int
    mean: float
    low: float
    high: float
    sides: tuple[Side, Side]
    diffs: list[float]
    plays: int = 0
    thrown_in: int = 0

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "a_minus_b_per_game": round(self.mean, 2),
            "ci95": [round(self.low, 2), round(self.high, 2)],
            "plays": self.plays,
            "thrown_in_rate": round(self.thrown_in / max(1, self.plays), 4),
        }
        for key, side in zip(("a_stats", "b_stats"), self.sides, strict=True):
            out[key] = side_stats(side)
        return out


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def side_stats(side: Side) -> dict[str, Any]:
    all_times = [t for ts in side.times.values() for t in ts]
    return {
        "name": side.name,
        "points_per_game": round(side.points / max(1, side.seat_plays), 2),
        "declare_rate": round(side.declared / max(1, side.seat_plays), 3),
        "declarer_win_pct": round(100 * side.declarer_won / max(1, side.declared), 1),
        "defender_win_pct": round(100 * side.defender_won / max(1, side.defended), 1),
        "average_value": round(side.declarer_value / max(1, side.declared), 1),
        "passed_deals": side.passed,
        "thrown_in_rate": round(side.thrown_in / max(1, side.seat_plays), 4),
        "overbids": side.overbid,
        "game_shares": {
            kind: round(side.games.get(kind, 0) / max(1, side.declared), 4)
            for kind in ("suit", "grand", "null")
        },
        "kontra_rate": round(side.kontra_said / max(1, side.defended), 4),
        "kontra": {
            "said": side.kontra_said,
            "won": side.kontra_won,
            "lost": side.kontra_said - side.kontra_won,
        },
        "re": {"said": side.re_said, "won": side.re_won, "lost": side.re_said - side.re_won},
        "decision_ms_p50": round(1000 * _pct(all_times, 0.5), 3),
        "decision_ms_p95": round(1000 * _pct(all_times, 0.95), 3),
        "decision_ms_by_phase": {
            phase: {"p50": round(1000 * _pct(ts, 0.5), 3), "p95": round(1000 * _pct(ts, 0.95), 3)}
            for phase, ts in sorted(side.times.items())
        },
    }


def run_arena(
    a: str,
    b: str,
    *,
    deals: int = 100,
    seed: int = 1,
    jobs: int = 1,
    options: ListOptions | None = None,
    decks: list[list[Card]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaReport:
    """Play ``deals`` duplicate deals of ``a`` against ``b``."""
    options = options or ListOptions()
    make_player(a, lab=True)
    make_player(b, lab=True)  # fail early on an unknown name
    if decks is None:
        decks = make_decks(deals, seed)
    decks = decks[:deals]
    chunk = 10
    tasks = [
        (
            a,
            b,
            [[int(c) for c in d] for d in decks[i : i + chunk]],
            list(range(i + 1, i + 1 + len(decks[i : i + chunk]))),
            seed,
            options.to_dict(),
        )
        for i in range(0, len(decks), chunk)
    ]
    outcomes: list[DealOutcome] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for res in pool.map(_play_chunk, tasks):
                outcomes += res
                if progress:
                    progress(len(res))
    else:
        for task in tasks:
            res = _play_chunk(task)
            outcomes += res
            if progress:
                progress(len(res))
    diffs = [o.diff for o in outcomes]
    mean = statistics.fmean(diffs) if diffs else 0.0
    sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(diffs)) if diffs else 0.0
    sa, sb = Side(a), Side(b)
    for o in outcomes:
        sa.merge(o.sides[0])
        sb.merge(o.sides[1])
    plays = sum(o.plays for o in outcomes)
    thrown_in = sum(o.thrown_in for o in outcomes)
    return ArenaReport(
        a, b, len(diffs), mean, mean - half, mean + half, (sa, sb), diffs, plays, thrown_in
    )


__all__ = ["ArenaReport", "Side", "asdict", "load_decks", "make_decks", "run_arena", "save_decks"]
