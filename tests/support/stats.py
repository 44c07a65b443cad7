"""Step 8 on a pool built in memory: the manifest pool entry's fields step 8 reads, one pool judged
as a one-pool run (its tests and the run-level tests of its top tiers), and a layout leak printed on
a pool's losers as an insider could (every row still legal, its wins unchanged)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.read.manifest import Tier
from audit.stats.step import PoolStatistics, RunStatistics, pool_statistics, run_statistics
from audit.styles import area_engine
from audit.styles.interface import Reasons
from poolgen.loader import load_spec
from tests.support import spec_path

# Happy Holidays with every count divided by 100: 3,000 tickets in books of 30 (statistics tests)
SMALL = {"order_tickets = 1800000": "order_tickets = 18000", "pool_tickets = 300000": "pool_tickets = 3000",
         "last_ticket = 299": "last_ticket = 29", "count = 120000": "count = 1200",
         "count = 236100": "count = 2364", "count = 141000": "count = 1410", "count = 24600": "count = 246",
         "count = 3000\n": "count = 30\n", "count = 2700": "count = 30"}


def small_spec(tmp: Path) -> Any:
    """The small Happy Holidays variant (SMALL), written into `tmp` and loaded."""
    text = spec_path("happy_holidays").read_text()
    for old, new in SMALL.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp / "happy_holidays.toml"
    path.write_text(re.sub(r"published_cost = \"[^\"]*\"\n", "", text))
    return load_spec(path)


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


def on_losers(table: pl.DataFrame, area: dict[str, Any], columns: dict[str, np.ndarray]) -> pl.DataFrame:
    """The table with `columns` changed on its losers, a row kept as it was where the change would make
    it illegal or change its wins (the style's audit engine decides): a pool an insider could sign."""
    lose = table["prize_cents"].to_numpy() == 0
    changed = table.with_columns(pl.Series(c, np.where(lose, v, table[c].to_numpy()).astype(np.uint8))
                                 for c, v in columns.items())
    engine = area_engine(area["style"])
    before, after = Reasons(), Reasons()
    same = np.ones(table.height, dtype=bool)
    slots = zip(engine.evaluate(table, area, before), engine.evaluate(changed, area, after), strict=True)
    for old, new in slots:
        same &= (old.won == new.won) & (~old.won | (old.prize == new.prize))
    same &= ~np.isin(np.arange(table.height), [row for row, _ in after.illegal()])
    assert before.illegal() == [] and (lose & same).sum() > 0.5 * lose.sum()
    return table.with_columns(pl.Series(c, np.where(same, changed[c].to_numpy(), table[c].to_numpy()))
                              for c in columns)
