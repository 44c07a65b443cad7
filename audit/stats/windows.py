"""Step 8's tests of a prize level crowded into a few consecutive books (docs/statistics.md 1g): one
carton of print order, one range of printed book numbers, the first blocks of an eInstant's serials.

A retailer receives books a carton at a time (`poolgen imaging sequence`: consecutive packs of print
order) or a range of book numbers; an eInstant's first hours sell its first blocks of serials. 1e's
"close together" tests see the top groups there; a level below them (500 $20s in books of 300, 40 of
them moved into the 20 books of one carton, $800 to one retailer, each swapped with a lower winner of
the book it joins so every book keeps its winners) moved too little of the pool for the tests by tenth
of the pool and passed. So, for every prize amount below the top groups (audit/stats/positions.py
`top_group`) held by LEVEL_MIN tickets or more, c of them in a pool of N in U units of m tickets (books;
an eInstant's full blocks of BLOCK shares: a last block short of BLOCK is in N and c, in no window), and
each width W in WIDTHS with W <= U / 5:

  x_W = the most of the level's tickets in W consecutive units (U - W + 1 windows);
  p_W = min(1, (U - W + 1) P(X_W >= x_W)), X_W hypergeometric (N tickets, c of them the level's,
        W m drawn): under a uniform shuffle every window's W m positions hold a uniform W m-subset
        of the pool's tickets, so each window's count is X_W exactly, and the union bound over the
        windows makes p_W conservative;
  p = min(1, k min_W p_W) over the k widths made (the union bound again).

Made in print order (an eInstant's serial order) when the pool is a uniform shuffle (no pack parameters,
the uniform BookNull), and, for a printed game, in the order of the printed book numbers: the books taken
by the rank of their numbers are a uniform permutation of the books whatever they hold, so under a
uniform shuffle a window of W books by number holds a uniform W m-subset of the tickets too.
"""

from __future__ import annotations

import numpy as np

from audit.stats.laws import hypergeom_pmf
from audit.stats.positions import cents, top_group
from audit.stats.tests import Finding, distinct_values

__all__ = ["BLOCK", "LEVEL_MIN", "WIDTHS", "most_in_window", "window_findings"]

WIDTHS = (5, 20, 80)  # consecutive units (books, blocks): about a carton (20 books) and its neighbours
LEVEL_MIN = 20  # a level below the top groups is tested from this many tickets
BLOCK = 1000  # an eInstant's unit: a block of 1,000 shares, as its per-block tests'


def most_in_window(name: str, counts: np.ndarray, per_unit: int, unit: str,
                   ranked: bool = False, pool: tuple[int, int] | None = None) -> Finding | None:
    """The level's per-unit `counts` (in the order tested): its most in W consecutive units against the
    hypergeometric law of one window, union bounds over the windows and the widths (module docstring).
    `ranked`: the units are in the order of their printed numbers, which the figures give as ranks.
    `pool`: (N, c) of the whole pool when the units leave some of it out (an eInstant's last block short
    of BLOCK shares); default: the units are the pool."""
    units = len(counts)
    n, c = pool if pool is not None else (units * per_unit, int(counts.sum()))
    widths = [w for w in WIDTHS if 5 * w <= units]
    if not widths or c == 0:
        return None
    sums = np.concatenate(([0], np.cumsum(counts)))
    best: tuple[float, int, int, int] | None = None
    for w in widths:
        window = sums[w:] - sums[:-w]
        i = int(np.argmax(window))
        x = int(window[i])
        p = min(1.0, (units - w + 1) * float(hypergeom_pmf(n, c, w * per_unit)[x:].sum()))
        if best is None or p < best[0]:
            best = (p, w, i, x)
    assert best is not None
    p, w, i, x = best
    return Finding(name, f"exact, conservative: {len(widths)} min_W (U - W + 1) P(X_W >= x_W), X_W "
                   f"hypergeometric (N, c, W m), W in {', '.join(map(str, widths))} {unit}",
                   f"{x:,} of {c:,} in {unit} {'ranked ' if ranked else ''}{i + 1:,}..{i + w:,} of {units:,} "
                   f"({c * w * per_unit / n:,.1f} expected in {w})", min(1.0, len(widths) * p))


def _per_unit(rows: np.ndarray, level: np.ndarray, tested: np.ndarray, units: int,
              m: int) -> np.ndarray | None:
    """The winners (`rows`, ascending, each of level `level`, an index of `tested`) of every level `tested`
    counted per unit of `m`, in one table (levels x units; a winner past the last full unit left out); None
    when there are more levels than `m` (the table would be larger than the pool: each is counted apart)."""
    if len(tested) > m:
        return None
    keep = (rows < units * m) & tested[level]
    cells = np.bincount(level[keep] * units + rows[keep] // m, minlength=len(tested) * units)
    return cells.reshape(len(tested), units)


def window_findings(prize: np.ndarray, *, per_book: int | None, book: np.ndarray | None,
                    order: bool, sign: str = "$") -> list[Finding]:
    """Every level below the top groups of LEVEL_MIN tickets or more: its most in W consecutive books of
    print order (blocks of serials) when `order` (a uniform shuffle), and of the printed book numbers'
    order (`book`, the pool's book column in print order) likewise. An eInstant's blocks are its full
    ones: a last block short of BLOCK shares is in the pool's N and c, in no window."""
    m = per_book or BLOCK
    n = len(prize)
    win = prize > 0
    if not order or not win.any() or (per_book and n % m):
        return []
    units = n // m
    amounts, of_level, counts = distinct_values(prize[win])
    group = top_group([(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)])
    tested = (counts >= LEVEL_MIN) & ~np.isin(amounts, group)
    table = _per_unit(np.flatnonzero(win), of_level, tested, units, m)
    by_number = None
    if per_book and book is not None:
        by_number = np.argsort(book[::per_book].astype(np.int64), kind="stable")
    unit = "books" if per_book else "blocks"
    found: list[Finding | None] = []
    for j in np.argsort(amounts)[::-1].tolist():  # the levels, highest first
        amount, count = int(amounts[j]), int(counts[j])
        if amount in group or count < LEVEL_MIN:
            continue
        held = table[j] if table is not None else (prize[:units * m] == amount).reshape(units, m).sum(axis=1)
        pool = (n, int(count))
        level = f"prize level {cents(int(amount), sign)} ({int(count):,} tickets)"
        where = "books of print order" if per_book else f"blocks of {BLOCK:,} shares (serial order)"
        found.append(most_in_window(f"{level}: most in consecutive {where}", held, m, unit, pool=pool))
        if by_number is not None:
            found.append(most_in_window(f"{level}: most in consecutive books by printed book number",
                                        held[by_number], m, "books", ranked=True, pool=pool))
    return [f for f in found if f is not None]
