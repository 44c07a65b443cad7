"""Play areas of "Primetime Payout" (K.A.R. 111-23-23): symbol codes, area classes, the symbol tuples
of each class and mode, the decompositions of a prize into area values and the ways to win a value,
and the flat lookup tables the drawing uses. Contract: specs/primetime_payout.md.

The drawing of a pool's layouts from these tables is `poolgen.layouts.primetime_payout`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

import numpy as np

__all__ = ["SYMBOL_CODES", "Draws", "Params", "area_class", "bonus_only", "decomposition_codes",
           "decompositions", "draws", "tuples", "ways"]

# Code of each symbol = its 1-based position in this tuple (and in the spec's [[symbols]]).
SYMBOL_CODES = ("CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ",
                "GFOOT", "TD", "FG", "COIN", "JCOIN")
GFOOT, TD, FG, COIN = 9, 10, 11, 12
BONUS_SYMBOLS = (GFOOT, TD, FG)
MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)
N_SYMBOLS = len(SYMBOL_CODES)
SPOTS = 4
MAX_PRIZES = 4  # a bonus wins 1..4 prizes (Touchdown: four chances)

# Area classes (internal; the Parquet `a{i}_bonus` column uses 0 / 1 Touchdown / 2 Field Goal).
LOSE, MATCH3, MATCH4, BONUS_TD, BONUS_FG = 0, 1, 2, 3, 4
N_CLASSES = 5
ILLEGAL = -1

# Which bonus symbols an area may show (section 7 of the contract): any, no Golden Football, no
# Touchdown and no Field Goal, none of the three.
ANY, NO_GFOOT, NO_TDFG, NO_BONUS_SYMBOL = 0, 1, 2, 3
N_MODES = 4


@dataclass(frozen=True)
class Params:
    """The spec's [layout] table, validated."""

    amounts_half: tuple[int, ...]  # amount multipliers x 2, ascending
    grid: tuple[int, ...]  # Field Goal grid: prizes per section
    cap: int  # max decompositions kept per (tier, play areas)


# ---------------------------------------------------------------------------------------------
# Area evaluation and the symbol tuples of each class


def area_class(symbols: np.ndarray) -> np.ndarray:
    """Class of each row of 4 symbol codes: LOSE, MATCH3, MATCH4, BONUS_TD, BONUS_FG or ILLEGAL.

    ILLEGAL: all three bonus symbols together; three or more of one bonus symbol; a bonus trigger
    with two or more Golden Footballs, or two or more of its Touchdown / Field Goal (contract
    section 5, rules 2 and 10)."""
    sym = np.asarray(symbols)
    counts = np.stack([(sym == c).sum(axis=1) for c in range(1, N_SYMBOLS + 1)], axis=1)
    best = counts[:, [c - 1 for c in MATCHABLE]].max(axis=1)
    match = counts[:, COIN - 1] + best
    ng, nt, nf = counts[:, GFOOT - 1], counts[:, TD - 1], counts[:, FG - 1]
    g, t, f = ng > 0, nt > 0, nf > 0
    out = np.full(len(sym), LOSE, dtype=np.int8)
    out[match == 3] = MATCH3
    out[match == 4] = MATCH4
    out[g & t] = BONUS_TD
    out[g & f] = BONUS_FG
    out[g & t & f] = ILLEGAL
    out[(ng >= 3) | (nt >= 3) | (nf >= 3)] = ILLEGAL
    out[(g & (t | f)) & ((ng >= 2) | (nt >= 2) | (nf >= 2))] = ILLEGAL
    return out


def _mode_ok(symbols: np.ndarray, mode: int) -> np.ndarray:
    has = {c: (symbols == c).any(axis=1) for c in BONUS_SYMBOLS}
    if mode == NO_GFOOT:
        return ~has[GFOOT]
    if mode == NO_TDFG:
        return ~(has[TD] | has[FG])
    if mode == NO_BONUS_SYMBOL:
        return ~(has[GFOOT] | has[TD] | has[FG])
    return np.ones(len(symbols), dtype=bool)


@dataclass(frozen=True)
class Tuples:
    """Every ordered 4-tuple of codes, and those of each (class, mode), padded index tables."""

    all: np.ndarray  # (13^4, 4) uint8: every ordered 4-tuple of codes
    by_key: np.ndarray  # (classes * modes, width) indices into `all`; key class * N_MODES + mode
    n_key: np.ndarray  # (classes * modes,)
    by_first: np.ndarray  # (classes * modes * 13, width) those with spot 0 = s: key * 13 + s - 1
    n_first: np.ndarray  # (classes * modes * 13,)


@lru_cache(maxsize=1)
def tuples() -> Tuples:
    grids = np.meshgrid(*[np.arange(1, N_SYMBOLS + 1)] * SPOTS, indexing="ij")
    every = np.stack([g.reshape(-1) for g in grids], axis=1).astype(np.uint8)
    cls = area_class(every)
    members = [np.nonzero((cls == c) & _mode_ok(every, m))[0]
               for c in range(N_CLASSES) for m in range(N_MODES)]
    firsts = [m[every[m, 0] == s] for m in members for s in range(1, N_SYMBOLS + 1)]

    def padded(lists: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        table = np.zeros((len(lists), max(len(x) for x in lists)), dtype=np.int64)
        for r, x in enumerate(lists):
            table[r, :len(x)] = x
        return table, np.array([len(x) for x in lists], dtype=np.int64)

    by_key, n_key = padded(members)
    by_first, n_first = padded(firsts)
    return Tuples(every, by_key, n_key, by_first, n_first)


def fits_first(cls: int, code: int) -> bool:
    """Whether an area of class `cls` can show `code` in spot 0 (some mode allows it)."""
    t = tuples()
    return bool(t.n_first[(cls * N_MODES + ANY) * N_SYMBOLS + code - 1] > 0)


# ---------------------------------------------------------------------------------------------
# Decompositions of a tier's prize into area values (half-denominations)


@lru_cache(maxsize=8)
def values(amounts_half: tuple[int, ...]) -> np.ndarray:
    """Every value one area can win: N x a, a an amount, N in 1..4 (match3 1, match4 2, bonus N)."""
    out = np.unique(np.array([n * a for a in amounts_half for n in range(1, MAX_PRIZES + 1)],
                             dtype=np.int64))
    out.flags.writeable = False  # shared by the callers
    return out


@lru_cache(maxsize=8)
def bonus_only(amounts_half: tuple[int, ...]) -> np.ndarray:
    """The area values that only a bonus game can win: not an amount (3-match) nor twice one
    (4-match). Sorted."""
    amounts = set(amounts_half)
    out = np.array([v for v in values(amounts_half).tolist()
                    if v not in amounts and not (v % 2 == 0 and v // 2 in amounts)], dtype=np.int64)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=1024)
def _all_decompositions(amounts_half: tuple[int, ...], total: int, k: int) -> np.ndarray:
    """All multisets of k area values (0 = losing area) summing to `total`, as ascending rows
    in lexicographic order; shape (n, k) int64."""
    vals = np.concatenate([[0], values(amounts_half)])
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
def _usable_decompositions(amounts_half: tuple[int, ...], total: int, k: int) -> np.ndarray:
    """Those of `_all_decompositions` with at most one value that only a bonus game can win (a
    share plays at most one bonus game, contract section 7)."""
    rows = _all_decompositions(amounts_half, total, k)
    return rows[np.isin(rows, bonus_only(amounts_half)).sum(axis=1) <= 1]


def decompositions(p: Params, multiplier: Decimal, k: int) -> tuple[np.ndarray, int]:
    """The decompositions a share of tier `multiplier` with k areas chooses from (thinned to
    `p.cap` evenly spaced rows if there are more), and how many exist before thinning."""
    total2 = 2 * multiplier * k
    if total2 != total2.to_integral_value():
        return np.empty((0, k), dtype=np.int64), 0
    rows = _usable_decompositions(p.amounts_half, int(total2), k)
    n = len(rows)
    if n > p.cap:
        rows = rows[(np.arange(p.cap, dtype=np.int64) * n) // p.cap]
    return rows, n


@dataclass(frozen=True)
class Ways:
    """How each area value can be won: padded tables indexed by value index. Each value's ways are
    listed match ways (3-match, 4-match) first, then bonus ways."""

    values: np.ndarray  # (V,) sorted area values (half-denominations), value 0 not included
    kind: np.ndarray  # (V, W) class MATCH3/MATCH4/BONUS_TD/BONUS_FG
    amount: np.ndarray  # (V, W) amount in half-denominations
    prizes: np.ndarray  # (V, W) N (1 for match3, 2 for match4 = double, N for a bonus)
    n: np.ndarray  # (V,)
    n_match: np.ndarray  # (V,) of which match ways
    first: np.ndarray  # (V, 13, W) indices into the ways of those compatible with a0_s0
    n_first: np.ndarray  # (V, 13)
    n_first_match: np.ndarray  # (V, 13) of which match ways


@lru_cache(maxsize=8)
def ways(amounts_half: tuple[int, ...]) -> Ways:
    amounts = set(amounts_half)
    vals = values(amounts_half)
    listed: list[list[tuple[int, int, int]]] = []
    for v in vals.tolist():
        w = []
        if v in amounts:
            w.append((MATCH3, v, 1))
        if v % 2 == 0 and v // 2 in amounts:
            w.append((MATCH4, v // 2, 2))
        for kind in (BONUS_TD, BONUS_FG):
            for n in range(1, MAX_PRIZES + 1):
                if v % n == 0 and v // n in amounts:
                    w.append((kind, v // n, n))
        listed.append(w)
    width = max(len(w) for w in listed)
    kind = np.zeros((len(vals), width), dtype=np.int64)
    amount = np.zeros_like(kind)
    prizes = np.zeros_like(kind)
    n = np.array([len(w) for w in listed], dtype=np.int64)
    n_match = np.array([sum(c < BONUS_TD for c, _, _ in w) for w in listed], dtype=np.int64)
    for i, w in enumerate(listed):
        for j, (c, a, m) in enumerate(w):
            kind[i, j], amount[i, j], prizes[i, j] = c, a, m
    first = np.zeros((len(vals), N_SYMBOLS, width), dtype=np.int64)
    n_first = np.zeros((len(vals), N_SYMBOLS), dtype=np.int64)
    n_first_match = np.zeros_like(n_first)
    for i, w in enumerate(listed):
        for s in range(N_SYMBOLS):
            ok = [j for j, (c, _, _) in enumerate(w) if fits_first(c, s + 1)]
            first[i, s, :len(ok)] = ok
            n_first[i, s] = len(ok)
            n_first_match[i, s] = sum(w[j][0] < BONUS_TD for j in ok)
    return Ways(vals, kind, amount, prizes, n, n_match, first, n_first, n_first_match)


# ---------------------------------------------------------------------------------------------
# Flat lookup tables of the drawing


def _td_masks() -> tuple[np.ndarray, np.ndarray]:
    """Touchdown masks 1..15 grouped by number of scoring chances: (5, 6) padded, counts (5,)."""
    table = np.zeros((MAX_PRIZES + 1, 6), dtype=np.int64)
    count = np.zeros(MAX_PRIZES + 1, dtype=np.int64)
    for mask in range(1, 16):
        n = bin(mask).count("1")
        table[n, count[n]] = mask
        count[n] += 1
    return table, count


def _fg_sections(grid: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((MAX_PRIZES + 1, len(grid)), dtype=np.int64)
    count = np.zeros(MAX_PRIZES + 1, dtype=np.int64)
    for section, n in enumerate(grid):
        table[n, count[n]] = section
        count[n] += 1
    return table, count


NOT_AREA0 = N_SYMBOLS  # realisation key column of the areas other than area 0 (no a0_s0 to fit)


@dataclass(frozen=True)
class Draws:
    """Flat lookup tables of `lay_out`, one row per small integer key (built once per layout table).

    A value code is 0 for a losing area and c for the area value `ways().values[c - 1]`."""

    bonus_only: np.ndarray  # (codes,) bool: the value code's value only a bonus game can win
    way_key_width: int  # keys of a won area: code * (N_SYMBOLS + 1) + (a0_s0 - 1, or NOT_AREA0)
    way_width: int
    way_bound: np.ndarray  # (keys * 2,) number of ways of key (even) / of its match ways (odd)
    way_kind: np.ndarray  # (keys * way_width,) uint8 class of the key's pick-th way
    way_amount: np.ndarray  # (keys * way_width,) int64 amount (half-denominations)
    way_prizes: np.ndarray  # (keys * way_width,) uint8 N
    sym0_width: int
    sym0_bound: np.ndarray  # (classes * modes * 13,): key (class * modes + mode) * 13 + a0_s0 - 1
    sym0: np.ndarray  # (keys * sym0_width,) uint32: the key's tuples, 4 codes packed in memory order
    sym_width: int
    sym_bound: np.ndarray  # (classes * modes,) tuples of key class * modes + mode
    sym: np.ndarray  # (keys * sym_width,) uint32 the key's tuples, packed
    bonus_width: int
    bonus_bound: np.ndarray  # (2 * 5,) results of bonus key (kind - BONUS_TD) * 5 + N
    bonus_result: np.ndarray  # (keys * bonus_width,) uint8: Touchdown mask / Field Goal section


@lru_cache(maxsize=8)
def draws(amounts_half: tuple[int, ...], grid: tuple[int, ...]) -> Draws:
    tup, w = tuples(), ways(amounts_half)
    n_vals, width = w.kind.shape
    cols = N_SYMBOLS + 1
    way_bound = np.ones((n_vals + 1, cols, 2), dtype=np.int64)  # code 0 (losing) is never drawn
    way_bound[1:, :N_SYMBOLS, 0] = w.n_first
    way_bound[1:, :N_SYMBOLS, 1] = w.n_first_match
    way_bound[1:, NOT_AREA0, 0] = w.n
    way_bound[1:, NOT_AREA0, 1] = w.n_match
    way = np.zeros((n_vals + 1, cols, width), dtype=np.int64)
    way[1:, :N_SYMBOLS] = w.first
    way[1:, NOT_AREA0] = np.arange(width)
    vidx = np.maximum(np.arange(n_vals + 1) - 1, 0)[:, None, None]
    packed = np.ascontiguousarray(tup.all).view(np.uint32).reshape(-1)
    td_table, td_count = _td_masks()
    fg_table, fg_count = _fg_sections(grid)
    bonus_width = max(td_table.shape[1], fg_table.shape[1])
    bonus_result = np.zeros((2, MAX_PRIZES + 1, bonus_width), dtype=np.uint8)
    bonus_result[0, :, :td_table.shape[1]] = td_table
    bonus_result[1, :, :fg_table.shape[1]] = fg_table
    return Draws(
        bonus_only=np.concatenate([[False], np.isin(w.values, bonus_only(amounts_half))]),
        way_key_width=cols, way_width=width, way_bound=way_bound.reshape(-1),
        way_kind=w.kind[vidx, way].astype(np.uint8).reshape(-1),
        way_amount=w.amount[vidx, way].reshape(-1),
        way_prizes=w.prizes[vidx, way].astype(np.uint8).reshape(-1),
        sym0_width=tup.by_first.shape[1], sym0_bound=tup.n_first,
        sym0=packed[tup.by_first].reshape(-1),
        sym_width=tup.by_key.shape[1], sym_bound=tup.n_key, sym=packed[tup.by_key].reshape(-1),
        bonus_width=bonus_width, bonus_bound=np.stack([td_count, fg_count]).reshape(-1),
        bonus_result=bonus_result.reshape(-1))


@lru_cache(maxsize=1024)
def decomposition_codes(p: Params, multiplier: Decimal, k: int) -> np.ndarray:
    """`decompositions(p, multiplier, k)` as value codes (0 losing, c for `ways().values[c - 1]`)."""
    table, _ = decompositions(p, multiplier, k)
    values = ways(p.amounts_half).values
    lookup = np.zeros(int(table.max(initial=0)) + 1, dtype=np.min_scalar_type(len(values)))
    lookup[values[values < len(lookup)]] = np.arange(1, len(values) + 1)[values < len(lookup)]
    return lookup[table]
