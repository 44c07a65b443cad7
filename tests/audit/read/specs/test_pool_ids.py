"""A pool's id is the spec's for what it holds (docs/pool-files.md: printed pool k `pk`, holding the
order's k-th books; an eInstant's `d` and its denomination, `xK` when the spec lists several numbers of
play areas), audit/read/specs/printed.py and einstant.py. An insider holding the signing key who
relabels two pools (files renamed, ticket ids rewritten to the new pool id, Merkle roots and the
deliverables list restated, signed again) passes every other step without the seed: sold by its id,
an eInstant pool named d1.00 that holds the $2 pool charges $2 a share. With --spec step 5 refuses it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant
from tests.support.reseal import signed_small_run


def _relabel(run: Path, names: dict[str, str], signer: Signer) -> None:
    """Give each pool of the run the id `names` maps it to: its files renamed, an eInstant's ticket ids
    rewritten, the manifest's pool entries (in the new ids' order, so the stream labels keep theirs)
    and deliverables restated, signed again."""
    doc = json.loads((run / "manifest.json").read_bytes())
    tables = {p["id"]: pl.read_parquet(run / p["file"]["name"]) for p in doc["pools"]}
    for f in doc["deliverables"]:
        (run / f["name"]).rename(run / f"{f['name']}.was")
    for f in doc["deliverables"]:
        old = f.get("pool")
        new_name = f["name"].replace(f"-{old}.", f"-{names[old]}.") if old else f["name"]
        (run / f"{f['name']}.was").rename(run / new_name)
        if old:
            f["pool"], f["name"] = names[old], new_name
    for p in doc["pools"]:
        old, new = p["id"], names[p["id"]]
        name = f"pool-{new}.parquet"
        if doc["game"]["kind"] == "einstant":
            ticket = pl.col("ticket").str.replace(f"^{old}-", f"{new}-", literal=False)
            table = tables[old].with_columns(ticket)
            table.write_parquet(run / name, compression="zstd", statistics=True)
            listed = next(f for f in doc["deliverables"] if f.get("pool") == new and f["role"] == "pool")
            listed["name"] = name
        p["id"], p["file"] = new, file_entry(run / name)
        p["merkle"]["root"] = merkle_root(pl.read_parquet(run / name)).hex()
    doc["pools"].sort(key=lambda p: p["id"])
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(run)


@pytest.fixture
def einstant(tmp_path) -> dict:
    files = new_key_pair(tmp_path / "keys", None)
    signer = Signer.from_file(files.private)
    spec = small_einstant(tmp_path, "hand_to_hand_tactics", 2000)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="e", signature=signer.manifest_entry(),
                                   pool_ids=["d1.00", "d2.00"]), finish=signer.sign_run).folder
    return {"run": run, "public": files.public, "signer": signer, "spec": spec}


def test_an_einstant_pool_relabelled_as_another_denomination_fails_step_5(einstant):
    run = einstant["run"]
    _relabel(run, {"d1.00": "d2.00", "d2.00": "d1.00"}, einstant["signer"])
    without = verify_run(VerifyRequest(run=run, public_key=einstant["public"]))
    assert without.failed == [Step.FIGURES], without.to_json()  # the names, from the manifest alone
    names = ("manifest field(s) not the value the contract gives them: pools[0].id 'd1.00', not 'd2.00' or "
             "'d2.00x1'; pools[1].id 'd2.00', not 'd1.00' or 'd1.00x1'")
    assert without.step(Step.FIGURES).reasons == [names]
    report = verify_run(VerifyRequest(run=run, public_key=einstant["public"], spec=einstant["spec"]))
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == [names,
        "pool d1.00: id 'd1.00' for the spec's pool 'd2.00' (docs/pool-files.md); "
        "pool d2.00: id 'd2.00' for the spec's pool 'd1.00' (docs/pool-files.md)"]


def test_printed_pools_relabelled_fail_step_5(tmp_path):
    signed = signed_small_run(tmp_path, 6000)
    run = signed["run"]
    _relabel(run, {"p1": "p2", "p2": "p1"}, signed["signer"])
    without = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert without.failed == [Step.FIGURES], without.to_json()  # the names, from the manifest alone
    names = ("manifest field(s) not the value the contract gives them: pools[0].first_book 10: pool p1 "
             "starts at book slot 0; pools[1].first_book 0: pool p2 (10 books) starts at 1 x the books of "
             "the order's whole pools, at least 1 x 10")
    assert without.step(Step.FIGURES).reasons == [names]
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.FIGURES], report.to_json()
    assert report.step(Step.FIGURES).reasons == [names, "pool p1: id p1, spec p2; pool p2: id p2, spec p1"]
