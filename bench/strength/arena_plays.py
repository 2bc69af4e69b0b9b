"""Every play of an arena run, one JSON line each, and paired comparisons.

``skat arena`` and ``bench/strength/search_arena.py`` give one score per deal. To see
*where* a player wins or loses points (the declarer's games by contract,
overbids, the auction), this plays exactly the deals, arrangements and
player RNGs of ``skat arena A B --seed S`` and writes per play: the
arrangement, which player sat where, the contract, bid, result, the
declarer's card points and every seat's Seeger-Fabian entry. ``--paired``
compares two such logs (or ``search_arena.py`` outputs) deal by deal: with
the same seed the deals and RNGs are the same, so the difference of two
players against one opponent is measured without the luck of the cards.

    .venv/bin/python -m bench.strength.arena_plays search-v1 heuristic --deals 150 --out old.jsonl
    .venv/bin/python -m bench.strength.arena_plays search heuristic --deals 150 --out new.jsonl
    .venv/bin/python -m bench.strength.arena_plays --paired old.jsonl new.jsonl
    .venv/bin/python -m bench.strength.arena_plays --lost-won new.jsonl  # lost, won open-card
    .venv/bin/python -m bench.strength.arena_plays --breakdown new.jsonl  # card play, game, auction

A name ``search@key=value,...`` is ``search`` with those `SearchPlayer`
settings (``search@play_miss=0.1,worlds=32``), to measure one change
against the defaults on the same deals (``evaluator=FILE``: `evaluator_prior`
with the hand evaluator of a file `train_handeval` wrote; ``seat_model=FILE``:
``play_model`` with the seat model of a file `train_seatmodel` wrote;
``bid_model=True,bid_model_file=FILE``: the auction read by the bid model of
a file `train_bidmodel` wrote);
``club@worlds=6,budget=0.02`` (also ``floor``, ``margin``, ``evaluator=FILE``)
the same for the casual level.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.strength.compat import make_player
from skat.engine import Card, Deal, DealResult, Discard, Kontra
from skat.players import player_names, registry
from skat.players.analysis import declarer_could_win
from skat.players.arena import _rng, arrangements, make_decks
from skat.players.loop import play_deal
from skat.series import ListOptions


def parse_curve(text: str) -> tuple[tuple[int, float], ...]:
    """A curve as written in a setting: ``53:0.97/41:0.6/0:0.2`` (thresholds
    of open-card points, each with its chance); ValueError if it is not."""
    pairs = (part.split(":") for part in text.split("/"))
    return tuple((int(t), float(c)) for t, c in pairs)


def _setting(text: str) -> float | int | bool | tuple[tuple[int, float], ...] | None:
    if ":" in text:  # a curve
        return parse_curve(text)
    if text in ("None", "none"):
        return None
    if text in ("True", "False"):
        return text == "True"
    return float(text) if "." in text or "e" in text else int(text)


def variant(name: str) -> None:
    """Register ``search@key=value,...`` as a lab player (see the module
    docstring)."""
    if "@" not in name or name in player_names(lab=True):
        return
    from skat.players.search import SearchPlayer

    kind, _, spec = name.partition("@")
    if kind not in ("search", "club"):
        raise SystemExit(f"only search and club take settings: {name}")
    parts = spec.split(",")
    bad = [part for part in parts if "=" not in part]
    if bad:
        raise ValueError(f"{name}: a setting is key=value, not {bad[0]!r}")
    raw = dict(part.split("=", 1) for part in parts)
    files = ("evaluator", "seat_model", "bid_model_file")
    settings: dict[str, Any] = {k: v if k in files else _setting(v) for k, v in raw.items()}
    if kind == "club":
        _club(name, settings)
        return
    evaluator = _evaluator(settings.pop("evaluator", None))
    seat_model = _seat_model(settings.pop("seat_model", None))
    bid_model = _bid_model(settings.pop("bid_model_file", None))
    if "contest" in settings and settings["contest"] is None:
        settings["contest"] = ()  # not lowered: the bidding before 2026-12-05
    _check(name, settings)

    def make(rng: Any) -> SearchPlayer:
        return SearchPlayer(
            rng, evaluator=evaluator, seat_model=seat_model, bids=bid_model, **settings
        )

    registry.register_lab(name, cost="search", summary="a setting of search")(make)


def _check(name: str, settings: dict[str, Any]) -> None:
    """A wrong key or value of ``settings`` fails here, at once, as a
    ValueError naming the variant."""
    from skat.players.search import SearchPlayer

    try:
        SearchPlayer(None, **settings)
    except TypeError as e:  # an unknown key
        raise ValueError(f"{name}: {e}") from None


def _evaluator(path: object) -> Any:
    """The hand evaluator of a file `train_handeval` wrote (None: none given)."""
    if path is None:
        return None
    from skat.players.handeval import Evaluator

    return Evaluator(json.loads(Path(str(path)).read_text()))


def _seat_model(path: object) -> Any:
    """The seat model of a file `train_seatmodel` wrote (None: the shipped
    one), read by ``play_model=True``."""
    if path is None:
        return None
    from skat.players.seatmodel import SeatModel

    return SeatModel(json.loads(Path(str(path)).read_text()))


def _bid_model(path: object) -> Any:
    """The bid model of a file `train_bidmodel` wrote (None: the shipped
    one), read by ``bid_model=True``."""
    if path is None:
        return None
    from skat.players.bidmodel import load

    return load(str(path))


def _club(name: str, settings: dict[str, Any]) -> None:
    """``club@worlds=6,budget=0.02,floor=5,margin=0,forty=0,evaluator=FILE``: the
    casual level with another card search (worlds, seconds), bid floor, Hand
    margin or hand evaluator (a file `train_handeval` wrote);
    ``grand_pairs=1`` Grand's discard among the quick score's best pairs;
    ``contest=24:-1.0/36:-0.3`` the bidding's shifts for what the other seats
    bid (`handeval.contested`); ``budget=0``
    searches every world without a clock (``club@worlds=20,budget=0`` plays
    its cards as ``search`` does); any other key is a `SearchPlayer` setting
    of the card search (``club@tiebreak_worlds=8``)."""
    from skat.players.club import ClubPlayer
    from skat.players.search import SearchPlayer

    own = {"worlds", "budget", "floor", "margin", "evaluator", "contest", "forty", "grand_pairs"}
    search = {k: v for k, v in settings.items() if k not in own}
    _check(name, search)
    evaluator = _evaluator(settings.get("evaluator"))

    def make(rng: Any) -> ClubPlayer:
        player = ClubPlayer(rng, evaluator)
        player.floor = float(settings.get("floor", player.floor))
        player.margin = float(settings.get("margin", player.margin))
        player.forty = float(settings.get("forty", player.forty))
        if "grand_pairs" in settings:
            player.grand_pairs = settings["grand_pairs"]
        if "contest" in settings:  # None: not lowered, the rule before 2026-12-05
            player.contest = tuple(settings["contest"] or ())
        if "worlds" in settings or "budget" in settings or search:
            now = player.cards.settings
            budget = float(settings.get("budget", now.time_budget or 0.015))
            player.cards = SearchPlayer(
                rng,
                now,
                worlds=int(settings.get("worlds", now.worlds)),
                time_budget=budget or None,  # 0: no clock, the same plays on any load
                **search,
            )
        return player

    registry.register_lab(name, cost="light", summary="a setting of club")(make)


def played(
    a: str, b: str, cards: list[int], number: int, seed: int
) -> Iterator[tuple[int, int, list[int], Deal, DealResult]]:
    """One deal played in every arrangement (as `arena.play_duplicate`): per
    arrangement the lone seat, who sits there (0 = A), each seat's owner,
    the finished deal and its result."""
    variant(a)
    variant(b)
    deck = [Card(c) for c in cards]
    options = ListOptions()
    n = options.players
    dealer = (options.first_dealer + number - 1) % n
    for alone, who in arrangements(n):
        names = [a, b] if who == 0 else [b, a]
        owner = [who if s == alone else 1 - who for s in range(n)]
        players = [
            make_player(names[0] if s == alone else names[1], _rng(seed, number, alone, s))
            for s in range(n)
        ]
        deal = Deal(deck, rules=options.deal_rules(), dealer=dealer)
        yield alone, who, owner, deal, play_deal(deal, players)


def plays(args: tuple[str, str, list[int], int, int]) -> list[dict[str, Any]]:
    """The plays of one deal in every arrangement."""
    a, b, cards, number, seed = args
    out = []
    for alone, who, owner, deal, r in played(a, b, cards, number, seed):
        kontra = next((s for s, act in deal.history if isinstance(act, Kontra)), None)
        put = next((act.cards for _, act in deal.history if isinstance(act, Discard)), None)
        out.append(
            {
                "number": number,
                "alone": alone,
                "who": who,
                "owner": owner,  # per seat: 0 = A, 1 = B
                "kind": r.kind,
                "declarer_seat": r.declarer_seat,
                "contract": None if r.contract is None else str(r.contract),
                "bid": r.bid,
                "won": r.won,
                "value": r.value,
                "declarer_points": r.declarer_points,
                "overbid": bool(r.valuation and r.valuation.overbid),
                "kontra_seat": kontra,
                "seeger_fabian": list(r.seeger_fabian),
                # the open-card verdict after the discard (players/analysis.py)
                "open_card_win": declarer_could_win(deal),
                # the two cards the declarer put away (bench.strength.calibration)
                "put_away": [str(Card(c)) for c in put] if put else None,
            }
        )
    return out


def lost_won(path: Path) -> None:
    """Per player: its declared games, and of them those it lost although the
    open-card solver said after the discard that the cards win them (the
    contract's card condition with the dealt hands: the card play's losses,
    overbids and value shortfalls apart)."""
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    names = {0: "A", 1: "B"}
    for who in (0, 1):
        mine = [
            r
            for r in rows
            if r["kind"] == "game"
            and r["declarer_seat"] is not None
            and r["owner"][r["declarer_seat"]] == who
            and r.get("open_card_win") is not None
        ]
        lost = [r for r in mine if not r["won"]]
        thrown = [r for r in lost if r["open_card_win"] and not r["overbid"]]
        share = len(thrown) / len(mine) if mine else 0.0
        print(
            f"{names[who]}: {len(mine)} declared games, {len(lost)} lost, "
            f"{len(thrown)} of them won open-card after the discard "
            f"({100 * share:.1f}% of the declared games)"
        )


def _side_of_declarer(r: dict[str, Any]) -> int | None:
    """Who declared in a row of this script (0 = A, 1 = B), None without a
    declarer (thrown in, Ramsch)."""
    seat = r.get("declarer_seat")
    if r.get("kind") != "game" or seat is None or r.get("contract") is None:
        return None
    return int(r["owner"][seat])


def _entry_sum(r: dict[str, Any], per: float) -> float:
    """A's entries minus B's in one play, over the seat-plays of a deal."""
    total = 0.0
    for s, e in enumerate(r["seeger_fabian"]):
        total += float(e) if r["owner"][s] == 0 else -float(e)
    return total / per


#: The parts of `breakdown`, in the order printed.
PARTS = (
    "card play: the same game from the same seat",
    "game choice: another game from the same seat",
    "auction: another declarer, or one side passed",
    "no declarer in either",
)


def breakdown(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Where A's points over B come from, per game (the parts add up to the
    paired result of `per_deal`). The two arrangements with the same lone
    seat (A alone there, then B) hold the same cards with every seat's player
    swapped, so they pair as in duplicate bridge:

    - the same seat declares the same game in both: the difference is card
      play (A declaring against B's defence, then B against A's);
    - the same seat declares another game: the choice of the game (Hand or
      pickup, the discard, the suit);
    - another seat declares, or one arrangement has no declarer: the auction;
    - neither has a declarer.

    Per part: the pairs, A - B per game (``per_game``), and for the card
    play part how often A's and B's declarers won."""
    seats = len(rows[0]["owner"]) if rows else 3
    per = len(arrangements(seats)) * seats / 2
    pairs: dict[tuple[int, int], dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in rows:
        pairs[r["number"], r["alone"]][r["who"]] = r
    deals = len({n for n, _ in pairs})
    out = {p: {"pairs": 0.0, "per_game": 0.0} for p in PARTS}
    won = {0: [0, 0], 1: [0, 0]}  # side: [declared, won] in the card play part
    for pair in pairs.values():
        if len(pair) != 2:
            continue
        a, b = pair[0], pair[1]
        da, db = _side_of_declarer(a), _side_of_declarer(b)
        if da is None and db is None:
            part = PARTS[3]
        elif da is None or db is None or a["declarer_seat"] != b["declarer_seat"]:
            part = PARTS[2]
        elif a["contract"].split()[0] == b["contract"].split()[0]:
            part = PARTS[0]
            for r, side in ((a, da), (b, db)):
                won[side][0] += 1
                won[side][1] += int(bool(r["won"]))
        else:
            part = PARTS[1]
        out[part]["pairs"] += 1
        out[part]["per_game"] += (_entry_sum(a, per) + _entry_sum(b, per)) / max(1, deals)
    for side, key in ((0, "a_won"), (1, "b_won")):
        n, w = won[side]
        out[PARTS[0]][key] = w / n if n else 0.0
    return out


def print_breakdown(path: Path) -> None:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    if not rows or "owner" not in rows[0]:
        raise SystemExit(f"{path}: not a log of this script (it needs every play)")
    parts = breakdown(rows)
    for name, p in parts.items():
        extra = ""
        if "a_won" in p:
            extra = f"; declarer won: A {100 * p['a_won']:.1f}%, B {100 * p['b_won']:.1f}%"
        print(f"{name}: {int(p['pairs'])} pairs, A - B {p['per_game']:+.2f} a game{extra}")
    print(f"all: A - B {sum(p['per_game'] for p in parts.values()):+.2f} a game")


def per_deal(path: Path) -> dict[int, float]:
    """A's Seeger-Fabian points per seat and play minus B's, per complete deal,
    from a log of this script or of ``search_arena.py``."""
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    if rows and "diff" in rows[0]:
        return {int(r["number"]): float(r["diff"]) for r in rows}
    total: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for r in rows:
        seats = len(r["owner"])
        per = len(arrangements(seats)) * seats / 2
        total[r["number"]] += _entry_sum(r, per)
        count[r["number"]] += 1
    return {k: v for k, v in total.items() if count[k] == len(arrangements(3))}


def _interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{m:+.2f} ({m - h:+.2f} .. {m + h:+.2f})"


def paired(old: Path, new: Path) -> None:
    a, b = per_deal(old), per_deal(new)
    common = sorted(set(a) & set(b))
    if not common:
        raise SystemExit("the two logs have no complete deal in common")
    diffs = [b[k] - a[k] for k in common]
    print(f"deals {len(common)}")
    print(f"old {_interval([a[k] for k in common])}")
    print(f"new {_interval([b[k] for k in common])}")
    changed = sum(1 for d in diffs if abs(d) > 1e-9)
    print(f"new - old, paired {_interval(diffs)}; {changed} deals changed")


def main(argv: Sequence[str] | None = None) -> None:
    ap = arena_parser("arena-plays.jsonl", jobs=1)
    ap.add_argument("--paired", type=Path, nargs=2, metavar=("OLD", "NEW"))
    ap.add_argument(
        "--lost-won", type=Path, metavar="LOG", help="report games lost but won open-card"
    )
    ap.add_argument(
        "--breakdown",
        type=Path,
        metavar="LOG",
        help="where A's points over B come from: card play, game choice, auction",
    )
    args = ap.parse_args(argv)
    if args.breakdown:
        print_breakdown(args.breakdown)
        return
    if args.paired:
        paired(*args.paired)
        return
    if args.lost_won:
        lost_won(args.lost_won)
        return
    write_lines(ap, args, plays, "--paired OLD NEW, --lost-won LOG or --breakdown LOG")


def arena_parser(out: str, jobs: int) -> argparse.ArgumentParser:
    """The options of a script that plays the arena's deals: players A and B
    (optional, for the script's report mode), deals, seed, jobs, output."""
    ap = argparse.ArgumentParser()
    ap.add_argument("a", nargs="?")
    ap.add_argument("b", nargs="?")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=jobs)
    ap.add_argument("--out", type=Path, default=Path(out))
    return ap


def write_lines(
    ap: argparse.ArgumentParser,
    args: argparse.Namespace,
    each: Callable[[tuple[str, str, list[int], int, int]], list[dict[str, Any]]],
    other_mode: str,
) -> None:
    """``each`` of the arena's deals of ``args.seed`` in ``args.jobs``
    processes, its rows written to ``args.out`` as JSON lines, deal by deal
    as they end (options of `arena_parser`)."""
    if not args.a or not args.b:
        ap.error(f"two player names are needed (or {other_mode})")
    variant(args.a)
    variant(args.b)
    decks = make_decks(args.deals, args.seed)
    tasks = [(args.a, args.b, [int(c) for c in d], k, args.seed) for k, d in enumerate(decks, 1)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, args.out.open("w") as fh:
        for rows in pool.map(each, tasks):
            for r in rows:
                fh.write(json.dumps(r) + "\n")
            fh.flush()


if __name__ == "__main__":
    main()
