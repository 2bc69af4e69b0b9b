"""Our headless XSkat against Debian's ``xskat -auto``, card for card (issue 53).

Debian's binary (``apt-get install xskat faketime xvfb``) plays the arena's
decks (``make_decks(deals, seed)``) with its three computers: they go in as
XSkat's own predefined games (``-game FILE``), its clock is pinned with
``faketime`` because XSkat seeds its random numbers from the time (stopped
there, `pinned_clock`), it runs
under ``xvfb-run`` because it opens its window even with ``-auto``, and it
writes its game log (``-log -``). The headless build plays the same deals
with the same seed, all three seats XSkat, refereed by our engine. Every
game is compared: declarer, game and announcements, the bid, the skat before
and after the discard, every card of every trick with its leader and winner,
won or lost and the card points.

    .venv/bin/python -m bench.xskat.compare_debian --deals 100 --seed 1
    .venv/bin/python -m bench.xskat.compare_debian --log debian.log --deals 100

The game of deal k is dealt by XSkat's seat k mod 3 (XSkat's own rotation
in ``-auto``, starting from its default dealer), so the headless build is
given that dealer too.
"""

from __future__ import annotations

import argparse
import calendar
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skat.engine import Card, Deal, GameType, Pickup
from skat.players.arena import make_decks

from .build import build
from .driver import play_deal_with_xskat, to_x

DEBIAN_XSKAT = Path("/usr/games/xskat")
PINNED = "2026-01-01 00:00:00"  # UTC; XSkat's seed is this time in seconds
SUITS = ("Diamond", "Heart", "Spade", "Club")  # XSkat's suit order
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
GAMES = {
    GameType.DIAMONDS: "Diamond",
    GameType.HEARTS: "Heart",
    GameType.SPADES: "Spade",
    GameType.CLUBS: "Club",
    GameType.GRAND: "Grand",
    GameType.NULL: "Null",
}


@dataclass
class LoggedGame:
    """One game as XSkat's log tells it (XSkat's seats 0..2, cards 0..31)."""

    tricks: list[list[tuple[int, bool, bool]]] = field(default_factory=list)
    declarer: int | None = None
    game: str | None = None
    extra: str | None = None  # Played Hand, Schneider announced, ...
    bid: int | None = None
    skat_was: frozenset[int] | None = None
    skat_is: frozenset[int] | None = None
    won: bool | None = None
    points: int | None = None
    hands: list[list[int]] | None = None  # per seat, as played (after the discard)

    def fields(self) -> dict[str, Any]:
        return {
            "declarer": self.declarer,
            "game": self.game,
            "extra": self.extra,
            "bid": self.bid,
            "skat_was": sorted(self.skat_was) if self.skat_was is not None else None,
            "skat_is": sorted(self.skat_is) if self.skat_is is not None else None,
            "won": self.won,
            "points": self.points,
            "tricks": self.tricks,
            "hands": self.hands,
        }


def card_words(text: str) -> int:
    suit, rank = text.split()
    return SUITS.index(suit) * 8 + RANKS.index(rank)


def parse_row(line: str) -> list[tuple[int, bool, bool]]:
    """A trick row: per seat (card, led it, won it). The unformatted log
    underlines with ``_`` (the lead) and writes bold in capitals (the winner)."""
    words = line.split()
    cells: list[tuple[int, bool, bool]] = []
    i = 0
    while i < len(words):
        w = words[i]
        if "_" in w:
            suit, rank = w.split("_")
            lead = True
            i += 1
        else:
            suit, rank = w, words[i + 1]
            lead = False
            i += 2
        won = suit.isupper() and len(suit) > 1
        cells.append((card_words(f"{suit.capitalize()} {rank}"), lead, won))
    return cells


def _skat(text: str) -> frozenset[int]:
    return frozenset(card_words(part.strip()) for part in text.split(","))


def parse_log(text: str) -> list[LoggedGame]:
    games: list[LoggedGame] = []
    for block in text.split("=" * 40):
        if "----" not in block:
            continue
        parts = block.split("-" * 40)
        if len(parts) < 4:
            continue
        game = LoggedGame()
        for line in parts[1].strip("\n").splitlines():
            if line.strip() and "Pass" not in line:  # a thrown-in deal: Pass Pass Pass
                game.tricks.append(parse_row(line))
        hands: list[set[int]] = [set(), set(), set()]
        for line in parts[2].strip("\n").splitlines():
            if line.strip():
                for seat, (card, _, _) in enumerate(parse_row(line)):
                    hands[seat].add(card)
        game.hands = [sorted(h) for h in hands]
        for line in parts[-1].strip().splitlines():
            line = line.strip()
            if line.startswith("Skat is:"):
                game.skat_is = _skat(line.split(":", 1)[1])
            elif line.startswith("Skat was:"):
                game.skat_was = _skat(line.split(":", 1)[1])
            elif line.startswith("Last bid:"):
                game.bid = int(line.split(":", 1)[1])
            elif " played " in line and line.startswith("Computer"):
                who, what = line.split(" played ", 1)
                game.declarer = int(who.removeprefix("Computer")) - 1
                game.game = what.strip()
            elif line.startswith(("Won", "Lost")):
                game.won = line.startswith("Won")
                if "with:" in line:
                    game.points = int(line.split(":", 1)[1].split()[0])
            elif line:
                game.extra = line
        games.append(game)
    return games


def game_file(decks: Sequence[Sequence[Card]]) -> str:
    """XSkat's predefined games: per card (diamonds, hearts, spades, clubs;
    A 10 K Q J 9 8 7) who holds it: 1 middlehand, 2 dealer, 3 forehand,
    0 skat. Deal k is dealt by XSkat's seat k mod 3."""
    out = []
    for k, deck in enumerate(decks, start=1):
        dealer = k % 3
        deal = Deal(list(deck), dealer=dealer)
        code = [0] * 32
        for seat in range(3):
            c = 1 if seat == (dealer + 2) % 3 else 2 if seat == dealer else 3
            for card in deal.view(seat).hand:
                code[to_x(int(card))] = c
        for suit in range(4):
            out.append(" ".join(str(code[suit * 8 + r]) for r in range(8)))
        out.append("")
    return "\n".join(out) + "\n"


def pinned_clock(pinned: str = PINNED) -> list[str]:
    """The command prefix that runs a program with its clock stopped at
    ``pinned`` (UTC with ``TZ=UTC``). Stopped, not started there: XSkat reads
    the time once, first thing in ``main``, but on a busy machine more than
    a second can pass between faketime's start and that read, and a clock
    that runs from ``pinned`` then gives another seed and other plays."""
    return ["faketime", "--exclude-monotonic", "-f", pinned]


def run_debian(decks: Sequence[Sequence[Card]], pinned: str = PINNED) -> str:
    """Debian's ``xskat -auto`` on ``decks``; its log."""
    for tool in ("xvfb-run", "faketime"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: apt-get install xskat faketime xvfb")
    if not DEBIAN_XSKAT.exists():
        raise SystemExit(f"{DEBIAN_XSKAT} is missing: apt-get install xskat")
    with tempfile.TemporaryDirectory(prefix="xskat-debian-") as tmp:
        games = Path(tmp) / "games.txt"
        games.write_text(game_file(decks))
        env = dict(os.environ, HOME=tmp, TZ="UTC")
        cmd = ["xvfb-run", "-a", *pinned_clock(pinned), str(DEBIAN_XSKAT)]
        cmd += ["-auto", str(len(decks)), "-game", str(games), "-log", "-", "-lang", "english"]
        done = subprocess.run(
            cmd, capture_output=True, text=True, env=env, cwd=tmp, timeout=600, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"Debian's xskat failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def headless_game(deck: Sequence[Card], number: int, xseed: int, exe: Path) -> LoggedGame:
    """The headless build's game of deal ``number``, in the log's terms."""
    dealer = number % 3
    play = play_deal_with_xskat(deck, dealer=dealer, xseed=xseed, exe=exe)
    deal, result = play.deal, play.result
    game = LoggedGame()
    seats = deal.view(0).seats
    for trick in deal.tricks:
        cells: dict[int, tuple[int, bool, bool]] = {}
        for i, card in enumerate(trick.cards):
            seat = seats[(trick.leader + i) % 3]
            won = seat == seats[trick.winner]
            # the log underlines the lead only when it did not win (bold wins)
            cells[seat] = (to_x(int(card)), i == 0 and not won, won)
        game.tricks.append([cells[s] for s in range(3)])
    dealt = set(range(32))
    fresh = Deal(list(deck), dealer=dealer)
    for seat in range(3):
        dealt -= {int(c) for c in fresh.view(seat).hand}
    game.skat_was = frozenset(to_x(c) for c in dealt)
    hands = [{to_x(int(c)) for c in fresh.view(seat).hand} for seat in range(3)]
    game.hands = [sorted(h) for h in hands]
    if result.kind != "game" or result.contract is None:
        game.skat_is = game.skat_was
        return game
    c = result.contract
    game.declarer = result.declarer_seat
    game.game = GAMES[c.game]
    game.bid = result.bid
    picked = any(isinstance(a, Pickup) for _, a in deal.history)
    game.skat_is = _discard_of(deal) if picked else game.skat_was
    if picked and game.declarer is not None:
        mine = hands[game.declarer] | game.skat_was
        game.hands[game.declarer] = sorted(mine - game.skat_is)
    if c.ouvert:
        game.extra = "Played ouvert Hand" if c.game == GameType.NULL and c.hand else "Played ouvert"
    elif c.schwarz:
        game.extra = "Schwarz announced"
    elif c.schneider:
        game.extra = "Schneider announced"
    elif c.hand:
        game.extra = "Played Hand"
    game.won = bool(result.won)
    if c.game != GameType.NULL:
        game.points = result.declarer_points
    return game


def _discard_of(deal: Deal) -> frozenset[int]:
    from skat.engine import Discard

    for _, action in deal.history:
        if isinstance(action, Discard):
            return frozenset(to_x(int(x)) for x in action.cards)
    raise ValueError("no discard in a picked-up game")


def compare(
    debian: list[LoggedGame], decks: Sequence[Sequence[Card]], xseed: int, exe: Path
) -> dict[str, Any]:
    if len(debian) != len(decks):
        raise SystemExit(f"the log holds {len(debian)} games, not {len(decks)}")
    same = 0
    differ: list[dict[str, Any]] = []
    by_field: dict[str, int] = {}
    for k, (theirs, deck) in enumerate(zip(debian, decks, strict=True), start=1):
        ours = headless_game(deck, k, xseed, exe)
        a, b = theirs.fields(), ours.fields()
        if theirs.declarer is None and ours.declarer is None:
            # thrown in: no tricks, and the log gives the skat once ("Skat is")
            a["tricks"] = b["tricks"] = []
            a["skat_was"] = b["skat_was"] = None
        bad = [f for f in a if a[f] != b[f]]
        if not bad:
            same += 1
            continue
        for f in bad:
            by_field[f] = by_field.get(f, 0) + 1
        first_trick = next(
            (
                i + 1
                for i, (x, y) in enumerate(zip(a["tricks"], b["tricks"], strict=False))
                if x != y
            ),
            None,
        )
        differ.append(
            {
                "deal": k,
                "fields": bad,
                "first_trick_differing": first_trick,
                "debian": {f: a[f] for f in bad if f != "tricks"},
                "headless": {f: b[f] for f in bad if f != "tricks"},
            }
        )
    return {
        "deals": len(decks),
        "identical": same,
        "differing": len(differ),
        "differing_by_field": by_field,
        "differences": differ,
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="the arena seed of the decks")
    ap.add_argument("--pinned", default=PINNED, help="the clock Debian's xskat sees (UTC)")
    ap.add_argument("--log", type=Path, help="Debian's log of these deals (else run it)")
    ap.add_argument("--save-log", type=Path, help="keep Debian's log here")
    args = ap.parse_args(argv)
    decks = make_decks(args.deals, args.seed)
    start = time.perf_counter()
    text = args.log.read_text() if args.log else run_debian(decks, args.pinned)
    if args.save_log:
        args.save_log.write_text(text)
    xseed = calendar.timegm(time.strptime(args.pinned, "%Y-%m-%d %H:%M:%S"))
    out = compare(parse_log(text), decks, xseed, build())
    out["pinned"] = args.pinned
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
