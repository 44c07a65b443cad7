"""What an insider holding the signing key does to a run: write a changed pool table as poolgen writes
it, restate the file's size, hash and Merkle root in the manifest, and sign it again."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer


def reseal_pool(run: Path, name: str, table: pl.DataFrame, signer: Signer) -> None:
    """Write `table` as the run's first pool file `name` and sign the restated manifest again."""
    table.write_parquet(run / name, compression="zstd", statistics=True)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(run / name)
    doc["pools"][0]["merkle"]["root"] = merkle_root(pl.read_parquet(run / name)).hex()
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(run)
