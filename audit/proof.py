"""Checking a ticket proof (`poolgen prove RUN TICKET --json`): one ticket belongs to a signed pool.

The proof holds the ticket's full row and its Merkle audit path; the checker trusts only the public
key: the manifest must carry a valid signature, the pool's signed root must be the proof's, and the
path must lead from the row (re-encoded here, docs/merkle.md) to that root at the claimed position.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from audit.errors import InvalidProof, UnusableInput
from audit.manifest import SIGNATURE, Manifest, ManifestError, fingerprint, signature_problem
from audit.merkle import ALGORITHM, MerkleError, leaf_of_row, root_from_path

PROOF_FORMAT = "poolgen-proof/1"


def check_proof(proof: dict, manifest_path: Path, key, signature_path: Path | None = None) -> str:
    """Raise InvalidProof unless `proof` shows its ticket in the pool of the signed manifest."""
    manifest_path = Path(manifest_path)
    try:
        data = manifest_path.read_bytes()
    except OSError as exc:
        raise UnusableInput(f"{manifest_path}: cannot read manifest: {exc.strerror or exc}") from None
    sig_path = signature_path or manifest_path.with_name(SIGNATURE)
    try:
        signature = sig_path.read_bytes()
    except OSError:
        raise InvalidProof(f"{sig_path}: no signature beside the manifest; an unsigned manifest proves "
                           "nothing") from None
    problem = signature_problem(data, signature, key)
    if problem:
        raise InvalidProof(problem)
    try:
        manifest = Manifest.parse(data)
    except ManifestError as exc:
        raise InvalidProof(f"the manifest is not valid: {exc}") from None
    if not isinstance(proof, dict) or proof.get("format") != PROOF_FORMAT:
        raise InvalidProof(f"not a {PROOF_FORMAT} document")
    stated = proof.get("manifest_sha256")
    if stated is not None and stated != hashlib.sha256(data).hexdigest():
        raise InvalidProof("the proof was made against another manifest (manifest_sha256 differs)")
    pools = {p.id: p for p in manifest.pools}
    pool = pools.get(proof.get("pool"))  # type: ignore[arg-type]
    if pool is None:
        raise InvalidProof(f"the manifest has no pool {proof.get('pool')!r}")
    if pool.merkle_algorithm != ALGORITHM:
        raise InvalidProof(f"unknown Merkle algorithm {pool.merkle_algorithm!r}")
    merkle = proof.get("merkle") or {}
    if merkle.get("root") not in (None, pool.merkle_root):
        raise InvalidProof("the proof's root is not the pool's signed root")
    row, position, ticket = proof.get("row"), proof.get("position"), proof.get("ticket")
    if not isinstance(row, dict) or type(position) is not int:
        raise InvalidProof("the proof has no row or position")
    if row.get("position") != position or row.get("ticket") != ticket:
        raise InvalidProof("the row's position or ticket is not the proof's")
    if set(row) != set(pool.columns):
        raise InvalidProof(f"the row's columns {sorted(row)} are not the pool's {sorted(pool.columns)}")
    path = proof.get("path")
    if not isinstance(path, list) or not all(isinstance(s, dict) for s in path):
        raise InvalidProof("the proof's path is not a list of steps")
    try:
        leaf = leaf_of_row(row)
        if proof.get("leaf") not in (None, leaf.hex()):
            raise InvalidProof("the proof's leaf is not the hash of its row")
        root = root_from_path(leaf, position, pool.tickets, path)
    except MerkleError as exc:
        raise InvalidProof(str(exc)) from None
    if root.hex() != pool.merkle_root:
        raise InvalidProof("the path does not lead from the row to the pool's signed Merkle root")
    prize = row.get("prize_cents")
    return (f"ticket {ticket} (pool {pool.id}, position {position:,} of {pool.tickets:,}, "
            f"prize_cents {prize}) belongs to the pool signed by key {fingerprint(key)}")
