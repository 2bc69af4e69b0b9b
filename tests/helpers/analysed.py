"""Three games played perfectly (open cards) by every seat except for one
wrong card in trick 7, as game records (docs/formats.md): the analysis
tests (tests/players/test_analysis.py) check their verdicts against a plain
minimax, the browser tests word them."""

from __future__ import annotations

# A defender (seat 1) gives a lost Spades game away with HK in trick 7.
DEFENDER_BLUNDER = {
    "format": "skat-game", "version": 1, "id": "spades-8", "dealer": 2,
    "deck": "C9 H7 HQ SA DA HK SK D8 S9 DT H9 CQ ST DK HJ HT S7 D7 CA D9 DQ HA C7 DJ CK CT H8 "
    "C8 CJ SJ SQ S8",
    "actions": [
        [1, "pass"], [2, "bid 18"], [0, "pass"], [2, "announce spades hand"],
        [0, "play CT"], [1, "play CA"], [2, "play C7"], [1, "play CJ"], [2, "play SK"],
        [0, "play ST"], [1, "play C8"], [2, "play SQ"], [0, "play CK"], [2, "play SJ"],
        [0, "play HJ"], [1, "play SA"], [2, "play S9"], [0, "play DJ"], [1, "play S7"],
        [0, "play CQ"], [1, "play HT"], [2, "play S8"], [2, "play HA"], [0, "play HQ"],
        [1, "play HK"], [2, "play DQ"], [0, "play DK"], [1, "play DA"], [1, "play H8"],
        [2, "play D9"], [0, "play H7"], [1, "play D7"], [2, "play D8"], [0, "play C9"],
    ],
}  # fmt: skip

# The Grand declarer (seat 1) throws a won game away with H7 in trick 7.
DECLARER_BLUNDER = {
    "format": "skat-game", "version": 1, "id": "grand-55", "dealer": 2,
    "deck": "HQ H9 S8 CQ C7 S9 CT H8 DJ CA SK SA D9 HJ DA HA HK SJ HT S7 SQ DT DK D7 DQ CK ST "
    "H7 CJ C8 D8 C9",
    "actions": [
        [1, "bid 18"], [0, "pass"], [2, "pass"], [1, "announce grand hand"],
        [0, "play CK"], [1, "play CQ"], [2, "play CT"], [2, "play C9"], [0, "play SA"],
        [1, "play C7"], [2, "play C8"], [0, "play S8"], [1, "play CJ"], [1, "play SJ"],
        [2, "play DJ"], [0, "play HJ"], [1, "play ST"], [2, "play SQ"], [0, "play HQ"],
        [1, "play S9"], [2, "play S7"], [0, "play H9"], [1, "play H7"], [2, "play H8"],
        [0, "play DA"], [2, "play DT"], [0, "play DQ"], [1, "play HA"], [2, "play DK"],
        [0, "play D9"], [1, "play HT"], [2, "play D8"], [0, "play D7"], [1, "play HK"],
    ],
}  # fmt: skip

# A defender (seat 1) lets a lost Null win with DA in trick 7.
NULL_BLUNDER = {
    "format": "skat-game", "version": 1, "id": "null-1", "dealer": 2,
    "deck": "DK HT SQ SK DJ CT C9 CJ C7 HA ST HQ D8 S9 H8 CA H9 D9 C8 SJ HJ H7 S8 S7 CQ D7 CK "
    "DA DT DQ HK SA",
    "actions": [
        [1, "pass"], [2, "pass"], [0, "bid 18"], [0, "announce null hand"],
        [0, "play CQ"], [1, "play CA"], [2, "play CJ"], [1, "play CT"], [2, "play C9"],
        [0, "play SQ"], [1, "play CK"], [2, "play C7"], [0, "play S9"], [1, "play C8"],
        [2, "play SA"], [0, "play S7"], [1, "play SK"], [2, "play SJ"], [0, "play HT"],
        [1, "play H9"], [2, "play HK"], [0, "play HQ"], [2, "play S8"], [0, "play H8"],
        [1, "play DA"], [2, "play HJ"], [0, "play DK"], [1, "play DT"], [2, "play H7"],
        [0, "play D8"], [1, "play DJ"], [2, "play DQ"], [0, "play D7"], [1, "play D9"],
    ],
}  # fmt: skip
