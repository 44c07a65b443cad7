"""The neighbour rule on by default for every eInstant (docs/new-game.md 2b, docs/randomness.md 5.1 and
5.4): no two consecutive serials of a pool with identical play data, drawn by the exact run-by-run
rejection of 5.1 from the "layout" stream continued after the first lay-out; `[blocks] neighbours =
"off"` turns it off."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from poolgen.run.merkle import root
from poolgen.run.packs import identical_pairs
from tests.support import SEED_A, SEED_B, spec_path
from tests.support.blocks import blocks_variant

SHARED = {"position", "ticket", "serial", "tier", "prize_cents", "salt"}


def _layout(table: pl.DataFrame) -> dict[str, np.ndarray]:
    return {c: table[c].to_numpy() for c in table.columns if c not in SHARED}


def _pairs(table: pl.DataFrame) -> int:
    return int(identical_pairs(_layout(table), table.height, across=True).size)


def _runs_holding_pairs(table: pl.DataFrame) -> np.ndarray:
    """Every position of a maximal run of one tier holding an identical pair."""
    tiers = table["tier"].to_numpy()
    starts = identical_pairs(_layout(table), table.height, across=True)
    cut = np.ones(tiers.size, dtype=bool)
    cut[1:] = tiers[1:] != tiers[:-1]
    first = np.flatnonzero(cut)
    ends = np.append(first[1:], tiers.size)
    which = np.unique(np.searchsorted(first, starts, side="right") - 1)
    return np.concatenate([np.arange(first[k], ends[k]) for k in which])


@pytest.mark.parametrize("seed", [SEED_A, SEED_B], ids=["seed A", "seed B"])
def test_a_pool_changes_only_in_the_runs_that_held_an_identical_pair(tmp_path, seed):
    """20,000 shares of the example's counts: with the rule off the pool holds pairs of consecutive
    serials with identical play data; by default none, and only the layouts of the runs of one tier that
    held a pair changed (the tier order, identities and salts are the same)."""
    on = load_spec(blocks_variant(tmp_path, blocks="", name="on.toml"))
    off = load_spec(blocks_variant(tmp_path, blocks='neighbours = "off"', name="off.toml"))
    plain, ruled = build_pool(off, off.pools[0], seed), build_pool(on, on.pools[0], seed)
    assert _pairs(plain) > 10 and _pairs(ruled) == 0
    assert plain.select(sorted(SHARED)).equals(ruled.select(sorted(SHARED)))
    changed = np.zeros(plain.height, dtype=bool)
    for name in _layout(plain):
        changed |= plain[name].to_numpy() != ruled[name].to_numpy()
    assert set(np.flatnonzero(changed).tolist()) <= set(_runs_holding_pairs(plain).tolist())
    assert changed.any()


def test_blocks_across_is_the_default_and_joins_the_block_boundaries(tmp_path):
    game = load_spec(blocks_variant(tmp_path, blocks="shares = 100"))
    table = build_pool(game, game.pools[0], SEED_A)
    assert game.packs.neighbours == "across packs" and _pairs(table) == 0


@pytest.mark.slow
def test_a_full_hand_to_hand_tactics_pool_holds_no_identical_consecutive_shares(tmp_path):
    """1,000,000 shares: 1,698 pairs of consecutive serials with identical play data with the rule off
    (seed A), none by default. Off, the pool is the one this seed gave before 2026-12-02, byte for byte
    (its root, tests/vectors/pools.txt before that day)."""
    spec = spec_path("hand_to_hand_tactics")
    off = tmp_path / spec.name
    off.write_text(spec.read_text() + '\n[blocks]\nneighbours = "off"\n')
    game = load_spec(spec)
    plain = build_pool(load_spec(off), game.pools[0], SEED_A)
    assert _pairs(plain) == 1_698
    assert root(plain).hex() == "6ff5148b26442b2407d2c090fd1b2e65b1b2a98090707a2c223b8f1e648fb6fc"
    assert _pairs(build_pool(game, game.pools[0], SEED_A)) == 0
