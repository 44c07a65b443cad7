"""A ticket's proof (poolgen/run/prove.py, `prove_ticket`) from small real runs, checked by audit
alone: the row, its leaf, its path and the root; the ticket found in any pool; what it refuses."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime

import polars as pl
import pytest

import audit.merkle as am
from poolgen.errors import RunError
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.prove import prove_ticket
from poolgen.run.signing import Signer, fingerprint, load_public_key, new_key_pair
from tests.support import SEED_A, spec_path
from tests.support.cli import invoke, one_line
from tests.support.virns import virn_of


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A run of one cut-down Happy Holidays pool of 41 tickets (1 book), built by `generate`."""
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pool("p1")
    counts = [30, 4, 3, 2, 1, 0, 1]
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, counts, strict=False))
    small = replace(pool, tiers=tiers, tickets=sum(counts), books=1)
    out = tmp_path_factory.mktemp("proof")
    return generate(GenerateRequest(replace(spec, pools=(small,)), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=out, run_id="r")).folder


def test_prove_ticket_gives_the_row_path_and_root_audit_checks(small_run):
    manifest = (small_run / "manifest.json").read_bytes()
    entry = json.loads(manifest)["pools"][0]
    table = pl.read_parquet(small_run / "pool-p1.parquet")
    proof = prove_ticket(small_run, "465-0000000-034", virn_of(small_run, "465-0000000-034"))
    assert set(proof) == {"format", "run_id", "manifest_sha256", "pool", "tickets", "position", "ticket",
                          "row", "leaf", "path", "merkle"}
    assert proof["format"] == "poolgen-proof/2" and proof["run_id"] == "r" and proof["pool"] == "p1"
    assert proof["manifest_sha256"] == hashlib.sha256(manifest).hexdigest()
    assert (proof["tickets"], proof["position"], proof["ticket"]) == (41, 34, "465-0000000-034")
    assert proof["row"] == table.row(34, named=True)
    assert entry["merkle"]["root"] == am.table_root(table).hex()
    assert proof["merkle"] == {"algorithm": "poolgen-merkle/v2", "root": entry["merkle"]["root"]}
    leaf = am.leaf_of_row(proof["row"])
    assert proof["leaf"] == leaf.hex()
    assert am.root_from_path(leaf, 34, 41, proof["path"]).hex() == entry["merkle"]["root"]
    first = prove_ticket(small_run, "465-0000000-000", virn_of(small_run, "465-0000000-000"))
    assert first["position"] == 0 and first["row"]["ticket"] == "465-0000000-000"


def test_prove_ticket_of_an_unknown_ticket(small_run):
    with pytest.raises(RunError) as info:
        prove_ticket(small_run, "465-0000000-041", "0" * 12)
    assert str(info.value) == f"{small_run}: no ticket '465-0000000-041' in any pool of the run"


def test_prove_ticket_refuses_a_pool_file_whose_root_is_not_the_manifests(small_run, tmp_path):
    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    table.with_columns(pl.when(pl.col("position") == 3).then(pl.lit("0" * 32)).otherwise(pl.col("salt"))
                       .alias("salt")).write_parquet(run / "pool-p1.parquet")
    with pytest.raises(RunError) as info:
        prove_ticket(run, "465-0000000-001", virn_of(run, "465-0000000-001"))
    assert str(info.value) == f"{run / 'pool-p1.parquet'}: its Merkle root is not the manifest's; the run " \
                              "folder is damaged"


def test_prove_ticket_finds_a_ticket_of_a_later_pool(tmp_path):
    spec = load_spec(spec_path("happy_holidays"))
    pools = []
    for pool in spec.pools[:2]:
        tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, [8, 1], strict=False))
        pools.append(replace(pool, tiers=tiers, tickets=9, books=1))
    run = generate(GenerateRequest(replace(spec, pools=tuple(pools)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path, run_id="two")).folder
    ticket = pl.read_parquet(run / "pool-p2.parquet")["ticket"][6]
    proof = prove_ticket(run, ticket, virn_of(run, ticket))
    assert (proof["pool"], proof["position"], proof["tickets"], proof["ticket"]) == ("p2", 6, 9, ticket)


def test_prove_ticket_of_a_pool_file_without_a_row_encoding(small_run, tmp_path):
    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    table.with_columns(pl.lit(0.5).alias("x")).write_parquet(run / "pool-p1.parquet")
    with pytest.raises(RunError) as info:
        prove_ticket(run, "465-0000000-001", virn_of(run, "465-0000000-001"))
    # refused at the run-file boundary (audit/read/runfiles.py) before any row is read
    assert str(info.value) == f"{run}: cannot read pool p1 (pool-p1.parquet): {run / 'pool-p1.parquet'}: " \
                              "column 'x' is Float64; a run's columns are integers or text"


def test_prove_ticket_of_a_printed_ticket_needs_its_validation_number(small_run):
    """The proof is the ticket's outcome, and its id and barcode number are on its outside (a retailer
    could ask for its unsold books' proofs): it was handed for the id alone. Now only against the VIRN
    the pool's imaging file gives the ticket; another ticket's VIRN is a wrong one."""
    with pytest.raises(RunError) as info:
        prove_ticket(small_run, "465-0000000-034")
    assert str(info.value) == (
        "465-0000000-034: a printed ticket's proof is its outcome, given only to whoever shows its "
        "validation number (VIRN), which only its holder can read: give it after TICKET "
        "(docs/publish-and-reveal.md)")
    virn, other = virn_of(small_run, "465-0000000-034"), virn_of(small_run, "465-0000000-035")
    assert virn != other
    for wrong in (other, virn[:-1], "0" + virn):
        with pytest.raises(RunError) as info:
            prove_ticket(small_run, "465-0000000-034", wrong)
        assert str(info.value) == "465-0000000-034: wrong validation number; no proof given"
    assert prove_ticket(small_run, "465-0000000-034", virn)["position"] == 34


def test_a_virn_is_checked_only_against_the_imaging_file_the_manifest_lists(small_run, tmp_path):
    """merkle-proof trusted the pool's imaging file as it found it: one re-written with a VIRN of its
    writer's choosing handed the ticket's proof (its outcome) to whoever gave that VIRN. Now the file is
    read only if its size and SHA-256 are the manifest's (as the desk vouches files), else one line,
    exit 2, no proof."""
    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    imaging = run / "imaging-p1.parquet"
    table = pl.read_parquet(imaging)
    chosen = "0" * len(virn_of(run, "465-0000000-034"))
    entry = next(f for f in json.loads((run / "manifest.json").read_bytes())["deliverables"]
                 if f["name"] == imaging.name)
    table.with_columns(pl.when(pl.col("barcode").str.starts_with("4650000000034")).then(pl.lit(chosen))
                       .otherwise(pl.col("virn")).alias("virn")).write_parquet(imaging)
    assert virn_of(run, "465-0000000-034") == chosen
    size = imaging.stat().st_size
    assert size != entry["bytes"]
    result = invoke("merkle-proof", run, "465-0000000-034", chosen, "--json")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        f"poolgen: error: {imaging}: {size:,} bytes, not the {entry['bytes']:,} the manifest lists; refusing "
        "to check a validation number against it\n"))
    shutil.copy(small_run / imaging.name, imaging)  # the file generated, the manifest's hash changed
    doc = json.loads((run / "manifest.json").read_bytes())
    for f in doc["deliverables"]:
        if f["name"] == imaging.name:
            f["sha256"] = "0" * 64
    (run / "manifest.json").write_bytes(json.dumps(doc).encode())
    with pytest.raises(RunError) as info:
        prove_ticket(run, "465-0000000-034", virn_of(run, "465-0000000-034"))
    assert str(info.value) == (f"{imaging}: its SHA-256 is not the one the manifest lists; the file was "
                               "changed, refusing to check a validation number against it")


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """The small run's pool, signed, and its key pair; and another key pair."""
    tmp = tmp_path_factory.mktemp("signed")
    keys, other = new_key_pair(tmp / "keys"), new_key_pair(tmp / "other")
    signer = Signer.from_file(keys.private)
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pool("p1")
    counts = [30, 4, 3, 2, 1, 0, 1]
    small = replace(pool, tiers=tuple(replace(t, count=c) for t, c in zip(pool.tiers, counts, strict=False)),
                    tickets=sum(counts), books=1)
    run = generate(GenerateRequest(replace(spec, pools=(small,)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp / "runs", run_id="r",
                                   signature=signer.manifest_entry()), finish=signer.sign_run)
    return run.folder, keys.public, other.public


TICKET = "465-0000000-034"


def _fails(key) -> str:
    return f"the signature does not verify with the given public key ({fingerprint(load_public_key(key))})"


def test_a_proof_is_given_against_a_manifest_whose_signature_the_key_verifies(signed):
    run, public, _ = signed
    virn = virn_of(run, TICKET)
    assert prove_ticket(run, TICKET, virn, public) == prove_ticket(run, TICKET, virn)


def test_with_the_public_key_no_proof_is_given_against_an_edited_manifest(signed, tmp_path):
    """merkle-proof proved against whatever root the folder's manifest.json held: an edited manifest (its
    run id, here; its roots stay the pool file's) was proved against as if signed. With the key, the
    signature is checked first."""
    run, public, _ = signed
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    manifest = copy / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"run_id":"r"', b'"run_id":"x"', 1))
    virn = virn_of(copy, TICKET)
    assert prove_ticket(copy, TICKET, virn)["run_id"] == "x"  # without the key: the folder's word alone
    with pytest.raises(RunError) as info:
        prove_ticket(copy, TICKET, virn, public)
    assert str(info.value) == f"{copy / 'manifest.sig'}: {_fails(public)}; no proof given"


def test_with_another_key_or_an_unsigned_run_no_proof_is_given(signed, small_run):
    run, public, other = signed
    with pytest.raises(RunError) as info:
        prove_ticket(run, TICKET, virn_of(run, TICKET), other)
    assert str(info.value) == f"{run / 'manifest.sig'}: {_fails(other)}; no proof given"
    with pytest.raises(RunError) as info:
        prove_ticket(small_run, TICKET, virn_of(small_run, TICKET), public)
    assert str(info.value) == f"{small_run}: the run is unsigned: its roots are no signer's; no proof given"


def test_merkle_proof_says_whether_it_checked_the_signature(signed):
    run, public, other = signed
    virn = virn_of(run, TICKET)
    checked = invoke("merkle-proof", run, TICKET, virn, "--public-key", public, "--json")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == f"manifest signature checked with {public}: the root below is the signer's\n"
    assert json.loads(checked.stdout) == prove_ticket(run, TICKET, virn)
    unchecked = invoke("merkle-proof", run, TICKET, virn)
    assert unchecked.exit_code == 0, unchecked.output
    assert unchecked.stderr == ("manifest signature not checked (no --public-key): the root below is this "
                                "run folder's word alone; check it with --public-key, or the proof with "
                                "`python -m audit check-proof`\n")
    one_line(invoke("merkle-proof", run, TICKET, virn, "--public-key", other), "poolgen",
             f"{run / 'manifest.sig'}: {_fails(other)}; no proof given")
