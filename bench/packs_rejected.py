"""CPU time of `build_pool` under caps and spacing rules together drawn exactly by rejection
(docs/randomness.md, 5.13) against the Metropolis chain of 5.3 on the same parameters (the exact path
turned off), and of the tier order alone, with the tries 5.13 took. Run from the project root:

    PYTHONPATH=. python bench/packs_rejected.py [--seeds 3] [--only TEXT] [--no-chain]

Happy Holidays (specs/examples/happy_holidays_packs.toml with its `[packs]` replaced: one pool of
300,000 in 1,000 books of 300: 4,100 $5, 500 $20, 450 $100)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.packs_exact import draw_seconds  # noqa: E402  (after sys.path: the checkout's own code)

BOUNDS = "min_winners = 80\nmax_winners = 110\n"
HAPPY = {
    "winners 80..110, $100 at most one, $20 or $100 never back to back, $20 at least 3 apart":
        f'{BOUNDS}caps = [ {{ prize = "100.00", at_most = 1 }} ]\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 }, { prize = "20.00", min_distance = 3 } ]',
    "winners 80..110, $20 at most two, $100 never back to back":
        f'{BOUNDS}caps = [ {{ prize = "20.00", at_most = 2 }} ]\n'
        'spacing = [ { prize = "100.00", min_distance = 2 } ]',
    "winners 80..110, $100 at most one, $20 at most one, $5 at most 14":  # a cap of two on 500 costs 20.8
        f'{BOUNDS}caps = [ {{ prize = "100.00", at_most = 1 }}, {{ prize = "20.00", at_most = 1 }}, '
        '{ prize = "5.00", at_most = 14 } ]',
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--only", help="the cases whose name holds this")
    parser.add_argument("--no-chain", action="store_true", help="the exact draw only")
    args = parser.parse_args()
    import poolgen.run.packs as packs
    import poolgen.run.packs.rejected as rejected
    from poolgen.loader import load_spec
    from tests.support.packs import packs_variant

    exact, base = packs.exactly_rejected, rejected._base_draw
    tries = [0]

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        tries[0] += 1
        return base(*a, **k)

    rejected._base_draw = counted
    with tempfile.TemporaryDirectory() as folder:
        for name, table in HAPPY.items():
            if args.only and args.only not in name:
                continue
            game = load_spec(packs_variant(Path(folder), 1, table))
            pool = game.pools[0]
            rules = packs.rules_for(game, pool)
            assert rules is not None and exact(rules), name
            paths = [("exact (5.13)", exact)] + ([] if args.no_chain else [("chain (5.3)", lambda r: False)])
            for path, routed in paths:
                packs.exactly_rejected = routed
                tries[0] = 0
                line = draw_seconds(game, pool, rules, args.seeds)
                said = f"; tries {tries[0]} in {2 * args.seeds} draws" if routed is exact else ""
                print(f"{name}, {path}: {line}{said}, left out {', '.join(rejected.left_out(rules))}, "
                      f"estimate {rejected.acceptance(rules)}", flush=True)
            packs.exactly_rejected = exact


if __name__ == "__main__":
    main()
