"""A third engine for step 8's tests 1f (what every book holds, by tenth of its printed number) and 1g (a
prize level's most in a few consecutive books or blocks), written from docs/statistics.md 1f, 1g, 1a, 1b
and section 1 alone: it imports neither poolgen nor audit. Exact integers for the hypergeometric laws and
the sparse levels' tail; scipy only for the chi-square references the contract names."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2

TOP_TICKETS = 50  # 1a: the top groups end at the first holding at least 50 tickets
SPARSE = 200  # 1f: a level of at most 200 tickets takes the exact tail
STEPS = 1000  # 1f: the exact tail's steps of x / 1000
WIDTHS = (5, 20, 80)  # 1g
BLOCK = 1000  # an eInstant's block of shares


@dataclass(frozen=True)
class Found:
    name: str
    figures: str
    p: float


def dollars(cents: int) -> str:
    whole, part = divmod(int(cents), 100)
    return f"${whole:,}" + (f".{part:02d}" if part else "")


def top_amounts(prize: np.ndarray) -> set[int]:
    """1a: the pool's amounts, highest first, until they hold at least 50 tickets (or every winner)."""
    amounts, counts = np.unique(prize[prize > 0], return_counts=True)
    top: set[int] = set()
    held = 0
    for a, n in sorted(zip(amounts.tolist(), counts.tolist(), strict=True), reverse=True):
        top.add(a)
        held += n
        if held >= TOP_TICKETS:
            break
    return top


def book_ranks(book: np.ndarray, per_book: int) -> np.ndarray:
    """The books (print order indices) in the order of their printed numbers (the first row's)."""
    return np.argsort(np.asarray(book)[::per_book], kind="stable")


# --- 1f -------------------------------------------------------------------------------------------

def parts_of(count: int, g: int) -> np.ndarray:
    return (np.arange(count) * g) // count


def tenths_x2(x: np.ndarray, g: int) -> float:
    """X2 = (B - 1) / B sum_g (S_g - n_g mean)^2 / (n_g var), x in the order tested."""
    b = len(x)
    xf = x.astype(np.float64)
    mean = xf.mean()
    var = ((xf - mean) ** 2).sum() / b
    part = parts_of(b, g)
    s = np.bincount(part, weights=xf, minlength=g)
    n = np.bincount(part, minlength=g).astype(np.float64)
    return float((b - 1) / b * ((s - n * mean) ** 2 / (n * var)).sum())


def exact_tail(held: np.ndarray, g: int) -> float:
    """1f's exact tail of a sparse level: held[j] = 1 where the book of rank j holds it."""
    b, k = len(held), int(held.sum())
    n = np.bincount(parts_of(b, g), minlength=g)

    def t(ng: int, s: int) -> float:  # (s - ng k / b)^2 / (ng var), its deviation in exact integers
        return (b - 1) / b * (s * b - ng * k) ** 2 / (ng * k * (b - k))

    x = sum(t(ng, int(sg)) for ng, sg in zip(n.tolist(), np.bincount(parts_of(b, g), weights=held,
                                                                       minlength=g).tolist(), strict=True))
    if x <= 0:
        return 1.0
    d = x / STEPS
    table = {0: np.zeros(STEPS)}
    table[0][0] = 1.0
    p = 0.0
    placed = 0
    for ng in n.tolist():
        new: dict[int, np.ndarray] = {}
        total = math.comb(b - placed, ng)
        for j, row in table.items():
            for s in range(max(0, ng - (b - placed - (k - j))), min(ng, k - j) + 1):
                prob = math.comb(k - j, s) * math.comb(b - placed - k + j, ng - s) / total
                if prob == 0.0:
                    continue
                r = math.ceil(t(ng, s) / d * (1 + 1e-9))
                moved = row * prob
                if r >= STEPS:
                    p += float(moved.sum())
                    continue
                p += float(moved[STEPS - r:].sum())
                dest = new.setdefault(j + s, np.zeros(STEPS))
                dest[r:] += moved[:STEPS - r]
        table = new
        placed += ng
    return min(1.0, p)


def dispersion_resolved(units: int, var: float) -> bool:
    """Section 1's rule: the lower tail is resolved when the ball of radius sqrt(q var B / (B - 1)) holds
    at least 100 cells of the lattice of count vectors with the same total."""
    if units < 2 or var <= 0:
        return False
    q = float(chi2.ppf(1e-4, units - 1))
    r2 = q * var * units / (units - 1)
    lhs = (units - 1) / 2 * math.log(math.pi * r2) - math.lgamma((units + 1) / 2) - math.log(units) / 2
    return lhs >= math.log(100)


def kruskal_tenths(v: np.ndarray, g: int) -> tuple[float, float] | None:
    """Kruskal-Wallis of the B values across G parts of the order; (H, p), None when every value is one."""
    b = len(v)
    values, inverse, ties = np.unique(v, return_inverse=True, return_counts=True)
    if len(values) < 2:
        return None
    ends = np.cumsum(ties)
    mid = ends - (ties - 1) / 2.0  # mid-ranks, 1-based
    ranks = mid[inverse]
    part = parts_of(b, g)
    r = np.bincount(part, weights=ranks, minlength=g)
    n = np.bincount(part, minlength=g).astype(np.float64)
    h = 12.0 / (b * (b + 1)) * float((r ** 2 / n).sum()) - 3.0 * (b + 1)
    h /= 1.0 - float((ties.astype(np.float64) ** 3 - ties).sum()) / (b ** 3 - b)
    # 1b's rule for kruskal: the count per group of the amounts outside the largest class, a group of the
    # mean size n / G drawn without replacement
    s = 1.0 - ties.max() / b
    size = b / g
    var = size * s * (1 - s) * (b - size) / (b - 1)
    upper = float(chi2.sf(h, g - 1))
    if dispersion_resolved(g, var):
        return h, min(1.0, 2 * min(upper, float(chi2.cdf(h, g - 1))))
    return h, upper


def tenths_findings(prize: np.ndarray, per_book: int, book: np.ndarray) -> list[Found]:
    """1f: the winners, every level and the value per book, books in the order of their numbers."""
    b = len(prize) // per_book
    order = book_ranks(book, per_book)
    grid = np.asarray(prize, dtype=np.int64).reshape(b, per_book)[order]
    out: list[Found] = []
    wins = (grid > 0).sum(axis=1)
    seen = [wins]

    def counts(name: str, x: np.ndarray) -> None:
        g = min(10, b, int(x.sum()) // 10)
        if g < 2 or x.var() == 0:
            return
        x2 = tenths_x2(x, g)
        out.append(Found(name, f"X2 = {x2:.2f}, df = {g - 1}", float(chi2.sf(x2, g - 1))))

    counts("winners per book by printed book number, in tenths", wins)
    for a in sorted({int(v) for v in np.unique(grid) if v > 0}, reverse=True):
        x = (grid == a).sum(axis=1)
        if any((x == y).all() for y in seen):
            continue
        seen.append(x)
        n = int(x.sum())
        name = f"prize level {dollars(a)} ({n:,} tickets) per book by printed book number, in tenths"
        if n > SPARSE:
            counts(name, x)
            continue
        held = (x > 0).astype(np.int64)
        k = int(held.sum())
        g = min(10, b, n // 10)
        if g < 2 or k == b:
            continue
        x2 = tenths_x2(held, g)
        out.append(Found(name, f"X2 = {x2:.2f}, df = {g - 1}, {k} books", exact_tail(held, g)))
    kw = kruskal_tenths(grid.sum(axis=1), min(10, b))
    if kw is not None:
        out.append(Found("prize value per book by printed book number, in tenths",
                         f"H = {kw[0]:.1f}, df = {min(10, b) - 1}", kw[1]))
    return out


# --- 1g -------------------------------------------------------------------------------------------

def hypergeom_sf(x: int, total: int, good: int, drawn: int) -> float:
    """P(X >= x), X hypergeometric: the first term exact (integers), the rest by the pmf's ratio."""
    hi = min(good, drawn)
    lo = max(0, drawn - (total - good))
    x = max(x, lo)
    if x > hi:
        return 0.0
    term = math.comb(good, x) * math.comb(total - good, drawn - x) / math.comb(total, drawn)
    p = 0.0
    for j in range(x, hi + 1):
        p += term
        term *= (good - j) * (drawn - j) / ((j + 1) * (total - good - drawn + j + 1))
    return min(1.0, p)


def most_in_window(counts: np.ndarray, c: int, per_unit: int, total: int,
                   unit: str) -> tuple[str, float] | None:
    """(figures, p) of 1g for a level's counts per unit in the order tested (c of its tickets in the pool's
    `total`, a short last block's among them); None when no width fits."""
    u = len(counts)
    widths = [w for w in WIDTHS if 5 * w <= u]
    if not widths:
        return None
    best: tuple[float, int, int, int] | None = None
    sums = np.concatenate([[0], np.cumsum(counts)])
    for w in widths:
        window = sums[w:] - sums[:-w]
        i = int(np.argmax(window))  # the first window holding the most
        x = int(window[i])
        pw = min(1.0, (u - w + 1) * hypergeom_sf(x, total, c, w * per_unit))
        if best is None or pw < best[0]:  # a tie keeps the narrower width
            best = (pw, w, i, x)
    assert best is not None
    pw, w, i, x = best
    figures = (f"{x:,} of {c:,} in {unit} {i + 1:,}..{i + w:,} of {u:,} "
               f"({c * w * per_unit / total:,.1f} expected in {w})")
    return figures, min(1.0, len(widths) * pw)


def window_findings(prize: np.ndarray, per_book: int | None, book: np.ndarray | None) -> list[Found]:
    """1g for a pool whose print order is a uniform shuffle: per_book None for an eInstant."""
    prize = np.asarray(prize, dtype=np.int64)
    total = len(prize)
    top = top_amounts(prize)
    m = per_book if per_book is not None else BLOCK
    u = total // m
    out: list[Found] = []
    amounts, tallies = np.unique(prize[prize > 0], return_counts=True)
    for a, c in sorted(zip(amounts.tolist(), tallies.tolist(), strict=True), reverse=True):
        if a in top or c < 20:
            continue
        grid = (prize[:u * m] == a).reshape(u, m).sum(axis=1)
        head = f"prize level {dollars(a)} ({c:,} tickets): most in consecutive "
        if per_book is None:
            got = most_in_window(grid, c, m, total, "blocks")
            if got is not None:
                out.append(Found(head + "blocks of 1,000 shares (serial order)", *got))
            continue
        got = most_in_window(grid, c, m, total, "books")
        if got is not None:
            out.append(Found(head + "books of print order", *got))
        assert book is not None
        got = most_in_window(grid[book_ranks(book, m)], c, m, total, "books ranked")
        if got is not None:
            out.append(Found(head + "books by printed book number", *got))
    return out
