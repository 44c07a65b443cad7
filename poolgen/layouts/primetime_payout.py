"""Symbol layouts of "Primetime Payout" (K.A.R. 111-23-23). Contract: specs/primetime_payout.md.

A share has `play_areas` areas of 4 spots. Three matching symbols (Coin wild for every matchable
symbol, Coins matching each other) win the area's amount, four win double; Golden Football with
Touchdown or Field Goal plays a bonus game that wins N (1..4) prizes of the area's amount.

Generation (section 7 of the contract), in this fixed order of stream use:
  1. `a0_s0` uniform over the 13 codes, independent of the tier;
  2. per winning tier, a decomposition of the prize into k area values, uniform among the tier's
     (enumerated, possibly thinned) decompositions; then a uniform permutation onto the areas;
  3. each winning area's realisation (3-match, 4-match, Touchdown N, Field Goal N), uniform among
     those that exist (area 0: those compatible with `a0_s0`);
  4. every area's 4 symbols, uniform among the ordered 4-tuples of its class;
  5. bonus results (Touchdown scoring mask, Field Goal grid section);
  6. losing areas' decoy amounts, copied from uniformly chosen winning areas of the pool.
Values are counted in half-denominations, so every amount multiplier is a whole number.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from poolgen.errors import SpecError
from poolgen.limits import bounded_decimal
from poolgen.rng import Stream, integers, integers_by_key, row_permutations
from poolgen.spec import Pool, Spec

if TYPE_CHECKING:
    from poolgen.check import GameCheck

__all__ = ["SYMBOL_CODES", "Params", "area_class", "check_structure", "decompositions", "lay_out",
           "params"]

# Code of each symbol = its 1-based position in this tuple (and in the spec's [[symbols]]).
SYMBOL_CODES = ("CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ",
                "GFOOT", "TD", "FG", "COIN", "JCOIN")
GFOOT, TD, FG, COIN = 9, 10, 11, 12
MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)
N_SYMBOLS = len(SYMBOL_CODES)
SPOTS = 4
MAX_PRIZES = 4  # a bonus wins 1..4 prizes (Touchdown: four chances)

# Area classes (internal; the Parquet `a{i}_bonus` column uses 0 / 1 Touchdown / 2 Field Goal).
LOSE, MATCH3, MATCH4, BONUS_TD, BONUS_FG = 0, 1, 2, 3, 4
N_CLASSES = 5
ILLEGAL = -1


@dataclass(frozen=True)
class Params:
    """The spec's [layout] table, validated."""

    amounts_half: tuple[int, ...]  # amount multipliers x 2, ascending
    grid: tuple[int, ...]  # Field Goal grid: prizes per section
    cap: int  # max decompositions kept per (tier, play areas)


def _fail(spec: Spec, field: str, why: str) -> SpecError:
    return SpecError(f"{spec.path.name}: layout.{field}: {why}")


def params(spec: Spec) -> Params:
    """Validate the game's [layout] table and symbol list; raise SpecError naming the field."""
    codes = tuple(s.code for s in spec.symbols)
    if codes != SYMBOL_CODES:
        raise SpecError(f"{spec.path.name}: symbols: Primetime Payout needs the 13 symbols "
                        f"{', '.join(SYMBOL_CODES)} in this order, not {', '.join(codes)}")
    if spec.play.get("spots_per_area") != SPOTS:
        raise SpecError(f"{spec.path.name}: play.spots_per_area: must be {SPOTS}")
    lay = spec.layout
    for key in lay:
        if key not in ("amount_multipliers", "field_goal_grid", "max_decompositions"):
            raise _fail(spec, key, "unknown field")
    raw = lay.get("amount_multipliers")
    if not isinstance(raw, list) or not raw:
        raise _fail(spec, "amount_multipliers",
                    "missing: a list of decimal strings such as \"0.5\"")
    halves = []
    for j, text in enumerate(raw):
        if not isinstance(text, str):
            raise _fail(spec, f"amount_multipliers[{j}]", f"must be a decimal string, not {text!r}")
        try:
            x = bounded_decimal(text)
        except ValueError as exc:
            raise _fail(spec, f"amount_multipliers[{j}]", str(exc)) from None
        if not x.is_finite() or x <= 0 or (2 * x) != (2 * x).to_integral_value():
            raise _fail(spec, f"amount_multipliers[{j}]",
                        f"{text!r} must be a positive multiple of 0.5")
        halves.append(int(2 * x))
    if len(set(halves)) != len(halves):
        raise _fail(spec, "amount_multipliers", "a multiplier is listed twice")
    grid = lay.get("field_goal_grid")
    if (not isinstance(grid, list) or not 1 <= len(grid) <= 255
            or any(isinstance(g, bool) or not isinstance(g, int) for g in grid)
            or set(grid) != set(range(1, MAX_PRIZES + 1))):
        raise _fail(spec, "field_goal_grid", f"must list whole numbers of prizes, each of 1..4 "
                                             f"at least once, not {grid!r}")
    cap = lay.get("max_decompositions")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise _fail(spec, "max_decompositions", f"must be a whole number >= 1, not {cap!r}")
    return Params(tuple(sorted(halves)), tuple(grid), cap)


# ---------------------------------------------------------------------------------------------
# Area evaluation and the symbol tuples of each class


def area_class(symbols: np.ndarray) -> np.ndarray:
    """Class of each row of 4 symbol codes: LOSE, MATCH3, MATCH4, BONUS_TD, BONUS_FG or ILLEGAL."""
    sym = np.asarray(symbols)
    counts = np.stack([(sym == c).sum(axis=1) for c in range(1, N_SYMBOLS + 1)], axis=1)
    best = counts[:, [c - 1 for c in MATCHABLE]].max(axis=1)
    match = counts[:, COIN - 1] + best
    g, t, f = counts[:, GFOOT - 1] > 0, counts[:, TD - 1] > 0, counts[:, FG - 1] > 0
    out = np.full(len(sym), LOSE, dtype=np.int8)
    out[match == 3] = MATCH3
    out[match == 4] = MATCH4
    out[g & t] = BONUS_TD
    out[g & f] = BONUS_FG
    out[g & t & f] = ILLEGAL
    return out


@dataclass(frozen=True)
class _Tuples:
    all: np.ndarray  # (13^4, 4) uint8: every ordered 4-tuple of codes
    by_class: np.ndarray  # (classes, width) indices into `all`, padded
    n_class: np.ndarray  # (classes,)
    by_first: np.ndarray  # (classes, 13, width) indices of the class with spot 0 = code
    n_first: np.ndarray  # (classes, 13)


@lru_cache(maxsize=1)
def _tuples() -> _Tuples:
    grids = np.meshgrid(*[np.arange(1, N_SYMBOLS + 1)] * SPOTS, indexing="ij")
    every = np.stack([g.reshape(-1) for g in grids], axis=1).astype(np.uint8)
    cls = area_class(every)
    members = [np.nonzero(cls == c)[0] for c in range(N_CLASSES)]
    width = max(len(m) for m in members)
    by_class = np.zeros((N_CLASSES, width), dtype=np.int64)
    n_class = np.zeros(N_CLASSES, dtype=np.int64)
    firsts = [[m[every[m, 0] == s] for s in range(1, N_SYMBOLS + 1)] for m in members]
    width1 = max(len(x) for row in firsts for x in row)
    by_first = np.zeros((N_CLASSES, N_SYMBOLS, width1), dtype=np.int64)
    n_first = np.zeros((N_CLASSES, N_SYMBOLS), dtype=np.int64)
    for c, m in enumerate(members):
        by_class[c, :len(m)] = m
        n_class[c] = len(m)
        for s, x in enumerate(firsts[c]):
            by_first[c, s, :len(x)] = x
            n_first[c, s] = len(x)
    return _Tuples(every, by_class, n_class, by_first, n_first)


# ---------------------------------------------------------------------------------------------
# Decompositions of a tier's prize into area values (half-denominations)


@lru_cache(maxsize=8)
def _values(amounts_half: tuple[int, ...]) -> np.ndarray:
    """Every value one area can win: N x a, a an amount, N in 1..4 (match3 1, match4 2, bonus N)."""
    values = np.unique(np.array([n * a for a in amounts_half for n in range(1, MAX_PRIZES + 1)],
                                dtype=np.int64))
    values.flags.writeable = False  # shared by the callers
    return values


@lru_cache(maxsize=1024)
def _all_decompositions(amounts_half: tuple[int, ...], total: int, k: int) -> np.ndarray:
    """All multisets of k area values (0 = losing area) summing to `total`, as ascending rows
    in lexicographic order; shape (n, k) int64."""
    vals = np.concatenate([[0], _values(amounts_half)])
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


def decompositions(p: Params, multiplier: Decimal, k: int) -> tuple[np.ndarray, int]:
    """The decompositions a share of tier `multiplier` with k areas chooses from (thinned to
    `p.cap` evenly spaced rows if there are more), and how many exist before thinning."""
    total2 = 2 * multiplier * k
    if total2 != total2.to_integral_value():
        return np.empty((0, k), dtype=np.int64), 0
    rows = _all_decompositions(p.amounts_half, int(total2), k)
    n = len(rows)
    if n > p.cap:
        rows = rows[(np.arange(p.cap, dtype=np.int64) * n) // p.cap]
    return rows, n


@dataclass(frozen=True)
class _Ways:
    """How each area value can be won: padded tables indexed by value index."""

    values: np.ndarray  # (V,) sorted area values (half-denominations), value 0 not included
    kind: np.ndarray  # (V, W) class MATCH3/MATCH4/BONUS_TD/BONUS_FG
    amount: np.ndarray  # (V, W) amount in half-denominations
    prizes: np.ndarray  # (V, W) N (1 for match3, 2 for match4 = double, N for a bonus)
    n: np.ndarray  # (V,)
    first: np.ndarray  # (V, 13, W) indices into the ways of those compatible with a0_s0
    n_first: np.ndarray  # (V, 13)


@lru_cache(maxsize=8)
def _ways(amounts_half: tuple[int, ...]) -> _Ways:
    amounts = set(amounts_half)
    values = _values(amounts_half)
    ways: list[list[tuple[int, int, int]]] = []
    for v in values.tolist():
        w = []
        if v in amounts:
            w.append((MATCH3, v, 1))
        if v % 2 == 0 and v // 2 in amounts:
            w.append((MATCH4, v // 2, 2))
        for kind in (BONUS_TD, BONUS_FG):
            for n in range(1, MAX_PRIZES + 1):
                if v % n == 0 and v // n in amounts:
                    w.append((kind, v // n, n))
        ways.append(w)
    width = max(len(w) for w in ways)
    kind = np.zeros((len(values), width), dtype=np.int64)
    amount = np.zeros_like(kind)
    prizes = np.zeros_like(kind)
    n = np.array([len(w) for w in ways], dtype=np.int64)
    for i, w in enumerate(ways):
        for j, (c, a, m) in enumerate(w):
            kind[i, j], amount[i, j], prizes[i, j] = c, a, m
    fits = _tuples().n_first > 0  # (classes, 13): a class can have that code in spot 0
    first = np.zeros((len(values), N_SYMBOLS, width), dtype=np.int64)
    n_first = np.zeros((len(values), N_SYMBOLS), dtype=np.int64)
    for i, w in enumerate(ways):
        for s in range(N_SYMBOLS):
            ok = [j for j, (c, _, _) in enumerate(w) if fits[c, s]]
            first[i, s, :len(ok)] = ok
            n_first[i, s] = len(ok)
    return _Ways(values, kind, amount, prizes, n, first, n_first)


# ---------------------------------------------------------------------------------------------
# Laying out a pool


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
class _Draws:
    """Flat lookup tables of `lay_out`, one row per small integer key (built once per layout table).

    A value code is 0 for a losing area and c for the area value `_ways().values[c - 1]`."""

    way_key_width: int  # keys of a won area: code * (N_SYMBOLS + 1) + (a0_s0 - 1, or NOT_AREA0)
    way_width: int
    way_bound: np.ndarray  # (keys,) number of ways of the key's value (that fit a0_s0 in area 0)
    way_kind: np.ndarray  # (keys * way_width,) uint8 class of the key's pick-th way
    way_amount: np.ndarray  # (keys * way_width,) int64 amount (half-denominations)
    way_prizes: np.ndarray  # (keys * way_width,) uint8 N
    sym0_width: int
    sym0_bound: np.ndarray  # (classes * 13,) tuples of class c with spot 0 = s: key c * 13 + s - 1
    sym0: np.ndarray  # (keys * sym0_width,) uint32: the key's tuples, 4 codes packed in memory order
    sym_width: int
    sym_bound: np.ndarray  # (classes,) tuples of class c
    sym: np.ndarray  # (classes * sym_width,) uint32 the class's tuples, packed
    bonus_width: int
    bonus_bound: np.ndarray  # (2 * 5,) results of bonus key (kind - BONUS_TD) * 5 + N
    bonus_result: np.ndarray  # (keys * bonus_width,) uint8: Touchdown mask / Field Goal section


@lru_cache(maxsize=8)
def _draws(amounts_half: tuple[int, ...], grid: tuple[int, ...]) -> _Draws:
    tup, ways = _tuples(), _ways(amounts_half)
    n_vals, width = ways.kind.shape
    cols = N_SYMBOLS + 1
    way_bound = np.ones((n_vals + 1, cols), dtype=np.int64)  # code 0 (losing) is never drawn
    way_bound[1:, :N_SYMBOLS] = ways.n_first
    way_bound[1:, NOT_AREA0] = ways.n
    way = np.zeros((n_vals + 1, cols, width), dtype=np.int64)
    way[1:, :N_SYMBOLS] = ways.first
    way[1:, NOT_AREA0] = np.arange(width)
    vidx = np.maximum(np.arange(n_vals + 1) - 1, 0)[:, None, None]
    packed = np.ascontiguousarray(tup.all).view(np.uint32).reshape(-1)
    td_table, td_count = _td_masks()
    fg_table, fg_count = _fg_sections(grid)
    bonus_width = max(td_table.shape[1], fg_table.shape[1])
    bonus_result = np.zeros((2, MAX_PRIZES + 1, bonus_width), dtype=np.uint8)
    bonus_result[0, :, :td_table.shape[1]] = td_table
    bonus_result[1, :, :fg_table.shape[1]] = fg_table
    return _Draws(
        way_key_width=cols, way_width=width, way_bound=way_bound.reshape(-1),
        way_kind=ways.kind[vidx, way].astype(np.uint8).reshape(-1),
        way_amount=ways.amount[vidx, way].reshape(-1),
        way_prizes=ways.prizes[vidx, way].astype(np.uint8).reshape(-1),
        sym0_width=tup.by_first.shape[2], sym0_bound=tup.n_first.reshape(-1),
        sym0=packed[tup.by_first].reshape(-1),
        sym_width=tup.by_class.shape[1], sym_bound=tup.n_class, sym=packed[tup.by_class].reshape(-1),
        bonus_width=bonus_width, bonus_bound=np.stack([td_count, fg_count]).reshape(-1),
        bonus_result=bonus_result.reshape(-1))


@lru_cache(maxsize=1024)
def _decomposition_codes(p: Params, multiplier: Decimal, k: int) -> np.ndarray:
    """`decompositions(p, multiplier, k)` as value codes (0 losing, c for `_ways().values[c - 1]`)."""
    table, _ = decompositions(p, multiplier, k)
    values = _ways(p.amounts_half).values
    lookup = np.zeros(int(table.max(initial=0)) + 1, dtype=np.min_scalar_type(len(values)))
    lookup[values[values < len(lookup)]] = np.arange(1, len(values) + 1)[values < len(lookup)]
    return lookup[table]


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The layout columns of every share of `pool` (see specs/primetime_payout.md, section 2).

    Steps 2, 3 and 5 work on the winning shares and their won areas only (the won areas in
    row-major order of (share, area), the order in which they use the stream); every other area
    is losing."""
    p = params(spec)
    k, denom = pool.play_areas, pool.denomination_cents
    if k is None or denom is None:
        raise SpecError(f"{spec.path.name}: pool {pool.id}: not an eInstant pool")
    for a in p.amounts_half:
        if a * denom % 2:
            raise _fail(spec, "amount_multipliers",
                        f"{a / 2} x {denom} cents is not whole cents")
    tiers = np.asarray(tiers)
    n = len(tiers)
    d = _draws(p.amounts_half, p.grid)

    # 1. what the player sees first: independent of the tier
    s0 = integers(stream, N_SYMBOLS, size=n)  # code - 1

    # 2. decompositions (as value codes), then a uniform assignment of the values to areas; only
    # the winning shares, in pool order, have rows here
    winners = np.flatnonzero(tiers > 0)
    tier_w = tiers[winners]
    by_tier = np.argsort(tier_w, kind="stable")  # each tier's winners in pool order, tier by tier
    ends = np.cumsum(np.bincount(tier_w.astype(np.intp), minlength=len(pool.tiers)))
    code = np.zeros((winners.size, k), dtype=np.uint16)  # value codes: at most len(_ways().values)
    for t in range(1, len(pool.tiers)):
        rows = by_tier[ends[t - 1]:ends[t]]
        if not rows.size:
            continue
        table = _decomposition_codes(p, spec.tiers[t - 1].multiplier, k)
        if not len(table):
            raise SpecError(f"{spec.path.name}: tiers[{t - 1}]: pool {pool.id}: the prize cannot "
                            f"be made of play-area wins with layout.amount_multipliers")
        code[rows] = table[integers(stream, len(table), size=rows.size)]
    if k > 1 and winners.size:
        perm = row_permutations(stream, winners.size, k)
        code = np.take_along_axis(code, perm, axis=1)

    # 3. how each winning area wins
    won = np.flatnonzero(code)  # won areas: flat (winner, area) positions, row-major
    area = won % k
    share = winners[won // k]
    at = area * n + share  # won areas' places in the (k, n) arrays of areas' columns
    fit = np.where(area == 0, s0[share], NOT_AREA0)  # area 0 must fit a0_s0
    key = code.reshape(-1)[won].astype(np.int64) * d.way_key_width + fit
    way = key * d.way_width + integers_by_key(stream, d.way_bound, key)
    kind_w, prizes_w = d.way_kind[way], d.way_prizes[way]
    amount_w = d.way_amount[way] * denom // 2

    # 4. symbols, uniform among the ordered tuples of each area's class
    kind = np.zeros((k, n), dtype=np.uint8)  # LOSE but where won
    kind.reshape(-1)[at] = kind_w
    symbols = []
    for i in range(k):
        if i == 0:
            key0 = kind[0] * np.int64(N_SYMBOLS) + s0
            tuple_at = key0 * d.sym0_width + integers_by_key(stream, d.sym0_bound, key0)
            packed = d.sym0[tuple_at]
        else:
            tuple_at = kind[i] * np.int64(d.sym_width) + integers_by_key(stream, d.sym_bound, kind[i])
            packed = d.sym[tuple_at]
        symbols.append(packed.view(np.uint8).reshape(n, SPOTS))

    # 5. bonus results
    bonus = np.flatnonzero(kind_w >= BONUS_TD)  # among the won areas, in their order
    bonus_key = (kind_w[bonus] - BONUS_TD).astype(np.int64) * (MAX_PRIZES + 1) + prizes_w[bonus]
    result_b = d.bonus_result[bonus_key * d.bonus_width
                              + integers_by_key(stream, d.bonus_bound, bonus_key)]

    # 6. amounts: winning areas their own, losing areas a copy of a random winning area's
    place = share * k + area  # won areas' places in the (n, k) arrays of shares' areas
    lost = np.ones((n, k), dtype=bool)
    lost.reshape(-1)[place] = False
    n_lost = n * k - won.size
    amount = np.empty((n, k), dtype=np.int64)
    if won.size:
        amount[lost] = amount_w[integers(stream, won.size, size=n_lost)]
    else:
        halves = np.array(p.amounts_half, dtype=np.int64)
        amount[lost] = halves[integers(stream, len(halves), size=n_lost)] * denom // 2
    amount.reshape(-1)[place] = amount_w

    bonus_at = at[bonus]
    bonus_code = np.zeros((k, n), dtype=np.uint8)
    bonus_code.reshape(-1)[bonus_at] = kind_w[bonus] - (BONUS_TD - 1)  # 1 Touchdown, 2 Field Goal
    result = np.zeros((k, n), dtype=np.uint8)
    result.reshape(-1)[bonus_at] = result_b
    prizes = np.zeros((k, n), dtype=np.uint8)
    prizes.reshape(-1)[bonus_at] = prizes_w[bonus]
    cols: dict[str, np.ndarray] = {}
    for i in range(k):
        for j in range(SPOTS):
            cols[f"a{i}_s{j}"] = np.ascontiguousarray(symbols[i][:, j])
        cols[f"a{i}_amount"] = np.ascontiguousarray(amount[:, i])
        cols[f"a{i}_bonus"] = bonus_code[i]
        cols[f"a{i}_bonus_result"] = result[i]
        cols[f"a{i}_bonus_prizes"] = prizes[i]
    return cols


# ---------------------------------------------------------------------------------------------
# poolgen check


def check_structure(spec: Spec, result: GameCheck) -> None:
    """Prove every tier of every pool can be laid out: it has at least one decomposition."""
    try:
        p = params(spec)
    except SpecError as exc:
        result.problem("[layout]", "layout parameters", "a usable [layout] table", str(exc))
        return
    fewest: tuple[int, str] | None = None
    most: tuple[int, str] | None = None
    thinned = 0
    for pool in spec.pools:
        denom, k = pool.denomination_cents, pool.play_areas
        for a in p.amounts_half:
            if a * denom % 2:
                result.problem("[layout]", f"{pool.id} amount multiplier {a / 2}",
                               "whole cents", f"{a / 2} x {denom} cents")
        for t in spec.tiers:
            rows, total = decompositions(p, t.multiplier, k)
            where = f"{pool.id} multiplier {t.multiplier:f}"
            if total == 0:
                result.problem("(j)", where, f"prize {pool.tiers[t.index].prize_cents} cents",
                               "no layout: it cannot be made of play-area wins")
                continue
            if total > p.cap:
                thinned += 1
            if fewest is None or total < fewest[0]:
                fewest = (total, where)
            if most is None or total > most[0]:
                most = (total, where)
    if fewest is not None and most is not None:
        result.notes.append(
            f"{spec.name}: layout: every tier of the {len(spec.pools)} pools decomposes into "
            f"play-area wins (fewest decompositions {fewest[0]:,} for {fewest[1]}, most "
            f"{most[0]:,} for {most[1]}; {thinned} (tier, pool) lists thinned to "
            f"{p.cap:,})")
