"""The neighbour rule on layouts (poolgen/run/packs/neighbours.py, docs/randomness.md section 5): no two
consecutive tickets of a pack with identical play data, drawn exactly by run rejection."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats

from poolgen.errors import SpecError
from poolgen.game.model import Pool, PoolTier
from poolgen.game.packs import Packs
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, integers
from poolgen.run.build import build_pool
from poolgen.run.packs import identical_pairs, separate_neighbours
from tests.support import SEED_A, SEED_B, spec_path

SHARED = {"position", "ticket", "book", "ticket_no", "serial", "tier", "prize_cents", "salt"}


@pytest.mark.parametrize("seed", [SEED_A, SEED_B], ids=["seed A", "seed B"])
def test_full_happy_holidays_pools_hold_no_identical_neighbours(seed):
    """Without the rule these pools held 24 and 17 pairs (19 and 10 of two losers); now none."""
    game = load_spec(spec_path("happy_holidays"))
    table = build_pool(game, game.pools[0], seed)
    layout = {c: table[c].to_numpy() for c in table.columns if c not in SHARED}
    assert len(layout) == 6
    assert identical_pairs(layout, 300, across=False).size == 0
    assert identical_pairs(layout, 300, across=True).size == 0


class ThreeLayouts:
    """A play whose every ticket shows one of three layouts, uniformly, from the stream."""

    @staticmethod
    def lay_out(game, pool, tiers, stream, mix=None):
        return {"spot": integers(stream, 3, size=len(tiers)).astype(np.uint8)}


def _game(neighbours, per_pack=4):
    game = load_spec(spec_path("happy_holidays"))
    return replace(game, play=ThreeLayouts, packs=Packs(neighbours=neighbours),
                   sales=replace(game.sales, first_ticket=0, last_ticket=per_pack - 1))


POOL = Pool("p1", 100, 8, (PoolTier("lose", 0, 8),), first_book=0, books=2)


@pytest.mark.parametrize("neighbours", ["within packs", "across packs"])
def test_run_rejection_is_uniform_over_the_layouts_that_meet_the_rule(neighbours):
    """Two packs of 3 losers, 3 layouts each: every sequence with no equal neighbours (in a pack, or
    in the pool across packs) is equally likely: 12 x 12 = 144 or 3 x 2^5 = 96 sequences."""
    game = _game(neighbours, per_pack=3)
    pool = replace(POOL, tickets=6, tiers=(PoolTier("lose", 0, 6),))
    across = neighbours == "across packs"
    valid = [s for s in itertools.product(range(3), repeat=6)
             if all(s[i] != s[i + 1] for i in range(5) if across or i != 2)]
    assert len(valid) == (96 if across else 144)
    stream = derive_stream(SEED_A, "poolgen/test", neighbours)
    tiers = np.zeros(6, dtype=np.int16)
    draws = 20 * len(valid)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(draws):
        first = ThreeLayouts.lay_out(game, pool, tiers, stream)
        out = separate_neighbours(game, pool, tiers, first, stream)
        seen[tuple(int(v) for v in out["spot"])] += 1
    assert set(seen) <= set(valid)
    p = stats.chisquare([seen[s] for s in valid]).pvalue
    assert p > 0.001, p


def test_a_layout_without_identical_neighbours_is_returned_as_it_is():
    game = _game("within packs")
    layout = {"spot": np.array([0, 1, 0, 1, 1, 0, 1, 0], dtype=np.uint8)}
    stream = derive_stream(SEED_A, "poolgen/test", "unchanged")
    assert separate_neighbours(game, POOL, np.zeros(8, dtype=np.int16), layout, stream) is layout
    assert stream.read(8) == derive_stream(SEED_A, "poolgen/test", "unchanged").read(8)  # nothing drawn


def test_only_the_run_holding_a_pair_is_laid_out_again():
    game = _game("within packs")
    tiers = np.array([0, 0, 1, 1, 0, 0, 0, 0], dtype=np.int16)  # runs 0-1, 2-3, 4-7 (two packs)
    layout = {"spot": np.array([0, 1, 2, 2, 0, 1, 0, 1], dtype=np.uint8)}
    out = separate_neighbours(game, replace(POOL, tiers=(PoolTier("lose", 0, 6), PoolTier("x", 1, 2))),
                              tiers, layout, derive_stream(SEED_A, "poolgen/test", "one run"))
    assert out["spot"][[0, 1, 4, 5, 6, 7]].tolist() == [0, 1, 0, 1, 0, 1]
    assert out["spot"][2] != out["spot"][3]


class Scripted:
    """A play whose lay-outs are given in advance: (the number of tickets asked for, the spots)."""

    def __init__(self, *layouts: tuple[int, list[int]]) -> None:
        self.layouts = list(layouts)

    def lay_out(self, game, pool, tiers, stream, mix=None):
        size, spots = self.layouts.pop(0)
        assert len(tiers) == size, f"laid out {len(tiers)} tickets again, not {size}"
        return {"spot": np.array(spots, dtype=np.uint8)}


@pytest.mark.parametrize(("again", "then", "final"), [
    ([1, 2, 2, 3], [], [1, 2, 2, 3]),  # each run is clear: the 2, 2 straddles the runs, not a pair
    ([1, 2, 3, 3], [(2, [4, 5])], [1, 2, 4, 5]),  # only the second run still holds a pair
])
def test_a_pair_straddling_two_runs_laid_out_together_is_not_a_pair(again, then, final):
    """Runs laid out again together are checked each on its own: two tickets side by side in the pool
    but in different runs (here of different tiers) never send a run back."""
    play = Scripted((4, again), *then)
    game = replace(_game("within packs"), play=play)
    pool = replace(POOL, tickets=4, tiers=(PoolTier("lose", 0, 2), PoolTier("x", 1, 2)))
    tiers = np.array([0, 0, 1, 1], dtype=np.int16)
    out = separate_neighbours(game, pool, tiers, {"spot": np.array([5, 5, 7, 7], dtype=np.uint8)},
                              derive_stream(SEED_A, "poolgen/test", "straddle"))
    assert out["spot"].tolist() == final
    assert play.layouts == []


class OneLayout:
    """A play whose every ticket shows the same layout: no run of two can be kept apart."""

    @staticmethod
    def lay_out(game, pool, tiers, stream, mix=None):
        return {"spot": np.zeros(len(tiers), dtype=np.uint8)}


def test_a_run_that_never_separates_is_refused_in_one_line_naming_packs_neighbours():
    """After MAX_ROUNDS lay-outs generate refuses the pool as bad input (exit 2, one line), not a
    RuntimeError and a traceback."""
    game = replace(_game("within packs"), play=OneLayout)
    with pytest.raises(SpecError) as info:
        separate_neighbours(game, POOL, np.zeros(8, dtype=np.int16), {"spot": np.zeros(8, dtype=np.uint8)},
                            derive_stream(SEED_A, "poolgen/test", "never"))
    assert str(info.value) == (
        f"{game.file}: packs.neighbours: pool p1: identical neighbours remain after "
        "1,000 rounds in "
        "runs of tier(s) lose: too few layouts for the neighbour rule; write neighbours = \"off\" in [packs] "
        "(or give the tiers more varied layouts)")
