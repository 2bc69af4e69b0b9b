"""Seat tokens and the creator's secret: made by `secrets`, stored only as
SHA-256 hashes, compared in constant time (ARCHITECTURE.md practice 10)."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


__all__ = ["hash_token", "new_token", "token_matches"]
