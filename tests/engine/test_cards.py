"""Card masks: `mask_indices` lists the same cards as `mask_cards`, as
plain ints in index order (the search's hot loops read them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skat.engine.cards import mask_cards, mask_indices


@given(mask=st.integers(0, (1 << 32) - 1))
def test_mask_indices_are_the_masks_cards_in_order(mask: int) -> None:
    got = mask_indices(mask)
    assert got == [c for c in range(32) if mask >> c & 1]
    assert got == [int(c) for c in mask_cards(mask)]
    assert all(type(c) is int for c in got)


def test_mask_indices_of_the_empty_and_the_full_mask() -> None:
    assert mask_indices(0) == []
    assert mask_indices((1 << 32) - 1) == list(range(32))
