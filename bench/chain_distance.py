"""How near the chain of docs/randomness.md 5.3 comes to its target on full pools: step 8's exact
tests within pairs of packs (docs/statistics.md 1b, "Each tier given the rest of its pair of packs")
on N honest pools of a spec the chain draws, and their p-values' uniformity.

    python bench/chain_distance.py                                   # 20 pools of the example
    python bench/chain_distance.py --pools 40 --spec specs/examples/happy_holidays_packs.toml
    python bench/chain_distance.py --sweeps 0                        # the chain stopped after its descent
    python bench/chain_distance.py --pools 10 --spec specs/examples/hand_to_hand_blocks.toml   # blocks

Each pool is `poolgen.run.build.build_pool` of the spec's first pool (`--pool`) from the seed
SHA-256("poolgen/bench/chain-distance/" || decimal i); `--sweeps` sets the chain's mixing sweeps
(poolgen/run/packs/chain.py MIX_SWEEPS, 6 as generated). It prints, per test, the share of p-values at
most 0.05 and 0.01 and the Kolmogorov-Smirnov p of their uniformity, and the CPU seconds of building.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import tomllib
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.read.specs.packs import for_pool, read_blocks, read_packs  # noqa: E402
from audit.stats.pairs import pair_findings  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.packs import chain  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pools", type=int, default=20)
    parser.add_argument("--spec", type=Path, default=ROOT / "specs/examples/happy_holidays_packs.toml")
    parser.add_argument("--sweeps", type=int, default=chain.MIX_SWEEPS)
    parser.add_argument("--pool", type=int, default=0, help="which of the spec's pools (0: the first)")
    parser.add_argument("--first", type=int, default=0, help="the first seed's i (0)")
    args = parser.parse_args()
    from scipy import stats
    spec = load_spec(args.spec)
    doc = tomllib.loads(args.spec.read_text())
    pool = spec.pools[args.pool]
    if spec.kind == "printed":
        rules, m, unit = read_packs(doc), spec.tickets_per_book, "book"
    else:  # an eInstant's blocks, its floor at the pool's share price
        rules = for_pool(read_blocks(doc), pool.price_cents)
        m, unit = rules.size, "block"
    chain.MIX_SWEEPS = args.sweeps
    ps: dict[str, list[float]] = defaultdict(list)
    built = 0.0
    for i in range(args.first, args.first + args.pools):
        seed = hashlib.sha256(f"poolgen/bench/chain-distance/{i}".encode()).digest()
        start = time.process_time()
        table = build_pool(spec, pool, seed)
        built += time.process_time() - start
        prize, tier = table["prize_cents"].to_numpy(), table["tier"].to_numpy()
        found, why = pair_findings(unit, prize, tier, m, rules, pool.tiers)
        for f in found:
            if f is not None:
                ps[f.name].append(f.p)
                if f.p < 1e-3:
                    print(f"pool {i}: {f.name}: {f.figures}, p = {f.p:.2g}")
        if why:
            print(*why, sep="\n")
    print(f"## {args.spec.name}: {args.pools} pools, {args.sweeps} sweeps, {built:.0f} s of CPU building")
    print("| test | p <= 0.05 | p <= 0.01 | smallest p | KS p (uniform) |")
    print("|---|---|---|---|---|")
    for name, p in ps.items():
        v = np.asarray(p)
        print(f"| {name} | {np.mean(v <= 0.05):.3f} | {np.mean(v <= 0.01):.3f} | {v.min():.2g} | "
              f"{stats.kstest(v, 'uniform').pvalue:.3g} |")
    every = np.concatenate([np.asarray(p) for p in ps.values()])
    print(f"## every test: {every.size} p-values, {np.mean(every <= 0.05):.3f} at most 0.05, "
          f"{np.mean(every <= 0.01):.3f} at most 0.01")


if __name__ == "__main__":
    main()
