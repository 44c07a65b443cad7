"""`poolgen publish`: the bundle published before sale holds the signed commitment and nothing secret,
and a manifest with a field nobody has reviewed as public is refused."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime

import pytest

from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.publish import PUBLIC_FIELDS, field_paths, unreviewed_fields
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_wild_side, spec_path
from tests.support.cli import invoke


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("publish")
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = load_spec(small_wild_side(tmp))  # what publish reads does not depend on the pools' size
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=tmp / "runs",
                                   run_id="r", pool_ids=["p1", "p2"], signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return {"tmp": tmp, "keys": keys, "signer": signer, "run": run.folder}


def test_the_bundle_is_the_signed_commitment_and_nothing_else(base, tmp_path):
    out = tmp_path / "bundle"
    result = invoke("publish", str(base["run"]), "--out", str(out), "--public-key", str(base["keys"].public))
    assert result.exit_code == 0, result.output
    names = ["SHA256SUMS", "commitments.txt", "manifest.json", "manifest.sig", "signing-key.pub.pem"]
    assert sorted(p.name for p in out.iterdir()) == names
    for name in ("manifest.json", "manifest.sig"):
        assert (out / name).read_bytes() == (base["run"] / name).read_bytes()
    lines = (out / "SHA256SUMS").read_text().splitlines()
    sums = {line.split("  ")[1]: line.split("  ")[0] for line in lines}
    assert sums == {n: hashlib.sha256((out / n).read_bytes()).hexdigest() for n in names if n != "SHA256SUMS"}
    doc = json.loads((out / "manifest.json").read_bytes())
    text = (out / "commitments.txt").read_text()
    assert f"seed commitment: {doc['seed_commitment']['value']}" in text
    for pool in doc["pools"]:
        assert f"Merkle root {pool['merkle']['root']}" in text
    assert f"code SHA-256 {doc['tool']['code']['sha256']}" in text
    for path in out.iterdir():
        assert SEED_A.hex().encode() not in path.read_bytes()
    assert unreviewed_fields(doc) == [] and any(f.startswith("play.") for f in field_paths(doc))


def test_the_bundle_folder_and_files_are_readable_by_all_as_a_publication(base, tmp_path):
    out = tmp_path / "bundle"
    result = invoke("publish", str(base["run"]), "--out", str(out), "--public-key", str(base["keys"].public))
    assert result.exit_code == 0, result.output
    assert out.stat().st_mode & 0o777 == 0o755
    assert {p.stat().st_mode & 0o777 for p in out.iterdir()} == {0o644}


def test_the_bundle_says_the_command_that_checks_this_runs_reveal(base, tmp_path):
    """commitments.txt ends with the check of the reveal as docs/publish-and-reveal.md gives it: a reveal
    folder needs --reveal (it holds no imaging file, pack list or validation file: without it step 2
    fails), and the seed option this run takes."""
    out = tmp_path / "bundle"
    assert invoke("publish", str(base["run"]), "--out", str(out), "--public-key",
                  str(base["keys"].public)).exit_code == 0
    assert (out / "commitments.txt").read_text().splitlines()[-1] == (
        "Once claims close: docs/publish-and-reveal.md (poolgen verify REVEAL --reveal --public-key "
        "signing-key.pub.pem --spec SPEC --seed-file FILE).")


def test_a_second_publish_into_the_same_bundle_is_refused_as_a_bundle(base, tmp_path):
    """The bundle is no run folder: the refusal names what it is (it said "a run folder is never
    overwritten") and leaves the first bundle as it was."""
    out = tmp_path / "bundle"
    args = ("publish", str(base["run"]), "--out", str(out), "--public-key", str(base["keys"].public))
    assert invoke(*args).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = invoke(*args)
    assert again.exit_code == 2
    assert again.stderr == (f"poolgen: error: {out}: already exists; a bundle is never written over "
                            "(give a new folder)\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def _resigned(base, tmp_path, edit):
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    edit(doc)
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)
    return run


def test_a_field_not_known_to_be_public_is_refused(base, tmp_path):
    def leak(doc):
        doc["pools"][0]["top_prize_positions"] = [1234, 98765]

    run = _resigned(base, tmp_path, leak)
    result = invoke("publish", str(run), "--out", str(tmp_path / "bundle"), "--public-key",
                    str(base["keys"].public))
    assert result.exit_code == 2
    assert result.stderr == (f"poolgen: error: {run / 'manifest.json'}: field "
                             "pools[].top_prize_positions[] is not known to be public; not publishing\n")
    assert not (tmp_path / "bundle").exists()


def test_an_unsigned_run_a_changed_pool_file_and_another_key_are_refused(base, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    (run / "manifest.sig").unlink()
    result = invoke("publish", str(run), "--out", str(tmp_path / "b1"))
    assert result.stderr == (f"poolgen: error: {run}: the run is unsigned; only a signed run can be "
                             "published\n")
    shutil.copy(base["run"] / "manifest.sig", run / "manifest.sig")
    with open(run / "pool-p2.parquet", "r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    key = str(base["keys"].public)
    result = invoke("publish", str(run), "--out", str(tmp_path / "b2"), "--public-key", key)
    assert result.stderr == (f"poolgen: error: {run / 'pool-p2.parquet'}: does not match the manifest; "
                             "not publishing\n")
    other = new_key_pair(tmp_path / "other")
    result = invoke("publish", str(base["run"]), "--out", str(tmp_path / "b3"), "--public-key",
                    str(other.public))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"poolgen: error: {base['run'] / 'manifest.sig'}: the signature does not "
                                    "verify with the given public key")
    assert not any((tmp_path / b).exists() for b in ("b1", "b2", "b3"))
    inside = invoke("publish", str(base["run"]), "--out", str(base["run"] / "bundle"), "--public-key",
                    str(base["keys"].public))
    assert inside.stderr == (f"poolgen: error: {base['run'] / 'bundle'}: the bundle cannot go inside the "
                             "run folder\n")


def test_a_style_based_run_publishes_its_play_entry(base, tmp_path):
    spec = load_spec(spec_path("examples/cash_explosion"))
    smallest = min(spec.pools, key=lambda p: p.tickets).id
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=tmp_path / "runs",
                                   run_id="c", pool_ids=[smallest],
                                   signature=base["signer"].manifest_entry()),
                   finish=base["signer"].sign_run)
    out = tmp_path / "bundle"
    result = invoke("publish", str(run.folder), "--out", str(out), "--public-key", str(base["keys"].public))
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "manifest.json").read_bytes())
    assert doc["play"]["areas"] and doc["play"]["tiers"]
    extra = {f for f in field_paths(doc) - PUBLIC_FIELDS}
    assert extra and all(f.startswith("play.") for f in extra)
    assert unreviewed_fields(doc) == []


def test_without_the_public_key_nothing_is_published(base, tmp_path):
    """A run folder records only the signer's fingerprint: a signature of 64 zero bytes would otherwise
    be published as the commitment."""
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    (run / "manifest.sig").write_bytes(bytes(64))
    result = invoke("publish", str(run), "--out", str(tmp_path / "b1"))
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {run / 'manifest.sig'}: not checked: "
                                                    "give the signer's public key with --public-key (a run "
                                                    "folder records only its fingerprint); not publishing\n")
    key = str(base["keys"].public)
    result = invoke("publish", str(run), "--out", str(tmp_path / "b2"), "--public-key", key)
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {run / 'manifest.sig'}: the signature "
                                                    "does not verify with the given public key "
                                                    f"({base['signer'].fingerprint}); not publishing\n")
    assert not (tmp_path / "b1").exists() and not (tmp_path / "b2").exists()
