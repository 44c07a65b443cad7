"""Checking a ticket proof (`poolgen merkle-proof RUN TICKET VIRN --json`; a share's: `RUN SHARE --json`):
one ticket belongs to a signed pool.

The proof holds the ticket's full row and its Merkle audit path; the checker trusts only the public
key: the manifest must carry a valid signature, the pool's signed root must be the proof's, and the
path must lead from the row (re-encoded here, docs/merkle.md) to that root at the claimed position.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.errors import InvalidProof, MalformedProof, UnusableInput
from audit.merkle import ALGORITHM, MerkleError, encode_value, leaf_of_row, root_from_path
from audit.read.limits import MAX_SIGNATURE_BYTES, read_bounded, read_manifest_bytes
from audit.read.manifest import SIGNATURE, Manifest, ManifestError, fingerprint, signature_problem

PROOF_FORMAT = "poolgen-proof/2"
_HEX = frozenset("0123456789abcdef")
FIELDS = {"format", "run_id", "manifest_sha256", "pool", "tickets", "position", "ticket", "row", "leaf",
          "path", "merkle"}  # docs/merkle.md, section 4: a field besides these is refused, never ignored


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _field(doc: dict[str, Any], key: str, kinds: type | tuple[type, ...], what: str,
           where: str = "the proof's",
           optional: bool = False) -> object:
    """doc[key] if it is of `kinds` (never a bool for a number); None if optional and absent or null."""
    value = doc.get(key)
    if value is None and optional:
        return None
    if key not in doc:
        raise MalformedProof(f"{where} {key!r} is missing")
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)) \
            or not isinstance(value, kinds):
        raise MalformedProof(f"{where} {key!r} is not {what}: {_show(value)}")
    return value


def _hex(value: object, where: str) -> None:
    """`value` (None or text, as _field left it) a hash in 64 lower-case hex digits (docs/merkle.md, 4)."""
    if value is not None and (not isinstance(value, str) or len(value) != 64 or not _HEX.issuperset(value)):
        raise MalformedProof(f"{where} is not a hash in 64 lower-case hex digits: {str(value)[:70]!r}")


def check_shape(proof: object) -> dict[str, Any]:
    """The proof, once every field the checker reads has the type docs/merkle.md (section 4) gives it;
    MalformedProof (unusable input, exit 2) if one has not: a document no proof checker can use."""
    if not isinstance(proof, dict) or proof.get("format") != PROOF_FORMAT:
        raise MalformedProof(f"not a {PROOF_FORMAT} document")
    extra = sorted(set(proof) - FIELDS)
    if extra:
        raise MalformedProof(f"the proof holds a field no checker reads: {_show(extra)}")
    _field(proof, "run_id", str, "text", optional=True)
    _hex(_field(proof, "manifest_sha256", str, "text", optional=True), "the proof's 'manifest_sha256'")
    _field(proof, "pool", str, "a pool id (text)")
    tickets = _field(proof, "tickets", int, "an integer", optional=True)
    if isinstance(tickets, int) and tickets < 1:  # _field checked: None or an int
        raise MalformedProof(f"the proof's 'tickets' is not a number of tickets: {_show(tickets)}")
    position = _field(proof, "position", int, "an integer")
    if isinstance(position, int) and position < 0:  # _field checked: an int
        raise MalformedProof(f"the proof's 'position' is not a position (0 or more): {_show(position)}")
    _field(proof, "ticket", str, "a ticket id (text)")
    row = _field(proof, "row", dict, "an object of columns")
    assert isinstance(row, dict)  # _field checked it
    for column, value in row.items():
        try:
            encode_value(column, value)
        except MerkleError as exc:
            raise MalformedProof(f"the proof's row: {exc}") from None
    _hex(_field(proof, "leaf", str, "hexadecimal text", optional=True), "the proof's 'leaf'")
    path = _field(proof, "path", list, "a list of steps")
    assert isinstance(path, list)  # _field checked it
    for i, step in enumerate(path):
        where = f"the proof's path step {i}:"
        if not isinstance(step, dict):
            raise MalformedProof(f"{where} {_show(step)} is not an object")
        if set(step) != {"left", "right"}:
            raise MalformedProof(f"{where} the keys are {_show(sorted(step, key=str))}, not exactly 'left' "
                                 "and 'right'")
        for side in ("left", "right"):
            hashes = _field(step, side, list, "a list of hashes", where)
            assert isinstance(hashes, list)  # _field checked it
            for k, value in enumerate(hashes):
                if not isinstance(value, str):
                    raise MalformedProof(f"{where} {side}[{k}] is not hexadecimal text: {_show(value)}")
                _hex(value, f"{where} {side}[{k}]")
    merkle = _field(proof, "merkle", dict, "an object", optional=True)
    if isinstance(merkle, dict):  # _field checked that it is one, if given
        if set(merkle) - {"algorithm", "root"}:
            raise MalformedProof(f"the proof's merkle holds a field no checker reads: "
                                 f"{_show(sorted(set(merkle) - {'algorithm', 'root'}))}")
        _field(merkle, "algorithm", str, "text", "the proof's merkle", optional=True)
        _hex(_field(merkle, "root", str, "hexadecimal text", "the proof's merkle", optional=True),
             "the proof's merkle 'root'")
    return proof


def check_proof(proof: object, manifest_path: Path, key: Ed25519PublicKey,
                signature_path: Path | None = None) -> str:
    """Raise InvalidProof unless `proof` shows its ticket in the pool of the signed manifest; UnusableInput
    if the manifest or its signature file cannot be read (not found, not a regular file, too large), and
    MalformedProof (an UnusableInput) if `proof` is not a proof document (check_shape), before the rest."""
    proof = check_shape(proof)
    manifest_path = Path(manifest_path)
    data = read_manifest_bytes(manifest_path)
    sig_path = signature_path or manifest_path.with_name(SIGNATURE)
    try:  # a signature file not found is an input not given (exit 2); one that does not verify, a verdict
        signature = read_bounded(sig_path, "signature", MAX_SIGNATURE_BYTES)
    except UnusableInput as exc:
        hint = "" if signature_path else " (the manifest's signature: beside it, or give --signature FILE)"
        raise UnusableInput(f"{exc}{hint}") from None
    problem = signature_problem(data, signature, key)
    if problem:
        raise InvalidProof(problem)
    try:
        manifest = Manifest.parse(data)
    except ManifestError as exc:
        raise InvalidProof(f"the manifest is not valid: {exc}") from None
    stated = proof.get("manifest_sha256")
    if stated is not None and stated != hashlib.sha256(data).hexdigest():
        raise InvalidProof("the proof was made against another manifest (manifest_sha256 differs)")
    run_id = proof.get("run_id")
    if run_id is not None and run_id != manifest.doc.get("run_id"):
        raise InvalidProof(f"the proof's run_id {_show(run_id)} is not the manifest's "
                           f"{_show(manifest.doc.get('run_id'))}")
    pools = {p.id: p for p in manifest.pools}
    pool = pools.get(proof["pool"])
    if pool is None:
        raise InvalidProof(f"the manifest has no pool {proof['pool']!r}")
    if pool.merkle_algorithm != ALGORITHM:
        raise InvalidProof(f"unknown Merkle algorithm {pool.merkle_algorithm!r}")
    merkle = proof.get("merkle") or {}
    if merkle.get("algorithm") not in (None, ALGORITHM):
        raise InvalidProof(f"the proof's Merkle algorithm {_show(merkle['algorithm'])} is not {ALGORITHM!r}")
    if merkle.get("root") not in (None, pool.merkle_root):
        raise InvalidProof("the proof's root is not the pool's signed root")
    if proof.get("tickets") not in (None, pool.tickets):
        raise InvalidProof(f"the proof says the pool has {proof['tickets']} tickets; it has {pool.tickets}")
    row, position, ticket = proof["row"], proof["position"], proof["ticket"]
    if row.get("position") != position or row.get("ticket") != ticket:
        raise InvalidProof("the row's position or ticket is not the proof's")
    if set(row) != set(pool.columns):
        raise InvalidProof(f"the row's columns {sorted(row)} are not the pool's {sorted(pool.columns)}")
    salt = row.get("salt")
    if not (isinstance(salt, str) and len(salt) == 32 and set(salt) <= set("0123456789abcdef")):
        raise InvalidProof("the row has no salt of 32 lower-case hex digits: without one the path's "
                           "neighbouring hashes could be guessed (docs/merkle.md, section 2)")
    try:
        leaf = leaf_of_row(row)
        if proof.get("leaf") not in (None, leaf.hex()):
            raise InvalidProof("the proof's leaf is not the hash of its row")
        root = root_from_path(leaf, position, pool.tickets, proof["path"])
    except MerkleError as exc:
        raise InvalidProof(str(exc)) from None
    if root.hex() != pool.merkle_root:
        raise InvalidProof("the path does not lead from the row to the pool's signed Merkle root")
    return (f"ticket {ticket} (pool {pool.id}, position {position:,} of {pool.tickets:,}, "
            f"{_prize(row.get('prize_cents'), manifest.sign)}) belongs to the pool signed by key "
            f"{fingerprint(key)}")


def _prize(cents: object, sign: str) -> str:
    """The row's prize as its holder reads it on a ticket, in the game's currency's `sign` (the manifest's
    `game.currency`): `prize $1,000.00`, `prize £4.00`, or `no prize`."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return f"prize_cents {cents}"  # a row the manifest's columns allow without a prize in cents
    return f"prize {sign}{cents // 100:,}.{cents % 100:02d}" if cents else "no prize"
