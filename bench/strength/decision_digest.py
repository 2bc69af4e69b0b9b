#!/usr/bin/env python3
"""A digest of every decision a player makes on fixed deals, to show that a
change of the code leaves its play the same (issue 50: a refactor keeps the
strong and casual levels' decisions).

    .venv/bin/python -m bench.strength.decision_digest --deals 20 --player search
    .venv/bin/python -m bench.strength.decision_digest --deals 20 --player search --src TREE

The player sits in each seat in turn beside two `heuristic` players on the
arena's deals of ``--seed`` (`skat.players.arena.make_decks`); every action
of the deal (the player's and the others') goes into one SHA-256, printed
with the number of actions. ``--src`` imports skat from another source tree
(a ``git worktree`` of an older commit), so two versions compare on the same
deals. A player with a clock decides by the time left, so compare only
players without one (``search``, ``club@budget=0``).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="search", help="a player or a variant (club@budget=0)")
    parser.add_argument("--src", help="import skat from this source tree")
    parser.add_argument("--verbose", action="store_true", help="print each deal's digest too")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
        sys.modules.pop("bench", None)
    from bench.strength.arena_plays import variant
    from bench.strength.compat import make_player
    from skat.engine import Deal
    from skat.players.arena import make_decks
    from skat.players.loop import play_deal

    variant(args.player)
    total = hashlib.sha256()
    actions = 0
    for number, deck in enumerate(make_decks(args.deals, args.seed), start=1):
        one = hashlib.sha256()
        for mine in range(3):
            players = [
                make_player(
                    args.player if s == mine else "heuristic",
                    random.Random(f"{args.seed}/{number}/{mine}/{s}"),
                )
                for s in range(3)
            ]
            deal = Deal(deck, dealer=(number - 1) % 3)
            play_deal(deal, players)
            for seat, action in deal.history:
                one.update(f"{seat}:{action};".encode())
            actions += len(deal.history)
        total.update(one.digest())
        if args.verbose:
            print(number, one.hexdigest()[:16])
    print(f"{args.player}: {args.deals} deals, {actions} actions, digest {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
