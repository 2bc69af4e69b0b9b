"""A Hand game's value with the skat unseen (R5.2, R6.5): the reckoner says
between which values it lies instead of the page guessing "at least"; the
skat's jacks and trumps count for the matadors, up or down."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from skat.cli import main
from skat.engine.cards import CARD_NAMES, to_mask
from skat.engine.game import BASE_VALUE, Contract, GameType
from skat.engine.reckoner import reckon, skat_range
from skat.engine.values import value_game
from tests.helpers.stores import db_for


def test_without_two_can_drop_to_with_one_or_rise_to_with_ten() -> None:
    # HJ DJ and six clubs, no CJ/SJ: without 2 (x4 = 48 as held). A skat with
    # CJ makes it with 1 (x3 = 36); CJ and SJ: with 10 (x12 = 144, R5.2)
    r = reckon("clubs", cards="HJ DJ CA CT CK CQ C9 C8 SA ST", hand=True, bid=48)
    assert r.between == (36, 144)
    d = r.to_dict()
    assert d["between"] == [36, 144]
    assert d["short"] is False and d["may_be_short"] is True  # a skat with CJ: 36 < 48


def test_the_bid_out_of_reach_of_every_skat_is_short() -> None:
    r = reckon("diamonds", cards="HJ DJ DA DT D9 SA ST S9 H8 H7", hand=True, bid=120)
    assert r.between is not None
    assert r.between[1] < 120 and r.to_dict()["short"] is True


def test_known_cards_or_an_unchanged_value_give_no_range() -> None:
    # with the skat seen (twelve cards) the value is known: no range
    assert reckon("clubs", cards="CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 SA", bid=18).between is None
    # not a Hand game: the skat is the declarer's to see
    assert reckon("clubs", cards="HJ DJ CA CT CK CQ C9 C8 SA ST", bid=18).between is None
    # Null has no matadors
    assert reckon("null", hand=True, bid=18).between is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32), st.sampled_from([g for g in GameType if g.is_suit or g.label == "grand"])
)
def test_the_real_skat_always_lands_in_the_range(seed: int, game: GameType) -> None:
    """R6.5: whatever the two skat cards are, the game's value (as won) is
    within the range the reckoner gave from the ten cards alone."""
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    held, skat = to_mask(deck[:10]), deck[10:12]
    contract = Contract(game, hand=True)
    low, high = skat_range(contract, held)
    value = value_game(contract, 18, 61, 5, held | to_mask(skat))
    assert low <= value.multiplier * BASE_VALUE[game] <= high
    r = reckon(game.label, cards=" ".join(CARD_NAMES[c] for c in deck[:10]), hand=True)
    assert r.between == ((low, high) if low != high else None)


def test_skat_value_prints_the_range() -> None:
    cards = "HJ DJ CA CT CK CQ C9 C8 SA ST"
    out = CliRunner().invoke(main, ["value", "clubs", "--cards", cards, "--hand", "--bid", "48"])
    assert out.exit_code == 0, out.output
    assert "with the skat unseen: worth 36 to 144" in out.stdout


@pytest.fixture
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from skat.server import ServerConfig, create_app

    db = db_for(tmp_path_factory.mktemp("value"))
    with TestClient(create_app(db.url, ServerConfig())) as c:
        yield c


def test_the_calculator_route_answers_the_range(client: TestClient) -> None:
    cards = "HJ DJ CA CT CK CQ C9 C8 SA ST"
    body = {"game": "clubs", "cards": cards, "hand": True, "bid": 48}
    res = client.post("/api/value", json=body)
    assert res.status_code == 200
    data = res.json()
    assert data["between"] == [36, 144] and data["may_be_short"] is True
    picked = client.post("/api/value", json={**body, "cards": cards + " C7 S9"}).json()
    assert picked["between"] is None and picked["short"] == picked["overbid"]
