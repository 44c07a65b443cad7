"""A ticket proof: one ticket's row, its Merkle audit path and its pool's signed root, as
`python -m audit check-proof` reads it (docs/merkle.md, section 4)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import polars as pl

from poolgen.errors import RunError
from poolgen.run.folder import open_run
from poolgen.run.merkle import ALGORITHM, MerkleError, Tree

PROOF_FORMAT = "poolgen-proof/2"


def prove_ticket(run: Path, ticket: str) -> dict[str, Any]:
    """A proof that `ticket` belongs to its pool in run folder `run`: its full row, its audit path
    and the pool's root, as `python -m audit check-proof` reads it (docs/merkle.md, section 4).

    The run is opened as the PDFs open it (`poolgen.run.folder.open_run`: a validated manifest, every
    read of a pool file a RunError on failure)."""
    folder = open_run(run)
    for entry in folder.parsed.pools:
        folder.require(entry.id, ["ticket"])
        found = folder.collect(entry.id, lambda lf: lf.with_row_index("_row")
                               .filter(pl.col("ticket") == ticket).select("_row"))
        if found.height == 0:
            continue
        position = int(found.item(0, 0))
        table = folder.read(entry.id)
        try:
            tree = Tree.of_table(table)
        except MerkleError as exc:
            raise RunError(f"{folder.name}: pool {entry.id}: {entry.file} has no Merkle root: {exc}") \
                from None
        if tree.root.hex() != entry.merkle_root:
            raise RunError(f"{folder.path / entry.file}: its Merkle root is not the manifest's; the run "
                           f"folder is damaged")
        return {
            "format": PROOF_FORMAT,
            "run_id": folder.manifest["run_id"],
            "manifest_sha256": hashlib.sha256(folder.manifest_bytes).hexdigest(),
            "pool": entry.id,
            "tickets": tree.size,
            "position": position,
            "ticket": ticket,
            "row": table.row(position, named=True),
            "leaf": tree.levels[0][position].tobytes().hex(),
            "path": tree.path(position),
            "merkle": {"algorithm": ALGORITHM, "root": entry.merkle_root},
        }
    raise RunError(f"{folder.name}: no ticket {ticket!r} in any pool of the run")
