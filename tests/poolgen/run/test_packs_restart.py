"""The chain's descent starts again when it gives up (docs/randomness.md 5.3, step 2): a small split order
that `check` accepts, two spacing rules of distance 25 on overlapping tiers filling their 40 packs of 50
exactly when the shares round up, whose pool p4 under one seed saw its first descent give up, so that
`generate` refused the run (review10). With restarts it generates, every pack meeting both rules, and
the third engine (tests/third_engines/chain.py, from the doc) draws the same pool again."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.rng.labels import stream_label
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.packs import NoArrangement, rules_for, start, valid_start
from poolgen.run.split import split_game
from tests.support.cli import invoke
from tests.support.spec_docs import kn_doc, write
from tests.third_engines import chain, packs

SEED = (3).to_bytes(32, "big")  # its p4's first descent gives up
IDS = ["lose", "free", "1", "2", "6"]


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    """kn_doc's game as an order of six pools of 2,000 (40 packs of 50), counts per order split evenly:
    free 40 and $2 40 a pool, $1 39 or 40 (237 an order), $6 1; free or $1, and $1 or $2, at least 25
    apart in a pack: at most two of each pair a pack, so with $1 rounded up every pack holds exactly
    two of each."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    for tier, count in zip(doc["tiers"], (240, 237, 240, 6), strict=True):
        tier["count"] = count
    doc["packs"] = {"spacing": [{"tiers": ["free", "1"], "min_distance": 25},
                                {"tiers": ["1", "2"], "min_distance": 25}]}
    return write(tmp_path_factory.mktemp("restart"), doc)


def test_the_tight_split_spec_is_accepted_by_check_and_its_pool_p4_first_descent_gives_up(spec):
    assert invoke("check", spec).exit_code == 0
    game = split_game(load_spec(spec), SEED)
    pool = game.pool("p4")
    assert [t.count for t in pool.tiers] == [1879, 40, 40, 40, 1]  # $1 rounded up: every pack full
    rules = rules_for(game, pool)
    assert rules is not None
    stream = derive_stream(SEED, *stream_label(game.id, pool.id, "order"))
    with pytest.raises(NoArrangement, match=r"^no arrangement meeting the pack parameters found after 200 "
                                            r"proposals per ticket \(1 packs still short\)$"):
        valid_start(stream, rules, start(stream, rules))


def test_the_pool_whose_first_descent_gave_up_generates_and_the_third_engine_draws_it_again(spec, tmp_path):
    run = generate(GenerateRequest(load_spec(spec), SEED, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path,
                                   run_id="r", pool_ids=["p4"])).folder
    (entry,) = json.loads((run / "manifest.json").read_bytes())["pools"]
    stored = pl.read_parquet(run / "pool-p4.parquet", columns=["position", "tier"]).sort("position")["tier"]
    order = [IDS.index(t) for t in stored]
    for b in range(40):
        pack = order[50 * b:50 * b + 50]
        for tiers in ({1, 2}, {2, 3}):
            places = [i for i, t in enumerate(pack) if t in tiers]
            assert len(places) == 2 and places[1] - places[0] >= 25, (b, pack)
    counts = [{t["id"]: t["count"] for t in entry["tiers"]}.get(t, 0) for t in IDS]
    rules = packs.Rules(min_winners=None, max_winners=None, caps=[],
                        spacing=[(frozenset({1, 2}), 25), (frozenset({2, 3}), 25)], floor=None)
    assert chain.redraw(SEED, "test_game", "p4", 50, counts, [0, 100, 100, 200, 600], rules) == order
