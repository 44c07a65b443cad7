"""The split third engine (tests/third_engines/split.py: its own HKDF-SHA256, ChaCha20 and sampling,
from docs/randomness.md sections 1 to 3 and 4b alone) against the known answers of tests/vectors/ and
against real runs: a small split order of three pools (the last smaller, `last_pool`) generated from
three seeds, whole and cut to one pool. Each pool's counts in the manifest and in its pool file are the
engine's draw, each pool holds its share rounded down or up, its losers are its tickets less its winners,
and the pools add up to the order's counts."""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A, SEED_B, VECTORS
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import split

SEEDS = {"a": SEED_A, "b": SEED_B, "c": bytes(range(100, 132))}


def test_the_streams_are_the_known_answers_of_drbg_txt():
    lines = re.findall(r"seed=(\w+) label=(\S+) bytes=(\w+)", (VECTORS / "drbg.txt").read_text())
    assert len(lines) == 2
    for seed, label, want in lines:
        parts = ("poolgen/v1", *label.removeprefix("poolgen/v1/").split("/"))
        assert split.Stream(bytes.fromhex(seed), parts).read(96).hex() == want


def test_the_split_is_the_known_answers_of_split_txt():
    text = (VECTORS / "split.txt").read_text()
    lines = re.findall(r"split\(sizes=([\d,]+); counts=([\d,]+)\) = (.*)", text)
    assert len(lines) == 3
    for sizes, counts, want in lines:
        got = split.split_counts(SEED_A, "vectors", [int(s) for s in sizes.split(",")],
                                 [int(c) for c in counts.split(",")])
        assert got == [[int(x) for x in pool.split()] for pool in want.split("|")]


def _doc() -> dict:
    """An order of 1,500 in pools of 600, 600 and 300 (books of 50), counts per order: 7, 3 and 1 of
    three prizes split unevenly, 150 and 75 of two that split exactly."""
    numbers = [{"group": "num", "code": str(n), "symbol": str(n)} for n in range(1, 9)]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}.00", "value": f"{c}.00"}
              for c in ("1", "5", "50", "500")]
    area = {"id": "play", "style": "key_number_match", "spots": 6, "winning": 2, "yours": 2,
            "numbers": "num", "prizes": "pz"}
    tiers = [{"id": t, "count": c, "wins": [{"area": "play", "prize": p, "how": "match"}]}
             for t, c, p in (("t1", 150, "1"), ("t5", 75, "5"), ("t50", 7, "50"), ("t500", 3, "500"))]
    tiers.append({"id": "t550", "count": 1, "wins": [{"area": "play", "prize": "500", "how": "match"},
                                                      {"area": "play", "prize": "50", "how": "match"}]})
    doc = base_doc([area], numbers + prizes, tiers, max_wins=2, pool_tickets=600)
    doc["printed"].update(order_tickets=1500, counts_per="order", last_pool="partial", split="even")
    return doc


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Runs of the order from each seed, and from seed a a run of p2 alone ("a-p2")."""
    root = tmp_path_factory.mktemp("split")
    spec = root / "g.toml"
    spec.write_text(dumps(_doc()))
    game = load_spec(spec)
    made = {}
    for name, seed, pools in (*((n, s, None) for n, s in SEEDS.items()), ("a-p2", SEED_A, ["p2"])):
        made[name] = generate(GenerateRequest(game, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=root,
                                              run_id=name, pool_ids=pools)).folder
    return made


ORDER = {"t1": 150, "t5": 75, "t50": 7, "t500": 3, "t550": 1}


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_each_pool_holds_the_counts_the_seed_draws(runs, seed):
    manifest = json.loads((runs[seed] / "manifest.json").read_text())
    assert manifest["print"]["split"] == {"rule": "even", "order_tickets": 1500, "pool_tickets": 600,
                                          "tiers": [{"id": t, "count": c} for t, c in ORDER.items()]}
    # from the seed and the spec alone: its game id names the stream, its order and counts are drawn
    drawn = split.split_counts(SEEDS[seed], _doc()["game"]["id"], split.order_sizes(1500, 600),
                               list(ORDER.values()))
    assert [p["id"] for p in manifest["pools"]] == ["p1", "p2", "p3"]
    for pool, counts in zip(manifest["pools"], drawn, strict=True):
        want = dict(zip(ORDER, counts, strict=True))
        stated = {t["id"]: t["count"] for t in pool["tiers"]}
        # a tier the pool does not hold counts 0
        stored = Counter(pl.read_parquet(runs[seed] / pool["file"]["name"], columns=["tier"])["tier"])
        assert stated == {t: stored[t] for t in stated} == {**want, "lose": pool["tickets"] - sum(counts)}
        for t, c in want.items():  # its exact share, rounded down or up
            assert ORDER[t] * pool["tickets"] // 1500 <= c <= -(-ORDER[t] * pool["tickets"] // 1500)
    assert [sum(col) for col in zip(*drawn, strict=True)] == list(ORDER.values())


def test_the_seeds_draw_different_pools_to_round_up(runs):
    """Not a property of one run, but of the draw: the three seeds do not all give one split."""
    splits = {json.dumps([p["tiers"] for p in json.loads((runs[s] / "manifest.json").read_text())["pools"]])
              for s in SEEDS}
    assert len(splits) > 1


def test_a_run_of_one_pool_holds_its_share_of_the_whole_orders_draw(runs):
    whole = json.loads((runs["a"] / "manifest.json").read_text())["pools"][1]
    cut = json.loads((runs["a-p2"] / "manifest.json").read_text())["pools"]
    assert [p["id"] for p in cut] == ["p2"]
    assert cut[0]["tiers"] == whole["tiers"]
    assert (runs["a-p2"] / "pool-p2.parquet").read_bytes() == (runs["a"] / "pool-p2.parquet").read_bytes()


def test_the_engine_poolgen_and_audit_draw_the_same_split_of_random_orders():
    """40 random orders (2 to 64 pools of 1 to 1,000,000 tickets, the last one smaller or not, up to 12
    tiers, a few as large as the order) and seeds: the three implementations give the same counts."""
    # function-local: the two implementations the engine is held to; the engine module imports neither
    from audit.steps.split import SplitOrder, split_table
    from poolgen.run.split import split_counts

    rng = random.Random(7)
    for _ in range(40):
        pools, pool = rng.randint(2, 64), rng.choice([rng.randint(1, 50), rng.randint(1, 10**6)])
        sizes = [pool] * (pools - 1) + [rng.choice([pool, rng.randint(1, pool)])]
        order = sum(sizes)
        counts = [rng.randint(1, order) if rng.random() < 0.2 else rng.randint(1, min(order, 50))
                  for _ in range(rng.randint(1, 12))]
        seed = rng.randbytes(32)
        ours = [list(tier) for tier in zip(*split.split_counts(seed, "lab", sizes, counts), strict=True)]
        assert split_counts(seed, "lab", counts, sizes) == ours
        tiers = [(str(i), c) for i, c in enumerate(counts)]
        assert split_table(seed, "lab", SplitOrder(order, sizes, tiers)) == ours


def test_red_hot_wild_7s_pools_last_pool_holds_the_engines_draw(tmp_path):
    """The real example (specs/examples/red_hot_wild_7s_pools.toml: 1,010,300 tickets in four pools of
    250,000 and one of 10,300, 26 tiers none of which splits exactly), its smallest pool alone: its
    counts are the engine's draw over the whole order, from the spec and the seed."""
    spec = ROOT / "specs/examples/red_hot_wild_7s_pools.toml"
    doc = tomllib.loads(spec.read_text())
    run = generate(GenerateRequest(load_spec(spec), SEED_B, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path, run_id="r", pool_ids=["p5"])).folder
    sizes = split.order_sizes(doc["printed"]["order_tickets"], doc["printed"]["pool_tickets"])
    assert sizes == [250000] * 4 + [10300]
    drawn = split.split_counts(SEED_B, doc["game"]["id"], sizes, [t["count"] for t in doc["tiers"]])
    (pool,) = json.loads((run / "manifest.json").read_text())["pools"]
    want = {t["id"]: c for t, c in zip(doc["tiers"], drawn[4], strict=True)}
    assert {t["id"]: t["count"] for t in pool["tiers"]} == {**want, "lose": 10300 - sum(want.values())}
    stored = Counter(pl.read_parquet(run / "pool-p5.parquet", columns=["tier"])["tier"])
    assert {t: stored[t] for t in want} == want
    assert [sum(col) for col in zip(*drawn, strict=True)] == [t["count"] for t in doc["tiers"]]
