"""The strong player's card decision skips the worlds where they cannot
change the card: when every legal card is of one class of equal cards
(`cards.equivalent_cards`), the card it takes without drawing a world is
the one its passes over the solved worlds take (all tied to the end)."""

from __future__ import annotations

import random

from skat.engine import Deal, Kontra, Phase, Play, View
from skat.players import make_player, solver
from skat.players.arena import make_decks
from skat.players.search import cards
from skat.players.search.decision import Clock, Decision
from skat.players.search.settings import SearchSettings
from skat.players.worlds import Knowledge


def _one_class_views(count: int) -> list[tuple[int, View]]:
    """Card decisions of `heuristic` deals (Null included) where the seat has
    more than one legal card, all of one class, and no Kontra to say."""
    out: list[tuple[int, View]] = []
    for number, deck in enumerate(make_decks(count, 21), 1):
        deal = Deal(deck, dealer=number % 3)
        players = [make_player("heuristic", random.Random(number * 3 + s)) for s in range(3)]
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            if view.phase is Phase.PLAY and view.contract is not None:
                plays = [a for a in view.legal_actions if isinstance(a, Play)]
                kontra = any(isinstance(a, Kontra) for a in view.legal_actions)
                if (
                    len(plays) > 1
                    and not kontra
                    and len(set(cards.card_classes(view).values())) == 1
                ):
                    out.append((number, view))
            deal.apply(players[seat].choose(view), seat)
    return out


def test_one_class_of_cards_takes_the_card_the_solved_worlds_take() -> None:
    views = _one_class_views(60)
    assert len(views) >= 20
    firsts = 0
    for settings in (SearchSettings(worlds=6), SearchSettings(worlds=4, policy=0.0)):
        inference = settings.inference(play=True)
        for number, view in views:
            plays = [a for a in view.legal_actions if isinstance(a, Play)]
            d = Decision(
                view,
                Knowledge.from_view(view),
                solver,
                Clock(None),
                random.Random(number),
                settings,
            )
            quick = cards._tied_choice(view, plays, settings)
            assert quick == cards._solved_play(d, inference, plays, None)
            assert cards.play(d, inference) == quick
            firsts += quick == plays[0]
    # not merely the first card: the tie goes where the passes send it
    assert 0 < firsts < 2 * len(views)
