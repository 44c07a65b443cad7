"""CPU time of `build_pool` under several caps alone drawn exactly (docs/randomness.md, 5.10) against the
Metropolis chain of 5.3 on the same parameters (the exact paths turned off) and, for a case 5.9 takes,
against 5.9; the tier order alone besides. Run from the project root (about 40 s):

    PYTHONPATH=. python bench/packs_caps.py [--seeds 2]

Happy Holidays (specs/examples/happy_holidays_packs.toml with its `[packs]` replaced, in a temporary
folder: one pool of 300,000 in 1,000 books of 300, 450 $100 and 500 $20), no winners bounds."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HAPPY = {
    "$100 at most one, $20 at most two (5.9's)":
        'caps = [ { prize = "100.00", at_most = 1 }, { prize = "20.00", at_most = 2 } ]',
    "$100 at most two, $20 at most two":
        'caps = [ { prize = "100.00", at_most = 2 }, { prize = "20.00", at_most = 2 } ]',
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    from packs_exact import draw_seconds  # bench/, this script's folder

    import poolgen.run.packs as packs  # after sys.path: the checkout's own code
    import poolgen.run.packs.caps as caps
    from poolgen.loader import load_spec
    from tests.support.packs import packs_variant

    beside, alone, caps_beside = packs.exactly_beside, packs.exactly_caps, caps.exactly_beside

    def never(rules: object) -> bool:
        return False

    routes = {"5.9 (as dispatched)": (beside, alone, caps_beside),
              "5.10": (never, alone, never),
              "chain (5.3)": (never, never, never)}
    with tempfile.TemporaryDirectory() as folder:
        for name, table in HAPPY.items():
            game = load_spec(packs_variant(Path(folder), 1, table))
            pool = game.pools[0]
            rules = packs.rules_for(game, pool)
            assert rules is not None
            for path, (b, a, cb) in routes.items():
                if path.startswith("5.9") and not beside(rules):
                    continue
                packs.exactly_beside, packs.exactly_caps, caps.exactly_beside = b, a, cb
                print(f"{name}, {path}: {draw_seconds(game, pool, rules, args.seeds)}", flush=True)
            packs.exactly_beside, packs.exactly_caps, caps.exactly_beside = beside, alone, caps_beside


if __name__ == "__main__":
    main()
