"""The learned hand evaluator (issue 25, point 2): its training script is
reproducible from a seed, and the shipped data file judges plain hands the
way any Skat player would (R5 for the values, R8.2 for the expectation).
"""

from __future__ import annotations

import random

import pytest
from bench.strength.train_handeval import SCHNEIDER_CURVE, force, main, solved_labels, train

from skat.engine import Card, Contract, Deal, GameType, parse_action
from skat.engine.actions import Pass
from skat.engine.deal import deck_from_hands
from skat.players.club import ClubPlayer
from skat.players.handeval import Chances, considered, default, expected_result, game_value
from skat.players.search.settings import NULL_HIDDEN, WIN_CURVE
from tests.helpers.hands import FOUR_JACKS_SIX_CLUBS
from tests.helpers.players import play_until

# Forehand (seat 0 with the dealer at seat 2) with four jacks and six clubs;
# with sevens, eights and two nines (no game but Null: a Null hand, R3.3);
# with kings, queens and nines (no game at all).
STRONG = FOUR_JACKS_SIX_CLUBS
WEAK = [
    ["S7", "S8", "H7", "H8", "D7", "D8", "C7", "C8", "S9", "H9"],
    ["SJ", "HJ", "CA", "CT", "CK", "CQ", "SK", "SQ", "HK", "HQ"],
    ["DJ", "C9", "SA", "ST", "CJ", "HA", "DK", "DQ", "D9", "HT"],
]
MIDDLING = [
    ["SK", "SQ", "S9", "HK", "HQ", "H9", "DK", "DQ", "CK", "C8"],
    ["CJ", "SJ", "CA", "CT", "CQ", "C9", "C7", "SA", "ST", "S8"],
    ["HJ", "DJ", "HA", "HT", "H8", "H7", "DA", "DT", "D9", "D8"],
]
SKATS = {"strong": ["C7", "D7"], "low": ["DA", "DT"], "middling": ["S7", "D7"]}


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= Card.parse(c).bit
    return m


@pytest.mark.slow
def test_the_training_gives_the_same_weights_for_the_same_seed() -> None:
    one = train(60, seed=5, jobs=1)
    again = train(60, seed=5, jobs=2)  # two processes, the same examples in order
    other = train(60, seed=6, jobs=1)
    assert one == again
    assert one["weights"] != other["weights"]
    weights = one["weights"]
    assert isinstance(weights, dict) and {"suit", "grand"} <= set(weights)
    # every model has a bias and one weight per feature, finite
    for stages in weights.values():
        for targets in stages.values():
            for w in targets.values():
                assert len(w) > 1 and all(abs(x) < 1e6 for x in w)


@pytest.mark.slow
def test_solved_labels_are_reproducible_and_soft() -> None:
    one = train(20, seed=5, jobs=1, solved=1.0)
    assert one == train(20, seed=5, jobs=2, solved=1.0)
    assert one["weights"] != train(20, seed=5, jobs=1)["weights"]
    # the labels are chances through search's curves, not 0 or 1 per game
    examples = one["examples"]
    assert isinstance(examples, dict)
    won = [n for stages in examples.values() for _, n, _ in stages.values()]
    assert any(n != int(n) for n in won)


def _deck(hands: list[list[str]], skat: str) -> list[Card]:
    return deck_from_hands(hands, SKATS[skat])


def test_solved_labels_read_the_open_card_outcome_through_searchs_curves() -> None:
    # four jacks and six clubs (R5.2): Clubs Hand takes every trick with the
    # cards open, so its labels are the top tier of each curve
    deal, _ = force(_deck(STRONG, "strong"), 2, 0, GameType.CLUBS, True)
    assert solved_labels(deal, GameType.CLUBS) == (WIN_CURVE[0][1], SCHNEIDER_CURVE[0][1])
    # sevens and eights: Null Hand is won open-card (R3.3)
    deal, _ = force(_deck(WEAK, "low"), 2, 0, GameType.NULL, True)
    assert solved_labels(deal, GameType.NULL) == (1.0, 0.0)
    # kings, queens and nines forced to play Hearts Hand against two jacks
    # each and the trump aces: below 41 card points, the lowest tier
    deal, _ = force(_deck(MIDDLING, "middling"), 2, 0, GameType.HEARTS, True)
    assert solved_labels(deal, GameType.HEARTS) == (WIN_CURVE[-1][1], 0.0)
    # a Null the solve loses counts as won in NULL_HIDDEN of the games
    # (the defenders do not see the cards)
    deal, _ = force(_deck(STRONG, "strong"), 2, 1, GameType.NULL, True)
    assert solved_labels(deal, GameType.NULL) == (NULL_HIDDEN, 0.0)


def test_solved_labels_follow_the_curves_given() -> None:
    """`train_handeval --win-curve`/`--grand-curve`: the labels read the
    same open-card outcome through other curves (a calibration against
    other defenders)."""
    curve = ((61, 0.9), (53, 0.7), (0, 0.2))
    grand = ((61, 0.8), (0, 0.1))
    deal, _ = force(_deck(STRONG, "strong"), 2, 0, GameType.CLUBS, True)
    assert solved_labels(deal, GameType.CLUBS, (curve, grand)) == (0.9, SCHNEIDER_CURVE[0][1])
    deal, _ = force(_deck(MIDDLING, "middling"), 2, 0, GameType.HEARTS, True)
    assert solved_labels(deal, GameType.HEARTS, (curve, grand)) == (0.2, 0.0)
    deal, _ = force(_deck(MIDDLING, "middling"), 2, 0, GameType.GRAND, True)
    assert solved_labels(deal, GameType.GRAND, (curve, grand)) == (0.1, 0.0)


@pytest.mark.parametrize("text", ["53:0.9/61:0.5/0:0.1", "61:0.9/41:0.5", "61:1.5/0:0.1", "x"])
def test_a_bad_curve_is_refused_with_a_reason(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--deals", "1", "--win-curve", text])
    assert exit_.value.code == 2
    assert "--win-curve" in capsys.readouterr().err


def test_four_jacks_and_six_clubs_win_clubs() -> None:
    hand = _mask(STRONG[0])
    ev = default()
    for stage in ("pickup", "hand"):
        ch = ev.chances(hand, GameType.CLUBS, 0, stage)
        assert ch.win > 0.95, (stage, ch)
        assert ch.schneider > 0.3, (stage, ch)
        value = game_value(GameType.CLUBS, hand, hand=stage == "hand")
        # with ten matadors (four jacks, CA to C8): game 11, Hand 12 (R5.2)
        assert value == (10 + 1 + int(stage == "hand")) * 12
        assert expected_result(ch, GameType.CLUBS, value, 18) > 50
    # a suit game is the better one for this hand than Diamonds or Null
    assert not considered(hand, GameType.NULL)
    clubs = ev.chances(hand, GameType.CLUBS, 0, "pickup").win
    assert clubs > ev.chances(hand, GameType.DIAMONDS, 0, "pickup").win


def test_sevens_and_eights_lose_every_game_but_null() -> None:
    hand = _mask(WEAK[0])
    ev = default()
    assert considered(hand, GameType.NULL)
    assert ev.chances(hand, GameType.NULL, 0, "hand").win > 0.8
    for game in (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS):
        assert not considered(hand, game)  # no trumps to speak of
        assert ev.chances(hand, game, 0, "pickup").win < 0.2
    assert not considered(hand, GameType.GRAND)
    assert ev.chances(hand, GameType.GRAND, 0, "pickup").win < 0.1


def _first_bid(hands: list[list[str]], skat: list[str]) -> tuple[Deal, int]:
    deal = Deal(deck_from_hands(hands, skat))
    seat = deal.current_seat
    assert seat is not None
    return deal, seat


@pytest.mark.parametrize(
    ("hands", "skat", "holds"),
    [(STRONG, "strong", True), (WEAK, "low", True), (MIDDLING, "middling", False)],
    ids=["four jacks", "sevens and eights", "kings and queens"],
)
def test_club_holds_what_its_hand_supports(hands: list[list[str]], skat: str, holds: bool) -> None:
    deal, seat = _first_bid(hands, SKATS[skat])
    # middlehand bids first (R4.2): it says 18 and forehand answers
    assert seat == 1
    deal.apply(parse_action("bid 18"), seat=seat)
    action = ClubPlayer().choose(deal.view(0))
    assert isinstance(action, Pass) is not holds, action


def test_the_expectation_counts_a_lost_game_double_and_the_defenders_forty() -> None:
    # R8.2: won +value+50; lost -2*value-50 and 40 to each of two defenders
    assert expected_result(Chances(1.0, 0.0), GameType.HEARTS, 40) == 90
    assert expected_result(Chances(0.0, 0.0), GameType.HEARTS, 40) == -(80 + 90)
    # a game worth less than the bid is lost at the bid unless Schneider lifts it
    assert expected_result(Chances(1.0, 0.0), GameType.HEARTS, 20, 30) == -(60 + 90)
    assert expected_result(Chances(1.0, 1.0), GameType.HEARTS, 20, 30) == 80


def test_the_defenders_forty_weighs_as_the_player_is_told() -> None:
    """``forty`` (issue 53, point 2): how much the 40 each defender gains
    from a lost game (R8.2) counts in the declarer's choices. Without it a
    game is worth more to the declarer's own entry, so a hand bids at least
    as far, and a doubtful game promises more by 40 times its loss chance."""
    from skat.players.handeval import bid_limit, hand_game

    ch = Chances(0.6, 0.1)
    one = expected_result(ch, GameType.HEARTS, 40)
    assert expected_result(ch, GameType.HEARTS, 40, forty=0.0) == pytest.approx(one + 40 * 0.4)
    assert expected_result(ch, GameType.HEARTS, 40, forty=0.5) == pytest.approx(one + 20 * 0.4)
    assert expected_result(Chances(0.0, 0.0), GameType.HEARTS, 20, 30, forty=0.0) == -(60 + 50)
    ev = default()
    rng = random.Random(8)
    deck = [str(c) for c in Card]
    looser = 0
    for _ in range(300):
        rng.shuffle(deck)
        hand = _mask(deck[:10])
        bold, wary = bid_limit(ev, hand, 0, forty=0.0), bid_limit(ev, hand, 0)
        assert bold >= wary
        looser += bold > wary
    assert looser > 0  # some hands bid on only when the 40s are not counted
    strong = _mask(STRONG[0])
    assert hand_game(ev, strong, 0, 18, 5.0, forty=0.0) == hand_game(ev, strong, 0, 18, 5.0)


def test_the_put_aways_are_ranked_best_first_and_the_best_is_clubs() -> None:
    """`put_aways` values every pair put away with every game the ten kept
    cards are considered for (R3.2: the declarer puts two cards away after
    the pickup), best first; its head is `best_put_away`'s choice, and a
    `games` restriction leaves the others out."""
    from skat.engine.cards import POINTS, mask_cards
    from skat.players.handeval import best_put_away, counted_result, put_aways

    ev = default()
    twelve = _mask([*STRONG[0], "H7", "SA"])
    ranked = put_aways(ev, twelve, 0, 18)
    scores = [s for s, _, _ in ranked]
    assert scores == sorted(scores, reverse=True)
    assert len({(m, g) for _, m, g in ranked}) == len(ranked)
    best = best_put_away(ev, twelve, 0, 18)
    assert best == ranked[0]
    # four jacks and six clubs play Clubs, and the lone H7 goes away
    assert best[2] == GameType.CLUBS
    assert "H7" in [str(c) for c in mask_cards(best[1])]
    for s, mask, g in ranked[:20]:
        kept = twelve & ~mask
        assert considered(kept, g, counted=True)
        pts = sum(POINTS[c] for c in mask_cards(mask))
        assert s == counted_result(ev, kept, twelve, pts, 0, 18, g) + pts / 100
    only_grand = put_aways(ev, twelve, 0, 18, (GameType.GRAND,))
    assert only_grand and {g for _, _, g in only_grand} == {GameType.GRAND}
    assert [r for r in ranked if r[2] == GameType.GRAND] == only_grand


# A hand whose best game (Clubs with one jack, with two missing: 3 x 12) the
# evaluator takes to 36 when nobody bids against it.
CONTESTED = ["C7", "C9", "CQ", "CT", "D7", "D9", "DA", "HJ", "S7", "SQ"]
SHIFTS = ((24, -1.0), (36, -0.3), (48, -0.6))


def test_a_bid_against_the_hand_lowers_its_chances_on_the_logistic_scale() -> None:
    import math

    from skat.players.handeval import contested

    ch = Chances(0.8, 0.3)
    assert contested(ch, 0, SHIFTS) == ch
    assert contested(ch, 23, SHIFTS) == ch  # below the first threshold
    assert contested(ch, 48, ()) == ch
    assert contested(Chances(0.0, 0.0), 48, SHIFTS) == Chances(0.0, 0.0)
    # 0.8 is log-odds ln 4; a bid of 24 against it moves that by -1
    assert contested(ch, 24, SHIFTS).win == pytest.approx(1 / (1 + math.exp(1.0 - math.log(4))))
    last = ch
    for shown in (24, 36, 48):  # each threshold reached adds its shift
        c = contested(ch, shown, SHIFTS)
        assert c.win < last.win and c.schneider < last.schneider <= last.win
        assert c.schneider <= c.win
        last = c
    assert contested(ch, 60, SHIFTS) == contested(ch, 48, SHIFTS)


def test_a_contested_auction_lowers_the_limit_of_a_middling_hand_only() -> None:
    from skat.players.handeval import bid_limit

    ev = default()
    hand = _mask(CONTESTED)
    assert bid_limit(ev, hand, 0) == 36
    assert bid_limit(ev, hand, 0, shown=0, shifts=SHIFTS) == 36  # nobody bid
    assert bid_limit(ev, hand, 0, shown=24, shifts=SHIFTS) == 0
    # four jacks and six clubs go on over whatever was shown
    strong = _mask(STRONG[0])
    assert bid_limit(ev, strong, 0) >= bid_limit(ev, strong, 0, shown=48, shifts=SHIFTS) > 96


def test_club_passes_a_middling_hand_when_another_seat_bids_against_it() -> None:
    """Middlehand bids 24 to forehand (R4.2); forehand's hand is worth 36
    alone, but a seat that bids 24 holds what will sit against it."""
    from skat.players.worlds import Knowledge

    rest = [str(c) for c in Card if str(c) not in CONTESTED]
    hands = [CONTESTED, rest[:10], rest[10:20]]
    deal = Deal(deck_from_hands(hands, rest[20:]))
    assert deal.current_seat == 1
    deal.apply(parse_action("bid 24"), seat=1)
    view = deal.view(0)
    assert Knowledge.from_view(view).shown_by_others == 24
    assert Knowledge.from_view(deal.view(1)).shown_by_others == 0
    wary = ClubPlayer()  # the shipped shifts (handeval.CONTEST)
    assert isinstance(wary.choose(view), Pass)
    plain = ClubPlayer()
    plain.contest = ()  # the rule before: the hand alone
    assert not isinstance(plain.choose(view), Pass)  # holds 24
    # the third seat sees both: forehand held 24, middlehand bid it
    deal.apply(parse_action("hold"), seat=0)
    assert Knowledge.from_view(deal.view(2)).shown_by_others == 24


def test_the_players_value_games_under_the_tables_matador_cap() -> None:
    """Issue 50, point 3: the bids of `club` and `search` follow the table's
    rules: with every jack and six clubs ("with 10") a Clubs game is worth 11
    x 12 by the ISkO and "with 4, game 5" x 12 where the table caps the
    matadors at 4, and the bidding stops by the capped values."""
    from skat.engine import Rules
    from skat.players.handeval import bid_limit

    strong = "CJ SJ HJ DJ CA CT CK CQ C9 C8".split()
    hand = sum(1 << int(Card.parse(c)) for c in strong)
    assert game_value(GameType.CLUBS, hand) == 11 * 12
    assert game_value(GameType.CLUBS, hand, rules=Rules(max_matadors=4)) == 5 * 12
    # capped at 2, the best is a Grand "with 2, game 3, Hand 4, Schneider 5"
    capped = Rules(max_matadors=2)
    assert bid_limit(default(), hand, 0) > 5 * 24 >= bid_limit(default(), hand, 0, rules=capped)
    others = ["SA ST SK SQ S9 S8 S7 HA HT HK".split(), "HQ H9 H8 H7 DA DT DK DQ D9 D8".split()]
    for rules in (Rules(), capped):
        deal = Deal(deck_from_hands([strong, *others], ["C7", "D7"]), rules=rules)
        view = deal.view(deal.seat_of(0))
        limit = ClubPlayer(random.Random(1))._limit(view)
        assert limit == bid_limit(default(), hand, 0, rules=rules)


def test_a_cold_grand_is_played_hand_by_both_levels() -> None:
    """Four jacks, the four aces and two tens win a Grand whatever the
    others hold (EX-18/EX-20: Schwarz even): both levels announce Grand
    Hand (R3.3) rather than pick up, from any position, and bid on past
    what the plain Grand is worth without Hand (R5.2: with 4, game 5,
    Hand 6, times 24)."""
    from skat.engine import Announce, Contract, Deal, Hold
    from skat.players.handeval import HAND_MARGIN, bid_limit, hand_game
    from skat.players.search import SearchPlayer

    cold = "CJ SJ HJ DJ CA SA HA DA CT ST".split()
    ev = default()
    for position in range(3):
        assert hand_game(ev, _mask(cold), position, 18, HAND_MARGIN) == Contract(
            GameType.GRAND, hand=True
        )
    assert bid_limit(ev, _mask(cold), 0) >= 6 * 24
    others = [
        "CK CQ C9 C8 C7 SK SQ S9 S8 S7".split(),
        "HT HK HQ H9 H8 DT DK DQ D9 D8".split(),
    ]
    for player in (ClubPlayer(random.Random(4)), SearchPlayer(random.Random(4))):
        deal = Deal(deck_from_hands([cold, *others], ["H7", "D7"]))
        deal.apply(parse_action("bid 18"), seat=1)
        assert player.choose(deal.view(0)) == Hold()
        deal.apply(Hold(), seat=0)
        deal.apply(parse_action("pass"), seat=1)
        deal.apply(parse_action("pass"), seat=2)
        assert player.choose(deal.view(0)) == Announce(Contract(GameType.GRAND, hand=True))


def _grand_discards(grand_pairs: int | None, count: int) -> list[tuple[int, int]]:
    """(twelve cards, the two put away) of `club`'s first ``count`` discards
    for a Grand on deals whose auction and pickup `club` plays itself."""
    from skat.engine import Discard, Phase
    from skat.series.shuffle import deal_deck

    out: list[tuple[int, int]] = []
    for number in range(1, 4000):
        deal = Deal(deal_deck(bytes(range(32)), number))
        players = [ClubPlayer(random.Random(s)) for s in range(3)]
        for p in players:
            p.grand_pairs = grand_pairs
        seat = play_until(deal, players, Phase.DISCARD)
        if seat is None:
            continue
        view = deal.view(seat)
        put = players[seat].choose(view)
        assert isinstance(put, Discard)
        deal.apply(put, seat)
        announce = players[seat].choose(deal.view(seat))
        if getattr(announce, "contract", None) == Contract(GameType.GRAND):
            out.append((view.hand.mask, (1 << put.cards[0]) | (1 << put.cards[1])))
            if len(out) == count:
                break
    return out


def test_club_puts_away_for_grand_what_the_quick_score_ranks_among_its_best_three() -> None:
    """The evaluator's own choice among all 66 pairs puts away what a Grand
    needs (forced Grand pickups won 0.525 of their games with it, 0.597 with a
    count's discard: docs/lab/strength-log.md); `club` now values only the
    quick score's best three pairs for Grand, as `search` solves them."""
    from skat.players.club import GRAND_PAIRS
    from skat.players.search.contract import best_discards

    seen = _grand_discards(GRAND_PAIRS, 12)
    assert len(seen) == 12
    for hand12, put in seen:
        assert put in best_discards(hand12, GameType.GRAND, GRAND_PAIRS)
    # the rule before chose elsewhere on these deals at least once
    before = _grand_discards(None, 12)
    assert any(put not in best_discards(h, GameType.GRAND, GRAND_PAIRS) for h, put in before)
