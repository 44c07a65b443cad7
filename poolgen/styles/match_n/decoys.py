"""The decoys of a match_n area (docs/styles/match_n.md, section 7): what the spots that do not win show.

A ticket with wins in the area shows its wins' spots and, on the others, cards from a shuffled deck of
the amounts it does not win. Every other ticket (a loser, or a winner of other areas only) shows the
mixture of all those tickets: its spots are L = N - 1 layers, each a set of amounts drawn by
randomised systematic sampling with inclusion probabilities chosen so that an amount's expected count
on such a ticket is m(s), the average count of s among the prize spots of the area's winners
(`targets`). Since the spots are then put in uniformly random order, the amount in any one spot has
the same distribution for winners and losers, among spots that show an amount (section 8).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from poolgen.rng import Stream, integers, row_permutations

ONE = 1 << 32  # inclusion probabilities are fixed-point multiples of 2**-32


def targets(n_prizes: int, spots: int, cap: int,
            winners: list[tuple[int, list[Fraction], int]]) -> tuple[list[Fraction], bool]:
    """(m, capped): m(s) for every amount s, from the area's winning tickets, given per tier as
    (tickets, expected count of each amount, multiplier symbols shown); capped at `cap` (a ticket
    without a win shows an amount at most N - 1 times), the excess spread over the other amounts in
    proportion to their room below the cap (then the promise of section 8 does not hold)."""
    shown = sum(n * c for n, counts, _ in winners for c in counts)
    if not shown:
        return [Fraction(spots, n_prizes)] * n_prizes, False
    m = [Fraction(spots) * sum(n * counts[s] for n, counts, _ in winners) / shown for s in range(n_prizes)]
    excess = sum(max(Fraction(0), x - cap) for x in m)
    if not excess:
        return m, False
    room = sum(cap - x for x in m if x < cap)
    return [Fraction(cap) if x >= cap else x + excess * (cap - x) / room for x in m], True


def layers(m: list[Fraction], spots: int, cap: int) -> list[tuple[int, np.ndarray]]:
    """The `cap` layers (size k_j, fixed-point inclusion probabilities) whose sum is m.

    Layer j of r = cap - j left takes k_j = ceil(K / r) of the K spots still to fill, with
    p(s) = lo(s) + theta (hi(s) - lo(s)), lo = max(0, m'(s) - (r - 1)), hi = min(1, m'(s)) of what
    is left m'(s), theta making the sum k_j; this keeps every m'(s) <= r - 1 for the layers after."""
    out = []
    left, k_left = list(m), spots
    for r in range(cap, 0, -1):
        k = -(-k_left // r)
        lo = [max(Fraction(0), x - (r - 1)) for x in left]
        hi = [min(Fraction(1), x) for x in left]
        span = sum(hi, Fraction(0)) - sum(lo, Fraction(0))
        theta = (k - sum(lo, Fraction(0))) / span if span else Fraction(0)
        if not 0 <= theta <= 1:
            raise AssertionError("the layers of amounts at most the cap always exist")
        p = [a + theta * (b - a) for a, b in zip(lo, hi, strict=True)]
        out.append((k, fixed_point(p, k)))
        left = [x - y for x, y in zip(left, p, strict=True)]
        k_left -= k
    return [(k, p) for k, p in out if k]


def fixed_point(probs: list[Fraction], total: int) -> np.ndarray:
    """Probabilities as integers of 2**-32 summing exactly to total * 2**32 (largest remainder)."""
    scaled = [x * ONE for x in probs]
    out = [int(x) for x in scaled]  # floor: all are non-negative
    short = total * ONE - sum(out)
    for i in sorted(range(len(probs)), key=lambda i: (-(scaled[i] - out[i]), i))[:short]:
        out[i] += 1
    return np.array(out, dtype=np.int64)


def systematic(stream: Stream, rows: int, inclusion: np.ndarray, k: int) -> np.ndarray:
    """(rows, k) amounts, sorted: a k-set per row, amount s included with probability inclusion[s] / 2**32.

    Randomised systematic sampling: the amounts in uniformly random order (`row_permutations`), their
    probabilities laid end to end on [0, k), and the points u, u + 1, ..., u + k - 1 for one uniform
    u in [0, 1) (`integers(2**32)`); an amount is chosen when a point falls in its interval. Each
    probability is at most 1, so exactly k distinct amounts are chosen."""
    n = inclusion.size
    order = row_permutations(stream, rows, n)
    ends = np.cumsum(inclusion[order], axis=1)
    starts = ends - inclusion[order]
    u = integers(stream, ONE, size=rows)[:, None]

    def below(x: np.ndarray) -> np.ndarray:  # points below x: ceil((x - u) / ONE) for x > u, else 0
        points: np.ndarray = np.maximum(0, (x - u + ONE - 1) // ONE)
        return points

    picked = np.where((below(ends) - below(starts)) == 1, order, n)
    picked.sort(axis=1)
    if rows and (not np.all(picked[:, k - 1] < n) or np.any(picked[:, k:] < n)):
        raise AssertionError("systematic sampling chose the wrong number of amounts")
    return picked[:, :k]


def no_win(stream: Stream, rows: int, plan: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """(rows, S) amounts of tickets without a win in the area: one systematic sample per layer."""
    parts = [systematic(stream, rows, p, k) for k, p in plan]
    return np.concatenate(parts, axis=1) if parts else np.zeros((rows, 0), dtype=np.int64)
