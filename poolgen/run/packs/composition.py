"""A printed pool's tier order under pack parameters (docs/randomness.md, section 5).

Without composition parameters the pool is the plain shuffle of poolgen/run/build.py (unchanged).
With them, the target is the uniform distribution over the tier sequences that meet every parameter:

- winners per pack only (`min_winners`, `max_winners`): exact. The winners per pack W_1..W_B are
  drawn with P(W) proportional to prod C(m, W_b) on [lo, hi] with sum W_b = W (every valid sequence
  counted once) by exact probabilistic divide-and-conquer: W_1..W_{B-1} independent with integer
  weights C(m, w) a^w b^(hi-w) (a tilt a/b that only changes the speed), W_B the rest, accepted with
  probability weight(W_B) / max weight; then the winners' tiers a uniform permutation over the
  winner slots in book order, and each pack's order a uniform permutation (`arrange_winners`).
- any other parameter (prize value, caps, spacing): a Metropolis chain on the sequence whose
  stationary law is that uniform distribution (poolgen/run/packs/chain.py), then each pack's order
  re-drawn uniformly among the orders that meet the spacing rules (`ordered`).
All from the pool's "order" stream; `poolgen.run.packs.arrange` chooses between them.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

import numpy as np

from poolgen.game.model import Game, Pool, Printed
from poolgen.rng import Stream, big_integers, permutation, row_permutations

__all__ = ["Rules", "arrange_winners", "ordered", "rules_for", "spacing_ok", "tilt", "winners_per_pack"]


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


def rules_for(game: Game, pool: Pool) -> Rules | None:
    """The pool's rules, or None when no parameter constrains its tier order."""
    if not isinstance(game.sales, Printed) or not game.packs.composition:
        return None
    p, m = game.packs, game.sales.tickets_per_book
    index = {t.id: i for i, t in enumerate(pool.tiers)}
    return Rules(m=m, books=pool.books or 0, counts=tuple(t.count for t in pool.tiers),
                 prizes=tuple(t.prize_cents for t in pool.tiers),
                 lo=p.min_winners or 0, hi=m if p.max_winners is None else p.max_winners,
                 min_cents=p.min_prize_cents,
                 caps=tuple((frozenset(index[t] for t in c.tiers), c.at_most) for c in p.caps),
                 spacing=tuple((frozenset(index[t] for t in s.tiers), s.min_distance) for s in p.spacing))


def tilt(m: int, books: int, total: int, lo: int, hi: int) -> Fraction:
    """A tilt x making the mean of C(m, w) x^w on [lo, hi] about total / books (speed only)."""
    target = total / books
    ws = range(lo, hi + 1)
    logc = [math.lgamma(m + 1) - math.lgamma(w + 1) - math.lgamma(m - w + 1) for w in ws]

    def mean(t: float) -> float:
        e = [c + w * t for c, w in zip(logc, ws, strict=True)]
        top = max(e)
        p = [math.exp(x - top) for x in e]
        return sum(w * q for w, q in zip(ws, p, strict=True)) / sum(p)

    a, b = -60.0, 60.0
    for _ in range(100):
        mid = (a + b) / 2
        a, b = (mid, b) if mean(mid) < target else (a, mid)
    return Fraction(math.exp((a + b) / 2)).limit_denominator(10**6)


def winners_per_pack(stream: Stream, m: int, books: int, total: int, lo: int, hi: int) -> list[int]:
    """W_1..W_B with P proportional to prod C(m, W_b), lo <= W_b <= hi, sum = total (exact)."""
    if books * lo == total:
        return [lo] * books
    if books * hi == total:
        return [hi] * books
    x = tilt(m, books, total, lo, hi)
    a, b = x.numerator, x.denominator
    weight = [math.comb(m, w) * a**w * b**(hi - w) for w in range(lo, hi + 1)]
    cum = list(accumulate(weight))
    top = max(weight)
    while True:
        draws = [lo + bisect_right(cum, u) for u in big_integers(stream, cum[-1], books - 1)]
        last = total - sum(draws)
        if lo <= last <= hi and big_integers(stream, top, 1)[0] < weight[last - lo]:
            return [*draws, last]


def _winner_content(stream: Stream, rules: Rules, per_pack: list[int]) -> np.ndarray:
    """(books, m): each pack's winners' tiers first (a uniform permutation of all winners' tiers in
    pack order), then its losers."""
    labels = np.repeat(np.arange(len(rules.counts), dtype=np.int16)[1:], rules.counts[1:])
    labels = labels[permutation(stream, labels.size)]
    content = np.zeros((rules.books, rules.m), dtype=np.int16)
    content[np.arange(rules.m)[None, :] < np.asarray(per_pack)[:, None]] = labels
    return content


def spacing_ok(rules: Rules, packs: np.ndarray) -> np.ndarray:
    """Per pack (a row of tier indices in print order): whether it meets every spacing rule."""
    ok = np.ones(packs.shape[0], dtype=bool)
    for tiers, distance in rules.spacing:
        inset = np.isin(packs, list(tiers))
        for k in range(1, min(distance, packs.shape[1])):
            ok &= ~(inset[:, k:] & inset[:, :-k]).any(axis=1)
    return ok


def ordered(stream: Stream, rules: Rules, content: np.ndarray) -> np.ndarray:
    """Each pack's tickets in a uniform order among those meeting the spacing rules (rejection,
    pack by pack: packs still failing are redrawn together, in pack order)."""
    out = np.take_along_axis(content, row_permutations(stream, rules.books, rules.m), axis=1)
    bad = np.flatnonzero(~spacing_ok(rules, out))
    while bad.size:
        out[bad] = np.take_along_axis(content[bad], row_permutations(stream, bad.size, rules.m), axis=1)
        bad = bad[~spacing_ok(rules, out[bad])]
    return out


def arrange_winners(stream: Stream, rules: Rules) -> np.ndarray:
    """The exact draw under min/max winners only, as (books, m) tier indices."""
    per_pack = winners_per_pack(stream, rules.m, rules.books, sum(rules.counts[1:]), rules.lo, rules.hi)
    return ordered(stream, rules, _winner_content(stream, rules, per_pack))
