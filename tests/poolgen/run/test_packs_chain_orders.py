"""The chain's packs put in order (poolgen/run/packs/spaced.py `chain_orders`, docs/randomness.md 5.3
step 4): a pack whose spaced tickets just fit has a handful of allowed orders among billions, which
rejection alone never finds (a pool hung); it is drawn directly under one spacing rule, uniformly among
its allowed orders, and refused in one line under several."""

from __future__ import annotations

import signal
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from poolgen.rng import derive_stream
from poolgen.run.packs import NoArrangement, Rules, arrange
from poolgen.run.packs import spaced as spaced_module
from poolgen.run.packs.composition import spacing_ok
from tests.support import SEED_A


def _rules(spacing: tuple[tuple[frozenset[int], int], ...], counts: tuple[int, ...]) -> Rules:
    """4 packs of 40 under a value floor (which sends them to the chain) and `spacing`."""
    return Rules(m=40, books=4, counts=counts, prizes=(0, 100, 500, 200)[:len(counts)], lo=0, hi=40,
                 min_cents=100, caps=(), spacing=spacing)


@pytest.fixture
def deadline():
    """Fail (TimeoutError) a test still running after 60 seconds, instead of hanging the suite."""
    def expired(signum, frame):
        raise TimeoutError("still drawing after 60 s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_packs_whose_spaced_tickets_just_fit_are_drawn_without_hanging(deadline):
    """76 tickets of tier 1 at least 2 apart in 4 packs of 40 (at most 20 fit a pack): a pack of 19
    accepts a uniform order with probability C(22, 19) / C(40, 19), about 1e-8."""
    rules = _rules(((frozenset({1}), 2),), (80, 76, 4))
    order = arrange(derive_stream(SEED_A, "chain-orders"), rules)
    assert np.bincount(order, minlength=3).tolist() == [80, 76, 4]
    assert spacing_ok(rules, order.reshape(4, 40)).all()


def test_several_spacing_rules_without_an_order_are_refused_naming_spacing(deadline):
    rules = _rules(((frozenset({1}), 2), (frozenset({3}), 2)), (80, 60, 4, 16))
    with pytest.raises(NoArrangement, match=r"had no order meeting the spacing rules in 10,000 uniform "
                                            r"orders") as info:
        arrange(derive_stream(SEED_A, "chain-orders"), rules)
    assert info.value.short == ["spacing"]


def test_the_direct_draw_is_uniform_among_a_packs_allowed_orders(monkeypatch):
    """Every pack drawn directly (no rejection round): one pack of 6 holding 3 tickets of tier 1 at
    least 2 apart has 4 allowed places ({0,2,4}, {0,2,5}, {0,3,5}, {1,3,5}), each its 3! x 3! orders
    of tickets alike; 2,000 draws of the places against the uniform law by chi-square."""
    monkeypatch.setattr(spaced_module, "ORDER_ROUNDS", 0)
    content = np.array([[1, 1, 1, 0, 0, 0]], dtype=np.int16)
    rules = Rules(m=6, books=1, counts=(3, 3), prizes=(0, 100), lo=0, hi=6, min_cents=100, caps=(),
                  spacing=((frozenset({1}), 2),))
    stream = derive_stream(SEED_A, "chain-orders-uniform")
    seen = Counter(tuple(np.flatnonzero(spaced_module.chain_orders(stream, rules, content)[0] == 1).tolist())
                   for _ in range(2000))
    assert set(seen) == {(0, 2, 4), (0, 2, 5), (0, 3, 5), (1, 3, 5)}
    p = stats.chisquare(list(seen.values())).pvalue
    assert p > 1e-4, (p, seen)
