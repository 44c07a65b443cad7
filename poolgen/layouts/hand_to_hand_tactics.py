"""Hand to Hand Tactics (K.A.R. 111-23-22): outcome layouts of 15 play spots ending at the third loss.

The contract (columns, codes, legal rows, how a row pays) is `specs/hand_to_hand_tactics.md`.
In short: `spot_i` holds the outcome code of spot i (0 unplayed, 1 lose, 2 tie, 3 win,
4 multiplier), `amt_i` the cents a win reveals; prize = (1 + multipliers) x sum of win amounts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.errors import SpecError
from poolgen.money import fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.spec import Pool, Spec

__all__ = ["Decompositions", "Params", "check_structure", "decompositions", "lay_out", "params"]

SPOTS = 15
MAX_LOSSES = 3
NON_LOSS = SPOTS - MAX_LOSSES  # at most 12 spots of a share are not losses

UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4
_CODE_BITS = 3  # internal: an item is code | cents << 3 while it is being shuffled


@dataclass(frozen=True)
class Params:
    """The spec's [layout] table, validated."""

    legend: tuple[Fraction, ...]  # ascending; prize symbols as multiples of the denomination
    max_decompositions: int
    first_spot_loss: Fraction
    loser_max_multipliers: int


@dataclass(frozen=True)
class Decompositions:
    """The kept decompositions of one tier multiplier (see the contract, section 6)."""

    total: int  # how many exist
    multipliers: tuple[int, ...]  # m of each kept decomposition
    amounts: tuple[tuple[Fraction, ...], ...]  # its legend values (descending)


def params(spec: Spec) -> Params:
    """Read and validate the [layout] table of a Hand to Hand Tactics spec."""
    file = spec.path.name

    def fail(field: str, why: str) -> SpecError:
        return SpecError(f"{file}: layout.{field}: {why}")

    if spec.play.get("spots", SPOTS) != SPOTS or spec.play.get("max_losses", MAX_LOSSES) != MAX_LOSSES:
        raise SpecError(f"{file}: play: the layout is defined for {SPOTS} spots and "
                        f"{MAX_LOSSES} losses")
    lay = spec.layout
    known = {"legend", "max_decompositions", "first_spot_loss", "loser_max_multipliers"}
    for key in lay:
        if key not in known:
            raise fail(key, "unknown field")
    for key in sorted(known):
        if key not in lay:
            raise fail(key, "missing field")

    raw = lay["legend"]
    if not isinstance(raw, list) or not raw:
        raise fail("legend", "must be a non-empty list of decimal strings")
    legend: list[Fraction] = []
    for v in raw:
        if not isinstance(v, str):
            raise fail("legend", f"values are decimal strings such as \"0.5\", not {v!r}")
        try:
            d = Decimal(v)
        except InvalidOperation:
            raise fail("legend", f"{v!r} is not a decimal number") from None
        if not d.is_finite() or d <= 0:
            raise fail("legend", f"{v!r} is not a positive number")
        legend.append(Fraction(d))
    if len(set(legend)) != len(legend):
        raise fail("legend", "a value appears twice")

    cap = lay["max_decompositions"]
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise fail("max_decompositions", f"must be a whole number >= 1, not {cap!r}")

    p = lay["first_spot_loss"]
    try:
        if not isinstance(p, str):
            raise ValueError
        prob = Fraction(p)
    except (ValueError, ZeroDivisionError):
        raise fail("first_spot_loss", f"must be a fraction string such as \"1/4\", "
                                      f"not {p!r}") from None
    if not 0 <= prob <= 1:
        raise fail("first_spot_loss", f"{p!r} is not a probability")

    lmax = lay["loser_max_multipliers"]
    if isinstance(lmax, bool) or not isinstance(lmax, int) or not 0 <= lmax <= NON_LOSS:
        raise fail("loser_max_multipliers", f"must be a whole number 0..{NON_LOSS}, not {lmax!r}")
    return Params(tuple(sorted(legend)), cap, prob, lmax)


def decompositions(target: Fraction, legend: tuple[Fraction, ...], cap: int) -> Decompositions:
    """Every way to pay `target` (in denominations): (1 + m) x sum(wins) within 12 non-loss spots.

    Listed by m ascending, then by the number of copies of the largest legend value ascending,
    then of the next largest, ...; more than `cap` are thinned to the evenly spread indices
    floor(i * total / cap).
    """
    return _decompositions(Fraction(target), tuple(sorted(legend)), cap)


@lru_cache(maxsize=512)
def _decompositions(target: Fraction, legend: tuple[Fraction, ...], cap: int) -> Decompositions:
    unit = math.lcm(target.denominator, *(v.denominator for v in legend))
    values = tuple(int(v * unit) for v in legend)  # ascending whole units
    goal = int(target * unit)

    def count(s: int, j: int, p: int) -> int:
        return _count(values, s, j, p)

    def unrank(r: int, s: int, j: int, p: int) -> list[int]:
        out: list[int] = []
        while s:
            v = values[j]
            for c in range(min(p, s // v) + 1):
                n = count(s - c * v, j - 1, p - c)
                if r < n:
                    out += [v] * c
                    s, j, p = s - c * v, j - 1, p - c
                    break
                r -= n
        return out

    per_m: list[tuple[int, int, int]] = []  # (m, sum in units, count)
    if goal > 0:
        for m in range(NON_LOSS):
            if goal % (1 + m) == 0:
                n = count(goal // (1 + m), len(values) - 1, NON_LOSS - m)
                if n:
                    per_m.append((m, goal // (1 + m), n))
    total = sum(n for _, _, n in per_m)
    keep = range(total) if total <= cap else (i * total // cap for i in range(cap))
    mults: list[int] = []
    amounts: list[tuple[Fraction, ...]] = []
    for index in keep:
        r = index
        for m, s, n in per_m:
            if r < n:
                mults.append(m)
                amounts.append(tuple(Fraction(u, unit) for u in unrank(r, s, len(values) - 1,
                                                                       NON_LOSS - m)))
                break
            r -= n
    return Decompositions(total, tuple(mults), tuple(amounts))


@lru_cache(maxsize=1 << 20)
def _count(values: tuple[int, ...], s: int, j: int, p: int) -> int:
    """Multisets of values[0..j] (whole units) summing to s with at most p parts."""
    if s == 0:
        return 1
    if j < 0 or s > p * values[j]:  # p parts of at most values[j] cannot reach s
        return 0
    v = values[j]
    return sum(_count(values, s - c * v, j - 1, p - c) for c in range(min(p, s // v) + 1))


def _fmt(value: Fraction) -> str:
    """A legend value as its decimal string (legend values are decimals, so this is exact)."""
    return f"{Decimal(value.numerator) / Decimal(value.denominator):f}"


def _amount_cents(value: Fraction, price_cents: int) -> int | None:
    cents = value * price_cents
    return int(cents) if cents.denominator == 1 else None


def check_structure(spec: Spec, result) -> None:
    """`poolgen check`: prove every tier of every pool can be laid out within 15 spots, 3 losses."""
    prm = params(spec)
    kept: list[int] = []
    for t in spec.tiers:
        dec = decompositions(Fraction(t.multiplier), prm.legend, prm.max_decompositions)
        if not dec.total:
            legend = ", ".join(_fmt(v) for v in prm.legend)
            result.problem("(i)", f"multiplier {t.multiplier:f} layout", "a prize of the game",
                           f"no (1 + m) x sum of legend values [{legend}] equals it within "
                           f"{NON_LOSS} non-loss spots")
        kept.append(len(dec.multipliers))
    for pool in spec.pools:
        for v in prm.legend:
            if _amount_cents(v, pool.price_cents) is None:
                result.problem("[layout]", f"legend value {_fmt(v)} at {fmt_cents(pool.price_cents)}",
                               "a prize symbol", "not whole cents")
    if kept:
        result.notes.append(f"hand_to_hand_tactics: every tier has {min(kept)}..{max(kept)} "
                            f"decompositions (at most {prm.max_decompositions} kept per tier)")


@lru_cache(maxsize=512)
def _tier_units(target: Fraction, legend: tuple[Fraction, ...], cap: int) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per kept decomposition: k wins, m multipliers, and the win amounts (left-aligned) as whole
    multiples of 1/unit of the denomination; and unit. The same for every denomination."""
    dec = decompositions(target, legend, cap)
    unit = math.lcm(*(v.denominator for v in legend))
    n = len(dec.multipliers)
    k = np.zeros(n, dtype=np.int64)
    units = np.zeros((n, NON_LOSS), dtype=np.int64)
    to_units = {v: int(v * unit) for v in legend}
    for i, amounts in enumerate(dec.amounts):
        k[i] = len(amounts)
        units[i, :len(amounts)] = [to_units[v] for v in amounts]
    m = np.asarray(dec.multipliers, dtype=np.int64)
    for a in (k, m, units):
        a.flags.writeable = False  # cached: shared between calls
    return k, m, units, unit


def _tier_table(target: Fraction, legend: tuple[Fraction, ...], cap: int,
                price_cents: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per kept decomposition: k wins, m multipliers, and the win amounts in cents (left-aligned).

    The caller has checked that every legend value is whole cents at this price, so every amount
    units x price / unit is a whole number of cents.
    """
    k, m, units, unit = _tier_units(target, legend, cap)
    return k, m, units * price_cents // unit


def _shuffle_prefix(stream: Stream, items: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Each row's first length[r] items in a uniformly random order; the rest stay behind them.

    Rows are taken in groups of equal length L = 2, 3, ... (each group in row order), and each
    group gets `row_permutations(stream, rows, L)`.
    """
    out = items.copy()
    width = items.shape[1]
    # lengths are at most `width` (< 256): a stable sort of uint8 keys is numpy's radix sort
    by_length = np.argsort(length.astype(np.uint8), kind="stable")
    bounds = np.searchsorted(length[by_length], np.arange(width + 2))
    flat_in, flat_out = items.reshape(-1), out.reshape(-1)  # views: row r, item j at r * width + j
    for size in range(2, width + 1):
        rows = by_length[bounds[size]:bounds[size + 1]]
        if rows.size:
            perm = row_permutations(stream, rows.size, size)
            start = (rows * width)[:, None]
            flat_out[(start + np.arange(size)).ravel()] = flat_in[(start + perm).ravel()]
    return out


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The outcome and amount columns of every share (contract: specs/hand_to_hand_tactics.md)."""
    prm = params(spec)
    tiers = np.asarray(tiers, dtype=np.int64)
    n = tiers.size
    price = pool.price_cents
    for v in prm.legend:
        if _amount_cents(v, price) is None:
            raise SpecError(f"{spec.path.name}: layout.legend: {_fmt(v)} x {fmt_cents(price)} "
                            "is not whole cents")

    # 1. Whether spot 0 is a loss: one draw per share, the same law for winners and losers.
    f = integers(stream, prm.first_spot_loss.denominator, size=n) < prm.first_spot_loss.numerator
    fi = f.astype(np.int64)

    # 2. Winners: a decomposition drawn uniformly from the tier's kept list.
    k = np.zeros(n, dtype=np.int64)
    m = np.zeros(n, dtype=np.int64)
    amounts = np.zeros((n, NON_LOSS), dtype=np.int64)
    by_tier = np.argsort(tiers, kind="stable")  # shares of each tier, in pool order
    bounds = np.concatenate([[0], np.cumsum(np.bincount(tiers, minlength=len(pool.tiers)))])
    for t in range(1, len(pool.tiers)):
        rows = by_tier[bounds[t]:bounds[t + 1]]
        if not rows.size:
            continue
        tier = pool.tiers[t]
        target = Fraction(tier.prize_cents, price)
        if not decompositions(target, prm.legend, prm.max_decompositions).total:
            raise SpecError(f"{spec.path.name}: layout.legend: tier {tier.id} "
                            f"({fmt_cents(tier.prize_cents)}) cannot be laid out")
        dk, dm, dc = _tier_table(target, prm.legend, prm.max_decompositions, price)
        pick = integers(stream, len(dk), size=rows.size)
        k[rows], m[rows], amounts[rows] = dk[pick], dm[pick], dc[pick]

    # 3. The number of non-loss spots N (the game lasts N + 3 spots).
    lo = np.maximum(k + m, 1 - fi)
    count = lo + integers(stream, NON_LOSS - lo + 1)

    # 4. Losers: some multipliers (they pay nothing without a win), the rest ties.
    losers = by_tier[:bounds[1]]
    m[losers] = integers(stream, np.minimum(count[losers], prm.loser_max_multipliers) + 1)

    # 5. The non-loss items, in a random order: wins (with cents), multipliers, ties.
    col = np.arange(NON_LOSS)
    kk, mm, nn = k[:, None], (k + m)[:, None], count[:, None]
    items = np.where(col < kk, WIN | (amounts << _CODE_BITS),
                     np.where(col < mm, MULTIPLIER, np.where(col < nn, TIE, UNPLAYED)))
    items = _shuffle_prefix(stream, items, count)

    # 6. Spots 1 .. N+1: if spot 0 is a loss, all N items and one loss; otherwise the items after
    #    the first (which goes to spot 0) and two losses; in a random order.
    shifted = np.where(f[:, None], items, np.concatenate(
        [items[:, 1:], np.zeros((n, 1), dtype=np.int64)], axis=1))
    middle = np.concatenate([shifted, np.zeros((n, 1), dtype=np.int64)], axis=1)
    mcol = np.arange(NON_LOSS + 1)
    middle[(mcol >= nn - (1 - fi[:, None])) & (mcol <= nn)] = LOSE
    middle = _shuffle_prefix(stream, middle, count + 1)

    out = np.zeros((n, SPOTS), dtype=np.int64)
    out[:, 0] = np.where(f, LOSE, items[:, 0])
    out[:, 1:NON_LOSS + 2] = middle
    out[np.arange(n), count + 2] = LOSE  # the third loss ends the game

    codes = (out & ((1 << _CODE_BITS) - 1)).astype(np.uint8)
    cents = out >> _CODE_BITS
    # No check here: `poolgen.generate.self_check` re-evaluates every share with audit's independent
    # rules engine (legality and prize) before a pool is written.
    columns: dict[str, np.ndarray] = {}
    for i in range(SPOTS):
        columns[f"spot_{i}"] = np.ascontiguousarray(codes[:, i])
    for i in range(SPOTS):
        columns[f"amt_{i}"] = np.ascontiguousarray(cents[:, i])
    return columns

