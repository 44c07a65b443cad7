"""CPU time of `build_pool` under pack parameters drawn exactly (docs/randomness.md, 5.9) against the
Metropolis chain of 5.3 on the same parameters (the exact path turned off), and of the tier order
alone. Run from the project root:

    PYTHONPATH=. python bench/packs_exact.py [--seeds 3] [--einstant]

Happy Holidays (specs/examples/happy_holidays_packs.toml with its `[packs]` replaced: one pool of
300,000 in 1,000 books of 300) under a cap of one beside a second rule; with --einstant also the
example eInstant (specs/examples/hand_to_hand_blocks.toml's pool of 1,000,000 in 10,000 blocks of 100)
with its `[blocks]` cut to a cap of one beside a spacing rule (one seed: the chain takes about 10 s)."""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TWO_CAPS = 'caps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 1 } ]'
HAPPY = {
    "$100 and $20 at most one each": TWO_CAPS,
    "the same, winners 80..110": f"min_winners = 80\nmax_winners = 110\n{TWO_CAPS}",
    "$100 at most one, $20 at most two, winners 80..110":
        'min_winners = 80\nmax_winners = 110\n'
        'caps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 2 } ]',
    "$100 at most one, $20 never back to back":
        'caps = [ { prize = "100.00", at_most = 1 } ]\nspacing = [ { prize = "20.00", min_distance = 2 } ]',
    "the example without its value floor: winners 80..110, $100 at most one, $20 or $100 never back to back":
        'neighbours = "across packs"\nmin_winners = 80\nmax_winners = 110\n'
        'caps = [ { prize = "100.00", at_most = 1 } ]\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]',
}
EINSTANT = {
    "one $200+ a block, m50/m45/m40 never back to back":
        'shares = 100\nneighbours = "within blocks"\n'
        'caps = [ { tiers = ["m5000", "m500", "m400", "m300", "m200"], at_most = 1 } ]\n'
        'spacing = [ { tiers = ["m50", "m45", "m40"], min_distance = 2 } ]',
    "the same, at least 25 winners a block":
        'shares = 100\nneighbours = "within blocks"\nmin_winners = 25\n'
        'caps = [ { tiers = ["m5000", "m500", "m400", "m300", "m200"], at_most = 1 } ]\n'
        'spacing = [ { tiers = ["m50", "m45", "m40"], min_distance = 2 } ]',
}


def _einstant_variant(folder: Path, blocks: str) -> Path:
    text = (ROOT / "specs" / "examples" / "hand_to_hand_blocks.toml").read_text()
    text = re.sub(r"^\[blocks\][^\n]*\n(.*?\n)\n", f"[blocks]\n{blocks}\n\n", text, count=1,
                  flags=re.S | re.M)
    path = folder / "hand_to_hand_blocks.toml"
    path.write_text(text)
    return path


def draw_seconds(game: Any, pool: Any, rules: Any, seeds: int) -> str:
    """CPU seconds of `build_pool` and of the tier order alone (`packs.arrange`), seed by seed (seeds
    bytes([s]) * 32), as the line the pack benchmarks print."""
    import poolgen.run.packs as packs  # after sys.path: the checkout's own code
    from poolgen.rng import derive_stream
    from poolgen.rng.labels import stream_label
    from poolgen.run.build import build_pool

    pools, orders = [], []
    for s in range(seeds):
        seed = bytes([s]) * 32
        t = time.process_time()
        build_pool(game, pool, seed)
        pools.append(time.process_time() - t)
        stream = derive_stream(seed, *stream_label(game.id, pool.id, "order"))
        t = time.process_time()
        packs.arrange(stream, rules)
        orders.append(time.process_time() - t)
    return (f"build_pool {' '.join(f'{x:.2f}' for x in pools)} s; "
            f"tier order alone {' '.join(f'{x:.2f}' for x in orders)} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--einstant", action="store_true")
    parser.add_argument("--only", help="the cases whose name holds this")
    args = parser.parse_args()
    import poolgen.run.packs as packs  # after sys.path: the checkout's own code
    from poolgen.loader import load_spec
    from tests.support.packs import packs_variant

    exact = packs.exactly_beside
    with tempfile.TemporaryDirectory() as folder:
        cases = [(name, lambda table=table: packs_variant(Path(folder), 1, table), args.seeds)
                 for name, table in HAPPY.items()]
        if args.einstant:
            cases += [(name, lambda table=table: _einstant_variant(Path(folder), table), 1)
                      for name, table in EINSTANT.items()]
        for name, write, seeds in cases:
            if args.only and args.only not in name:
                continue
            game = load_spec(write())  # each variant written where the last was: load it at once
            pool = game.pools[0]
            rules = packs.rules_for(game, pool)
            assert rules is not None and exact(rules), name
            for path, routed in (("exact (5.9)", exact), ("chain (5.3)", lambda rules: False)):
                packs.exactly_beside = routed
                print(f"{name}, {path}: {draw_seconds(game, pool, rules, seeds)}", flush=True)
            packs.exactly_beside = exact


if __name__ == "__main__":
    main()
