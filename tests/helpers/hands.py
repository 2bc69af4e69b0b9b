"""Hand-made deals several test modules use (written seat by seat, the
dealer at seat 2 so that seat 0 is forehand)."""

from __future__ import annotations

#: Forehand holds all four jacks and six clubs (ten matadors): Clubs Hand
#: cannot be stopped; the skat that goes with it is C7 D7.
FOUR_JACKS_SIX_CLUBS = [
    ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8"],
    ["SA", "ST", "SK", "SQ", "S9", "S8", "HA", "HT", "HK", "HQ"],
    ["H9", "H8", "DA", "DT", "DK", "DQ", "D9", "D8", "S7", "H7"],
]
