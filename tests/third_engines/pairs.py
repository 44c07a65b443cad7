"""A third engine for step 8's tests of each tier given the rest of its pair of packs, written from
docs/statistics.md section 1b ("*Each tier given the rest of its pair of packs is exact*", with that
section's apart(m, c, d), rules naming a `prize`, winners = `prize_cents > 0` and what a cap holds)
and docs/new-game.md (what the pack parameters mean) alone, before audit/stats/pairs.py was read.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it), and computes each
pair's conditional law q_j, its mean, variance, mid-distribution values and their moments in exact
rational arithmetic (`math.comb`, `Fraction`); only the final z and p are floats.

The rules are plain: {"min_winners": int | None, "max_winners": int | None, "floor_cents": int | None,
"caps": [{"tiers": [...], "prize_cents": int | None, "at_most": k}], "spacing": [{"tiers": [...],
"prize_cents": int | None, "min_distance": d}]}, a rule naming a prize with `prize_cents` set and
`tiers` empty; `tiers` are the manifest's (id, prize_cents). The caller says the pool is the chain's
(randomness.md 5.3): the routing between the exact draws and the chain is not this engine's."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import cache

Class = tuple[str, int]  # (tier, prize_cents)
TINY = Fraction(1, 10**12)  # "positive variance (above 1e-12)"


def dollars(cents: int) -> str:
    """$A: the amount with thousands separators and cents."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def rule_tiers(rule: dict, tiers: list[tuple[str, int]]) -> frozenset[str]:
    """A rule's tiers: those it names, or every manifest tier paying its `prize`."""
    if rule.get("prize_cents") is not None:
        return frozenset(t for t, cents in tiers if cents == rule["prize_cents"])
    return frozenset(rule["tiers"])


def apart(m: int, c: int, d: int) -> int:
    """The ways to put c tickets d apart among m places (1 for c = 0, 0 when they do not fit)."""
    if c == 0:
        return 1
    room = m - (c - 1) * (d - 1)
    return math.comb(room, c) if room >= c else 0


@cache
def shared_orders(m: int, kinds: tuple[tuple[tuple[int, ...], int], ...],
                  distances: tuple[int, ...]) -> Fraction:
    """The share of the orders of m places holding n tickets of each kind (a kind: the rules holding
    it), the rest held by no rule, in which two tickets of one rule are at least its distance apart:
    the places filled one by one, remembering how far back each rule's last ticket is (at most its
    distance: farther is as good)."""
    spaced = sum(n for _, n in kinds)
    if spaced > m:
        return Fraction(0)

    @cache
    def count(place: int, left: tuple[int, ...], back: tuple[int, ...]) -> int:
        if place == m:
            return 1
        on = tuple(min(b + 1, d) for b, d in zip(back, distances, strict=True))
        total = count(place + 1, left, on) if m - place > sum(left) else 0
        for k, (rules, _) in enumerate(kinds):
            if left[k] and all(back[r] >= distances[r] for r in rules):
                fewer = tuple(n - (j == k) for j, n in enumerate(left))
                total += count(place + 1, fewer, tuple(1 if r in rules else on[r] for r in range(len(on))))
        return total

    orders = math.factorial(m) // math.factorial(m - spaced)
    for _, n in kinds:
        orders //= math.factorial(n)
    return Fraction(count(0, tuple(n for _, n in kinds), distances), orders)


class Pack:
    """What decides whether a pack meets the parameters, from its composition (class -> count)."""

    def __init__(self, m: int, rules: dict, tiers: list[tuple[str, int]]):
        self.m = m
        self.lo = rules.get("min_winners") or 0
        self.hi = m if rules.get("max_winners") is None else rules["max_winners"]
        self.floor = rules.get("floor_cents") or 0
        self.caps = [(rule_tiers(c, tiers), c["at_most"]) for c in rules.get("caps", [])]
        self.spacing = [(rule_tiers(s, tiers), s["min_distance"]) for s in rules.get("spacing", [])]

    def h(self, comp: Counter) -> Fraction:
        """h(c) = apart(m, c, d) / C(m, c), c the pack's winners among the spacing rule's tiers; under
        several rules, the share of the pack's orders meeting them all, counted (`shared_orders`)."""
        if not self.spacing:
            return Fraction(1)
        if len(self.spacing) == 1:
            tiers, d = self.spacing[0]
            c = sum(n for (t, cents), n in comp.items() if cents > 0 and t in tiers)
            return Fraction(apart(self.m, c, d), math.comb(self.m, c)) if c <= self.m else Fraction(0)
        kinds: Counter = Counter()  # a winner's kind: the rules whose tiers hold its tier
        for (t, cents), n in comp.items():
            kind = frozenset(r for r, (tiers, _) in enumerate(self.spacing) if cents > 0 and t in tiers)
            if kind:
                kinds[kind] += n
        key = tuple(sorted((tuple(sorted(k)), n) for k, n in kinds.items()))
        return shared_orders(self.m, key, tuple(d for _, d in self.spacing))


    def meets(self, comp: Counter) -> bool:
        """lo <= w <= hi, the value floor, every cap, and h(c) > 0."""
        w = sum(n for (_, cents), n in comp.items() if cents > 0)
        value = sum(n * cents for (_, cents), n in comp.items())
        if not self.lo <= w <= self.hi or value < self.floor:
            return False
        for tiers, most in self.caps:
            if sum(n for (t, cents), n in comp.items() if cents > 0 and t in tiers) > most:
                return False
        return self.h(comp) > 0


def broken_packs(prize: list[int], tier: list[str], m: int, rules: dict,
                 tiers: list[tuple[str, int]]) -> list[int]:
    """The packs (all B of them, an odd last one too) breaking a parameter as step 5 reads them: their
    composition (`Pack.meets`), or two tickets of a spacing rule's tiers closer than its distance."""
    pack = Pack(m, rules, tiers)
    spacing = [(rule_tiers(s, tiers), s["min_distance"]) for s in rules.get("spacing", [])]
    bad = []
    for b in range(len(prize) // m):
        rows = range(b * m, b * m + m)
        comp = Counter((tier[r], prize[r]) for r in rows)
        ok = pack.meets(comp)  # each rule's places are checked below
        for held, d in spacing:
            at = [r for r in rows if prize[r] > 0 and tier[r] in held]
            ok = ok and all(y - x >= d for x, y in zip(at, at[1:], strict=False))
        if not ok:
            bad.append(b)
    return bad


def pair_law(pack: Pack, rest_a: Counter, rest_b: Counter, i: Class, loser: Class, u_i: int, u_l: int,
             r: int) -> dict[int, Fraction]:
    """q_j(s), s = pack A's tickets of class i: proportional to C(u_i, s) C(u_L, r - s) h(c_A) h(c_B)
    [A meets them] [B meets them] on max(0, r - u_L) <= s <= min(u_i, r); normalised."""
    weights = {}
    for s in range(max(0, r - u_l), min(u_i, r) + 1):
        a, b = Counter(rest_a), Counter(rest_b)
        a[i] += s
        a[loser] += r - s
        b[i] += u_i - s
        b[loser] += u_l - r + s
        if pack.meets(a) and pack.meets(b):
            weights[s] = math.comb(u_i, s) * math.comb(u_l, r - s) * pack.h(a) * pack.h(b)
    total = sum(weights.values(), Fraction(0))
    return {s: Fraction(wt) / total for s, wt in weights.items() if wt}


def _z_p(z: float) -> float:
    """p = min(1, 2 P(N(0, 1) >= |z|))."""
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))


def pair_tests(prize: list[int], tier: list[str], m: int, rules: dict, tiers: list[tuple[str, int]],
               unit: str = "book") -> tuple[list[tuple[str, str, float]], list[str], int]:
    """The tests in the contract's order as (name, figures, p), the lines "not tested" (the test's
    prefix, then why), and how many of them were not made for too few pairs counted."""
    label = f"each tier per {unit} given the rest of its pair of {unit}s"
    books = len(prize) // m
    pairs = books // 2
    # "a pool with fewer pairs, or a pack breaking its parameters gets a line ... saying which": one
    # line, the first of them in the contract's order that applies
    if pairs < 20:
        return [], [f"{label}: fewer than 20 pairs of {unit}s"], 0
    if broken_packs(prize, tier, m, rules, tiers):
        return [], [f"{label}: some {unit}s break the pack parameters"], 0
    pack = Pack(m, rules, tiers)
    rows = 2 * pairs * m
    seen = Counter((tier[r], prize[r]) for r in range(rows))
    classes = sorted(seen)  # by tier as text, then prize_cents
    loser = max(classes, key=lambda k: seen[k])  # the most rows; max keeps the first of a tie
    comps = [Counter((tier[r], prize[r]) for r in range(b * m, b * m + m)) for b in range(2 * pairs)]
    found, too_few = [], 0
    for i in classes:
        if i == loser:
            continue
        toward: list[tuple[int, int, Fraction, Fraction]] = []
        spread: list[tuple[Fraction, Fraction, Fraction]] = []
        for j in range(pairs):
            xa, xb = comps[2 * j], comps[2 * j + 1]
            rest_a = Counter({k: n for k, n in xa.items() if k not in (i, loser)})
            rest_b = Counter({k: n for k, n in xb.items() if k not in (i, loser)})
            u_i, u_l, r = xa[i] + xb[i], xa[loser] + xb[loser], xa[i] + xa[loser]
            q = pair_law(pack, rest_a, rest_b, i, loser, u_i, u_l, r)
            mean = sum((s * p for s, p in q.items()), Fraction(0))
            var = sum(((s - mean) ** 2 * p for s, p in q.items()), Fraction(0))
            if var <= TINY:
                continue
            s_j = xa[i]
            va = sum(n * cents for (t, cents), n in rest_a.items())
            vb = sum(n * cents for (t, cents), n in rest_b.items())
            if va != vb:
                toward.append((va - vb, s_j, mean, var))
            below, mid = Fraction(0), {}
            for s in sorted(q):
                mid[s] = below + q[s] / 2 - Fraction(1, 2)
                below += q[s]
            e2 = sum((mid[s] ** 2 * p for s, p in q.items()), Fraction(0))
            e4 = sum((mid[s] ** 4 * p for s, p in q.items()), Fraction(0))
            spread.append((mid[s_j] ** 2, e2, e4 - e2 * e2))
        name = f"tier {i[0]} ({dollars(i[1])}) per {unit} given the rest of its pair of {unit}s"
        if len(toward) >= 20:
            sizes = sorted(abs(g) for g, *_ in toward)
            half = len(sizes) // 2
            median = Fraction(sizes[half]) if len(sizes) % 2 else Fraction(sizes[half - 1] + sizes[half], 2)
            scale = max(median, Fraction(1))
            weights = [max(Fraction(-1), min(Fraction(1), Fraction(g) / scale)) for g, *_ in toward]
            t = sum((w * (s - mean) for w, (_, s, mean, _) in zip(weights, toward, strict=True)), Fraction(0))
            sd = math.sqrt(sum((w * w * v for w, (*_, v) in zip(weights, toward, strict=True)), Fraction(0)))
            z = float(t) / sd
            figures = f"{len(toward)} pairs, {float(t):+.2f} against 0 (sd {sd:.2f}), z = {z:.2f}"
            found.append((f"{name}: toward the richer {unit}", figures, _z_p(z)))
        else:
            too_few += 1
        fourth = sum((v for *_, v in spread), Fraction(0))
        if len(spread) >= 20 and fourth > 0:
            a = sum((u for u, _, _ in spread), Fraction(0))
            e = sum((e2 for _, e2, _ in spread), Fraction(0))
            z = float(a - e) / math.sqrt(fourth)
            found.append((f"{name}: spread",
                          f"{len(spread)} pairs, sum of (U - 1/2)^2 {float(a):.3f}, expected {float(e):.3f}, "
                          f"z = {z:.2f}", _z_p(z)))
        else:
            too_few += 1
    return found, [], too_few
