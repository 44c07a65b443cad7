"""What an insider holding the signing key does to a run: write a changed pool table as poolgen writes
it, restate the file's size, hash and Merkle root in the manifest, and sign it again; or change any
manifest field or deliverable, restate the listed files and sign again (`resign`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def resign(run: Path, edit: Callable[[dict[str, Any]], object], signer: Signer) -> None:
    """Apply `edit` to the run's manifest (a JSON object, changed in place), restate every listed file's
    size and hash but a pool file's (its pool entry's), write it canonical and sign it again: what an
    insider does after changing a deliverable or a manifest field."""
    doc = json.loads((run / "manifest.json").read_bytes())
    edit(doc)
    for f in doc.get("deliverables", []):
        if f.get("role") != "pool" and (run / f["name"]).is_file():
            entry = file_entry(run / f["name"])
            f["bytes"], f["sha256"] = entry["bytes"], entry["sha256"]
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(run)
