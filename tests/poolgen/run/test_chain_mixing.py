"""The chain's fast mixing batch (poolgen/run/packs/chain.py, `_mix_batch`) keeps exactly the moves that
`_State.move(i, j, keep_valid=True)` keeps, one by one, under every kind of pack parameter at once:
the same labels and the same per-pack figures after every batch, so a pool's tier order is unchanged."""

from __future__ import annotations

import copy

import pytest

from poolgen.rng import derive_stream, integers
from poolgen.run.packs.chain import _descend, _mix_batch, _State
from poolgen.run.packs.composition import Rules
from tests.support import SEED_A

# 40 packs of 10; tiers 0 (lose) .. 5; winners 2..6; at least $3 a pack; two overlapping caps; two
# spacing rules, one of them over a single tier: every term of the shortfall can refuse a move.
RULES = Rules(m=10, books=40, counts=(232, 80, 50, 20, 10, 8), prizes=(0, 100, 200, 500, 1000, 2500),
              lo=2, hi=6, min_cents=300, caps=((frozenset({3, 4, 5}), 2), (frozenset({4, 5}), 1)),
              spacing=((frozenset({2, 3}), 2), (frozenset({5}), 4)))


def _start(rules: Rules, label: str) -> _State:
    stream = derive_stream(SEED_A, "poolgen/test", label)
    base = [t for t, c in enumerate(rules.counts) for _ in range(c)]
    order = integers(stream, len(base), size=len(base)).tolist()  # any start: the descent repairs it
    labels = [base[k] for k in sorted(range(len(base)), key=lambda k: (order[k], k))]
    s = _State(rules, labels)
    _descend(stream, s)
    return s


def _figures(s: _State) -> tuple:
    return list(s.labels), list(s.w), list(s.v), [list(c) for c in s.c], list(s.conf)


@pytest.mark.parametrize("rules", [RULES, Rules(**{**RULES.__dict__, "min_cents": None, "spacing": ()})],
                         ids=["every-parameter", "winners-and-caps"])
def test_the_fast_mixing_batch_keeps_exactly_the_moves_the_state_keeps(rules):
    fast = _start(rules, "mixing")
    slow = copy.deepcopy(fast)
    assert all(slow.of(b) == 0 for b in range(rules.books))
    stream = derive_stream(SEED_A, "poolgen/test", "mixing-pairs")
    n, kept, tried = rules.books * rules.m, 0, 0
    for _ in range(20):
        pairs = integers(stream, n, size=2_000).tolist()
        for i, j in zip(pairs[0::2], pairs[1::2], strict=True):
            if i // rules.m != j // rules.m and slow.labels[i] != slow.labels[j]:
                tried += 1
                kept += slow.move(i, j, keep_valid=True)
        _mix_batch(fast, pairs)
        assert _figures(fast) == _figures(slow)
    assert 0 < kept < tried  # moves were both kept and refused: the comparison means something
