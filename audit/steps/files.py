"""Steps 1 and 2 of the checklist (audit/verify.py): the signature over manifest.json, and the run
folder's files against the manifest's listing."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.limits import MAX_SIGNATURE_BYTES
from audit.read.manifest import (
    MANIFEST,
    SIGNATURE,
    Manifest,
    PoolEntry,
    canonical,
    fingerprint,
    signature_problem,
)
from audit.read.runfiles import hash_run_file, read_run_bytes
from audit.steps.deliverables import listed_names

# ---- step 1 -------------------------------------------------------------------------------------

def check_signature(folder: Path, data: bytes, manifest: Manifest | None, key: Ed25519PublicKey) -> str:
    """(1) manifest.sig is a valid signature of manifest.json by the trusted key."""
    declared = manifest.doc["signature"] if manifest else {}
    sig_path = folder / SIGNATURE
    if not sig_path.is_file():
        if declared.get("signed") is False:
            raise VerificationError(Step.SIGNATURE,
                                    "the run is unsigned: the manifest says \"signed\": false and there "
                                    "is no manifest.sig")
        raise VerificationError(Step.SIGNATURE, "manifest.sig is missing")
    signature = read_run_bytes(folder, SIGNATURE, "signature", MAX_SIGNATURE_BYTES)
    problem = signature_problem(data, signature, key)
    named = declared.get("key_fingerprint")
    mine = fingerprint(key)
    if problem:
        if named and named != mine:
            problem += f"; the manifest names signer key {named}"
        raise VerificationError(Step.SIGNATURE, problem)
    if manifest is None:
        return f"Ed25519 signature over manifest.json verifies with key {mine}"
    if declared.get("signed") is not True:
        raise VerificationError(Step.SIGNATURE,
                                "the signature verifies, but the manifest says the run is unsigned")
    if named != mine:
        raise VerificationError(Step.SIGNATURE,
                                f"the signature verifies with the given key {mine}, but the manifest "
                                f"names signer key {named}")
    if canonical(manifest.doc) != data:
        raise VerificationError(Step.SIGNATURE, "manifest.json is signed but not in canonical form")
    return f"Ed25519 signature over manifest.json ({len(data):,} bytes, canonical) verifies with key {mine}"


# ---- step 2 -------------------------------------------------------------------------------------

def check_listing(folder: Path, manifest: Manifest) -> str:
    """(2) nothing in the run folder that the manifest does not list."""
    listed = {p.file for p in manifest.pools} | {MANIFEST, SIGNATURE} | listed_names(manifest)
    extra = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir() if p.name not in listed)
    if extra:
        raise VerificationError(Step.FILES, f"unlisted file(s) in the run folder: {', '.join(extra)}")
    return f"{len(manifest.pools)} pool file(s) listed, no unlisted file"


def check_file(folder: Path, pool: PoolEntry) -> str:
    """(2) a pool file exists with the stated size and SHA-256."""
    path = folder / pool.file
    if not path.is_file():
        raise VerificationError(Step.FILES, f"{pool.file} is missing")
    size, digest = hash_run_file(folder, pool.file, "pool")
    problems = []
    if size != pool.file_bytes:
        problems.append(f"{pool.file} is {size:,} bytes, the manifest says {pool.file_bytes:,}")
    if digest != pool.file_sha256:
        problems.append(f"{pool.file} has SHA-256 {digest}, the manifest says {pool.file_sha256}")
    if problems:
        raise VerificationError(Step.FILES, "; ".join(problems))
    return f"{pool.file}: {size:,} bytes, SHA-256 matches"
