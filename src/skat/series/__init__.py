"""A list of deals at one table: options, house rules, the score sheet and
the verifiable shuffle (SKAT-RULES.md R1.6, R8, R9)."""

from .options import BOCK_TRIGGERS, DEFAULT_BOCK_TRIGGERS, ListOptions
from .series import Series
from .sheet import PlayerTotal, SheetRow, seeger_fabian_formula, totals
from .shuffle import commitment, deal_deck, new_seed
from .spec import LIST_SPEC, Option, Words

__all__ = [
    "BOCK_TRIGGERS",
    "DEFAULT_BOCK_TRIGGERS",
    "LIST_SPEC",
    "ListOptions",
    "Option",
    "PlayerTotal",
    "Series",
    "SheetRow",
    "Words",
    "commitment",
    "deal_deck",
    "new_seed",
    "seeger_fabian_formula",
    "totals",
]
