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
from tests.support.steps import fails_at as _fails_at


def test_step2_names_an_unlisted_file_as_step_2(small_printed, tmp_path):
    run, manifest = small_printed
    folder = tmp_path / "run"
    shutil.copytree(run, folder)
    (folder / "notes.txt").write_text("x")
    assert _fails_at(2, check_listing, folder, manifest) == "unlisted file(s) in the run folder: notes.txt"


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
