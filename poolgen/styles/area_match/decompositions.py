"""The decompositions of an `area_match` prize into area values (docs/styles/area_match.md, section 6):
every multiset of k area values summing to the tier's prize, those a share can show (at most one
value that only a bonus game can win), thinned to `max_decompositions` evenly spread rows."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

import numpy as np

from poolgen.styles.area_match.params import Params
from poolgen.styles.area_match.tables import bonus_only, values, ways

__all__ = ["MAX_PREFIXES", "TooManyDecompositions", "decomposition_codes", "decompositions"]


# The partial decompositions one level of `_all_decompositions` may hold (16 bytes each are kept per
# level): the shipped area_match spec's largest, at 4 areas, is 682,299; at 5 areas it would be 28 million
# and at 6 almost a billion, which no machine holds. A share of more areas is refused, not enumerated.
MAX_PREFIXES = 5_000_000


class TooManyDecompositions(ValueError):
    """A tier's decompositions over this many play areas are too many to enumerate."""


@lru_cache(maxsize=1024)
def _all_decompositions(p: Params, total: int, k: int) -> np.ndarray:
    """All multisets of k area values (0 = losing area) summing to `total`, as ascending rows
    in lexicographic order; shape (n, k) int64."""
    vals = np.concatenate([[0], values(p)])
    vals = vals[vals <= total]
    member = np.zeros(total + 1, dtype=bool)
    member[vals] = True
    if k == 1:
        return np.array([[total]], dtype=np.int64) if member[total] else np.empty((0, 1), np.int64)
    # ascending prefixes of j values, extended one value at a time, so they stay lexicographic; a
    # prefix is kept as its sum and last value, each level as its values and their parent prefixes
    picked = [vals[vals * k <= total]]
    parents = []
    sums = last = picked[0]
    for j in range(1, k - 1):
        # prefix r takes each v >= its last with sum + v * (k - j) <= total: vals[lo[r]:hi[r]]
        lo = np.searchsorted(vals, last)
        hi = np.searchsorted(vals, (total - sums) // (k - j), side="right")
        count = np.maximum(hi - lo, 0)
        if int(count.sum()) > MAX_PREFIXES:
            raise TooManyDecompositions(f"more than {MAX_PREFIXES:,} partial decompositions of {k} area "
                                        "values to enumerate")
        r = np.repeat(np.arange(len(sums)), count)
        c = np.arange(len(r)) - np.repeat(np.cumsum(count) - count - lo, count)
        if j == k - 2:  # the last value, total - sum - v (>= v here), must be an area value
            whole = member[total - sums[r] - vals[c]]
            r, c = r[whole], c[whole]
        parents.append(r)
        picked.append(vals[c])
        sums, last = sums[r] + vals[c], vals[c]
    final = total - sums
    keep = np.flatnonzero((final >= last) & member[np.clip(final, 0, total)])
    rows = np.empty((keep.size, k), dtype=np.int64)
    rows[:, k - 1] = final[keep]
    for j in range(k - 2, -1, -1):  # follow each kept prefix back to its first value
        rows[:, j] = picked[j][keep]
        if j:
            keep = parents[j - 1][keep]
    return rows


@lru_cache(maxsize=1024)
def _usable_decompositions(p: Params, total: int, k: int) -> np.ndarray:
    """Those of `_all_decompositions` with at most one value that only a bonus game can win (a
    share plays at most one bonus game, contract section 7)."""
    rows = _all_decompositions(p, total, k)
    usable: np.ndarray = rows[np.isin(rows, bonus_only(p)).sum(axis=1) <= 1]
    return usable


def decompositions(p: Params, multiplier: Decimal, k: int) -> tuple[np.ndarray, int]:
    """The decompositions a share of tier `multiplier` with k areas chooses from (thinned to
    `p.cap` evenly spaced rows if there are more), and how many exist before thinning."""
    total2 = 2 * multiplier * k
    if total2 != total2.to_integral_value():
        return np.empty((0, k), dtype=np.int64), 0
    rows = _usable_decompositions(p, int(total2), k)
    n = len(rows)
    if n > p.cap:
        rows = rows[(np.arange(p.cap, dtype=np.int64) * n) // p.cap]
    return rows, n


@lru_cache(maxsize=1024)
def decomposition_codes(p: Params, multiplier: Decimal, k: int) -> np.ndarray:
    """`decompositions(p, multiplier, k)` as value codes (0 losing, c for `ways().values[c - 1]`)."""
    table, _ = decompositions(p, multiplier, k)
    values = ways(p).values
    lookup = np.zeros(int(table.max(initial=0)) + 1, dtype=np.min_scalar_type(len(values)))
    lookup[values[values < len(lookup)]] = np.arange(1, len(values) + 1)[values < len(lookup)]
    codes: np.ndarray = lookup[table]
    return codes
