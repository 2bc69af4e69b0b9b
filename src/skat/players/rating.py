"""A skill figure from play quality and luck-adjusted results (issue 48,
point 4): Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013)
over a person's reviewed lists, with its uncertainty.

A reviewed list is one rating period with four games:

- one against each computer level, on play quality: the level's place is
  where its own decisions put it in the same review (`bench.strength.
  review_levels`: the average loss per decision of each level's own
  decisions in the arena), and the person scores ``L_level / (L + L_level)``
  against it, ``L`` being the person's average loss per decision in the
  list (as little loss as the level: 0.5; half of it: 0.67). With that
  score a level of loss ``L`` sits at ``1500 + 400 log10(L_casual / L)``
  on the Elo scale, so the casual level is 1500 and the others follow from
  their measured losses (`LEVEL_RATINGS`);
- one against an equal opponent (the person's own rating), on the list's
  result apart from the cards (the review's luck against play: what was
  made minus what the cards promised, per deal): ``1 / (1 + exp(-p / 25))``
  for ``p`` Seeger-Fabian points a deal from play (+25 a deal scores 0.73).

Raw points move nothing: a lucky list with poor decisions lowers the
figure. The figure is told with its 95% interval (two rating deviations)
and the level whose place is nearest ("you play about like casual").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: Glicko-2's scale factor (400 / ln 10) and its system constant tau.
SCALE = 173.7178
TAU = 0.5
EPSILON = 1e-6

#: The levels' average loss per decision of their own decisions, judged by
#: the review (docs/benchmarks.md, "The review of each level": 160 deals,
#: seeds 1 and 2 pooled): the places of the levels on the rating scale.
LEVEL_LOSS = {"beginner": 11.77, "casual": 3.28, "strong": 2.01}
#: The loss a decision at which a list scores as much as the casual level.
CASUAL = LEVEL_LOSS["casual"]
#: Seeger-Fabian points a deal from play that score 0.73 against an equal.
PLAY_SCALE = 25.0


@dataclass(frozen=True)
class Glicko:
    """A rating (Elo scale), its deviation and its volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def update(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player`` after one rating period of ``games`` (opponent, score in
    [0, 1]), by Glicko-2's steps 2-8; no games: only the deviation grows."""
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500) / SCALE
        g = _g(opponent.rd / SCALE)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(mu_new * SCALE + 1500, phi_new * SCALE, sigma_new)


def level_rating(loss: float) -> float:
    """The place on the rating scale of an average loss per decision."""
    return 1500 + 400 * math.log10(CASUAL / loss)


#: The computer levels' places (beginner about 1278, casual 1500, strong 1585).
LEVEL_RATINGS = {name: level_rating(loss) for name, loss in LEVEL_LOSS.items()}
#: A level's place is measured over 160 deals: known to within this deviation.
LEVEL_RD = 50.0


def list_games(
    player: Glicko, average_loss: float, play: float, deals: int
) -> list[tuple[Glicko, float]]:
    """One reviewed list's games: against each level on play quality, and
    against an equal on the result apart from the cards."""
    loss = max(average_loss, 0.05)  # a flawless list is very good, not infinitely
    games = [
        (Glicko(LEVEL_RATINGS[name], LEVEL_RD), level / (loss + level))
        for name, level in LEVEL_LOSS.items()
    ]
    per_deal = play / deals if deals else 0.0
    games.append((Glicko(player.rating, player.rd), 1 / (1 + math.exp(-per_deal / PLAY_SCALE))))
    return games


def skill(lists: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The skill figure over reviewed lists, oldest first, each
    ``{"average_loss", "decisions", "play", "deals"}`` (lists without a
    decision count for nothing): the rating, its deviation, its 95%
    interval, the level whose place is nearest, and the levels' places."""
    player = Glicko()
    counted = 0
    for x in lists:
        if not x["decisions"]:
            continue
        player = update(player, list_games(player, x["average_loss"], x["play"], x["deals"]))
        counted += 1
    like = min(LEVEL_RATINGS, key=lambda name: abs(LEVEL_RATINGS[name] - player.rating))
    return {
        "lists": counted,
        "rating": round(player.rating),
        "rd": round(player.rd),
        "low": round(player.rating - 2 * player.rd),
        "high": round(player.rating + 2 * player.rd),
        "like": like if counted else None,
        "levels": {name: round(r) for name, r in LEVEL_RATINGS.items()},
    }


__all__ = [
    "LEVEL_LOSS",
    "LEVEL_RATINGS",
    "Glicko",
    "level_rating",
    "list_games",
    "skill",
    "update",
]
