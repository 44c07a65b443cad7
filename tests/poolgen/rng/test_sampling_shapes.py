"""Shapes, types and stream use of the sampler's edge cases (poolgen/rng/sampling.py): no rows, no
columns, one row, and the int64 results of both permutation paths."""

from __future__ import annotations

import numpy as np
import pytest
import reference_drbg

from poolgen.rng import derive_stream, integers, integers_by_key, permutation, row_permutations

SEED = bytes(range(32))


@pytest.mark.parametrize(("rows", "k"), [(0, 0), (0, 3), (0, 9), (4, 0), (1, 0)])
def test_no_rows_or_no_columns_draw_nothing(rows, k):
    stream = derive_stream(SEED, "empty")
    got = row_permutations(stream, rows, k)
    assert got.shape == (rows, k) and got.dtype == np.int64
    assert stream.bytes_read == 0


def test_no_permutation_draws_nothing():
    stream = derive_stream(SEED, "empty")
    got = permutation(stream, 0)
    assert got.shape == (0,) and got.dtype == np.int64 and stream.bytes_read == 0
    with pytest.raises(ValueError) as info:
        permutation(stream, -1)
    assert str(info.value) == "n must be non-negative"


@pytest.mark.parametrize("k", [1, 2, 5, 6, 7, 12])
def test_one_row_is_the_order_of_its_keys(k):
    label = ("poolgen/v1", "test", f"one row {k}")
    raw = reference_drbg.keystream(SEED, label, 8 * k)
    keys = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, 8 * k, 8)]
    stream = derive_stream(SEED, *label)
    got = row_permutations(stream, 1, k)
    assert got.dtype == np.int64 and got.shape == (1, k)
    assert got.tolist() == [sorted(range(k), key=keys.__getitem__)]
    assert stream.bytes_read == 8 * k


@pytest.mark.parametrize("k", [2, 6, 7, 40])
def test_both_paths_give_int64_and_read_one_word_a_key(k):
    stream = derive_stream(SEED, "dtype", str(k))
    got = row_permutations(stream, 5, k)
    assert got.dtype == np.int64 and got.shape == (5, k)
    assert (np.sort(got, axis=1) == np.arange(k)).all()
    assert stream.bytes_read == 8 * 5 * k
    p = permutation(derive_stream(SEED, "dtype", str(k)), k)
    assert p.dtype == np.int64 and sorted(p.tolist()) == list(range(k))


def test_integers_keep_the_shape_of_their_bounds():
    bounds = np.array([[1, 2, 3], [1000, 2**40, 7]])
    got = integers(derive_stream(SEED, "shape"), bounds)
    flat = integers(derive_stream(SEED, "shape"), bounds.reshape(-1))
    assert got.shape == (2, 3) and got.dtype == np.int64
    assert got.reshape(-1).tolist() == flat.tolist()
    assert (got < bounds).all()


def test_a_bound_beyond_int64_is_refused_before_any_draw():
    stream = derive_stream(SEED, "huge")
    with pytest.raises(OverflowError):
        integers(stream, 2**63, size=3)
    with pytest.raises(OverflowError):
        integers(stream, [5, 2**63])
    assert stream.bytes_read == 0


def test_integers_by_key_takes_keys_of_any_shape():
    """Wild Side draws with (rows, 12) keys: the result has the keys' shape and the same values as
    flat keys (and as `integers` of the looked-up bounds)."""
    table = np.array([3, 1000, 2**40])
    key = np.array([[0, 1, 2, 1], [2, 2, 0, 0], [1, 0, 1, 2]])
    got = integers_by_key(derive_stream(SEED, "keys2d"), table, key)
    flat = integers_by_key(derive_stream(SEED, "keys2d"), table, key.reshape(-1))
    looked_up = integers(derive_stream(SEED, "keys2d"), table[key])
    assert got.shape == (3, 4) and got.dtype == np.int64
    assert got.reshape(-1).tolist() == flat.tolist() == looked_up.reshape(-1).tolist()
    assert (got < table[key]).all()


def test_integers_by_key_with_a_scalar_bound_needs_a_size():
    stream = derive_stream(SEED, "scalar")
    with pytest.raises(ValueError) as info:
        integers_by_key(stream, 6)
    assert str(info.value) == "size is needed with a scalar bound"
    assert integers_by_key(stream, 6, size=4).shape == (4,)


def test_a_table_entry_beyond_int64_is_refused():
    stream = derive_stream(SEED, "huge table")
    with pytest.raises(OverflowError):
        integers_by_key(stream, [5, 2**63], np.array([0, 0]))
    assert stream.bytes_read == 0


@pytest.mark.parametrize("bounds", [np.array([3, 0]), np.array([-5]), np.array([[1, 2], [0, 1]])])
def test_a_bound_below_one_is_refused_in_these_words(bounds):
    stream = derive_stream(SEED, "zero")
    with pytest.raises(ValueError) as info:
        integers(stream, bounds)
    assert str(info.value) == "every bound must be at least 1"
    assert stream.bytes_read == 0
