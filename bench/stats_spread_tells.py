"""Step 8 against an insider whose losers tell the next ticket where 1j did not look (docs/statistics.md
1l): a tell spread over several spots (Happy Holidays: two spots agreeing, an amount in two spots), a tell
in a Primetime Payout share's areas after area 0, and in Hand to Hand Tactics' later reveals. The losers'
layouts are exchanged among the losers (`tests/support/next_ticket_biases.py`): no prize moves, no layout is
one its tier could not draw. Full pools built in memory, each judged as a one-pool run
(`tests/support/stats.judge`); "before" is Holm over the pool's tests without 1l's, "after" step 8 as it is.

    PYTHONPATH=. python bench/stats_spread_tells.py                          # the power table of 1l
    PYTHONPATH=. python bench/stats_spread_tells.py --power 0 --honest 1000 --full 20

Seeds: SHA-256("insider11/full/" || game || "/0") for the biased pools; honest small pools
SHA-256("poolgen/bench/stats-honest/" || i) (section 3's bench seeds); honest full pools
SHA-256("insider11/honest-full/" || game || "/" || i). The insider's choices come from numpy's generator:
they are the bench's, not the pool's."""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from audit.stats.step import holm, pool_alpha
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.next_ticket_biases import tell_before
from tests.support.stats import judge, small_spec

GAMES = {"happy_holidays": "p1", "wild_side": "p1", "hand_to_hand_tactics": "d1.00",
         "primetime_payout": "d1.00x2"}
TOP = 100  # "the top amounts": the pool's highest, until they hold at least TOP tickets
Tell = Callable[[pl.DataFrame], np.ndarray]


def _spots(t: pl.DataFrame) -> np.ndarray:
    return np.stack([t[f"play_spot_{j}"].to_numpy() for j in range(6)], axis=1)


def _pairs(t: pl.DataFrame) -> np.ndarray:
    s = _spots(t)
    return ((s[:, :, None] == np.arange(6)).sum(axis=1) >= 2).sum(axis=1)


def _near(t: pl.DataFrame) -> np.ndarray:
    """How many of Wild Side's 12 YOUR NUMBERS are one off one of its 5 WINNING NUMBERS."""
    win = np.stack([t[f"numbers_win_{i}"].to_numpy() for i in range(5)], axis=1).astype(np.int64)
    yours = np.stack([t[f"numbers_your_{i}"].to_numpy() for i in range(12)], axis=1).astype(np.int64)
    return (np.abs(yours[:, :, None] - win[:, None, :]) == 1).any(axis=2).sum(axis=1)


# game: (what the tell is, the tell on a row, before which winners, how many losers so at most)
CASES: dict[str, list[tuple[str, Tell, str, tuple[int | None, ...]]]] = {
    "happy_holidays": [
        ("spots 0 and 1 show one amount", lambda t: _spots(t)[:, 0] == _spots(t)[:, 1], "any",
         (None, 3000, 1000, 500)),
        ("$100 in two spots", lambda t: (_spots(t) == 5).sum(axis=1) == 2, "top", (None, 100, 50, 30)),
        ("three amounts in two spots each", lambda t: _pairs(t) == 3, "any", (None, 3000, 1000, 500))],
    "wild_side": [
        ("five or more YOUR NUMBERS one off a WINNING NUMBER", lambda t: _near(t) >= 5, "any",
         (None, 3000, 1000, 300, 100))],
    "hand_to_hand_tactics": [
        ("spot_4 a tie", lambda t: t["spot_4"].to_numpy() == 2, "any", (None, 3000, 1000, 500)),
        ("spot_6 a multiplier", lambda t: t["spot_6"].to_numpy() == 4, "any", (None, 3000, 1000, 500)),
        ("spot_6 a multiplier", lambda t: t["spot_6"].to_numpy() == 4, "top", (None, 50, 30))],
    "primetime_payout": [
        ("a1_s0 code 1", lambda t: t["a1_s0"].to_numpy() == 1, "any", (None, 3000, 1000, 500)),
        ("a1_s0 code 1", lambda t: t["a1_s0"].to_numpy() == 1, "top", (None, 50, 30)),
        ("a1_amount $10", lambda t: t["a1_amount"].to_numpy() == 1000, "top", (None, 50, 30))],
}


def mine(name: str) -> bool:
    """A test of 1l."""
    return "(counted)" in name or " twice or more" in name or "the last loser before a winner" in name \
        or any(f"a{i}_" in name for i in range(1, 4))


def verdict(spec: Any, pool: Any, table: pl.DataFrame, seed: bytes) -> str:
    s, r = judge(spec, pool, table, seed)
    before = holm([j.finding for j in s.judged if not mine(j.finding.name)], pool_alpha(1))
    b = min(before, key=lambda j: j.finding.p)
    was = "REFUSED" if any(j.rejected for j in before) or r.failed else "passes"
    now = "REFUSED" if s.failed or r.failed else "passes"
    new = [j for j in s.judged if mine(j.finding.name)]
    if not new:
        return f"{was} (smallest p {b.finding.p:.2g}: {b.finding.name})"
    a = min(new, key=lambda j: j.finding.p)
    return (f"before {was} (smallest p {b.finding.p:.2g}); after {now} (1l's smallest p {a.finding.p:.2g}, "
            f"threshold {a.threshold:.2g}: {a.finding.name})")


def top_amounts(prize: np.ndarray) -> tuple[int, ...]:
    values, counts = np.unique(prize[prize > 0], return_counts=True)
    k = int(np.searchsorted(np.cumsum(counts[::-1]), TOP)) + 1
    return tuple(int(v) for v in values[::-1][:k])


def full_pool(game: str, seed: bytes) -> tuple[Any, Any, pl.DataFrame]:
    spec = load_spec(spec_path(game))
    pool = next(p for p in spec.pools if p.id == GAMES[game])
    return spec, pool, build_pool(spec, pool, seed)


def power(games: list[str]) -> None:
    for game, cases in ((g, CASES[g]) for g in games if g in CASES):
        seed = hashlib.sha256(f"insider11/full/{game}/0".encode()).digest()
        spec, pool, table = full_pool(game, seed)
        print(f"{game} {pool.id} honest: {verdict(spec, pool, table, seed)}", flush=True)
        prize = table["prize_cents"].to_numpy()
        lose = prize == 0
        for what, tell_of, which, mosts in cases:
            amounts = None if which == "any" else top_amounts(prize)
            before = "every winner" if amounts is None else \
                f"${min(amounts) // 100:,} and up ({int(np.isin(prize, amounts).sum())} tickets)"
            tell = lose & tell_of(table)
            for most in mosts:
                biased = tell_before(table, tell, amounts, most, np.random.default_rng(most or 0))
                shows = lose & tell_of(biased)
                hit = prize[1:] > 0 if amounts is None else np.isin(prize[1:], amounts)
                print(f"  {what} ({int(tell.sum()):,} losers) before {before}, {most or 'as many as can'}: "
                      f"P(next | tell) {hit[shows[:-1]].mean():.4f}, P(next | a loser) "
                      f"{hit[lose[:-1]].mean():.4f}: {verdict(spec, pool, biased, seed)}", flush=True)


def summary(p: np.ndarray) -> str:
    if not len(p):
        return "no p-values"
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
    print(f"{runs} small honest runs: failed before {before}, after {after}, by 1l {by}; 1l's "
          f"{summary(np.array(ps))}", flush=True)


def honest_full(pools: int, games: list[str]) -> None:
    for game in games:
        failed, by, ps, cpu = 0, 0, [], 0.0
        for i in range(pools):
            seed = hashlib.sha256(f"insider11/honest-full/{game}/{i}".encode()).digest()
            spec, pool, table = full_pool(game, seed)
            t = time.process_time()
            s, r = judge(spec, pool, table, seed)
            cpu += time.process_time() - t
            failed += bool(s.failed or r.failed)
            by += any(mine(j.finding.name) for j in s.failed)
            ps += [j.finding.p for j in s.judged if mine(j.finding.name)]
        print(f"{game} {GAMES[game]}: {failed} of {pools} honest full pools fail step 8, {by} by 1l; 1l's "
              f"{summary(np.array(ps))}; step 8 {cpu / pools:.2f} s CPU a pool", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--power", type=int, default=1, help="1: the biased full pools (default)")
    parser.add_argument("--honest", type=int, default=0, help="small honest runs")
    parser.add_argument("--full", type=int, default=0, help="honest full pools of each game")
    parser.add_argument("--games", default=",".join(GAMES), help="the games, comma-separated")
    args = parser.parse_args()
    if args.power:
        power(args.games.split(","))
    if args.honest:
        honest_small(args.honest)
    if args.full:
        honest_full(args.full, args.games.split(","))


if __name__ == "__main__":
    main()
