"""Our player against XSkat's computers, seat by seat (issue 53, point 1).

Every deal of ``make_decks(deals, seed)`` (the arena's decks, so these
figures share their deals with `skat arena`) is played

* once with XSkat's computer in all three seats (the baseline), and
* three times per player named: our player in seat s, XSkat's computers in
  the other two, for s = 0, 1, 2.

Our seat's Seeger-Fabian points minus the baseline's XSkat in the same seat
is the duplicate margin of that deal-seat; the deal's figure is the mean over
its three seats and the interval is over deals. ``--paired OTHER`` plays a
second player of ours on the same deals, seats and XSkat seeds, and reports
the difference of the two margins deal by deal. The table margin is our
seat's points minus the mean of the two XSkat seats' in the same play. The
split by who declared sorts the deal-seats into (a) both declared there,
the same game; (b) both declared, another game; (c) only ours declared;
(d) only XSkat declared; (e) neither; a game is its kind (suit, grand,
null), Hand or not, and its announcements.

    .venv/bin/python -m bench.xskat.arena heuristic --paired club --deals 100 \\
        --seed 1 --jobs 1 --out runs.jsonl
    .venv/bin/python -m bench.xskat.arena heuristic --paired club --report runs.jsonl
    .venv/bin/python -m bench.xskat.arena club --paired search --report runs.jsonl \\
        --with other-run.jsonl   # players of two runs on the same deals, paired

One JSON line per deal as it ends: an interrupted run goes on where it
stopped. The dealer of deal k is seat (k - 1) mod 3, as in the arena.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from bench.strength.arena_plays import variant
from bench.strength.compat import make_player
from skat.engine import Card, Contract, Discard
from skat.players.analysis import declarer_could_win
from skat.players.arena import _rng, make_decks
from skat.series import ListOptions

from .build import build
from .driver import XSkatPlay, play_deal_with_xskat, xskat_seed

GROUPS = {
    "a": "both declared, the same game",
    "b": "both declared, another game",
    "c": "only ours declared",
    "d": "only XSkat declared",
    "e": "neither declared",
}


def game_key(contract: Contract | None) -> str | None:
    """The game as the split compares it: kind, Hand or not, announcements."""
    if contract is None:
        return None
    g = contract.game
    kind = "suit" if g.is_suit else g.label
    flags = [f for f in ("schneider", "schwarz", "ouvert") if getattr(contract, f)]
    return " ".join([kind, "hand" if contract.hand else "pickup", *flags])


def summary(play: XSkatPlay) -> dict[str, Any]:
    r = play.result
    put = next((a.cards for _, a in play.deal.history if isinstance(a, Discard)), None)
    return {
        "kind": r.kind,
        "declarer": r.declarer_seat,
        "contract": str(r.contract) if r.contract else None,
        "game": game_key(r.contract),
        "bid": r.bid,
        "won": None if r.kind != "game" else bool(r.won),
        "declarer_points": r.declarer_points,
        "sf": list(r.seeger_fabian),
        "xskat_end": play.xskat_end,
        # the two cards the declarer put away (bench.strength.calibration)
        "put_away": [str(Card(c)) for c in put] if put else None,
        # could the declarer make it with all cards open after the discard?
        "open_card_win": declarer_could_win(play.deal),
    }


def play_one(args: tuple[list[str], list[int], int, int]) -> dict[str, Any]:
    names, deck_ints, number, seed = args
    exe = build()
    deck = [Card(c) for c in deck_ints]
    options = ListOptions()
    rules = options.deal_rules()
    dealer = (options.first_dealer + number - 1) % 3
    xseed = xskat_seed(seed, number)
    start = time.perf_counter()
    base = play_deal_with_xskat(deck, dealer=dealer, xseed=xseed, rules=rules, exe=exe)
    row: dict[str, Any] = {
        "number": number,
        "dealer": dealer,
        "xseed": xseed,
        "baseline": summary(base),
        "players": {},
    }
    for name in names:
        variant(name)
        plays = []
        for seat in range(3):
            ours = make_player(name, _rng(seed, number, seat, seat))
            play = play_deal_with_xskat(
                deck, dealer=dealer, xseed=xseed, ours=ours, our_seat=seat, rules=rules, exe=exe
            )
            plays.append(summary(play))
        row["players"][name] = plays
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


def _interval(xs: list[float]) -> dict[str, Any]:
    mean = statistics.fmean(xs) if xs else 0.0
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)]}


def group_of(ours: dict[str, Any], base: dict[str, Any], seat: int) -> str:
    we = ours["declarer"] == seat
    they = base["declarer"] == seat
    if we and they:
        return "a" if ours["game"] == base["game"] else "b"
    if we:
        return "c"
    return "d" if they else "e"


def _verdict_key(number: int, play: dict[str, Any]) -> tuple[Any, ...]:
    """A game's key: its deal, declarer, game and discard (a log from before
    the discards were logged: without it, where the runs agree)."""
    if "put_away" not in play:
        return (number, play["declarer"], play["contract"])
    return (number, play["declarer"], play["contract"], tuple(play["put_away"] or ()))


def verdicts(rows: list[dict[str, Any]]) -> dict[tuple[Any, ...], bool]:
    """The open-card verdicts the logs hold, by deal, declarer, game and
    discard: a game of a log without them (before 2026-12-06) takes the
    verdict of the same game in another player's log of the same deal."""
    out: dict[tuple[Any, ...], bool] = {}
    conflicts: set[tuple[Any, ...]] = set()
    for r in rows:
        for plays in r["players"].values():
            for play in plays:
                if play.get("open_card_win") is not None:
                    key = _verdict_key(r["number"], play)
                    out[key] = play["open_card_win"]
                    short = key[:3]  # the same game whatever the discard: only if all agree
                    if short in out and out[short] != play["open_card_win"]:
                        conflicts.add(short)
                    out[short] = play["open_card_win"]
    for short in conflicts:
        del out[short]
    return out


def decided_games(
    rows: list[dict[str, Any]], name: str, known: dict[tuple[Any, ...], bool]
) -> dict[str, Any]:
    """Issue 53, point 3: of our seat's games that the open-card solve loses
    after the discard, how many it won back and how many it lost with
    Schneider (under 31); of the other seats' games it wins (ours
    defending), how many our defence won and how many it let reach 90."""
    lost = won_back = schneider = 0
    safe = given_back = conceded = 0
    unknown = 0
    for r in rows:
        for seat, play in enumerate(r["players"][name]):
            if play["kind"] != "game" or play["declarer"] is None:
                continue
            verdict = known.get(_verdict_key(r["number"], play))
            if verdict is None:
                unknown += 1
                continue
            if play["declarer"] == seat and not verdict:
                lost += 1
                won_back += bool(play["won"])
                schneider += not play["won"] and play["declarer_points"] < 31
            elif play["declarer"] != seat and verdict:
                safe += 1
                given_back += not play["won"]
                conceded += bool(play["won"]) and play["declarer_points"] >= 90
    return {
        "declarer_open_card_lost": lost,
        "won_back": won_back,
        "lost_schneider": schneider,
        "defence_open_card_won": safe,
        "defence_won": given_back,
        "defence_conceded_schneider": conceded,
        "games_without_a_verdict": unknown,
    }


def player_report(
    rows: list[dict[str, Any]], name: str, known: dict[tuple[Any, ...], bool] | None = None
) -> dict[str, Any]:
    per_deal: list[float] = []
    margins: list[float] = []
    groups: dict[str, list[float]] = {g: [] for g in GROUPS}
    declared = won = base_declared = base_won = 0
    for r in rows:
        base = r["baseline"]
        plays = r["players"][name]
        diffs = []
        table = []
        for seat, ours in enumerate(plays):
            diff = ours["sf"][seat] - base["sf"][seat]
            diffs.append(diff)
            others = [ours["sf"][t] for t in range(3) if t != seat]
            table.append(ours["sf"][seat] - statistics.fmean(others))
            groups[group_of(ours, base, seat)].append(diff)
            if ours["declarer"] == seat:
                declared += 1
                won += bool(ours["won"])
            if base["declarer"] == seat:
                base_declared += 1
                base_won += bool(base["won"])
        per_deal.append(statistics.fmean(diffs))
        margins.append(statistics.fmean(table))
    total = sum(sum(v) for v in groups.values())
    seats = 3 * len(rows)
    split = {
        g: {
            "what": GROUPS[g],
            "deal_seats": len(v),
            "total": sum(v),
            "per_game": round(sum(v) / len(v), 2) if v else 0.0,
            "share_of_margin": round(sum(v) / total, 3) if total else None,
        }
        for g, v in groups.items()
    }
    return {
        "player": name,
        "deals": len(rows),
        "ours_minus_xskat_same_seat_per_game": _interval(per_deal),
        "table_margin_per_game": _interval(margins),
        "split_by_declarer": split,
        "ours_declared": {"rate": round(declared / max(1, seats), 3), "won": won, "of": declared},
        "xskat_declared_in_those_seats": {
            "rate": round(base_declared / max(1, seats), 3),
            "won": base_won,
            "of": base_declared,
        },
        "decided_games": decided_games(rows, name, verdicts(rows) if known is None else known),
    }


def check_baseline(rows: list[dict[str, Any]]) -> dict[str, int]:
    """XSkat's own account of its baseline games against our engine's:
    same declarer, same outcome, same card points."""
    out = {"deals": 0, "declarer_differs": 0, "won_differs": 0, "points_differ": 0}
    for r in rows:
        b = r["baseline"]
        end = b["xskat_end"]
        out["deals"] += 1
        if end is None:
            continue
        xdecl = end[0]
        ours = -1 if b["declarer"] is None else b["declarer"]
        out["declarer_differs"] += xdecl != ours
        if b["kind"] == "game" and xdecl == ours:
            out["won_differs"] += bool(end[3]) != b["won"]
            if b["game"] is not None and not b["game"].startswith("null"):
                out["points_differ"] += end[2] != b["declarer_points"]
    return out


def _played(summary: dict[str, Any]) -> dict[str, Any]:
    """A play's summary without what later logs added (the discard)."""
    return {k: v for k, v in summary.items() if k not in ("put_away", "open_card_win")}


def merged(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The rows of several runs on the same deals, their players side by
    side: only the deals every run played, each checked to be the same deal
    with the same XSkat seed and baseline (else SystemExit with the reason)."""
    runs = [
        {r["number"]: r for r in map(json.loads, p.read_text().splitlines()) if r} for p in paths
    ]
    out = []
    for number in sorted(set.intersection(*(set(run) for run in runs))):
        first = runs[0][number]
        row = {**first, "players": dict(first["players"])}
        for path, run in zip(paths[1:], runs[1:], strict=True):
            other = run[number]
            if other["xseed"] != first["xseed"] or _played(other["baseline"]) != _played(
                first["baseline"]
            ):
                raise SystemExit(f"{path}: deal {number} is not the deal of {paths[0]}")
            row["players"].update(other["players"])
            row["seconds"] = row.get("seconds", 0.0) + other.get("seconds", 0.0)
        out.append(row)
    return out


def report(path: Path, names: Sequence[str], others: Sequence[Path] = ()) -> dict[str, Any]:
    rows = merged([path, *others])
    out: dict[str, Any] = {"file": str(path), "deals": len(rows)}
    known = verdicts(rows)
    out["players"] = [player_report(rows, n, known) for n in names]
    if len(names) == 2:
        a, b = names
        paired = []
        for r in rows:
            pa, pb = r["players"][a], r["players"][b]
            paired.append(statistics.fmean(pa[s]["sf"][s] - pb[s]["sf"][s] for s in range(3)))
        out["paired"] = {"a": a, "b": b, "a_minus_b_per_game": _interval(paired)}
    base_seats = [r["baseline"]["sf"][s] for r in rows for s in range(3)]
    out["baseline_points_per_game"] = round(statistics.fmean(base_seats), 2) if rows else 0.0
    out["baseline_check"] = check_baseline(rows)
    out["seconds"] = round(sum(r.get("seconds", 0.0) for r in rows), 1)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("player", help="our player (a registry name or search@k=v)")
    ap.add_argument("--paired", help="a second player of ours on the same deals")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("xskat-runs.jsonl"))
    ap.add_argument("--report", type=Path, help="only report on this file")
    ap.add_argument(
        "--with",
        dest="others",
        type=Path,
        action="append",
        default=[],
        help="with --report: another run on the same deals whose players join the report",
    )
    args = ap.parse_args(argv)
    names = [args.player] + ([args.paired] if args.paired else [])
    if args.report:
        print(json.dumps(report(args.report, names, args.others), indent=1))
        return
    for n in names:
        try:
            variant(n)
            make_player(n)
        except ValueError as e:  # an unknown name or setting: one line, not a traceback
            ap.error(str(e))
    build()  # once, before the workers
    done: set[int] = set()
    if args.out.exists():
        done = {json.loads(x)["number"] for x in args.out.read_text().splitlines() if x.strip()}
    decks = make_decks(args.deals, args.seed)
    tasks = [
        (names, [int(c) for c in deck], k, args.seed)
        for k, deck in enumerate(decks, start=1)
        if k not in done
    ]
    with args.out.open("a") as fh:
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for fut in as_completed([pool.submit(play_one, t) for t in tasks]):
                    fh.write(json.dumps(fut.result()) + "\n")
                    fh.flush()
        else:
            for t in tasks:
                fh.write(json.dumps(play_one(t)) + "\n")
                fh.flush()
    print(json.dumps(report(args.out, names), indent=1))


if __name__ == "__main__":
    main()
