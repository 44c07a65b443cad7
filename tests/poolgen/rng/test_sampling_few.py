"""The samplers' paths for a few words (poolgen/rng/sampling.py, `_FEW`: Python's ints, for the small
pools drawn thousands of times) against their numpy paths on the same stream: the same values, and the
same bytes read, so a draw does not depend on which path made it. Streams are real (derive_stream):
two streams of one label read the same keystream."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from poolgen.rng import derive_stream, sampling
from poolgen.rng.drbg import Stream
from poolgen.rng.sampling import Weights, permutation, row_permutations
from tests.support import SEED_A

SEED = bytes(range(32))


def _pair(*label: str) -> tuple[Stream, Stream]:
    return derive_stream(SEED, "few", *label), derive_stream(SEED, "few", *label)


@pytest.mark.parametrize("n", [1, 2, 3, 7, sampling._FEW])
def test_a_small_permutation_is_the_sorted_keys_permutation(n):
    few, many = _pair("perm", str(n))
    for _ in range(200):
        assert permutation(few, n).tolist() == sampling._sort_keys(many, (n,)).tolist()
    assert few.bytes_read == many.bytes_read == 200 * 8 * n


@pytest.mark.parametrize(("rows", "k"), [(1, 2), (3, 3), (8, 4), (4, 8), (2, 16), (1, sampling._FEW)])
def test_small_row_permutations_are_the_ranked_or_sorted_keys_ones(rows, k):
    assert rows * k <= sampling._FEW
    few, many = _pair("rows", str(rows), str(k))
    for _ in range(200):
        got = row_permutations(few, rows, k)
        ranked = k <= sampling._RANK_UP_TO
        want = sampling._ranked_keys(many, rows, k) if ranked else sampling._sort_keys(many, (rows, k))
        assert got.dtype == np.int64 and got.tolist() == want.tolist()
    assert few.bytes_read == many.bytes_read


@pytest.mark.parametrize(("weights", "count"), list(itertools.product(
    [[1], [1, 2], [3, 0, 5], [1, 2**64 + 1, 7], [3**45, 1, 1, 2**70]], [0, 1, 2, 5, sampling._FEW])))
def test_few_weighted_choices_are_numpys(weights, count):
    table = Weights(weights)
    few, many = _pair("w", str(weights), str(count))
    listed = derive_stream(SEED, "few", "w", str(weights), str(count))
    for _ in range(50):
        want = table._many(many, count)
        got = table.choices(few, count)
        assert got.dtype == want.dtype == np.int64 and got.tolist() == want.tolist()
        assert table.picks(listed, count) == want.tolist()
    assert few.bytes_read == many.bytes_read == listed.bytes_read == 50 * 8 * count


@pytest.mark.parametrize(("weights", "only"), [([1, 0], 0), ([0, 3, 0, 0], 1), ([2, 0, 5, 0], None)])
def test_weights_ending_in_zeros_are_drawn_not_refused(weights, only):
    """Trailing zero weights put a boundary at the total, 2^64 in words: it raised OverflowError, though
    cum[i-1] <= u T < cum[i] (docs/randomness.md section 3) never reaches them."""
    stream = derive_stream(SEED_A, "poolgen/v1/test/weights")
    drawn = Weights(weights).picks(stream, 400) + Weights(weights).choices(stream, 400).tolist()
    assert all(weights[i] > 0 for i in drawn)
    assert set(drawn) == ({only} if only is not None else {0, 2})
