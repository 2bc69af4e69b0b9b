"""Property tests for the invariants of SKAT-RULES.md R12 over random complete deals.

Every deal is driven by a seeded ``random.Random`` that picks uniformly among
``Deal.legal_actions()``. Three driving policies are used:

* ``uniform`` — exactly that (bids then climb fast, so most games are Hand
  games far above what the cards are worth, i.e. overbid);
* ``cheap`` — uniform, except that during the auction the bidder only chooses
  among pass and the two lowest legal bids, so that all-pass deals (R2.6),
  Null games and games that are not overbid occur;
* ``specials`` — ``cheap`` plus, now and then, a declarer's claim or a
  concession (special moves that ``apply`` accepts but ``legal_actions`` does
  not list).

In every policy some steps act for a randomly chosen seat with that seat's own
``legal_actions(seat)`` (this is how a defender's Kontra out of turn, R9.3,
gets exercised).

The expected values are computed from the rules text (R1.2, R5-R9), not from
the engine's tables.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skat.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Claim,
    Contract,
    Deal,
    DealResult,
    Discard,
    GameRecord,
    GameType,
    Hold,
    IllegalActionError,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Phase,
    Pickup,
    Play,
    Re,
    Rules,
    replay,
)
from skat.engine.game import BASE_VALUE
from tests.helpers.marks import slow_beyond_first

# ----------------------------------------------------------------- rules text

#: R1.2 card points by rank character.
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
#: R5.1 base values by game name.
BASE = {"DIAMONDS": 9, "HEARTS": 10, "SPADES": 11, "CLUBS": 12, "GRAND": 24}
#: R5.5 Null values by (hand, ouvert).
NULL_VALUE = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
SUIT_LETTER = {"CLUBS": "C", "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D"}
JACKS = ("CJ", "SJ", "HJ", "DJ")
ALL_NAMES = frozenset(s + r for s in "CSHD" for r in "ATKQJ987")

# R1.5: the deck indices each position (and the skat) receives.
DEAL_ORDER = (
    (0, 1, 2, 11, 12, 13, 14, 23, 24, 25),
    (3, 4, 5, 15, 16, 17, 18, 26, 27, 28),
    (6, 7, 8, 19, 20, 21, 22, 29, 30, 31),
    (9, 10),
)


def card_points(cards: Any) -> int:
    """R1.2, from the card names."""
    return sum(RANK_POINTS[Card(c).name[1]] for c in cards)


def trumps_high_to_low(game: GameType) -> tuple[str, ...]:
    """R1.3: the trump sequence, highest first."""
    if game.name in SUIT_LETTER:
        x = SUIT_LETTER[game.name]
        return (*JACKS, *(x + r for r in "ATKQ987"))
    if game.name in ("GRAND", "RAMSCH"):
        return JACKS
    return ()


def matadors_ref(cards12: set[str], trumps: tuple[str, ...]) -> int:
    """R5.2 reference: the number n of "with/without n"."""
    holds_top = trumps[0] in cards12
    n = 0
    for t in trumps:
        if (t in cards12) == holds_top:
            n += 1
        else:
            break
    return n


def settle_ref(
    contract: Contract, bid: int, points: int, tricks: int, cards12: set[str]
) -> tuple[bool, int, bool]:
    """R6.5 reference: (won, value, overbid)."""
    if contract.game.name == "NULL":
        return tricks == 0, NULL_VALUE[contract.hand, contract.ouvert], False
    base = BASE[contract.game.name]
    n = matadors_ref(cards12, trumps_high_to_low(contract.game))
    sa = contract.schneider or contract.schwarz or contract.ouvert
    wa = contract.schwarz or contract.ouvert
    schneider = points >= 90 or points <= 30 or sa
    schwarz = tricks in (0, 10) or wa
    mult = n + 1 + contract.hand + schneider + sa + schwarz + wa + contract.ouvert
    value = base * mult
    if wa:
        ok = tricks == 10
    elif sa:
        ok = points >= 90
    else:
        ok = points >= 61
    if value < bid:
        return False, base * -(-bid // base), True
    return ok, value, False


def ramsch_ref(points: list[int], tricks: list[int], bock: int) -> list[int]:
    """R9.1 reference entries per position."""
    for p, t in enumerate(tricks):
        if t == 10:  # Durchmarsch
            return [120 * bock if q == p else 0 for q in range(3)]
    top = max(points)
    factor = 2 ** sum(1 for t in tricks if t == 0)  # Jungfrau
    return [-top * factor * bock if pts == top else 0 for pts in points]


# ------------------------------------------------------------------- drivers

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "4p-dealer0": {"rules": Rules(players=4), "dealer": 0},
    "4p-dealer1": {"rules": Rules(players=4), "dealer": 1},
    "4p-dealer2": {"rules": Rules(players=4), "dealer": 2},
    "4p-dealer3": {"rules": Rules(players=4), "dealer": 3},
    "all-pass-ramsch": {"rules": Rules(all_pass="ramsch")},
    "kontra-own_first_card": {"rules": Rules(kontra=True, kontra_window="own_first_card")},
    "kontra-first_lead": {"rules": Rules(kontra=True, kontra_window="first_lead")},
    "kontra-trick_one": {"rules": Rules(kontra=True, kontra_window="trick_one")},
    "forced-ramsch": {"ramsch": True},
    "bock": {"bock_factor": 2},
    "4p-kontra-ramsch-bock": {
        "rules": Rules(players=4, kontra=True, kontra_window="trick_one", all_pass="ramsch"),
        "dealer": 2,
        "bock_factor": 2,
    },
}
CONFIG_IDS = list(CONFIGS)
POLICIES = ("uniform", "cheap", "specials")

decks = st.permutations(list(Card))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
policies = st.sampled_from(POLICIES)
FAST = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def make_deal(config: str, deck: list[Card]) -> Deal:
    return Deal(deck, **CONFIGS[config])


def active_seats(deal: Deal) -> list[int]:
    return [s for s in range(deal.players) if deal.position_of(s) is not None]


def cheap(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """Pass/hold and the two lowest bids only."""
    bids = [a for a in actions if isinstance(a, Bid)][:2]
    return tuple(a for a in actions if not isinstance(a, Bid)) + tuple(bids)


def choose(deal: Deal, rng: random.Random, policy: str) -> tuple[int | None, Action]:
    """The next (seat, action); seat ``None`` means the seat to move."""
    legal = deal.legal_actions()
    assert legal, f"a live deal offers no legal action: {deal!r}"
    bidding = deal.phase is Phase.BIDDING
    if policy != "uniform" and bidding:
        legal = cheap(legal)
    contract = deal.contract
    if (
        policy == "specials"
        and deal.phase is Phase.PLAY
        and contract is not None
        and contract.game is not GameType.RAMSCH
        and rng.random() < 0.04
    ):
        declarer = deal.declarer_seat
        assert declarer is not None
        seat = declarer if rng.random() < 0.4 else rng.choice(active_seats(deal))
        # the special moves open to that seat (R6.6: a claim once a deal, at
        # a level, a defender's answer to it)
        offers = list(deal.offers(seat))
        if Claim() in offers and not deal.view(seat).tricks and contract.game != GameType.NULL:
            offers += [Claim("schneider"), Claim("schwarz")]
        if offers:
            return seat, rng.choice(offers)
    if rng.random() < 0.15:
        seat = rng.randrange(deal.players)
        own = deal.legal_actions(seat)
        if own:
            if policy != "uniform" and bidding:
                own = cheap(own)
            return seat, rng.choice(own)
    return None, rng.choice(legal)


def play_out(
    deal: Deal,
    rng: random.Random,
    policy: str,
    on_step: Callable[[Deal], None] | None = None,
    max_steps: int = 500,
) -> Deal:
    """Play ``deal`` to its end, calling ``on_step`` before every action and at the end."""
    for _ in range(max_steps):
        if on_step is not None:
            on_step(deal)
        if deal.is_terminal():
            return deal
        seat, action = choose(deal, rng, policy)
        deal.apply(action, seat)
    raise AssertionError(f"deal did not end within {max_steps} actions: {deal!r}")


def played_cards(deal: Deal) -> list[Card]:
    out = [c for t in deal.tricks for c in t.cards]
    out += list(deal.current_trick)
    return out


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything observable about a deal, to prove a rejection changed nothing."""
    public = (
        deal.phase,
        deal.current_seat,
        deal.history,
        deal.tricks,
        deal.current_trick,
        tuple(deal.hand(s) for s in range(deal.players)),
        deal.skat,
        deal.bid,
        deal.declarer,
        deal.contract,
        deal.result,
        tuple(deal.legal_actions(s) for s in range(deal.players)),
    )
    private = tuple(
        sorted(
            (k, tuple(v) if isinstance(v, list) else v)
            for k, v in getattr(deal, "__dict__", {}).items()
        )
    )
    return public, private


# --------------------------------------------------------------------- tests


@pytest.mark.parametrize("config", ["default", "4p-dealer0", "4p-dealer3", "forced-ramsch"])
@FAST
@given(deck=decks)
def test_dealt_cards_partition_the_deck(config: str, deck: list[Card]) -> None:
    """R12 first bullet and R1.5: hands + skat as dealt hold every card exactly once,
    in the canonical dealing order."""
    deal = make_deal(config, deck)
    groups = [deal.dealt_hand(p) for p in range(3)] + [deal.dealt_skat]
    counts = Counter(c for g in groups for c in g)
    assert set(counts) == set(Card)
    assert all(n == 1 for n in counts.values())
    for group, indices in zip(groups, DEAL_ORDER, strict=True):
        assert {c.name for c in group} == {deck[i].name for i in indices}
    assert [len(g) for g in groups] == [10, 10, 10, 2]
    # before any action, the current hands are the dealt ones (the dealer holds none)
    for seat in range(deal.players):
        pos = deal.position_of(seat)
        if pos is None:
            assert len(deal.hand(seat)) == 0
        else:
            assert deal.hand(seat) == deal.dealt_hand(pos)


@pytest.mark.parametrize("config", slow_beyond_first(CONFIG_IDS))
@FAST
@given(deck=decks, seed=seeds, policy=policies)
def test_every_card_exactly_once_at_every_step(
    config: str, deck: list[Card], seed: int, policy: str
) -> None:
    """R12 / R3.1: at every step each card is in exactly one place: a hand, the skat,
    or among the played cards (completed tricks and the current trick). After
    ``pickup`` the two skat cards are in the declarer's hand (he holds 12), so
    they are no longer in the skat."""
    deal = make_deal(config, deck)
    problems: list[str] = []

    def check(d: Deal) -> None:
        census: Counter[Card] = Counter()
        for seat in range(d.players):
            census.update(d.hand(seat))
        census.update(d.skat)
        census.update(played_cards(d))
        bad = {c.name: census[c] for c in Card if census[c] != 1}
        if bad:
            last = str(d.history[-1][1]) if d.history else "-"
            problems.append(f"phase {d.phase} after {last!r}: card counts {bad}")

    play_out(deal, random.Random(seed), policy, check)
    assert not problems, "\n".join(dict.fromkeys(problems))


def check_game_result(deal: Deal, r: DealResult) -> None:
    n = deal.players
    contract = r.contract
    assert contract is not None and r.valuation is not None
    assert r.declarer is not None and r.declarer_seat == deal.seat_of(r.declarer)
    # R2.4: the bid is the last number named (or 18 taken by Vorhand)
    bids = [a.value for _, a in deal.history if isinstance(a, Bid)]
    assert bids and r.bid == bids[-1] == max(bids)
    # R12: value charged >= bid; suit/Grand: a multiple of the announced base value
    assert r.value >= r.bid, f"value {r.value} below bid {r.bid}"
    if contract.game is GameType.NULL:
        assert r.value == NULL_VALUE[contract.hand, contract.ouvert]
    else:
        assert BASE_VALUE[contract.game] == BASE[contract.game.name]  # R5.1
        assert r.value % BASE_VALUE[contract.game] == 0
        # R3.4 normalisation: Ouvert => Schwarz => Schneider => Hand
        assert not contract.ouvert or contract.schwarz
        assert not contract.schwarz or contract.schneider
        assert not contract.schneider or contract.hand
    # R9.3 factors
    kontra = any(isinstance(a, Kontra) for _, a in deal.history)
    re = any(isinstance(a, Re) for _, a in deal.history)
    assert (r.kontra, r.re) == (kontra, re)
    factor = (4 if re else 2 if kontra else 1) * deal.bock_factor
    assert r.factor == factor
    # R8.1 plain list: declarer +value or -2 x value; sum of entries == declarer's entry
    decl = r.declarer_seat
    assert r.plain[decl] == (r.value * factor if r.won else -2 * r.value * factor)
    assert sum(r.plain) == r.plain[decl]
    assert all(e == 0 for s, e in enumerate(r.plain) if s != decl)
    # R8.2 Seeger-Fabian
    assert r.seeger_fabian[decl] == r.plain[decl] + (50 if r.won else -50)
    other = 0 if r.won else (40 if n == 3 else 30)
    assert [e for s, e in enumerate(r.seeger_fabian) if s != decl] == [other] * (n - 1)
    if n == 4:
        assert r.plain[deal.dealer] == 0
        assert r.seeger_fabian[deal.dealer] == other
    # R4.7 / R12: card points and tricks
    tricks = deal.tricks
    won_by_decl = [t for t in tricks if t.winner == r.declarer]
    decl_trick_points = card_points(c for t in won_by_decl for c in t.cards)
    skat_points = card_points(deal.skat)
    if r.ended in ("played", "early"):
        assert r.declarer_points == decl_trick_points + skat_points
        assert r.declarer_tricks == len(won_by_decl)
        cards12 = {c.name for c in deal.dealt_hand(r.declarer)} | {c.name for c in deal.dealt_skat}
        won, value, overbid = settle_ref(
            contract, r.bid, r.declarer_points, r.declarer_tricks, cards12
        )
        assert (r.won, r.value, r.valuation.overbid) == (won, value, overbid), (
            r.valuation.explanation
        )
    if r.ended == "played":
        assert len(tricks) == 10
        all_trick_points = card_points(c for t in tricks for c in t.cards)
        assert all_trick_points + skat_points == 120
        defender_points = card_points(c for t in tricks if t.winner != r.declarer for c in t.cards)
        assert r.declarer_points + defender_points == 120
    elif r.ended == "early":  # R6.6 (1) and (2)
        assert len(tricks) < 10
        last = tricks[-1]
        if contract.game is GameType.NULL:
            assert last.winner == r.declarer
            assert all(t.winner != r.declarer for t in tricks[:-1])
        else:
            assert contract.schwarz
            assert last.winner != r.declarer
            assert all(t.winner == r.declarer for t in tricks[:-1])
        assert not r.won
    elif r.ended == "declarer_conceded":
        assert not r.won
    elif r.ended == "defenders_conceded":
        assert r.won == (not r.valuation.overbid)
    else:
        raise AssertionError(f"unexpected end {r.ended!r}")


def check_ramsch_result(deal: Deal, r: DealResult) -> None:
    tricks = deal.tricks
    assert len(tricks) == 10 and r.ended == "played"  # R6.6 (3)
    assert r.ramsch_points is not None
    points = [card_points(c for t in tricks if t.winner == p for c in t.cards) for p in range(3)]
    points[tricks[-1].winner] += card_points(deal.skat)  # the skat goes to the last trick
    ntricks = [sum(1 for t in tricks if t.winner == p) for p in range(3)]
    assert list(r.ramsch_points) == points
    assert sum(points) == 120
    expected = [0] * deal.players
    for pos, e in enumerate(ramsch_ref(points, ntricks, deal.bock_factor)):
        expected[deal.seat_of(pos)] = e
    assert list(r.plain) == expected
    assert list(r.seeger_fabian) == expected  # no 50/40/30 in Ramsch (R9.1)
    assert not r.kontra and not r.re
    assert not any(isinstance(a, Kontra | Re) for _, a in deal.history)


@pytest.mark.parametrize("config", slow_beyond_first(CONFIG_IDS))
@FAST
@given(deck=decks, seed=seeds, policy=policies)
def test_settlement_invariants(config: str, deck: list[Card], seed: int, policy: str) -> None:
    """R12 (points sum to 120, value >= bid and a multiple of the base, plain sum),
    R6.5, R8.1, R8.2, R9.1, R9.3, R9.6 on the settled deal."""
    deal = play_out(make_deal(config, deck), random.Random(seed), policy)
    r = deal.result
    assert r is not None and deal.is_terminal()
    assert r.players == deal.players and r.dealer == deal.dealer
    assert r.bock_factor == deal.bock_factor
    assert len(r.plain) == len(r.seeger_fabian) == deal.players
    named = any(isinstance(a, Bid) for _, a in deal.history)
    if deal.forced_ramsch or (deal.rules.all_pass == "ramsch" and not named):
        assert r.kind == "ramsch"
        check_ramsch_result(deal, r)
    elif not named:
        assert r.kind == "passed"  # R2.6 Einpassen, R8.5
        assert r.plain == r.seeger_fabian == (0,) * deal.players
        assert not deal.tricks
    else:
        assert r.kind == "game"
        check_game_result(deal, r)
    # `Deal.fresh`: the same deal from its first action replays to the same result
    again = deal.fresh()
    assert not again.history and again.forced_ramsch == deal.forced_ramsch
    for who, action in deal.history:
        again.apply(action, who)
    assert again.result == r


@pytest.mark.parametrize("config", slow_beyond_first(CONFIG_IDS))
@FAST
@given(deck=decks, seed=seeds, policy=policies, stop=st.integers(0, 60))
def test_record_replay_and_json_round_trip(
    config: str, deck: list[Card], seed: int, policy: str, stop: int
) -> None:
    """A record rebuilds its deal exactly, mid-deal and at the end, also via JSON."""
    rng = random.Random(seed)
    deal = make_deal(config, deck)
    checked: list[int] = []

    def check(d: Deal) -> None:
        if len(d.history) == stop or d.is_terminal():
            rec = GameRecord.from_deal(d)
            again = replay(rec)
            assert again.history == d.history
            assert again.result == d.result
            assert again.phase == d.phase
            assert again.current_seat == d.current_seat
            assert again.legal_actions() == d.legal_actions()
            via_json = GameRecord.from_json(rec.to_json())
            assert via_json == rec
            assert replay(via_json).result == d.result
            checked.append(len(d.history))

    play_out(deal, rng, policy, check)
    assert checked and checked[-1] == len(deal.history)


def normalised_contracts() -> list[Contract]:
    out = []
    for game in GameType:
        for flags in product((False, True), repeat=4):
            c = Contract(game, *flags)
            if c == c.normalised():
                out.append(c)
    return out


CONTRACTS = normalised_contracts()
ODD_BIDS = (0, 1, 17, 18, 19, 20, 21, 23, 25, 59, 60, 264, 265, 1000)


def illegal_candidates(deal: Deal, seat: int | None, rng: random.Random) -> list[Action]:
    """A few random actions that are not in ``legal_actions(seat)``.

    Moves that ``apply`` accepts without listing them (claim, concede, timeout,
    leave) are never candidates. A discard counts as legal when its two cards
    form a legal discard in either order; announcements are only drawn in their
    normalised form (R3.4), so that normalisation cannot make them legal.
    """
    legal = deal.legal_actions(seat)
    legal_discards = {frozenset(a.cards) for a in legal if isinstance(a, Discard)}
    pool: list[Action] = [Play(c) for c in Card]
    pool += [Bid(v) for v in ODD_BIDS] + [Bid(deal.bid)]
    pool += [Hold(), Pass(), Pickup(), Kontra(), NoKontra(), Re(), NoRe()]
    pool += [Announce(c) for c in CONTRACTS]
    cards = list(Card)
    for _ in range(4):
        a, b, c = rng.sample(cards, 3)
        pool += [Discard((a, b)), Discard((a, a)), Discard((a,)), Discard((a, b, c))]
    out = []
    for action in rng.sample(pool, len(pool)):
        if action in legal:
            continue
        if isinstance(action, Discard) and (
            len(action.cards) == 2 and frozenset(action.cards) in legal_discards
        ):
            continue
        out.append(action)
        if len(out) == 3:
            break
    return out


@pytest.mark.parametrize("config", slow_beyond_first(CONFIG_IDS))
@SLOW
@given(deck=decks, seed=seeds, policy=policies)
def test_legal_actions_accepted_and_illegal_rejected(
    config: str, deck: list[Card], seed: int, policy: str
) -> None:
    """Every listed action is accepted (on a clone, which leaves the original
    alone); random unlisted actions are rejected with an `IllegalActionError`
    and leave the state unchanged (R10, R4.5)."""
    rng = random.Random(seed ^ 0x5EED)

    def check(d: Deal) -> None:
        before = snapshot(d)
        for seat in (None, *range(d.players)):
            for action in d.legal_actions(seat):
                c = d.clone()
                n = len(c.history)
                c.apply(action, seat)
                assert len(c.history) == n + 1, (seat, action)
        assert snapshot(d) == before, "applying to a clone changed the original"
        tries: list[tuple[int | None, Action]] = []
        for seat in (None, rng.randrange(d.players), rng.randrange(d.players)):
            tries += [(seat, a) for a in illegal_candidates(d, seat, rng)]
        # an unknown seat may do nothing at all, not even what the seat to move may do
        anything = list(d.legal_actions()) + illegal_candidates(d, None, rng)
        tries += [(s, rng.choice(anything)) for s in (d.players, -1) if anything]
        for seat, action in tries:
            listed = (
                [str(a) for a in d.legal_actions(seat)] if seat in (None, *range(d.players)) else []
            )
            where = f"phase {d.phase}, history {[(s, str(a)) for s, a in d.history]}"
            try:
                d.apply(action, seat)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(
                    f"'{action}' by seat {seat} accepted, but legal_actions({seat}) = {listed}; "
                    + where
                )
            assert snapshot(d) == before, f"rejected '{action}' by {seat} changed the deal"

    play_out(make_deal(config, deck), random.Random(seed), policy, check)
