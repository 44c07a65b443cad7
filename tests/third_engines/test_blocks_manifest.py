"""A third reading of the eInstant `[blocks]` contract (docs/new-game.md 2b, docs/manifest.md `blocks`)
against plain `verify` (no --spec) of a re-signed manifest. Found by the red team (issue 27): audit's
manifest reader refuses some `blocks` the contract refuses (shares below 2, a floor of fractional
cents, an unknown field) but judges others every block against, where a third engine has no block
to judge by: a block size that does not divide the pool (2b: "*Blocks divide the pool* (`shares` is
refused otherwise, and below 2)"), and a spacing below 2 ("`min_distance` below 2 or above a pack").
Both are now refused in one line naming the field (audit/read/specs/packs.py `_coherent`), as are
min_winners above max_winners and a cap or spacing naming no pool's tier."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.blocks import blocks_variant


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("blocks3")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = blocks_variant(tmp)  # one pool of 20,000 shares in blocks of 100
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp / "runs", run_id="r", signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer}


def _verify_resigned(base, tmp_path: Path, edit):
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    edit(doc["blocks"])
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    return CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public)])


def test_a_block_of_one_share_is_refused_in_one_line(base, tmp_path):
    result = _verify_resigned(base, tmp_path, lambda b: b.update(shares=1))
    assert result.exit_code == 2 and "manifest.json: blocks.shares:" in result.output


def test_a_block_size_that_does_not_divide_the_pool_is_refused_in_one_line(base, tmp_path):
    result = _verify_resigned(base, tmp_path, lambda b: b.update(shares=300))
    assert result.exit_code == 2 and "blocks.shares" in result.output, result.output


def test_a_spacing_below_2_is_refused_in_one_line(base, tmp_path):
    result = _verify_resigned(base, tmp_path, lambda b: b["spacing"][0].update(min_distance=1))
    assert result.exit_code == 2 and "blocks.spacing[0]" in result.output, result.output


def test_min_winners_above_max_winners_is_refused_in_one_line(base, tmp_path):
    result = _verify_resigned(base, tmp_path, lambda b: b.update(min_winners=40, max_winners=30))
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].endswith(
        "manifest.json: blocks.min_winners: 40 is above max_winners (30)"), result.output


def test_a_cap_naming_no_pools_tier_is_refused_in_one_line(base, tmp_path):
    result = _verify_resigned(base, tmp_path, lambda b: b["caps"][0].update(tiers=["no_such_tier"]))
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].endswith(
        "manifest.json: blocks.caps[0].tiers: 'no_such_tier' is no pool's tier"), result.output
