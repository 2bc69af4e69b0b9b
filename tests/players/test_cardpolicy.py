"""`club`'s card policy learned from `search`'s card play (issue 53, point
5): its training is reproducible from a seed, the shipped file plays like a
Skat player on hand-made tricks (R4.2 for what may be played), and the
lab setting ``policy`` breaks the card search's ties with it.
"""

from __future__ import annotations

import random

import pytest
from bench.strength.train_cardpolicy import taught_deal, train

from skat.engine import Card, Deal, GameType
from skat.players.arena import make_decks
from skat.players.club import ClubPlayer
from skat.players.heuristic import HeuristicPlayer
from skat.players.loop import play_deal
from skat.players.search import SearchPlayer, SearchSettings
from skat.players.search import cards as search_cards
from skat.players.seatmodel import Moment, SeatModel, card_policy


def _mask(*cards: str) -> int:
    return sum(1 << int(Card.parse(c)) for c in cards)


def _c(name: str) -> int:
    return int(Card.parse(name))


def test_the_training_gives_the_same_weights_for_the_same_seed() -> None:
    """The tiny form: four deals of `search` beside `heuristic`; two
    processes give what one gives, another seed other weights."""
    one = train(4, seed=5, jobs=1, population=["heuristic"], hidden=4, epochs=3)
    again = train(4, seed=5, jobs=2, population=["heuristic"], hidden=4, epochs=3)
    other = train(4, seed=6, jobs=1, population=["heuristic"], hidden=4, epochs=3)
    assert one["report"]["examples"] > 0 and one["teacher"] == "search"
    assert one["w1"] == again["w1"] and one["w2"] == again["w2"]
    assert one["w1"] != other["w1"]
    SeatModel(one)  # the file the trainer writes is the network's


def test_only_the_teachers_seat_is_learned() -> None:
    """The examples of a taught deal are the teacher's card plays only."""
    deck = make_decks(1, 4)[0]
    deal = taught_deal(deck, 0, "search", 1, "heuristic", 4)
    from bench.strength.train_seatmodel import examples_of

    mine = examples_of(deal, {1})
    assert len(mine) <= len(examples_of(deal)) and len(examples_of(deal, {0, 1, 2})) == len(
        examples_of(deal)
    )


def test_the_shipped_policy_plays_like_a_skat_player() -> None:
    """Hearts, the declarer forehand. Rearhand, last to the trick after the
    declarer's D9 and her partner's D7, takes it with her ten (ten points,
    nobody behind her) rather than giving it away with the eight; under
    the declarer's led DA, middlehand keeps her ten and follows with the
    eight. The learned play beats uniform play on held-out deals."""
    model = card_policy()
    last = Moment(
        GameType.HEARTS,
        me=2,
        declarer=0,
        hand=_mask("DT", "D8", "CK", "C8"),
        trick=((0, _c("D9")), (1, _c("D7"))),
        gone=0,
        tricks_done=4,
    )
    p = model.probabilities(last)
    assert set(p) == {_c("DT"), _c("D8")} and p[_c("DT")] > p[_c("D8")]
    under = Moment(
        GameType.HEARTS,
        me=1,
        declarer=0,
        hand=_mask("DT", "D8", "CK", "C8"),
        trick=((0, _c("DA")),),
        gone=0,
        tricks_done=4,
    )
    q = model.probabilities(under)
    assert q[_c("D8")] > q[_c("DT")]
    report = model.data["report"]
    assert model.data["teacher"] == "search"
    assert report["held_loglik"] > report["held_uniform"] + 0.1


def test_the_policy_setting_breaks_the_searchs_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    """`club` with ``policy`` plays whole deals without an illegal action
    (the loop checks every one), and the cards its search leaves tied go to
    the policy; without the setting they go to `heuristic`."""
    asked: list[list[int]] = []
    real = search_cards.by_policy

    def spy(view: object, tied: list[int]) -> int:
        got = real(view, tied)  # type: ignore[arg-type]
        assert got in tied
        asked.append(list(tied))
        return got

    monkeypatch.setattr(search_cards, "by_policy", spy)
    for number, deck in enumerate(make_decks(3, 7), start=1):
        club = ClubPlayer(random.Random(number))
        club.cards = SearchPlayer(
            random.Random(number),
            SearchSettings(worlds=6, early_tiebreak_worlds=None, strict=True, policy=0.0),
        )
        others = [HeuristicPlayer(random.Random(number * 3 + s)) for s in (1, 2)]
        deal = Deal(deck, dealer=number % 3)
        play_deal(deal, [club, *others])
        assert deal.result is not None
    assert asked and all(len(t) > 1 for t in asked)
    with pytest.raises(ValueError, match="policy"):
        SearchSettings(policy=-1.0)
