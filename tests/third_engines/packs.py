"""A third engine for the tier order of a printed pool under pack parameters, from docs/randomness.md
sections 2 to 4 and 5.2, 5.6 to 5.10, 5.12, 5.13 and docs/new-game.md section 2b alone: given the seed, the
game's rules id, the pool's id, its pack size, its tiers' counts and its `[packs]` rules (tier sets
as indices), it draws the pool's tier order again from the pool's "order" stream, ticket by ticket,
wherever the contract says the draw is exact, and refuses the chain's cases (5.3).

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): the stream is
split.py's (its own HKDF and ChaCha20), every draw packs_draws.py's, written from section 3's words."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial

from tests.third_engines.packs_draws import (
    apart,
    big_integer,
    choices,
    deal,
    falling,
    labels,
    largest,
    lowest,
    ordered,
    pair_draw,
    pair_tilt,
    permuted,
    spaced_places,
    winners_per_pack,
)
from tests.third_engines.split import Stream


@dataclass(frozen=True)
class Rules:
    """A pool's composition parameters (docs/new-game.md 2b), tier sets as indices (0 the losers)."""

    min_winners: int | None = None
    max_winners: int | None = None
    caps: list[tuple[frozenset[int], int]] = field(default_factory=list)  # (tiers, at_most)
    spacing: list[tuple[frozenset[int], int]] = field(default_factory=list)  # (tiers, min_distance)
    floor: int | None = None  # min_prize_value in cents


class Chain(Exception):
    """The rules are the chain's (5.3): no exact draw is stated, so no redraw."""


class Exhausted(Chain):
    """5.12's 10,000 tries met none: the pool is the chain's, drawn from where the stream stands
    (tests/third_engines/chain.py `several`)."""


def bounds(rules: Rules, m: int) -> tuple[int, int]:
    """The winners bounds lo..hi, 0..m without them."""
    return (rules.min_winners or 0, m if rules.max_winners is None else rules.max_winners)


# --- the sections' draws ----------------------------------------------------------------------------


def plain(stream: Stream, counts: list[int]) -> list[int]:
    """Section 4: the tier multiset in tier order indexed by `permutation(n)`."""
    return permuted(stream, labels(counts, set(range(len(counts)))))


def winners_only(stream: Stream, counts: list[int], m: int, lo: int, hi: int) -> list[int]:
    """5.2."""
    packs, winners = sum(counts) // m, set(range(1, len(counts)))
    per = winners_per_pack(stream, m, packs, sum(counts[1:]), lo, hi)
    return ordered(stream, deal([(permuted(stream, labels(counts, winners)), per)], m), m)


def mixed_tilt(m: int, packs: int, wins: int, lo: int, hi: int, held: int) -> int:
    """5.6 step 2: u, the largest in [1, 2^62) with C S2 S0 + (B - C) S1^2 <= W S1 S0."""
    def s(j: int, u: int) -> int:
        return sum(w ** j * comb(m, w) * u ** (w - lo) << (20 * (hi - w)) for w in range(lo, hi + 1))

    def holds(u: int) -> bool:
        s0, s1, s2 = s(0, u), s(1, u), s(2, u)
        return held * s2 * s0 + (packs - held) * s1 * s1 <= wins * s1 * s0

    return largest(holds)


def one_cap(stream: Stream, counts: list[int], m: int, lo: int, hi: int, capped: frozenset[int],
            k: int) -> list[int]:
    """5.6 (k = 1) and 5.7."""
    packs, wins, held = sum(counts) // m, sum(counts[1:]), sum(counts[t] for t in capped)
    if k == 1:
        holding = set(stream.permutation(packs)[:held])
        if wins in (packs * lo, packs * hi):
            w = [wins // packs] * packs
        else:
            span = range(lo, hi + 1)
            num, den = lowest(mixed_tilt(m, packs, wins, lo, hi, held))
            q0 = [comb(m, w) * num ** w * den ** (hi - w) for w in span]
            q1 = [w * x for w, x in zip(span, q0, strict=True)]
            while True:
                ones = [b for b in range(packs - 1) if b in holding]
                zeros = [b for b in range(packs - 1) if b not in holding]
                got = dict(zip(ones, choices(stream, q1, len(ones)), strict=True))
                got |= dict(zip(zeros, choices(stream, q0, len(zeros)), strict=True))
                last = wins - sum(lo + i for i in got.values())
                q = q1 if packs - 1 in holding else q0
                if lo <= last <= hi and big_integer(stream, max(q)) < q[last - lo]:
                    w = [lo + got[b] for b in range(packs - 1)] + [last]
                    break
        c = [int(b in holding) for b in range(packs)]
    else:
        table = {(w, c): comb(m, w) * comb(w, c) for w in range(lo, hi + 1) for c in range(min(k, w) + 1)}
        u, v = pair_tilt([(packs, table)], wins, held, lo, hi, k)
        pairs = pair_draw(stream, [table], [0] * packs, wins, held, lo, hi, k, u, v)
        w, c = [p[0] for p in pairs], [p[1] for p in pairs]
    others = set(range(1, len(counts))) - capped
    groups = [(permuted(stream, labels(counts, set(capped))), c),
              (permuted(stream, labels(counts, others)), [wb - cb for wb, cb in zip(w, c, strict=True)])]
    return ordered(stream, deal(groups, m), m)


def one_spacing(stream: Stream, counts: list[int], m: int, lo: int, hi: int, spaced: frozenset[int],
                d: int, k: int | None) -> list[int]:
    """5.8: one spacing rule, winners bounds and a cap on its own tiers at most."""
    packs, wins, held = sum(counts) // m, sum(counts[1:]), sum(counts[t] for t in spaced)
    top = (m - 1) // d + 1 if k is None else min(k, (m - 1) // d + 1)
    table = {(w, c): apart(m, c, d) * comb(m - c, w - c) for w in range(lo, hi + 1)
             for c in range(min(top, w) + 1)}
    u, v = pair_tilt([(packs, table)], wins, held, lo, hi, top)
    pairs = pair_draw(stream, [table], [0] * packs, wins, held, lo, hi, top, u, v)
    c = [p[1] for p in pairs]
    others = set(range(1, len(counts))) - spaced
    rest = [w - cb for (w, _), cb in zip(pairs, c, strict=True)]
    contents = deal([(permuted(stream, labels(counts, set(spaced))), c),
                     (permuted(stream, labels(counts, others)), rest)], m)
    return spaced_places(stream, [(pack[:cb], pack[cb:]) for pack, cb in zip(contents, c, strict=True)], m, d)


def beside(stream: Stream, counts: list[int], m: int, lo: int, hi: int, s1: frozenset[int],
           s2: frozenset[int], k: int, d: int | None) -> list[int]:
    """5.9: a cap of one on S1 beside a second cap (at_most k, `d` None) or a spacing rule on S2
    (min_distance d, k its cap's at_most or the most that fit), S1 apart from S2 or inside it."""
    inside = s1 < s2
    gap = 1 if d is None else d
    t_set = s2 - s1 if inside else s2
    packs, wins = sum(counts) // m, sum(counts[1:])
    c1, c2 = sum(counts[t] for t in s1), sum(counts[t] for t in t_set)
    f0 = {(w, c): apart(m, c, gap) * comb(m - c, w - c) for w in range(lo, hi + 1)
          for c in range(min(k, w) + 1) if apart(m, c, gap) > 0}
    if inside:
        f1 = {(w, c): (c + 1) * f0[(w, c + 1)] for (w, c) in f0 if (w, c + 1) in f0}
    else:
        f1 = {(w, c): (w - c) * f for (w, c), f in f0.items() if w > c}
    holding = set(stream.permutation(packs)[:c1])
    u, v = pair_tilt([(packs - c1, f0), (c1, f1)], wins, c2, lo, hi, k)
    which = [int(b in holding) for b in range(packs)]
    pairs = pair_draw(stream, [f0, f1], which, wins, c2, lo, hi, k, u, v)
    others = set(range(1, len(counts))) - s1 - s2
    rest = [w - c - h for (w, c), h in zip(pairs, which, strict=True)]
    groups = [(permuted(stream, labels(counts, set(t_set))), [c for _, c in pairs]),
              (permuted(stream, labels(counts, set(s1))), which),
              (permuted(stream, labels(counts, others)), rest)]
    contents = deal(groups, m)
    if d is None:
        return ordered(stream, contents, m)
    if not inside:
        split = [(p[:c], p[c:]) for p, (_, c) in zip(contents, pairs, strict=True)]
        return spaced_places(stream, split, m, d)
    rows = stream.row_permutations(packs, m)
    firsts = []
    for pack, row, (_, c), h in zip(contents, rows, pairs, which, strict=True):
        j = c + h
        sigma = [e for e in row if e < j]
        head = [pack[e] for e in sigma]  # the pack's i-th ticket is its sigma(i)-th before
        firsts.append((head, pack[j:]))
    return spaced_places(stream, firsts, m, d)


def caps_alone(stream: Stream, counts: list[int], m: int,
               caps: list[tuple[frozenset[int], int]]) -> list[int]:
    """5.10: several caps on disjoint tiers, nothing else, by rejection."""
    packs = sum(counts) // m
    held = [sum(counts[t] for t in s) for s, _ in caps]
    while True:
        per = [winners_per_pack(stream, m, packs, h, 0, min(k, m))
               for h, (_, k) in zip(held, caps, strict=True)]
        n = d = 1
        for b in range(packs):
            s = per[0][b]
            for i in range(1, len(caps)):
                c = per[i][b]
                if c:
                    n *= falling(m - s, c)
                    d *= falling(m, c)
                s += c
        if big_integer(stream, d) < n:
            break
    capped = set().union(*(s for s, _ in caps))
    groups = [(permuted(stream, labels(counts, set(s))), per[i]) for i, (s, _) in enumerate(caps)]
    rest = [m - sum(p[b] for p in per) for b in range(packs)]
    groups.append((permuted(stream, labels(counts, set(range(len(counts))) - capped)), rest))
    return ordered(stream, deal(groups, m), m)


def section(rules: Rules, counts: list[int], m: int, rejection: bool = True) -> str:
    """Which of the contract's draws a pool with these rules gets ("4", "5.2", "5.6" .. "5.10", "5.12",
    "5.13"; not "5.13" without `rejection`), or Chain for 5.3's."""
    caps, spacing = rules.caps, rules.spacing
    bounded = rules.min_winners is not None or rules.max_winners is not None
    if rules.floor is not None:
        raise Chain("a value floor")
    if not caps and not spacing:
        return "5.2" if bounded else "4"
    if not spacing and len(caps) == 1:
        return "5.6" if caps[0][1] == 1 else "5.7"
    if len(spacing) == 1 and (not caps or len(caps) == 1 and caps[0][0] == spacing[0][0]):
        return "5.8"
    if beside_rules(rules, m) is not None:
        return "5.9"
    sets = [s for s, _ in caps]
    held = [sum(counts[t] for t in s) for s in sets]
    pairs = sum(a * b for i, a in enumerate(held) for b in held[i + 1:])
    disjoint = all(not (a & b) for i, a in enumerate(sets) for b in sets[i + 1:])
    if (not spacing and len(caps) >= 2 and not bounded and disjoint and 10 * pairs <= 69 * sum(counts)
            and 2 * sum(held) <= sum(counts)):
        return "5.10"
    if len(spacing) >= 2 and not caps and all(0 not in s for s, _ in spacing):
        figures = [sum(counts[t] for t in s) ** 2 * (d - 1) for s, d in spacing]
        if sum(figures) - max(figures) <= 4 * sum(counts):
            return "5.12"
    caps_kind = not spacing and len(caps) >= 2 and not bounded and disjoint and all(0 not in s for s in sets)
    spaced_kind = len(spacing) >= 2 and not caps and all(0 not in s for s, _ in spacing)
    if (rejection and not caps_kind and not spaced_kind and all(0 not in s for s, _ in [*caps, *spacing])
            and len(caps) + len(spacing) <= 8 and rejection_base(rules, counts, m)[1] <= 4):
        return "5.13"
    raise Chain("the chain's parameters")


def rejection_base(rules: Rules, counts: list[int], m: int) -> tuple[Rules, Fraction]:
    """5.13: the base (the bounds and the nonempty subset of the rules, caps then spacing rules, one of
    5.6 to 5.10 takes alone whose left-out rules cost least, the first of equals by increasing bit mask)
    and that cost: C^2 (d - 1) / T a left-out spacing rule, C^(k + 1) / (B^k (k + 1)!) a cap of k."""
    listed = [("cap", s, k) for s, k in rules.caps] + [("spacing", s, d) for s, d in rules.spacing]
    total, packs = sum(counts), sum(counts) // m
    costs = []
    for kind, s, x in listed:
        c = sum(counts[t] for t in s)
        costs.append(Fraction(c * c * (x - 1), total) if kind == "spacing"
                     else Fraction(c ** (x + 1), packs ** x * factorial(x + 1)))
    best: tuple[Rules, Fraction] | None = None
    for mask in range(1, 1 << len(listed)):
        chosen = [q for q in range(len(listed)) if mask >> q & 1]
        picked = [(kind, s, x) for q, (kind, s, x) in enumerate(listed) if q in chosen]
        base = Rules(rules.min_winners, rules.max_winners,
                     caps=[(s, x) for kind, s, x in picked if kind == "cap"],
                     spacing=[(s, x) for kind, s, x in picked if kind == "spacing"])
        try:
            if section(base, counts, m, rejection=False) not in ("5.6", "5.7", "5.8", "5.9", "5.10"):
                continue
        except Chain:
            continue
        rest = sum((costs[q] for q in range(len(listed)) if q not in chosen), Fraction(0))
        if best is None or rest < best[1]:
            best = (base, rest)
    return best if best is not None else (rules, Fraction(10 ** 9))


def rejected(stream: Stream, counts: list[int], m: int, rules: Rules) -> list[int]:
    """5.13: tries of the base's own draw until one whose every pack meets every cap and spacing rule;
    after 10,000 tries none of which did, Exhausted (the chain draws the pool from where they left it)."""
    base, _ = rejection_base(rules, counts, m)
    for _ in range(10_000):
        order = draw(stream, counts, m, base)[1]
        packs = [order[b:b + m] for b in range(0, len(order), m)]
        if (all(_spaced(pack, s, d) for pack in packs for s, d in rules.spacing)
                and all(sum(t in s for t in pack) <= k for pack in packs for s, k in rules.caps)):
            return order
    raise Exhausted("no try of 10,000 met every rule")


def beside_rules(rules: Rules, m: int) -> tuple[frozenset[int], frozenset[int], int, int | None] | None:
    """5.9's reading: (S1, S2, k, d or None for a second cap), or None when 5.9 does not apply."""
    def fits(s1: frozenset[int], s2: frozenset[int]) -> bool:
        return not (s1 & s2) or s1 < s2

    caps, spacing = rules.caps, rules.spacing
    if not spacing and len(caps) == 2:
        for i, (s, k) in enumerate(caps):
            other = caps[1 - i]
            if k == 1 and fits(s, other[0]):
                return s, other[0], other[1], None
        return None
    if len(spacing) == 1:
        s2, d = spacing[0]
        own = [k for s, k in caps if s == s2]
        ones = [s for s, k in caps if s != s2 and k == 1 and fits(s, s2)]
        if len(ones) == 1 and len(caps) == 1 + len(own) and len(own) <= 1:
            k = min([*own, (m - 1) // d + 1])
            return ones[0], s2, k, d
    return None


def redraw(seed: bytes, rules_id: str, pool_id: str, m: int, counts: list[int],
           rules: Rules) -> tuple[str, list[int]]:
    """The pool's tier order (tier indices, 0 the losers) and the section that drew it."""
    return draw(Stream(seed, ("poolgen/v1", rules_id, pool_id, "order")), counts, m, rules)


def draw(stream: Stream, counts: list[int], m: int, rules: Rules) -> tuple[str, list[int]]:
    """The tier order the section these rules get draws from `stream`, and the section."""
    which = section(rules, counts, m)
    lo, hi = bounds(rules, m)
    if which == "4":
        return which, plain(stream, counts)
    if which == "5.2":
        return which, winners_only(stream, counts, m, lo, hi)
    if which in ("5.6", "5.7"):
        return which, one_cap(stream, counts, m, lo, hi, *rules.caps[0])
    if which == "5.8":
        (s, d), = rules.spacing
        return which, one_spacing(stream, counts, m, lo, hi, s, d, rules.caps[0][1] if rules.caps else None)
    if which == "5.9":
        found = beside_rules(rules, m)
        assert found is not None
        return which, beside(stream, counts, m, lo, hi, *found)
    if which == "5.12":
        return which, several_spacing(stream, counts, m, lo, hi, rules.spacing)
    if which == "5.13":
        return which, rejected(stream, counts, m, rules)
    return which, caps_alone(stream, counts, m, rules.caps)


def several_spacing(stream: Stream, counts: list[int], m: int, lo: int, hi: int,
                    spacing: list[tuple[frozenset[int], int]]) -> list[int]:
    """5.12: tries of 5.8 under the bounds and the primary rule (the largest C^2 (d - 1), the first of
    equals), until one whose every pack meets every rule; after 10,000 tries none of which did,
    Exhausted, the stream left where the tries left it (the chain draws the pool from there)."""
    figures = [sum(counts[t] for t in s) ** 2 * (d - 1) for s, d in spacing]
    s, d = spacing[figures.index(max(figures))]
    for _ in range(10_000):
        order = one_spacing(stream, counts, m, lo, hi, s, d, None)
        packs = [order[b:b + m] for b in range(0, len(order), m)]
        if all(_spaced(pack, sk, dk) for pack in packs for sk, dk in spacing):
            return order
    raise Exhausted("no try of 10,000 met every spacing rule")


def _spaced(pack: list[int], tiers: frozenset[int], d: int) -> bool:
    """Whether every two tickets of `tiers` in the pack are at least d apart."""
    at = [i for i, t in enumerate(pack) if t in tiers]
    return all(b - a >= d for a, b in zip(at, at[1:], strict=False))
