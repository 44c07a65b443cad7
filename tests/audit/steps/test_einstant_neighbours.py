"""An eInstant run's default neighbour rule checked from its files (audit/steps/packs.py, step 4): the
manifest's `blocks` records it (`{"neighbours": "across blocks"}`, no blocks), so plain verify holds
every pair of consecutive serials to it; a re-signed run with a planted identical pair is refused naming
the pool, the serials and the rule, with and without --spec; a manifest without `blocks` (a run made
before 2026-12-02, with the rule off) verifies as before; malformed entries are refused in one line."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.read.codehash import CODE_HASH_V1
from poolgen.cli.main import app
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.packs import identical_pairs
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.blocks import blocks_variant
from tests.support.cli import invoke, one_line
from tests.support.reseal import reseal_pool

POOL = "pool-d1.00.parquet"
SHARED = ["position", "ticket", "serial", "tier", "prize_cents", "salt"]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("einstant-neighbours")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    out = {"keys": keys, "signer": signer}
    for name, blocks in (("on", ""), ("off", 'neighbours = "off"')):
        spec = blocks_variant(tmp, blocks=blocks, name=f"{name}.toml")
        run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                       out=tmp / "runs", run_id=name, signature=signer.manifest_entry()),
                       finish=signer.sign_run)
        out[name], out[f"{name}_spec"] = run.folder, spec
    return out


def verify(base, run: Path, spec: Path | None = None, *more: str) -> dict:
    given = ["--spec", str(spec), *more] if spec is not None else []
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public),
                                      *given, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _resigned(base, tmp_path: Path, run: Path, edit) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    doc = json.loads((copy / "manifest.json").read_bytes())
    edit(doc)
    (copy / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(copy)
    return copy


def test_a_new_run_records_the_rule_and_plain_verify_holds_every_pair_to_it(base):
    doc = json.loads((base["on"] / "manifest.json").read_bytes())
    assert doc["blocks"] == {"neighbours": "across blocks"}
    for spec in (None, base["on_spec"]):
        report = verify(base, base["on"], spec)
        assert report["failed_steps"] == []
        assert ("pool d1.00: no two consecutive tickets of the pool (consecutive serials) show identical "
                "play data (30 layout columns compared)") in report["steps"][3]["details"]
    fifth = verify(base, base["on"], base["on_spec"])["steps"][4]["details"]
    assert "the manifest's pack parameters (blocks) are the spec's [blocks]" in fifth


def test_a_resigned_run_with_a_planted_identical_pair_is_refused_naming_the_serials(base, tmp_path):
    """Share p + 1 (a loser after a loser) is given share p's play data: its layout still pays what its
    tier pays (step 4's engines pass it), the file hash and Merkle root are restated and the run
    re-signed; the neighbour rule alone refuses it, from the manifest and from the spec."""
    run = tmp_path / "run"
    shutil.copytree(base["on"], run)
    table = pl.read_parquet(run / POOL)
    tier = table["tier"].to_list()
    p = next(p for p in range(1000, table.height - 1) if tier[p] == tier[p + 1] == "lose")
    layout = [c for c in table.columns if c not in SHARED]
    rows = list(range(table.height))
    rows[p + 1] = p
    planted = table.select(layout)[rows]
    table = pl.concat([table.select(SHARED), planted], how="horizontal").select(table.columns)
    reseal_pool(run, POOL, table, base["signer"])
    first = f"serials {p + 1:,} and {p + 2:,}: d1.00-{p + 1:07d} and d1.00-{p + 2:07d}"
    for spec in (None, base["on_spec"]):
        report = verify(base, run, spec)
        assert report["failed_steps"] == [4]
        reasons = report["steps"][3]["reasons"]
        assert len(reasons) == 1 and reasons[0].startswith(
            "pool d1.00: ") and " pair(s) of consecutive tickets of the pool (consecutive serials) with " \
            "identical play data (blocks.neighbours): " in reasons[0] and first in reasons[0]


def test_a_manifest_without_blocks_verifies_as_before(base, tmp_path):
    """A run made with the rule off whose manifest records no `blocks` (as every eInstant manifest did
    before 2026-12-02), and names the spec without `[blocks]` it was made from: its identical pairs are no
    fault, with or without that spec."""
    spec = base["on_spec"]

    def older(doc: dict) -> None:
        doc.pop("blocks")
        doc["tool"]["code"]["algorithm"] = CODE_HASH_V1  # made before the v2 code hash too
        doc["spec"] = {"file": spec.name, "sha256": hashlib.sha256(spec.read_bytes()).hexdigest()}

    run = _resigned(base, tmp_path, base["off"], older)
    table = pl.read_parquet(run / POOL)
    layout = {c: table[c].to_numpy() for c in table.columns if c not in SHARED}
    assert identical_pairs(layout, table.height, across=True).size > 10  # what the rule would refuse
    for spec in (None, base["on_spec"]):
        report = verify(base, run, spec)
        assert report["failed_steps"] == []
        assert not any("neighbour" in d or "identical" in d for d in report["steps"][3]["details"])
    fifth = verify(base, run, base["on_spec"])["steps"][4]["details"]
    assert ("the manifest records no block parameters: a run made before eInstants had the neighbour rule by "
            "default (2026-12-02), made and checked without it") in fifth
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    report = verify(base, run, spec, "--seed-file", str(seed))  # regenerated without the rule, as made
    assert report["failed_steps"] == [] and report["steps"][6]["status"] == "pass"
    assert "1 pool file(s) regenerated byte for byte" in " ".join(report["steps"][6]["details"])
    report = verify(base, base["on"], spec, "--seed-file", str(seed))  # a new run: with the rule
    assert report["failed_steps"] == [] and report["steps"][6]["status"] == "pass"


def test_a_run_made_with_the_rule_off_says_so_and_the_default_spec_refuses_its_manifest(base):
    assert json.loads((base["off"] / "manifest.json").read_bytes())["blocks"] == {"neighbours": "off"}
    report = verify(base, base["off"])
    assert report["failed_steps"] == []
    assert "pool d1.00: no neighbour rule (blocks.neighbours = \"off\")" in report["steps"][3]["details"]
    report = verify(base, base["off"], base["on_spec"])
    assert 5 in report["failed_steps"]
    assert "blocks.neighbours: the manifest records off, the spec states across blocks" in \
        report["steps"][4]["reasons"]


@pytest.mark.parametrize(("blocks", "message"), [
    ({"neighbours": "within blocks"},
     "manifest.json: blocks.neighbours: 'within blocks' (without shares: across blocks or off)"),
    ({"neighbours": "off", "min_winners": 3}, "manifest.json: blocks: a table of shares, neighbours"),
    ({}, "manifest.json: blocks: a table of shares, neighbours"),
])
def test_a_malformed_blocks_without_shares_is_refused_in_one_line(base, tmp_path, blocks, message):
    run = _resigned(base, tmp_path, base["on"], lambda doc: doc.update(blocks=blocks))
    one_line(invoke("verify", run, "--public-key", base["keys"].public), "poolgen", message)


@pytest.mark.parametrize(("blocks", "message"), [
    ('neighbours = "within blocks"', "blocks.neighbours: \"within blocks\" needs blocks.shares"),
    ("caps = [ { tiers = [\"m1\"], at_most = 50 } ]", "blocks.shares: missing field: blocks.caps is a rule "
                                                      "per block, which needs the block's size"),
])
def test_check_refuses_a_rule_per_block_without_blocks_in_one_line(tmp_path, blocks, message):
    spec = blocks_variant(tmp_path, blocks=blocks)
    one_line(invoke("check", spec), "poolgen", f"{spec.name}: {message}")
