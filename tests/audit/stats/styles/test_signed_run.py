"""A new style's step-8 features in a real signed run, end to end (`audit.verify.verify_run` with the
public key): a small run of Lucky Pairs (prize_box, one pool of 6,000 tickets) passes every step with
its features in step 8's details; the same run with every loser's game 0 box showing the top prize
(each row still legal, its wins unchanged), re-signed as an insider holding the key would, fails
step 8 alone, naming that box's test."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.build import identity_columns
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import small_example
from tests.support.stats import on_losers

SEED = hashlib.sha256(b"poolgen/tests/style-signed-run").digest()
BOX_0 = "games_prize_0 (a PRIZE box) on tickets whose game 0 does not win, against win/lose"


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("signed")
    spec = load_spec(small_example(tmp, "lucky_pairs", 6000))
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    run = generate(GenerateRequest(spec, SEED, now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp / "runs",
                                   run_id="lucky", signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    return spec, run, keys, signer


def _statistics(report):
    return next(s for s in report.steps if s.step == Step.STATISTICS)


def test_the_honest_run_passes_with_the_styles_features(signed):
    _, run, keys, _ = signed
    report = verify_run(VerifyRequest(run=run, public_key=keys.public))
    assert report.failed == []
    details = "\n".join(_statistics(report).details)
    assert BOX_0 in details and "games_spot_17 (a picture)" in details
    assert "no no-information tests" not in details


def test_a_leak_re_signed_by_an_insider_fails_step_8_alone_naming_the_feature(signed, tmp_path):
    spec, run, keys, signer = signed
    leaky = tmp_path / "leaky"
    shutil.copytree(run, leaky)
    path = next(leaky.glob("pool-*.parquet"))
    table = pl.read_parquet(path)
    area = spec.play.document()["areas"][0]
    top = max(range(len(area["prizes"])), key=lambda i: area["prizes"][i]["cents"])
    table = on_losers(table, area, {"games_prize_0": np.full(table.height, top)})
    table = table.with_columns(list(identity_columns(spec, spec.pools[0], SEED).values()))
    table.write_parquet(path, compression="zstd", compression_level=1, statistics=False)
    doc = json.loads((leaky / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(path)
    doc["pools"][0]["merkle"]["root"] = merkle_root(table).hex()
    for f in doc.pop("deliverables", []):  # the printer's files would tell too (step 9)
        if f["role"] != "pool":
            (leaky / f["name"]).unlink()
    (leaky / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(leaky)
    report = verify_run(VerifyRequest(run=leaky, public_key=keys.public))
    assert report.failed == [Step.STATISTICS]
    reasons = _statistics(report).reasons
    assert any(BOX_0 in r for r in reasons), reasons
