"""Step 8 on a pool built in memory: the manifest pool entry's fields step 8 reads, and one pool
judged as a one-pool run (its tests and the run-level tests of its top tiers)."""

from __future__ import annotations

import hashlib
from typing import Any

import polars as pl

from audit.read.manifest import Tier
from audit.stats.step import PoolStatistics, RunStatistics, pool_statistics, run_statistics


class Entry:
    """The fields of a manifest pool entry that step 8 reads."""

    def __init__(self, pool: Any, seed: bytes) -> None:
        self.id = pool.id
        self.tiers = tuple(Tier(t.id, t.prize_cents, t.count) for t in pool.tiers)
        self.file_sha256 = hashlib.sha256(seed).hexdigest()  # any fixed digest: it keys the split


def judge(spec: Any, pool: Any, table: pl.DataFrame, seed: bytes) -> tuple[PoolStatistics, RunStatistics]:
    """One pool's step 8 as a one-pool run of `spec`: (its statistics, the run-level ones)."""
    s = pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                        per_book=spec.tickets_per_book, pools=1, play=spec.play.document())
    assert s.top is not None
    return s, run_statistics([s.top], 1)
