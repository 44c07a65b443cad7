"""The sampling built on the DRBG (poolgen/rng/sampling.py): known answers
(tests/vectors/sampling.txt), exactness against the keystream, and statistical uniformity."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import reference_drbg
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from poolgen.rng import derive_stream, integers, integers_by_key, permutation, row_permutations
from tests.support import vector_lines as _vectors


def test_sampling_known_answers():
    lines = dict(line.split(" = ") for line in _vectors("sampling.txt"))
    seed = bytes(range(32))
    s = derive_stream(seed, "poolgen/v1", "test", "integers")
    assert " ".join(map(str, integers(s, 6, 24))) == lines["integers(6, 24)"]
    got = integers(s, np.array([1, 2, 3, 1000, 2**40]))
    assert " ".join(map(str, got)) == lines["integers([1,2,3,1000,2**40])"]
    s = derive_stream(seed, "poolgen/v1", "test", "permutation")
    assert " ".join(map(str, permutation(s, 20))) == lines["permutation(20)"]
    s = derive_stream(seed, "poolgen/v1", "test", "rows")
    rows = " | ".join(" ".join(map(str, r)) for r in row_permutations(s, 3, 5))
    assert rows == lines["row_permutations(3, 5)"]


def test_integers_is_mask_and_reject_of_the_keystream():
    """Recompute integers(6, 24) from the reference keystream by the rule sampling.py documents."""
    label = ("poolgen/v1", "test", "integers")
    raw = reference_drbg.keystream(bytes(range(32)), label, 8 * 200)
    words = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8)]
    expected: list[int | None] = [None] * 24
    todo, pos = list(range(24)), 0
    while todo:  # one word per open slot, in slot order; rejected slots wait for the next round
        batch, pos = words[pos:pos + len(todo)], pos + len(todo)
        todo = [slot for slot, w in zip(todo, batch, strict=True)
                if (w & 7) >= 6 or expected.__setitem__(slot, w & 7)]
    s = derive_stream(bytes(range(32)), *label)
    assert integers(s, 6, 24).tolist() == expected


def _reference_words(label: tuple[str, ...], count: int) -> list[int]:
    raw = reference_drbg.keystream(bytes(range(32)), label, 8 * count)
    return [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8)]


def _reference_integers(words: list[int], bounds: list[int]) -> list[int]:
    """Mask-and-reject as sampling.py documents it, one slot at a time, in rounds."""
    masks = [(1 << (b - 1).bit_length()) - 1 for b in bounds]
    out: list[int | None] = [None] * len(bounds)
    todo, pos = list(range(len(bounds))), 0
    while todo:  # one word per open slot, in slot order; rejected slots wait for the next round
        rejected = []
        for slot in todo:
            value, pos = words[pos] & masks[slot], pos + 1
            if value < bounds[slot]:
                out[slot] = value
            else:
                rejected.append(slot)
        todo = rejected
    return out


EDGES = [1, 2, 3, 6, 2**31 - 1, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**33 + 5, 2**62 + 1, 2**63 - 1]


@settings(max_examples=40, deadline=None)
@given(bounds=st.lists(st.sampled_from(EDGES) | st.integers(1, 2**63 - 1), min_size=1, max_size=60))
def test_integers_match_the_rule_at_every_width(bounds):
    """Bounds on both sides of 2**32 (the 32-bit path) and 2**63 give the reference rule's values."""
    label = ("poolgen/v1", "test", "widths")
    expected = _reference_integers(_reference_words(label, 40 * len(bounds)), bounds)
    got = integers(derive_stream(bytes(range(32)), *label), np.array(bounds, dtype=np.int64))
    assert got.tolist() == expected


@pytest.mark.parametrize("top", [4096, 4097])
def test_many_small_bounds_give_the_rules_values(top):
    """More slots than the mask table's 4,096 entries, every bound up to `top`: the masks are looked up
    in the table (top 4,096, its last entry included) or computed (4,097), and both give the reference
    rule's values, slot for slot."""
    bounds = [1 + (i * 7919) % top for i in range(6000)] + [top, 1, 4096, 2048, 2049]
    label = ("poolgen/v1", "test", "many small bounds")
    expected = _reference_integers(_reference_words(label, 4 * len(bounds)), bounds)
    got = integers(derive_stream(bytes(range(32)), *label), np.array(bounds, dtype=np.int64))
    assert got.tolist() == expected


@settings(max_examples=40, deadline=None)
@given(table=st.lists(st.sampled_from(EDGES) | st.integers(1, 1000), min_size=1, max_size=8),
       data=st.data())
def test_integers_by_key_is_integers_of_the_looked_up_bounds(table, data):
    key = np.array(data.draw(st.lists(st.integers(0, len(table) - 1), max_size=300)), dtype=np.int64)
    a, b = derive_stream(bytes(32), "key"), derive_stream(bytes(32), "key")
    got = integers_by_key(a, np.array(table, dtype=np.int64), key)
    assert got.tolist() == integers(b, np.array(table, dtype=np.int64)[key]).tolist()
    assert a.bytes_read == b.bytes_read
    scalar = integers_by_key(a, table[0], size=len(key))
    assert scalar.tolist() == integers(b, table[0], size=len(key)).tolist()


def test_integers_by_key_ignores_table_entries_it_does_not_use():
    stream = derive_stream(bytes(32), "unused")
    assert integers_by_key(stream, np.array([0, 5]), np.array([1, 1, 1])).shape == (3,)
    with pytest.raises(ValueError, match="at least 1"):
        integers_by_key(stream, np.array([0, 5]), np.array([1, 0]))


@pytest.mark.parametrize(("key", "why"), [(np.array([2]), "an index into the table of 2"),
                                          (np.array([-1]), "an index into the table of 2"),
                                          (np.array([0.5]), "keys are integers, not float64")])
def test_integers_by_key_refuses_keys_outside_the_table(key, why):
    stream = derive_stream(bytes(32), "keys")
    with pytest.raises(ValueError, match=why):
        integers_by_key(stream, np.array([3, 5]), key)
    assert stream.bytes_read == 0


@pytest.mark.parametrize("k", range(1, 10))
def test_row_permutations_are_the_order_of_each_rows_keys(k):
    """Ranks are counted for up to 4 columns and sorted beyond: both give each row's key order."""
    label, rows = ("poolgen/v1", "test", f"rows{k}"), 50
    words = _reference_words(label, rows * k)
    expected = [sorted(range(k), key=words[r * k:(r + 1) * k].__getitem__) for r in range(rows)]
    assert row_permutations(derive_stream(bytes(range(32)), *label), rows, k).tolist() == expected


class _Keys:
    """Hands out prepared words: a test of what happens on a tie, which no real seed gives."""

    def __init__(self, *batches: list[int]) -> None:
        self.batches = list(batches)

    def words(self, n: int) -> np.ndarray:
        batch = self.batches.pop(0)
        assert len(batch) == n
        return np.array(batch, dtype=np.uint64)


@pytest.mark.parametrize("k", [3, 8])
def test_row_permutations_redraw_every_key_on_a_tie(k):
    tied = list(range(100, 100 + 2 * k))
    tied[2 * k - 1] = tied[2 * k - 2]  # the second row's last two keys are equal
    fresh = list(range(2 * k, 0, -1))  # every row reversed
    stream = _Keys(tied, fresh)
    assert row_permutations(stream, 2, k).tolist() == [list(range(k - 1, -1, -1))] * 2
    assert stream.batches == []


def test_permutation_is_rank_of_keys():
    label = ("poolgen/v1", "test", "permutation")
    raw = reference_drbg.keystream(bytes(range(32)), label, 8 * 20)
    keys = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, 160, 8)]
    expected = sorted(range(20), key=keys.__getitem__)
    assert permutation(derive_stream(bytes(range(32)), *label), 20).tolist() == expected


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 3000), tag=st.text(min_size=1, max_size=8))
def test_permutation_is_a_permutation(n, tag):
    p = permutation(derive_stream(bytes(32), tag), n)
    assert np.array_equal(np.sort(p), np.arange(n))


@settings(max_examples=60, deadline=None)
@given(bounds=st.lists(st.integers(1, 2**62), min_size=1, max_size=200))
def test_integers_stay_below_their_bounds(bounds):
    b = np.array(bounds, dtype=np.int64)
    got = integers(derive_stream(bytes(32), "b"), b)
    assert got.shape == b.shape and (got >= 0).all() and (got < b).all()


def test_integers_refuses_empty_ranges():
    with pytest.raises(ValueError, match="at least 1"):
        integers(derive_stream(bytes(32), "x"), np.array([3, 0]))


# --- statistics: all 120 orderings of 5 items, uniform at 99%; a biased shuffle must fail ---

ORDERINGS = {p: i for i, p in enumerate(itertools.permutations(range(5)))}
SAMPLES = 120 * 200


def _ordering_counts(perms: np.ndarray) -> np.ndarray:
    counts = np.zeros(120, dtype=np.int64)
    for row in map(tuple, perms.tolist()):
        counts[ORDERINGS[row]] += 1
    return counts


def test_permutation_orderings_are_uniform():
    s = derive_stream(bytes(32), "stat", "permutation")
    perms = np.array([permutation(s, 5) for _ in range(SAMPLES)])
    assert chisquare(_ordering_counts(perms)).pvalue > 0.01


def test_row_permutation_orderings_are_uniform():
    perms = row_permutations(derive_stream(bytes(32), "stat", "rows"), SAMPLES, 5)
    assert chisquare(_ordering_counts(perms)).pvalue > 0.01


def _naive_shuffle(stream, n: int) -> np.ndarray:
    """The classic mistake: swap every slot with any slot (n^n paths onto n! orderings)."""
    a = list(range(n))
    for i, j in enumerate(integers(stream, n, n)):
        a[i], a[j] = a[j], a[i]
    return np.array(a)


def test_the_statistical_test_catches_a_biased_shuffle():
    s = derive_stream(bytes(32), "stat", "naive")
    perms = np.array([_naive_shuffle(s, 5) for _ in range(SAMPLES)])
    assert chisquare(_ordering_counts(perms)).pvalue < 1e-6


def test_the_statistical_test_catches_modulo_bias():
    s = derive_stream(bytes(32), "stat", "modulo")
    biased = (s.words(60_000) & np.uint64(7)) % np.uint64(5)  # 0, 1, 2 twice as likely as 3, 4
    fair = integers(derive_stream(bytes(32), "stat", "fair"), 5, 60_000)
    assert chisquare(np.bincount(biased.astype(np.int64), minlength=5)).pvalue < 1e-6
    assert chisquare(np.bincount(fair, minlength=5)).pvalue > 0.01


def test_no_draws_need_no_valid_bound():
    stream = derive_stream(bytes(32), "test", "empty")
    assert integers(stream, 0, size=0).shape == (0,)
    assert integers(stream, np.zeros((0, 3), dtype=np.int64)).shape == (0, 3)
    assert stream.bytes_read == 0
    with pytest.raises(ValueError, match="at least 1"):
        integers(stream, 0, size=1)
