"""Ties and near-ties in the keys that `permutation()` sorts: a tie redraws every key; order is 64-bit.

No real seed gives a tie among a few keys (the chance is about n^2 / 2^65), so these tests serve
chosen words through the interface the sampler reads (`words(n)`), taken from the real DRBG and then
edited: two keys made equal, or keys made equal in their high 32 bits and different only in the low.
"""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.rng import derive_stream, permutation, row_permutations

LOW = np.uint64(0xFFFF_FFFF)


class ServedWords:
    """A stream double: hands out the prepared batches of words, one batch per `words(n)` call."""

    def __init__(self, *batches: np.ndarray) -> None:
        self.batches = [np.asarray(b, dtype=np.uint64) for b in batches]
        self.calls: list[int] = []

    def words(self, n: int) -> np.ndarray:
        self.calls.append(n)
        batch = self.batches.pop(0)
        assert batch.size == n
        return batch.copy()


def _real_words(n: int, *label: str) -> np.ndarray:
    return derive_stream(bytes(range(32)), "poolgen/v1", "test", "ties", *label).words(n)


def _full_width_order(keys: np.ndarray) -> list[int]:
    return sorted(range(keys.size), key=lambda i: int(keys[i]))


def _same_high_half(n: int) -> np.ndarray:
    """Real keys whose high 32 bits are all the first key's, so only the low 32 bits order them; the
    low halves are made to fall as the index rises, so a sort on the high half alone is visibly wrong."""
    keys = _real_words(n, "high")
    high = keys[0] & ~LOW
    low = np.sort(keys & LOW)[::-1]  # distinct with overwhelming likelihood; checked below
    assert np.unique(low).size == n
    return high | low


def _alike_but_the_lowest_bits(n: int, rows: int = 1) -> np.ndarray:
    """Real keys of which every row's share all but their lowest 6 bits (the bits the sort's first try
    replaces by a column index: 64 columns at most), those bits falling as the column rises."""
    keys = _real_words(rows, "lowest")[:, None] & ~np.uint64(63)
    return (keys | (np.uint64(63) - np.arange(n, dtype=np.uint64))).reshape(-1)


@pytest.mark.parametrize(("rows", "k"), [(1, 2), (1, 40), (3, 5), (3, 12), (2, 64)])
def test_keys_alike_but_for_their_lowest_bits_are_ordered_by_them_without_a_redraw(rows, k):
    """The packed first try cannot tell such keys apart, so the same keys are sorted as they stand."""
    keys = _alike_but_the_lowest_bits(k, rows)
    stream = ServedWords(keys)
    want = [list(range(k - 1, -1, -1))] * rows
    got = row_permutations(stream, rows, k) if rows > 1 else permutation(stream, k)[None, :]
    assert got.tolist() == want and got.dtype == np.int64
    assert stream.calls == [rows * k]


def test_keys_alike_in_one_row_only_leave_the_other_rows_their_order():
    """One row's keys alike but for their lowest bits, the other rows' real: every row its own order."""
    keys = _real_words(3 * 9, "one row alike").reshape(3, 9)
    keys[1] = _alike_but_the_lowest_bits(9)
    got = row_permutations(ServedWords(keys.reshape(-1)), 3, 9).tolist()
    assert got == [_full_width_order(row) for row in keys]
    assert got[1] == list(range(8, -1, -1))


def test_permutation_redraws_every_key_on_a_tie():
    tied = _real_words(12, "tied")
    tied[9] = tied[4]  # two equal keys: the order between them would depend on the sort
    fresh = _real_words(12, "fresh")
    stream = ServedWords(tied, fresh)
    assert permutation(stream, 12).tolist() == _full_width_order(fresh)
    assert stream.calls == [12, 12] and stream.batches == []


def test_permutation_redraws_until_no_tie_is_left():
    first, second, third = (_real_words(6, str(i)) for i in range(3))
    first[0] = first[5]
    second[2] = second[3]
    stream = ServedWords(first, second, third)
    assert permutation(stream, 6).tolist() == _full_width_order(third)
    assert stream.calls == [6, 6, 6]


def test_permutation_does_not_redraw_keys_that_differ_only_in_their_low_bits():
    keys = _same_high_half(10)
    stream = ServedWords(keys)
    assert permutation(stream, 10).tolist() == list(range(9, -1, -1))
    assert stream.calls == [10]


def test_permutation_orders_keys_by_all_64_bits_not_the_top_32():
    place = [4, 0, 7, 2, 9, 1, 5, 8, 3, 6]  # key i is the place[i]-th largest (from 0)
    keys = _same_high_half(10)[place]
    assert permutation(ServedWords(keys), 10).tolist() == [place.index(9 - r) for r in range(10)]
    assert permutation(ServedWords(keys), 10).tolist() == [4, 7, 2, 9, 6, 0, 8, 3, 5, 1]


def test_permutation_sorts_full_width_keys_and_redraws_ties_not_a_stable_sort_of_the_top_32_bits():
    """The bug this names: `argsort(keys >> 32, kind="stable")` and no redraw. It passes every test
    that uses real keys (no two of them share their high 32 bits), so keys are chosen here to make it
    differ: a tie among the first keys, then keys alike in their high half."""
    tied = _real_words(8, "named")
    tied[1] = tied[6]
    near = _same_high_half(8)
    stream = ServedWords(tied, near)
    got = permutation(stream, 8).tolist()
    assert stream.calls == [8, 8], "a tie must redraw every key"
    assert got == [7, 6, 5, 4, 3, 2, 1, 0], "keys alike in their high 32 bits are ordered by their low bits"


@pytest.mark.parametrize("k", [2, 4, 5, 6, 7, 12])
def test_row_permutations_order_keys_by_all_64_bits(k):
    """Both paths (ranks counted up to 4 columns, sorted beyond) compare whole 64-bit keys."""
    rows = 3
    keys = np.concatenate([_same_high_half(k) for _ in range(rows)])
    assert row_permutations(ServedWords(keys), rows, k).tolist() == [list(range(k - 1, -1, -1))] * rows


@pytest.mark.parametrize("k", [2, 4, 5, 6, 7])
def test_row_permutations_redraw_on_a_tie_in_any_row(k):
    rows = 4
    tied = _real_words(rows * k, "rows", str(k))
    tied[3 * k] = tied[3 * k + 1]  # the last row's first two keys
    fresh = _real_words(rows * k, "rows fresh", str(k))
    stream = ServedWords(tied, fresh)
    want = [_full_width_order(fresh[r * k:(r + 1) * k]) for r in range(rows)]
    assert row_permutations(stream, rows, k).tolist() == want
    assert stream.calls == [rows * k, rows * k]


def test_one_key_needs_no_redraw_check():
    stream = ServedWords(_real_words(1, "one"))
    assert permutation(stream, 1).tolist() == [0]
    assert stream.calls == [1]


def test_two_tied_keys_are_redrawn_too():
    tied = _real_words(2, "two")
    tied[1] = tied[0]
    fresh = _real_words(2, "two fresh")
    stream = ServedWords(tied, fresh)
    assert permutation(stream, 2).tolist() == _full_width_order(fresh)
    assert stream.calls == [2, 2]


@pytest.mark.parametrize("rows", [1, 3])
def test_two_keys_alike_but_for_the_lowest_bits_whose_columns_differ_in_every_one_are_not_packed_apart(rows):
    """The packed first try takes a row only when neighbours differ above the column bits (their XOR above
    `low`, 63 for 40 columns): columns 24 and 39 differ in all six low bits (24 ^ 39 == 63), so two keys
    alike but for those bits XOR to exactly 63 when packed. They are ordered by their own low bits (39's
    lower, so first), not by column; a check of `>= low` took the packed order (no test failed)."""
    keys = _real_words(rows * 40, "columns 24 and 39").reshape(rows, 40)
    keys[:, 39] = (keys[:, 24] & ~np.uint64(63)) | np.uint64(5)
    keys[:, 24] |= np.uint64(63)
    stream = ServedWords(keys.reshape(-1))
    got = row_permutations(stream, rows, 40) if rows > 1 else permutation(stream, 40)[None, :]
    assert got.tolist() == [_full_width_order(row) for row in keys]
    assert all(row.index(39) + 1 == row.index(24) for row in got.tolist())
    assert stream.calls == [rows * 40]
