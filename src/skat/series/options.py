"""The options of a list (SKAT-RULES.md R0.4) and their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from ..engine import Rules
from .spec import BOCK_TRIGGERS, BY_NAME, DEFAULT_BOCK_TRIGGERS, LIST_SPEC

__all__ = ["BOCK_TRIGGERS", "DEFAULT_BOCK_TRIGGERS", "ListOptions"]


@dataclass(frozen=True)
class ListOptions:
    """Switches of R0.4. ``deals`` defaults to 12 rounds (36 or 48 deals, R1.6)."""

    players: Literal[3, 4] = 3
    deals: int | None = None
    first_dealer: int = 0
    scoring: Literal["seeger_fabian", "plain"] = "seeger_fabian"
    all_pass: Literal["einpassen", "ramsch"] = "einpassen"
    kontra: bool = False
    kontra_window: Literal["own_first_card", "first_lead", "trick_one"] = "own_first_card"
    kontra_requires_bid: bool = False
    bock: bool = False
    bock_triggers: frozenset[str] = field(default=DEFAULT_BOCK_TRIGGERS)
    bock_count: Literal["per_deal", "per_trigger"] = "per_deal"
    bock_overlap: Literal["queue", "stack"] = "queue"
    ramsch_after_bock: bool = False
    schieberamsch: bool = False  # a house rule (R9.2; engine/ramsch.py)
    enforce_reachable_announcement: bool = False
    max_matadors: int | None = None  # a house rule (docs/rules-decisions.md)

    def __post_init__(self) -> None:
        # every option by its declaration (spec.py): integers are integers
        # and switches are booleans, ``3.0``, ``1.5`` or ``true`` where a
        # number belongs are refused, never coerced
        for option in LIST_SPEC:
            option.check(getattr(self, option.name))
        if not 0 <= self.first_dealer < self.players:
            raise ValueError(f"first_dealer must be a seat 0..{self.players - 1}")
        object.__setattr__(self, "bock_triggers", frozenset(self.bock_triggers))
        if self.ramsch_after_bock and self.bock_overlap != "queue":
            raise ValueError("ramsch_after_bock requires bock_overlap = queue (R9.5)")
        self.deal_rules()  # validates the deal options too

    @property
    def deals_per_list(self) -> int:
        return self.deals if self.deals is not None else 12 * self.players

    def deal_rules(self) -> Rules:
        """The deal's rules: every option the engine's `Rules` also has (a new
        deal rule is carried by its name alone)."""
        return Rules(**{name: getattr(self, name) for name in _DEAL_FIELDS})

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["bock_triggers"] = sorted(self.bock_triggers)
        out["deals"] = self.deals_per_list
        return out

    @classmethod
    def from_dict(cls, data: Any, max_rounds: int | None = None) -> ListOptions:
        """Options from JSON-like data, strictly: unknown keys, wrong types
        (a float or a boolean where an integer belongs) and, with
        ``max_rounds``, lists of more deals than ``max_rounds`` x players are
        refused with `ValueError`."""
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        data = dict(data)
        if "bock_triggers" in data:
            BY_NAME["bock_triggers"].check(data["bock_triggers"])
            data["bock_triggers"] = frozenset(data["bock_triggers"])
        options = cls(**data)
        if max_rounds is not None and options.deals_per_list > max_rounds * options.players:
            most = max_rounds * options.players
            raise ValueError(f"a list has at most {max_rounds} rounds ({most} deals) here")
        return options


# The list's options the deal takes over (the rest are the list's own).
_DEAL_FIELDS = tuple(f.name for f in fields(ListOptions) if f.name in Rules.__dataclass_fields__)
