"""The options of a list (SKAT-RULES.md R0.4) and their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from ..engine import Rules

BOCK_TRIGGERS = (
    "sixty_sixty",
    "kontra_re",
    "kontra_lost",
    "value_100",
    "grand_hand",
    "schneider",
    "schwarz",
)
#: R9.4 [Decision]: triggers 1-4 when Bock is on.
DEFAULT_BOCK_TRIGGERS = frozenset(BOCK_TRIGGERS[:4])


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
    enforce_reachable_announcement: bool = False

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError("players must be 3 or 4")
        if self.deals is not None and (not isinstance(self.deals, int) or self.deals < 1):
            raise ValueError("deals must be a positive number")
        if not 0 <= self.first_dealer < self.players:
            raise ValueError(f"first_dealer must be a seat 0..{self.players - 1}")
        if self.scoring not in ("seeger_fabian", "plain"):
            raise ValueError("scoring must be seeger_fabian or plain")
        if self.bock_count not in ("per_deal", "per_trigger"):
            raise ValueError("bock_count must be per_deal or per_trigger")
        if self.bock_overlap not in ("queue", "stack"):
            raise ValueError("bock_overlap must be queue or stack")
        object.__setattr__(self, "bock_triggers", frozenset(self.bock_triggers))
        unknown = self.bock_triggers - set(BOCK_TRIGGERS)
        if unknown:
            raise ValueError(f"unknown Bock trigger(s): {', '.join(sorted(unknown))}")
        if self.ramsch_after_bock and self.bock_overlap != "queue":
            raise ValueError("ramsch_after_bock requires bock_overlap = queue (R9.5)")
        self.deal_rules()  # validates the deal options too

    @property
    def deals_per_list(self) -> int:
        return self.deals if self.deals is not None else 12 * self.players

    def deal_rules(self) -> Rules:
        return Rules(
            players=self.players,
            all_pass=self.all_pass,
            kontra=self.kontra,
            kontra_window=self.kontra_window,
            kontra_requires_bid=self.kontra_requires_bid,
            enforce_reachable_announcement=self.enforce_reachable_announcement,
        )

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["bock_triggers"] = sorted(self.bock_triggers)
        out["deals"] = self.deals_per_list
        return out

    @classmethod
    def from_dict(cls, data: Any) -> ListOptions:
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        data = dict(data)
        if "bock_triggers" in data:
            if not isinstance(data["bock_triggers"], list | tuple | set | frozenset):
                raise ValueError("bock_triggers must be a list")
            data["bock_triggers"] = frozenset(data["bock_triggers"])
        return cls(**data)
