"""The skill figure (issue 48, point 4): Glicko-2 as Glickman's worked
example computes it, the computer levels placed by their own review, and a
person's figure moving with play quality and the result apart from the
cards, never with raw points; its uncertainty narrows list by list."""

from __future__ import annotations

import pytest

from skat.players.rating import LEVEL_LOSS, LEVEL_RATINGS, Glicko, level_rating, skill, update


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06
    beats 1400/30 and loses to 1550/100 and 1700/300."""
    after = update(
        Glicko(1500, 200, 0.06),
        [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    idle = update(Glicko(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.rd > 200


def test_the_levels_sit_where_their_own_review_puts_them() -> None:
    assert LEVEL_RATINGS["casual"] == 1500
    assert LEVEL_RATINGS["beginner"] < LEVEL_RATINGS["casual"] < LEVEL_RATINGS["strong"]
    for name, loss in LEVEL_LOSS.items():
        assert level_rating(loss) == LEVEL_RATINGS[name]


def _lists(n: int, loss: float, play: float) -> list[dict[str, float]]:
    return [{"average_loss": loss, "decisions": 30, "play": play, "deals": 3}] * n


@pytest.mark.parametrize("level", sorted(LEVEL_LOSS))
def test_a_person_deciding_like_a_level_reads_as_that_level(level: str) -> None:
    k = skill(_lists(12, LEVEL_LOSS[level], 0.0))
    assert k["like"] == level
    assert k["low"] < LEVEL_RATINGS[level] < k["high"]


def test_the_figure_moves_with_play_quality_and_luck_adjusted_results() -> None:
    base = skill(_lists(6, 3.28, 0.0))
    assert skill(_lists(6, 2.0, 0.0))["rating"] > base["rating"]  # better decisions
    assert skill(_lists(6, 6.0, 0.0))["rating"] < base["rating"]  # worse decisions
    assert skill(_lists(6, 3.28, 60.0))["rating"] > base["rating"]  # more made from play
    # a lucky list (its cards promised much, so "play" is low) with poor
    # decisions lowers the figure, whatever it scored in raw points
    assert skill(_lists(6, 8.0, -40.0))["rating"] < base["rating"]
    # the uncertainty narrows with every list; none reviewed: none claimed
    rds = [skill(_lists(n, 3.28, 0.0))["rd"] for n in (1, 3, 9)]
    assert rds == sorted(rds, reverse=True) and rds[0] < 350
    none = skill([{"average_loss": 0.0, "decisions": 0, "play": 0.0, "deals": 3}])
    assert (none["lists"], none["like"], none["rd"]) == (0, None, 350)
