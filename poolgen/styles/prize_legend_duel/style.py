"""The `prize_legend_duel` eInstant style: a duel of play symbols over `spots` spots ending at the
`losses`-th loss; wins climb a prize legend, each multiplier symbol raises its multiplier by one.

The contract (parameters, columns, codes, legal rows, how a row pays, how shares are laid out) is
docs/styles/prize_legend_duel.md. In short: `spot_i` holds the outcome code of spot i (0 unplayed,
1 lose, 2 tie, 3 win, 4 multiplier), `amt_i` the cents a win reveals; prize = (1 + multipliers) x
sum of win amounts. Every parameter comes from the spec's [play] table (`params`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.errors import SpecError
from poolgen.game.model import CheckResult, Game, Pool
from poolgen.rng import Stream, integers, row_permutations
from poolgen.styles.prize_legend_duel.params import Params, document, read

__all__ = ["Decompositions", "check", "decompositions", "document", "lay_out", "read", "refuse_unshown",
           "unlaid"]
UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Decompositions:
    """The kept decompositions of one tier multiplier (see the contract, section 6)."""

    total: int  # how many exist
    multipliers: tuple[int, ...]  # m of each kept decomposition
    amounts: tuple[tuple[Fraction, ...], ...]  # its legend values (descending)


def decompositions(target: Fraction, legend: tuple[Fraction, ...], cap: int, non_loss: int) -> Decompositions:
    """Every way to pay `target` (in denominations): (1 + m) x sum(wins) within `non_loss` spots.

    Listed by m ascending, then by the number of copies of the largest legend value ascending,
    then of the next largest, ...; more than `cap` are thinned to the evenly spread indices
    floor(i * total / cap).
    """
    return _decompositions(Fraction(target), tuple(sorted(legend)), cap, non_loss)


@lru_cache(maxsize=512)
def _decompositions(target: Fraction, legend: tuple[Fraction, ...], cap: int,
                    non_loss: int) -> Decompositions:
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
        for m in range(non_loss):
            if goal % (1 + m) == 0:
                n = count(goal // (1 + m), len(values) - 1, non_loss - m)
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
                                                                       non_loss - m)))
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


def check(params: Params, game: Game, result: CheckResult) -> None:
    """`poolgen check`: prove every tier of every pool can be laid out within the spots and losses; a
    tier that cannot is bad input (`unlaid`, the line `generate` gives: exit 2 from both)."""
    kept: list[int] = []
    shown: set[Fraction] = set()
    for t in game.tiers:
        dec = decompositions(Fraction(t.times), params.legend, params.max_decompositions, params.non_loss)
        if not dec.total:
            raise unlaid(params, game)
        kept.append(len(dec.multipliers))
        shown.update(v for amounts in dec.amounts for v in amounts)
    refuse_unshown(params, game, shown)
    if kept:
        result.notes.append(f"{game.id}: every tier has {min(kept)}..{max(kept)} "
                            f"decompositions (at most {params.max_decompositions} kept per tier)")


def unlaid(params: Params, game: Game) -> SpecError:
    """The one line `check` and `generate` refuse a game with, naming every tier the legend cannot make
    (decompositions depend on the tier's multiplier alone: the same tiers in every pool)."""
    legend = ", ".join(_fmt(v) for v in params.legend)
    out = [t for t in game.tiers
           if not decompositions(Fraction(t.times), params.legend, params.max_decompositions,
                                 params.non_loss).total]
    return SpecError(f"{game.file}: play.legend: {len(out)} tier(s) cannot be laid out: no (1 + m) x "
                     f"sum of legend values [{legend}] within {params.non_loss} non-loss spots equals the "
                     f"multiplier of {', '.join(f'{t.id} ({t.times:f})' for t in out)}")


def refuse_unshown(params: Params, game: Game, shown: set[Fraction]) -> None:
    """A legend value no tier's kept decomposition wins is a field nothing uses: no share would ever
    reveal it (contract, section 7). `check` and `generate` refuse it, in the same line, exit 2."""
    for j, text in enumerate(params.legend_text):  # spec order: params.legend is sorted
        v = Fraction(Decimal(text))
        if v not in shown:
            raise SpecError(f"{game.file}: play.legend[{j}]: not used: no kept decomposition of any "
                            f"tier wins {_fmt(v)} (a prize symbol no share would ever reveal)")


@lru_cache(maxsize=512)
def _tier_units(target: Fraction, legend: tuple[Fraction, ...], cap: int, non_loss: int) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per kept decomposition: k wins, m multipliers, and the win amounts (left-aligned) as whole
    multiples of 1/unit of the denomination; and unit. The same for every denomination."""
    dec = decompositions(target, legend, cap, non_loss)
    unit = math.lcm(*(v.denominator for v in legend))
    n = len(dec.multipliers)
    k = np.zeros(n, dtype=np.int64)
    units = np.zeros((n, non_loss), dtype=np.int64)
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
    row k wins, m multipliers and the win amounts in cents (left-aligned, non_loss wide); and where each
    tier's rows start (tier t's rows are first[t] .. first[t + 1] - 1).

    The caller has checked that every legend value is whole cents at this price, so every amount
    units x price / unit is a whole number of cents."""
    ks, ms, cents, first = [np.zeros(1, np.int64)], [np.zeros(1, np.int64)], \
        [np.zeros((1, prm.non_loss), np.int64)], [0, 1]  # row 0: a loser (no win, no multiplier yet)
    for tier in pool.tiers[1:]:
        k, m, units, unit = _tier_units(Fraction(tier.prize_cents, price), prm.legend, prm.max_decompositions,
                                        prm.non_loss)
        ks.append(k)
        ms.append(m)
        cents.append(units * price // unit)
        first.append(first[-1] + len(k))
    return np.concatenate(ks), np.concatenate(ms), np.concatenate(cents), np.array(first)


# Items while a share is being laid out: 0 .. non_loss - 1 are its non-loss items in their original
# order (wins first, then multipliers, then ties); non_loss marks a loss, non_loss + 1 no item.


def _spot_items(f: np.ndarray, items: np.ndarray, second: np.ndarray | None, prm: Params) -> np.ndarray:
    """The spots' items of shares that all have the same number c of non-loss items.

    `items` (rows, c) is the items in their random order; `second` (rows, c + losses - 2) the random
    order of spots 1 .. c + losses - 2 (None when that is shorter than 2)."""
    rows, c = items.shape
    loss_item, no_item = prm.non_loss, prm.non_loss + 1
    loss = np.full((rows, 1), loss_item, dtype=np.uint8)
    # If spot 0 is a loss: all c items and losses - 2 losses; otherwise the first item is spot 0, and the
    # others and losses - 1 losses follow it.
    if prm.losses >= 2:
        middle = np.concatenate([items] + [loss] * (prm.losses - 2), axis=1)
        if c:
            middle = np.where(f[:, None], middle,
                              np.concatenate([items[:, 1:]] + [loss] * (prm.losses - 1), axis=1))
    else:  # losses = 1: spot 0 is never a loss (first_spot_loss is 0)
        middle = items[:, 1:]
    if second is not None:
        middle = np.take_along_axis(middle, second, axis=1)
    spots = np.full((rows, prm.spots), no_item, dtype=np.uint8)
    spots[:, 0] = np.where(f, loss_item, items[:, 0]) if c else loss_item
    end = c + prm.losses - 1  # the spot of the last loss, which ends the game
    spots[:, 1:end] = middle
    spots[:, end] = loss_item
    return spots


def lay_out(params: Params, game: Game, pool: Pool, tiers: np.ndarray,
            stream: Stream) -> dict[str, np.ndarray]:
    """The outcome and amount columns of every share (contract: docs/styles/prize_legend_duel.md)."""
    non_loss = params.non_loss
    tiers = np.asarray(tiers)
    n = tiers.size
    price = pool.price_cents  # every legend value x price is whole cents: params.read proved it
    table_k, table_m, table_cents, first_row = _decomposition_table(pool, params, price)
    refuse_unshown(params, game, {Fraction(int(c), price) for c in np.unique(table_cents) if c})

    # 1. Whether spot 0 is a loss: one draw per share, the same law for winners and losers.
    f = integers(stream, params.first_spot_loss.denominator, size=n) < params.first_spot_loss.numerator

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
            raise unlaid(params, game)
        row[rows] = first_row[t] + integers(stream, kept, size=rows.size)
    k, m = table_k[row], table_m[row]

    # 3. The number of non-loss spots N (the game lasts N + losses spots).
    lo = np.maximum(k + m, 1 - f)
    count = lo + integers(stream, non_loss - lo + 1)

    # 4. Losers: some multipliers (they pay nothing without a win), the rest ties.
    losers = by_tier[:bounds[1]]
    m[losers] = integers(stream, np.minimum(count[losers], params.loser_max_multipliers) + 1)

    # 5. Shares are laid out in groups of equal N, each group's shares in pool order: first the order
    #    of the N items, then that of spots 1 .. N + losses - 2 (groups whose length is at least 2).
    by_count = np.argsort(count.astype(np.uint8), kind="stable")  # uint8: numpy's radix sort
    edges = np.searchsorted(count[by_count], np.arange(non_loss + 2))
    groups = [by_count[edges[c]:edges[c + 1]] for c in range(non_loss + 1)]
    firsts = [row_permutations(stream, g.size, c).astype(np.uint8) if c >= 2 and g.size else
              np.zeros((g.size, c), dtype=np.uint8) for c, g in enumerate(groups)]
    items = np.empty((n, params.spots), dtype=np.uint8)
    for c, (g, first) in enumerate(zip(groups, firsts, strict=True)):
        if g.size:
            middle = c + params.losses - 2
            second = row_permutations(stream, g.size, middle) if middle >= 2 else None
            items[g] = _spot_items(f[g], first, second, params)

    # 6. Items to outcome codes and cents: item j < k is a win, j < k + m a multiplier, any other a tie.
    #    code_of[item, k, k + m] is looked up in one flat table.
    loss_item, no_item = non_loss, non_loss + 1
    j, kk, kkmm = np.ogrid[:no_item + 1, :non_loss + 1, :non_loss + 1]
    code_of = np.select([j == no_item, j == loss_item, j < kk, j < kkmm], [UNPLAYED, LOSE, WIN, MULTIPLIER],
                        TIE).astype(np.uint8).reshape(-1)
    km_index = (k * (non_loss + 1) + k + m).astype(np.int32)  # the (k, k + m) part of a table index
    k8 = k.astype(np.uint8)
    columns: dict[str, np.ndarray] = {}
    amounts: list[np.ndarray] = []
    for i in range(params.spots):
        item = np.ascontiguousarray(items[:, i])
        columns[f"spot_{i}"] = code_of[item.astype(np.int32) * (non_loss + 1) ** 2 + km_index]
        win = item < k8
        cents = np.zeros(n, dtype=np.int64)
        cents[win] = table_cents[row[win], item[win]]
        amounts.append(cents)
    # No check here: `poolgen.run.generate.self_check` re-evaluates every share with audit's independent
    # engine (legality and prize) before a pool is written.
    for i, cents in enumerate(amounts):
        columns[f"amt_{i}"] = cents
    return columns
