"""The declarer's Seeger-Fabian entries the strong player weighs: per outcome
class of a solved world, and by a prior's chances (R8.2, valued by the
engine's own `value_game` under the table's rules, ``rules``). ``forty``
weighs the 40 each defender gains from a lost game (R8.2) against the
declarer, as `handeval.FORTY`; 0 counts the declarer's own entry only."""

from __future__ import annotations

from ...engine import Contract, GameType, Rules
from ...engine.values import value_game
from ..handeval import Chances
from .settings import NULL_HIDDEN

#: Representative (card points, tricks) of each outcome class of a suit or Grand game.
LOST_SCHNEIDER = (25, 2)
LOST = (45, 4)
WON = (75, 6)
SCHNEIDER = (95, 8)
SCHWARZ = (120, 10)


def entry(
    c: Contract,
    bid: int,
    won: float,
    schneider: float,
    cards12: int,
    rules: Rules | None = None,
    forty: float = 0.0,
) -> float:
    """The declarer's entry for one solved world of ``c``: ``won`` is its
    win chance and ``schneider`` its Schneider chance (a Schneider chance
    above ``won`` counts as won too)."""
    if c.game == GameType.NULL:
        win = value_game(c, bid, 0, 0, cards12, rules=rules).seeger_fabian_entry()
        if won >= 0.5:
            return win
        loss = value_game(c, bid, 0, 1, cards12, rules=rules).seeger_fabian_entry() - 40 * forty
        hidden = 0.0 if c.ouvert else NULL_HIDDEN
        return hidden * win + (1 - hidden) * loss
    parts: tuple[tuple[float, tuple[int, int]], ...]
    if c.schneider:  # announced: a win without Schneider is lost
        parts = ((schneider, SCHNEIDER), (1 - schneider, LOST))
    else:
        w = max(won, schneider)
        parts = ((schneider, SCHNEIDER), (w - schneider, WON), (1 - w, LOST))
    # only the classes with a chance are valued (this runs per world and bid)
    return (
        sum(
            p * value_game(c, bid, *cls, cards12, rules=rules).seeger_fabian_entry()
            for p, cls in parts
            if p > 0
        )
        - 40 * forty * parts[-1][0]
    )


def prior_entry(
    c: Contract,
    bid: int,
    prior: Chances,
    cards12: int,
    rules: Rules | None = None,
    forty: float = 0.0,
) -> float:
    """The declarer's expected entry for ``c`` by the evaluator's win and
    Schneider chances."""
    if c.game != GameType.NULL and not c.schneider:
        return entry(c, bid, prior.win, prior.schneider, cards12, rules, forty)
    win = prior.schneider if c.schneider else prior.win
    won_entry, lost_entry = class_entries(c, bid, cards12, rules)
    return win * won_entry + (1 - win) * (lost_entry - 40 * forty)


def class_entries(
    c: Contract, bid: int, cards12: int, rules: Rules | None = None
) -> tuple[float, float]:
    """The declarer's entries for ``c`` won and lost (what a win chance weighs)."""
    won_class = (0, 0) if c.game == GameType.NULL else SCHNEIDER if c.schneider else WON
    lost_class = (0, 1) if c.game == GameType.NULL else LOST
    return (
        value_game(c, bid, *won_class, cards12, rules=rules).seeger_fabian_entry(),
        value_game(c, bid, *lost_class, cards12, rules=rules).seeger_fabian_entry(),
    )
