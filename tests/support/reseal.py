"""What an insider holding the signing key does to a run: write a changed pool table as poolgen writes
it, restate the file's size, hash and Merkle root in the manifest, and sign it again; or change any
manifest field or deliverable, restate the listed files and sign again (`resign`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from poolgen.deliverables.validation import file_bytes as validation_file
from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.build import identity_columns
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_happy_holidays


def reseal_pool(run: Path, name: str, table: pl.DataFrame, signer: Signer) -> None:
    """Write `table` as the run's first pool file `name` and sign the restated manifest again."""
    table.write_parquet(run / name, compression="zstd", statistics=True)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(run / name)
    doc["pools"][0]["merkle"]["root"] = merkle_root(pl.read_parquet(run / name)).hex()
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(run)


def signed_first_pool(spec: Any, seed: bytes, folder: Path, run_id: str = "hh",
                      pool_id: str | None = None) -> tuple[Path, Path, Signer]:
    """A signed run of `spec`'s first pool (or of `pool_id` alone) from `seed` under `folder` (keys in
    folder/keys): the run folder, the public key and the signer an insider re-signs with."""
    keys = new_key_pair(folder / "keys")
    signer = Signer.from_file(keys.private)
    run = generate(GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=folder / "runs",
                                   run_id=run_id, pool_ids=[pool_id or spec.pools[0].id],
                                   signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    return run, keys.public, signer


def reseal_insider_pool(run: Path, spec: Any, pool_id: str, seed: bytes, signer: Signer,
                        change: Callable[[pl.DataFrame], pl.DataFrame]) -> None:
    """An insider's pool: `change` the run's first pool table, put back the identity columns (book and
    ticket numbers, barcodes) the seed gives, restate the file and Merkle root, drop the printer's files
    (step 9 would see them disagree) and sign again: only the pool's order is the insider's."""
    path = next(run.glob("pool-*.parquet"))
    table = change(pl.read_parquet(path))
    table = table.with_columns(list(identity_columns(spec, spec.pool(pool_id), seed).values()))
    table.write_parquet(path, compression="zstd", compression_level=1, statistics=False)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(path)
    doc["pools"][0]["merkle"]["root"] = merkle_root(table).hex()
    for f in doc.pop("deliverables", []):  # the printer's files would tell too (step 9)
        if f["role"] != "pool":
            (run / f["name"]).unlink()
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


def signed_small_run(root: Path, tickets: int = 3000, validation_keys: bool = False) -> dict[str, Any]:
    """A signed run of Happy Holidays cut to one pool of `tickets` in `root` (with low.key and high.key
    beside it when `validation_keys`): its folder, public key, signer and spec, for an insider to edit."""
    files = new_key_pair(root / "keys", None)
    signer = Signer.from_file(files.private)
    keys = None
    if validation_keys:
        for tier in ("low", "high"):
            new_validation_key(root / f"{tier}.key")
        keys = (read_validation_key(root / "low.key"), read_validation_key(root / "high.key"))
    spec = small_happy_holidays(root, tickets)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                                   out=root / "runs", run_id="hh", signature=signer.manifest_entry(),
                                   validation_keys=keys), finish=signer.sign_run).folder
    return {"root": root, "run": run, "public": files.public, "signer": signer, "spec": spec}



def with_seed_file(made: dict[str, Any]) -> dict[str, Any]:
    """`made` (signed_small_run's) with its seed in a file of mode 0600, "seed", for audit's step 7."""
    seed = made["root"] / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    return made | {"seed": seed}


def audit_alone(made: dict[str, Any], run: Path) -> Any:
    """audit's verify of `run` (made's, edited or not) with its spec, seed file and both validation keys."""
    from audit.verify import VerifyRequest, verify_run  # noqa: PLC0415 (tests of poolgen alone need no audit)

    return verify_run(VerifyRequest(run=run, public_key=made["public"], spec=made["spec"],
                                    seed_file=made["seed"], validation_key=made["root"] / "low.key",
                                    high_validation_key=made["root"] / "high.key"))

def rebuild_validation(run: Path, keys: Path, free_tiers: list[str] | None = None) -> None:
    """Write both validation files of a printed run again with the real keys (`keys`/low.key, high.key)
    from its pool and imaging files, as the manifest now states them (`free_tiers`: the free-ticket
    tiers to mark FREE instead of the manifest's): what an insider holding the keys does so that step 9
    agrees with an edited manifest. Sign again afterwards (`resign`)."""
    doc = json.loads((run / "manifest.json").read_bytes())
    stated = doc["print"]
    free = stated["free_ticket_tiers"] if free_tiers is None else free_tiers
    pools = [(pl.read_parquet(run / p["file"]["name"]), pl.read_parquet(run / f"imaging-{p['id']}.parquet"))
             for p in doc["pools"]]
    barcodes = np.concatenate([im["barcode"].cast(pl.Int64).to_numpy() for _, im in pools])
    virns = np.concatenate([im["virn"].cast(pl.Int64).to_numpy() for _, im in pools])
    prizes = np.concatenate([t["prize_cents"].to_numpy() for t, _ in pools])
    is_free = np.concatenate([t["tier"].is_in(free).to_numpy() for t, _ in pools])
    for tier in ("low", "high"):
        data = validation_file(tier, read_validation_key(keys / f"{tier}.key"), doc["run_id"],
                               doc["game"]["number"], stated["high_tier_cents"], barcodes, virns,
                               stated["virn_digits"], prizes, is_free)
        (run / f"validation-{tier}.bin").write_bytes(data)
