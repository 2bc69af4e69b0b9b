"""The learned model of the other seats' card play (issue 53, point 4): its
features say what a player sees, its training is reproducible from a seed,
the shipped file plays like a Skat player on hand-made tricks (R4.2 for
what may be played), and the card-play inference reads it.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from bench.strength.train_seatmodel import examples_of, played_deal, train

from skat.engine import Card, GameType, Phase, Play
from skat.players.arena import make_decks
from skat.players.seatmodel import FEATURES, Moment, SeatModel, default, features
from skat.players.worlds import Inference, Knowledge, Sampler, World, model_fit


def _mask(*cards: str) -> int:
    return sum(1 << int(Card.parse(c)) for c in cards)


def _c(name: str) -> int:
    return int(Card.parse(name))


def _row(m: Moment, card: str) -> dict[str, float]:
    return dict(zip(FEATURES, features(m, [_c(card)])[0], strict=True))


# Hearts; the declarer is forehand (0). Middlehand (1) led DA, the declarer
# could not follow and threw S7; rearhand (2), middlehand's partner, holds
# DT and D7: the trick is her partner's whatever she plays.
SMEAR = Moment(
    GameType.HEARTS,
    me=2,
    declarer=0,
    hand=_mask("DT", "D7", "CK", "C8"),
    trick=((1, _c("DA")), (0, _c("S7"))),
    gone=0,
    tricks_done=3,
)


def test_the_features_say_what_the_player_sees() -> None:
    """Rearhand after her partner's DA and the declarer's throw: DT follows,
    does not beat the ace, goes on the partner's trick as the last card."""
    assert SMEAR.legal() == sorted([_c("DT"), _c("D7")])
    ten = _row(SMEAR, "DT")
    assert ten["follow"] == 1 and ten["wins"] == 0 and ten["partner_ahead"] == 1
    assert ten["last"] == 1 and ten["points"] == pytest.approx(10 / 11)
    assert ten["declarer"] == 0 and ten["declarer_behind"] == 0
    seven = _row(SMEAR, "D7")
    assert seven["lowest"] == 1 and seven["highest"] == 0 and ten["highest"] == 1
    # the declarer leads a trump: the jacks of the others are out above it
    lead = Moment(GameType.HEARTS, 0, 0, _mask("HJ", "HA", "S7"), (), 0, 0)
    hj = _row(lead, "HJ")
    assert hj["lead"] == 1 and hj["trump"] == 1 and hj["declarer"] == 1
    assert hj["higher_out"] == pytest.approx(2 / 7) and hj["master"] == 0
    gone = replace(lead, gone=_mask("CJ", "SJ", "C7", "C8", "C9"), tricks_done=1)
    assert _row(gone, "HJ")["master"] == 1


def test_a_moment_is_read_from_a_seats_view() -> None:
    """`Moment.from_view` of every card play of a real deal: the legal cards
    are the engine's (R4.2)."""
    deck = make_decks(1, 3)[0]
    deal = played_deal(deck, 0, ["heuristic"] * 3, 3)
    fresh = deal.fresh()
    checked = 0
    for seat, action in deal.history:
        if isinstance(action, Play) and fresh.phase is Phase.PLAY:
            view = fresh.view(seat)
            legal = sorted(int(a.card) for a in view.legal_actions if isinstance(a, Play))
            assert Moment.from_view(view).legal() == legal
            checked += 1
        fresh.apply(action, seat)
    assert deal.result is not None
    if deal.result.kind == "game":
        assert checked > 0
    assert 0 < len(examples_of(deal)) <= checked or checked == 0


def test_the_training_gives_the_same_weights_for_the_same_seed() -> None:
    one = train(8, seed=5, jobs=1, population=["heuristic"], hidden=4, epochs=3)
    again = train(8, seed=5, jobs=2, population=["heuristic"], hidden=4, epochs=3)
    other = train(8, seed=6, jobs=1, population=["heuristic"], hidden=4, epochs=3)
    assert one["w1"] == again["w1"] and one["w2"] == again["w2"]
    assert one["w1"] != other["w1"]
    model = SeatModel(one)
    probs = model.probabilities(SMEAR)
    assert set(probs) == set(SMEAR.legal()) and sum(probs.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="features"):
        SeatModel({**one, "features": ["trump"]})


def test_the_shipped_model_plays_like_a_skat_player() -> None:
    """A defender smears her ten on her partner's sure trick; under the
    declarer's ace she follows with the seven, not the king; the learned
    play beats uniform play on the examples it was not trained on."""
    model = default()
    smear = model.probabilities(SMEAR)
    assert smear[_c("DT")] > smear[_c("D7")]
    under = Moment(GameType.GRAND, 1, 0, _mask("CK", "C7", "SA", "H8"), ((0, _c("CA")),), 0, 2)
    low = model.probabilities(under)
    assert low[_c("C7")] > low[_c("CK")]
    report = model.data["report"]
    assert report["held_loglik"] > report["held_uniform"] + 0.1


def test_the_inference_reads_the_cards_played_by_the_model() -> None:
    """A world where a defender's played card is the likely one weighs more
    than one where it was unlikely; a world without other seats' plays, 1."""
    for number, deck in enumerate(make_decks(10, 9)):  # the first suit game or Grand
        deal = played_deal(deck, 1, ["heuristic"] * 3, number)
        if deal.contract is not None and deal.contract.game != GameType.NULL:
            break
    fresh = deal.fresh()
    views = []
    for seat, action in deal.history:
        if isinstance(action, Play) and fresh.phase is Phase.PLAY:
            views.append(fresh.view(seat))
        fresh.apply(action, seat)
    model = default()
    first = Knowledge.from_view(views[0])
    assert all(model_fit(first, w, model, 0.2) == 1.0 for w, _ in _worlds(first))
    late = Knowledge.from_view(views[12])
    fits = [model_fit(late, w, model, 0.2) for w, _ in _worlds(late)]
    assert all(0.0 < f <= 1.0 for f in fits)
    assert len(set(fits)) > 1  # the worlds are told apart
    inf = Inference(play_model=model)
    got = Sampler(late).weighted(random.Random(1), 10, 40, inf)
    assert sum(m for _, m in got) == 10


def _worlds(know: Knowledge) -> list[tuple[World, int]]:
    return Sampler(know).weighted(random.Random(2), 20, 20)
