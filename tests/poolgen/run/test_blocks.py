"""An eInstant's blocks of serials at generation (poolgen/run/packs/, docs/randomness.md 5.4), on the
example cut to 200 blocks of 100: a spec whose `[blocks]` holds no rule builds the same pool, byte for
byte, as one without blocks and with the neighbour rule off; winners bounds alone are drawn by the exact
sampler; every parameter is met in every block."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.rng.labels import stream_label
from poolgen.run.build import build_pool
from poolgen.run.packs import rules_for
from poolgen.run.packs.composition import arrange_winners
from tests.support import SEED_A
from tests.support.blocks import blocks_variant


def _pool(path) -> tuple[pl.DataFrame, object]:
    game = load_spec(path)
    return build_pool(game, game.pools[0], SEED_A), game


def test_blocks_holding_no_rule_keep_every_byte(tmp_path):
    plain, _ = _pool(blocks_variant(tmp_path, blocks='neighbours = "off"', name="a.toml"))
    shares, game = _pool(blocks_variant(tmp_path, blocks='shares = 100\nneighbours = "off"', name="b.toml"))
    assert rules_for(game, game.pools[0]) is None
    assert plain.equals(shares)


def test_winners_bounds_alone_are_drawn_by_the_exact_sampler(tmp_path):
    table, game = _pool(blocks_variant(tmp_path, blocks="shares = 100\nmin_winners = 30\nmax_winners = 40"))
    rules = rules_for(game, game.pools[0])
    assert rules is not None and rules.winners_only
    assert (rules.m, rules.books, rules.lo, rules.hi) == (100, 200, 30, 40)
    stream = derive_stream(SEED_A, *stream_label(game.id, game.pools[0].id, "order"))
    expected = arrange_winners(stream, rules).reshape(-1)
    names = [t.id for t in game.pools[0].tiers]
    assert table["tier"].to_list() == [names[i] for i in expected.tolist()]
    per_block = (table["tier"] != "lose").to_numpy().reshape(200, 100).sum(axis=1)
    assert per_block.min() >= 30 and per_block.max() <= 40 and per_block.sum() == 6_777


@pytest.mark.parametrize("across", [False, True])
def test_every_block_meets_every_parameter(tmp_path, across):
    path = blocks_variant(tmp_path)
    if across:
        text = path.read_text().replace('neighbours = "within blocks"', 'neighbours = "across blocks"')
        path.write_text(text)
    table, game = _pool(path)
    assert game.packs.neighbours == ("across packs" if across else "within packs")
    tier = table["tier"].to_numpy().reshape(200, 100)
    prize = table["prize_cents"].cast(pl.Int64).to_numpy().reshape(200, 100)
    assert ((tier != "lose").sum(axis=1) >= 25).all() and (prize.sum(axis=1) >= 4000).all()
    assert (np.isin(tier, ["m5000", "m500", "m400", "m300", "m200"]).sum(axis=1) <= 1).all()
    spaced = np.isin(tier, ["m50", "m45", "m40"])
    assert not (spaced[:, 1:] & spaced[:, :-1]).any()
    counts = dict(zip(*np.unique(tier, return_counts=True), strict=True))
    assert counts == {t.id: t.count for t in game.pools[0].tiers}
