"""Step 8 against an insider who gathers the top prizes where a confederate collects them
(docs/statistics.md 1e): full Kansas pools built in memory, each judged honest and rewritten by each case
as a one-pool run (`tests/support/stats.judge`). Every case keeps every count and layout: a moved ticket
(its whole row) swaps places with a lower winner (or a loser) of the place it goes to, the identity
columns (position, ticket, book, ticket number, serial) staying in print order.

    PYTHONPATH=. python bench/stats_gathered.py              # five pools of each game
    PYTHONPATH=. python bench/stats_gathered.py --pools 1 --game hand_to_hand_tactics

Seeds SHA-256("stats6/" || game || "/" || i). Prints, per case, the pools refused and the test that
refused each (its smallest p)."""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable

import numpy as np
import polars as pl

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.stats import judge

IDENTITY = ("position", "ticket", "book", "ticket_no", "serial")
POOLS = {"wild_side": "p1", "happy_holidays": "p1", "hand_to_hand_tactics": "d1.00"}
Case = Callable[[pl.DataFrame, np.random.Generator], pl.DataFrame]


def moved(table: pl.DataFrame, rows: np.ndarray, places: list[np.ndarray],
          rng: np.random.Generator) -> pl.DataFrame:
    """Each of `rows` swapped with a lower winner (else a loser) among its `places`, in print order."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    low, used = prize[rows].min(), set(rows.tolist())
    for a, region in zip(rows, places, strict=True):
        shuffled = [int(q) for q in rng.permutation(region) if q not in used]
        q = next((q for q in shuffled if 0 < prize[q] < low), None)
        q = q if q is not None else next(q for q in shuffled if prize[q] < low)
        used.add(q)
        order[a], order[q] = order[q], order[a]
    return table[order].with_columns(table[c] for c in IDENTITY if c in table.columns)


def top(table: pl.DataFrame, k: int) -> np.ndarray:
    return np.argsort(-table["prize_cents"].to_numpy(), kind="stable")[:k]


def books(per_book: int, numbers: np.ndarray | list[int]) -> list[np.ndarray]:
    return [np.arange(b * per_book, (b + 1) * per_book) for b in numbers]


def digit_sum_7(table: pl.DataFrame, rows: np.ndarray, per_book: int) -> list[np.ndarray]:
    """Each row's own book, at the ticket numbers whose digits add to 7."""
    numbers = np.array([t for t in range(per_book) if sum(map(int, str(t))) == 7])
    return [(a // per_book) * per_book + numbers for a in rows]


def consecutive_book_numbers(table: pl.DataFrame, rows: np.ndarray, per_book: int) -> pl.DataFrame:
    """The books holding `rows` given consecutive book numbers (ranks 1,240.. of the pool's)."""
    numbers = table["book"].to_numpy()[::per_book].copy()
    held = np.unique(rows // per_book)
    for h, wanted in zip(held, np.sort(numbers)[1240:1240 + len(held)], strict=True):
        j = int(np.flatnonzero(numbers == wanted)[0])
        numbers[j], numbers[h] = numbers[h], numbers[j]
    return table.with_columns(pl.Series("book", np.repeat(numbers, per_book)).cast(table["book"].dtype))


def cases(game: str) -> dict[str, Case]:
    if game == "wild_side":
        return {
            "11 of $1,000+ one to a book in 20 consecutive books": lambda t, rng: moved(
                t, top(t, 11), books(60, rng.permutation(np.arange(1240, 1260))[:11]), rng),
            "the same 11 in two cartons of 10 books": lambda t, rng: moved(t, top(t, 11), books(60, [
                *rng.permutation(np.arange(700, 710))[:6], *rng.permutation(np.arange(1800, 1810))[:5]]),
                rng),
            "their books given consecutive book numbers": lambda t, rng: consecutive_book_numbers(
                t, top(t, 11), 60),
            "32 of $500+ at ticket numbers whose digits add to 7": lambda t, rng: moved(
                t, top(t, 32), digit_sum_7(t, top(t, 32), 60), rng),
            "11 of $1,000+ at ticket numbers whose digits add to 7": lambda t, rng: moved(
                t, top(t, 11), digit_sum_7(t, top(t, 11), 60), rng)}
    if game == "happy_holidays":
        def hundred(t: pl.DataFrame, rng: np.random.Generator) -> np.ndarray:
            return rng.permutation(np.flatnonzero(t["prize_cents"].to_numpy() == 10000))[:100]
        return {
            "100 of $100 into 100 consecutive books": lambda t, rng: moved(
                t, hundred(t, rng), books(300, rng.permutation(np.arange(450, 550))), rng),
            "100 of $100 at ticket numbers whose digits add to 7": lambda t, rng: (lambda rows: moved(
                t, rows, digit_sum_7(t, rows, 300), rng))(hundred(t, rng))}
    n = 1_000_000
    return {
        "top 9 at serials 1,000, 2,000, ...": lambda t, rng: moved(
            t, top(t, 9), [np.arange(999, n, 1000)] * 9, rng),
        "top 9 at serials ending in 0": lambda t, rng: moved(t, top(t, 9), [np.arange(9, n, 10)] * 9, rng),
        "top 50 into 5,000 consecutive serials": lambda t, rng: moved(
            t, top(t, 50), [np.arange(400000, 405000)] * 50, rng)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", type=int, default=5, help="pools of each game")
    ap.add_argument("--game", action="append", choices=sorted(POOLS), help="a game (default: all three)")
    args = ap.parse_args()
    for game in args.game or sorted(POOLS):
        spec = load_spec(spec_path(game))
        pool = next(p for p in spec.pools if p.id == POOLS[game])
        refused: dict[str, list[str]] = {}
        for i in range(args.pools):
            seed = hashlib.sha256(f"stats6/{game}/{i}".encode()).digest()
            table = build_pool(spec, pool, seed)
            rng = np.random.default_rng(i)
            for name, case in {"honest": lambda t, rng: t, **cases(game)}.items():
                s, r = judge(spec, pool, case(table, rng), seed)
                failed = sorted(list(s.failed) + list(r.failed), key=lambda j: j.finding.p)
                refused.setdefault(name, []).append(f"{failed[0].finding.name} (p {failed[0].finding.p:.2g})"
                                                    if failed else "")
        for name, why in refused.items():
            reasons = "; ".join(w for w in why if w)
            print(f"| {game} | {name} | {sum(map(bool, why))}/{len(why)} | {reasons} |")


if __name__ == "__main__":
    main()
