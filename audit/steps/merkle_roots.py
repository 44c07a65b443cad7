"""Step 6 of the checklist (audit/verify.py), per pool: the Merkle root over the pool file's rows
(audit/merkle/, docs/merkle.md) is the one the manifest signs."""

from __future__ import annotations

import polars as pl

from audit.checklist import Step
from audit.errors import VerificationError
from audit.merkle import ALGORITHM as MERKLE_ALGORITHM
from audit.merkle import MerkleError, table_root
from audit.read.manifest import PoolEntry


def check_merkle(table: pl.DataFrame, pool: PoolEntry) -> str:
    """(6) the Merkle root over the table's rows equals the manifest's."""
    if pool.merkle_algorithm != MERKLE_ALGORITHM:
        raise VerificationError(Step.MERKLE_ROOTS, f"unknown Merkle algorithm {pool.merkle_algorithm!r}")
    try:
        root = table_root(table).hex()
    except MerkleError as exc:
        raise VerificationError(Step.MERKLE_ROOTS, f"{pool.file}: {exc}") from None
    if root != pool.merkle_root:
        raise VerificationError(Step.MERKLE_ROOTS,
                                f"recomputed root {root} is not the manifest's {pool.merkle_root}")
    unit = "tickets" if "book" in table.columns else "shares"  # an eInstant's rows are shares
    return f"root {root[:16]}... recomputes over {table.height:,} {unit}"
