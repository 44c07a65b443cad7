"""Step 8 against an insider whose losers tell the next ticket (docs/statistics.md 1j): the losers'
layouts exchanged among the losers so that the losers just before the winners (of every amount, or of the
top amounts) show a chosen feature (`tests/support/next_ticket_biases.py`). No prize moves, no layout is
one its tier could not draw. Full pools built in memory, each judged as a one-pool run
(`tests/support/stats.judge`); "before" is Holm over the pool's tests without 1j's, "after" step 8 as it is.

    PYTHONPATH=. python bench/stats_next_ticket.py                       # the power table of 1j
    PYTHONPATH=. python bench/stats_next_ticket.py --power 0 --honest 1000 --full 20 --shuffles 200

Seeds: SHA-256("insider10/full/" || game || "/0") for the biased pools; honest small pools
SHA-256("poolgen/bench/stats-honest/" || i) (section 3's bench seeds); honest full pools
SHA-256("insider10/honest-full/" || game || "/" || i). The insider's choices, and the shuffles of the
losers' layouts (1j's null exactly), come from numpy's generator: they are the bench's, not the pool's."""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.stats.step import holm, pool_alpha
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.next_ticket_biases import layout_columns, tell_before, tell_in_books
from tests.support.stats import judge, small_spec

GAMES = ("happy_holidays", "wild_side", "hand_to_hand_tactics", "primetime_payout")
TOP = 100  # "the top amounts": the pool's highest, until they hold at least TOP tickets
# the tell (column: code, on a loser), before which winners, how many losers so at most
CASES: dict[str, list[tuple[dict[str, int], str, tuple[int | None, ...]]]] = {
    "happy_holidays": [({"play_spot_0": 5}, "any", (None, 1000, 500, 300)),  # code 5: the $100 symbol
                       ({"play_spot_0": 5}, "top", (None, 100, 50, 30)),
                       ({"play_spot_0": 5, "play_spot_1": 5}, "top", (None, 50, 30))],
    "wild_side": [({"numbers_win_0": 0}, "any", (None, 500, 200, 100)),
                  ({"numbers_win_0": 0}, "top", (None, 50, 30, 20))],
    "hand_to_hand_tactics": [({"spot_0": 1}, "any", (None, 1000, 700, 500)),  # the first reveal a loss
                             ({"spot_0": 1}, "top", (None, 50)),
                             ({"spot_3": 0}, "any", (None, 1000, 500, 300)),  # over by the third reveal
                             ({"spot_3": 0}, "top", (None, 50, 30))],
    "primetime_payout": [({"a0_s0": 1}, "any", (None, 1000, 700, 500)),
                         ({"a0_s0": 1}, "top", (None, 50)),
                         ({"a0_amount": 1000}, "any", (None, 1000, 500, 300)),  # a loser's $10
                         ({"a0_amount": 1000}, "top", (None, 50, 30))],
}


def mine(name: str) -> bool:
    """A test of 1j or 1k."""
    return "against the next ticket's prize" in name or "against the book's highest prize" in name


def verdict(spec: Any, pool: Any, table: pl.DataFrame, seed: bytes) -> str:
    s, r = judge(spec, pool, table, seed)
    before = holm([j.finding for j in s.judged if not mine(j.finding.name)], pool_alpha(1))
    b = min(before, key=lambda j: j.finding.p)
    a = min((j for j in s.judged if mine(j.finding.name)), key=lambda j: j.finding.p)
    was = "REFUSED" if any(j.rejected for j in before) or r.failed else "passes"
    now = "REFUSED" if s.failed or r.failed else "passes"
    return (f"before {was} (smallest p {b.finding.p:.2g}); after {now} (1j's smallest p {a.finding.p:.2g}, "
            f"threshold {a.threshold:.2g}: {a.finding.name})")


def top_amounts(prize: np.ndarray) -> tuple[int, ...]:
    """The pool's highest amounts, from the top until they hold at least TOP tickets."""
    values, counts = np.unique(prize[prize > 0], return_counts=True)
    k = int(np.searchsorted(np.cumsum(counts[::-1]), TOP)) + 1
    return tuple(int(v) for v in values[::-1][:k])


def power() -> None:
    for game in GAMES:
        spec = load_spec(spec_path(game))
        pool = spec.pools[0]
        seed = hashlib.sha256(f"insider10/full/{game}/0".encode()).digest()
        table = build_pool(spec, pool, seed)
        print(f"{game} honest: {verdict(spec, pool, table, seed)}", flush=True)
        prize = table["prize_cents"].to_numpy()
        lose = prize == 0
        for cols, which, mosts in CASES[game]:
            amounts = None if which == "any" else top_amounts(prize)
            what = "every winner" if amounts is None else \
                f"${min(amounts) // 100:,} and up ({int(np.isin(prize, amounts).sum())} tickets)"
            tell = lose & np.logical_and.reduce([table[c].to_numpy() == v for c, v in cols.items()])
            for most in mosts:
                biased = tell_before(table, tell, amounts, most, np.random.default_rng(most or 0))
                shows = lose & np.logical_and.reduce([biased[c].to_numpy() == v for c, v in cols.items()])
                hit = prize[1:] > 0 if amounts is None else np.isin(prize[1:], amounts)
                print(f"  {cols} before {what}, {most or 'as many as can'}: P(next | tell) "
                      f"{hit[shows[:-1]].mean():.4f} ({int(shows.sum()):,} tells), P(next | a loser) "
                      f"{hit[lose[:-1]].mean():.4f}: {verdict(spec, pool, biased, seed)}", flush=True)


def books() -> None:
    """1k: the first loser of each book holding a top amount shows the tell."""
    for game, (column, code) in (("happy_holidays", ("play_spot_0", 5)), ("wild_side", ("numbers_win_0", 0))):
        spec = load_spec(spec_path(game))
        pool, m = spec.pools[0], spec.tickets_per_book
        seed = hashlib.sha256(f"insider10/full/{game}/0".encode()).digest()
        table = build_pool(spec, pool, seed)
        prize = table["prize_cents"].to_numpy()
        lose = prize == 0
        amounts = top_amounts(prize)
        held = np.isin(prize, amounts).reshape(-1, m).any(axis=1)
        tell = lose & (table[column].to_numpy() == code)
        biased = tell_in_books(table, tell, m, amounts, np.random.default_rng(5))
        shows = (biased[column].to_numpy() == code) & lose
        first = np.flatnonzero(lose.reshape(-1, m).any(axis=1))
        at = first * m + lose.reshape(-1, m)[first].argmax(axis=1)
        print(f"  {game}: {column} = {code} on the first loser of each of the {int(held.sum())} books holding"
              f" ${min(amounts) // 100:,} and up: P(book holds one | its first loser shows it) "
              f"{held[at[shows[at]] // m].mean():.3f}, {held[at[tell[at]] // m].mean():.3f} honest: "
              f"{verdict(spec, pool, biased, seed)}", flush=True)


def summary(p: np.ndarray) -> str:
    return (f"{len(p)} p-values at most 0.05, 0.01, 0.001 in {np.mean(p <= 0.05):.2%}, "
            f"{np.mean(p <= 0.01):.2%}, {np.mean(p <= 0.001):.3%}, mean {p.mean():.3f}, "
            f"smallest {p.min():.2g}")


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
    print(f"{runs} small honest runs: failed before {before}, after {after}, by 1j {by}; 1j's "
          f"{summary(np.array(ps))}", flush=True)


def honest_full(pools: int) -> None:
    for game in GAMES:
        spec = load_spec(spec_path(game))
        pool = spec.pools[0]
        failed, by, ps = 0, 0, []
        for i in range(pools):
            seed = hashlib.sha256(f"insider10/honest-full/{game}/{i}".encode()).digest()
            s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
            failed += bool(s.failed or r.failed)
            by += any(mine(j.finding.name) for j in s.failed)
            ps += [j.finding.p for j in s.judged if mine(j.finding.name)]
        print(f"{game}: {failed} of {pools} honest full pools fail step 8, {by} by 1j; 1j's "
              f"{summary(np.array(ps))}", flush=True)


def shuffles(times: int) -> None:
    """1j's exact null: one full pool's losers' layouts put in a uniformly random order among its losers."""
    for game in GAMES:
        spec = load_spec(spec_path(game))
        pool = spec.pools[0]
        seed = hashlib.sha256(f"insider10/full/{game}/0".encode()).digest()
        table = build_pool(spec, pool, seed)
        lose = np.flatnonzero(table["prize_cents"].to_numpy() == 0)
        rng = np.random.default_rng(10)
        ps: list[float] = []
        for _ in range(times):
            order = np.arange(table.height)
            order[lose] = rng.permutation(lose)
            moved = table[order]
            s, _ = judge(spec, pool, table.with_columns(moved[c] for c in layout_columns(table)), seed)
            ps += [j.finding.p for j in s.judged if mine(j.finding.name)]
        print(f"{game}: {times} shuffles of the losers' layouts: 1j's {summary(np.array(ps))}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--power", type=int, default=1, help="1: the biased full pools (default)")
    parser.add_argument("--honest", type=int, default=0, help="small honest runs")
    parser.add_argument("--full", type=int, default=0, help="honest full pools of each game")
    parser.add_argument("--shuffles", type=int, default=0, help="shuffles of one full pool's losers' layouts")
    args = parser.parse_args()
    if args.power:
        power()
        books()
    if args.honest:
        honest_small(args.honest)
    if args.full:
        honest_full(args.full)
    if args.shuffles:
        shuffles(args.shuffles)


if __name__ == "__main__":
    main()
