"""Verifiable shuffling (docs/fairness.md).

A list commits to a secret 32-byte seed by publishing ``SHA-256(seed)``.
Deal ``k`` (1-based) is the Fisher-Yates shuffle of the 32 cards in index
order (``CA CT CK CQ CJ C9 C8 C7 SA ... D7``), driven by the byte stream
``HMAC-SHA256(seed, b"skat-deal" || k || i)`` for block counters
``i = 0, 1, ...`` (``k`` and ``i`` as 4-byte big-endian integers), read as
4-byte big-endian words; a word ``u`` picks ``j`` in ``0..m-1`` as
``u mod m`` unless ``u >= 2^32 - (2^32 mod m)``, when it is discarded
(rejection sampling keeps every permutation equally likely). For
``i = 31 .. 1``: draw ``j`` in ``0..i`` and swap positions ``i`` and ``j``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator

from ..engine import Card

DOMAIN = b"skat-deal"
SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's generator (`secrets`)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published commitment: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes, deal_number: int) -> Iterator[int]:
    counter = 0
    while True:
        msg = DOMAIN + deal_number.to_bytes(4, "big") + counter.to_bytes(4, "big")
        block = hmac.new(seed, msg, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def deal_deck(seed: bytes, deal_number: int) -> list[Card]:
    """The deck of deal ``deal_number`` (1-based) of a list with this seed."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes")
    if deal_number < 1:
        raise ValueError("deal numbers start at 1")
    deck = list(Card)
    words = _words(seed, deal_number)
    for i in range(31, 0, -1):
        m = i + 1
        limit = (1 << 32) - (1 << 32) % m
        while True:
            u = next(words)
            if u < limit:
                break
        j = u % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck
