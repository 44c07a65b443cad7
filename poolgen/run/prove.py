"""A ticket proof: one ticket's row, its Merkle audit path and its pool's signed root, as
`python -m audit check-proof` reads it (docs/merkle.md, section 4)."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any

import polars as pl

from poolgen.deliverables.identity import check_digits
from poolgen.errors import RunError
from poolgen.run.folder import open_run
from poolgen.run.merkle import ALGORITHM, MerkleError, Tree
from poolgen.run.publish import signer

PROOF_FORMAT = "poolgen-proof/2"


HOLDER = ("a printed ticket's proof is its outcome, given only to whoever shows its validation number "
          "(VIRN), which only its holder can read: give it after TICKET (docs/publish-and-reveal.md)")


def prove_ticket(run: Path, ticket: str, virn: str | None = None,
                 public_key: Path | None = None) -> dict[str, Any]:
    """A proof that `ticket` belongs to its pool in run folder `run`: its full row, its audit path
    and the pool's root, as `python -m audit check-proof` reads it (docs/merkle.md, section 4).
    A printed ticket's only against its validation number `virn`, checked against the imaging file of
    its pool (its id and barcode number are on its outside); an eInstant share's by its id alone.

    The run is opened as the PDFs open it (`poolgen.run.folder.open_run`: a validated manifest, every
    read of a pool file a RunError on failure). With `public_key` the manifest's signature is checked
    first (the root proved against is then the signer's); without, the root is the folder's word alone."""
    folder = open_run(run)
    if public_key is not None:
        if folder.manifest["signature"].get("signed") is not True:
            raise RunError(f"{run}: the run is unsigned: its roots are no signer's; no proof given")
        signer(Path(run), folder.manifest_bytes, folder.manifest, public_key, "no proof given")
    printed = folder.kind == "printed"
    if printed and virn is None:
        raise RunError(f"{ticket}: {HOLDER}")
    if not printed and virn is not None:
        raise RunError(f"{ticket}: an eInstant share has no validation number; give its share id alone")
    for entry in folder.parsed.pools:
        folder.require(entry.id, ["ticket"])
        found = folder.collect(entry.id, lambda lf: lf.with_row_index("_row")
                               .filter(pl.col("ticket") == ticket).select("_row"))
        if found.height == 0:
            continue
        position = int(found.item(0, 0))
        if virn is not None:  # a printed ticket: the VIRN printed under its latex, or no proof
            digits = ticket.replace("-", "")
            shown = folder.virn(entry.id, digits + check_digits(digits))
            if shown is None or not hmac.compare_digest(shown.encode(), virn.encode()):
                raise RunError(f"{ticket}: wrong validation number; no proof given")
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
