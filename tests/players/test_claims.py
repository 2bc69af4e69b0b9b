"""Computer players answer claims and concessions (R6.6; issue 25, point 6).

A computer defender concedes a declarer's claim exactly when the shown cards
win against every defence in every world it cannot tell apart; otherwise
play goes on. Beside a person who gives up it concedes too only when the
declarer wins in nearly every world it samples.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from skat.engine import Card, Deal, parse_action
from skat.engine.actions import CLAIM, CONCEDE, REFUSE
from skat.players.claims import (
    answer,
    claim_worlds,
    concession_costs_nothing,
    declarer_wins,
    pending,
)
from skat.players.worlds import Knowledge, World
from skat.series import deal_deck
from tests.helpers.hands import FOUR_JACKS_SIX_CLUBS, WEAK, declared_hand
from tests.helpers.server import join, new_table, serve

#: Forehand (seat 0 at dealer 2) holds all four jacks and six clubs: Clubs
#: Hand cannot be stopped. The same forehand with low cards cannot win Grand.
STRONG = FOUR_JACKS_SIX_CLUBS


def test_a_claim_that_holds_in_every_world_is_conceded() -> None:
    deal = declared_hand(STRONG, ["C7", "D7"], "clubs")
    deal.apply(CLAIM, seat=0)
    for seat in (1, 2):
        view = deal.view(seat)
        know = Knowledge.from_view(view)
        worlds = claim_worlds(know)
        assert len(worlds) == 66  # the partner's ten cards and the skat from twelve
        assert answer(view) == CONCEDE
    deal.apply(CONCEDE, seat=1)
    deal.apply(CONCEDE, seat=2)
    result = deal.result
    assert result is not None and result.ended == "defenders_conceded" and result.won


def test_a_claim_not_settled_in_time_is_played_on() -> None:
    """The server gives the answer a budget: when the solver cannot prove the
    claim in time (it stops its search), the defender plays on rather than
    concede unproven or answer late."""
    deal = declared_hand(STRONG, ["C7", "D7"], "clubs")
    deal.apply(CLAIM, seat=0)
    view = deal.view(1)
    assert answer(view, budget=1e-9) == REFUSE
    assert answer(view, budget=60.0) == CONCEDE


def test_a_claim_the_defence_can_beat_is_played_on() -> None:
    deal = declared_hand(WEAK, ["DA", "DT"], "grand")
    deal.apply(CLAIM, seat=0)
    for seat in (1, 2):
        view = deal.view(seat)
        know = Knowledge.from_view(view)
        assert not any(declarer_wins(view, know, w) for w in claim_worlds(know))
        assert answer(view) == REFUSE  # said at once, in words at the table
    # a person who gives up anyway does not take the computer partner along
    deal.apply(CONCEDE, seat=1)
    assert answer(deal.view(2)) == REFUSE
    deal.apply(REFUSE, seat=2)
    assert answer(deal.view(2)) is None  # answered: nothing more to say
    assert not deal.is_terminal()


def test_shown_voids_narrow_the_worlds() -> None:
    deal = declared_hand(STRONG, ["C7", "D7"], "clubs")
    # the declarer leads a jack; middlehand shows it holds no trump
    deal.apply(parse_action("play CJ"), seat=0)
    deal.apply(parse_action("play SA"), seat=1)
    deal.apply(CLAIM, seat=0)
    worlds = claim_worlds(Knowledge.from_view(deal.view(2)))
    # rearhand places middlehand's nine cards and the skat: the one trump it
    # has not seen (C7) can only be in the skat
    assert len(worlds) == 10
    c7 = 1 << int(Card.parse("C7"))
    assert all(w.skat & c7 for w in worlds)


def test_a_partner_gives_up_beside_a_person_only_when_the_game_is_lost() -> None:
    deal = declared_hand(STRONG, ["C7", "D7"], "clubs")
    deal.apply(CLAIM, seat=0)  # every card shown: the game cannot be saved
    deal.apply(CONCEDE, seat=1)
    assert answer(deal.view(2)) == CONCEDE
    # with the declarer's cards hidden the partner cannot know: it plays on
    hidden = declared_hand(STRONG, ["C7", "D7"], "clubs")
    hidden.apply(CONCEDE, seat=1)
    assert answer(hidden.view(2)) == REFUSE


def test_pending_names_each_claim_or_concession_once() -> None:
    deal = declared_hand(STRONG, ["C7", "D7"], "clubs")
    view = deal.view(1)
    assert pending(view, -1) is None
    deal.apply(CLAIM, seat=0)
    at = pending(deal.view(1), -1)
    assert at is not None and deal.view(1).history[at] == (0, "claim")
    assert pending(deal.view(1), at) is None


# ------------------------------------------------------------- at a table
#: A list seed whose first deal gives seat 0 (rearhand, the dealer) all
#: four jacks and Hearts Hand that no defence stops (found by searching).
SEED = (939).to_bytes(32, "big")


def test_two_computer_defenders_accept_a_claim_that_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = deal_deck(SEED, 1)
    assert str(Deal(deck, dealer=0).view(0).hand).count("J") == 4
    monkeypatch.setattr("skat.server.registry.new_seed", lambda: SEED)
    with serve(tmp_path, claim_budget=120.0) as (_, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        assert anna.seat == 0
        anna.send(type="fill", creator=t["creator"])

        def decide() -> str | None:
            v = anna.view
            if v is None or v["turn"] != 0 or not v["legal"]:
                return None
            legal = v["legal"]
            for a in ("announce hearts hand", "hold"):
                if a in legal:
                    return a
            bids = [a for a in legal if a.startswith("bid ") and int(a.split()[1]) <= 60]
            return bids[0] if bids else None

        def claimed() -> bool:
            return any(e["action"] == "claim" for e in anna.events("act"))

        # A claim sent against a view the computers have moved past is refused
        # as stale (a loaded machine sees it): offer it again on the new view.
        claim_sent = -1
        deadline = time.monotonic() + 60
        while not claimed():
            assert time.monotonic() < deadline, [e["action"] for e in anna.events("act")]
            anna.drain(0.05)
            v = anna.view
            if v is not None and v.get("contract") is not None and "claim" in v.get("offers", []):
                if anna.view_version > claim_sent:
                    anna.send(type="act", action="claim", version=anna.view_version)
                    claim_sent = anna.view_version
                continue
            a = decide()
            if a is not None and anna.view_version > anna.acted:
                anna.send(type="act", action=a, version=anna.view_version)
                anna.acted = anna.view_version
        deadline = time.monotonic() + 150  # answers take their time under load

        def conceded() -> list[int]:
            return sorted(e["seat"] for e in anna.events("act") if e["action"] == "concede")

        while conceded() != [1, 2]:
            assert time.monotonic() < deadline, [e["action"] for e in anna.events("act")]
            anna.drain(0.05)
        anna.barrier()
        results = []
        for r in anna.records:
            view = r.view or {}
            if view.get("result") is not None:
                results.append(view["result"])
        assert results, "the deal ended"
        assert results[0]["ended"] == "defenders_conceded" and results[0]["won"] is True


#: Clubs Hand for forehand with every trump but C8 (rearhand's) and a lone
#: S7: the game and Schneider are his whatever the defence does, but
#: middlehand's SA takes a trick, so the defence is never Schwarz.
ACE_KEPT = [
    ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "S7"],
    ["SA", "ST", "SK", "SQ", "S9", "S8", "HA", "HT", "HK", "HQ"],
    ["H9", "H8", "DA", "DT", "DK", "DQ", "D9", "D8", "C8", "H7"],
]


def _world(deal: Deal) -> World:
    h = [deal.dealt_hand(p) for p in range(3)]
    return World((h[0].mask, h[1].mask, h[2].mask), deal.dealt_skat.mask)


def test_a_partner_never_gives_up_into_a_schwarz_the_defence_could_keep() -> None:
    """Issue 49, finding 3: a give-up hands every card not yet won to the
    declarer; beside a person who gives up, the computer joins only when
    that loses nothing the best defence keeps (here: Schwarz)."""
    deal = declared_hand(ACE_KEPT, ["C7", "D7"], "clubs")
    deal.apply(CONCEDE, seat=1)  # middlehand, a person, gives up
    view = deal.view(2)
    know = Knowledge.from_view(view)
    world = _world(deal)
    assert declarer_wins(view, know, world, level=1)  # the game and Schneider are lost
    assert not concession_costs_nothing(view, know, world)  # but not Schwarz
    assert answer(view) == REFUSE  # said at once
    deal.apply(REFUSE, seat=2)
    assert not deal.is_terminal()
    # where nothing is left to keep, conceding costs nothing
    strong = declared_hand(STRONG, ["C7", "D7"], "clubs")
    strong.apply(CONCEDE, seat=1)
    v = strong.view(2)
    assert concession_costs_nothing(v, Knowledge.from_view(v), _world(strong))


def test_a_claim_at_a_table_is_once_a_deal_and_answered_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 54, finding 5: Anna claims Schneider, which the defence can
    stop: a computer says `refuse` (one no refuses the claim: the other has
    nothing left to answer); a second claim, a claim in
    capitals or with a space after it is refused with a clear error, and
    nothing more is stored or asked of the computers."""
    monkeypatch.setattr("skat.server.registry.new_seed", lambda: SEED)
    with serve(tmp_path, claim_budget=120.0) as (_, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        deadline = time.monotonic() + 180
        claim_sent = -1

        def claims() -> list[str]:
            return [e["action"] for e in anna.events("act") if e["action"].startswith("claim")]

        while not claims():
            assert time.monotonic() < deadline
            anna.drain(0.05)
            v = anna.view
            if v is None:
                continue
            if v.get("contract") is not None and "claim" in v.get("offers", []):
                # a claim sent against a view the computers have moved past
                # is refused as stale (a loaded machine sees it): again
                if anna.view_version > claim_sent:
                    anna.send(type="act", action="claim schneider", version=anna.view_version)
                    claim_sent = anna.view_version
                continue
            if v["phase"] == "play" and v.get("contract") is not None:
                break  # the claim is made: the view offers it no more
            if anna.view_version <= anna.acted:
                continue
            if v["turn"] == 0 and v["legal"]:
                legal = v["legal"]
                a = next((x for x in ("announce hearts hand", "hold") if x in legal), None)
                a = a or next((x for x in legal if x.startswith("bid ")), None)
                assert a is not None, (v["phase"], legal, v.get("offers"))
                anna.send(type="act", action=a, version=anna.view_version)
                anna.acted = anna.view_version

        def refused() -> list[int]:
            return sorted(e["seat"] for e in anna.events("act") if e["action"] == "refuse")

        while not refused():
            assert time.monotonic() < deadline, " ".join(e["action"] for e in anna.events("act"))
            anna.drain(0.05)
        anna.barrier()
        assert claims() == ["claim schneider"], [e["action"] for e in anna.events("act")]
        for text, code in (
            ("claim", "WRONG_PHASE"),
            ("claim schwarz", "WRONG_PHASE"),
            ("CLAIM", "MALFORMED_ACTION"),
            ("claim ", "MALFORMED_ACTION"),
        ):
            anna.barrier()
            before = len(anna.errors())
            anna.send(type="act", action=text, version=anna.version)
            anna.barrier()
            errors = anna.errors()[before:]
            assert [e["code"] for e in errors] == [code], (text, errors)
            assert errors[0]["message"]
        anna.barrier()
        acts = [e["action"] for e in anna.events("act")]
        assert acts.count("claim schneider") == 1 and sum(a.startswith("claim") for a in acts) == 1
        assert acts.count("refuse") == 1  # asked once, answered once
