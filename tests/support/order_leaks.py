"""An insider's layout leak spread thinly over every pool of an order (step 8's combined tests,
audit/stats/combined.py; docs/statistics.md 1d): on a share of each pool's losers, drawn with the
insider's coin, the spot holding the row's highest amount is swapped with play_spot_3 (the same amounts,
so the same prize: every row still legal), so a player who sees that amount in spot 3 knows a little
more often that the ticket loses. Each pool alone stays below its threshold; the same test is small in
every pool. The insider's re-signing of a run whose every pool file he has changed; and such runs of
small pools judged in memory."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.stats.step import PoolStatistics, RunStatistics, combined_statistics, pool_statistics
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.run.build import build_pool
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer
from tests.support.stats import Entry


def spot_3_leak(table: pl.DataFrame, area: dict[str, Any], share: float,
                rng: np.random.Generator) -> pl.DataFrame:
    """`share` of the losers (chosen by `rng`) show their highest amount in play_spot_3."""
    cents = np.array([p["cents"] for p in area["prizes"]])
    n = area["spots"]
    spots = np.stack([table[f"play_spot_{j}"].to_numpy() for j in range(n)], axis=1).astype(np.int64)
    best = (cents[spots] * 64 + spots).argmax(axis=1)  # the highest amount; equal amounts: the higher code
    losers = np.flatnonzero(table["prize_cents"].to_numpy() == 0)
    rows = rng.choice(losers, round(share * len(losers)), replace=False)
    held = spots[rows, best[rows]]
    spots[rows, best[rows]] = spots[rows, 3]
    spots[rows, 3] = held
    return table.with_columns(*(pl.Series(f"play_spot_{j}", spots[:, j], dtype=table[f"play_spot_{j}"].dtype)
                                for j in range(n)))


def reseal_every_pool(run: Path, change: Any, signer: Signer) -> None:
    """Apply `change(index, table)` to every pool file of the run, restate each file's size, hash and
    Merkle root, drop the printer's files (step 9 would see them differ) and sign the manifest again."""
    doc = json.loads((run / "manifest.json").read_bytes())
    for i, entry in enumerate(doc["pools"]):
        path = run / entry["file"]["name"]
        table = change(i, pl.read_parquet(path))
        table.write_parquet(path, compression="zstd", compression_level=1, statistics=False)
        entry["file"] = file_entry(path)
        entry["merkle"]["root"] = merkle_root(table).hex()
    for f in doc.pop("deliverables", []):
        if f["role"] != "pool":
            (run / f["name"]).unlink()
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    signer.sign_run(run)


def judged_order(spec: Any, label: str, pools: int,
                 share: float = 0.0) -> tuple[list[PoolStatistics], RunStatistics]:
    """A run of `pools` small Happy Holidays pools (pool p1's counts, a seed each) judged in memory,
    each pool's losers leaking in spot 3 at `share`: (the pools' statistics, the combined tests)."""
    pool, play = spec.pools[0], spec.play.document()
    area = next(a for a in play["areas"] if a["id"] == "play")
    stats = []
    for k in range(pools):
        seed = hashlib.sha256(f"poolgen/tests/combined/{label}/{k}".encode()).digest()
        table = build_pool(spec, pool, seed)
        if share:
            table = spot_3_leak(table, area, share, np.random.default_rng(k))
        stats.append(pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                                     per_book=spec.tickets_per_book, pools=pools, play=play))
    return stats, combined_statistics(stats, pools)
