"""Step 8's false-failure rate on small honest pools made with pack parameters (issue 24: at most 1.3%).

    python bench/stats_packs.py                  # 1,000 pools of each case
    python bench/stats_packs.py --pools 200 --case cap1

Each pool is built by `poolgen.run.build.build_pool` from its own seed, SHA-256("poolgen/bench/stats-packs/"
|| case || "/" || decimal i), and judged as a one-pool run by `audit.stats.step` (the pool's tests at
Holm 0.4%, the run-level tests of its top tiers at weighted Holm 0.6%: 1% for the run), with the
spec's pack parameters, as `verify --spec` judges it. Cases (docs/randomness.md section 5):

  cap1      Happy Holidays cut to 100 books of 30 (tests/support/packs.py `small_packs`), at most one of
            $5, $20 or $100 a book (51 tickets): 5.6
  cap3      the same, 6..12 winners a book and at most three $2 a book (235 tickets): 5.7
  spaced    the same, the $2 tickets of a book at least 4 apart: 5.8
  spaced-capped  6..12 winners, the $2 tickets at least 3 apart and at most 4 a book: 5.8 with its cap
  winners   6..12 winners a book alone: 5.2
  chain     6..12 winners, at least $12 a book, at most one $100, $5 to $100 at least 3 apart: the chain
            of 5.3 (the books' spread and the order within each book are tested: docs/statistics.md 1b)
  beside    6..12 winners, at most one $5 a book (41 tickets), the $2 tickets at least 3 apart (235): 5.9,
            S1 apart from the spacing rule's tiers
  beside-caps    at most one $5 a book, at most four of $2 or $5 (276): 5.9, S1 inside a second cap's tiers
  beside-inside  at most one $5 a book, the $2 and $5 tickets at least 2 apart: 5.9, S1 inside the
            spacing rule's tiers
  caps      at most two $5 a book (41 tickets), at most three $2 (235), at most one of $20 or $100 (10):
            5.10 (several caps alone on disjoint tiers)
  rejected  6..12 winners, at most two $5 a book, the $2 never back to back, the $20 and $100 at least 5
            apart: 5.13 (5.8's draw of the $2 rule, kept iff the cap and the other rule hold)
  rejected-caps  6..12 winners, at most one $5, at most three $2, at most one of $20 or $100: 5.13
            (5.9's draw of the first two caps, kept iff the third holds)
  blocks    Hand to Hand Tactics with blocks (specs/examples/hand_to_hand_blocks.toml) cut to 20,000
            shares in 200 blocks of 100 (tests/support/blocks.py), at least 25 winners a block: 5.4 by 5.2
  blocks-chain   the same with the example's own [blocks] (a floor of 40 x the share price, a cap of one
            $200+, $40-$50 at least 2 apart): the chain
  floor     at least 7 winners and $12 a book, at most one $100: the chain
  floor-tight    at least $13.50 a book (near what the books can pay): the chain

It prints, per case, the runs that fail step 8 and by which tests, and for each pack test the share of
its p-values at most 0.05 and 0.01 and the Kolmogorov-Smirnov p of their uniformity.

    python bench/stats_packs.py --power 100     # an insider's pools instead (tests/support/packs.py)
    python bench/stats_packs.py --power 100 --bias first-beside   # one bias

With --power, each of N honest pools per case is rewritten as an insider would (every parameter still
met, rows only reordered) and the table says how many step 8 refuses, and by the test named for it:

  first-books   cap1, the capped tickets moved into the first books (`capped_to_first_packs`)
  rich-books    cap1, the capped tickets moved into the books with the most winners (`capped_to_rich_packs`)
  evened        cap3, the $2 tickets spread as evenly over the books as they go (`capped_evened`)
  starts        spaced, the $2 tickets of each book at its places 0, 4, 8, ... (`spaced_to_starts`)
  starts-capped spaced-capped, the same at 0, 3, 6, ...
  first-beside  beside, the $5 tickets moved into the first books (never swapped with a $2)
  rich-beside   beside, the $5 tickets moved into the books with the most winners
  starts-beside beside, each $5 ticket at the first of its book's places outside the $2 tickets
  caps-beside   caps, the books' counts of $5 dealt to the books holding the most $2 tickets (the counts'
            histogram kept; `caps_beside`)
  caps-apart    caps, the same to the books holding the fewest $2 tickets
  caps-first    caps, the books' counts of $5 dealt to the first books (`capped_sorted_by`)
  spaced-first  chain, whole books moved, those holding the most $5 to $100 tickets first (`held_packs_first`)
  rich-first    chain, whole books moved, the richest first (`richest_packs_first`)
  pairs-poorer, pairs-richer   floor, in each pair of books a $2 moved to the poorer (richer) one
            (`tier_across_pairs`)
  repaired, repaired-chain   the chain stopped after its descent: "shuffle, then repair"
  evened-floor, evened-chain   the small prizes' value evened over the books (tests/support/chain_biases.py)
  poor-floor, poor-chain   the $5 and $20 kept from the poorer half of the books (`kept_from_poor`)
  pairs-evened-floor, pairs-evened-chain   whole books moved, the k-th richest beside the k-th poorest
  ends-floor, ends-chain   the better prizes kept from each book's first and last tickets, the winners'
            places unchanged (`kept_from_ends`)
  starts-chain  chain, the $5 to $100 tickets (spaced) at their books' places 0, 3, 6, ...
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.read.specs.packs import for_pool, read_blocks, read_packs  # noqa: E402
from audit.stats.step import pool_statistics, run_statistics  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.packs import chain  # noqa: E402
from tests.support.blocks import blocks_variant  # noqa: E402
from tests.support.chain_biases import kept_from_ends, kept_from_poor, pairs_evened, value_evened  # noqa: E402
from tests.support.packs import (  # noqa: E402
    capped_evened,
    capped_sorted_by,
    capped_to_first_packs,
    capped_to_rich_packs,
    caps_beside,
    held_packs_first,
    richest_packs_first,
    s1_to_starts,
    small_packs,
    spaced_to_starts,
    tier_across_pairs,
)
from tests.support.stats import Entry  # noqa: E402

CASES = {
    "cap1": 'caps = [ { tiers = ["5", "20", "100"], at_most = 1 } ]',
    "cap3": 'min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["2"], at_most = 3 } ]',
    "spaced": 'spacing = [ { tiers = ["2"], min_distance = 4 } ]',
    "spaced-capped": ('min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["2"], at_most = 4 } ]\n'
                      'spacing = [ { tiers = ["2"], min_distance = 3 } ]'),
    "winners": "min_winners = 6\nmax_winners = 12",
    "chain": ('min_winners = 6\nmax_winners = 12\nmin_prize_value = "12.00"\n'
              'caps = [ { prize = "100.00", at_most = 1 } ]\n'
              'spacing = [ { tiers = ["5", "20", "100"], min_distance = 3 } ]'),
    "blocks": "shares = 100\nmin_winners = 25",
    "blocks-chain": ('shares = 100\nneighbours = "within blocks"\nmin_winners = 25\nmin_prize_times = "40"\n'
                     'caps = [ { tiers = ["m5000", "m500", "m400", "m300", "m200"], at_most = 1 } ]\n'
                     'spacing = [ { tiers = ["m50", "m45", "m40"], min_distance = 2 } ]'),
    "floor": ('min_winners = 7\nmin_prize_value = "12.00"\ncaps = [ { prize = "100.00", at_most = 1 } ]'),
    "floor-tight": 'min_prize_value = "13.50"',  # near what books can pay: test_chain_positions.py
    "beside": ('min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["5"], at_most = 1 } ]\n'
               'spacing = [ { tiers = ["2"], min_distance = 3 } ]'),
    "caps": ('caps = [ { tiers = ["5"], at_most = 2 }, { tiers = ["2"], at_most = 3 }, '
             '{ tiers = ["20", "100"], at_most = 1 } ]'),
    "beside-caps": 'caps = [ { tiers = ["5"], at_most = 1 }, { tiers = ["2", "5"], at_most = 4 } ]',
    "beside-inside": ('caps = [ { tiers = ["5"], at_most = 1 } ]\n'
                      'spacing = [ { tiers = ["2", "5"], min_distance = 2 } ]'),
    "two-spaced": ('min_winners = 6\nspacing = [ { tiers = ["2", "5"], min_distance = 2 }, '  # the $5 in both
                   '{ tiers = ["5", "20", "100"], min_distance = 3 } ]'),
    "rejected": ('min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["5"], at_most = 2 } ]\n'
                 'spacing = [ { tiers = ["2"], min_distance = 2 }, '
                 '{ tiers = ["20", "100"], min_distance = 5 } ]'),
    "rejected-caps": ('min_winners = 6\nmax_winners = 12\ncaps = [ { tiers = ["5"], at_most = 1 }, '
                      '{ tiers = ["2"], at_most = 3 }, { tiers = ["20", "100"], at_most = 1 } ]'),
}
PACK_WORDS = ("book", "block", "runs")


def one_case(case: str, pools: int, tmp: Path) -> tuple[int, Counter, dict[str, list[float]]]:
    if case.startswith("blocks"):
        path = blocks_variant(tmp, 50, CASES[case], f"{case}.toml")
        rules = read_blocks(tomllib.loads(path.read_text()))
        per_book = 0
    else:
        path = small_packs(tmp, CASES[case], f"{case}.toml")
        rules = read_packs(tomllib.loads(path.read_text()))
        per_book = 30
    spec = load_spec(path)
    pool, play = spec.pools[0], spec.play.document()
    rules = for_pool(rules, pool.price_cents)  # an eInstant's floor in cents, as verify reads it
    failed, names, ps = 0, Counter(), defaultdict(list)
    for i in range(pools):
        seed = hashlib.sha256(f"poolgen/bench/stats-packs/{case}/{i}".encode()).digest()
        s = pool_statistics(build_pool(spec, pool, seed), Entry(pool, seed), rules=spec.id, kind=spec.kind,
                            per_book=per_book, pools=1, play=play, packs=rules)
        assert s.top is not None
        r = run_statistics([s.top], 1)
        bad = [j.finding.name for j in (*s.failed, *r.failed)]
        failed += bool(bad)
        names.update(bad)
        for j in s.judged:
            if any(w in j.finding.name for w in PACK_WORDS):
                ps[j.finding.name].append(j.finding.p)
    return failed, names, ps


BIASES = {
    "first-books": ("cap1", lambda t: capped_to_first_packs(t, 30, ["5", "20", "100"]),
                    "capped tickets (packs.caps[0]) by tenth of the books"),
    "rich-books": ("cap1", lambda t: capped_to_rich_packs(t, 30, ["5", "20", "100"]),
                   "winners per book of 30 (0..30) given its capped tickets"),
    "evened": ("cap3", lambda t: capped_evened(t, 30, ["2"]),
               "capped tickets (packs.caps[0]) per book: histogram"),
    "starts": ("spaced", lambda t: spaced_to_starts(t, 30, ["2"], 4),
               "spaced tickets (packs.spacing[0]) by place in their book"),
    "starts-capped": ("spaced-capped", lambda t: spaced_to_starts(t, 30, ["2"], 3),
                      "spaced tickets (packs.spacing[0]) by place in their book"),
    "first-beside": ("beside", lambda t: capped_to_first_packs(t, 30, ["5"], ("2",)),
                     "capped tickets (packs.caps[0]) by tenth of the books"),
    "rich-beside": ("beside", lambda t: capped_to_rich_packs(t, 30, ["5"], ("2",)),
                    "winners of the books holding capped tickets (packs.caps[0])"),
    "starts-beside": ("beside", lambda t: s1_to_starts(t, 30, "5", "2"),
                      "capped tickets (packs.caps[0]) by place among their book's places outside"),
    "caps-beside": ("caps", lambda t: caps_beside(t, 30, ["5"], ["2"], ("20", "100")),
                    "capped tickets (packs.caps[0]) per book given the other caps' tickets"),
    "caps-apart": ("caps", lambda t: caps_beside(t, 30, ["5"], ["2"], ("20", "100"), apart=True),
                   "capped tickets (packs.caps[0]) per book given the other caps' tickets"),
    "caps-first": ("caps", lambda t: capped_sorted_by(t, 30, ["5"], -np.arange(100), ("2", "20", "100")),
                   "capped tickets (packs.caps[0]) by tenth of the books"),
    "spaced-first": ("chain", lambda t: held_packs_first(t, 30, ["5", "20", "100"]),
                     "spaced tickets (packs.spacing[0]) by tenth of the books"),
    "rich-first": ("chain", lambda t: richest_packs_first(t, 30),
                   "prize value per book by tenth of the books"),
    "pairs-poorer": ("floor", lambda t: tier_across_pairs(t, 30, "2", 7, 1200),
                     "tier 2 ($2.00) per book given the rest of its pair of books: toward the richer book"),
    "pairs-richer": ("floor", lambda t: tier_across_pairs(t, 30, "2", 7, 1200, to_poorer=False),
                     "tier 2 ($2.00) per book given the rest of its pair of books: toward the richer book"),
    "repaired": ("floor", None, "per book given the rest of its pair of books"),
    "repaired-chain": ("chain", None, "per book given the rest of its pair of books"),
    "evened-floor": ("floor", lambda t: value_evened(t, 30, ["free", "1", "2", "5", "20"], 1200),
                     "prize value per book by tenth of the books"),
    "evened-chain": ("chain", lambda t: value_evened(t, 30, ["free", "1", "2"], 1200),
                     "prize value per book by tenth of the books"),
    "poor-floor": ("floor", lambda t: kept_from_poor(t, 30, ["5", "20"], ["free", "1", "2"], 1200),
                   "per book given the rest of its pair of books"),
    "poor-chain": ("chain", lambda t: kept_from_poor(t, 30, ["5", "20"], ["free", "1", "2"], 1200,
                                                     frozenset({"5", "20", "100"}), 3),
                   "per book given the rest of its pair of books"),
    "pairs-evened-floor": ("floor", lambda t: pairs_evened(t, 30), "prize value of the two books of each"),
    "pairs-evened-chain": ("chain", lambda t: pairs_evened(t, 30), "prize value of the two books of each"),
    "ends-floor": ("floor", lambda t: kept_from_ends(t, 30, ["2", "5", "20", "100"], ["free", "1", "2", "5"]),
                   "first and last places"),
    "ends-chain": ("chain", lambda t: kept_from_ends(t, 30, ["2"], ["free", "1"]), "first and last places"),
    "starts-chain": ("chain", lambda t: spaced_to_starts(t, 30, ["5", "20", "100"], 3), "by place"),
}


def repaired(spec, pool, seed):  # noqa: ANN001, ANN201 (bench)
    """The pool as the chain of docs/randomness.md 5.3 draws it stopped after its descent (no mixing
    sweeps): a "shuffle, then repair" generator, every parameter met."""
    saved, chain.MIX_SWEEPS = chain.MIX_SWEEPS, 0
    try:
        return build_pool(spec, pool, seed)
    finally:
        chain.MIX_SWEEPS = saved


def power(pools: int, tmp: Path, only: list[str] | None = None) -> None:
    print("| bias | case | refused by step 8 | by the test named for it | its largest p |")
    print("|---|---|---|---|---|")
    for bias, (case, change, named) in BIASES.items():
        if only and bias not in only:
            continue
        path = small_packs(tmp, CASES[case], f"{case}.toml")
        rules = read_packs(tomllib.loads(path.read_text()))
        spec = load_spec(path)
        pool, play = spec.pools[0], spec.play.document()
        refused, by, worst = 0, 0, 0.0
        for i in range(pools):
            seed = hashlib.sha256(f"poolgen/bench/stats-packs/{bias}/{i}".encode()).digest()
            table = repaired(spec, pool, seed) if change is None else change(build_pool(spec, pool, seed))
            s = pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind, per_book=30, pools=1,
                                play=play, packs=rules)
            refused += bool(s.failed)
            mine = [j for j in s.judged if named in j.finding.name]
            by += any(j.rejected for j in mine)
            worst = max([worst, *(j.finding.p for j in mine)])
        print(f"| {bias} | {case} | {refused}/{pools} | {by}/{pools} | {worst:.2g} |")
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pools", type=int, default=1000)
    parser.add_argument("--case", choices=list(CASES), action="append")
    parser.add_argument("--power", type=int, metavar="N", help="N insider pools per bias instead")
    parser.add_argument("--bias", choices=list(BIASES), action="append", help="with --power: only these")
    args = parser.parse_args()
    if args.power:
        with tempfile.TemporaryDirectory() as tmp:
            power(args.power, Path(tmp), args.bias)
        return
    from scipy import stats
    total = [0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.case or list(CASES):
            start = time.process_time()
            failed, names, ps = one_case(case, args.pools, Path(tmp))
            total[0] += failed
            total[1] += args.pools
            took = time.process_time() - start
            print(f"## {case}: {failed} of {args.pools} runs fail step 8 ({100 * failed / args.pools:.2f}%), "
                  f"{took:.0f} s of CPU")
            for name, k in names.most_common():
                print(f"   failed by {name}: {k}")
            print("| pack test | p <= 0.05 | p <= 0.01 | KS p (uniform) |")
            print("|---|---|---|---|")
            for name, p in ps.items():
                v = np.asarray(p)
                ks = stats.kstest(v, "uniform").pvalue
                print(f"| {name} | {np.mean(v <= 0.05):.3f} | {np.mean(v <= 0.01):.3f} | {ks:.3g} |")
            sys.stdout.flush()
    print(f"## all: {total[0]} of {total[1]} runs fail ({100 * total[0] / total[1]:.2f}%)")


if __name__ == "__main__":
    main()
