"""The manifest: canonical bytes, what it names, and its signature (made by poolgen, checked by audit)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.read.fields import FIELDS as AUDIT_FIELDS
from audit.read.fields import SUBTREES as AUDIT_SUBTREES
from audit.read.manifest import Manifest, ManifestError, canonical, load_public_key, signature_problem
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.publish import PUBLIC_FIELDS, PUBLIC_SUBTREES
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, spec_path

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(scope="module")
def signed_run(tmp_path_factory):
    """A signed run of the smallest real pool: Happy Holidays p1 (300,000 tickets)."""
    tmp = tmp_path_factory.mktemp("signed")
    files = new_key_pair(tmp / "keys")
    signer = Signer.from_file(files.private)
    run = generate(GenerateRequest(load_spec(spec_path("happy_holidays")), SEED_A, now=NOW, out=tmp / "runs",
                                   run_id="r", pool_ids=["p1"], signature=signer.manifest_entry()),
                   finish=signer.sign_run)
    return run, files


def test_canonical_bytes_are_stable_and_shared():
    doc = {"b": [1, {"z": None, "a": "é"}], "a": True, "c": "x y"}
    data = canonical_bytes(doc)
    assert data == '{"a":true,"b":[1,{"a":"é","z":null}],"c":"x y"}'.encode()
    assert canonical(doc) == data
    assert canonical_bytes(json.loads(data)) == data
    with pytest.raises(ValueError):
        canonical_bytes({"x": float("nan")})


def test_the_signed_manifest_names_its_key_root_and_files(signed_run):
    run, files = signed_run
    data = (run.folder / "manifest.json").read_bytes()
    assert data == canonical_bytes(run.manifest)
    assert run.manifest["signature"] == {"signed": True, "algorithm": "Ed25519",
                                         "key_fingerprint": files.fingerprint, "file": "manifest.sig"}
    pool = run.manifest["pools"][0]
    assert pool["merkle"]["algorithm"] == "poolgen-merkle/v2"
    assert len(pool["merkle"]["root"]) == 64
    names = sorted(p.name for p in run.folder.iterdir())
    assert names == ["imaging-p1.parquet", "manifest.json", "manifest.sig", "packs.csv", "pool-p1.parquet"]
    manifest = Manifest.parse(data)
    assert manifest.pools[0].merkle_root == pool["merkle"]["root"]
    assert SEED_A.hex() not in data.decode()  # a commitment, never the seed


def test_signature_round_trip(signed_run, tmp_path):
    run, files = signed_run
    data = (run.folder / "manifest.json").read_bytes()
    signature = (run.folder / "manifest.sig").read_bytes()
    assert len(signature) == 64
    assert signature_problem(data, signature, load_public_key(files.public)) is None
    other = new_key_pair(tmp_path / "other")
    assert signature_problem(data, signature, load_public_key(other.public)) == (
        f"the signature does not verify with the given public key ({other.fingerprint})")
    assert signature_problem(data, signature[:-1], load_public_key(files.public)) == (
        "manifest.sig is 63 bytes; an Ed25519 signature is 64")


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_single_byte_change_fails_verification(signed_run, data):
    run, files = signed_run
    manifest = (run.folder / "manifest.json").read_bytes()
    signature = (run.folder / "manifest.sig").read_bytes()
    key = load_public_key(files.public)
    where = data.draw(st.integers(0, len(manifest) - 1), label="offset")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != manifest[where]), label="byte")
    changed = manifest[:where] + bytes([new]) + manifest[where + 1:]
    assert signature_problem(changed, signature, key) is not None


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(format="poolgen-manifest/9"), "format 'poolgen-manifest/9' is not"),
    (lambda d: d["pools"][0]["file"].update(name="../escape.parquet"), "not a plain file name"),
    (lambda d: d["pools"][0].update(tickets="many"), r"pools\[0\].tickets: 'many' is not of the expected"),
    (lambda d: d["pools"][0]["merkle"].update(root="XYZ"), "merkle.root: not 64 lower-case hex digits"),
    (lambda d: d["pools"].append(dict(d["pools"][0])), "a pool id appears twice"),
    (lambda d: d.pop("totals"), "manifest.totals: missing"),
])
def test_a_malformed_manifest_is_refused_when_parsed(signed_run, edit, message):
    run, _ = signed_run
    doc = json.loads((run.folder / "manifest.json").read_bytes())
    edit(doc)
    with pytest.raises(ManifestError, match=message):
        Manifest.parse(canonical(doc))
    with pytest.raises(ManifestError, match="not JSON"):
        Manifest.parse(b"{not json")


def test_audit_refuses_exactly_the_fields_publish_refuses():
    """audit/read/fields.py (written from docs/manifest.md) and poolgen publish's list are one list."""
    assert AUDIT_FIELDS == PUBLIC_FIELDS and AUDIT_SUBTREES == PUBLIC_SUBTREES
