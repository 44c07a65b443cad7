"""Step 8's pools' tests combined across a run (docs/statistics.md section 1d): false failures of honest
multi-pool runs and refusals of a leak spread over every pool, before and after the combination.

Runs of P small Happy Holidays pools (3,000 tickets, books of 30: tests/support/stats.py's small_spec,
pool p1's counts; pool k of run i from seed SHA-256("poolgen/bench/stats-combined/" || run kind || "/"
|| i || "/" || k)), built in memory and judged by audit.stats.step as one run of P pools. "Before" is
the split before section 1d (each pool at 0.004 / P, the top tiers at 0.006); "after" is the split
of audit/stats/step.py (each pool at 0.002 / P, the top tiers at 0.006, the combined tests at 0.002),
both on the same findings. The leak: a share of each pool's losers, drawn at random, show their highest
amount in play_spot_3 (swapped with the spot that held it: the same prize).

    PYTHONPATH=. python bench/stats_combined.py --runs 300 --pools 6
    PYTHONPATH=. python bench/stats_combined.py --runs 60 --pools 16 --leak 0.08 --leaky-runs 16
    PYTHONPATH=. python bench/stats_combined.py --runs 2000 --pools 6 --top-only   # 1a's tests alone
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl

from audit.stats.step import ALPHA_RUN, combined_statistics, holm, pool_statistics, run_statistics
from audit.stats.top import top_levels
from poolgen.run.build import build_pool
from tests.support.stats import Entry, small_spec

BEFORE_POOLS = 0.004  # the pools' share of the 1% before section 1d


def spot_3(table: pl.DataFrame, area: dict, share: float, rng: np.random.Generator) -> pl.DataFrame:
    cents = np.array([p["cents"] for p in area["prizes"]])
    n = area["spots"]
    spots = np.stack([table[f"play_spot_{j}"].to_numpy() for j in range(n)], axis=1).astype(np.int64)
    best = (cents[spots] * 64 + spots).argmax(axis=1)
    losers = np.flatnonzero(table["prize_cents"].to_numpy() == 0)
    rows = rng.choice(losers, round(share * len(losers)), replace=False)
    held = spots[rows, best[rows]]
    spots[rows, best[rows]] = spots[rows, 3]
    spots[rows, 3] = held
    return table.with_columns(*(pl.Series(f"play_spot_{j}", spots[:, j], dtype=table[f"play_spot_{j}"].dtype)
                                for j in range(n)))


def one_run(spec, kind: str, i: int, pools: int, leak: float,
            names: Counter) -> tuple[bool, bool, list[float], int, float]:
    """(failed before, failed after, the combined tests' p-values, pools refused after, seconds combining);
    the tests refused after (pool, top tiers, combined) counted into `names`."""
    pool, play = spec.pools[0], spec.play.document()
    area = next(a for a in play["areas"] if a["id"] == "play")
    stats = []
    for k in range(pools):
        seed = hashlib.sha256(f"poolgen/bench/stats-combined/{kind}/{i}/{k}".encode()).digest()
        table = build_pool(spec, pool, seed)
        if leak:
            table = spot_3(table, area, leak, np.random.default_rng(list(seed)))
        stats.append(pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                                     per_book=spec.tickets_per_book, pools=pools, play=play))
    top = run_statistics([s.top for s in stats if s.top], pools)
    before = any(any(j.rejected for j in holm([j.finding for j in s.judged], BEFORE_POOLS / pools))
                 for s in stats)
    start = time.perf_counter()
    both = combined_statistics(stats, pools)
    spent = time.perf_counter() - start
    refused = sum(bool(s.failed) for s in stats)
    after = bool(refused or both.failed)
    ps = [j.finding.p for j in both.judged]
    names.update(("pool: " if s in stats else "run: ") + j.finding.name.split(" (")[0]
                 for s in (*stats, top, both) for j in s.failed)
    return before or bool(top.failed), after or bool(top.failed), ps, refused, spent


def top_only(spec, runs: int, pools: int) -> None:
    """Runs judged by the top tiers' tests (section 1a) alone: seeds "stats-top" instead."""
    pool, failed, names, start = spec.pools[0], 0, Counter(), time.perf_counter()
    for i in range(runs):
        tops = []
        for k in range(pools):
            seed = hashlib.sha256(f"poolgen/bench/stats-top/{i}/{k}".encode()).digest()
            prize = build_pool(spec, pool, seed)["prize_cents"].cast(pl.Int64).to_numpy()
            tops.append(top_levels(prize, f"p{k + 1}", spec.tickets_per_book))
        r = run_statistics(tops, pools)
        failed += bool(r.failed)
        names.update(j.finding.name.split(", pools combined")[0] for j in r.failed)
    print(f"top tiers alone: {runs} runs of {pools} pools: failed {failed} ({100 * failed / runs:.2f}%); "
          f"{time.perf_counter() - start:.0f} s; {dict(names.most_common(3))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300, help="honest runs")
    ap.add_argument("--pools", type=int, default=6, help="pools a run")
    ap.add_argument("--leak", type=float, default=0.0, help="share of each pool's losers leaking in spot 3")
    ap.add_argument("--leaky-runs", type=int, default=0, help="leaky runs")
    ap.add_argument("--top-only", action="store_true", help="honest runs judged by the top tiers alone")
    a = ap.parse_args()
    assert ALPHA_RUN == 0.006
    with tempfile.TemporaryDirectory() as tmp:
        spec = small_spec(Path(tmp))
    if a.top_only:
        top_only(spec, a.runs, a.pools)
        return
    for kind, runs, leak in (("honest", a.runs, 0.0), ("leak", a.leaky_runs, a.leak)):
        if not runs:
            continue
        fails_before = fails_after = refused = 0
        ps: list[float] = []
        spent = 0.0
        names: Counter = Counter()
        start = time.perf_counter()
        for i in range(runs):
            b, f, p, r, s = one_run(spec, kind, i, a.pools, leak, names)
            fails_before += b
            fails_after += f
            ps += p
            refused += r
            spent += s
        arr = np.array(ps)
        print(f"{kind} (leak {leak:g}): {runs} runs of {a.pools} pools: failed before {fails_before} "
              f"({100 * fails_before / runs:.2f}%), after {fails_after} ({100 * fails_after / runs:.2f}%); "
              f"pools refused on their own after {refused} of {runs * a.pools}; combined p-values "
              f"{len(arr)}: <= 0.05 {np.mean(arr <= 0.05):.4f}, <= 0.01 {np.mean(arr <= 0.01):.4f}, "
              f"<= 0.001 {np.mean(arr <= 0.001):.4f}, mean {arr.mean():.3f}, smallest {arr.min():.3g}; "
              f"combining {spent / runs * 1000:.2f} ms a run; {time.perf_counter() - start:.0f} s; "
              f"refused by {dict(names.most_common(4))}")


if __name__ == "__main__":
    main()
