"""Invariants of the pack samplers (poolgen/run/packs/) on random small pools: the tier counts are
the pool's, every pack meets every parameter, and the same stream gives the same pool."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs.composition import spacing_ok
from tests.support import SEED_A


@st.composite
def rules(draw) -> Rules:
    m, books = draw(st.integers(2, 8)), draw(st.integers(1, 5))
    tiers = draw(st.integers(1, 3))
    counts = [0] * (tiers + 1)
    for _ in range(m * books):
        counts[draw(st.integers(0, tiers))] += 1
    prizes = (0, *sorted(draw(st.lists(st.integers(1, 5), min_size=tiers, max_size=tiers))))
    winners = m * books - counts[0]
    lo = draw(st.integers(0, winners // books))  # what the loader proves possible
    hi = draw(st.integers(max(lo, -(-winners // books)), m))
    min_cents = draw(st.one_of(st.none(), st.integers(1, 10)))
    caps = tuple((frozenset({t}), draw(st.integers(0, m)))
                 for t in range(1, tiers + 1) if draw(st.booleans()))
    spacing = (((frozenset({tiers}), draw(st.integers(2, m))),) if m >= 2 and draw(st.booleans()) else ())
    return Rules(m=m, books=books, counts=tuple(counts), prizes=prizes, lo=lo, hi=hi, min_cents=min_cents,
                 caps=caps, spacing=spacing)


def _meets(r: Rules, packs: np.ndarray) -> bool:
    for p in packs:
        wins = int((p > 0).sum())
        if not r.lo <= wins <= r.hi:
            return False
        if r.min_cents is not None and sum(r.prizes[t] for t in p) < r.min_cents:
            return False
        if any(int(np.isin(p, list(ts)).sum()) > most for ts, most in r.caps):
            return False
    return bool(spacing_ok(r, packs).all())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules(), st.integers(0, 2**32 - 1))
def test_a_pool_under_pack_parameters_has_its_counts_and_meets_them(r, which):
    label = ("poolgen/test", "packs", str(which))
    try:
        seq = arrange(derive_stream(SEED_A, *label), r)
    except NoArrangement:
        assume(False)  # parameters these counts cannot meet (check refuses them)
    assert np.bincount(seq, minlength=len(r.counts)).tolist() == list(r.counts)
    assert _meets(r, seq.reshape(r.books, r.m))
    assert arrange(derive_stream(SEED_A, *label), r).tolist() == seq.tolist()
