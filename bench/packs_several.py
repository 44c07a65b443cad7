"""CPU time of `build_pool` under two spacing rules drawn exactly (docs/randomness.md, 5.12) against
the Metropolis chain of 5.3 on the same parameters (the exact path turned off), and of the tier order
alone, with the tries 5.12 took. Run from the project root:

    PYTHONPATH=. python bench/packs_several.py [--seeds 3] [--only TEXT]

Happy Holidays (specs/examples/happy_holidays_packs.toml with its `[packs]` replaced: one pool of
300,000 in 1,000 books of 300: 500 $20, 450 $100)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.packs_exact import draw_seconds  # noqa: E402  (after sys.path: the checkout's own code)

TWO = ('spacing = [ { prize = "20.00", min_distance = 2 }, '
       '{ prize = "100.00", min_distance = 3 } ]')
HAPPY = {
    "$20 never back to back, $100 at least 3 apart": TWO,
    "the same, winners 80..110": f"min_winners = 80\nmax_winners = 110\n{TWO}",
    "winners 80..110, $20 or $100 never back to back, $100 at least 10 apart":
        'min_winners = 80\nmax_winners = 110\n'
        'spacing = [ { tiers = ["20", "100"], min_distance = 2 }, { prize = "100.00", min_distance = 10 } ]',
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--only", help="the cases whose name holds this")
    parser.add_argument("--no-chain", action="store_true", help="the exact draw only")
    args = parser.parse_args()
    import poolgen.run.packs as packs
    import poolgen.run.packs.several as several
    from poolgen.loader import load_spec
    from tests.support.packs import packs_variant

    exact, spaced = packs.exactly_several, several.arrange_spaced
    tries = [0]

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        tries[0] += 1
        return spaced(*a, **k)

    several.arrange_spaced = counted
    with tempfile.TemporaryDirectory() as folder:
        for name, table in HAPPY.items():
            if args.only and args.only not in name:
                continue
            game = load_spec(packs_variant(Path(folder), 1, table))
            pool = game.pools[0]
            rules = packs.rules_for(game, pool)
            assert rules is not None and exact(rules), name
            paths = [("exact (5.12)", exact)] + ([] if args.no_chain else [("chain (5.3)", lambda r: False)])
            for path, routed in paths:
                packs.exactly_several = routed
                tries[0] = 0
                line = draw_seconds(game, pool, rules, args.seeds)
                said = f"; tries {tries[0]} in {2 * args.seeds} draws" if routed is exact else ""
                print(f"{name}, {path}: {line}{said}, estimate {several.acceptance(rules)}", flush=True)
            packs.exactly_several = exact


if __name__ == "__main__":
    main()
