"""A printed pool's tier order under pack parameters (docs/randomness.md, section 5).

Without composition parameters the pool is the plain shuffle of poolgen/run/build.py (unchanged).
With them, the target is the uniform distribution over the tier sequences that meet every parameter:

- winners per pack only (`min_winners`, `max_winners`): exact. The winners per pack W_1..W_B are
  drawn with P(W) proportional to prod C(m, W_b) on [lo, hi] with sum W_b = W (every valid sequence
  counted once) by exact probabilistic divide-and-conquer: W_1..W_{B-1} independent with integer
  weights C(m, w) a^w b^(hi-w) (a tilt a/b, `tilt`, that only changes the speed), W_B the rest,
  accepted with probability weight(W_B) / max weight; then the winners' tiers a uniform permutation over the
  winner slots in book order, and each pack's order a uniform permutation (`arrange_winners`).
- one cap, or one spacing rule, or a cap of one beside a second rule, beside winners bounds: exact
  (capped.py, spaced.py, beside.py);
- any other parameter (prize value, several caps or spacing rules): a Metropolis chain on the sequence whose
  stationary law is that uniform distribution (poolgen/run/packs/chain.py), then each pack's order
  re-drawn uniformly among the orders that meet the spacing rules (`ordered`).
All from the pool's "order" stream; `poolgen.run.packs.arrange` chooses between them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.game.model import Game, Pool, Printed
from poolgen.game.packs import Packs
from poolgen.rng import Stream, Weights, big_integers, permutation, row_permutations

__all__ = ["Rules", "arrange_winners", "in_tiers", "ordered", "ordered_within", "pack_size", "rules_for",
           "spacing_ok", "tilt", "winners_per_pack"]


@dataclass(frozen=True)
class Rules:
    """A pool's pack parameters by tier index (0 = losers)."""

    m: int  # tickets per pack
    books: int
    counts: tuple[int, ...]  # per tier index
    prizes: tuple[int, ...]  # cents per tier index
    lo: int
    hi: int
    min_cents: int | None
    caps: tuple[tuple[frozenset[int], int], ...]
    spacing: tuple[tuple[frozenset[int], int], ...]

    @property
    def winners_only(self) -> bool:
        return self.min_cents is None and not self.caps and not self.spacing


def pack_size(game: Game) -> int | None:
    """Tickets per pack: a printed game's book, an eInstant's block of serials (None: no blocks)."""
    return game.sales.tickets_per_book if isinstance(game.sales, Printed) else game.packs.block


def rules_for(game: Game, pool: Pool) -> Rules | None:
    """The pool's rules, or None when no parameter constrains its tier order."""
    m = pack_size(game)
    if m is None or not game.packs.composition:
        return None
    p: Packs = game.packs
    index = {t.id: i for i, t in enumerate(pool.tiers)}
    return Rules(m=m, books=pool.tickets // m, counts=tuple(t.count for t in pool.tiers),
                 prizes=tuple(t.prize_cents for t in pool.tiers),
                 lo=p.min_winners or 0, hi=m if p.max_winners is None else p.max_winners,
                 min_cents=p.floor_cents(pool.price_cents),
                 caps=tuple((frozenset(index[t] for t in c.tiers), c.at_most) for c in p.caps),
                 spacing=tuple((frozenset(index[t] for t in s.tiers), s.min_distance) for s in p.spacing))


TILT_BITS = 20  # the tilt is u / 2**TILT_BITS for a whole u


@lru_cache(maxsize=256)
def tilt(m: int, books: int, total: int, lo: int, hi: int) -> Fraction:
    """The tilt x = u / 2**TILT_BITS, u the largest whole number (at least 1) with the mean of
    C(m, w) x^w on [lo, hi] at most total / books: found by bisection in exact integer arithmetic
    (no floating point, so every engine finds the same u). It changes only the speed. (Remembered, as
    `_winners_table`: 5.10 draws it several times a try, small pools thousands of times.)"""
    # the sign of sum over w of (w books - total) C(m, w) u^w 2^(TILT_BITS (hi - w)), by Horner's rule
    coef = [((w * books - total) * math.comb(m, w)) << (TILT_BITS * (hi - w)) for w in range(lo, hi + 1)]

    def above(u: int) -> bool:  # whether the mean at u / 2**TILT_BITS exceeds total / books
        acc = 0
        for c in reversed(coef):  # acc = sum of coef[w - lo] u^(w - lo), highest power first
            acc = acc * u + c
        return acc > 0

    low, high = 1, 1 << 62
    if above(low):
        return Fraction(1, 1 << TILT_BITS)
    while high - low > 1:  # above(low) is false; above(high) is true or high is the cap
        mid = (low + high) // 2
        low, high = (low, mid) if above(mid) else (mid, high)
    return Fraction(low, 1 << TILT_BITS)


def winners_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int) -> list[int]:
    """W_1..W_B with P proportional to prod C(m, W_b), lo <= W_b <= hi, sum = total (exact)."""
    if books * lo == total:
        return [lo] * books
    if books * hi == total:
        return [hi] * books
    weight, top, table = _winners_table(m, books, total, lo, hi)
    while True:
        draws = [lo + i for i in table.picks(stream, books - 1)]
        last = total - sum(draws)
        if lo <= last <= hi and big_integers(stream, top, 1)[0] < weight[last - lo]:
            return [*draws, last]


@lru_cache(maxsize=256)
def _winners_table(m: int, books: int, total: int, lo: int, hi: int) -> tuple[list[int], int, Weights]:
    """`winners_per_pack`'s tilted weights C(m, w) a^w b^(hi - w) on [lo, hi], their largest, and the
    table drawing by them (pure: remembered; nothing changes them)."""
    x = tilt(m, books, total, lo, hi)
    a, b = x.numerator, x.denominator
    weight = [math.comb(m, w) * a**w * b**(hi - w) for w in range(lo, hi + 1)]
    return weight, max(weight), Weights(weight)


def _winner_content(stream: Stream, rules: Rules, per_pack: list[int]) -> np.ndarray:
    """(books, m): each pack's winners' tiers first (a uniform permutation of all winners' tiers in
    pack order), then its losers."""
    labels = np.repeat(np.arange(len(rules.counts), dtype=np.int16)[1:], rules.counts[1:])
    labels = labels[permutation(stream, labels.size)]
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    content[np.arange(rules.m)[None, :] < np.asarray(per_pack)[:, None]] = labels
    return content


def in_tiers(rules: Rules, tiers: frozenset[int]) -> np.ndarray:
    """Whether each tier index of the pool is in `tiers` (`np.isin` for a handful of tiers without its
    cost, paid once a draw: small pools are drawn thousands of times)."""
    return np.array([i in tiers for i in range(len(rules.counts))], dtype=bool)


def spacing_ok(rules: Rules, packs: np.ndarray) -> np.ndarray:
    """Per pack (a row of tier indices in print order): whether it meets every spacing rule."""
    ok = np.ones(packs.shape[0], dtype=bool)
    for tiers, distance in rules.spacing:
        inset = np.isin(packs, list(tiers))
        for k in range(1, min(distance, packs.shape[1])):
            ok &= ~(inset[:, k:] & inset[:, :-k]).any(axis=1)
    return ok


def ordered(stream: Stream, rules: Rules, content: np.ndarray, spaced: bool = True) -> np.ndarray:
    """Each pack's tickets in a uniform order among those meeting the spacing rules (rejection,
    pack by pack: packs still failing are redrawn together, in pack order); with `spaced` False, in
    a uniform order. Every pack's content must have an order meeting the rules."""
    if not spaced:
        out: np.ndarray = np.take_along_axis(content, row_permutations(stream, rules.books, rules.m), axis=1)
        return out
    out, _ = ordered_within(stream, rules, content, None)
    return out


def ordered_within(stream: Stream, rules: Rules, content: np.ndarray,
                   rounds: int | None) -> tuple[np.ndarray, np.ndarray]:
    """`ordered`'s rejection for at most `rounds` redraws after the first order (None: until every
    pack meets the spacing rules): the orders, and the packs still breaking a rule (each in a uniform
    order of its own)."""
    out = np.take_along_axis(content, row_permutations(stream, rules.books, rules.m), axis=1)
    bad = np.flatnonzero(~spacing_ok(rules, out))
    done = 0
    while bad.size and (rounds is None or done < rounds):
        out[bad] = np.take_along_axis(content[bad], row_permutations(stream, bad.size, rules.m), axis=1)
        bad = bad[~spacing_ok(rules, out[bad])]
        done += 1
    return out, bad


def arrange_winners(stream: Stream, rules: Rules, spaced: bool = True) -> np.ndarray:
    """The exact draw under min/max winners only, as (books, m) tier indices (`spaced` False: the
    chain's start, whose orders ignore the spacing rules)."""
    per_pack = winners_per_pack(stream, rules.m, rules.books, sum(rules.counts[1:]), rules.lo, rules.hi)
    return ordered(stream, rules, _winner_content(stream, rules, per_pack), spaced)
