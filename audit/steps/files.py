"""Steps 1 and 2 of the checklist (audit/verify.py): the signature over manifest.json, and the run
folder's files against the manifest's listing."""

from __future__ import annotations

import contextlib
import os
import stat
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
from audit.steps.listing import deliverables

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

def check_listing(folder: Path, manifest: Manifest, reveal: bool = False) -> str:
    """(2) nothing in the run folder that the manifest does not list; and, but in a `reveal` (published
    files), no file holding outcomes, nor the folder, open to its group or others (`open_modes`)."""
    listed = {p.file for p in manifest.pools} | {MANIFEST, SIGNATURE} | listed_names(manifest)
    extra = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir() if p.name not in listed)
    problems = [f"unlisted file(s) in the run folder: {', '.join(extra)}"] if extra else []
    problems += [] if reveal else open_modes(folder, manifest)
    if problems:
        raise VerificationError(Step.FILES, "; ".join(problems))
    private = "" if reveal else "; the folder and every file holding outcomes private to their owner"
    return f"{len(manifest.pools)} pool file(s) listed, no unlisted file{private}"


OUTCOME_ROLES = ("pool", "imaging", "validation", "validation-high")  # docs/validation.md, section 1


def open_modes(folder: Path, manifest: Manifest) -> list[str]:
    """The run folder, and every pool, imaging and validation file, whose mode gives its group or others
    any access: docs/validation.md (section 1) has them made 0700 and 0600, since the folder and those
    files hold every outcome. A file that is absent is step 2's to report elsewhere."""
    names = {p.file for p in manifest.pools}
    with contextlib.suppress(VerificationError):  # a list of the wrong form: check_deliverable_files says so
        names |= {f["name"] for f in deliverables(manifest) if f.get("role") in OUTCOME_ROLES}
    found = []
    for name in sorted(names):
        try:
            mode = stat.S_IMODE(os.stat(folder / name).st_mode)  # a link's target, inside the folder
        except OSError:
            continue
        if mode & 0o077:
            found.append(f"{name} {mode:04o}")
    problems = [f"file(s) holding outcomes open to group or others: {', '.join(found)} (docs/validation.md, "
                "section 1: they are 0600)"] if found else []
    mode = stat.S_IMODE(os.stat(folder).st_mode)
    if mode & 0o077:
        problems.append(f"the run folder is mode {mode:04o}: it holds outcomes, and is 0700 "
                        "(docs/validation.md, section 1)")
    return problems


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
