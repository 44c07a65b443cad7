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
    PYTHONPATH=. python bench/stats_combined.py --runs 200 --pools 6 --packs chain   # chain-drawn pools

--packs CASE builds the runs from bench/stats_packs.py's small spec of that case instead (Happy Holidays
cut to 100 books of 30 with CASE's [packs], e.g. `chain` or `floor`: drawn by the Metropolis chain of
docs/randomness.md 5.3), judged with its pack parameters as `verify --spec` judges them (section 1b);
seeds "stats-combined/CASE-honest/..." instead.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl

from audit.read.specs.packs import for_pool, read_packs
from audit.stats.step import ALPHA_RUN, combined_statistics, holm, pool_statistics, run_statistics
from audit.stats.top import top_levels
from bench.stats_packs import CASES
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support.order_leaks import spot_3_leak
from tests.support.packs import small_packs
from tests.support.stats import Entry, small_spec

BEFORE_POOLS = 0.004  # the pools' share of the 1% before section 1d


def one_run(spec, kind: str, i: int, pools: int, leak: float, names: Counter,
            packs=None) -> tuple[bool, bool, list[tuple[str, float]], int, float, bool]:
    """(failed before, failed after, the combined tests' names and p-values, pools refused after, seconds
    combining, refused by a combined test);
    the tests refused after (pool, top tiers, combined) counted into `names`."""
    pool, play = spec.pools[0], spec.play.document()
    area = next(a for a in play["areas"] if a["id"] == "play")
    stats = []
    for k in range(pools):
        seed = hashlib.sha256(f"poolgen/bench/stats-combined/{kind}/{i}/{k}".encode()).digest()
        table = build_pool(spec, pool, seed)
        if leak:
            table = spot_3_leak(table, area, leak, np.random.default_rng(list(seed)))
        stats.append(pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                                     per_book=spec.tickets_per_book, pools=pools, play=play, packs=packs))
    top = run_statistics([s.top for s in stats if s.top], pools)
    before = any(any(j.rejected for j in holm([j.finding for j in s.judged], BEFORE_POOLS / pools))
                 for s in stats)
    start = time.perf_counter()
    both = combined_statistics(stats, pools)
    spent = time.perf_counter() - start
    refused = sum(bool(s.failed) for s in stats)
    after = bool(refused or both.failed)
    ps = [(j.finding.name, j.finding.p) for j in both.judged]
    names.update(("pool: " if s in stats else "run: ") + j.finding.name.split(" (")[0]
                 for s in (*stats, top, both) for j in s.failed)
    return before or bool(top.failed), after or bool(top.failed), ps, refused, spent, bool(both.failed)


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
    ap.add_argument("--packs", choices=[c for c in CASES if not c.startswith("blocks")],
                    help="pools of bench/stats_packs.py's small spec of this case (e.g. chain, floor)")
    a = ap.parse_args()
    assert ALPHA_RUN == 0.006
    packs = None
    with tempfile.TemporaryDirectory() as tmp:
        if a.packs:
            path = small_packs(Path(tmp), CASES[a.packs], f"{a.packs}.toml")
            spec = load_spec(path)
            packs = for_pool(read_packs(tomllib.loads(path.read_text())), spec.pools[0].price_cents)
        else:
            spec = small_spec(Path(tmp))
    if a.top_only:
        top_only(spec, a.runs, a.pools)
        return
    prefix = f"{a.packs}-" if a.packs else ""
    for kind, runs, leak in ((prefix + "honest", a.runs, 0.0), (prefix + "leak", a.leaky_runs, a.leak)):
        if not runs:
            continue
        fails_before = fails_after = refused = by_combined = 0
        ps: list[float] = []
        keys: dict[str, list[float]] = {}
        spent = 0.0
        names: Counter = Counter()
        start = time.perf_counter()
        for i in range(runs):
            b, f, p, r, s, c = one_run(spec, kind, i, a.pools, leak, names, packs)
            fails_before += b
            fails_after += f
            ps += [q for _, q in p]
            for name, q in p:
                keys.setdefault(name, []).append(q)
            by_combined += c
            refused += r
            spent += s
        arr = np.array(ps)
        print(f"{kind} (leak {leak:g}): {runs} runs of {a.pools} pools: failed before {fails_before} "
              f"({100 * fails_before / runs:.2f}%), after {fails_after} ({100 * fails_after / runs:.2f}%); "
              f"pools refused on their own after {refused} of {runs * a.pools}; combined p-values "
              f"{len(arr)}: <= 0.05 {np.mean(arr <= 0.05):.4f}, <= 0.01 {np.mean(arr <= 0.01):.4f}, "
              f"<= 0.001 {np.mean(arr <= 0.001):.4f}, mean {arr.mean():.3f}, smallest {arr.min():.3g}; "
              f"combining {spent / runs * 1000:.2f} ms a run; {time.perf_counter() - start:.0f} s; "
              f"refused by {dict(names.most_common(4))}; by a combined test {by_combined}")
        worst = sorted(keys.items(), key=lambda kv: -np.mean(np.array(kv[1]) <= 0.01))[:5]
        print("combined tests with the most p <= 0.01: " + "; ".join(
            f"{name} {np.mean(np.array(v) <= 0.01):.3f} ({np.mean(np.array(v) <= 0.05):.3f} <= 0.05)"
            for name, v in worst))


if __name__ == "__main__":
    main()
