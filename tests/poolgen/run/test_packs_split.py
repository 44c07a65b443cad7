"""Generation of a split order under pack parameters (docs/randomness.md 5.11): a spec `check` accepts
with every kind of parameter (a winners floor and ceiling, a prize floor, a cap and a spacing rule)
generates from every seed tried, each pool drawn under the parameters with the counts that seed drew
for it, and every pack of every pool meets every parameter."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from poolgen.check.game import check_spec
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.split import split_game
from tests.support.spec_docs import kn_doc, write

PACKS = {"min_winners": 1, "max_winners": 2, "min_prize_value": "1.00",
         "caps": [{"tiers": ["2", "6"], "at_most": 1}],
         "spacing": [{"tiers": ["free", "1"], "min_distance": 3}]}


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    """The small key_number_match game as six pools of 2,000 (40 packs of 50) whose counts are split."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    doc["tiers"][3]["count"] = 4
    path = write(tmp_path_factory.mktemp("packs-split"), doc | {"packs": PACKS})
    assert check_spec(load_spec(path)).problems == []
    return path


@pytest.mark.parametrize("k", range(4))
def test_every_pool_of_a_split_order_meets_every_parameter_with_the_counts_its_seed_drew(spec, tmp_path, k):
    seed = bytes([k + 1]) * 32
    game = load_spec(spec)
    run = generate(GenerateRequest(game, seed, now=datetime(2026, 12, 5, tzinfo=UTC), out=tmp_path,
                                   run_id="r")).folder
    drawn = split_game(game, seed)
    assert len({tuple(t.count for t in p.tiers) for p in drawn.pools}) > 1  # pools of different counts
    stated = json.loads((run / "manifest.json").read_text())["pools"]
    for pool, entry in zip(drawn.pools, stated, strict=True):
        assert [t["count"] for t in entry["tiers"]] == [t.count for t in pool.tiers]
        table = pl.read_parquet(run / f"pool-{pool.id}.parquet", columns=["tier", "prize_cents"])
        tier = table["tier"].to_numpy().reshape(40, 50)
        winners = (tier != "lose").sum(axis=1)
        assert winners.min() >= 1 and winners.max() <= 2
        assert table["prize_cents"].to_numpy().reshape(40, 50).sum(axis=1).min() >= 100
        assert np.isin(tier, ["2", "6"]).sum(axis=1).max() <= 1
        row, place = np.nonzero(np.isin(tier, ["free", "1"]))
        assert not ((np.diff(place) < 3) & (row[1:] == row[:-1])).any()
        assert [int((tier == t.id).sum()) for t in pool.tiers] == [t.count for t in pool.tiers]
