"""Step 8's pack tests under docs/randomness.md 5.9, a cap of one beside a second rule (docs/statistics.md
1b), written from that section alone: no code of poolgen's.

The cap of one holds tiers S1; the second rule (a cap of k, or a spacing rule of distance d with a cap
on exactly its tiers or none) holds tiers S2, S1 apart from S2 or inside it; T = S2 apart, S2 minus S1
inside. Per pack: w_b winners, c1_b in {0, 1} tickets of S1, c2_b of T; P(w, c1, c2) is proportional to
prod_b f(w_b, c1_b, c2_b) (`pack_laws.BesideLaw`), and given (w, c1, c2) every valid sequence with them
is equally likely. So:

  - winners per pack given (c1_b, c2_b), stratified;
  - T's tickets per pack given (w_b, c1_b) (only where a pack may hold two or more);
  - S1's tickets by tenth of the packs, and T's: P(c1) and P(c2) are symmetric in the packs;
  - the places: apart, T's as a spaced (or capped) set (y_i = x_i - i (d - 1) a uniform subset) and
    S1's ticket's rank among the pack's places outside T (the other tickets are in a uniform order
    over them); inside, S2's as a spaced set and S1's ticket's rank among the pack's S2 places (which
    of them is S1's is uniform), or under two caps its place in the pack (the pack's order is uniform);
  - the other winners (neither S1 nor S2) by place among the places S1 and S2 leave, their prize
    value per pack, and the runs within each pack with S1's and S2's tickets left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from audit.read.manifest import Tier
from audit.read.specs.packs import PackRules
from audit.stats.laws import norm_sf
from audit.stats.pack_laws import (
    BesideLaw,
    by_tenth_of_packs,
    count_given,
    kruskal,
    others_place,
    place_finding,
    ranks_among,
    refused,
    rule_tiers,
    runs_within,
    too_few,
    winners_given,
)
from audit.stats.tests import Finding

__all__ = ["Beside", "beside_case", "beside_findings"]

UNIFORM = "of the places against the uniform order"
LEAST = 20  # the prize-value test's least tickets of an amount (pack_laws.top_coded)


@dataclass(frozen=True)
class Beside:
    """5.9's case: S1 (`first`, the cap of one, labelled `one`), T (`others`), whether S1 lies inside
    S2 (`nested`), the second rule's cap k on S2 (`most`; None: none but the places that fit), its
    distance d (1: a cap) and its label (`rule`: the spacing rule's, or the second cap's)."""

    first: frozenset[str]
    others: frozenset[str]
    nested: bool
    most: int | None
    distance: int
    one: str
    rule: str


def _placed(inner: frozenset[str], outer: frozenset[str]) -> bool | None:
    """Whether S1 = inner lies inside S2 = outer (True: a proper subset), apart from it (False: no
    common tier), or neither (None)."""
    if not inner & outer:
        return False
    return True if inner < outer else None


def beside_case(rules: PackRules, tiers: Sequence[Tier]) -> Beside | None:
    """5.9's reading of the rules, or None. No value floor and no held tier that does not win; then
    either exactly two caps and no spacing rule, S1 the first cap of one whose tiers are apart from or
    inside the other's (S2); or exactly one spacing rule (S2), one cap of one on tiers S1 other than
    S2, apart from or inside them, and at most one more cap, on exactly S2 (its k)."""
    if rules.min_prize_cents is not None or rules.min_prize_times is not None:
        return None
    losing = {t.id for t in tiers if t.prize_cents <= 0} | {"lose"}
    caps = [(rule_tiers(c.tiers, c.prize_cents, tiers), c) for c in rules.caps]
    spacing = [(rule_tiers(s.tiers, s.prize_cents, tiers), s) for s in rules.spacing]
    if any(held & losing for held, _ in (*caps, *spacing)):
        return None
    if len(caps) == 2 and not spacing:
        for one in (0, 1):
            (s1, cap1), (s2, cap2) = caps[one], caps[1 - one]
            nested = _placed(s1, s2)
            if cap1.at_most == 1 and nested is not None:
                return Beside(s1, s2 - s1, nested, cap2.at_most, 1, cap1.label, cap2.label)
        return None
    if len(spacing) != 1 or not 1 <= len(caps) <= 2:
        return None
    spaced, rule = spacing[0]
    ones = [i for i, (s, c) in enumerate(caps)
            if c.at_most == 1 and s != spaced and _placed(s, spaced) is not None]
    own = [c.at_most for s, c in caps if s == spaced]
    if len(ones) != 1 or len(ones) + len(own) != len(caps):
        return None
    s1, cap = caps[ones[0]]
    return Beside(s1, spaced - s1, s1 < spaced, min(own) if own else None, rule.min_distance, cap.label,
                  rule.label)


def _broken(case: Beside, lo: int, hi: int, w: np.ndarray, first: np.ndarray, other: np.ndarray) -> bool:
    """Whether some pack breaks the rules: winners outside lo..hi, two of S1, more of S2 (inside) or T
    (apart) than the cap, or two of the spaced tickets closer than d."""
    c1, c2 = first.sum(axis=1), other.sum(axis=1)
    spaced = first | other if case.nested else other
    capped = spaced.sum(axis=1)
    row, place = np.nonzero(spaced)
    close = (np.diff(place) < case.distance) & (row[1:] == row[:-1])
    too_many = case.most is not None and bool((capped > case.most).any())
    return bool((w < lo).any() or (w > hi).any() or (c1 > 1).any() or (c1 + c2 > w).any() or close.any()
                or too_many)


def _holding_first(name: str, law: BesideLaw, w: np.ndarray, c1: np.ndarray,
                   c2: np.ndarray) -> Finding | None:
    """The winners of the packs holding S1's ticket, S = sum_b c1_b w_b, given (w, c2): then c1 is a
    C1-subset of the packs drawn with P proportional to prod_b r_b^(c1_b), r_b = f(w_b, 1, c2_b) /
    f(w_b, 0, c2_b) (conditional Poisson sampling), approximated by independent p_b = r_b e^t / (1 +
    r_b e^t), t making sum p_b = C1; S's mean sum p_b w_b and variance sum v_b (w_b - w_v)^2, v_b =
    p_b (1 - p_b), w_v their v-weighted mean (Hajek); normal approximation, two-sided."""
    f1 = [law.log_f(a, 1, b) for a, b in zip(w.tolist(), c2.tolist(), strict=True)]
    f0 = [law.log_f(a, 0, b) for a, b in zip(w.tolist(), c2.tolist(), strict=True)]
    free = np.array([x is not None and y is not None for x, y in zip(f1, f0, strict=True)])
    forced = sum(y is None for y in f0)  # packs that must hold S1's ticket
    log_r = np.array([x - y if x is not None and y is not None else 0.0
                      for x, y in zip(f1, f0, strict=True)])
    need = int(c1.sum()) - forced
    if need <= 0 or need >= int(free.sum()):
        return None
    lo, hi = -60.0, 60.0
    for _ in range(100):
        t = (lo + hi) / 2
        lo, hi = (t, hi) if float((1 / (1 + np.exp(-(log_r[free] + t)))).sum()) < need else (lo, t)
    p = np.where(free, 1 / (1 + np.exp(-(log_r + (lo + hi) / 2))), [0.0 if x is None else 1.0 for x in f1])
    v = p * (1 - p)
    if v.sum() <= 0:
        return None
    wv = float((v * w).sum() / v.sum())
    var = float((v * (w - wv) ** 2).sum())
    seen, mean = int((c1 * w).sum()), float((p * w).sum())
    if var <= 0:
        return None
    z = (seen - mean) / var ** 0.5
    return Finding(name, "conditional Poisson sampling given the winners and the second rule's tickets "
                   "(Hajek's normal approximation), two-sided", f"{seen:,} winners, expected {mean:,.1f}, "
                   f"z = {z:.2f}", float(min(1.0, 2 * norm_sf(abs(z)))))


def beside_findings(prize: np.ndarray, m: int, rules: PackRules, case: Beside,
                    tier: np.ndarray | None) -> tuple[list[Finding], list[str]]:
    """The pack tests of a pool drawn by 5.9 (`prize`, `tier` its columns in print order; B >= 2 packs)."""
    books = len(prize) // m
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    win_all = np.asarray(prize) > 0
    if tier is None:
        raise ValueError("the pool's tier column is needed for its caps or spacing")
    win = win_all[: books * m].reshape(books, m)
    tier_of = np.asarray(tier)[: books * m].reshape(books, m)
    first = np.isin(tier_of, list(case.first)) & win
    other = np.isin(tier_of, list(case.others)) & win
    w, c1, c2 = win.sum(axis=1), first.sum(axis=1), other.sum(axis=1)
    lo = rules.min_winners or 0
    hi = m if rules.max_winners is None else rules.max_winners
    if _broken(case, lo, hi, w, first, other):
        return refused(unit, rule, win_all)
    d = case.distance
    law = BesideLaw(m, lo, hi, case.most, d, case.nested)
    one = f"capped tickets ({case.one})"
    kind = "spaced" if d > 1 else "capped"
    two = f"{kind} tickets ({case.rule})" + (f" other than {case.one}'s" if case.nested else "")
    found: list[Finding | None] = [
        winners_given(f"winners per {unit} of {m} ({lo}..{hi}) given its {one} and {two}: {books:,} {unit}s",
                      law.given_held, c1 * (m + 1) + c2, w, m)]
    skipped: list[str] = []
    largest = min(law.most, hi, (m - 1) // d + 1)
    if largest >= 2 and c2.sum():
        found.append(count_given(f"{two} per {unit}: histogram of {books:,} {unit}s given their winners and "
                                 f"{one}", f"each pack's winners and {one}", law.given_w, 2 * w + c1, c2,
                                 largest))
    else:
        skipped.append(f"{two} per {unit}: at most one a {unit} (or none), so their histogram is fixed by "
                       "their count")
    found += [_holding_first(f"winners of the {unit}s holding {one}, given each {unit}'s winners and {two}",
                             law, w, c1, c2),
              by_tenth_of_packs(f"{one} by tenth of the {unit}s", c1),
              by_tenth_of_packs(f"{two} by tenth of the {unit}s", c2)]
    if not case.nested:
        found += [place_finding(two, unit, other, d),
                  ranks_among(f"{one} by place among their {unit}'s places outside {case.rule}'s tickets "
                              "(tenths)", UNIFORM, first, ~other)]
    elif d == 1:
        found += [place_finding(f"{kind} tickets ({case.rule})", unit, first | other, 1),
                  ranks_among(f"{one} by place in their {unit} (tenths)", UNIFORM, first, np.ones_like(win))]
    else:
        found += [place_finding(f"{kind} tickets ({case.rule})", unit, first | other, d),
                  ranks_among(f"{one} by rank among their {unit}'s {kind} tickets ({case.rule}) (tenths)",
                              UNIFORM, first, first | other)]
    held = first | other
    amounts = np.asarray(prize)[: books * m].reshape(books, m)
    others = win & ~held
    found += [others_place(unit, win, held),
              kruskal(f"prize value of the other winners per {unit}: {books:,} {unit}s (amounts of fewer "
                      f"than {LEAST} tickets merged down)", amounts[others], np.nonzero(others)[0], LEAST),
              runs_within(f"runs of winners and losers within each {unit}, the {one} and {two} left out",
                          win, ~held)]
    return too_few(unit, found, skipped)
