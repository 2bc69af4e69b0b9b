"""The hand evaluator's calibration on games played (issue 53, point 2):
what it predicted for the games a player declared against what they made.

It reads the logs of ``bench.xskat.arena`` (our player beside two XSkat
computers, and XSkat alone in the baseline) or of
``bench.strength.arena_plays`` (players ``A`` and ``B``), rebuilds each deal from the
arena's decks (``make_decks(.., seed)``: deal k depends on the seed and k
only), and for every declared suit game, Grand and Null asks the shipped
evaluator (`skat.players.handeval`) for its win chance at the stage the
declarer chose at: a Hand game by the ten cards dealt (``hand``), a game
after the pickup by the ten cards kept and the points put away
(``counted``; ``pickup``, by the ten cards dealt, where a log has no
discard). The table groups the games by class (the kind, Hand or not) and
by bid, and gives the number, the mean predicted chance, the share won and
the Brier score; a reliability table by predicted chance follows.

``--curve`` gives the win curve in play instead: every declared suit game
and Grand whose discard is known (or Hand) is solved with all cards open
from its first card, and its open-card points (in the tiers of
`search.settings.WIN_CURVE` and the labels' curves of `train_handeval`)
are set against the share won at the table: what a given open-card margin
is worth against the defenders of the log.

These are the games the players chose, so a class the evaluator judges too
timidly shows up only as far as it was still declared: the figures say
where the predicted and the played disagree, not how often a better game
was passed by.

    .venv/bin/python -m bench.strength.calibration runs.jsonl --seed 1 \\
        [--player search] [--xskat] [--curve] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from skat.engine import Card, Deal, GameType
from skat.engine.cards import POINTS
from skat.players.arena import make_decks
from skat.players.handeval import Evaluator, default
from skat.series import ListOptions

BIDS = ((18, 23), (24, 35), (36, 47), (48, 264))
BINS = (0.0, 0.4, 0.55, 0.7, 0.8, 0.9, 0.95, 1.01)
TIERS = (41, 53, 61, 71)  # open-card points from the first card: 0-40, 41-52, ... 71-120


@dataclass(frozen=True)
class Game:
    """One declared game: its class, bid, the evaluator's chance and the outcome."""

    who: str  # our player's name, or "xskat" (the baseline)
    cls: str  # "suit pickup", "grand hand", ...
    bid: int
    predicted: float
    won: bool
    stage: str
    tier: int | None = None  # open-card points' tier (--curve): index into TIERS' bins


def _game_type(contract: str) -> GameType | None:
    word = contract.split()[0].lower()
    for g in GameType:
        if g.name.lower() == word or g.label == word:
            return g
    return None


def _mask(cards: Iterable[Card]) -> int:
    return sum(1 << int(c) for c in set(cards))


def open_card_tier(deck: Sequence[Card], dealer: int, play: dict[str, Any]) -> int | None:
    """The tier of the declarer's open-card points from the first card (0:
    under 41, ... 4: 71 or more) of a suit game or Grand, the true hands
    after the logged discard; None for a Null or where the discard is
    unknown."""
    from skat.players import solver

    game = _game_type(str(play.get("contract")))
    if game is None or game in (GameType.NULL, GameType.RAMSCH) or play.get("kind") != "game":
        return None
    deal = Deal(list(deck), dealer=dealer)
    declarer = deal.position_of(int(play["declarer"]))
    if declarer is None:
        return None
    hands = [deal.dealt_hand(p).mask for p in range(3)]
    skat = deal.dealt_skat.mask
    if "hand" in str(play.get("game", "")).split():
        points = sum(POINTS[c] for c in range(32) if skat >> c & 1)
    else:
        put = play.get("put_away")
        if not put:
            return None
        away = _mask(Card.parse(c) for c in put)
        hands[declarer] = (hands[declarer] | skat) & ~away
        points = sum(POINTS[c] for c in range(32) if away >> c & 1)
    pos = solver.Position(game, (hands[0], hands[1], hands[2]), declarer, 0, (), points)
    return sum(1 for t in TIERS if solver.reaches(pos, t))


def curve(games: Sequence[Game]) -> dict[str, Any]:
    """By player and game (suit or Grand, Hand or not): per open-card tier
    the games and the share won."""
    names = ["0-40", *(f"{a}-{b - 1}" for a, b in pairwise(TIERS)), f"{TIERS[-1]}-120"]
    out: dict[str, Any] = {}
    for who in sorted({g.who for g in games}):
        table: dict[str, Any] = {}
        for cls in sorted({" ".join(g.cls.split()[:2]) for g in games if g.tier is not None}):
            of = [g for g in games if g.who == who and g.tier is not None]
            of = [g for g in of if " ".join(g.cls.split()[:2]) == cls]
            if not of:
                continue
            table[cls] = {
                names[t]: {
                    "n": len(cell),
                    "won": round(sum(g.won for g in cell) / len(cell), 3),
                }
                for t in range(len(names))
                if (cell := [g for g in of if g.tier == t])
            }
        out[who] = table
    return out


def predict(
    evaluator: Evaluator, deck: Sequence[Card], dealer: int, play: dict[str, Any]
) -> tuple[float, str] | None:
    """The evaluator's win chance of the game of ``play`` (a log's summary of
    one played deal) at the stage its declarer chose at, and that stage."""
    if play.get("kind") != "game" or play.get("contract") is None:
        return None
    game = _game_type(str(play["contract"]))
    if game is None or game == GameType.RAMSCH:
        return None
    deal = Deal(list(deck), dealer=dealer)
    seat = int(play["declarer"])
    position = deal.position_of(seat)
    if position is None:
        return None
    dealt = deal.hand(seat).mask
    skat = deal.dealt_skat.mask
    hand_game = "hand" in str(play.get("game", "")).split()
    if hand_game:
        return evaluator.chances(dealt, game, position, "hand").win, "hand"
    put = play.get("put_away")
    if not put:
        return evaluator.chances(dealt, game, position, "pickup").win, "pickup"
    away = [Card.parse(c) for c in put]
    kept = (dealt | skat) & ~_mask(away)
    points = sum(POINTS[int(c)] for c in away)
    return evaluator.chances(kept, game, position, "counted", points).win, "counted"


def games_of(
    paths: Sequence[Path],
    seed: int,
    player: str | None,
    xskat: bool,
    evaluator: Evaluator,
    tiers: bool = False,
) -> list[Game]:
    rows = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]
    if not rows:
        return []
    decks = make_decks(max(int(r["number"]) for r in rows), seed)
    out: list[Game] = []
    for r in rows:
        deck = decks[int(r["number"]) - 1]
        if "alone" in r:  # arena_plays: one arrangement a line
            seat = r["declarer_seat"]
            who = "AB"[r["owner"][seat]] if seat is not None else ""
            if r["kind"] != "game" or (player is not None and who != player):
                continue
            dealer = (ListOptions().first_dealer + int(r["number"]) - 1) % 3
            words = str(r["contract"]).split()
            play = {
                **r,
                "declarer": seat,
                "game": " ".join(["hand" if "hand" in words else "pickup", *words[1:]]),
            }
            got = predict(evaluator, deck, dealer, play)
            if got is not None:
                g = _game_type(str(r["contract"]))
                kind = "suit" if g is not None and g.is_suit else words[0]
                cls = " ".join(
                    [kind, *play["game"].split()[:1], *words[1:][int("hand" in words) :]]
                )
                tier = open_card_tier(deck, dealer, play) if tiers else None
                out.append(Game(who, cls, int(r["bid"]), got[0], bool(r["won"]), got[1], tier))
            continue
        dealer = int(r["dealer"])
        plays: list[tuple[str, dict[str, Any]]] = []
        for name, seats in r["players"].items():
            if player is None or name == player:
                # our seat's game only: the other two seats are XSkat's
                plays += [(name, p) for s, p in enumerate(seats) if p.get("declarer") == s]
        if xskat:
            plays.append(("xskat", r["baseline"]))
        for who, p in plays:
            got = predict(evaluator, deck, dealer, p)
            if got is None:
                continue
            chance, stage = got
            tier = open_card_tier(deck, dealer, p) if tiers else None
            out.append(
                Game(who, str(p["game"]), int(p["bid"]), chance, bool(p["won"]), stage, tier)
            )
    return out


def _cell(games: Sequence[Game]) -> dict[str, Any]:
    n = len(games)
    pred = statistics.fmean(g.predicted for g in games)
    won = sum(g.won for g in games) / n
    brier = statistics.fmean((g.predicted - g.won) ** 2 for g in games)
    return {"n": n, "predicted": round(pred, 3), "won": round(won, 3), "brier": round(brier, 3)}


def report(games: Sequence[Game]) -> dict[str, Any]:
    """By player: by class and bid range, and by predicted chance."""
    out: dict[str, Any] = {}
    for who in sorted({g.who for g in games}):
        mine = [g for g in games if g.who == who]
        by_class: dict[str, dict[str, Any]] = defaultdict(dict)
        for cls in sorted({g.cls for g in mine}):
            of = [g for g in mine if g.cls == cls]
            by_class[cls]["all"] = _cell(of)
            for low, high in BIDS:
                cell = [g for g in of if low <= g.bid <= high]
                if cell:
                    by_class[cls][f"{low}-{high}"] = _cell(cell)
        bins = {}
        for lo, hi in pairwise(BINS):
            cell = [g for g in mine if lo <= g.predicted < hi]
            if cell:
                bins[f"{lo:.2f}-{min(hi, 1.0):.2f}"] = _cell(cell)
        out[who] = {"all": _cell(mine), "by_class": by_class, "by_predicted": bins}
    return out


def markdown(rep: dict[str, Any]) -> list[str]:
    lines = []
    for who, r in rep.items():
        a = r["all"]
        lines += [
            "",
            f"{who}: {a['n']} games, predicted {a['predicted']:.3f}, won {a['won']:.3f},"
            f" Brier {a['brier']:.3f}",
            "",
            "| class | bids | games | predicted | won | Brier |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for cls, cells in r["by_class"].items():
            for bids, c in cells.items():
                lines.append(
                    f"| {cls} | {bids} | {c['n']} | {c['predicted']:.3f} | {c['won']:.3f}"
                    f" | {c['brier']:.3f} |"
                )
        lines += ["", "| predicted | games | mean predicted | won |", "| --- | --- | --- | --- |"]
        for b, c in r["by_predicted"].items():
            lines.append(f"| {b} | {c['n']} | {c['predicted']:.3f} | {c['won']:.3f} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", type=Path, help="bench.xskat.arena logs")
    ap.add_argument("--seed", type=int, required=True, help="the seed the logs were played with")
    ap.add_argument("--player", help="only this player of ours (arena_plays: A or B)")
    ap.add_argument("--xskat", action="store_true", help="XSkat's games of the baseline too")
    ap.add_argument(
        "--curve", action="store_true", help="the win in play by open-card points instead"
    )
    ap.add_argument("--json", type=Path, help="write the report here as well")
    args = ap.parse_args(argv)
    for p in args.logs:
        if not p.is_file():
            ap.error(f"no such log: {p}")
    games = games_of(args.logs, args.seed, args.player, args.xskat, default(), args.curve)
    if not games:
        ap.error("no declared game in the logs")
    if args.curve:
        rep = curve(games)
        for who, table in rep.items():
            print(f"\n{who}:")
            for cls, tiers in table.items():
                cells = ", ".join(f"{t}: {c['won']:.2f} ({c['n']})" for t, c in tiers.items())
                print(f"  {cls}: {cells}")
    else:
        rep = report(games)
        print("\n".join(markdown(rep)))
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
