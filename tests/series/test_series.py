"""The list layer (SKAT-RULES.md R1.6, R8, R9.1, R9.3-R9.6, R10, R12).

Scripted deals are written by *position* (V forehand, M middlehand, H
rearhand; R0.3): the three hands and the skat, the auction and announcement,
and the 30 cards in the order they are played. A position-based deal is the
same game at any dealer and at three or four players, so one script serves
every deal number of a list. The decks go into `Series(..., decks=[...])`
through `deck_from_hands` (R1.5).

Every script below was checked by hand against the rules it stands for; the
tests assert the facts that make it what it claims (card points, value, won).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skat.engine import (
    Bid,
    Card,
    Deal,
    GameType,
    IllegalActionError,
    Kontra,
    Pass,
    Phase,
    Play,
    Reason,
    deck_from_hands,
    parse_action,
)
from skat.series import (
    BOCK_TRIGGERS,
    DEFAULT_BOCK_TRIGGERS,
    ListOptions,
    PlayerTotal,
    Series,
    SheetRow,
    seeger_fabian_formula,
    totals,
)
from skat.series.record import list_record, replay_list, verify_list

V, M, H = 0, 1, 2  # positions: forehand, middlehand, rearhand (R1.4)
Steps = tuple[tuple[int, str], ...]


# --------------------------------------------------------------------------- scripts
@dataclass(frozen=True)
class Script:
    """One deal by positions: hands (V, M, H), skat, the actions before the
    first card, and the cards in play order (played by whoever is to move)."""

    hands: tuple[str, str, str]
    skat: str
    steps: Steps
    plays: str = ""

    def deck(self) -> list[Card]:
        return deck_from_hands([h.split() for h in self.hands], self.skat.split())

    def but(self, steps: Steps) -> Script:
        return replace(self, steps=steps)


def auction(declarer: int, bid: int) -> Steps:
    """R2.2-R2.4: the shortest auction that makes ``declarer`` the declarer at ``bid``."""
    if declarer == V:
        return ((M, f"bid {bid}"), (V, "hold"), (M, "pass"), (H, "pass"))
    if declarer == M:
        return ((M, f"bid {bid}"), (V, "pass"), (H, "pass"))
    return ((M, "pass"), (H, f"bid {bid}"), (V, "pass"))


def pickup(declarer: int, discard: str, game: str) -> Steps:
    return ((declarer, "pickup"), (declarer, f"discard {discard}"), (declarer, f"announce {game}"))


ALL_PASS: Steps = ((M, "pass"), (H, "pass"), (V, "pass"))

# R8.6 deal 1 / EX-01-like: H wins Clubs without 2 (game 3) = 36 with 62 card points.
CLUBS_36 = Script(
    (
        "CA CQ CJ C7 S9 S8 S7 H9 DJ D9",
        "CK SA SK SQ SJ HT HK HQ H7 DK",
        "CT C9 ST HA HJ H8 DA DT DQ D8",
    ),
    "C8 D7",
    auction(H, 18) + pickup(H, "C8 D7", "clubs"),
    "CA CK C9 H9 HK H8 SK ST S8 DA D9 DK DT S9 SA CT DJ SJ SQ HA S7 H7 DQ CQ C7 HT HJ D8 CJ HQ",
)
# EX-04 / EX-26: H loses Hearts with 1 (CJ, no SJ), bid 20, 59 card points, 4 tricks.
HEARTS_20_LOST = Script(
    (
        "CA CT C7 SJ S9 S8 HK HQ H7 DT",
        "CQ ST SK SQ S7 HA HT H8 D8 D7",
        "CK CJ C9 C8 HJ H9 DK DQ DJ D9",
    ),
    "SA DA",
    auction(H, 20) + pickup(H, "SA DA", "hearts"),
    "CA CQ C8 S9 SK DK HA DJ HK HJ H7 H8 CK CT D7 C7 SQ C9 CJ HQ HT D9 DT D8 S8 S7 DQ SJ ST H9",
)
# R8.6 deal 4: M wins Grand with 2 (game 3) = 72 with 88 card points.
GRAND_72 = Script(
    (
        "CT CK CQ C9 S9 HA HK DT D9 D7",
        "CA CJ ST SK SQ SJ S7 H8 DA D8",
        "C8 SA S8 HT HQ HJ H7 DK DQ DJ",
    ),
    "C7 H9",
    auction(M, 18) + pickup(M, "C7 H9", "grand"),
    "CT CA C8 CJ HJ HA SK S8 S9 S7 SA CK DJ DT SJ D8 DQ D7 HT HK H8 DK D9 DA SQ H7 C9 ST HQ CQ",
)
# sixty_sixty: V plays Diamonds without 1 (18), ends on exactly 60 after ten tricks: lost.
SIXTY = Script(
    (
        "CA C8 ST SJ S7 HJ H8 H7 DJ D9",
        "CT SA SK S9 S8 HT H9 DT DQ D8",
        "CK CQ CJ C9 C7 SQ HK HQ DK D7",
    ),
    "HA DA",
    auction(V, 18) + pickup(V, "HA DA", "diamonds"),
    "D9 D8 CJ CQ C8 CT S8 SQ S7 C7 CA H9 HJ DQ D7 DJ DT DK SJ SK C9 ST SA CK S9 HK H7 HT HQ H8",
)
# V plays Diamonds without 1 (18) and loses with 41 card points; Kontra by M, no Re.
_KONTRA_DEAL = Script(
    (
        "CK CQ C7 SJ S7 HA H9 H7 DQ D9",
        "CT CJ C9 C8 SA S9 HQ HJ H8 DT",
        "CA ST SK SQ S8 HK DA DJ D8 D7",
    ),
    "HT DK",
    (),
    "HA H8 HK SJ DT D7 D9 HJ DA HQ S8 H9 CT CA C7 ST S7 S9 SQ H7 SA CJ DJ DQ C9 D8 CK SK CQ C8",
)
_KONTRA_OPENING = auction(V, 18) + pickup(V, "HT DK", "diamonds")
KONTRA_LOST = _KONTRA_DEAL.but(_KONTRA_OPENING + ((M, "kontra"), (V, "no_re")))
KONTRA_RE_LOST = _KONTRA_DEAL.but(_KONTRA_OPENING + ((H, "kontra"), (V, "re")))
# V wins Spades without 1 (22) with 84 card points after Kontra (H) and Re.
KONTRA_RE_WON = Script(
    (
        "CT ST SJ HK H8 H7 DT DK DJ D9",
        "CK CQ C9 C8 C7 SK S8 HT DA D8",
        "CA CJ SA SQ S9 S7 HQ H9 DQ D7",
    ),
    "HA HJ",
    auction(V, 18) + pickup(V, "HA HJ", "spades") + ((H, "kontra"), (V, "re")),
    "H8 HT H9 C8 CA CT SQ DJ SK HK C7 HQ H7 S8 CJ SA SJ DA DK D8 DQ DT CK D7 D9 CQ S7 S9 ST C9",
)
# value_100: V wins Grand (pickup) with 4 (game 5) = 120 with 72 card points.
VALUE_100 = Script(
    (
        "CA CJ C8 ST SK SJ HA H7 DK DJ",
        "C9 C7 SA S8 S7 HK H9 H8 DA D8",
        "CT CK CQ SQ S9 HT HQ DT DQ D7",
    ),
    "HJ D9",
    auction(V, 18) + pickup(V, "HJ D9", "grand"),
    "C8 C9 CT DQ DK D8 HA H8 HQ CJ S8 S9 ST SA SQ S7 CK SK CA C7 CQ SJ H9 DT H7 HK HT D7 DJ DA",
)
# grand_hand: V wins Grand Hand with 1 = 72 (< 100) with 73 card points.
GRAND_HAND = Script(
    (
        "CQ CJ C9 SK HT H9 DA DT DQ DJ",
        "CA CT CK C8 SA SQ S9 HK D9 D7",
        "C7 ST SJ S8 S7 HA HJ H8 H7 DK",
    ),
    "HQ D8",
    ((M, "pass"), (H, "pass"), (V, "bid 18"), (V, "announce grand hand")),
    "CJ HK HJ H9 C8 H7 CQ CA C7 CT SJ C9 HA HT D9 S8 SK S9 DJ SA DK DQ D7 H8 DT SQ S7 DA CK ST",
)
# schneider: V wins Diamonds without 1 with 111 card points in 8 tricks = 27.
SCHNEIDER = Script(
    (
        "CA CT CQ SQ SJ HJ H8 DA DT DQ",
        "CK CJ C8 C7 SA S9 S7 HT HQ H7",
        "C9 ST SK S8 HA HK DK DJ D9 D7",
    ),
    "H9 D8",
    auction(V, 18) + pickup(V, "H9 D8", "diamonds"),
    "DQ CJ D9 S9 S8 SQ CT C8 C9 DA CK DK SJ HT DJ HJ SA D7 CA C7 HA CQ S7 ST H8 H7 HK SK DT HQ",
)
# schwarz: V wins Diamonds with 4 and all ten tricks = 7 x 9 = 63.
SCHWARZ = Script(
    (
        "CA CT CQ CJ C8 SJ HA HJ DQ DJ",
        "CK SA ST SQ S8 HT H7 D9 D8 D7",
        "C9 SK S9 S7 HK HQ H9 H8 DA DT",
    ),
    "C7 DK",
    auction(V, 18) + pickup(V, "C7 DK", "diamonds"),
    "CA CK C9 DJ D9 DA HJ D8 DT SJ D7 HQ CJ ST H8 CT H7 S7 C8 S8 H9 CQ HT SK DQ SQ HK HA SA S9",
)
# EX-K4: M plays Hearts with 1 (pickup), bid 20, 50 card points, Kontra by V: lost.
EX_K4 = Script(
    (
        "CK C9 ST HT HK DT DK DQ D8 D7",
        "CA CQ CJ SA SK SQ HA H9 H7 DJ",
        "CT C8 SJ S9 S7 HQ HJ H8 DA D9",
    ),
    "C7 S8",
    auction(M, 20) + pickup(M, "C7 S8", "hearts") + ((V, "kontra"), (M, "no_re")),
    "HK DJ H8 H9 SJ HT S9 ST SQ DQ SA DA D9 DT CJ SK S7 DK HA HJ D7 HQ CK H7 C8 C9 CQ CA CT D8",
)
# EX-K5: M plays Clubs with 1 (pickup), bid 24, 70 card points, Kontra by V: won.
EX_K5 = Script(
    (
        "CA CK SQ SJ S9 HT H8 DA DJ D9",
        "CJ C9 C8 SA ST HA HK H9 DT D8",
        "CT CQ C7 SK S7 HQ H7 DK DQ D7",
    ),
    "S8 HJ",
    auction(M, 24) + pickup(M, "S8 HJ", "clubs") + ((V, "kontra"), (M, "no_re")),
    "D9 DT DQ CJ C7 CA C8 CT DJ S9 SA S7 C9 CQ SJ DA D8 D7 HT HK H7 SQ ST SK HA HQ H8 H9 DK CK",
)
# EX-R1: all pass, Ramsch; card points V 18 / M 41 / H 61 (skat included), all took tricks.
RAMSCH_R1 = Script(
    (
        "CA C9 ST SJ S8 HK H7 DK DQ D9",
        "CT CQ CJ SA S9 HA HQ H8 D8 D7",
        "CK C8 C7 SK S7 HT HJ H9 DA DT",
    ),
    "SQ DJ",
    ALL_PASS,
    "C9 CT C8 CJ HJ SJ SA SK ST S9 S7 S8 D7 DA D9 CK CA CQ DK D8 DT HT H7 HQ C7 HK HA H9 DQ H8",
)
# The same cards as a compulsory Ramsch of a Ramsch round (R9.5): no auction.
RAMSCH_ROUND = RAMSCH_R1.but(())
THROWN_IN = replace(CLUBS_36, steps=ALL_PASS, plays="")

#: Script -> the Bock triggers (R9.4) the settled deal fires.
TRIGGER_DEALS: dict[str, tuple[Script, frozenset[str]]] = {
    "sixty": (SIXTY, frozenset({"sixty_sixty"})),
    "kontra_lost": (KONTRA_LOST, frozenset({"kontra_lost"})),
    "kontra_re_lost": (KONTRA_RE_LOST, frozenset({"kontra_re", "kontra_lost"})),
    "kontra_re_won": (KONTRA_RE_WON, frozenset({"kontra_re"})),
    "value_100": (VALUE_100, frozenset({"value_100"})),
    "grand_hand": (GRAND_HAND, frozenset({"grand_hand"})),
    "schneider": (SCHNEIDER, frozenset({"schneider"})),
    "schwarz": (SCHWARZ, frozenset({"schneider", "schwarz"})),
    "clubs_36": (CLUBS_36, frozenset()),
    "hearts_20_lost": (HEARTS_20_LOST, frozenset()),
    "grand_72": (GRAND_72, frozenset()),
    "thrown_in": (THROWN_IN, frozenset()),
}


# --------------------------------------------------------------------------- helpers
def play(
    series: Series,
    script: Script,
    extra: dict[int, Steps] | None = None,
    *,
    resume: int | None = None,
) -> SheetRow:
    """Play ``script`` as the current deal; ``extra[i]`` are actions (by
    position) applied before the i-th card of the deal. ``resume=k`` takes the
    steps and the first k cards as already played (by the test)."""
    deal = series.deal
    assert list(deal.deck) == script.deck()
    if resume is None:
        for pos, text in script.steps:
            series.apply(parse_action(text), deal.seat_of(pos))
    for i, card in enumerate(script.plays.split()):
        if resume is not None and i < resume:
            continue
        for pos, text in (extra or {}).get(i, ()):
            series.apply(parse_action(text), deal.seat_of(pos))
        seat = deal.current_seat
        assert seat is not None
        series.apply(parse_action(f"play {card}"), seat)
    assert deal.is_terminal()
    return series.rows[-1]


def act(series: Series, pos: int, text: str) -> None:
    """Apply an action of the seat at position ``pos`` of the current deal."""
    series.apply(parse_action(text), series.deal.seat_of(pos))


def refused(series: Series, code: Reason, pos: int, text: str) -> None:
    rejected(code, act, series, pos, text)


def scripted_list(options: ListOptions, scripts: Sequence[Script], **kw: Any) -> Series:
    """A list whose decks are the scripts' decks (one deal per script)."""
    assert options.deals_per_list == len(scripts)
    return Series(options, decks=[s.deck() for s in scripts], commit="x", **kw)


def play_list(options: ListOptions, scripts: Sequence[Script], **kw: Any) -> Series:
    series = scripted_list(options, scripts, **kw)
    for i, script in enumerate(scripts):
        if i:
            series.next_deal()
        play(series, script)
    assert series.is_over()
    return series


def rejected(code: Reason, fn: Callable[..., Any], *args: Any) -> None:
    with pytest.raises(IllegalActionError) as info:
        fn(*args)
    assert info.value.code == code, info.value


def lost_bonus(players: int) -> int:
    return 40 if players == 3 else 30


def declarer_seat(row: SheetRow) -> int:
    assert row.declarer is not None
    return row.declarer


def all_pass_to_the_end(series: Series) -> None:
    while not series.is_over():
        if series.deal.is_terminal():
            series.next_deal()
            continue
        seat = series.deal.current_seat
        assert seat is not None
        series.apply(Pass(), seat)


# --------------------------------------------------------------- scripts are what they say
def test_scripted_deals_are_what_they_claim() -> None:
    """The facts each script stands for, on a bare deal (R5-R7, R9.1)."""
    from skat.engine import Rules

    facts: dict[str, tuple[Script, int, int, int, bool | None]] = {
        # name: (script, declarer points, declarer tricks, value, won)
        "clubs_36": (CLUBS_36, 62, 4, 36, True),
        "hearts_20_lost": (HEARTS_20_LOST, 59, 4, 20, False),
        "grand_72": (GRAND_72, 88, 7, 72, True),
        "sixty": (SIXTY, 60, 4, 18, False),
        "kontra_lost": (KONTRA_LOST, 41, 2, 18, False),
        "kontra_re_won": (KONTRA_RE_WON, 84, 6, 22, True),
        "value_100": (VALUE_100, 72, 7, 120, True),
        "grand_hand": (GRAND_HAND, 73, 7, 72, True),
        "schneider": (SCHNEIDER, 111, 8, 27, True),
        "schwarz": (SCHWARZ, 120, 10, 63, True),
        "ex_k4": (EX_K4, 50, 5, 20, False),
        "ex_k5": (EX_K5, 70, 5, 24, True),
    }
    for name, (script, points, tricks, value, won) in facts.items():
        deal = Deal(script.deck(), rules=Rules(kontra=True))
        for pos, text in script.steps:
            deal.apply(parse_action(text), deal.seat_of(pos))
        for card in script.plays.split():
            deal.apply(parse_action(f"play {card}"))
        r = deal.result
        assert r is not None and r.kind == "game", name
        assert (r.declarer_points, r.declarer_tricks, r.value, r.won) == (
            points,
            tricks,
            value,
            won,
        ), name
        assert len(deal.tricks) == 10, name


# --------------------------------------------------------------------- R1.6 rotation
@pytest.mark.parametrize(
    ("players", "first_dealer"), [(3, d) for d in range(3)] + [(4, d) for d in range(4)]
)
def test_dealer_rotation_and_default_length(players: int, first_dealer: int) -> None:
    """R1.6: the deal passes to the left after every deal, thrown-in deals
    included; a list is 36 deals at three players, 48 at four; R1.4 seats."""
    options = ListOptions(players=players, first_dealer=first_dealer)  # type: ignore[arg-type]
    assert options.deals_per_list == 12 * players
    series = Series(options, seed=bytes(32))
    seen_dealers = []
    while True:
        deal = series.deal
        n = players
        assert deal.dealer == (first_dealer + series.number - 1) % n
        assert series.dealer == deal.dealer
        # R1.4: Vorhand is the dealer's left; at three the dealer is Hinterhand,
        # at four he sits out and Hinterhand is his right.
        assert deal.seat_of(V) == (deal.dealer + 1) % n
        assert deal.seat_of(M) == (deal.dealer + 2) % n
        assert deal.seat_of(H) == (deal.dealer + 3) % n
        if n == 4:
            assert deal.position_of(deal.dealer) is None
            rejected(Reason.NOT_A_PLAYER, series.apply, Pass(), deal.dealer)
        seen_dealers.append(deal.dealer)
        for pos in (M, H, V):  # all pass: thrown in (R2.6)
            series.apply(Pass(), deal.seat_of(pos))
        if series.is_over():
            break
        series.next_deal()
    assert len(series.rows) == len(series.deals) == 12 * players
    assert [r.number for r in series.rows] == list(range(1, 12 * players + 1))
    assert all(r.kind == "passed" for r in series.rows)
    assert [r.dealer for r in series.rows] == seen_dealers
    assert all(a != b for a, b in itertools.pairwise(seen_dealers))
    # Everyone dealt once per round: twelve times each.
    assert all(seen_dealers.count(s) == 12 for s in range(players))
    assert all(t.total == 0 and t.seeger_fabian == 0 for t in series.totals())
    rejected(Reason.LIST_OVER, series.next_deal)


def test_default_options_are_r0_4() -> None:
    """R0.4 defaults."""
    o = ListOptions()
    assert (o.players, o.deals_per_list, o.first_dealer, o.scoring, o.all_pass) == (
        3,
        36,
        0,
        "seeger_fabian",
        "einpassen",
    )
    assert (o.kontra, o.kontra_window, o.kontra_requires_bid) == (False, "own_first_card", False)
    assert (o.bock, o.bock_count, o.bock_overlap, o.ramsch_after_bock) == (
        False,
        "per_deal",
        "queue",
        False,
    )
    assert o.bock_triggers == DEFAULT_BOCK_TRIGGERS
    assert DEFAULT_BOCK_TRIGGERS == {"sixty_sixty", "kontra_re", "kontra_lost", "value_100"}
    assert ListOptions(players=4).deals_per_list == 48
    assert ListOptions(deals=5).deals_per_list == 5


# ------------------------------------------------------------------ R10 list codes
def test_list_over_deal_over_wrong_phase() -> None:
    """R10: DEAL_OVER after a settled deal until next_deal, WRONG_PHASE for
    next_deal while a deal runs, LIST_OVER after the last deal."""
    series = scripted_list(ListOptions(deals=2), [THROWN_IN, CLUBS_36])
    rejected(Reason.WRONG_PHASE, series.next_deal)  # deal 1 is running
    play(series, THROWN_IN)
    assert not series.is_over()
    for seat in range(3):
        rejected(Reason.DEAL_OVER, series.apply, Pass(), seat)
        rejected(Reason.DEAL_OVER, series.apply, Play(Card.CA), seat)
        rejected(Reason.DEAL_OVER, series.apply, Bid(18), seat)
    assert (series.number, len(series.rows)) == (1, 1)  # nothing changed
    series.next_deal()
    rejected(Reason.WRONG_PHASE, series.next_deal)
    for pos, text in CLUBS_36.steps[:2]:
        series.apply(parse_action(text), series.deal.seat_of(pos))
    rejected(Reason.WRONG_PHASE, series.next_deal)  # mid-auction
    play(series, CLUBS_36.but(CLUBS_36.steps[2:]))
    assert series.is_over()
    for seat in range(3):
        rejected(Reason.LIST_OVER, series.apply, Pass(), seat)
        rejected(Reason.LIST_OVER, series.apply, Play(Card.CA), seat)
    rejected(Reason.LIST_OVER, series.next_deal)
    assert (series.number, len(series.rows)) == (2, 2)


def test_four_players_codes_precedence_for_the_dealer() -> None:
    """R10 order: LIST_OVER, DEAL_OVER before NOT_A_PLAYER (the dealer at four)."""
    series = scripted_list(ListOptions(players=4, deals=2), [THROWN_IN, THROWN_IN])
    dealer = series.dealer
    rejected(Reason.NOT_A_PLAYER, series.apply, Pass(), dealer)
    rejected(Reason.NOT_A_PLAYER, series.apply, Bid(18), dealer)
    play(series, THROWN_IN)
    rejected(Reason.DEAL_OVER, series.apply, Pass(), dealer)
    series.next_deal()
    play(series, THROWN_IN)
    rejected(Reason.LIST_OVER, series.apply, Pass(), series.dealer)
    rejected(Reason.LIST_OVER, series.apply, Pass(), 7)


# ------------------------------------------------------------------ four players
@pytest.mark.parametrize("first_dealer", range(4))
def test_four_players_dealer_gets_30_for_a_lost_game(first_dealer: int) -> None:
    """R1.4, R8.2, EX-26: the dealer sits out (NOT_A_PLAYER) and, under
    Seeger-Fabian, gets +30 like both defenders when the declarer loses."""
    options = ListOptions(players=4, deals=1, first_dealer=first_dealer)
    series = scripted_list(options, [HEARTS_20_LOST])
    dealer = series.dealer
    assert dealer == first_dealer
    rejected(Reason.NOT_A_PLAYER, series.apply, Pass(), dealer)
    deal = series.deal
    for pos, text in HEARTS_20_LOST.steps:
        series.apply(parse_action(text), deal.seat_of(pos))
    # In card play too: the dealer holds no cards and may not play or double.
    rejected(Reason.NOT_A_PLAYER, series.apply, Play(Card.CA), dealer)
    rejected(Reason.NOT_A_PLAYER, series.apply, Kontra(), dealer)
    row = play(series, HEARTS_20_LOST.but(()))
    declarer = deal.seat_of(H)
    assert declarer == (dealer + 3) % 4
    assert (row.kind, row.declarer, row.value, row.won) == ("game", declarer, 20, False)
    plain = [0, 0, 0, 0]
    plain[declarer] = -40
    sf = [30, 30, 30, 30]
    sf[declarer] = -90
    assert list(row.plain) == plain
    assert list(row.seeger_fabian) == sf
    t = series.totals()
    assert t[dealer].lost_by_others == 1
    assert t[dealer].seeger_fabian == 30 == seeger_fabian_formula(t[dealer], 4)


@pytest.mark.parametrize("first_dealer", range(4))
def test_four_players_dealer_scores_zero_in_ramsch(first_dealer: int) -> None:
    """R9.1: at four players the dealer sits out a Ramsch and scores 0; Ramsch
    is scored as in the plain list under Seeger-Fabian too (no 30)."""
    options = ListOptions(players=4, deals=1, first_dealer=first_dealer, all_pass="ramsch")
    series = scripted_list(options, [RAMSCH_R1])
    row = play(series, RAMSCH_R1)
    deal = series.deal
    assert row.kind == "ramsch"
    expected = [0, 0, 0, 0]
    expected[deal.seat_of(H)] = -61
    assert list(row.plain) == expected
    assert list(row.seeger_fabian) == expected
    assert row.plain[first_dealer] == 0
    assert row.ramsch_points is not None
    assert row.ramsch_points[first_dealer] == 0
    assert sorted(row.ramsch_points) == [0, 18, 41, 61]


# ------------------------------------------------------------------ R8.6 worked list
def test_r8_6_worked_list_played_through_a_series() -> None:
    """R8.6 with real deals: A wins Clubs 36, B loses Hearts 20, thrown in,
    C wins Grand 72; totals +126/-90/+162; ranking C, A, B; R8.3."""
    options = ListOptions(deals=4)
    series = play_list(
        options, [CLUBS_36, HEARTS_20_LOST, THROWN_IN, GRAND_72], names=["A", "B", "C"]
    )
    rows = series.rows
    assert [(r.kind, r.declarer, r.value, r.won) for r in rows] == [
        ("game", 0, 36, True),
        ("game", 1, 20, False),
        ("passed", None, 0, None),
        ("game", 2, 72, True),
    ]
    assert rows[0].game == "Clubs" and rows[1].game == "Hearts" and rows[3].game == "Grand"
    # R8.5: matadors (signed: with/without), bid, card points and tricks, dealer.
    assert [r.matadors for r in rows] == [-2, 1, 0, 2]
    assert [r.bid for r in rows] == [18, 20, 0, 18]
    assert [(r.declarer_points, r.declarer_tricks) for r in rows[:2]] == [(62, 4), (59, 4)]
    assert [r.dealer for r in rows] == [0, 1, 2, 0]
    assert [(r.bock_factor, r.ramsch_round, r.kontra, r.overbid) for r in rows] == [
        (1, False, False, False)
    ] * 4
    assert [list(r.plain) for r in rows] == [[36, 0, 0], [0, -40, 0], [0, 0, 0], [0, 0, 72]]
    assert [list(r.seeger_fabian) for r in rows] == [
        [86, 0, 0],
        [40, -90, 40],
        [0, 0, 0],
        [0, 0, 122],
    ]
    t = series.totals()
    assert [x.game_points for x in t] == [36, -40, 72]
    assert [x.seeger_fabian for x in t] == [126, -90, 162]
    assert [x.total for x in t] == [126, -90, 162]
    assert [(x.won, x.lost, x.lost_by_others) for x in t] == [(1, 0, 1), (0, 1, 0), (1, 0, 1)]
    # R8.3: A = 36 + 50 + 40, B = -40 - 50, C = 72 + 50 + 40.
    assert [seeger_fabian_formula(x, 3) for x in t] == [126, -90, 162]
    ranking = [x.seat for x in sorted(t, key=lambda x: x.place)]
    assert ranking == [2, 0, 1]
    assert [x.place for x in t] == [2, 3, 1]
    # The same deals on a plain list: +36 / -40 / +72, still C, A, B.
    plain = totals(rows, 3, "plain")
    assert [x.total for x in plain] == [36, -40, 72]
    assert [x.place for x in plain] == [2, 3, 1]


def _game_row(number: int, declarer: int, won: bool, value: int, players: int = 3) -> SheetRow:
    plain = [0] * players
    plain[declarer] = value if won else -2 * value
    sf = [0 if won else lost_bonus(players)] * players
    sf[declarer] = plain[declarer] + (50 if won else -50)
    return SheetRow(
        number=number,
        dealer=(number - 1) % players,
        kind="game",
        declarer=declarer,
        game="Clubs",
        matadors=1,
        bid=18,
        declarer_points=61 if won else 59,
        declarer_tricks=5,
        won=won,
        overbid=False,
        value=value,
        kontra=False,
        re=False,
        bock_factor=1,
        ramsch_round=False,
        plain=tuple(plain),
        seeger_fabian=tuple(sf),
    )


def _places(rows: list[SheetRow], scoring: str = "plain") -> list[int]:
    return [t.place for t in totals(rows, 3, scoring)]


def test_r8_4_tie_break_more_games_won() -> None:
    """R8.4 (1): equal totals, more games won ranks higher."""
    # Seat 0: one game won, +40. Seat 1: two games won, +20 + 20.
    rows = [_game_row(1, 0, True, 40), _game_row(2, 1, True, 20), _game_row(3, 1, True, 20)]
    t = totals(rows, 3, "plain")
    assert [x.total for x in t] == [40, 40, 0]
    assert _places(rows) == [2, 1, 3]


def test_r8_4_tie_break_fewer_games_lost() -> None:
    """R8.4 (2): equal totals and games won, fewer games lost ranks higher."""
    # Seat 0: won 60, lost 18 (-36): +24, 1 won 1 lost. Seat 1: won 24: 1 won 0 lost.
    rows = [_game_row(1, 0, True, 60), _game_row(2, 0, False, 18), _game_row(3, 1, True, 24)]
    t = totals(rows, 3, "plain")
    assert [x.total for x in t] == [24, 24, 0]
    assert [(x.won, x.lost) for x in t] == [(1, 1), (1, 0), (0, 0)]
    assert _places(rows) == [2, 1, 3]


def test_r8_4_still_tied_share_a_place() -> None:
    """R8.4 [Decision]: players still tied after both tie-breaks share a place."""
    rows = [_game_row(1, 0, True, 36), _game_row(2, 1, True, 36)]
    places = _places(rows)
    assert places[0] == places[1] == 1
    assert places[2] > 1
    # Seeger-Fabian: two games lost by seat 2 give seats 0 and 1 +80 each.
    rows = [_game_row(1, 2, False, 20), _game_row(2, 2, False, 20)]
    t = totals(rows, 3, "seeger_fabian")
    assert [x.total for x in t] == [80, 80, -180]
    assert [x.place for x in t][:2] == [1, 1] and t[2].place > 1
    # Everybody at 0 (all thrown in): one shared first place.
    series = Series(ListOptions(deals=3), seed=bytes(32))
    all_pass_to_the_end(series)
    assert [x.place for x in series.totals()] == [1, 1, 1]


def test_totals_say_how_a_tie_was_settled() -> None:
    """R8.4: the sheet can name the tie-break that decided (issue 14)."""
    won = totals(
        [_game_row(1, 0, True, 40), _game_row(2, 1, True, 20), _game_row(3, 1, True, 20)],
        3,
        "plain",
    )
    assert [t.tie_break for t in won] == ["won", "won", None]
    rows = [_game_row(1, 0, True, 60), _game_row(2, 0, False, 18), _game_row(3, 1, True, 24)]
    assert [t.tie_break for t in totals(rows, 3, "plain")] == ["lost", "lost", None]
    shared = totals([_game_row(1, 0, True, 36), _game_row(2, 1, True, 36)], 3, "plain")
    assert [t.tie_break for t in shared] == ["shared", "shared", None]


def test_tie_break_uses_the_active_scoring() -> None:
    """R8.4: ranked by the total under the active scoring."""
    # Seat 1 loses once (plain -40, SF -90, others +40).
    rows = [_game_row(1, 0, True, 18), _game_row(2, 1, False, 20)]
    sf = totals(rows, 3, "seeger_fabian")
    assert [x.total for x in sf] == [108, -90, 40]
    assert [x.place for x in sf] == [1, 3, 2]
    plain = totals(rows, 3, "plain")
    assert [x.total for x in plain] == [18, -40, 0]
    assert [x.place for x in plain] == [1, 3, 2]


# ------------------------------------------------------------------------ R9.3 Kontra
def _kontra_list(window: str, **kw: Any) -> Series:
    options = ListOptions(deals=1, kontra=True, kontra_window=window, **kw)  # type: ignore[arg-type]
    return scripted_list(options, [CLUBS_36])


def _assert_clubs_36_with(row: SheetRow, factor: int, kontra: bool, re: bool) -> None:
    """CLUBS_36 (H wins Clubs, value 36) with a Kontra/Re factor (R9.3, R9.6)."""
    d = declarer_seat(row)
    assert (row.kontra, row.re, row.value, row.won, row.bock_factor) == (kontra, re, 36, True, 1)
    assert row.plain[d] == 36 * factor
    assert sum(row.plain) == row.plain[d]
    assert row.seeger_fabian[d] == 36 * factor + 50  # the 50 is never multiplied
    assert [row.seeger_fabian[s] for s in range(3) if s != d] == [0, 0]


def _phase(series: Series) -> Phase:
    return series.deal.phase


def _announce(series: Series, script: Script = CLUBS_36) -> None:
    for pos, text in script.steps:
        act(series, pos, text)


def test_kontra_re_own_first_card_window() -> None:
    """R9.3 own_first_card: a defender may double until he plays his own first
    card (not turn-bound); Re comes at once and blocks card play; x4."""
    series = _kontra_list("own_first_card")
    _announce(series)
    refused(series, Reason.KONTRA_NOT_ALLOWED, H, "kontra")  # the declarer
    refused(series, Reason.RE_NOT_ALLOWED, H, "re")  # no Kontra yet
    act(series, V, "play CA")
    refused(series, Reason.KONTRA_NOT_ALLOWED, V, "kontra")  # V has played his card
    act(series, M, "kontra")  # M has not, although it is his turn to play
    refused(series, Reason.RE_DECISION_PENDING, M, "play CK")
    refused(series, Reason.RE_NOT_ALLOWED, V, "re")  # a defender
    act(series, H, "re")
    refused(series, Reason.RE_NOT_ALLOWED, H, "re")  # a second time
    row = play(series, CLUBS_36, resume=1)
    _assert_clubs_36_with(row, 4, True, True)


def test_kontra_re_first_lead_window() -> None:
    """R9.3 first_lead: after the announcement the defenders answer in order
    V, M (skipping the declarer); after a Kontra the declarer answers Re; only
    then may Vorhand lead."""
    series = _kontra_list("first_lead")
    _announce(series)
    assert _phase(series) is Phase.KONTRA
    with pytest.raises(IllegalActionError):
        act(series, V, "play CA")  # no card before the answers
    refused(series, Reason.NOT_YOUR_TURN, M, "no_kontra")  # V answers first
    act(series, V, "no_kontra")
    act(series, M, "kontra")
    with pytest.raises(IllegalActionError):
        act(series, V, "play CA")  # the Re decision is outstanding
    act(series, H, "re")
    assert _phase(series) is Phase.PLAY
    row = play(series, CLUBS_36, resume=0)
    _assert_clubs_36_with(row, 4, True, True)


def test_kontra_first_lead_window_closes_with_the_answers() -> None:
    """R9.3 first_lead: only before the first card; both answered no_kontra."""
    series = _kontra_list("first_lead")
    _announce(series)
    act(series, V, "no_kontra")
    act(series, M, "no_kontra")
    refused(series, Reason.KONTRA_NOT_ALLOWED, M, "kontra")
    act(series, V, "play CA")
    refused(series, Reason.KONTRA_NOT_ALLOWED, M, "kontra")
    row = play(series, CLUBS_36, resume=1)
    _assert_clubs_36_with(row, 1, False, False)


def test_kontra_trick_one_window() -> None:
    """R9.3 trick_one: Kontra until the last card of the first trick, even
    by a defender who has played; Kontra without Re doubles (x2)."""
    series = _kontra_list("trick_one")
    _announce(series)
    act(series, V, "play CA")
    act(series, M, "play CK")
    act(series, V, "kontra")
    refused(series, Reason.RE_DECISION_PENDING, H, "play C9")
    act(series, H, "no_re")
    refused(series, Reason.RE_NOT_ALLOWED, H, "re")  # after no_re
    row = play(series, CLUBS_36, resume=2)
    _assert_clubs_36_with(row, 2, True, False)


def test_kontra_trick_one_window_closes_after_the_first_trick() -> None:
    series = _kontra_list("trick_one")
    _announce(series)
    for card in ("CA", "CK", "C9"):
        seat = series.deal.current_seat
        assert seat is not None
        series.apply(parse_action(f"play {card}"), seat)
    assert len(series.deal.tricks) == 1
    refused(series, Reason.KONTRA_NOT_ALLOWED, V, "kontra")
    refused(series, Reason.KONTRA_NOT_ALLOWED, M, "kontra")
    row = play(series, CLUBS_36, resume=3)
    _assert_clubs_36_with(row, 1, False, False)


def test_kontra_off_and_kontra_requires_bid() -> None:
    """R9.3: no Kontra when the option is off; with kontra_requires_bid only
    a defender who named or held a value may double."""
    series = scripted_list(ListOptions(deals=1), [CLUBS_36])
    _announce(series)
    refused(series, Reason.KONTRA_NOT_ALLOWED, V, "kontra")
    refused(series, Reason.KONTRA_NOT_ALLOWED, M, "kontra")
    # KONTRA_LOST's auction: M bids 18, V holds, M and H pass; V declares.
    options = ListOptions(deals=1, kontra=True, kontra_requires_bid=True)
    series = scripted_list(options, [KONTRA_LOST])
    _announce(series, KONTRA_LOST.but(_KONTRA_OPENING))
    refused(series, Reason.KONTRA_NOT_ALLOWED, H, "kontra")  # H never bid
    row = play(series, KONTRA_LOST, resume=0, extra={0: ((M, "kontra"), (V, "no_re"))})
    assert row.kontra and not row.re


def test_kontra_lost_game_r9_6() -> None:
    """R9.6: a lost game with Kontra: -2 x 18 x 2 = -72; SF -122, +40 each
    (the 50 and the 40 are not multiplied)."""
    options = ListOptions(deals=1, kontra=True)
    series = play_list(options, [KONTRA_LOST])
    row = series.rows[0]
    d = declarer_seat(row)
    assert (row.kontra, row.re, row.value, row.won) == (True, False, 18, False)
    assert row.plain[d] == -72 and sum(row.plain) == -72
    assert row.seeger_fabian[d] == -122
    assert [row.seeger_fabian[s] for s in range(3) if s != d] == [40, 40]


def test_no_kontra_in_ramsch() -> None:
    """R9.3, R9.1: Kontra/Re do not exist in Ramsch, neither after all pass
    nor in a Ramsch round (R9.5)."""
    options = ListOptions(deals=1, kontra=True, all_pass="ramsch")
    series = scripted_list(options, [RAMSCH_R1])
    _announce(series, RAMSCH_R1)
    assert _phase(series) is Phase.PLAY
    for pos in (V, M, H):
        refused(series, Reason.KONTRA_NOT_ALLOWED, pos, "kontra")
    row = play(series, RAMSCH_R1, resume=0)
    assert row.kind == "ramsch" and not row.kontra
    options = ListOptions(deals=5, kontra=True, bock=True, ramsch_after_bock=True)
    series = scripted_list(options, [SIXTY] + [CLUBS_36] * 3 + [RAMSCH_ROUND])
    play(series, SIXTY)
    for _ in range(3):
        series.next_deal()
        play(series, CLUBS_36)
    series.next_deal()
    assert series.deal.forced_ramsch
    for pos in (V, M, H):
        refused(series, Reason.KONTRA_NOT_ALLOWED, pos, "kontra")
    row = play(series, RAMSCH_ROUND)
    assert row.ramsch_round and not row.kontra


# -------------------------------------------------------------------------- R9.4 Bock
def _trigger_cases() -> list[Any]:
    return [
        pytest.param(name, trigger, id=f"{name}-{trigger}")
        for name in TRIGGER_DEALS
        for trigger in BOCK_TRIGGERS
    ]


@pytest.mark.parametrize(("name", "trigger"), _trigger_cases())
def test_each_bock_trigger(name: str, trigger: str) -> None:
    """R9.4: each trigger fires exactly for the deals that meet it; a Bock
    round (3 deals at three players) starts with the next deal, never with the
    triggering one."""
    script, fires = TRIGGER_DEALS[name]
    options = ListOptions(deals=2, kontra=True, bock=True, bock_triggers=frozenset({trigger}))
    series = scripted_list(options, [script, CLUBS_36])
    row = play(series, script)
    assert row.bock_factor == 1
    assert series.pending_bock == (("bock",) * 3 if trigger in fires else ())
    assert row.bock_fired == ((trigger,) if trigger in fires else ())  # the sheet says why
    assert row.to_dict()["bock_fired"] == list(row.bock_fired)
    series.next_deal()
    row = play(series, CLUBS_36)
    factor = 2 if trigger in fires else 1
    assert row.bock_factor == factor
    assert row.plain[declarer_seat(row)] == 36 * factor
    assert row.seeger_fabian[declarer_seat(row)] == 36 * factor + 50


@pytest.mark.parametrize("name", list(TRIGGER_DEALS))
def test_default_bock_triggers(name: str) -> None:
    """R9.4 [Decision]: by default triggers 1-4 (sixty_sixty, kontra_re,
    kontra_lost, value_100) fire; grand_hand, schneider and schwarz do not."""
    script, fires = TRIGGER_DEALS[name]
    series = scripted_list(ListOptions(deals=2, kontra=True, bock=True), [script, CLUBS_36])
    play(series, script)
    assert series.pending_bock == (("bock",) * 3 if fires & DEFAULT_BOCK_TRIGGERS else ())


@pytest.mark.parametrize("name", list(TRIGGER_DEALS))
@pytest.mark.parametrize("count", ["per_deal", "per_trigger"])
def test_bock_count(name: str, count: str) -> None:
    """R9.4: per_deal adds one round for a deal that fires at least one
    trigger; per_trigger one round per fired trigger."""
    script, fires = TRIGGER_DEALS[name]
    options = ListOptions(
        deals=2,
        kontra=True,
        bock=True,
        bock_triggers=frozenset(BOCK_TRIGGERS),
        bock_count=count,  # type: ignore[arg-type]
    )
    series = scripted_list(options, [script, CLUBS_36])
    play(series, script)
    rounds = (1 if fires else 0) if count == "per_deal" else len(fires)
    assert series.pending_bock == ("bock",) * (3 * rounds)


@pytest.mark.parametrize("players", [3, 4])
def test_bock_round_is_one_deal_per_player(players: int) -> None:
    """R9.4: a Bock round is one deal per player; Bock doubles the game
    points; the triggering deal itself is not Bock; the 50/40/30 are not
    multiplied."""
    n = players
    options = ListOptions(players=n, deals=n + 2, bock=True)  # type: ignore[arg-type]
    series = play_list(options, [SIXTY] + [CLUBS_36] * (n + 1))
    rows = series.rows
    assert [r.bock_factor for r in rows] == [1] + [2] * n + [1]
    first = rows[0]
    d = declarer_seat(first)
    assert first.plain[d] == -36 and first.seeger_fabian[d] == -86
    assert [first.seeger_fabian[s] for s in range(n) if s != d] == [lost_bonus(n)] * (n - 1)
    for row in rows[1:]:
        d = declarer_seat(row)
        factor = row.bock_factor
        assert row.plain[d] == 36 * factor
        assert row.seeger_fabian[d] == 36 * factor + 50
    assert series.pending_bock == ()


@pytest.mark.parametrize(
    ("overlap", "factors"),
    [("queue", [1, 2, 2, 2, 2, 2, 2]), ("stack", [1, 2, 4, 4, 2, 1, 1])],
)
def test_bock_overlap_queue_and_stack(overlap: str, factors: list[int]) -> None:
    """R9.4: two triggering deals in a row. queue: the second round follows the
    first, no deal is more than x2; stack: the second round starts at once and
    a deal covered by k rounds counts 2^k."""
    options = ListOptions(deals=7, kontra=True, bock=True, bock_overlap=overlap)  # type: ignore[arg-type]
    series = play_list(options, [KONTRA_LOST, KONTRA_LOST] + [CLUBS_36] * 5)
    rows = series.rows
    assert [r.bock_factor for r in rows] == factors
    # Deal 2: Diamonds 18 lost, Kontra x2, Bock x2: -144; SF -194 and +40 each (R9.6).
    second = rows[1]
    d = declarer_seat(second)
    assert second.plain[d] == -144
    assert second.seeger_fabian[d] == -194
    assert [second.seeger_fabian[s] for s in range(3) if s != d] == [40, 40]
    for row in rows[2:]:
        d = declarer_seat(row)
        assert row.plain[d] == 36 * row.bock_factor
        assert row.seeger_fabian[d] == 36 * row.bock_factor + 50


def test_bock_stack_pending_shows_the_factors() -> None:
    """R9.4 stack, seen through `pending_bock` ("bock xF" per coming deal)."""
    options = ListOptions(deals=3, kontra=True, bock=True, bock_overlap="stack")
    series = scripted_list(options, [KONTRA_LOST, KONTRA_LOST, CLUBS_36])
    play(series, KONTRA_LOST)
    assert series.pending_bock == ("bock x2",) * 3
    series.next_deal()
    assert list(series.pending_bock) == ["bock x2", "bock x2"]
    play(series, KONTRA_LOST)
    assert list(series.pending_bock) == ["bock x4", "bock x4", "bock x2"]


def test_thrown_in_deal_consumes_a_bock_deal() -> None:
    """R9.4 [Decision], R8.5: a thrown-in deal uses up one Bock deal."""
    options = ListOptions(deals=5, bock=True)
    series = play_list(options, [SIXTY, THROWN_IN, CLUBS_36, THROWN_IN, CLUBS_36])
    rows = series.rows
    assert [r.kind for r in rows] == ["game", "passed", "game", "passed", "game"]
    assert [r.bock_factor for r in rows] == [1, 2, 2, 2, 1]
    for row in (rows[1], rows[3]):
        assert row.plain == (0, 0, 0) and row.seeger_fabian == (0, 0, 0)
    assert rows[2].plain[declarer_seat(rows[2])] == 72
    assert rows[4].plain[declarer_seat(rows[4])] == 36


def test_ramsch_entries_are_doubled_in_bock_ex_r7() -> None:
    """R9.4, R9.1 [Decision], EX-R7: all pass in a Bock deal with
    all_pass=ramsch is a Ramsch whose entries are doubled: 61/41/18 -> -122."""
    options = ListOptions(deals=2, bock=True, all_pass="ramsch")
    series = play_list(options, [SIXTY, RAMSCH_R1])
    row = series.rows[1]
    assert (row.kind, row.bock_factor, row.ramsch_round) == ("ramsch", 2, False)
    deal = series.deal
    assert row.ramsch_points is not None
    assert [row.ramsch_points[deal.seat_of(p)] for p in (V, M, H)] == [18, 41, 61]
    expected = [0, 0, 0]
    expected[deal.seat_of(H)] = -122
    assert list(row.plain) == expected
    assert list(row.seeger_fabian) == expected  # no 50/40 in Ramsch (R8.2)
    t = series.totals()
    assert all(seeger_fabian_formula(x, 3) == x.seeger_fabian for x in t)


@pytest.mark.parametrize("players", [3, 4])
def test_kontra_and_bock_factors_ex_k4_ex_k5(players: int) -> None:
    """R9.6 EX-K4 and EX-K5 as real deals of a list, in a Bock round:
    Hearts with 1, bid 20, 50 pts, Kontra: -160, SF -210 / +40 (+30 at four);
    Clubs with 1, bid 24, 70 pts, Kontra: +96, SF +146 / 0."""
    n = players
    options = ListOptions(players=n, deals=3, kontra=True, bock=True)  # type: ignore[arg-type]
    series = play_list(options, [SIXTY, EX_K4, EX_K5])
    k4, k5 = series.rows[1], series.rows[2]
    d = declarer_seat(k4)
    assert (k4.value, k4.won, k4.kontra, k4.re, k4.bock_factor) == (20, False, True, False, 2)
    assert k4.declarer_points == 50
    assert k4.plain[d] == -160 and sum(k4.plain) == -160
    assert k4.seeger_fabian[d] == -210
    assert [k4.seeger_fabian[s] for s in range(n) if s != d] == [lost_bonus(n)] * (n - 1)
    d = declarer_seat(k5)
    assert (k5.value, k5.won, k5.kontra, k5.re, k5.bock_factor) == (24, True, True, False, 2)
    assert k5.declarer_points == 70
    assert k5.plain[d] == 96 and sum(k5.plain) == 96
    assert k5.seeger_fabian[d] == 146
    assert [k5.seeger_fabian[s] for s in range(n) if s != d] == [0] * (n - 1)


def test_pending_bock_lapses_when_the_list_ends() -> None:
    """R9.4: pending Bock deals lapse at the end of the list: it still ends
    after deals_per_list deals."""
    options = ListOptions(deals=3, bock=True)
    series = play_list(options, [CLUBS_36, CLUBS_36, SIXTY])
    assert series.is_over()
    assert [r.bock_factor for r in series.rows] == [1, 1, 1]
    rejected(Reason.LIST_OVER, series.next_deal)
    rejected(Reason.LIST_OVER, series.apply, Pass(), 0)
    assert len(series.rows) == len(series.deals) == 3
    series = play_list(options, [SIXTY, CLUBS_36, CLUBS_36])  # one Bock deal left over
    assert series.is_over()
    assert [r.bock_factor for r in series.rows] == [1, 2, 2]
    rejected(Reason.LIST_OVER, series.next_deal)
    assert len(series.deals) == 3
    t = series.totals()
    assert [x.seeger_fabian for x in t] == [
        sum(r.seeger_fabian[s] for r in series.rows) for s in range(3)
    ]


def test_nothing_is_pending_after_the_list_ends() -> None:
    """R9.4: "Pending Bock deals lapse when the list ends": once the last deal
    is settled no deal is coming, so nothing may be shown as pending."""
    series = play_list(ListOptions(deals=2, bock=True), [CLUBS_36, SIXTY])
    assert series.is_over()
    assert series.pending_bock == ()


# ------------------------------------------------------------ R9.5 Ramsch after Bock
@pytest.mark.parametrize("players", [3, 4])
def test_ramsch_round_follows_the_bock_round(players: int) -> None:
    """R9.5: a Bock round is followed by a Ramsch round: one compulsory Ramsch
    per player, without bidding, Vorhand leads, scored by R9.1, not Bock; both
    rounds count towards the list length."""
    n = players
    options = ListOptions(players=n, deals=2 * n + 2, bock=True, ramsch_after_bock=True)  # type: ignore[arg-type]
    scripts = [SIXTY] + [CLUBS_36] * n + [RAMSCH_ROUND] * n + [CLUBS_36]
    series = scripted_list(options, scripts)
    play(series, SIXTY)
    assert series.pending_bock == ("bock",) * n + ("ramsch",) * n
    for _ in range(n):
        series.next_deal()
        assert series.deal.phase is Phase.BIDDING
        row = play(series, CLUBS_36)
        assert (row.bock_factor, row.ramsch_round) == (2, False)
        assert row.plain[declarer_seat(row)] == 72
    for _ in range(n):
        series.next_deal()
        deal = series.deal
        assert deal.phase is Phase.PLAY and deal.forced_ramsch
        assert deal.current_seat == deal.seat_of(V)
        refused(series, Reason.WRONG_PHASE, M, "bid 18")
        refused(series, Reason.WRONG_PHASE, M, "pass")
        refused(series, Reason.WRONG_PHASE, V, "pickup")
        row = play(series, RAMSCH_ROUND)
        assert (row.kind, row.ramsch_round, row.bock_factor) == ("ramsch", True, 1)
        expected = [0] * n
        expected[deal.seat_of(H)] = -61
        assert list(row.plain) == expected and list(row.seeger_fabian) == expected
        assert not row.kontra
    series.next_deal()
    row = play(series, CLUBS_36)
    assert (row.bock_factor, row.ramsch_round, row.kind) == (1, False, "game")
    assert series.is_over()
    assert len(series.rows) == 2 * n + 2


def test_ramsch_round_queue_order_per_trigger() -> None:
    """R9.5 with per_trigger: every fired trigger queues "Bock round, Ramsch
    round"; first in, first out."""
    options = ListOptions(
        deals=2, kontra=True, bock=True, bock_count="per_trigger", ramsch_after_bock=True
    )
    series = scripted_list(options, [KONTRA_RE_LOST, CLUBS_36])
    play(series, KONTRA_RE_LOST)  # fires kontra_re and kontra_lost
    b, r = ("bock",) * 3, ("ramsch",) * 3
    assert series.pending_bock == b + r + b + r


def test_ramsch_round_queue_order_with_a_trigger_in_a_bock_deal() -> None:
    """R9.5: a round triggered during a Bock round is queued after the pending
    Bock and Ramsch deals."""
    options = ListOptions(deals=3, bock=True, ramsch_after_bock=True)
    series = scripted_list(options, [SIXTY, SIXTY, CLUBS_36])
    play(series, SIXTY)
    series.next_deal()
    row = play(series, SIXTY)
    assert row.bock_factor == 2
    assert row.plain[declarer_seat(row)] == -72
    assert series.pending_bock == ("bock",) * 2 + ("ramsch",) * 3 + ("bock",) * 3 + ("ramsch",) * 3


def test_ramsch_after_bock_requires_queue() -> None:
    """R9.5: ramsch_after_bock with bock_overlap=stack is not defined: refused."""
    with pytest.raises(ValueError):
        ListOptions(bock=True, ramsch_after_bock=True, bock_overlap="stack")
    with pytest.raises(ValueError):
        ListOptions(ramsch_after_bock=True, bock_overlap="stack")
    with pytest.raises(ValueError):
        ListOptions.from_dict({"bock": True, "ramsch_after_bock": True, "bock_overlap": "stack"})
    ListOptions(bock=True, ramsch_after_bock=True, bock_overlap="queue")  # accepted


# ------------------------------------------------------------------- random lists
def _expected_ramsch(points: Sequence[int], tricks: Sequence[int], factor: int) -> list[int]:
    """R9.1 entries per active player, independently of the engine."""
    for i, t in enumerate(tricks):
        if t == 10:  # Durchmarsch
            return [120 * factor if j == i else 0 for j in range(3)]
    top = max(points)
    jungfrau = 2 if 0 in tricks else 1
    return [-top * jungfrau * factor if p == top else 0 for p in points]


def _fired(deal: Deal, row: SheetRow) -> tuple[set[str], bool]:
    """R9.4 triggers of a settled deal, and whether Schneider/Schwarz are
    undecided (a deal ended early, R6.6, where "achieved" has no clear reading)."""
    fired: set[str] = set()
    r = deal.result
    if row.kind != "game" or r is None or r.contract is None:
        return fired, False
    game = r.contract.game
    full = len(deal.tricks) == 10
    if game != GameType.NULL and full and row.declarer_points == 60:
        fired.add("sixty_sixty")
    if row.kontra and row.re:
        fired.add("kontra_re")
    if row.kontra and not row.won:
        fired.add("kontra_lost")
    if row.value >= 100:
        fired.add("value_100")
    if game == GameType.GRAND and r.contract.hand and row.won:
        fired.add("grand_hand")
    undecided = False
    if game != GameType.NULL:
        if full:
            if row.declarer_points >= 90 or row.declarer_points <= 30:
                fired.add("schneider")
            if row.declarer_tricks in (0, 10):
                fired.add("schwarz")
        else:
            undecided = True
    return fired, undecided


def check_list(series: Series) -> None:
    """R8.2, R8.3, R8.4, R9.1, R9.4-R9.6 and R12 on a finished list."""
    o = series.options
    n = o.players
    rows = series.rows
    assert series.is_over()
    assert len(rows) == len(series.deals) == o.deals_per_list
    queue: list[str] = []
    stack: list[int] = []
    model = True  # the Bock model is exact until an undecided deal
    for i, (row, deal) in enumerate(zip(rows, series.deals, strict=True)):
        # R12: one deal number and one seat per deal.
        assert row.number == i + 1
        assert row.dealer == deal.dealer == (o.first_dealer + i) % n
        # R9.4 / R9.5: the factor and Ramsch-round marker of this deal.
        factor, ramsch_round = 1, False
        if o.bock and o.bock_overlap == "queue" and queue:
            kind = queue.pop(0)
            factor, ramsch_round = (1, True) if kind == "ramsch" else (2, False)
        elif o.bock and o.bock_overlap == "stack":
            factor = 2 ** len(stack)
            stack = [k - 1 for k in stack if k > 1]
        if model:
            assert (row.bock_factor, row.ramsch_round) == (factor, ramsch_round), i + 1
            assert deal.forced_ramsch == ramsch_round
        if row.ramsch_round:
            assert row.kind == "ramsch" and row.bock_factor == 1
        # Entries (R8.1, R8.2, R9.1, R9.6).
        if row.kind == "passed":
            assert row.plain == row.seeger_fabian == (0,) * n
            assert row.declarer is None
        elif row.kind == "ramsch":
            assert row.ramsch_points is not None and sum(row.ramsch_points) == 120
            tricks = [sum(1 for t in deal.tricks if t.winner == p) for p in range(3)]
            points = [row.ramsch_points[deal.seat_of(p)] for p in range(3)]
            entries = _expected_ramsch(points, tricks, row.bock_factor)
            expected = [0] * n
            for p in range(3):
                expected[deal.seat_of(p)] = entries[p]
            assert list(row.plain) == expected
            assert row.seeger_fabian == row.plain
            assert not row.kontra and not row.re
        else:
            assert row.kind == "game"
            d = declarer_seat(row)
            assert d != row.dealer or n == 3
            kf = 4 if row.re else 2 if row.kontra else 1
            game_points = (row.value if row.won else -2 * row.value) * kf * row.bock_factor
            assert row.plain[d] == game_points
            assert sum(row.plain) == row.plain[d]  # R12 plain-list invariant
            assert row.seeger_fabian[d] == game_points + (50 if row.won else -50)
            other = 0 if row.won else lost_bonus(n)
            assert [row.seeger_fabian[s] for s in range(n) if s != d] == [other] * (n - 1)
        # Triggers of this deal.
        fired, undecided = _fired(deal, row)
        if undecided and {"schneider", "schwarz"} & o.bock_triggers:
            model = False
        fired &= o.bock_triggers
        rounds = len(fired) if o.bock_count == "per_trigger" else int(bool(fired))
        if o.bock:
            for _ in range(rounds):
                if o.bock_overlap == "queue":
                    queue += ["bock"] * n + (["ramsch"] * n if o.ramsch_after_bock else [])
                else:
                    stack.append(n)
    if not o.bock:
        assert all(r.bock_factor == 1 and not r.ramsch_round for r in rows)
    # R8.3 for every player, computed from the rows alone.
    t = series.totals()
    games = [r for r in rows if r.kind == "game"]
    for seat in range(n):
        game_points = sum(r.plain[seat] for r in rows)
        won = sum(1 for r in games if r.declarer == seat and r.won)
        lost = sum(1 for r in games if r.declarer == seat and not r.won)
        by_others = sum(1 for r in games if r.declarer != seat and not r.won)
        sf = sum(r.seeger_fabian[seat] for r in rows)
        assert sf == game_points + (won - lost) * 50 + by_others * lost_bonus(n)
        x = t[seat]
        assert (x.seat, x.game_points, x.won, x.lost, x.lost_by_others, x.seeger_fabian) == (
            seat,
            game_points,
            won,
            lost,
            by_others,
            sf,
        )
        assert seeger_fabian_formula(x, n) == sf
        assert x.total == (sf if o.scoring == "seeger_fabian" else game_points)
    # R8.4: places follow (total, more won, fewer lost); ties share a place.
    for a in t:
        for b in t:
            ka, kb = (-a.total, -a.won, a.lost), (-b.total, -b.won, b.lost)
            if ka < kb:
                assert a.place < b.place
            elif ka == kb:
                assert a.place == b.place
    assert min(x.place for x in t) == 1


TRIGGER_SETS = st.one_of(
    st.just(DEFAULT_BOCK_TRIGGERS),
    st.just(frozenset(BOCK_TRIGGERS)),
    st.frozensets(st.sampled_from(BOCK_TRIGGERS), min_size=1),
)


@st.composite
def list_options(draw: st.DrawFn) -> ListOptions:
    players: Any = draw(st.sampled_from((3, 4)))
    overlap: Any = draw(st.sampled_from(("queue", "stack")))
    return ListOptions(
        players=players,
        deals=draw(st.integers(6, 12)),
        first_dealer=draw(st.integers(0, players - 1)),
        scoring=draw(st.sampled_from(("seeger_fabian", "plain"))),
        all_pass=draw(st.sampled_from(("einpassen", "ramsch"))),
        kontra=draw(st.booleans()),
        kontra_window=draw(st.sampled_from(("own_first_card", "first_lead", "trick_one"))),
        kontra_requires_bid=draw(st.booleans()),
        bock=draw(st.booleans()),
        bock_triggers=draw(TRIGGER_SETS),
        bock_count=draw(st.sampled_from(("per_deal", "per_trigger"))),
        bock_overlap=overlap,
        ramsch_after_bock=overlap == "queue" and draw(st.booleans()),
    )


def random_list(options: ListOptions, rng: random.Random, pass_bias: float) -> Series:
    """Play a list to the end with uniformly random legal actions; with
    ``pass_bias`` > 0 a bidder passes with that probability (more thrown-in
    and Ramsch deals)."""
    seed = bytes(rng.getrandbits(8) for _ in range(32))
    series = Series(options, seed=seed)
    while True:
        deal = series.deal
        if deal.is_terminal():
            if series.is_over():
                break
            assert series.seed is None  # R1.6 / fairness: hidden until the end
            number, dealer = series.number, series.dealer
            series.next_deal()
            assert series.number == number + 1  # R12
            assert series.dealer == (dealer + 1) % options.players
            continue
        seat = deal.current_seat
        assert seat is not None
        legal = deal.legal_actions()
        if pass_bias and deal.phase is Phase.BIDDING and Pass() in legal:
            if rng.random() < pass_bias:
                series.apply(Pass(), seat)
                continue
        series.apply(legal[rng.randrange(len(legal))], seat)
    assert series.seed == seed
    return series


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=list_options(),
    rng_seed=st.integers(0, 2**32 - 1),
    pass_bias=st.sampled_from((0.0, 0.0, 0.7)),
)
def test_random_lists_keep_the_invariants(
    options: ListOptions, rng_seed: int, pass_bias: float
) -> None:
    """Random lists under many option combinations: R8.2/R8.3 per player, the
    plain-list invariant, deal counter and dealer (R12), the Bock model
    (R9.4/R9.5) and an exact replay of the JSON record."""
    series = random_list(options, random.Random(rng_seed), pass_bias)
    check_list(series)
    data = json.loads(json.dumps(list_record(series)))
    rebuilt = replay_list(data)
    assert rebuilt.problems == []
    assert [r.to_dict() for r in rebuilt.series.rows] == [r.to_dict() for r in series.rows]
    assert rebuilt.series.is_over()
    assert verify_list(data) == []


def test_player_total_type() -> None:
    """`totals` hands out one PlayerTotal per seat, in seat order."""
    t = totals([], 4, "seeger_fabian")
    assert [x.seat for x in t] == [0, 1, 2, 3]
    assert all(isinstance(x, PlayerTotal) and x.total == 0 and x.place == 1 for x in t)


def _snapshot(series: Series) -> tuple[Any, ...]:
    deal = series.deal
    n = series.options.players
    return (
        series.number,
        len(series.rows),
        deal.history,
        deal.phase,
        deal.current_seat,
        series.pending_bock,
        tuple(deal.hand(s) for s in range(n)),
        deal.skat,
        deal.current_trick,
    )


@settings(max_examples=40, deadline=None)
@given(options=list_options(), rng_seed=st.integers(0, 2**32 - 1))
def test_rejected_actions_leave_the_list_unchanged(options: ListOptions, rng_seed: int) -> None:
    """R10: a rejected action (any seat, any action, next_deal at any time)
    leaves the list exactly as it was."""
    from skat.engine import Announce, Contract, Discard, Hold, NoKontra, NoRe, Pickup, Re

    rng = random.Random(rng_seed)
    series = Series(options, seed=bytes(rng.getrandbits(8) for _ in range(32)))
    cards = list(Card)
    contracts = [Contract.parse(t) for t in ("clubs", "grand hand", "null", "hearts hand schwarz")]
    pool = [
        Pass(),
        Hold(),
        Bid(18),
        Bid(19),
        Bid(264),
        Pickup(),
        Kontra(),
        Re(),
        NoRe(),
        NoKontra(),
    ]
    while True:
        for _ in range(3):
            seat = rng.randrange(options.players + 1)
            kind = rng.randrange(4)
            if kind == 0:
                action: Any = pool[rng.randrange(len(pool))]
            elif kind == 1:
                action = Play(rng.choice(cards))
            elif kind == 2:
                action = Discard(tuple(rng.sample(cards, 2)))
            else:
                action = Announce(rng.choice(contracts))
            before = _snapshot(series)
            try:
                series.apply(action, seat)
            except IllegalActionError:
                assert _snapshot(series) == before
        before = _snapshot(series)
        try:
            series.next_deal()
        except IllegalActionError as exc:
            assert exc.code in (Reason.WRONG_PHASE, Reason.LIST_OVER)
            assert _snapshot(series) == before
        if series.is_over():
            break
        deal = series.deal
        if not deal.is_terminal():
            legal = deal.legal_actions()
            series.apply(legal[rng.randrange(len(legal))], deal.current_seat)  # type: ignore[arg-type]
    check_list(series)
