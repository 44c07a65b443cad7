"""Step 8's run-level tests: the real top tiers of every pool, combined across the run, by exact tests
(docs/statistics.md section 3).

Each pool contributes its prize amounts, highest first, with the positions of their tickets
(`TopLevels`, small: computed where the pool is read, a verify worker). Group k of the run is, in
every pool, the tickets of that pool's k highest amounts (k = 1: each pool's top prize, even a single
ticket); k runs up to the first group in which every pool holds at least TOP_MIN tickets (or all its
winners). Under a uniform shuffle the pools are independent and a group's t_p tickets in pool p (of
N_p) are a uniform t_p-subset of its positions, so for each group:

  - start: u = the smallest relative position (position / N_p) over the run's group;
    P(U >= u) = prod_p C(N_p - ceil(u N_p), t_p) / C(N_p, t_p)   (top prizes kept out of the start);
  - end: v = the largest (position + 1) / N_p; P(V <= v) = prod_p C(floor(v N_p), t_p) / C(N_p, t_p);
  - printed games, ticket number within the book (position mod B, B tickets a book):
    book start: P(min >= x) = prod_p C(M_p(>= x), t_p) / C(N_p, t_p), M_p(>= x) the positions of
    pool p whose ticket number is at least x; book end: P(max <= y) likewise;
  - printed runs of two or more pools: the book of print order holding the group in the most pools
    (audit/stats/slots.py).

All exact (one-sided; small p: the group was kept away from that place). They are judged together by a
weighted Holm step-down at ALPHA_RUN, the start tests weighted START_WEIGHT to the others' 1 (the 2016
Chicago Tribune pattern: no top prize among the tickets sold first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from audit.stats.laws import log_choose_ratio
from audit.stats.slots import same_book_finding
from audit.stats.tests import Finding, distinct_values

__all__ = ["START_WEIGHT", "TOP_MIN", "TopLevels", "top_findings", "top_levels"]

TOP_MIN = 50  # group k grows until every pool's group holds this many tickets (or all its winners)
START_WEIGHT = 6.0  # the start tests' weight in the weighted Holm (the others: 1)


@dataclass(frozen=True)
class TopLevels:
    """One pool's highest prize amounts (cents, highest first) with their tickets' sorted positions,
    until they hold TOP_MIN tickets; `per_book` is B for a printed game (ticket number = position mod B)."""

    pool: str
    tickets: int
    per_book: int | None
    levels: tuple[tuple[int, np.ndarray], ...]
    sign: str = "$"  # the game's currency sign (the manifest's game.currency): the tests' names


def top_levels(prize: np.ndarray, pool: str, per_book: int | None, sign: str = "$") -> TopLevels:
    """The pool's TopLevels from its prize column in print order."""
    amounts, _, counts = distinct_values(prize[prize > 0])
    levels: list[tuple[int, np.ndarray]] = []
    held = 0
    for amount, count in zip(amounts[::-1], counts[::-1], strict=True):
        levels.append((int(amount), np.flatnonzero(prize == amount)))
        held += int(count)
        if held >= TOP_MIN:
            break
    return TopLevels(pool, len(prize), per_book, tuple(levels), sign)


def _p(terms: list[tuple[int, int, int]]) -> float:
    """prod of C(room, t) / C(N, t) over (room, t, N)."""
    log_p = sum(log_choose_ratio(room, t, n) for room, t, n in terms)
    return float(min(1.0, math.exp(log_p)))


def _cents(c: int, sign: str) -> str:
    return f"{sign}{c // 100:,}" + (f".{c % 100:02d}" if c % 100 else "")


def _at_least(n: int, b: int, x: int) -> int:
    """How many of positions 0..n-1 have ticket number (position mod b) at least x."""
    return (n // b) * (b - x) + max(0, n % b - x)


def _at_most(n: int, b: int, y: int) -> int:
    return (n // b) * (y + 1) + min(n % b, y + 1)


def _group_findings(label: str, groups: list[tuple[TopLevels, np.ndarray]]) -> list[tuple[Finding, float]]:
    """The start, end and (printed) book tests of one group: (pool's levels, positions) per pool."""
    held = [(lv, pos) for lv, pos in groups if len(pos)]
    if not held:
        return []
    t_all = sum(len(pos) for _, pos in held)
    pools = f"{t_all:,} ticket{'s' if t_all > 1 else ''} over {len(held)} pool{'s' if len(held) > 1 else ''}"
    out: list[tuple[Finding, float]] = []
    # start: the smallest relative position x_q / N_q; ceil(u N_p) = ceil(x_q N_p / N_q)
    q_lv, q_pos = min(held, key=lambda g: (int(g[1].min()) / g[0].tickets))
    x_q, n_q = int(q_pos.min()), q_lv.tickets
    terms = [(lv.tickets - (-(-x_q * lv.tickets // n_q)), len(pos), lv.tickets) for lv, pos in held]
    out.append((Finding(f"{label}: smallest position in its pool, pools combined",
                        "exact: P(U >= u) = prod C(N_p - ceil(u N_p), t_p)/C(N_p, t_p)",
                        f"{pools}; earliest at {100 * x_q / n_q:.2f}% of pool {q_lv.pool}", _p(terms)),
                START_WEIGHT))
    # end: the largest (y_q + 1) / N_q; floor(v N_p)
    q_lv, q_pos = max(held, key=lambda g: (int(g[1].max()) + 1) / g[0].tickets)
    y_q, n_q = int(q_pos.max()), q_lv.tickets
    terms = [((y_q + 1) * lv.tickets // n_q, len(pos), lv.tickets) for lv, pos in held]
    out.append((Finding(f"{label}: largest position in its pool, pools combined",
                        "exact: P(V <= v) = prod C(floor(v N_p), t_p)/C(N_p, t_p)",
                        f"{pools}; latest at {100 * (y_q + 1) / n_q:.2f}% of pool {q_lv.pool}", _p(terms)),
                1.0))
    books = [(lv, pos) for lv, pos in held if lv.per_book]
    if len(books) == len(held):
        b = books[0][0].per_book or 1
        numbers = [pos % (lv.per_book or 1) for lv, pos in books]
        x = int(min(int(n.min()) for n in numbers))
        y = int(max(int(n.max()) for n in numbers))
        low = _p([(_at_least(lv.tickets, b, x), len(pos), lv.tickets) for lv, pos in books])
        high = _p([(_at_most(lv.tickets, b, y), len(pos), lv.tickets) for lv, pos in books])
        out.append((Finding(f"{label}: smallest ticket number within its book, pools combined",
                            "exact: P(min >= x) = prod C(M_p(>= x), t_p)/C(N_p, t_p)",
                            f"{pools}; smallest ticket number {x} of 0..{b - 1}",
                            low), 1.0))
        out.append((Finding(f"{label}: largest ticket number within its book, pools combined",
                            "exact: P(max <= y) = prod C(M_p(<= y), t_p)/C(N_p, t_p)",
                            f"{pools}; largest ticket number {y} of 0..{b - 1}",
                            high), 1.0))
    return out


def top_findings(pools: list[TopLevels]) -> list[tuple[Finding, float]]:
    """Every group's tests with their Holm weights, k = 1 .. the deepest pool's levels."""
    depth = max((len(p.levels) for p in pools), default=0)
    out: list[tuple[Finding, float]] = []
    for k in range(1, depth + 1):
        groups = [(p, np.concatenate([pos for _, pos in p.levels[:k]]) if p.levels else np.zeros(0, np.int64))
                  for p in pools]
        amounts = sorted({a for p in pools for a, _ in p.levels[:k]}, reverse=True)
        sign = pools[0].sign if pools else "$"  # one run, one currency
        shown = _cents(amounts[0], sign) + (f" to {_cents(amounts[-1], sign)}" if len(amounts) > 1 else "")
        label = (f"top prize of each pool ({shown})" if k == 1
                 else f"top {k} prize amounts of each pool ({shown})")
        out += _group_findings(label, groups)
        same = same_book_finding(label, [(p.tickets, p.per_book, pos) for p, pos in groups])
        if same is not None:  # printed runs of two or more pools: the same carton of every pool
            out.append((same, 1.0))
    return out
