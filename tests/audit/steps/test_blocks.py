"""An eInstant run's block parameters checked from its files (audit/steps/packs.py, a block of serials
being a pack): the example cut to 200 blocks of 100 verifies every step, with its spec and without; a
re-signed manifest that claims other blocks than the spec, or none, is refused at step 5 naming the
field; a malformed `blocks` is refused in one line; every rule names the block that breaks it by number
and serials (and verify does, of a re-signed run with one block short of winners);
and step 8 tests winners per block against the constrained distribution under winners bounds."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from audit.errors import VerificationError
from audit.read.codehash import CODE_HASH_V1
from audit.read.specs.packs import PackCap, PackRules, PackSpacing, for_pool
from audit.steps.packs import check_neighbours, check_pack_rules
from poolgen.cli.main import app
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.blocks import blocks_variant
from tests.support.cli import one_line
from tests.support.reseal import reseal_pool


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("blocks")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = blocks_variant(tmp)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp / "runs", run_id="r", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer, "spec": spec}


def verify(base, run: Path, spec: Path | None = None) -> dict:
    given = ["--spec", str(spec)] if spec is not None else []
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                      *given, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_the_example_verifies_every_step_with_its_spec(base):
    report = verify(base, base["run"], base["spec"])
    assert report["failed_steps"] == []
    fifth = report["steps"][4]["details"]
    assert any(d.startswith("pool d1.00: every one of 200 blocks of 100 serials meets the spec's block "
                            "parameters (winners 25..") for d in fifth)
    assert "the manifest's pack parameters (blocks) are the spec's [blocks]" in fifth
    eighth = " ".join(report["steps"][7]["details"])
    assert "pool d1.00: not tested: winners per block: the game's block parameters (a prize-value floor, " \
           "two spacing rules, three caps, two caps 5.9 does not take, or a cap beside a spacing rule " \
           "other than as 5.8 or 5.9 take it) are drawn by the chain of docs/randomness.md 5.3: no " \
           "closed-form law of the packs to test their histograms against, only their spread over the " \
           "blocks and each tier given the rest of its pair of blocks (audit/stats/packs.py)" in eighth



def test_the_example_verifies_every_step_without_its_spec(base):
    """Plain verify holds every block to the manifest's `blocks` (tests/end_to_end/test_blocks_example.py
    verifies the full pool of 10,000 blocks with the spec)."""
    report = verify(base, base["run"])
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]] == ["pass"] * 6 + ["skip", "pass", "pass"]
    assert any(d.startswith("pool d1.00: every one of 200 blocks of 100 serials meets the manifest's block "
                            "parameters (winners 25..") for d in report["steps"][4]["details"])
    assert "pool d1.00: no two consecutive tickets of a block show identical play data (30 layout " \
           "columns compared)" in report["steps"][3]["details"]

def _resigned(base, tmp_path: Path, edit) -> Path:
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    edit(doc)
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    return run


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("min_winners", 20, "blocks.min_winners: the manifest records 20, the spec states 25"),
    ("shares", 200, "blocks.shares: the manifest records 200, the spec states 100"),
    ("min_prize_times", "30", "blocks.min_prize_times: the manifest records 30, the spec states 40"),
    ("neighbours", "off", "blocks.neighbours: the manifest records off, the spec states within blocks"),
    ("caps", [{"tiers": ["m5000"], "at_most": 1}],
     "blocks.caps[0].tiers: the manifest records m5000, the spec states m5000, m500, m400, m300, m200"),
    # docs/manifest.md: a rule's tiers in the spec's order, each once (the same set is not enough)
    ("caps", [{"tiers": ["m200", "m300", "m400", "m500", "m5000"], "at_most": 1}],
     "blocks.caps[0].tiers: the manifest records m200, m300, m400, m500, m5000, the spec states m5000, m500, "
     "m400, m300, m200"),
    ("spacing", [{"tiers": ["m50", "m45", "m40", "m40"], "min_distance": 2}],
     "blocks.spacing[0].tiers: the manifest records m50, m45, m40, m40, the spec states m50, m45, m40"),
])
def test_a_manifest_claiming_other_blocks_than_the_spec_is_refused_at_step_5(base, tmp_path, field, value,
                                                                             reason):
    run = _resigned(base, tmp_path, lambda doc: doc["blocks"].update({field: value}))
    report = verify(base, run, base["spec"])
    assert 5 in report["failed_steps"]
    assert reason in report["steps"][4]["reasons"]


def _older(doc: dict) -> None:
    """A manifest of a run made before eInstant manifests recorded `blocks` (before the v2 code hash)."""
    doc.pop("blocks")
    doc["tool"]["code"]["algorithm"] = CODE_HASH_V1


def test_a_manifest_without_blocks_is_refused_with_a_spec_that_has_them(base, tmp_path):
    run = _resigned(base, tmp_path, _older)
    assert verify(base, run)["failed_steps"] == []  # nothing to hold the blocks to: no rule
    report = verify(base, run, base["spec"])
    assert "blocks: the manifest records no block parameters, the spec states [blocks]" in \
        report["steps"][4]["reasons"]


def test_a_v2_manifest_with_blocks_deleted_is_refused_in_one_line(base, tmp_path):
    """The generator that writes the v2 code hash records `blocks` in every eInstant run: a re-signed
    manifest without it would be held to no rule at all without --spec (docs/manifest.md)."""
    run = _resigned(base, tmp_path, lambda doc: doc.pop("blocks"))
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public)])
    one_line(result, "poolgen", "manifest.json: blocks: missing (tool.code is poolgen/code/v2: the generator "
             "that made the run records blocks)")


def test_a_malformed_blocks_is_refused_in_one_line(base, tmp_path):
    run = _resigned(base, tmp_path, lambda doc: doc["blocks"].update(shares=1))
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public)])
    one_line(result, "poolgen", "manifest.json: blocks.shares: a block is two or more shares, not 1")


def _table(tiers: list[str], prizes: list[int], spots: list[int]) -> pl.DataFrame:
    n = len(tiers)
    return pl.DataFrame({"position": list(range(n)), "ticket": [f"t{i}" for i in range(n)],
                         "serial": list(range(1, n + 1)), "tier": tiers, "prize_cents": prizes,
                         "salt": ["0" * 32] * n, "spot_0": spots})


def test_each_rule_names_the_block_that_breaks_it():
    t = _table(["lose", "a", "b", "lose", "b", "lose", "lose", "b"], [0, 100, 500, 0, 500, 0, 0, 500],
               [1, 2, 3, 4, 5, 6, 7, 8])
    rules = for_pool(PackRules(min_winners=2, min_prize_times=Decimal("11"), size=4,
                               caps=(PackCap("blocks.caps[0]", 1, tiers=("b",)),),
                               spacing=(PackSpacing("blocks.spacing[0]", 4, tiers=("b",)),)), 100)
    with pytest.raises(VerificationError) as info:
        check_pack_rules(t, 4, rules)
    assert info.value.reason == (
        "2 block(s) break blocks.min_prize_times (1100 cents): block 1 (serials 1..4) pays 600 cents, "
        "block 2 (serials 5..8) pays 1000 cents; 1 block(s) break blocks.caps[0] (at most 1): block 2 "
        "(serials 5..8) holds 2; 1 block(s) break blocks.spacing[0] (at least 4 apart): block 2 (serials "
        "5..8) has two tickets apart by 3")
    same = _table(["lose"] * 8, [0] * 8, [1, 2, 3, 4, 4, 5, 6, 6])
    with pytest.raises(VerificationError) as info:
        check_neighbours(same, 4, PackRules(size=4))
    assert info.value.reason == ("1 pair(s) of consecutive tickets of a block with identical play data "
                                 "(blocks.neighbours): block 2 (serials 5..8): t6 and t7")


def test_step_8_tests_winners_per_block_against_the_bounds(base, tmp_path):
    spec = blocks_variant(tmp_path, blocks="shares = 100\nmin_winners = 30\nmax_winners = 40")
    signer = base["signer"]
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="w", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    report = verify(base, run.folder)
    assert report["failed_steps"] == []
    eighth = " ".join(report["steps"][7]["details"])
    assert "winners per block of 100: histogram of 200 blocks under the block parameters (30..40)" in eighth
    assert "block of 1,000 shares" not in eighth


def test_a_resigned_run_with_one_block_short_of_winners_is_refused_naming_the_block(base, tmp_path):
    """A $1 winner of a block holding exactly 25 winners and at least $41 swaps places with a loser of
    another block: the first falls to 24 winners, and nothing else changes any block's other rules.
    The file hash and Merkle root are restated and the run re-signed; verify without the spec holds
    the pool to the manifest's blocks alone. (Moved from tests/end_to_end/test_blocks_example.py, where
    it tampered with the full pool of 10,000 blocks: the rule, the check and its message are the same
    for 200 blocks, and that file still verifies the full pool every step.)"""
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    name = "pool-d1.00.parquet"
    table = pl.read_parquet(run / name)
    keep = ["position", "ticket", "serial", "salt"]  # what a swap of two shares' contents keeps
    tier = table["tier"].to_numpy()
    blocks = tier.reshape(-1, 100)
    value = table["prize_cents"].cast(pl.Int64).to_numpy().reshape(-1, 100).sum(axis=1)
    poor = next(b for b in range(len(blocks)) if (blocks[b] != "lose").sum() == 25 and value[b] >= 4100
                and (blocks[b] == "m1").any())
    donor = poor * 100 + int(np.flatnonzero(blocks[poor] == "m1")[0])
    receiver = next(p for p in range(table.height) if tier[p] == "lose" and p // 100 != poor)
    order = list(range(table.height))
    order[donor], order[receiver] = receiver, donor
    moved = table.select(pl.exclude(keep))[order]
    table = pl.concat([table.select(keep), moved], how="horizontal").select(table.columns)
    reseal_pool(run, name, table, base["signer"])
    report = verify(base, run)  # the manifest's blocks alone
    assert report["failed_steps"] == [5]
    assert report["steps"][4]["reasons"] == [
        f"pool d1.00: 1 block(s) break blocks.min_winners (25): block {poor + 1:,} (serials "
        f"{poor * 100 + 1:,}..{poor * 100 + 100:,}) has 24 winners"]
