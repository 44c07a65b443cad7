"""A signed run of a split order (docs/randomness.md 4b), as small as one gets: tests/support/spec_docs.py's
key_number_match game as an order of 12,000 tickets in six pools of 2,000, counts per order (100 free
tickets, 100 of $1, 50 of $2, 4 of $6), `split = "even"`, so every tier's share of a pool is a
fraction, each pool holding it rounded down or up as SEED_A draws; $5 and more high-tier, both
validation keys. Built by `split_run` in a second or two."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A
from tests.support.spec_docs import kn_doc, write


@dataclass(frozen=True)
class SplitRun:
    spec: Path  # root/g.toml
    folder: Path  # the run, root/runs/split
    public: Path  # its public key
    low: Path  # the validation keys
    high: Path
    private: Path  # the signing key


def split_run(root: Path, printed: dict | None = None, pools: list[str] | None = None,
              run_id: str = "split", packs: dict | None = None) -> SplitRun:
    """The split order's run in `root` (its spec, keys and run folder); `printed` changes the spec's
    [printed] table further (books of 2 tickets: first_ticket 0, last_ticket 1), `pools` makes the run a
    cut of those pools alone, `packs` gives the spec that [packs] table."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"} | (printed or {})
    doc["tiers"][3]["count"] = 4
    if packs is not None:
        doc["packs"] = packs
    spec = write(root, doc)
    for tier in ("low", "high"):
        new_validation_key(root / f"{tier}.key")
    pair = new_key_pair(root / "keys", None)
    made = SplitRun(spec, root / "runs" / "split", pair.public, root / "low.key", root / "high.key",
                    pair.private)
    return cut(made, pools, run_id)


def cut(made: SplitRun, pools: list[str] | None, run_id: str) -> SplitRun:
    """Another run of the same order, seed and keys (`pools`: a cut of some of its pools; None: all),
    as `run_id`, signed; the SplitRun naming it."""
    keys = (read_validation_key(made.low), read_validation_key(made.high))
    signer = Signer.from_file(made.private)
    request = GenerateRequest(load_spec(made.spec), SEED_A, now=datetime(2026, 12, 3, tzinfo=UTC),
                              out=made.spec.parent / "runs", run_id=run_id, pool_ids=pools,
                              validation_keys=keys, high_tier_cents=500, signature=signer.manifest_entry())
    folder = generate(request, finish=signer.sign_run).folder
    return SplitRun(made.spec, folder, made.public, made.low, made.high, made.private)


def ticket_rows(run: SplitRun) -> pl.DataFrame:
    """Every ticket of the run, pool after pool: its barcode and validation numbers and its tier."""
    ids = [p["id"] for p in json.loads((run.folder / "manifest.json").read_text())["pools"]]
    return pl.concat([pl.concat([pl.read_parquet(run.folder / f"imaging-{i}.parquet",
                                                 columns=["barcode", "virn"]),
                                 pl.read_parquet(run.folder / f"pool-{i}.parquet", columns=["tier"])],
                                how="horizontal") for i in ids])
