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
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from poolgen.errors import SpecError
from poolgen.rng import Stream, integers, row_permutations
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
            x = Decimal(text)
        except InvalidOperation:
            raise _fail(spec, f"amount_multipliers[{j}]", f"{text!r} is not a number") from None
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


def _values(amounts_half: tuple[int, ...]) -> np.ndarray:
    """Every value one area can win: N x a, a an amount, N in 1..4 (match3 1, match4 2, bonus N)."""
    return np.unique(np.array([n * a for a in amounts_half for n in range(1, MAX_PRIZES + 1)],
                              dtype=np.int64))


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
    # prefixes of length j (ascending), extended one value at a time, rows kept lexicographic
    rows = vals[vals * k <= total][:, None]
    for j in range(1, k - 1):
        last, sums = rows[:, -1], rows.sum(axis=1)
        ok = (vals[None, :] >= last[:, None]) & (
            sums[:, None] + vals[None, :] * (k - j) <= total)
        r, c = np.nonzero(ok)
        rows = np.concatenate([rows[r], vals[c][:, None]], axis=1)
    final = total - rows.sum(axis=1)
    ok = (final >= rows[:, -1]) & member[np.clip(final, 0, total)]
    return np.concatenate([rows[ok], final[ok][:, None]], axis=1).astype(np.int64)


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


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The layout columns of every share of `pool` (see specs/primetime_payout.md, section 2)."""
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
    tup, ways = _tuples(), _ways(p.amounts_half)

    # 1. what the player sees first: independent of the tier
    s0 = integers(stream, N_SYMBOLS, size=n)  # code - 1

    # 2. decompositions, then a uniform assignment of the values to areas
    value = np.zeros((n, k), dtype=np.int64)
    for t in range(1, len(pool.tiers)):
        rows = np.nonzero(tiers == t)[0]
        if not rows.size:
            continue
        table, _ = decompositions(p, spec.tiers[t - 1].multiplier, k)
        if not len(table):
            raise SpecError(f"{spec.path.name}: tiers[{t - 1}]: pool {pool.id}: the prize cannot "
                            f"be made of play-area wins with layout.amount_multipliers")
        value[rows] = table[integers(stream, len(table), size=rows.size)]
    winners = np.nonzero(tiers > 0)[0]
    if k > 1 and winners.size:
        perm = row_permutations(stream, winners.size, k)
        value[winners] = np.take_along_axis(value[winners], perm, axis=1)

    # 3. how each winning area wins
    won = value > 0
    vidx = np.searchsorted(ways.values, value)
    vidx[~won] = 0
    bound = ways.n[vidx]
    bound[:, 0] = ways.n_first[vidx[:, 0], s0]
    pick = np.zeros((n, k), dtype=np.int64)
    pick[won] = integers(stream, bound[won])
    way = pick.copy()
    way[:, 0] = ways.first[vidx[:, 0], s0, pick[:, 0]]
    kind = np.where(won, ways.kind[vidx, way], LOSE)
    amount_half = np.where(won, ways.amount[vidx, way], 0)
    prizes = np.where(won, ways.prizes[vidx, way], 0)

    # 4. symbols, uniform among the ordered tuples of each area's class
    cols: dict[str, np.ndarray] = {}
    symbols = []
    for i in range(k):
        c = kind[:, i]
        if i == 0:
            r = integers(stream, tup.n_first[c, s0])
            idx = tup.by_first[c, s0, r]
        else:
            r = integers(stream, tup.n_class[c])
            idx = tup.by_class[c, r]
        symbols.append(tup.all[idx])

    # 5. bonus results
    td_table, td_count = _td_masks()
    fg_table, fg_count = _fg_sections(p.grid)
    is_td, is_fg = kind == BONUS_TD, kind == BONUS_FG
    bonus = is_td | is_fg
    nb = prizes[bonus]
    choice = integers(stream, np.where(is_td[bonus], td_count[nb], fg_count[nb]))
    result = np.zeros((n, k), dtype=np.int64)
    result[bonus] = np.where(is_td[bonus], td_table[nb, choice], fg_table[nb, choice])

    # 6. amounts: winning areas their own, losing areas a copy of a random winning area's
    amount = amount_half * denom // 2
    pool_amounts = amount[won]
    lost = ~won
    if pool_amounts.size:
        amount[lost] = pool_amounts[integers(stream, pool_amounts.size, size=int(lost.sum()))]
    else:
        halves = np.array(p.amounts_half, dtype=np.int64)
        amount[lost] = halves[integers(stream, len(halves), size=int(lost.sum()))] * denom // 2

    bonus_code = np.where(is_td, 1, np.where(is_fg, 2, 0))
    for i in range(k):
        for j in range(SPOTS):
            cols[f"a{i}_s{j}"] = np.ascontiguousarray(symbols[i][:, j], dtype=np.uint8)
        cols[f"a{i}_amount"] = amount[:, i].astype(np.int64)
        cols[f"a{i}_bonus"] = bonus_code[:, i].astype(np.uint8)
        cols[f"a{i}_bonus_result"] = result[:, i].astype(np.uint8)
        cols[f"a{i}_bonus_prizes"] = np.where(bonus[:, i], prizes[:, i], 0).astype(np.uint8)
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
