"""The block-parameter example (specs/examples/hand_to_hand_blocks.toml), a full pool of 1,000,000 shares
in blocks of 100: `check` proves it possible, a signed run generates and verifies every step with the
spec, and every block meets every parameter (counted here from the pool file alone). Verified without
the spec (every block held to the manifest's `blocks`), and a re-signed copy in which one block falls
below its minimum of winners, refused naming the block, are tests/audit/steps/test_blocks.py's, on the
example cut to 200 blocks: the same rules and messages."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.blocks import EXAMPLE

POOL = "pool-d1.00.parquet"
KEEP = ["position", "ticket", "serial", "salt"]  # identity columns, not layout
BIG = ["m5000", "m500", "m400", "m300", "m200"]
SPACED = ["m50", "m45", "m40"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("blocks")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    run = generate(GenerateRequest(load_spec(EXAMPLE), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp / "runs", run_id="r", signature=signer.manifest_entry(),
                                   workers=1),
                   finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer}


def verify(base, run: Path) -> dict:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                      "--spec", str(EXAMPLE), "--json", "--workers", "1"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_check_proves_the_blocks_possible_and_says_what_each_parameter_does():
    result = CliRunner().invoke(app, ["check", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "blocks of 100 consecutive serials (blocks.shares)" in said
    assert "pool d1.00: blocks a uniform shuffle would leave breaking each parameter (min $40.00): " \
           "min_winners 2.17%; min_prize_times 0.894%; caps[0] 0.00085%; spacing[0] 0.0237%; possible" in said


def test_every_block_of_a_full_pool_meets_every_parameter(base):
    table = pl.read_parquet(base["run"] / POOL)
    assert table.height == 1_000_000
    tier = table["tier"].to_numpy().reshape(10_000, 100)
    prize = table["prize_cents"].cast(pl.Int64).to_numpy().reshape(10_000, 100)
    assert ((tier != "lose").sum(axis=1) >= 25).all()
    assert (prize.sum(axis=1) >= 4000).all()
    assert (np.isin(tier, BIG).sum(axis=1) <= 1).all()
    spaced = np.isin(tier, SPACED)
    assert not (spaced[:, 1:] & spaced[:, :-1]).any()
    layout = [c for c in table.columns if c not in {*KEEP, "tier", "prize_cents"}]
    same = np.ones(table.height - 1, dtype=bool)
    for c in layout:
        v = table[c].to_numpy()
        same &= v[1:] == v[:-1]
    assert not (same & (np.arange(1, table.height) % 100 != 0)).any()


def test_the_run_records_its_blocks_and_verifies_every_step_with_the_spec(base):
    """With the spec; without it (every block held to the manifest's `blocks`), on the example cut to
    200 blocks: tests/audit/steps/test_blocks.py."""
    doc = json.loads((base["run"] / "manifest.json").read_bytes())
    assert doc["blocks"] == {"shares": 100, "neighbours": "within blocks", "min_winners": 25,
                             "min_prize_times": "40", "caps": [{"tiers": BIG, "at_most": 1}],
                             "spacing": [{"tiers": SPACED, "min_distance": 2}]}
    report = verify(base, base["run"])
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]] == ["pass"] * 6 + ["skip", "pass", "pass"]
    assert any(d.startswith("pool d1.00: every one of 10,000 blocks of 100 serials meets the spec's "
                            "block parameters (winners 25..") for d in report["steps"][4]["details"])
    assert "pool d1.00: no two consecutive tickets of a block show identical play data (30 layout " \
           "columns compared)" in report["steps"][3]["details"]
