"""Step 8 against an insider whose losers' DEALER'S cards, COMMUNITY cards, hand categories or maze paths
tell the next ticket or the book (docs/statistics.md 1l, "what a loser shows beyond YOUR hand"): the losers'
layouts are exchanged among the losers (`tests/support/next_ticket_biases.py`), so no prize moves and no
layout is one the losing tier could not draw. Small pools built in memory, each judged as a one-pool run
(`tests/support/stats.judge`); "before" is Holm over the pool's tests without these features' (step 8 before
them), "after" step 8 as it is.

    PYTHONPATH=. python bench/stats_boards.py                         # the power table
    PYTHONPATH=. python bench/stats_boards.py --power 0 --null 1000   # the tests' null, exactly
    PYTHONPATH=. python bench/stats_boards.py --power 0 --honest 50   # honest small runs, judged whole

Games: Arrow Maze (specs/examples/arrow_maze.toml) cut to 24,000 tickets, Poker Showdown and Hold 'Em Poker
cut to 30,000 (`small_example`). Seeds: SHA-256("insider12/power/" || game) for the biased pools and the
null's, SHA-256("insider12/honest/" || game || "/" || i) for the honest ones. `--null N`: the pool's losers'
layouts put in N uniformly random orders among its losers (numpy's generator, seed 12: the null of 1j and
1k given the order, exactly), each new feature's 1j and 1k tests made on each."""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from audit.stats.next_ticket import NextTickets, book_finding, book_name, next_ticket_name
from audit.stats.spread import spread_features
from audit.stats.step import holm, pool_alpha
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_example
from tests.support.next_ticket_biases import tell_before, tell_in_books
from tests.support.stats import judge

SIZES = {"arrow_maze": 24_000, "poker_showdown": 30_000, "holdem_poker": 30_000}
LENGTH = "START 1's path, the cells it visits"
END = "START 2's path, where it ends (0 a loop, 1 + 8 side + at an exit)"
CATEGORY = "hand's category (0 a high card .. 8 a straight flush)"
PAIR, FLUSH = ("the highest rank shown twice or more (a hand's pair)",
               "four or more cards of one suit (a hand's draw to a flush)")
Case = tuple[str, str, Callable[[np.ndarray], np.ndarray], tuple[int, ...] | None, int | None, bool]
MAZE_TOP, SHOW_TOP, HOLD_TOP = (1_000, 2_000, 10_000), (10_000, 100_000), (10_000, 50_000, 1_000_000)
# (what, feature (its name's end), the tell on its values, amounts (None: every winner), most moved, in books)
CASES: dict[str, list[Case]] = {
    "arrow_maze": [
        *[("START 1's path 6 cells or more, every winner", LENGTH, lambda v: v >= 6, None, m, False)
          for m in (None, 300, 100, 50)],
        *[("START 2's path a loop, every winner", END, lambda v: v == 0, None, m, False)
          for m in (None, 300, 100)],
        *[("START 1's path 8 cells or more, $10 and up", LENGTH, lambda v: v >= 8, MAZE_TOP, m, False)
          for m in (None, 30, 10)],
        ("START 1's path 6 cells or more, first loser of the books with $10 and up", LENGTH, lambda v: v >= 6,
         MAZE_TOP, None, True),
    ],
    "poker_showdown": [
        *[("game 0: the DEALER'S hand a pair of tens, every winner", "game 0, the DEALER'S hand: " + PAIR,
           lambda v: v == 9, None, m, False) for m in (None, 300, 100, 50)],
        *[("game 1: the DEALER'S hand a high card, every winner", "game 1, the DEALER'S " + CATEGORY,
           lambda v: v == 0, None, m, False) for m in (None, 300, 100)],
        *[("game 2: the DEALER'S hand four to a flush, $100 and up", "game 2, the DEALER'S hand: " + FLUSH,
           lambda v: v == 1, SHOW_TOP, m, False) for m in (None, 10)],
        ("game 0: YOUR hand two pair or better (lost), $100 and up", "game 0, YOUR " + CATEGORY,
         lambda v: v >= 2, SHOW_TOP, None, False),
    ],
    "holdem_poker": [
        *[("deal 0: the board paired, every winner", "game 0, the COMMUNITY cards: " + PAIR, lambda v: v > 0,
           None, m, False) for m in (None, 300, 100)],
        *[("deal 1: YOUR hand a flush that lost, every winner", "game 1, YOUR " + CATEGORY, lambda v: v == 5,
           None, m, False) for m in (None, 100, 50)],
        *[("deal 2: the DEALER'S seven four to a flush, every winner",
           "game 2, the DEALER'S 2 and the COMMUNITY cards: " + FLUSH, lambda v: v == 1, None, m, False)
          for m in (None, 300, 100)],
        *[("deal 3: the board four to a flush, $100 and up", "game 3, the COMMUNITY cards: " + FLUSH,
           lambda v: v == 1, HOLD_TOP, m, False) for m in (30, 10)],
    ],
}


def is_new(name: str) -> bool:
    """A test of this pass's features (the DEALER'S and COMMUNITY cards, the categories, a maze's paths)."""
    return any(k in name for k in ("the DEALER'S", ", the COMMUNITY cards:", "category (0", "'s path,"))


def _features(spec: Any, table: Any) -> dict[str, tuple[np.ndarray, bool]]:
    get = lambda c: table[c].to_numpy()  # noqa: E731
    return {n: (c, each) for each in (False, True)
            for n, c in spread_features(spec.play.document(), get, each_value=each)}


def _p_next(prize: np.ndarray, rows: np.ndarray, amounts: tuple[int, ...] | None) -> float:
    rows = rows[rows + 1 < len(prize)]
    return float(np.mean(prize[rows + 1] > 0 if amounts is None else np.isin(prize[rows + 1], amounts)))


def _pool(game: str, folder: Path, seed: bytes) -> tuple[Any, Any]:
    spec = load_spec(small_example(folder, game, SIZES[game]))
    return spec, build_pool(spec, spec.pools[0], seed)


def power(game: str, folder: Path) -> None:
    seed = hashlib.sha256(f"insider12/power/{game}".encode()).digest()
    spec, table = _pool(game, folder, seed)
    prize, found = table["prize_cents"].to_numpy(), _features(spec, table)
    for what, key, tell_of, amounts, most, books in CASES[game]:
        name = next(n for n in found if n.endswith(key))
        tell = (prize == 0) & tell_of(found[name][0])
        rng = np.random.default_rng(1)
        changed = tell_in_books(table, tell, spec.tickets_per_book, amounts or (), rng) if books else \
            tell_before(table, tell, amounts, most, rng)
        s, _ = judge(spec, spec.pools[0], changed, seed)
        others = [j.finding for j in s.judged if not is_new(j.finding.name)]
        before = [j for j in holm(others, pool_alpha(1)) if j.rejected]
        mine = min((j for j in s.judged if is_new(j.finding.name)), key=lambda j: j.finding.p)
        moved = changed["prize_cents"].to_numpy()
        shows = np.flatnonzero((moved == 0) & tell_of(_features(spec, changed)[name][0]))
        print(f"{game}: {what}: {int(tell.sum()):,} losers, moved {'all' if most is None else most}"
              f"{' (books)' if books else ''}: P(next) tell {_p_next(moved, shows, amounts):.4f}, loser "
              f"{_p_next(moved, np.flatnonzero(moved == 0), amounts):.4f}; before "
              f"{'refused' if before else 'passes'} (smallest p {min(f.p for f in others):.2g}); after "
              f"{'refused' if mine.rejected else 'passes'} (p {mine.finding.p:.2g}, threshold "
              f"{mine.threshold:.2g}: {mine.finding.name[:70]})", flush=True)


def null(game: str, runs: int, folder: Path) -> None:
    seed = hashlib.sha256(f"insider12/power/{game}".encode()).digest()
    spec, table = _pool(game, folder, seed)
    prize = table["prize_cents"].to_numpy()
    found = {n: v for n, v in _features(spec, table).items() if is_new(n)}
    losers, rng, following = np.flatnonzero(prize == 0), np.random.default_rng(12), NextTickets(prize)
    kind, per_book = spec.kind, spec.tickets_per_book
    ps: dict[str, list[float]] = {}
    for _ in range(runs):
        order = np.arange(len(prize))
        order[losers] = rng.permutation(losers)
        for name, (codes, each) in found.items():
            moved = codes[order]
            tests = [following.finding(next_ticket_name(name, kind), moved, each=each),
                     book_finding(book_name(name), prize, moved, per_book, each=each)]
            for f in tests:
                if f is not None:
                    ps.setdefault(f.name, []).append(f.p)
    every = np.concatenate([np.array(v) for v in ps.values()])
    shares = ", ".join(f"{100 * float((every <= a).mean()):.2f}%" for a in (0.05, 0.01, 0.001))
    worst = max(ps, key=lambda n: sum(p <= 0.05 for p in ps[n]))
    least = min(ps, key=lambda n: min(ps[n]))
    print(f"  smallest in {least[:100]}; p <= 1e-4: {int((every <= 1e-4).sum())} of {len(every):,}")
    print(f"{game}: {runs:,} orders of the losers, {len(ps)} tests: {len(every):,} p-values at most 0.05, "
          f"0.01, 0.001 in {shares}, mean {float(every.mean()):.3f}, smallest {float(every.min()):.2g}; "
          f"most at p <= 0.05 of one test {sum(p <= 0.05 for p in ps[worst])} of {len(ps[worst])} "
          f"({worst[:60]})")


def honest(game: str, runs: int, folder: Path) -> None:
    spec = load_spec(small_example(folder, game, SIZES[game] // 10))
    failed = by_new = 0
    ps: list[float] = []
    for i in range(runs):
        seed = hashlib.sha256(f"insider12/honest/{game}/{i}".encode()).digest()
        s, r = judge(spec, spec.pools[0], build_pool(spec, spec.pools[0], seed), seed)
        names = [j.finding.name for j in s.failed]
        failed += bool(names or r.failed)
        by_new += any(is_new(n) for n in names)
        ps += [j.finding.p for j in s.judged if is_new(j.finding.name)]
    p = np.array(ps)
    shares = ", ".join(f"{100 * float((p <= a).mean()):.2f}%" for a in (0.05, 0.01, 0.001))
    print(f"{game}: {runs} honest runs of {SIZES[game] // 10:,} tickets: {failed} fail step 8, {by_new} by "
          f"the new features; their {len(p):,} p-values at most 0.05, 0.01, 0.001 in {shares}, "
          f"mean {float(p.mean()):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--power", type=int, default=1, help="1: the biased pools (default)")
    parser.add_argument("--null", type=int, default=0, help="orders of one pool's losers, the tests' null")
    parser.add_argument("--honest", type=int, default=0, help="honest small runs of each game")
    parser.add_argument("--games", default=",".join(CASES), help="the games, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            folder = Path(tmp) / game
            folder.mkdir()
            if args.power:
                power(game, folder)
            if args.null:
                null(game, args.null, folder)
            if args.honest:
                honest(game, args.honest, folder)


if __name__ == "__main__":
    main()
