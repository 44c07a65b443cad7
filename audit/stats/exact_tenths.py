"""The exact upper tail of the tenth-of-packs permutation chi-square (audit/stats/pack_laws.py
`by_tenth_of_packs`) for a 0/1 count per book, as docs/statistics.md 1f states it: the k books holding
the level fall in the G parts as a multivariate hypergeometric draw (n_g books of part g, k of B), so
P(X2 >= x2) is a sum over the parts' counts, taken part by part. Each part's term of X2 is rounded up to
a grid of x2 / GRID (never down), so the sum is P(X2' >= x2) for an X2' >= X2: exact to that rounding,
never below the exact tail."""

from __future__ import annotations

import math

import numpy as np

from audit.stats.pack_laws import PARTS
from audit.stats.tests import Finding

__all__ = ["EXACT_MAX", "GRID", "holding_by_tenth", "part_law", "tenths_tail"]

GRID = 1000  # steps of the observed X2
EXACT_MAX = 200  # a level of at most this many tickets: its books holding it, exact tail (docs 1f)


def part_law(left: int, n: int, k: int) -> np.ndarray:
    """law[h, s] = C(h, s) C(left - h, n - s) / C(left, n): the chance that s of a part's n books hold the
    level when h of the `left` books not yet placed hold it (h = 0..k, s = 0..min(n, k)), each from exact
    integers rounded once (differences of log-factorials near ln(1000!) lost about 1e-12 of it)."""
    law = np.zeros((k + 1, min(n, k) + 1))
    whole = math.comb(left, n)
    for h in range(min(k, left) + 1):
        s0, s1 = max(0, n - (left - h)), min(h, n)
        if s0 > s1:
            continue
        a, b = math.comb(h, s0), math.comb(left - h, n - s0)  # C(h, s), C(left - h, n - s), s from s0 up
        row = law[h]
        for s in range(s0, s1 + 1):
            row[s] = a * b / whole
            if s < s1:
                a = a * (h - s) // (s + 1)
                b = b * (n - s) // (left - h - n + s + 1)
    return law


def tenths_tail(sizes: np.ndarray, k: int, x2: float, term: np.ndarray) -> float:
    """P(X2 >= x2) when k of the B = sum(sizes) books hold the level, uniformly; term[g, s] is part g's
    term of X2 when it holds s of them (s = 0..k)."""
    if x2 <= 0:
        return 1.0
    step = x2 / GRID
    # rounded up: X2' >= X2; a term of GRID steps or more reaches x2 alone, so it is capped there (a tiny
    # x2 would give steps beyond int64)
    bins = np.ceil(np.minimum(term / step * (1 + 1e-9), GRID)).astype(np.int64)
    dist = np.zeros((k + 1, GRID))  # [books holding so far, rounded X2 so far (below x2)]
    dist[0, 0], over = 1.0, 0.0  # over: the chance X2' already reached x2, whatever the later parts hold
    placed, total = 0, int(sizes.sum())
    j = np.arange(k + 1)
    for g, n in enumerate(sizes.tolist()):
        left = total - placed  # books not yet placed, k - j of them holding
        lo, hi = max(0, k - left), min(k, placed)  # the counts so far that can occur
        new, d = np.zeros_like(dist), dist[lo: hi + 1]
        law = part_law(left, n, k)
        reach = d.sum(axis=1)  # each count so far: its chance of not having reached x2 yet
        for s in range(min(n, k) + 1):
            w = law[k - j[lo: hi + 1], s]  # 0 where s books of the part cannot hold it
            if not w.any():
                continue
            r = int(bins[g, s])
            if r >= GRID:  # this part alone reaches x2: summed here, never as 1 minus the rest
                over += float((reach * w).sum())
                continue
            rows = min(hi + 1, k + 1 - s) - lo  # rows whose j + s <= k
            if rows <= 0:
                continue
            new[lo + s: lo + s + rows, r:] += d[:rows, : GRID - r] * w[:rows, None]
            over += float((d[:rows, GRID - r:].sum(axis=1) * w[:rows]).sum())
        dist, placed = new, placed + n
    return float(min(1.0, over))


def holding_by_tenth(name: str, held: np.ndarray) -> Finding | None:
    """The tenth-of-packs permutation chi-square of y_b = 1 where book b holds the level, with the exact
    tail of its multivariate hypergeometric null (`tenths_tail`) for the chi-square's."""
    y = (held > 0).astype(np.int64)
    books, k = len(y), int(y.sum())
    parts = min(PARTS, int(held.sum()) // 10, books)  # as the chi-square's: the level's tickets // 10
    if parts < 2 or k == books:
        return None
    part = np.arange(books) * parts // books
    sizes = np.bincount(part, minlength=parts)
    s = np.bincount(part, weights=y, minlength=parts).astype(np.int64)
    # t_g(s) = (B - 1) / B (s - n_g k / B)^2 / (n_g var) = (B - 1) / B (s B - n_g k)^2 / (n_g k (B - k)):
    # the deviation an exact integer, so X2 is 0 exactly when every part holds its share (docs 1f)
    dev = (np.arange(k + 1)[None, :] * books - sizes[:, None] * k).astype(np.float64)
    term = (books - 1) / books * dev ** 2 / (sizes[:, None] * k * (books - k)).astype(np.float64)
    x2 = float(term[np.arange(parts), s].sum())
    return Finding(name, f"permutation chi-square of the books holding it per part, {parts} parts of the "
                   "packs, exact tail", f"X2 = {x2:.2f}, df = {parts - 1}, {k} books",
                   tenths_tail(sizes, k, x2, term))
