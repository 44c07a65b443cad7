"""A signed run with one row's layout replaced, as an insider holding the signing key could: the edited
pool file written again, the printer's imaging file made again from it (with the seed), the files'
hashes and the Merkle root restated in the manifest, and the manifest signed again with the run's real
key. Only the rules engine (verify step 4) can then tell (tests/audit/steps/test_layouts_*.py)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
from typer.testing import CliRunner

from audit.merkle import table_root
from audit.read.manifest import canonical
from poolgen.cli.main import app
from poolgen.deliverables.write import imaging_name, write_imaging
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A

NOW = datetime(2026, 1, 2, tzinfo=UTC)


def signed_run(tmp: Path, spec: Any, pool: Any) -> dict[str, Any]:
    """A real run of `spec` holding the one (small) pool `pool`, signed with a fresh real key."""
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = replace(spec, pools=(pool,))
    run = generate(GenerateRequest(spec, SEED_A, now=NOW, out=tmp / "runs", run_id="r",
                                   signature=signer.manifest_entry()), finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer, "spec": spec, "pool": pool}


def file_entry(path: Path) -> dict[str, Any]:
    """A run file's entry in the manifest (docs/manifest.md): name, size and SHA-256."""
    data = path.read_bytes()
    return {"name": path.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def replace_a_row(base: dict[str, Any], run: Path, tier: str,
                  change: Callable[[dict[str, Any]], dict[str, int]]) -> tuple[int, str, dict[str, Any]]:
    """Give the first row of `tier` the layout values `change(row)` returns (`row`: the stored row, a
    dict; every other column kept: its tier, prize, identity and salt); write a printed run's imaging
    file again from the edited pool (with the seed, as an insider could); restate the files' hashes and
    the Merkle root in the manifest; sign it again. The row's index, ticket id and stored values."""
    pool = base["pool"]
    name = f"pool-{pool.id}.parquet"
    table = pl.read_parquet(run / name)
    row = int(table.with_row_index().filter(pl.col("tier") == tier)["index"][0])
    stored = table.row(row, named=True)
    values = change(stored)
    table = table.with_columns(
        pl.when(pl.int_range(pl.len()) == row).then(pl.lit(v)).otherwise(pl.col(c))
        .cast(table.schema[c]).alias(c) for c, v in values.items())
    table.write_parquet(run / name, compression="zstd", statistics=True)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(run / name)
    imaging = run / imaging_name(pool.id)
    if imaging.exists():
        imaging.unlink()
        assert write_imaging(base["spec"], pool, table, SEED_A, run)
        for entry in doc["deliverables"]:
            if entry["name"] == imaging.name:
                entry.update(file_entry(imaging))
    doc["pools"][0]["merkle"]["root"] = table_root(pl.read_parquet(run / name)).hex()
    (run / "manifest.json").write_bytes(canonical(doc))
    base["signer"].sign_run(run)
    return row, str(table["ticket"][row]), stored


def replace_a_losers_row(base: dict[str, Any], run: Path, values: dict[str, int]) -> tuple[int, str]:
    """`replace_a_row` on the first losing row, with fixed `values`."""
    row, ticket, _ = replace_a_row(base, run, "lose", lambda _: values)
    return row, ticket


def cli_verify(base: dict[str, Any], run: Path) -> tuple[int, dict[str, Any]]:
    """`poolgen verify RUN --public-key K --json`: its exit code and report."""
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def copied(base: dict[str, Any], tmp_path: Path) -> Path:
    """A copy of the base run's folder, to edit."""
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    return run
