"""Step 8's pack tests for a printed run with pack parameters, its spec's or, without a spec, its
manifest's `print.packs` (docs/statistics.md, section 1b; docs/randomness.md section 5), and the same
per block of serials for an eInstant run with block parameters (`[blocks]`, the manifest's `blocks`;
they then replace the per-1,000-share tests).

Where the generator's draw is exact (docs/randomness.md 5.2: winners bounds alone; 5.6 and 5.7: one
cap beside them; 5.8: one spacing rule, beside them and a cap on the same tiers), the law of the
packs is known (audit/stats/pack_laws.py) and these tests replace the unconstrained per-book ones:

  - winners per pack, given each pack's held tickets (the capped or spaced ones; none under 5.2),
    against q(w | c), stratified by c;
  - held tickets per pack given its winners against q(c | w) (only where a pack may hold two or more);
  - held tickets by tenth of the packs (the packs are exchangeable: permutation chi-square);
  - held tickets' places within their pack (uniform among the valid placements: y_i = x_i - i (d - 1)
    is a uniform c-subset of range(m - (c - 1)(d - 1)));
  - the other winners' places among the pack's other places (uniform);
  - the other winners' prize amounts across packs (exchangeable: Kruskal-Wallis);
  - runs of the other winners and losers within each pack (Wald-Wolfowitz, pack by pack, summed).

5.9 (a cap of one beside a second cap or a spacing rule, on tiers apart from or inside the second
rule's) has its own tests against its law (audit/stats/beside.py), chosen here (`exact_case`).
Under any other composition parameter (a prize-value floor, two spacing rules, three caps, two caps
5.9 does not take, a cap beside a spacing rule other than as 5.8 or 5.9 take it: the chain of 5.3)
the compositions have no closed-form law, so their histograms are listed as not tested (as under several
spacing rules alone, which 5.12 draws exactly by rejection, `spaced_alone`: the target law, no closed
form either); several caps
alone on disjoint tiers, which 5.10 draws exactly (`caps_alone`), have theirs tested against 5.10's
law (audit/stats/caps.py: each cap's tickets per pack given the other caps', the winners per pack given
its capped tickets, each cap's places). The packs are exchangeable (the chain's and 5.10's), so
winners, each cap's and spacing rule's tickets and the prize value per pack are tested by tenth of the
packs (where an insider would put prizes), and the order within each pack is still exact given its
composition (5.3, step 4; 5.10 as 5.6), so the other winners' places and the runs within each pack are
tested, the spaced tickets left out.
A pool whose packs break their parameters (step 5 refuses it) is not held to the law.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from audit.read.manifest import Tier
from audit.read.specs.packs import PackCap, PackRules, PackSpacing
from audit.stats.beside import Beside, beside_case, beside_findings
from audit.stats.caps import caps_broken, caps_law_findings
from audit.stats.exact_tenths import EXACT_MAX, holding_by_tenth
from audit.stats.order import prizes_by_place
from audit.stats.pack_laws import (
    PARTS,
    Law,
    by_tenth_of_packs,
    conditional,
    count_given,
    kruskal,
    others_place,
    place_finding,
    refused,
    rule_tiers,
    runs_within,
    too_few,
    winners_given,
)
from audit.stats.pairs import money, pair_findings, pair_value_finding
from audit.stats.tests import Finding

__all__ = ["Beside", "Exact", "caps_alone", "exact_case", "pack_block_findings", "rejected_alone",
           "rule_tiers", "spaced_alone", "winners_reference"]


@dataclass(frozen=True)
class Exact:
    """An exact case's held tiers S (empty under winners bounds alone), its cap k (None: none) and
    spacing d (1: none), and the rule they come from ("" for none)."""

    held: frozenset[str]
    most: int | None
    distance: int
    rule: str


def exact_case(rules: PackRules, tiers: Sequence[Tier]) -> Exact | Beside | None:
    """The exact case of the pool's rules (docs/randomness.md 5.2, 5.6-5.8; 5.9: `beside_case`), None
    when the chain of 5.3 draws it (a value floor, two caps or spacing rules but as 5.9 takes them, a
    cap on other tiers than the spacing's but a cap of one beside it as 5.9 takes it, a held tier that
    does not win)."""
    if rules.min_prize_cents is not None or rules.min_prize_times is not None:
        return None
    beside = beside_case(rules, tiers)
    if beside is not None:
        return beside
    if len(rules.caps) > 1 or len(rules.spacing) > 1:
        return None

    def ids(named: tuple[str, ...], prize: int | None) -> frozenset[str]:
        return rule_tiers(named, prize, tiers)

    losing = {t.id for t in tiers if t.prize_cents <= 0} | {"lose"}
    if rules.spacing:
        rule = rules.spacing[0]
        held = ids(rule.tiers, rule.prize_cents)
        if rules.caps and ids(rules.caps[0].tiers, rules.caps[0].prize_cents) != held:
            return None
        most = rules.caps[0].at_most if rules.caps else None
        return None if held & losing else Exact(held, most, rule.min_distance, rule.label)
    if rules.caps:
        cap = rules.caps[0]
        held = ids(cap.tiers, cap.prize_cents)
        return None if held & losing else Exact(held, cap.at_most, 1, cap.label)
    return Exact(frozenset(), None, 1, "")


def winners_reference(m: int, books: int, total: int, lo: int, hi: int) -> np.ndarray:
    """q(w) for w = 0..m (zero outside [lo, hi]): C(m, w) x^w normalised, mean total / books."""
    law = Law(m, lo, hi, 0, 1)
    (support, q), = conditional({0: books}, law.given_c, total).values()
    out = np.zeros(m + 1)
    out[support] = q
    return out


def caps_alone(rules: PackRules, tiers: Sequence[Tier], m: int, tickets: int) -> bool:
    """Whether docs/randomness.md 5.10 draws the pool: two or more caps on pairwise disjoint winning tier
    sets (a `prize` read as the pool's tiers paying it), no winners bounds (0 and m count as none), no
    value floor, no spacing rule, not a case of 5.9 (`beside_case`), 10 sum_{i<j} C_i C_j <= 69 T and
    2 sum_i C_i <= T (C_i the manifest's counts of cap i's tiers, T the pool's tickets)."""
    if (rules.min_prize_cents is not None or rules.min_prize_times is not None or rules.spacing
            or (rules.min_winners or 0) > 0 or (rules.max_winners is not None and rules.max_winners < m)
            or len(rules.caps) < 2 or beside_case(rules, tiers) is not None):
        return False
    sets = [rule_tiers(c.tiers, c.prize_cents, tiers) for c in rules.caps]
    losing = {t.id for t in tiers if t.prize_cents <= 0} | {"lose"}
    if any(s & losing for s in sets) or any(a & b for i, a in enumerate(sets) for b in sets[i + 1:]):
        return False
    count = {t.id: t.count for t in tiers}
    if any(t not in count for s in sets for t in s):
        return False  # a tier the manifest does not list: its counts unknown, not read as 5.10
    held = [sum(count[t] for t in s) for s in sets]
    pairs = sum(a * b for i, a in enumerate(held) for b in held[i + 1:])
    return 10 * pairs <= 69 * tickets and 2 * sum(held) <= tickets


def spaced_alone(rules: PackRules, tiers: Sequence[Tier], tickets: int) -> bool:
    """Whether docs/randomness.md 5.12 draws the pool: two or more spacing rules on winning tiers (a
    `prize` read as the pool's tiers paying it), winners bounds at most (no cap, no value floor), and
    sum over the rules but the primary of C_k^2 (d_k - 1) <= 4 T (C_k the manifest's counts of rule
    k's tiers, d_k its distance, the primary a rule of the largest C_k^2 (d_k - 1), T the pool's
    tickets)."""
    if (rules.min_prize_cents is not None or rules.min_prize_times is not None or rules.caps
            or len(rules.spacing) < 2):
        return False
    sets = [rule_tiers(r.tiers, r.prize_cents, tiers) for r in rules.spacing]
    losing = {t.id for t in tiers if t.prize_cents <= 0} | {"lose"}
    count = {t.id: t.count for t in tiers}
    if any(s & losing for s in sets) or any(t not in count for s in sets for t in s):
        return False  # a losing tier, or one the manifest does not list: not read as 5.12
    figures = [sum(count[t] for t in s) ** 2 * (r.min_distance - 1)
               for s, r in zip(sets, rules.spacing, strict=True)]
    return sum(figures) - max(figures) <= 4 * tickets


def rejected_alone(rules: PackRules, tiers: Sequence[Tier], m: int, tickets: int) -> bool:
    """Whether docs/randomness.md 5.13 draws the pool: at most 8 caps and spacing rules on winning tiers the
    manifest lists (a `prize` read as the pool's tiers paying it), winners bounds at most (no value
    floor), that no exact case (`exact_case`: 5.2, 5.6 to 5.9) takes, neither 5.10's kind (two or more
    caps on disjoint tiers, no bounds, no spacing) nor 5.12's (two or more spacing rules, no cap); and a
    base, a nonempty subset of the rules (caps then spacing rules, as a bit mask) that `exact_case` or
    `caps_alone` takes alone with the bounds, whose left-out rules cost at most 4 in all: C^2 (d - 1) / T
    a spacing rule, C^(k + 1) / (B^k (k + 1)!) a cap of k (C the manifest's count of its tiers)."""
    listed: list[PackCap | PackSpacing] = [*rules.caps, *rules.spacing]
    if (rules.min_prize_cents is not None or rules.min_prize_times is not None or not listed
            or len(listed) > 8):  # 5.13 takes at most 8 caps and spacing rules together
        return False
    sets = [rule_tiers(r.tiers, r.prize_cents, tiers) for r in listed]
    losing = {t.id for t in tiers if t.prize_cents <= 0} | {"lose"}
    count = {t.id: t.count for t in tiers}
    if any(s & losing for s in sets) or any(t not in count for s in sets for t in s):
        return False
    bounded = (rules.min_winners or 0) > 0 or (rules.max_winners is not None and rules.max_winners < m)
    caps = sets[:len(rules.caps)]
    caps_kind = (not rules.spacing and len(caps) >= 2 and not bounded
                 and all(not a & b for i, a in enumerate(caps) for b in caps[i + 1:]))
    if (exact_case(rules, tiers) is not None or caps_kind
            or (len(rules.spacing) >= 2 and not rules.caps)):
        return False
    books, held = tickets // m, [sum(count[t] for t in s) for s in sets]
    cost = [Fraction(c * c * (r.min_distance - 1), tickets) if isinstance(r, PackSpacing)
            else Fraction(c ** (r.at_most + 1), books ** r.at_most * math.factorial(r.at_most + 1))
            for c, r in zip(held, listed, strict=True)]
    for mask in range(1, 1 << len(listed)):
        first = len(rules.caps)
        base = replace(rules, caps=tuple(c for q, c in enumerate(rules.caps) if mask >> q & 1),
                       spacing=tuple(r for q, r in enumerate(rules.spacing, first) if mask >> q & 1))
        if ((exact_case(base, tiers) is not None or caps_alone(base, tiers, m, tickets))
                and sum((c for q, c in enumerate(cost) if not mask >> q & 1), Fraction(0)) <= 4):
            return True
    return False


def _chain_findings(prize: np.ndarray, m: int, rules: PackRules, tiers: Sequence[Tier],
                    tier: np.ndarray | None, sign: str = "$") -> tuple[list[Finding], list[str]]:
    """Under the chain of randomness.md 5.3 the compositions have no closed-form law (under 5.10's exact
    draw of several caps alone they have: `audit/stats/caps.py` tests them, after the spread tests and
    before the order tests), but two things are exact. The packs are
    exchangeable: every step of the chain treats the packs alike (the rules are the same for each; its
    start, the plain shuffle or 5.2's exact draw, is exchangeable; its proposals pick packs and tickets
    uniformly), so its law is unchanged by relabelling the packs (5.10's is the target law, exchangeable
    too), and any per-pack count
    summed over a part of the pack sequence has its permutation law: winners, each cap's and each
    spacing rule's tickets by tenth of the packs, and the prize value per pack ranked by Kruskal-Wallis
    across the tenths. And each pack's order is exactly uniform among those meeting the spacing rules
    given its composition (5.3, step 4): given where the spaced tickets are, the other tickets are in a
    uniform order over the other places. So the other winners' places and the runs within each pack, the
    spaced tickets left out; under one spacing rule, the spaced tickets' places too (uniform among those
    d apart, as under 5.8)."""
    books = len(prize) // m
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    why = [f"winners per {unit}: the game's {rule} parameters (a prize-value floor, two spacing rules, three "
           "caps, two caps 5.9 does not take, or a cap beside a spacing rule other than as 5.8 or 5.9 take "
           "it) are drawn by the chain of "
           "docs/randomness.md 5.3: no closed-form law of the packs to test their histograms against, only "
           f"their spread over the {unit}s and each tier given the rest of its pair of {unit}s "
           "(audit/stats/packs.py)"]
    alone = caps_alone(rules, tiers, m, len(prize))
    if spaced_alone(rules, tiers, len(prize)):
        why = [f"winners per {unit}: the game's {rule} parameters (several spacing rules alone) are drawn "
               "exactly by docs/randomness.md 5.12 (rejection from 5.8's draw), whose law of the packs has "
               f"no closed form to test their histograms against: tested by their spread over the {unit}s "
               f"and each tier given the rest of its pair of {unit}s (audit/stats/packs.py)"]
    if rejected_alone(rules, tiers, m, len(prize)):
        why = [f"winners per {unit}: the game's {rule} parameters (caps and spacing rules together) are "
               "drawn exactly by docs/randomness.md 5.13 (rejection from the exact draw of some of them), "
               "whose law of the packs has no closed form to test their histograms against: tested by their "
               f"spread over the {unit}s and each tier given the rest of its pair of {unit}s "
               "(audit/stats/packs.py)"]
    if alone:
        why = [f"the prize value per {unit} against its law: the game's {rule} parameters (several caps "
               "alone, on disjoint tiers) are drawn exactly by docs/randomness.md 5.10, whose compositions "
               "are tested against its law (each cap's tickets given the others', the winners given the "
               f"capped tickets), the prize value per {unit} only by its spread over the {unit}s "
               "(audit/stats/packs.py)"]
    if books < 2:
        return [], why
    win = (np.asarray(prize) > 0)[: books * m].reshape(books, m)
    amounts = np.asarray(prize)[: books * m].reshape(books, m)
    spaced = frozenset().union(*(rule_tiers(r.tiers, r.prize_cents, tiers) for r in rules.spacing))
    named = [(f"capped tickets ({c.label})", rule_tiers(c.tiers, c.prize_cents, tiers)) for c in rules.caps]
    named += [(f"spaced tickets ({r.label})", rule_tiers(r.tiers, r.prize_cents, tiers))
              for r in rules.spacing]
    if named and tier is None:
        raise ValueError("the pool's tier column is needed for its caps and spacing rules")
    column = None if tier is None else np.asarray(tier)[: books * m].reshape(books, m)
    found: list[Finding | None] = [by_tenth_of_packs(f"winners per {unit} by tenth of the {unit}s",
                                                     win.sum(axis=1))]
    seen: set[frozenset[str]] = set()
    tested: set[bytes] = set()  # per-pack counts already tested: the same counts are one statistic, once
    for name, held_tiers in named:
        if held_tiers and held_tiers not in seen and column is not None:
            seen.add(held_tiers)
            held = (np.isin(column, list(held_tiers)) & win).sum(axis=1).astype(np.int64)
            tested.add(held.tobytes())
            found.append(by_tenth_of_packs(f"{name} by tenth of the {unit}s", held))
    levels, counts = np.unique(amounts[win], return_counts=True)
    for amount, count in sorted(zip(levels.tolist(), counts.tolist(), strict=True), reverse=True):
        # the section-1 tests by tenth of the pool assume a uniform shuffle, which a value floor is not
        per_pack = (amounts == amount).sum(axis=1).astype(np.int64)
        if per_pack.tobytes() in tested:  # a cap's or spacing rule's tickets are exactly this level
            continue
        level = f"prize level {money(int(amount), sign)} ({int(count):,} tickets)"
        name = f"{level} per {unit} by tenth of the {unit}s"  # a sparse level: its exact tail (1f)
        found.append(holding_by_tenth(name, per_pack) if count <= EXACT_MAX
                     else by_tenth_of_packs(name, per_pack))
    parts = min(PARTS, books)
    found.append(kruskal(f"prize value per {unit} by tenth of the {unit}s: {books:,} {unit}s",
                         amounts.sum(axis=1), np.arange(books) * parts // books))
    found.append(pair_value_finding(unit, amounts.sum(axis=1)))  # pairs evened out, which the pair tests miss
    if not alone:
        if tier is None:
            why.append(f"each tier per {unit} given the rest of its pair of {unit}s: the pool's tier column "
                       "was not read")
        else:
            cut = books * m
            more, lines = pair_findings(unit, np.asarray(prize)[:cut], np.asarray(tier)[:cut], m, rules,
                                        tiers, sign)
            found += more
            why += lines
    if alone and column is not None:
        caps = [(c.label, np.isin(column, list(rule_tiers(c.tiers, c.prize_cents, tiers))) & win, c.at_most)
                for c in rules.caps]
        if caps_broken([h for _, h, _ in caps], [k for _, _, k in caps], m):
            return refused(unit, rule, np.asarray(prize) > 0)
        found += caps_law_findings(unit, win, caps)
    held = np.zeros((books, m), dtype=bool)
    if spaced and column is not None:
        held = np.isin(column, list(spaced)) & win
    left = ", the spaced tickets left out" if held.any() else ""
    if len(rules.spacing) == 1 and held.any():
        # one rule: the spaced places a uniform choice among those d apart (5.3 step 4), as under 5.8
        found.append(place_finding(f"spaced tickets ({rules.spacing[0].label})", unit, held,
                                   rules.spacing[0].min_distance))
    found.append(others_place(unit, win, held))
    found.append(prizes_by_place(unit, amounts, win & ~held))
    found.append(runs_within(f"runs of winners and losers within each {unit}{left}", win, ~held))
    return too_few(unit, found, why)


def pack_block_findings(prize: np.ndarray, per_book: int, rules: PackRules, tiers: Sequence[Tier] = (),
                        tier: np.ndarray | None = None, sign: str = "$") -> tuple[list[Finding], list[str]]:
    """The pack tests under the pack parameters (replacing the unconstrained per-book ones): `prize`
    and `tier` the pool's columns in print order, `tiers` the pool's (id, prize) as the manifest
    states them."""
    books = len(prize) // per_book
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    win_all = np.asarray(prize) > 0
    exact = exact_case(rules, tiers)
    if exact is None:
        return _chain_findings(prize, per_book, rules, tiers, tier, sign)
    if books < 2:
        return [], [f"winners per {unit}: fewer than two {unit}s"]
    if isinstance(exact, Beside):
        return beside_findings(prize, per_book, rules, exact, tier)
    m = per_book
    win = win_all[: books * m].reshape(books, m)
    if exact.held:
        if tier is None:
            raise ValueError("the pool's tier column is needed for its caps or spacing")
        held = np.isin(np.asarray(tier)[: books * m], list(exact.held)).reshape(books, m) & win
    else:
        held = np.zeros((books, m), dtype=bool)
    w, c = win.sum(axis=1), held.sum(axis=1)
    lo = rules.min_winners or 0
    hi = m if rules.max_winners is None else rules.max_winners
    row, place = np.nonzero(held)
    close = (np.diff(place) < exact.distance) & (row[1:] == row[:-1])
    if (w < lo).any() or (w > hi).any() or (exact.most is not None and (c > exact.most).any()) or close.any():
        return refused(unit, rule, win_all)
    law = Law(m, lo, hi, exact.most, exact.distance)
    kind = "capped" if exact.distance == 1 else "spaced"
    held_name = f"{kind} tickets ({exact.rule})"
    found: list[Finding | None] = []
    skipped: list[str] = []
    if c.sum() == 0:
        found.append(winners_given(f"winners per {unit} of {m}: histogram of {books:,} {unit}s under "
                                   f"the {rule} parameters ({lo}..{hi})", law.given_c, c, w, m))
    else:
        found.append(winners_given(f"winners per {unit} of {m} ({lo}..{hi}) given its {held_name}: "
                                   f"{books:,} {unit}s", law.given_c, c, w, m))
        largest = min(law.most, hi, (m - 1) // exact.distance + 1)
        if largest >= 2:
            found.append(count_given(f"{held_name} per {unit}: histogram of {books:,} {unit}s given their "
                                     "winners", "each pack's winners", law.given_w, w, c, largest))
        else:
            skipped.append(f"{held_name} per {unit}: at most one a {unit}, so their histogram is fixed by "
                           "their count")
        found.append(by_tenth_of_packs(f"{held_name} by tenth of the {unit}s", c))
    if c.sum():
        found.append(place_finding(held_name, unit, held, exact.distance))
    found.append(others_place(unit, win, held))
    amounts = np.asarray(prize)[: books * m].reshape(books, m)
    others = win & ~held
    what = "other winners" if c.sum() else "winners"
    found.append(kruskal(f"prize value of the {what} per {unit}: {books:,} {unit}s", amounts[others],
                         np.nonzero(others)[0]))
    left = f", the {held_name} left out" if c.sum() else ""
    found.append(runs_within(f"runs of winners and losers within each {unit}{left}", win, ~held))
    return too_few(unit, found, skipped)
