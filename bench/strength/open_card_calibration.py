"""How often a game is really won, by its open-card points at the first trick.

`search` values a game in the auction and the discard by solving sampled
worlds with all cards open. The open-card defence sees every card, a real
one does not, so "the solve loses" is not "the game is lost". This plays
the deals, arrangements and player RNGs of ``skat arena A B --seed S``
and writes, for every game that reached trick play, the declarer's
open-card points from the first trick (the dealt hands after the discard,
`solver.best_points`; Null: `null_wins`) beside the real result, with
the arrangement, the declarer's seat, the bid and every seat's
Seeger-Fabian entry (to pair the same seat's games across arrangements).
``--report`` prints the real win rate per tier of open-card points, by
declarer, game class and Hand or pickup: the table behind
`search.WIN_CURVE`; then, per declarer and pair of defenders, how many
open-card lost games the declarer won in play and how many open-card won
games he lost (what each defence makes of the cards).

    .venv/bin/python -m bench.strength.open_card_calibration search heuristic \\
        --deals 150 --out cal.jsonl
    .venv/bin/python -m bench.strength.open_card_calibration --report cal.jsonl
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from bench.strength.arena_plays import arena_parser, played, write_lines
from skat.engine import GameType
from skat.players.analysis import _start
from skat.players.solver import Position, best_points, null_wins

#: Tiers of open-card points for the report.
TIERS = (0, 41, 53, 61)


def games(args: tuple[str, str, list[int], int, int]) -> list[dict[str, Any]]:
    """Every game of one deal in every arrangement that reached trick play."""
    a, b, cards, number, seed = args
    out = []
    for alone, who, owner, deal, r in played(a, b, cards, number, seed):
        if r.kind != "game" or deal.contract is None or r.declarer_seat is None:
            continue
        fresh, _ = _start(deal)
        pos = Position.from_deal(fresh)
        c = deal.contract
        d = r.declarer_seat
        null = c.game == GameType.NULL
        out.append(
            {
                "number": number,
                "alone": alone,  # the arrangement, as in arena_plays
                "who": who,
                "declarer_seat": d,
                "declarer": [a, b][owner[d]],
                "defenders": sorted([a, b][owner[s]] for s in range(len(owner)) if s != d),
                "contract": str(c),
                "game": "null" if null else "grand" if c.game == GameType.GRAND else "suit",
                "hand": bool(c.hand),
                "announced": bool(c.schneider or c.schwarz),
                "bid": r.bid,
                "won": r.won,
                "points": r.declarer_points,
                "seeger_fabian": list(r.seeger_fabian),
                "open": bool(null_wins(pos)) if null else int(best_points(pos)),
            }
        )
    return out


def report(path: Path) -> None:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    groups: dict[tuple[str, str, bool], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["game"] != "null" and not r["announced"]:
            groups[(r["declarer"], r["game"], r["hand"])].append(r)
    edges = (*TIERS, 121)
    for (declarer, game, hand), sel in sorted(groups.items()):
        print(f"{declarer} {game} {'Hand' if hand else 'pickup'}: {len(sel)} games")
        for lo, hi in pairwise(edges):
            tier = [r for r in sel if lo <= r["open"] < hi]
            if tier:
                won = sum(r["points"] >= 61 for r in tier) / len(tier)
                print(f"  open-card {lo:3}-{hi - 1:3}: {len(tier):4} games, 61 reached {won:.2f}")
    defence(rows)


def defence(rows: list[dict[str, Any]]) -> None:
    """Per declarer and pair of defenders (suit and Grand, not announced):
    how many open-card lost games the declarer still won, and how many
    open-card won games he lost: what each defence makes of the cards."""
    groups: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["game"] != "null" and not r["announced"]:
            groups[(r["declarer"], tuple(r["defenders"]))].append(r)
    for (declarer, defenders), sel in sorted(groups.items()):
        lost = [r for r in sel if r["open"] < 61]
        won = [r for r in sel if r["open"] >= 61]
        made = sum(r["points"] >= 61 for r in lost)
        dropped = sum(r["points"] < 61 for r in won)
        print(
            f"{declarer} against {' and '.join(defenders)}: "
            f"open-card lost {len(lost)}, won in play {made}; "
            f"open-card won {len(won)}, lost in play {dropped}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    ap = arena_parser("calibration.jsonl", jobs=2)
    ap.add_argument("--report", type=Path)
    args = ap.parse_args(argv)
    if args.report:
        report(args.report)
        return
    write_lines(ap, args, games, "--report FILE")


if __name__ == "__main__":
    main()
