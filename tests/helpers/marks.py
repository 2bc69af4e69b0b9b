"""Marks for parameters: the first case runs in the fast run, the rest only
in the whole suite (``scripts/test`` without ``--fast``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest


def slow_beyond_first(values: Sequence[Any]) -> list[Any]:
    """``values`` for `pytest.mark.parametrize`, all but the first marked slow
    (the test ids stay those of the plain values)."""
    first, *rest = values
    return [first, *(pytest.param(v, marks=pytest.mark.slow) for v in rest)]
