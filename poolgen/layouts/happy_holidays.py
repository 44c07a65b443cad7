"""Happy Holidays (K.A.R. 111-4-3836): six prize symbols, three identical ones win that amount.

The layout contract is `specs/happy_holidays.md`. In short: columns `spot_0` .. `spot_5` (uint8)
hold symbol codes 0..5 (FREE, $1.00, $2.00, $5.00, 20.00, $100: the spec's order). A winner shows
its symbol exactly three times plus a decoy pair and single (`3+2+1`) or three decoy singles
(`3+1+1+1`); a loser shows `2+2+2` or `2+2+1+1`. Half of every tier (and of the losers) has each
shape, so the number of distinct symbols (3 or 4) is independent of win/lose, and the losers'
symbols are drawn so that every symbol's average count on a ticket equals the winners', which
makes the symbol in any one spot independent of win/lose.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from poolgen.errors import SpecError
from poolgen.rng import Stream, integers, permutation, row_permutations
from poolgen.spec import Pool, Spec

__all__ = ["CODES", "SPOTS", "check_structure", "lay_out", "symbol_values"]

CODES = ("FREE", "1", "2", "5", "20", "100")  # spot code i shows spec symbol CODES[i]
SPOTS = 6
_ONE = 1 << 32  # inclusion probabilities are fixed-point multiples of 2**-32


def _codes(spec: Spec) -> tuple[str, ...]:
    codes = tuple(s.code for s in spec.symbols_in("prize"))
    if codes != CODES or len(spec.symbols) != len(CODES):
        raise SpecError(f"{spec.path.name}: symbols: happy_holidays layouts need exactly the prize "
                        f"symbols {', '.join(CODES)} in that order, got {', '.join(codes)}")
    return codes


def symbol_values(spec: Spec) -> np.ndarray:
    """Value in cents of three of each spot code."""
    _codes(spec)
    return np.array([spec.symbol(c).value_cents or 0 for c in CODES], dtype=np.int64)


def _tier_symbols(spec: Spec, pool: Pool) -> np.ndarray:
    """Spot code each tier of the pool shows three times (-1 for the losing tier)."""
    by_id = {t.id: t for t in spec.tiers}
    out = np.full(len(pool.tiers), -1, dtype=np.int64)
    for i, pt in enumerate(pool.tiers[1:], start=1):
        code = by_id[pt.id].data.get("symbol")
        if code not in CODES:
            raise SpecError(f"{spec.path.name}: tiers[{i - 1}].symbol: a happy_holidays tier needs "
                            f"one prize symbol code ({', '.join(CODES)}), got {code!r}")
        out[i] = CODES.index(code)
    return out


def _half(stream: Stream, members: np.ndarray) -> np.ndarray:
    """A mask over `members`: exactly half True (a fair coin decides an odd one out)."""
    n = members.size
    half = n // 2
    if n % 2:
        half += int(integers(stream, 2, size=1)[0])
    return permutation(stream, n) < half


def _loser_inclusions(win_counts: np.ndarray, tier_symbol: np.ndarray) -> tuple[np.ndarray, ...]:
    """Fixed-point inclusion probabilities (a, b) of the losers' 3-set and 4-set."""
    winners = int(win_counts[1:].sum())
    if winners == 0:
        m = [Fraction(1)] * SPOTS
    else:
        m = [Fraction(0)] * SPOTS
        for t in range(1, len(win_counts)):
            if win_counts[t] == 0:
                continue
            w = Fraction(int(win_counts[t]), winners)
            for s in range(SPOTS):
                m[s] += w * (3 if s == tier_symbol[t] else Fraction(3, 5))
    m = _cap(m, Fraction(7, 4))
    lo = [max(Fraction(0), x - Fraction(3, 4)) for x in m]
    hi = [min(Fraction(1), x) for x in m]
    span = sum(hi) - sum(lo)
    theta = (3 - sum(lo)) / span if span else Fraction(0)
    if not 0 <= theta <= 1 or any(x < y for x, y in zip(hi, lo, strict=True)):
        raise AssertionError("capped symbol frequencies are always feasible for losers")
    a = [lo[s] + theta * (hi[s] - lo[s]) for s in range(SPOTS)]
    b = [Fraction(4, 3) * (m[s] - a[s]) for s in range(SPOTS)]
    return _fixed_point(a, 3), _fixed_point(b, 4)


def _cap(m: list[Fraction], cap: Fraction) -> list[Fraction]:
    """A loser shows a symbol at most 7/4 times on average (a + 3/4 b with a, b <= 1). If the
    winners' average is above that (never for the real pools), cap it and spread the excess over
    the other symbols in proportion to their room below the cap."""
    excess = sum(max(Fraction(0), x - cap) for x in m)
    if not excess:
        return m
    room = sum(cap - x for x in m if x < cap)
    return [cap if x >= cap else x + excess * (cap - x) / room for x in m]


def _fixed_point(probs: list[Fraction], total: int) -> np.ndarray:
    """Probabilities as integers of 2**-32 summing exactly to total * 2**32 (largest remainder)."""
    scaled = [p * _ONE for p in probs]
    out = [int(x) for x in scaled]  # floor: all are non-negative
    short = total * _ONE - sum(out)
    by_remainder = sorted(range(len(probs)), key=lambda i: (-(scaled[i] - out[i]), i))
    for i in by_remainder[:short]:
        out[i] += 1
    return np.array(out, dtype=np.int64)


def _systematic(stream: Stream, rows: int, inclusion: np.ndarray, k: int) -> np.ndarray:
    """(rows, k) sorted symbol codes: a k-set per row with the given inclusion probabilities.

    Randomised systematic sampling: the six symbols in uniformly random order, their probabilities
    laid end to end on [0, k), and the points u, u+1, ..., u+k-1 for one uniform u in [0, 1); a
    symbol is chosen when a point falls in its interval. Each probability is at most 1, so exactly k
    distinct symbols are chosen, symbol s with probability inclusion[s] / 2**32.
    """
    order = row_permutations(stream, rows, SPOTS)
    ends = np.cumsum(inclusion[order], axis=1)
    starts = ends - inclusion[order]
    u = integers(stream, _ONE, size=rows)[:, None]
    # points below x: ceil((x - u) / ONE) for x > u, else 0
    def below(x: np.ndarray) -> np.ndarray:
        return np.maximum(0, (x - u + _ONE - 1) // _ONE)
    chosen = (below(ends) - below(starts)) == 1
    picked = np.where(chosen, order, SPOTS)
    picked.sort(axis=1)
    if not np.all(picked[:, k - 1] < SPOTS) or np.any(picked[:, k:] < SPOTS):
        raise AssertionError("systematic sampling chose the wrong number of symbols")
    return picked[:, :k]


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The six spots of every ticket (contract: specs/happy_holidays.md)."""
    _codes(spec)
    tier_symbol = _tier_symbols(spec, pool)
    tiers = np.asarray(tiers, dtype=np.int64)
    n = tiers.size
    counts = np.bincount(tiers, minlength=len(pool.tiers))
    multiset = np.empty((n, SPOTS), dtype=np.int64)  # the ticket's symbols before arranging

    # Winners: X three times, then a decoy pair + single or three decoy singles.
    win_rows = np.flatnonzero(tiers > 0)
    pair = np.zeros(win_rows.size, dtype=bool)
    for t in range(1, len(pool.tiers)):
        members = np.flatnonzero(tiers[win_rows] == t)
        if members.size:
            pair[members] = _half(stream, members)
    x = tier_symbol[tiers[win_rows]]
    others = row_permutations(stream, win_rows.size, SPOTS - 1)
    others += others >= x[:, None]  # the five codes other than X, in random order
    multiset[win_rows, 0:3] = x[:, None]
    multiset[win_rows, 3:5] = others[:, 0:2]
    multiset[win_rows, 5] = np.where(pair, others[:, 0], others[:, 2])

    # Losers: 2+2+2 from a 3-set, or 2+2+1+1 from a 4-set with a random 2 of it doubled.
    lose_rows = np.flatnonzero(tiers == 0)
    triple_pair = _half(stream, lose_rows)
    a, b = _loser_inclusions(counts, tier_symbol)
    rows3 = lose_rows[triple_pair]
    rows4 = lose_rows[~triple_pair]
    s3 = _systematic(stream, rows3.size, a, 3)
    multiset[rows3] = np.repeat(s3, 2, axis=1)
    s4 = _systematic(stream, rows4.size, b, 4)
    split = row_permutations(stream, rows4.size, 4)
    s4 = np.take_along_axis(s4, split, axis=1)
    multiset[rows4] = np.concatenate([s4[:, 0:2], s4[:, 0:2], s4[:, 2:4]], axis=1)

    # Every arrangement of the six spots equally likely.
    arrange = row_permutations(stream, n, SPOTS)
    spots = np.take_along_axis(multiset, arrange, axis=1).astype(np.uint8)
    return {f"spot_{j}": np.ascontiguousarray(spots[:, j]) for j in range(SPOTS)}


def check_structure(spec: Spec, result) -> None:
    """Every tier shows one prize symbol worth its prize; the losers' decoy mix exists."""
    try:
        values = symbol_values(spec)
        pool = spec.pools[0]
        tier_symbol = _tier_symbols(spec, pool)
    except SpecError as exc:
        result.problem("layout", "symbols", "a happy_holidays spec", str(exc))
        return
    for i, pt in enumerate(pool.tiers[1:], start=1):
        shown = int(values[tier_symbol[i]])
        if shown != pt.prize_cents:
            result.problem("(i)", f"tier {pt.id}", f"prize {pt.prize_cents} cents",
                           f"three {CODES[tier_symbol[i]]} pay {shown} cents")
    counts = np.array([t.count for t in pool.tiers])
    if counts[1:].sum():
        share = np.bincount(tier_symbol[1:], weights=counts[1:], minlength=SPOTS) / counts[1:].sum()
        if (0.6 + 2.4 * share).max() > 1.75:
            result.notes.append(f"{spec.name}: layout: winners show one symbol too often for "
                                "losers to match their symbol frequencies (happy_holidays.md)")
