"""`big_integers_each` (poolgen/rng/sampling.py): many exact big-integer draws, one bound each, read a
few calls at a time, against `big_integers(stream, bound, 1)` called once per bound on a stream of the
same label: the same values, the same bytes read, and the stream left at the same word, so a style
drawing a row at a time or all its rows at once reads the keystream alike."""

from __future__ import annotations

import pytest

from poolgen.rng import big_integers, big_integers_each, derive_stream

SEED = bytes(range(32))

# bounds whose draws reject often (just above a power of two), wide ones (2 and 3 words), one (no
# choice, a word still read), and mixes of them in one call
BOUNDS = {
    "rejecting": [2**k + 1 for k in range(1, 64)] * 3,
    "wide": [2**64 + 1, 2**100 + 3, 2**128 + 1, 3**90, 2**64, 2**65 - 1] * 20,
    "ones and twos": [1, 2, 1, 1, 3, 1] * 30,
    "mixed": [5, 2**70 + 1, 1, 2**63 + 1, 10**30, 7, 2**64 + 1, 2] * 40,
    "one": [2**40 + 1],
    "none": [],
}


@pytest.mark.parametrize("name", list(BOUNDS))
def test_each_bound_drawn_at_once_is_as_drawn_one_call_a_bound(name):
    bounds = BOUNDS[name]
    each, one = derive_stream(SEED, "big", name), derive_stream(SEED, "big", name)
    got = big_integers_each(each, bounds)
    want = [big_integers(one, b, 1)[0] for b in bounds]
    assert got == want
    assert all(0 <= v < b for v, b in zip(got, bounds, strict=True))
    assert each.bytes_read == one.bytes_read
    assert each.words(3).tolist() == one.words(3).tolist()  # left at the same word


def test_the_rejecting_bounds_did_reject():
    """The case above reads more words than bounds: a redraw's words come before the next bound's."""
    stream = derive_stream(SEED, "big", "rejecting")
    bounds = BOUNDS["rejecting"]
    big_integers_each(stream, bounds)
    assert stream.bytes_read > 8 * len(bounds) + 8 * 20


def test_a_bound_below_one_is_refused_as_big_integers_refuses_it():
    for bounds in ([0], [3, -1]):
        with pytest.raises(ValueError, match="^the bound must be at least 1$"):
            big_integers_each(derive_stream(SEED, "big", "bad"), bounds)
    with pytest.raises(ValueError, match="^the bound must be at least 1$"):
        big_integers(derive_stream(SEED, "big", "bad"), 0, 1)
