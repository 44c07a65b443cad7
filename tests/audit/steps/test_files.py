"""Steps 1 and 2 (audit/steps/files.py), message by message, called directly on a small real run
(tests/audit/steps/conftest.py's small_printed) signed here with a real Ed25519 key: the signature over
the canonical manifest, and the run folder's listing."""

from __future__ import annotations

import json
import shutil

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.checklist import Step
from audit.read.manifest import Manifest, canonical, fingerprint
from audit.steps.files import check_listing, check_signature
from audit.verify import VerifyRequest, verify_run
from tests.support.reseal import signed_small_run
from tests.support.steps import fails_at as _fails_at


def test_step2_names_an_unlisted_file_as_step_2(small_printed, tmp_path):
    run, manifest = small_printed
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    (folder / "notes.txt").write_text("x")
    assert _fails_at(2, check_listing, folder, manifest) == "unlisted file(s) in the run folder: notes.txt"


def test_step2_names_files_holding_outcomes_that_others_may_read(small_printed, tmp_path):
    """docs/validation.md, section 1: pool and imaging files are 0600 in a 0700 folder; a copy left
    readable (the printer's imaging file 0644, a pool file 0640) fails step 2, every one named."""
    run, manifest = small_printed
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    (folder / "imaging-p1.parquet").chmod(0o644)
    (folder / "pool-p1.parquet").chmod(0o640)
    (folder / "packs.csv").chmod(0o644)  # no outcome: public
    assert _fails_at(2, check_listing, folder, manifest) == (
        "file(s) holding outcomes open to group or others: imaging-p1.parquet 0644, pool-p1.parquet 0640 "
        "(docs/validation.md, section 1: they are 0600)")
    assert check_listing(folder, manifest, reveal=True) == "1 pool file(s) listed, no unlisted file"


def test_step2_names_a_run_folder_that_others_may_enter(small_printed, tmp_path):
    run, manifest = small_printed
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    assert check_listing(folder, manifest) == ("1 pool file(s) listed, no unlisted file; the folder and "
                                               "every file holding outcomes private to their owner")
    folder.chmod(0o755)
    assert _fails_at(2, check_listing, folder, manifest) == (
        "the run folder is mode 0755: it holds outcomes, and is 0700 (docs/validation.md, section 1)")


def test_a_readable_validation_file_fails_step_2_of_a_signed_run(tmp_path):
    signed = signed_small_run(tmp_path, validation_keys=True)
    (signed["run"] / "validation-high.bin").chmod(0o604)
    report = verify_run(VerifyRequest(run=signed["run"], public_key=signed["public"], spec=signed["spec"],
                                      validation_key=signed["root"] / "low.key",
                                      high_validation_key=signed["root"] / "high.key"))
    assert report.failed == [Step.FILES], report.to_json()
    assert report.step(Step.FILES).reasons == [
        "file(s) holding outcomes open to group or others: validation-high.bin 0604 (docs/validation.md, "
        "section 1: they are 0600)"]


def test_a_reveal_still_holding_a_validation_file_fails_step_2(tmp_path):
    """docs/publish-and-reveal.md: a reveal holds the manifest, its signature and the pool files, nothing
    else. One still holding a validation file (every unclaimed prize's VIRN, to anyone who knows a
    barcode) passed every step; without it, the same reveal passes."""
    signed = signed_small_run(tmp_path, validation_keys=True)
    run = signed["run"]
    kept = ("manifest.json", "manifest.sig", "validation-low.bin")
    for f in run.iterdir():
        if f.name not in kept and not f.name.startswith("pool-"):
            f.unlink()
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"],
                                      reveal=True))
    assert report.failed == [Step.FILES], report.to_json()
    assert report.step(Step.FILES).reasons == [
        "validation-low.bin (validation) is in a reveal, which holds the manifest, its signature and the "
        "pool files, nothing else (a reveal once claims close publishes no printer's or validation file "
        "(their validation numbers would let anyone who knows a barcode claim its prize): "
        "docs/publish-and-reveal.md)"]
    (run / "validation-low.bin").unlink()
    assert verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"],
                                    reveal=True)).failed == []


# ---- step 1, message by message, with a real Ed25519 key ------------------------------------------

def _signed(small_printed, tmp_path, edit=lambda signature, key: None, data=None):
    """The small run's manifest as a signed one: (folder, bytes, manifest, public key)."""
    _, manifest = small_printed
    private = Ed25519PrivateKey.generate()
    key = private.public_key()
    doc = json.loads(json.dumps(manifest.doc))
    doc["signature"] = {"signed": True, "key_fingerprint": fingerprint(key)}
    edit(doc["signature"], key)
    data = canonical(doc) if data is None else data(doc)
    (tmp_path / "manifest.sig").write_bytes(private.sign(data))
    return tmp_path, data, Manifest.parse(data), key


def test_step1_passes_a_canonical_manifest_signed_by_the_key(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path)
    assert check_signature(folder, data, manifest, key) == (
        f"Ed25519 signature over manifest.json ({len(data):,} bytes, canonical) verifies with key "
        f"{fingerprint(key)}")


def test_step1_names_a_missing_signature(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path)
    (folder / "manifest.sig").unlink()
    assert _fails_at(1, check_signature, folder, data, manifest, key) == "manifest.sig is missing"


def test_step1_names_a_signed_manifest_that_says_unsigned(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path, lambda s, k: s.update(signed=False))
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        "the signature verifies, but the manifest says the run is unsigned")


def test_step1_names_a_manifest_naming_another_signer(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path,
                                          lambda s, k: s.update(key_fingerprint="0000:0000:0000:0000"))
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        f"the signature verifies with the given key {fingerprint(key)}, but the manifest names signer key "
        "0000:0000:0000:0000")


def test_step1_names_a_signed_manifest_not_in_canonical_form(small_printed, tmp_path):
    folder, data, manifest, key = _signed(small_printed, tmp_path, data=lambda doc: json.dumps(doc).encode())
    assert _fails_at(1, check_signature, folder, data, manifest, key) == (
        "manifest.json is signed but not in canonical form")


def test_step1_without_a_public_key_is_skipped_not_failed(small_printed):
    report = verify_run(VerifyRequest(run=small_printed[0]))
    step1 = report.step(Step.SIGNATURE)
    assert (step1.status, step1.reasons, step1.required) == ("skip", ["no public key given"], False)
