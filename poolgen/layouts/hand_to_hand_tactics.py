"""Hand to Hand Tactics (K.A.R. 111-23-22): outcome layouts of 15 play spots ending at the third loss.

The contract (columns, codes, legal rows, how a row pays) is `specs/hand_to_hand_tactics.md`.
In short: `spot_i` holds the outcome code of spot i (0 unplayed, 1 lose, 2 tie, 3 win,
4 multiplier), `amt_i` the cents a win reveals; prize = (1 + multipliers) x sum of win amounts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.errors import SpecError
from poolgen.limits import bounded_decimal
from poolgen.money import fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.spec import Pool, Spec

__all__ = ["Decompositions", "Params", "check_structure", "decompositions", "lay_out", "params"]

SPOTS = 15
MAX_LOSSES = 3
NON_LOSS = SPOTS - MAX_LOSSES  # at most 12 spots of a share are not losses

UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4
# first_spot_loss: "p/q" or a plain decimal, at most 12 digits a part (no exponent: Fraction("1e-999999999")
# would build a billion-digit integer).
MAX_LEGEND = 64  # the game has 14; the decomposition count recurses once per value
_FRACTION = re.compile(r"^\s*(\d{1,12}\s*/\s*\d{1,12}|\d{1,12}(\.\d{1,12})?|\.\d{1,12})\s*$")


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
    if len(raw) > MAX_LEGEND:
        raise fail("legend", f"{len(raw)} values; at most {MAX_LEGEND}")
    legend: list[Fraction] = []
    for v in raw:
        if not isinstance(v, str):
            raise fail("legend", f"values are decimal strings such as \"0.5\", not {v!r}")
        try:
            d = bounded_decimal(v)
        except ValueError as exc:
            raise fail("legend", str(exc)) from None
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
        if not isinstance(p, str) or not _FRACTION.match(p):
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


def _decomposition_table(pool: Pool, prm: Params, price: int) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every winning tier's kept decompositions stacked in tier order, after a row 0 for losers: per
    row k wins, m multipliers and the win amounts in cents (left-aligned, 12 wide); and where each
    tier's rows start (tier t's rows are first[t] .. first[t + 1] - 1).

    The caller has checked that every legend value is whole cents at this price, so every amount
    units x price / unit is a whole number of cents."""
    ks, ms, cents, first = [np.zeros(1, np.int64)], [np.zeros(1, np.int64)], \
        [np.zeros((1, NON_LOSS), np.int64)], [0, 1]  # row 0: a loser (no win, no multiplier yet)
    for tier in pool.tiers[1:]:
        k, m, units, unit = _tier_units(Fraction(tier.prize_cents, price), prm.legend, prm.max_decompositions)
        ks.append(k)
        ms.append(m)
        cents.append(units * price // unit)
        first.append(first[-1] + len(k))
    return np.concatenate(ks), np.concatenate(ms), np.concatenate(cents), np.array(first)


# Items while a share is being laid out: 0 .. 11 are its non-loss items in their original order
# (wins first, then multipliers, then ties), and two markers.
_LOSS_ITEM, _NO_ITEM = NON_LOSS, NON_LOSS + 1


def _spot_items(f: np.ndarray, items: np.ndarray, second: np.ndarray | None) -> np.ndarray:
    """The 15 spots' items of shares that all have the same number c of non-loss items.

    `items` (rows, c) is the items in their random order; `second` (rows, c + 1) the random order of
    spots 1 .. c + 1 (None when c + 1 < 2)."""
    rows, c = items.shape
    loss = np.full((rows, 1), _LOSS_ITEM, dtype=np.uint8)
    # If spot 0 is a loss: all c items and one loss; otherwise the first item is spot 0, and the others
    # and two losses follow it.
    middle = np.concatenate([items, loss], axis=1)
    if c:
        middle = np.where(f[:, None], middle, np.concatenate([items[:, 1:], loss, loss], axis=1))
    if second is not None:
        middle = np.take_along_axis(middle, second, axis=1)
    spots = np.full((rows, SPOTS), _NO_ITEM, dtype=np.uint8)
    spots[:, 0] = np.where(f, _LOSS_ITEM, items[:, 0]) if c else _LOSS_ITEM
    spots[:, 1:c + 2] = middle
    spots[:, c + 2] = _LOSS_ITEM  # the third loss ends the game
    return spots


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The outcome and amount columns of every share (contract: specs/hand_to_hand_tactics.md)."""
    prm = params(spec)
    tiers = np.asarray(tiers)
    n = tiers.size
    price = pool.price_cents
    for v in prm.legend:
        if _amount_cents(v, price) is None:
            raise SpecError(f"{spec.path.name}: layout.legend: {_fmt(v)} x {fmt_cents(price)} "
                            "is not whole cents")
    table_k, table_m, table_cents, first_row = _decomposition_table(pool, prm, price)

    # 1. Whether spot 0 is a loss: one draw per share, the same law for winners and losers.
    f = integers(stream, prm.first_spot_loss.denominator, size=n) < prm.first_spot_loss.numerator

    # 2. Winners: a decomposition drawn uniformly from the tier's kept list (`row`: its row in the
    #    stacked table; losers keep row 0).
    row = np.zeros(n, dtype=np.int64)
    by_tier = np.argsort(tiers, kind="stable")  # shares of each tier, in pool order
    bounds = np.concatenate([[0], np.cumsum(np.bincount(tiers, minlength=len(pool.tiers)))])
    for t in range(1, len(pool.tiers)):
        rows = by_tier[bounds[t]:bounds[t + 1]]
        if not rows.size:
            continue
        kept = first_row[t + 1] - first_row[t]
        if not kept:
            tier = pool.tiers[t]
            raise SpecError(f"{spec.path.name}: layout.legend: tier {tier.id} "
                            f"({fmt_cents(tier.prize_cents)}) cannot be laid out")
        row[rows] = first_row[t] + integers(stream, kept, size=rows.size)
    k, m = table_k[row], table_m[row]

    # 3. The number of non-loss spots N (the game lasts N + 3 spots).
    lo = np.maximum(k + m, 1 - f)
    count = lo + integers(stream, NON_LOSS - lo + 1)

    # 4. Losers: some multipliers (they pay nothing without a win), the rest ties.
    losers = by_tier[:bounds[1]]
    m[losers] = integers(stream, np.minimum(count[losers], prm.loser_max_multipliers) + 1)

    # 5. Shares are laid out in groups of equal N, each group's shares in pool order: first the order
    #    of the N items (groups N = 2 .. 12), then that of spots 1 .. N + 1 (groups N + 1 = 2 .. 13).
    by_count = np.argsort(count.astype(np.uint8), kind="stable")  # uint8: numpy's radix sort
    edges = np.searchsorted(count[by_count], np.arange(NON_LOSS + 2))
    groups = [by_count[edges[c]:edges[c + 1]] for c in range(NON_LOSS + 1)]
    firsts = [row_permutations(stream, g.size, c).astype(np.uint8) if c >= 2 and g.size else
              np.zeros((g.size, c), dtype=np.uint8) for c, g in enumerate(groups)]
    items = np.empty((n, SPOTS), dtype=np.uint8)
    for c, (g, first) in enumerate(zip(groups, firsts, strict=True)):
        if g.size:
            items[g] = _spot_items(f[g], first, row_permutations(stream, g.size, c + 1) if c else None)

    # 6. Items to outcome codes and cents: item j < k is a win, j < k + m a multiplier, any other a tie.
    #    code_of[item, k, k + m] is looked up in one table (k + m <= 12 < 13).
    j, kk, kkmm = np.ogrid[:_NO_ITEM + 1, :NON_LOSS + 1, :NON_LOSS + 1]
    code_of = np.select([j == _NO_ITEM, j == _LOSS_ITEM, j < kk, j < kkmm], [UNPLAYED, LOSE, WIN, MULTIPLIER],
                        TIE).astype(np.uint8).reshape(-1)
    km_index = (k * (NON_LOSS + 1) + k + m).astype(np.uint16)  # the (k, k + m) part of a table index
    k8 = k.astype(np.uint8)
    columns: dict[str, np.ndarray] = {}
    amounts: list[np.ndarray] = []
    for i in range(SPOTS):
        item = np.ascontiguousarray(items[:, i])
        columns[f"spot_{i}"] = code_of[item.astype(np.uint16) * (NON_LOSS + 1) ** 2 + km_index]
        win = item < k8
        cents = np.zeros(n, dtype=np.int64)
        cents[win] = table_cents[row[win], item[win]]
        amounts.append(cents)
    # No check here: `poolgen.generate.self_check` re-evaluates every share with audit's independent
    # rules engine (legality and prize) before a pool is written.
    for i, cents in enumerate(amounts):
        columns[f"amt_{i}"] = cents
    return columns
