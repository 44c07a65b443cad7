"""Step 8's tests of the compositions drawn by the chain of docs/randomness.md 5.3, against the exact
conditional laws of its target within pairs of packs (docs/statistics.md 1b, *Under the chain: pairs
of packs*). Written from the documents alone: no code of poolgen's.

The target is the uniform law on tier sequences in which every pack meets every parameter. A pack of
m tickets holding x_k tickets of class k (a class: one `tier` value with one `prize_cents`) has
g(x) = m! / prod_k x_k! orders, times apart(m, c, d) / C(m, c) under one spacing rule (c its held
tickets; under several, the share h of audit/stats/orders.py), and the parameters (winners bounds,
the value floor, caps, the spacing rules' fit) are
conditions on x alone. So P(x_1..x_B) is proportional to prod_b g(x_b) [x_b meets them], and given
the union u of packs 2j and 2j + 1 (j = 0..floor(B / 2) - 1) the pairs are independent, pack 2j's
composition x drawn with weight g(x) g(u - x) [both meet them]. Given further every class's split but
those of a class i and of the pool's most numerous class L (the losers), pack 2j holds s of class i
and r - s of L (r fixed), with

    q(s) proportional to C(u_i, s) C(u_L, r - s) h(c_A(s)) h(c_B(s)) [both packs meet the parameters]

on max(0, r - u_L) <= s <= min(u_i, r): exact, whatever the pool's size, for every class i. Two
statistics of class i, each a sum over the pairs where q has more than one value:

  - toward the richer pack: g_j = (the prize value of pack 2j's tickets outside i and L) minus (pack
    2j + 1's), w_j = g_j / G clipped to [-1, 1] (G the median of |g_j| over the pairs counted, at
    least 1 cent), T = sum_j w_j (s_j - E s_j), var = sum_j w_j^2 Var s_j;
  - spread: D = sum_j ((s_j - E s_j)^2 - Var s_j), var = sum_j (mu4_j - Var_j^2);

each z = T / sqrt(var) against the normal, two-sided, made with at least MIN_PAIRS pairs counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from audit.read.manifest import Tier
from audit.read.specs.packs import PackRules
from audit.stats.laws import mid_ranks, norm_sf
from audit.stats.orders import log_share
from audit.stats.pack_laws import rule_tiers
from audit.stats.tests import Finding, distinct_values

__all__ = ["MIN_PAIRS", "Pairs", "class_law", "money", "pair_findings", "pair_value_finding", "pool_pairs"]

MIN_PAIRS = 20  # fewest pairs (with more than one value of s, and g_j != 0 for the first) to make a test


def _log_comb(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    from scipy import special  # here, not with the module: start-up time, as in audit/stats/laws.py
    return np.asarray(special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1))


def _two_sided(z: float) -> float:
    return float(min(1.0, 2 * norm_sf(abs(z))))


def money(cents: int, sign: str = "$") -> str:
    """$1,234.05 (£1,234.05 in GBP, `sign`): whole units with thousands separators and always the cents
    (the pack tests' names)."""
    minus, cents = ("-", -cents) if cents < 0 else ("", cents)
    return f"{minus}{sign}{cents // 100:,}.{cents % 100:02d}"


def _classes(prize: np.ndarray, tier: np.ndarray) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Each row's class, and each class's tier and prize (classes in order of (tier, prize))."""
    t_values, t_code, _ = distinct_values(np.asarray(tier))
    p_values, p_code, _ = distinct_values(np.asarray(prize))
    key = t_code.astype(np.int64) * len(p_values) + p_code
    pairs, code = np.unique(key, return_inverse=True)
    return code, [str(t_values[k // len(p_values)]) for k in pairs], \
        np.asarray([int(p_values[k % len(p_values)]) for k in pairs], dtype=np.int64)


class _Rules:
    """The parameters as conditions on a pack's counts: winners, value, each cap's and the spacing
    rule's held tickets (arrays of any shape)."""

    def __init__(self, rules: PackRules, m: int, tiers: Sequence[Tier], names: list[str],
                 prizes: np.ndarray) -> None:
        self.m = m
        self.lo = rules.min_winners or 0
        self.hi = m if rules.max_winners is None else rules.max_winners
        self.floor = rules.min_prize_cents
        wins = prizes > 0
        self.wins = wins.astype(np.int64)
        self.caps = [(np.asarray([n in rule_tiers(c.tiers, c.prize_cents, tiers) for n in names]) & wins,
                      c.at_most) for c in rules.caps]
        self.spaced = [(np.asarray([n in rule_tiers(r.tiers, r.prize_cents, tiers) for n in names]) & wins,
                        r.min_distance) for r in rules.spacing]
        self.spacing = self.spaced[0] if len(self.spaced) == 1 else None
        self.cap_of = [c.astype(np.int64) for c, _ in self.caps]
        # the columns h reads: one rule's held tickets; under several, each kind's (audit/stats/orders.py)
        self.kinds = sorted({frozenset(r for r, (held, _) in enumerate(self.spaced) if held[k])
                             for k in range(len(names))} - {frozenset()}, key=sorted)
        self.space_of = [held.astype(np.int64) for held, _ in self.spaced[:1]] if self.spacing is not None \
            else [np.asarray([frozenset(r for r, (held, _) in enumerate(self.spaced) if held[k]) == kind
                              for k in range(len(names))], dtype=np.int64) for kind in self.kinds]
        self.table: np.ndarray | None = None

    def count_orders(self, most: Sequence[int]) -> None:
        """Under several spacing rules, h's table for every kind's count up to `most` (ValueError when
        it would be too large: audit/stats/orders.CELLS)."""
        if len(self.spaced) > 1:
            self.table = log_share(self.m, self.kinds, [d for _, d in self.spaced], most)

    def log_h(self, counts: list[np.ndarray]) -> np.ndarray:
        """log h of packs holding `counts` of each column of `space_of` (-inf where they do not fit; 0
        without spacing): one rule's apart(m, c, d) / C(m, c), several rules' counted table."""
        if not self.space_of:
            return np.zeros(counts[0].shape) if counts else np.zeros(())
        if self.spacing is None:
            assert self.table is not None, "count_orders first"
            shape = np.asarray(self.table.shape)
            over = np.zeros(counts[0].shape, dtype=bool)
            for axis, n in enumerate(counts):
                over |= (n < 0) | (n >= shape[axis])
            at = tuple(np.clip(n, 0, shape[axis] - 1) for axis, n in enumerate(counts))
            return np.where(over, -np.inf, self.table[at])
        c, d = counts[0], self.spacing[1]
        room = self.m - np.maximum(c - 1, 0) * (d - 1)
        fits = room >= c
        safe_room = np.where(fits, room, c)
        out = _log_comb(safe_room.astype(np.float64), c.astype(np.float64)) - _log_comb(
            np.full(c.shape, float(self.m)), c.astype(np.float64))
        return np.where(fits, out, -np.inf)

    def meets(self, w: np.ndarray, v: np.ndarray, held: list[np.ndarray]) -> np.ndarray:
        ok = (w >= self.lo) & (w <= self.hi)
        if self.floor is not None:
            ok &= v >= self.floor
        for (_, most), c in zip(self.caps, held, strict=False):
            ok &= c <= most
        return ok


@dataclass(frozen=True)
class Pairs:
    """A pool's pairs of packs: each class's tier and prize, the losers' class, the class counts of
    packs 2j (`a`) and 2j + 1 (`b`), one row a pair, and the parameters as conditions on counts."""

    names: list[str]
    prizes: np.ndarray
    lose: int
    a: np.ndarray
    b: np.ndarray
    law: _Rules

    def per_pack(self, per_class: np.ndarray, side: np.ndarray, i: int, ci: np.ndarray,
                 cl: np.ndarray) -> np.ndarray:
        """A per-class figure summed over a pack of `side` holding ci of class i and cl losers."""
        rest = side @ per_class - per_class[i] * side[:, i] - per_class[self.lose] * side[:, self.lose]
        return np.asarray(rest[:, None] + per_class[i] * ci + per_class[self.lose] * cl)


def pool_pairs(unit: str, prize: np.ndarray, tier: np.ndarray, m: int, rules: PackRules,
               tiers: Sequence[Tier], fewest: int = MIN_PAIRS) -> Pairs | str:
    """The pool's Pairs, or why the tests are not made (fewer than `fewest` pairs among them)."""
    if rules.min_prize_times is not None:  # the law needs the floor in cents: read_specs.packs.for_pool
        raise ValueError("an eInstant's floor (min_prize_times) must be in cents at the pool's share price")
    pairs = len(prize) // m // 2
    if pairs < fewest:
        return f"fewer than {fewest} pairs of {unit}s"
    if _broken(np.asarray(prize), np.asarray(tier), m, rules, tiers):
        return f"some {unit}s break the parameters (step 5 names them), so the law does not apply"
    n = 2 * pairs * m
    code, names, prizes = _classes(np.asarray(prize)[:n], np.asarray(tier)[:n])
    x = _counts(code, len(names), 2 * pairs, m)
    law = _Rules(rules, m, tiers, names, prizes)
    if len(law.spaced) > 1:  # h's table, for every count a pack of a pair may hold of each kind
        union = x[0::2] + x[1::2]
        most = [int((union @ col).max()) for col in law.space_of]
        try:
            law.count_orders(most)
        except ValueError as e:
            return (f"{len(law.spaced)} spacing rules, up to {', '.join(map(str, most))} tickets of each "
                    f"kind in a pair of {unit}s: counting a {unit}'s orders takes {e} "
                    "(audit/stats/orders.py)")
    return Pairs(names, prizes, int(x.sum(axis=0).argmax()), x[0::2], x[1::2], law)


def _counts(code: np.ndarray, k: int, packs: int, m: int) -> np.ndarray:
    """Each pack's tickets of each class (packs x classes)."""
    x = np.bincount(np.repeat(np.arange(packs), m) * k + code[: packs * m], minlength=packs * k)
    return x.reshape(packs, k).astype(np.int64)


def _broken(prize: np.ndarray, tier: np.ndarray, m: int, rules: PackRules, tiers: Sequence[Tier]) -> bool:
    """Whether a pack breaks the parameters as step 5 reads them: every pack, the odd last one too (in
    no pair, but a pool holding it is not the target's), its counts (winners, value, caps, one spacing
    rule's fit) and each spacing rule's places (two of its tickets closer than its distance)."""
    packs = len(prize) // m
    code, names, prizes = _classes(prize[: packs * m], tier[: packs * m])
    x = _counts(code, len(names), packs, m)
    law = _Rules(rules, m, tiers, names, prizes)
    ok = law.meets(x @ law.wins, x @ prizes, [x @ c for c in law.cap_of])
    if law.spacing is not None:  # one rule's fit (a pack's own order proves it under several, below)
        ok &= np.isfinite(law.log_h([x @ law.spacing[0].astype(np.int64)]))
    for held, d in law.spaced:
        at = held[code].reshape(packs, m)
        for gap in range(1, d):  # two held tickets `gap` places apart in one pack
            ok &= ~(at[:, :-gap] & at[:, gap:]).any(axis=1)
    return not bool(ok.all())


def class_law(p: Pairs, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Class i's values of s (pack 2j's tickets of it) and q_j(s), one row a pair (q = 0 off the
    support)."""
    a, b, lose, law = p.a, p.b, p.lose, p.law
    u_i, u_l = a[:, i] + b[:, i], a[:, lose] + b[:, lose]
    r = a[:, i] + a[:, lose]
    low, high = np.maximum(0, r - u_l), np.minimum(u_i, r)
    width = int((high - low).max()) + 1
    s = low[:, None] + np.arange(width)[None, :]
    inside = s <= high[:, None]
    s = np.minimum(s, high[:, None])
    t = r[:, None] - s  # pack A's losers
    bi, bl = u_i[:, None] - s, u_l[:, None] - t  # pack B's
    ok = inside
    for side, ci, cl in ((a, s, t), (b, bi, bl)):
        ok = ok & law.meets(p.per_pack(law.wins, side, i, ci, cl), p.per_pack(p.prizes, side, i, ci, cl),
                            [p.per_pack(c, side, i, ci, cl) for c in law.cap_of])
    log_w = _log_comb(u_i[:, None].astype(np.float64), s.astype(np.float64)) + _log_comb(
        u_l[:, None].astype(np.float64), t.astype(np.float64))
    if law.space_of:
        log_w = (log_w + law.log_h([p.per_pack(col, a, i, s, t) for col in law.space_of])
                 + law.log_h([p.per_pack(col, b, i, bi, bl) for col in law.space_of]))
    log_w = np.where(ok, log_w, -np.inf)
    log_w -= log_w.max(axis=1, keepdims=True)
    q = np.exp(log_w)
    return s, q / q.sum(axis=1, keepdims=True)


def pair_findings(unit: str, prize: np.ndarray, tier: np.ndarray, m: int, rules: PackRules,
                  tiers: Sequence[Tier], sign: str = "$") -> tuple[list[Finding | None], list[str]]:
    """Both tests of every class but the losers' (`prize`, `tier` the pool's columns in print order),
    and lines for what is not tested."""
    p = pool_pairs(unit, prize, tier, m, rules, tiers)
    if isinstance(p, str):
        return [], [f"each tier per {unit} given the rest of its pair of {unit}s: {p}"]
    found: list[Finding | None] = []
    for i in range(len(p.names)):
        if i != p.lose:
            found += _class_tests(unit, p, i, sign)
    return found, []


def _class_tests(unit: str, p: Pairs, i: int, sign: str) -> list[Finding | None]:
    a, b, lose, prizes = p.a, p.b, p.lose, p.prizes
    name, cents = p.names[i], int(prizes[i])
    s, q = class_law(p, i)
    width = s.shape[1]
    low = s[:, 0]
    mean = (q * s).sum(axis=1)
    dev = s - mean[:, None]
    var = (q * dev ** 2).sum(axis=1)
    seen = a[:, i] - mean
    free = var > 1e-12
    gap = ((a @ prizes - prizes[i] * a[:, i] - prizes[lose] * a[:, lose])
           - (b @ prizes - prizes[i] * b[:, i] - prizes[lose] * b[:, lose]))
    label = f"tier {name} ({money(cents, sign)}) per {unit} given the rest of its pair of {unit}s"
    how = (f"exact conditional law within pairs of {unit}s (docs/statistics.md 1b, under the chain), "
           "summed over the pairs, normal approximation, two-sided")
    out: list[Finding | None] = []
    toward = free & (gap != 0)
    if toward.sum() >= MIN_PAIRS:
        # weights: the other prizes' difference, in units of its median size, at most 1 either way
        scale = max(float(np.median(np.abs(gap[toward]))), 1.0)
        weight = np.clip(gap / scale, -1.0, 1.0)[toward]
        total, spread = float((weight * seen[toward]).sum()), float((weight ** 2 * var[toward]).sum())
        z = total / math.sqrt(spread)
        out.append(Finding(f"{label}: toward the richer {unit}", how,
                           f"{int(toward.sum()):,} pairs, {total:+,.2f} against 0 "
                           f"(sd {math.sqrt(spread):,.2f}), z = {z:.2f}", _two_sided(z)))
    else:
        out.append(None)
    if free.sum() >= MIN_PAIRS:
        # each pair's mid-distribution value U = P(S < s) + P(S = s) / 2 (bounded: a sum of its squared
        # distances from 1/2 is near normal with few pairs, where (s - E s)^2 is heavy-tailed)
        below = np.cumsum(q, axis=1) - q / 2 - 0.5
        at = np.clip(a[:, i] - low, 0, width - 1)
        u = np.take_along_axis(below, at[:, None], axis=1)[:, 0]
        e2, e4 = (q * below ** 2).sum(axis=1), (q * below ** 4).sum(axis=1)
        d = float((u ** 2 - e2)[free].sum())
        spread = float((e4 - e2 ** 2)[free].sum())
        if spread > 0:
            z = d / math.sqrt(spread)
            out.append(Finding(f"{label}: spread", how,
                               f"{int(free.sum()):,} pairs, sum of (U - 1/2)^2 "
                               f"{float((u ** 2)[free].sum()):,.3f}, expected {float(e2[free].sum()):,.3f}, "
                               f"z = {z:.2f}", _two_sided(z)))
            return out
    out.append(None)
    return out


def _distance_sums(x: np.ndarray) -> tuple[float, float, float]:
    """D1 = sum_(i != k) |x_i - x_k|, D2 = sum_(i != k) (x_i - x_k)^2 and sum_i R_i^2 (R_i = sum_k |x_i -
    x_k|) of mid-ranks x, exactly, in O(B log B) and O(B) memory (not the B x B matrix of distances: 800 MB
    for 10,000 blocks): 2 x is whole, so the sums are Python integers, each divided once at the end."""
    twice = np.sort(np.rint(2 * x).astype(np.int64))  # mid-ranks are halves: 2 x whole and at most 2 B
    b = len(twice)
    below = np.concatenate(([0], np.cumsum(twice)[:-1]))  # the sum of the values before each, sorted
    total = int(twice.sum())
    index = np.arange(b, dtype=np.int64)
    r = twice * index - below + (total - below - twice) - twice * (b - 1 - index)  # 2 R_i, each below 2^31
    d1 = int(r.sum())  # 2 D1
    d2 = 2 * b * sum(int(v) * int(v) for v in twice) - 2 * total * total  # 4 D2
    r2 = sum(int(v) * int(v) for v in r)  # 4 sum R_i^2
    return d1 / 2, d2 / 4, r2 / 4


def pair_value_finding(unit: str, value: np.ndarray) -> Finding | None:
    """How far apart the two packs of each pair (2j, 2j + 1) are in prize value: D = sum_j |x_2j - x_2j+1|,
    x the packs' values' mid-ranks (ranks: a few packs holding the top prizes would swamp the values),
    against its law when the packs' order is a uniform permutation (the packs are exchangeable under the
    chain: docs/statistics.md 1b). With d_ik = |x_i - x_k|, N = B (B - 1), D1 = sum_(i != k) d_ik, D2 =
    sum_(i != k) d_ik^2, R_i = sum_k d_ik: E D = P D1 / N, Var D = P (D2 / N - (D1 / N)^2) + P (P - 1)
    (Q / (N (B - 2) (B - 3)) - (D1 / N)^2), Q = D1^2 - 4 sum_i R_i^2 + 2 D2 (the ordered pairs of
    disjoint ordered pairs). Large when each pair holds a rich and a poor pack (pairs evened out), small
    when rich packs come in pairs; z two-sided (None: fewer than MIN_PAIRS pairs, or more than half the
    packs of one value, where D is nearly a count of the few others' pairings, far from normal). Each
    term is bounded by B, unlike a product of two centred ranks, whose rare large terms (two top packs
    paired) gave heavy tails under a tight floor's ties."""
    books = len(value)
    pairs = books // 2
    if pairs < MIN_PAIRS:
        return None
    _, _, ties = distinct_values(np.asarray(value))
    if int(ties.max()) > books // 2:
        return None  # most packs of one value (a tight floor): D is a count of a few packs, far from normal
    x = mid_ranks(np.asarray(value, dtype=np.float64))
    d1, d2, r2 = _distance_sums(x)
    b = float(books)
    n = b * (b - 1)
    q = d1 ** 2 - 4 * r2 + 2 * d2
    mean = d1 / n
    var = pairs * (d2 / n - mean ** 2) + pairs * (pairs - 1) * (q / (n * (b - 2) * (b - 3)) - mean ** 2)
    if d1 <= 0 or var <= 0:
        return None
    t = float(np.abs(x[0:2 * pairs:2] - x[1:2 * pairs:2]).sum())
    z = (t - pairs * mean) / math.sqrt(var)
    return Finding(f"prize value of the two {unit}s of each pair of {unit}s",
                   f"the distance of the pair's ranks of value, summed, against the uniform order of the "
                   f"{unit}s (docs/statistics.md 1b, under the chain), normal approximation, two-sided",
                   f"{pairs:,} pairs, {t:,.1f} against {pairs * mean:,.1f} (sd {math.sqrt(var):,.1f}), "
                   f"z = {z:.2f}",
                   _two_sided(z))
