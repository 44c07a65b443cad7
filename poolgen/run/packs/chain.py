"""The Metropolis chain for pack parameters beyond winners (docs/randomness.md, section 5).

State: the pool's tier sequence. A move swaps the tickets at two uniformly drawn positions of
different packs (positions i, j from `integers(stream, n)`, in batches of BATCH pairs). The
proposal is symmetric, so accepting exactly the moves that keep every pack valid leaves the uniform
distribution over valid sequences stationary; moves inside a pack are left to the final order step
(`composition.ordered`), a Gibbs step that keeps it stationary too.

1. Descent (only when the start breaks a parameter): i in a pack that breaks one (a uniform pack
   of those breaking at the batch's start, a uniform ticket in it), j anywhere; a move is kept when
   it does not increase the two packs' shortfall; a batch (at most n proposals) ends early when the
   shortfall of the packs that broke a parameter at its start reaches 0. This only finds a valid
   start.
2. Mixing: MIX_SWEEPS x n proposals from the valid start, each kept iff both packs stay valid.
The result is approximately, not exactly, uniform: the distance after MIX_SWEEPS sweeps is measured
in tests/poolgen/run/test_packs_uniform.py.
"""

from __future__ import annotations

import numpy as np

from poolgen.rng import Stream, integers
from poolgen.run.packs.composition import Rules

__all__ = ["BATCH", "DESCENT_SWEEPS", "MIX_SWEEPS", "NoArrangement", "broken", "mix", "valid_start"]

BATCH = 65_536
MIX_SWEEPS = 12  # proposals per ticket after the descent (6 until 2026-12-02: docs/randomness.md 5.3)
DESCENT_SWEEPS = 200  # the descent gives up (an error) after this many proposals per ticket


class NoArrangement(RuntimeError):
    """The descent found no sequence meeting every parameter; `short` names what packs still break."""

    def __init__(self, why: str, short: list[str]) -> None:
        super().__init__(why)
        self.short = short


class _State:
    """Per-pack figures of a sequence, updated move by move."""

    def __init__(self, rules: Rules, labels: list[int]) -> None:
        self.r = rules
        self.labels = labels
        m, tiers = rules.m, len(rules.counts)
        self.win = [1 if t else 0 for t in range(tiers)]
        self.caps = [[c for c, (ts, _) in enumerate(rules.caps) if t in ts] for t in range(tiers)]
        self.spaced = [[(ts, d) for ts, d in rules.spacing if t in ts] for t in range(tiers)]
        unit = min((p for p in rules.prizes if p > 0), default=1)
        self.unit = unit
        self.w = [0] * rules.books
        self.v = [0] * rules.books
        self.c = [[0] * len(rules.caps) for _ in range(rules.books)]
        self.conf = [0] * rules.books
        for p, t in enumerate(labels):
            b = p // m
            self.w[b] += self.win[t]
            self.v[b] += rules.prizes[t]
            for c in self.caps[t]:
                self.c[b][c] += 1
        for p, t in enumerate(labels):
            if self.spaced[t]:  # a tier of no spacing rule has no conflicts: not called a million times
                self.conf[p // m] += self.conflicts(p, t)
        for b in range(rules.books):
            self.conf[b] //= 2  # each pair was counted from both ends

    def conflicts(self, p: int, t: int) -> int:
        """Tickets of p's pack within a spacing rule's distance of p that break it with tier t at p."""
        found = 0
        m = self.r.m
        start = p - p % m
        for ts, d in self.spaced[t]:
            for q in range(max(start, p - d + 1), min(start + m, p + d)):
                if q != p and self.labels[q] in ts:
                    found += 1
        return found

    def shortfall(self, w: int, v: int, counts: list[int], conf: int) -> int:
        r = self.r
        out = max(0, r.lo - w) + max(0, w - r.hi) + conf
        if r.min_cents is not None and v < r.min_cents:
            out += -(-(r.min_cents - v) // self.unit)
        for c, (_, most) in enumerate(r.caps):
            out += max(0, counts[c] - most)
        return out

    def of(self, b: int) -> int:
        return self.shortfall(self.w[b], self.v[b], self.c[b], self.conf[b])

    def move(self, i: int, j: int, keep_valid: bool) -> bool:
        """Swap positions i and j (different packs) if the rule allows; whether it did."""
        li, lj = self.labels[i], self.labels[j]
        if li == lj:
            return False
        m = self.r.m
        bi, bj = i // m, j // m
        dw, dv = self.win[lj] - self.win[li], self.r.prizes[lj] - self.r.prizes[li]
        ci, cj = list(self.c[bi]), list(self.c[bj])
        for c in self.caps[li]:
            ci[c] -= 1
            cj[c] += 1
        for c in self.caps[lj]:
            ci[c] += 1
            cj[c] -= 1
        fi, fj = self.conf[bi], self.conf[bj]
        if self.r.spacing:
            fi -= self.conflicts(i, li)
            fj -= self.conflicts(j, lj)
            self.labels[i], self.labels[j] = lj, li
            fi += self.conflicts(i, lj)
            fj += self.conflicts(j, li)
            self.labels[i], self.labels[j] = li, lj
        new_i = self.shortfall(self.w[bi] + dw, self.v[bi] + dv, ci, fi)
        new_j = self.shortfall(self.w[bj] - dw, self.v[bj] - dv, cj, fj)
        if keep_valid:
            if new_i or new_j:
                return False
        elif new_i + new_j > self.of(bi) + self.of(bj):
            return False
        self.labels[i], self.labels[j] = lj, li
        self.w[bi] += dw
        self.w[bj] -= dw
        self.v[bi] += dv
        self.v[bj] -= dv
        self.c[bi], self.c[bj], self.conf[bi], self.conf[bj] = ci, cj, fi, fj
        return True


def _descend(stream: Stream, s: _State, starts: int = 1) -> None:
    r = s.r
    n = r.books * r.m
    budget = DESCENT_SWEEPS * n
    while True:
        bad = [b for b in range(r.books) if s.of(b)]
        if not bad:
            return
        if budget <= 0:
            each = f" from each of {starts} starts" if starts > 1 else ""
            raise NoArrangement(f"no arrangement meeting the pack parameters found after {DESCENT_SWEEPS} "
                                f"proposals per ticket{each} ({len(bad):,} packs still short)",
                                broken(s, bad))
        k = min(BATCH, budget, n)
        budget -= k
        pack = integers(stream, len(bad), size=k).tolist()
        at = integers(stream, r.m, size=k).tolist()
        other = integers(stream, n, size=k).tolist()
        short = sum(s.of(b) for b in bad)
        for b, a, j in zip(pack, at, other, strict=True):
            i = bad[b] * r.m + a
            if i // r.m != j // r.m:
                before = s.of(i // r.m) + s.of(j // r.m)
                if s.move(i, j, keep_valid=False):
                    short += s.of(i // r.m) + s.of(j // r.m) - before
                    if short <= 0:
                        break


def broken(s: _State, packs: list[int]) -> list[str]:
    """Which parameters (by name) the given packs break."""
    r, out = s.r, []
    if any(s.w[b] < r.lo for b in packs):
        out.append("min_winners")
    if any(s.w[b] > r.hi for b in packs):
        out.append("max_winners")
    if r.min_cents is not None and any(s.v[b] < r.min_cents for b in packs):
        out.append("min_prize_value")
    out += [f"caps[{c}]" for c, (_, most) in enumerate(r.caps) if any(s.c[b][c] > most for b in packs)]
    if any(s.conf[b] for b in packs):
        out.append("spacing")
    return out


def valid_start(stream: Stream, rules: Rules, start: np.ndarray, starts: int = 1) -> np.ndarray:
    """A sequence meeting every parameter, found by the descent from `start` (NoArrangement if none
    is found; `starts`, the descents the caller allows, only words its message)."""
    s = _State(rules, start.tolist())
    _descend(stream, s, starts)
    return np.asarray(s.labels, dtype=np.int16)


def mix(stream: Stream, rules: Rules, start: np.ndarray) -> np.ndarray:
    """A valid sequence from `start` by the descent, then MIX_SWEEPS x n mixing proposals."""
    s = _State(rules, start.tolist())
    _descend(stream, s)
    n = rules.books * rules.m
    left = MIX_SWEEPS * n
    while left > 0:
        k = min(BATCH, left)
        left -= k
        _mix_batch(s, integers(stream, n, size=2 * k).tolist())
    return np.asarray(s.labels, dtype=np.int16)


def _mix_batch(s: _State, pairs: list[int]) -> None:
    """`s.move(i, j, keep_valid=True)` for each pair (i, j) of `pairs` in different packs, in order,
    with the same result move by move, in one loop without copies (a full pool makes millions).

    Every pack is valid before each move (the descent ended with none short, and a move is kept only
    if both packs stay valid), so every shortfall term is 0 (conflicts included: `conf` counts them
    exactly), and the swap is kept iff no term of packs i and j becomes positive after it: winners
    within [lo, hi], value at least the floor, no cap it raises above its limit, and no ticket of the
    same pack within a spacing rule's distance of the new label (the other position is in another
    pack, so it does not matter that its label is not yet swapped). The cheapest terms are tested first."""
    r = s.r
    m, lo, hi = r.m, r.lo, r.hi
    floor = -1 if r.min_cents is None else r.min_cents  # -1: a pack's value is a sum of prizes, never < 0
    labels, w, v, counts = s.labels, s.w, s.v, s.c
    most = [at_most for _, at_most in r.caps]
    tiers = range(len(r.counts))
    # what a swap of labels li (at i) and lj (at j) changes, by table[li][lj]: winners and value of pack i
    # (pack j's change the other way), the caps pack i gains (in lj's caps, not li's) and those pack j
    # gains, the spacing rules of lj (at i) and of li (at j), and the change of each cap's count in pack i
    table = [[(s.win[lj] - s.win[li], r.prizes[lj] - r.prizes[li],
               [c for c in s.caps[lj] if c not in s.caps[li]], [c for c in s.caps[li] if c not in s.caps[lj]],
               s.spaced[lj], s.spaced[li],
               [(c, (c in s.caps[lj]) - (c in s.caps[li])) for c in set(s.caps[li]) ^ set(s.caps[lj])])
              for lj in tiers] for li in tiers]
    for i, j in zip(pairs[0::2], pairs[1::2], strict=True):
        li, lj = labels[i], labels[j]
        if li == lj:
            continue
        bi, bj = i // m, j // m
        if bi == bj:
            continue
        dw, dv, gain_i, gain_j, spaced_i, spaced_j, change = table[li][lj]
        if dw:
            wi, wj = w[bi] + dw, w[bj] - dw
            if wi < lo or wi > hi or wj < lo or wj > hi:
                continue
        vi, vj = v[bi] + dv, v[bj] - dv
        if vi < floor or vj < floor:
            continue
        if change:
            ci, cj = counts[bi], counts[bj]
            if any(ci[c] >= most[c] for c in gain_i) or any(cj[c] >= most[c] for c in gain_j):
                continue
        if spaced_i and _near(labels, i, m, spaced_i) or spaced_j and _near(labels, j, m, spaced_j):
            continue
        labels[i], labels[j] = lj, li
        if dw:
            w[bi], w[bj] = wi, wj
        v[bi], v[bj] = vi, vj
        if change:
            for c, d in change:
                ci[c] += d
                cj[c] -= d


def _near(labels: list[int], p: int, m: int, rules: list[tuple[frozenset[int], int]]) -> bool:
    """Whether a ticket of p's pack other than p lies within a rule's distance of p and in its tiers."""
    start = p - p % m
    for ts, d in rules:
        for q in range(max(start, p - d + 1), min(start + m, p + d)):
            if q != p and labels[q] in ts:
                return True
    return False
