"""Step 8 against an insider who puts a prize level with the top prizes (docs/statistics.md 1i): in the
books holding a top prize, or beside one in its book (`tests/support/near_top_biases.py`, every book keeping
its winners). Full pools built in memory, each judged as a one-pool run (`tests/support/stats.judge`);
"before" is Holm over the pool's tests without 1i's, "after" step 8 as it is.

    PYTHONPATH=. python bench/stats_near_top.py                       # the power table of 1i
    PYTHONPATH=. python bench/stats_near_top.py --power 0 --honest 1000 --full 20

Seeds: SHA-256("insider9/full/" || game || "/0") for the biased pools; honest small pools
SHA-256("poolgen/bench/stats-honest/" || i) (section 3's bench seeds); honest full pools
SHA-256("insider9/honest-full/" || game || "/" || i). The insider's choices come from numpy's generator
seeded by the number moved: they are the attacker's, not the pool's."""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

import numpy as np

from audit.stats.step import holm, pool_alpha
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.near_top_biases import level_beside_top, level_into_top_books
from tests.support.stats import judge, small_spec

CASES = {"wild_side": (5_000, (100, 25, 20), (100, 8, 7)),  # level, moved into the top books, beside
         "happy_holidays": (2_000, (100, 50, 40), (100, 10, 8))}


def mine(name: str) -> bool:
    """A test of 1i."""
    return name.startswith("prize level ") and ("of the top prizes" in name or "beside a top prize" in name)


def verdict(spec, pool, table, seed: bytes) -> str:
    s, r = judge(spec, pool, table, seed)
    before = holm([j.finding for j in s.judged if not mine(j.finding.name)], pool_alpha(1))
    b = min(before, key=lambda j: j.finding.p)
    a = min(s.judged, key=lambda j: j.finding.p)
    was = "REFUSED" if any(j.rejected for j in before) or r.failed else "passes"
    now = "REFUSED" if s.failed or r.failed else "passes"
    return (f"before {was} (smallest p {b.finding.p:.2g}: {b.finding.name}); after {now} (smallest p "
            f"{a.finding.p:.2g}: {a.finding.name}; threshold {a.threshold:.2g})")


def power() -> None:
    for game, (amount, into, beside) in CASES.items():
        spec = load_spec(spec_path(game))
        pool, m = spec.pools[0], spec.tickets_per_book
        seed = hashlib.sha256(f"insider9/full/{game}/0".encode()).digest()
        table = build_pool(spec, pool, seed)
        print(f"{game} honest: {verdict(spec, pool, table, seed)}", flush=True)
        for name, move, counts in (("into the top books", level_into_top_books, into),
                                   ("beside a top prize", level_beside_top, beside)):
            for k in counts:
                biased = move(table, m, 10_000, amount, k, np.random.default_rng(k))
                said = verdict(spec, pool, biased, seed)
                print(f"{game} {k} of ${amount // 100}s {name}: {said}", flush=True)


def honest_small(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spec = small_spec(Path(tmp))
    pool = spec.pools[0]
    before = after = by = 0
    ps: list[float] = []
    for i in range(runs):
        seed = hashlib.sha256(b"poolgen/bench/stats-honest/" + str(i).encode()).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        held = holm([j.finding for j in s.judged if not mine(j.finding.name)], pool_alpha(1))
        before += bool(any(j.rejected for j in held) or r.failed)
        after += bool(s.failed or r.failed)
        by += any(mine(j.finding.name) for j in s.failed)
        ps += [j.finding.p for j in s.judged if mine(j.finding.name)]
    p = np.array(ps)
    print(f"{runs} small honest runs: failed before {before}, after {after}, by 1i {by}; 1i's {len(p)} "
          f"p-values at most 0.05, 0.01, 0.001 in {np.mean(p <= 0.05):.2%}, {np.mean(p <= 0.01):.2%}, "
          f"{np.mean(p <= 0.001):.3%}, mean {p.mean():.3f}, smallest {p.min():.2g}")


def honest_full(pools: int) -> None:
    for game in CASES:
        spec = load_spec(spec_path(game))
        pool = spec.pools[0]
        failed, ps = 0, []
        for i in range(pools):
            seed = hashlib.sha256(f"insider9/honest-full/{game}/{i}".encode()).digest()
            s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
            failed += bool(s.failed or r.failed)
            ps += [j.finding.p for j in s.judged if mine(j.finding.name)]
        p = np.array(ps)
        print(f"{game}: {failed} of {pools} honest full pools fail; 1i's {len(p)} p-values at most 0.05, "
              f"0.01 in {np.mean(p <= 0.05):.1%}, {np.mean(p <= 0.01):.1%}, smallest {p.min():.2g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--power", type=int, default=1, help="1: the biased full pools (default)")
    parser.add_argument("--honest", type=int, default=0, help="small honest runs")
    parser.add_argument("--full", type=int, default=0, help="honest full pools of each game")
    args = parser.parse_args()
    if args.power:
        power()
    if args.honest:
        honest_small(args.honest)
    if args.full:
        honest_full(args.full)


if __name__ == "__main__":
    main()
