"""Play areas of the `area_match` eInstant style (docs/styles/area_match.md): area classes, the
symbol tuples of each class and mode, the area values and the ways to win each, and the flat lookup
tables the drawing uses. Everything of a game is in `Params` (poolgen/styles/area_match/params.py).

The drawing of a pool's layouts from these tables is poolgen/styles/area_match/style.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import numpy as np
import numpy.typing as npt

from poolgen.styles.area_match.params import BonusGame, Params

__all__ = ["ANY", "ILLEGAL", "LOSE", "N_MODES", "NO_BONUS_SYMBOL", "NO_GAME", "NO_KEY", "Draws", "Ways",
           "area_class", "bonus_only", "draws", "tuples", "values", "ways"]

# Area classes (internal; the Parquet `a{i}_bonus` column holds 0 or the bonus game's code): LOSE,
# then one class per winning match count (ascending), then one per bonus game (in spec order).
LOSE = 0
ILLEGAL = -1

# Which bonus symbols an area may show (contract section 7): any, no bonus key, no bonus game
# symbol, none of them.
ANY, NO_KEY, NO_GAME, NO_BONUS_SYMBOL = 0, 1, 2, 3
N_MODES = 4


# ---------------------------------------------------------------------------------------------
# Area evaluation and the symbol tuples of each class


def area_class(p: Params, symbols: np.ndarray) -> np.ndarray:
    """Class of each row of `spots` symbol codes: LOSE, a match class, a bonus class or ILLEGAL.

    ILLEGAL: the bonus key with the symbols of two bonus games; as many of one bonus symbol as the
    smallest winning match; a bonus trigger with a second bonus key or a second bonus game symbol
    (contract section 5, rules 2 and 10)."""
    sym = np.asarray(symbols)
    counts = np.stack([(sym == c).sum(axis=1) for c in range(1, p.n_symbols + 1)], axis=1)
    best = counts[:, [c - 1 for c in p.matchable]].max(axis=1)
    match = counts[:, p.wild - 1] + best
    g = counts[:, p.key - 1] > 0
    out = np.full(len(sym), LOSE, dtype=np.int8)
    for c, (count, _) in enumerate(p.match):
        out[match == count] = 1 + c
    games: np.ndarray | int = 0  # how many bonus games' symbols each row shows
    for j, game in enumerate(p.games):
        shows = counts[:, game.symbol - 1] > 0
        out[g & shows] = p.first_bonus + j
        games = games + shows
    trigger = g & (games > 0)
    out[g & (games >= 2)] = ILLEGAL
    most = counts[:, [c - 1 for c in p.bonus_symbols]].max(axis=1)
    out[most >= p.match[0][0]] = ILLEGAL
    out[trigger & (most >= 2)] = ILLEGAL
    return out


def _mode_ok(p: Params, symbols: np.ndarray, mode: int) -> npt.NDArray[np.bool]:
    has_key: npt.NDArray[np.bool] = (symbols == p.key).any(axis=1)
    # a row reduction of a 2-d array is an array (numpy's stubs cannot tell it from a scalar)
    has_game = cast("npt.NDArray[np.bool]", np.isin(symbols, [g.symbol for g in p.games]).any(axis=1))
    if mode == NO_KEY:
        return ~has_key
    if mode == NO_GAME:
        return ~has_game
    if mode == NO_BONUS_SYMBOL:
        return ~(has_key | has_game)
    return np.ones(len(symbols), dtype=bool)


@dataclass(frozen=True)
class Tuples:
    """Every ordered tuple of codes, and those of each (class, mode), padded index tables."""

    all: np.ndarray  # (n_symbols^spots, spots) uint8: every ordered tuple of codes
    by_key: np.ndarray  # (classes * modes, width) indices into `all`; key class * N_MODES + mode
    n_key: np.ndarray  # (classes * modes,)
    by_first: np.ndarray  # (classes * modes * n_symbols, width) those with spot 0 = s: key * n + s - 1
    n_first: np.ndarray  # (classes * modes * n_symbols,)


@lru_cache(maxsize=4)
def tuples(p: Params) -> Tuples:
    grids = np.meshgrid(*[np.arange(1, p.n_symbols + 1)] * p.spots, indexing="ij")
    every = np.stack([g.reshape(-1) for g in grids], axis=1).astype(np.uint8)
    cls = area_class(p, every)
    members = [np.nonzero((cls == c) & _mode_ok(p, every, m))[0]
               for c in range(p.n_classes) for m in range(N_MODES)]
    firsts = [m[every[m, 0] == s] for m in members for s in range(1, p.n_symbols + 1)]

    def padded(lists: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        table = np.zeros((len(lists), max(1, max(len(x) for x in lists))), dtype=np.int64)
        for r, x in enumerate(lists):
            table[r, :len(x)] = x
        return table, np.array([len(x) for x in lists], dtype=np.int64)

    by_key, n_key = padded(members)
    by_first, n_first = padded(firsts)
    return Tuples(every, by_key, n_key, by_first, n_first)


def fits_first(p: Params, cls: int, code: int) -> bool:
    """Whether an area of class `cls` can show `code` in spot 0 (some mode allows it)."""
    t = tuples(p)
    return bool(t.n_first[(cls * N_MODES + ANY) * p.n_symbols + code - 1] > 0)


# ---------------------------------------------------------------------------------------------
# Decompositions of a tier's prize into area values (half-denominations)


@lru_cache(maxsize=8)
def values(p: Params) -> np.ndarray:
    """Every value one area can win: N x a, a an amount, N a match's times or a bonus's prizes."""
    out = np.unique(np.array([n * a for a in p.amounts_half for n in p.times], dtype=np.int64))
    out.flags.writeable = False  # shared by the callers
    return out


@lru_cache(maxsize=8)
def bonus_only(p: Params) -> np.ndarray:
    """The area values that only a bonus game can win: no match's times an amount. Sorted."""
    amounts = set(p.amounts_half)
    out = np.array([v for v in values(p).tolist()
                    if not any(v % t == 0 and v // t in amounts for _, t in p.match)], dtype=np.int64)
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class Ways:
    """How each area value can be won: padded tables indexed by value index. Each value's ways are
    listed match ways (ascending count) first, then bonus ways (game by game, N ascending)."""

    values: np.ndarray  # (V,) sorted area values (half-denominations), value 0 not included
    kind: np.ndarray  # (V, W) area class: a match class or a bonus class
    amount: np.ndarray  # (V, W) amount in half-denominations
    prizes: np.ndarray  # (V, W) N (a match's times, a bonus game's prizes)
    n: np.ndarray  # (V,)
    n_match: np.ndarray  # (V,) of which match ways
    first: np.ndarray  # (V, n_symbols, W) indices into the ways of those compatible with a0_s0
    n_first: np.ndarray  # (V, n_symbols)
    n_first_match: np.ndarray  # (V, n_symbols) of which match ways


@lru_cache(maxsize=8)
def ways(p: Params) -> Ways:
    amounts = set(p.amounts_half)
    vals = values(p)
    listed: list[list[tuple[int, int, int]]] = []
    for v in vals.tolist():
        w = []
        for c, (_, t) in enumerate(p.match):
            if v % t == 0 and v // t in amounts:
                w.append((1 + c, v // t, t))
        for j, game in enumerate(p.games):
            for n in game.prizes:
                if v % n == 0 and v // n in amounts:
                    w.append((p.first_bonus + j, v // n, n))
        listed.append(w)
    width = max(len(w) for w in listed)
    kind = np.zeros((len(vals), width), dtype=np.int64)
    amount = np.zeros_like(kind)
    prizes = np.zeros_like(kind)
    n_ways = np.array([len(w) for w in listed], dtype=np.int64)
    n_match = np.array([sum(c < p.first_bonus for c, _, _ in w) for w in listed], dtype=np.int64)
    for i, w in enumerate(listed):
        for j, (c, a, m) in enumerate(w):
            kind[i, j], amount[i, j], prizes[i, j] = c, a, m
    first = np.zeros((len(vals), p.n_symbols, width), dtype=np.int64)
    n_first = np.zeros((len(vals), p.n_symbols), dtype=np.int64)
    n_first_match = np.zeros_like(n_first)
    for i, w in enumerate(listed):
        for s in range(p.n_symbols):
            ok = [j for j, (c, _, _) in enumerate(w) if fits_first(p, c, s + 1)]
            first[i, s, :len(ok)] = ok
            n_first[i, s] = len(ok)
            n_first_match[i, s] = sum(w[j][0] < p.first_bonus for j in ok)
    return Ways(vals, kind, amount, prizes, n_ways, n_match, first, n_first, n_first_match)


# ---------------------------------------------------------------------------------------------
# Flat lookup tables of the drawing


def _results(game: BonusGame, max_prizes: int) -> tuple[np.ndarray, np.ndarray]:
    """A bonus game's results grouped by number of prizes N: (max_prizes + 1, width) padded, counts.
    A chances game: the scoring masks 1 .. 2**chances - 1 with N bits set, ascending; a grid game:
    the sections of N prizes, ascending."""
    if game.chances:
        by_n = [[m for m in range(1, 2**game.chances) if bin(m).count("1") == n]
                for n in range(max_prizes + 1)]
    else:
        by_n = [[s for s, x in enumerate(game.grid) if x == n] for n in range(max_prizes + 1)]
    table = np.zeros((max_prizes + 1, max(len(r) for r in by_n)), dtype=np.int64)
    for n, r in enumerate(by_n):
        table[n, :len(r)] = r
    return table, np.array([len(r) for r in by_n], dtype=np.int64)


_PACK = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def pack_dtype(spots: int) -> np.dtype:
    """One item holding an area's `spots` codes (uint8 each) in memory order."""
    return np.dtype(_PACK.get(spots, f"V{spots}"))


@dataclass(frozen=True)
class Draws:
    """Flat lookup tables of `lay_out`, one row per small integer key (built once per Params).

    A value code is 0 for a losing area and c for the area value `ways().values[c - 1]`."""

    bonus_only: np.ndarray  # (codes,) bool: the value code's value only a bonus game can win
    not_area0: int  # realisation key column of the areas other than area 0 (no a0_s0 to fit)
    way_key_width: int  # keys of a won area: code * (n_symbols + 1) + (a0_s0 - 1, or not_area0)
    way_width: int
    way_bound: np.ndarray  # (keys * 2,) number of ways of key (even) / of its match ways (odd)
    way_kind: np.ndarray  # (keys * way_width,) uint8 class of the key's pick-th way
    way_amount: np.ndarray  # (keys * way_width,) int64 amount (half-denominations)
    way_prizes: np.ndarray  # (keys * way_width,) uint8 N
    sym0_width: int
    sym0_bound: np.ndarray  # (classes * modes * n,): key (class * modes + mode) * n + a0_s0 - 1
    sym0: np.ndarray  # (keys * sym0_width,) the key's tuples, codes packed in memory order
    sym_width: int
    sym_bound: np.ndarray  # (classes * modes,) tuples of key class * modes + mode
    sym: np.ndarray  # (keys * sym_width,) the key's tuples, packed
    bonus_width: int
    bonus_bound: np.ndarray  # (games * (max_prizes + 1),) results of key game index * (max + 1) + N
    bonus_result: np.ndarray  # (keys * bonus_width,) uint8: scoring mask / grid section


@lru_cache(maxsize=8)
def draws(p: Params) -> Draws:
    tup, w = tuples(p), ways(p)
    n_vals, width = w.kind.shape
    n_sym = p.n_symbols
    cols = n_sym + 1
    way_bound = np.ones((n_vals + 1, cols, 2), dtype=np.int64)  # code 0 (losing) is never drawn
    way_bound[1:, :n_sym, 0] = w.n_first
    way_bound[1:, :n_sym, 1] = w.n_first_match
    way_bound[1:, n_sym, 0] = w.n
    way_bound[1:, n_sym, 1] = w.n_match
    way = np.zeros((n_vals + 1, cols, width), dtype=np.int64)
    way[1:, :n_sym] = w.first
    way[1:, n_sym] = np.arange(width)
    vidx = np.maximum(np.arange(n_vals + 1) - 1, 0)[:, None, None]
    packed = np.ascontiguousarray(tup.all).view(pack_dtype(p.spots)).reshape(-1)
    results = [_results(g, p.max_prizes) for g in p.games]
    bonus_width = max(t.shape[1] for t, _ in results)
    bonus_result = np.zeros((len(p.games), p.max_prizes + 1, bonus_width), dtype=np.uint8)
    for j, (t, _) in enumerate(results):
        bonus_result[j, :, :t.shape[1]] = t
    return Draws(
        bonus_only=np.concatenate([[False], np.isin(w.values, bonus_only(p))]),
        not_area0=n_sym, way_key_width=cols, way_width=width, way_bound=way_bound.reshape(-1),
        way_kind=w.kind[vidx, way].astype(np.uint8).reshape(-1),
        way_amount=w.amount[vidx, way].reshape(-1),
        way_prizes=w.prizes[vidx, way].astype(np.uint8).reshape(-1),
        sym0_width=tup.by_first.shape[1], sym0_bound=tup.n_first,
        sym0=packed[tup.by_first].reshape(-1),
        sym_width=tup.by_key.shape[1], sym_bound=tup.n_key, sym=packed[tup.by_key].reshape(-1),
        bonus_width=bonus_width, bonus_bound=np.stack([c for _, c in results]).reshape(-1),
        bonus_result=bonus_result.reshape(-1))
