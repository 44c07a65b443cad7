"""Step 8's false failures with each new style's features (issue 27): small honest pools of each
style's example, each judged as a one-pool run (its pool's tests and the run-level tests).

    python bench/stats_styles.py                       # 200 pools of 3,000 tickets per style
    python bench/stats_styles.py --pools 50 --tickets 6000 lucky_pairs

Each example is cut as tests/support's small_example does (every count divided alike); seeds
SHA-256("poolgen/bench/stats-styles/<example>/" || i). Prints, per example, the pools failing step 8
(and by which tests), the number of tests a pool, and the most pools any one test had p <= 0.05 in.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from tests.support import small_example  # noqa: E402
from tests.support.stats import judge  # noqa: E402

EXAMPLES = ["lucky_pairs", "high_card_duel", "lucky_21", "poker_showdown", "five_alarm_flames",
            "tic_tac_cash", "bingo_bonanza", "super_red_hot_crossword"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=EXAMPLES)
    parser.add_argument("--pools", type=int, default=200)
    parser.add_argument("--tickets", type=int, default=3000)
    args = parser.parse_args()
    print("| example | pools failing step 8 | by | tests a pool | most p <= 0.05 of one test | seconds |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for example in args.examples:
            start = time.perf_counter()
            spec = load_spec(small_example(Path(tmp), example, args.tickets))
            pool = spec.pools[0]
            failed, by, small, tests = 0, Counter[str](), Counter[str](), 0
            for i in range(args.pools):
                seed = hashlib.sha256(f"poolgen/bench/stats-styles/{example}/{i}".encode()).digest()
                s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
                failed += bool(s.failed or r.failed)
                by.update(j.finding.name for j in s.failed + r.failed)
                small.update(j.finding.name for j in s.judged + r.judged if j.finding.p <= 0.05)
                tests = len(s.judged)
            worst = small.most_common(1)[0][1] if small else 0
            names = "; ".join(f"{name} ({k})" for name, k in by.most_common(3)) or "-"
            print(f"| {example} | {failed}/{args.pools} | {names} | {tests} | {worst} | "
                  f"{time.perf_counter() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
