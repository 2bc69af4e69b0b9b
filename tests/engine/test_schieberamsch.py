"""Schieberamsch (a house rule, SKAT-RULES.md R9.2; engine/ramsch.py): before
a Ramsch deal the skat goes round forehand, middlehand, rearhand; each takes
it up and pushes two cards on (no jack) or pushes it on unseen, which
doubles the deal. Only the seat holding the skat, or the one that last put
it down, sees it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.engine import Card, Deal, IllegalActionError, Reason, Rules
from skat.engine.actions import Discard, Pass, Pickup, Play
from skat.engine.cards import JACKS
from skat.engine.records import GameRecord, replay
from skat.engine.state import Phase


def _jack(c: Card) -> bool:
    return bool(1 << c & JACKS)


SCHIEBE = Rules(all_pass="ramsch", schieberamsch=True)
DECK = list(range(32))


def _deal(seed: int = 7, rules: Rules = SCHIEBE) -> Deal:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return Deal(deck, rules=rules, dealer=2, ramsch=True)


def _reason(deal: Deal, action: object, seat: int | None = None) -> Reason:
    with pytest.raises(IllegalActionError) as err:
        deal.apply(action, seat)  # type: ignore[arg-type]
    return err.value.code


def test_the_skat_goes_round_before_the_first_card() -> None:
    d = _deal()
    assert d.phase is Phase.PUSH and d.current_seat == 0
    assert [str(a) for a in d.legal_actions()] == ["pickup", "pass"]
    assert _reason(d, Play(Card(next(iter(d.hand(0)))))) is Reason.WRONG_PHASE
    assert _reason(d, Pass(), seat=1) is Reason.NOT_YOUR_TURN
    assert _reason(d, Discard(tuple(list(d.hand(0))[:2]))) is Reason.PICKUP_REQUIRED  # type: ignore[arg-type]
    d.apply(Pass())  # forehand pushes it on unseen
    assert d.current_seat == 1
    d.apply(Pickup())
    assert len(d.hand(1)) == 12
    assert _reason(d, Pass()) is Reason.DISCARD_REQUIRED
    assert _reason(d, Pickup()) is Reason.SKAT_ALREADY_TAKEN
    pushes = [a for a in d.legal_actions() if isinstance(a, Discard)]
    assert pushes and all(not _jack(c) for a in pushes for c in a.cards)
    jack = next((c for c in d.hand(1) if _jack(c)), None)
    if jack is not None:
        other = next(c for c in d.hand(1) if not _jack(c))
        assert _reason(d, Discard((jack, other))) is Reason.DISCARD_INVALID
    d.apply(pushes[0])
    assert d.skat.mask == (1 << pushes[0].cards[0]) | (1 << pushes[0].cards[1])
    d.apply(Pass())  # rearhand: unseen again
    assert d.phase is Phase.PLAY and d.current_seat == 0  # forehand leads (R4.1)


def test_only_the_holder_and_the_last_pusher_see_the_skat() -> None:
    d = _deal(11)
    dealt_skat = d.dealt_skat
    d.apply(Pickup())
    assert d.view(0).skat == dealt_skat  # forehand holds twelve: sees the two it took
    assert d.view(1).skat is None and d.view(2).skat is None and d.view(None).skat is None
    push = next(a for a in d.legal_actions() if isinstance(a, Discard))
    d.apply(push)
    assert d.view(0).skat is not None and set(d.view(0).skat) == set(push.cards)
    assert d.view(1).skat is None
    assert [h for _, h in d.view(1).history] == ["pickup", "discard"]  # not which cards
    d.apply(Pickup())  # middlehand takes them up: forehand no longer sees a skat
    assert d.view(0).skat is None and set(d.view(1).skat or ()) == set(push.cards)


def _play_out(d: Deal, choose: random.Random) -> Deal:
    while not d.is_terminal():
        legal = d.legal_actions()
        d.apply(legal[choose.randrange(len(legal))])
    return d


def test_each_unseen_push_doubles_the_deal() -> None:
    """The same cards played the same way: three unseen pushes are eight
    times the plain Ramsch's entries, one is two times."""
    for seed in range(20):
        plain = _deal(seed, Rules(all_pass="ramsch"))
        pushed = _deal(seed)
        for _ in range(3):
            pushed.apply(Pass())
        _play_out(plain, random.Random(seed))
        _play_out(pushed, random.Random(seed))
        a, b = plain.result, pushed.result
        assert a is not None and b is not None and b.ramsch is not None
        assert b.ramsch.pushes == 3
        assert list(b.plain) == [8 * e for e in a.plain]
        assert b.ramsch.points == a.ramsch.points  # type: ignore[union-attr]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 2), bock=st.sampled_from([1, 2]))
def test_random_schieberamsch_deals_replay_and_settle(seed: int, dealer: int, bock: int) -> None:
    """Whatever the seats choose: no jack is ever pushed on, the entries are
    the Ramsch entries times 2 per unseen push and the Bock factor, and the
    record replays to the same result."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    d = Deal(deck, rules=SCHIEBE, dealer=dealer, ramsch=True, bock_factor=bock)
    _play_out(d, rng)
    r = d.result
    assert r is not None and r.ramsch is not None
    for _, a in d.history:
        if isinstance(a, Discard):
            assert not any(_jack(c) for c in a.cards)
    passes = sum(1 for _, a in d.history if isinstance(a, Pass))
    assert r.ramsch.pushes == passes
    from skat.engine.ramsch import entries

    expected = entries(r.ramsch.points, r.ramsch.tricks, bock * 2**passes)
    assert list(r.ramsch.entries) == expected
    again = replay(GameRecord.from_json(GameRecord.from_deal(d).to_json()))
    assert again.result == r
    assert again.rules.schieberamsch and "schieberamsch" in again.rules.to_dict()


def test_without_the_option_a_ramsch_starts_with_the_first_card() -> None:
    d = _deal(3, Rules(all_pass="ramsch"))
    assert d.phase is Phase.PLAY and not any(isinstance(a, Pass) for a in d.legal_actions())
