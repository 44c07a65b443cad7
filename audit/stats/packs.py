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

Under any other composition parameter (a prize-value floor, two caps or spacing rules, a cap beside
a spacing rule on other tiers: the chain of 5.3) the compositions have no closed-form law and are
listed as not tested; the order within each pack is still exact given its composition (5.3, step 4),
so the other winners' places and the runs within each pack are tested, the spaced tickets left out.
A pool whose packs break their parameters (step 5 refuses it) is not held to the law.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from audit.read.manifest import Tier
from audit.read.specs.packs import PackRules
from audit.stats.pack_laws import PARTS, Law, chi_square, conditional, parts_expected, pooled, subset_factor
from audit.stats.tests import MIN_RUNS_SIDE, Finding, distinct_values, runs

__all__ = ["Exact", "exact_case", "pack_block_findings", "rule_tiers", "winners_reference"]


@dataclass(frozen=True)
class Exact:
    """An exact case's held tiers S (empty under winners bounds alone), its cap k (None: none) and
    spacing d (1: none), and the rule they come from ("" for none)."""

    held: frozenset[str]
    most: int | None
    distance: int
    rule: str


def exact_case(rules: PackRules, tiers: Sequence[Tier]) -> Exact | None:
    """The exact case of the pool's rules (docs/randomness.md 5.2, 5.6-5.8), None when the chain of
    5.3 draws it (a value floor, two caps or spacing rules, a cap on other tiers than the spacing's,
    a held tier that does not win)."""
    if rules.min_prize_cents is not None or rules.min_prize_times is not None:
        return None
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


def rule_tiers(named: tuple[str, ...], prize: int | None, tiers: Sequence[Tier]) -> frozenset[str]:
    """The tier ids a cap or spacing rule holds: those it names, or the pool's tiers paying its prize."""
    if prize is None:
        return frozenset(named)
    return frozenset(t.id for t in tiers if t.prize_cents == prize)


def winners_reference(m: int, books: int, total: int, lo: int, hi: int) -> np.ndarray:
    """q(w) for w = 0..m (zero outside [lo, hi]): C(m, w) x^w normalised, mean total / books."""
    law = Law(m, lo, hi, 0, 1)
    (support, q), = conditional({0: books}, law.given_c, total).values()
    out = np.zeros(m + 1)
    out[support] = q
    return out


def _finding(name: str, what: str, exp: np.ndarray, obs: np.ndarray, factor: float = 1.0) -> Finding | None:
    """Pearson's chi-square of `obs` against `exp`, bins pooled to 5 expected, X2 divided by `factor`
    (the finite-population factor of draws without replacement, `subset_factor`; 1: none)."""
    from scipy import stats  # here, not with the module: as in audit/stats/tests.py (start-up time)
    e, o = pooled(exp, obs)
    x2, df = chi_square(e, o)
    if df == 0:
        return None
    x2 /= factor
    scaled = f", X2 divided by {factor:.3f} (drawn without replacement)" if factor != 1.0 else ""
    return Finding(name, f"chi-square {what}, {df + 1} bins (pooled to 5 expected){scaled}",
                   f"X2 = {x2:.2f}, df = {df}", float(stats.chi2.sf(x2, df)))


def _winners_given_held(name: str, law: Law, w: np.ndarray, c: np.ndarray) -> Finding | None:
    """Winners per pack against q(w | c_b), stratified by c: X2 summed over the strata."""
    from scipy import stats
    values, counts = np.unique(c, return_counts=True)
    laws = conditional(dict(zip(values.tolist(), counts.tolist(), strict=True)), law.given_c, int(w.sum()))
    x2, df = 0.0, 0
    for value, n in zip(values.tolist(), counts.tolist(), strict=True):
        if value not in laws:
            continue
        support, q = laws[value]
        seen = np.bincount(w[c == value], minlength=law.m + 1)[support]
        part, more = chi_square(*pooled(n * q, seen))
        x2, df = x2 + part, df + more
    if df == 0:
        return None
    strata = "one stratum" if values.size == 1 else f"{values.size} strata of the held count"
    return Finding(name, f"chi-square of the histogram against the constrained distribution ({strata}, tails "
                   "pooled to 5 expected)", f"X2 = {x2:.2f}, df = {df}", float(stats.chi2.sf(x2, df)))


def _held_given_winners(name: str, law: Law, w: np.ndarray, c: np.ndarray) -> Finding | None:
    values, counts = np.unique(w, return_counts=True)
    laws = conditional(dict(zip(values.tolist(), counts.tolist(), strict=True)), law.given_w, int(c.sum()))
    allowed = min(law.most, law.hi, (law.m - 1) // law.distance + 1)
    expected = np.zeros(max(allowed, int(c.max())) + 1)
    for value, n in zip(values.tolist(), counts.tolist(), strict=True):
        if value in laws:
            support, q = laws[value]
            expected[: support.max() + 1] += np.bincount(support, weights=n * q, minlength=support.max() + 1)
    seen = np.bincount(c, minlength=expected.size)[: expected.size]
    return _finding(name, "of the histogram against the constrained distribution given each pack's winners",
                    expected, seen)


def _by_tenth_of_packs(name: str, c: np.ndarray) -> Finding | None:
    """The held counts c_b, exchangeable across packs, summed per part of the pack sequence: a
    permutation chi-square (B - 1) / B sum_g (S_g - n_g mean)^2 / (n_g var), df G - 1."""
    from scipy import stats
    books, total = len(c), int(c.sum())
    parts = min(PARTS, total // 10)
    var = float(c.var())
    if parts < 2 or var <= 0:
        return None
    group = np.arange(books) * parts // books
    n = np.bincount(group, minlength=parts).astype(np.float64)
    s = np.bincount(group, weights=c.astype(np.float64), minlength=parts)
    x2 = (books - 1) / books * float(((s - n * total / books) ** 2 / (n * var)).sum())
    return Finding(name, f"permutation chi-square of the held count per part, {parts} parts of the packs",
                   f"X2 = {x2:.2f}, df = {parts - 1}", float(stats.chi2.sf(x2, parts - 1)))


def _kruskal(name: str, amounts: np.ndarray, group: np.ndarray) -> Finding | None:
    """Kruskal-Wallis of amounts across groups of any size (mid-ranks, ties corrected), two-sided."""
    from scipy import stats
    n = len(amounts)
    if n < 2:
        return None
    values, inverse, counts = distinct_values(amounts)
    present = np.unique(group)
    if len(values) < 2 or present.size < 2:
        return None
    mid = np.cumsum(counts) - (counts - 1) / 2.0
    ranks = mid[inverse]
    size = np.bincount(group).astype(np.float64)
    sums = np.bincount(group, weights=ranks)
    h = 12.0 / (n * (n + 1)) * float((sums[size > 0] ** 2 / size[size > 0]).sum()) - 3.0 * (n + 1)
    h /= 1.0 - float((counts.astype(np.float64) ** 3 - counts).sum()) / (n ** 3 - n)
    df = present.size - 1
    p = 2 * min(stats.chi2.sf(h, df), stats.chi2.cdf(h, df))
    return Finding(name, "Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), two-sided",
                   f"H = {h:.1f}, df = {df}", float(min(1.0, p)))


def _runs_within(name: str, win: np.ndarray, keep: np.ndarray) -> Finding | None:
    """Wald-Wolfowitz runs of the kept tickets of each pack (rows), summed over the packs, against the
    sum of each pack's mean and variance given its counts; normal approximation, two-sided."""
    from scipy import stats
    n = keep.sum(axis=1).astype(np.float64)
    a = (win & keep).sum(axis=1).astype(np.float64)
    b = n - a
    if a.sum() < MIN_RUNS_SIDE or b.sum() < MIN_RUNS_SIDE:
        return None
    flat = win[keep]
    pack = np.repeat(np.arange(len(n)), n.astype(np.int64))
    changes = int(np.count_nonzero((flat[1:] != flat[:-1]) & (pack[1:] == pack[:-1])))
    runs_seen = changes + int((n > 0).sum())
    safe = np.maximum(n, 2)
    mean = float(np.where(n > 0, 1 + 2 * a * b / np.maximum(n, 1), 0).sum())
    var = float(np.where(n > 1, 2 * a * b * (2 * a * b - n) / (safe * safe * (safe - 1)), 0).sum())
    if var <= 0:
        return None
    z = (runs_seen - mean) / math.sqrt(var)
    return Finding(name, "Wald-Wolfowitz runs pack by pack, summed, normal approximation, two-sided",
                   f"{runs_seen:,} runs, expected {mean:,.1f}, z = {z:.2f}",
                   float(min(1.0, 2 * stats.norm.sf(abs(z)))))


def _place_tests(unit: str, held_name: str, exact: Exact, win: np.ndarray, held: np.ndarray,
                 c: np.ndarray) -> list[Finding | None]:
    books, m = win.shape
    d = exact.distance
    out: list[Finding | None] = []
    if c.sum():
        row, place = np.nonzero(held)  # row-major: each pack's held places ascending
        rank = np.arange(place.size) - np.repeat(np.cumsum(c) - c, c)
        y = place - rank * (d - 1)
        room = np.where(c > 0, m - (c - 1) * (d - 1), 0)
        seen = np.bincount(y * PARTS // room[row], minlength=PARTS)
        spacing = f"y = place - i ({d} - 1) of the i-th, " if d > 1 else ""
        out.append(_finding(f"{held_name} by place in their {unit} ({spacing}tenths of the places they "
                            "may take)", "of the places against the uniform placement",
                            parts_expected(room, c), seen, subset_factor(room, c)))
    return [*out, _others_place(unit, win, held, c)]


def _others_place(unit: str, win: np.ndarray, held: np.ndarray, c: np.ndarray) -> Finding | None:
    """The other winners' ranks among their pack's other places: uniform subsets."""
    m = win.shape[1]
    other = ~held
    others_won = win & other
    rest = m - c
    rank = np.cumsum(other, axis=1) - 1  # each ticket's rank among its pack's other places
    row, col = np.nonzero(others_won)
    seen = np.bincount(rank[row, col] * PARTS // rest[row], minlength=PARTS)
    which = "other winners by place among their" if c.sum() else "winners by place in their"
    places = f"{unit}'s other places" if c.sum() else unit
    drawn = others_won.sum(axis=1)
    return _finding(f"{which} {places} (tenths)", "of the places against the uniform order",
                    parts_expected(rest, drawn), seen, subset_factor(rest, drawn))


def _chain_findings(prize: np.ndarray, m: int, rules: PackRules, tiers: Sequence[Tier],
                    tier: np.ndarray | None) -> tuple[list[Finding], list[str]]:
    """Under the chain of randomness.md 5.3 the compositions have no closed-form law, but each pack's
    order is exactly uniform among those meeting the spacing rules given its composition (5.3, step 4):
    given where the spaced tickets are, the other tickets are in a uniform order over the other places.
    So the other winners' places and the runs within each pack, the spaced tickets left out."""
    books = len(prize) // m
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    why = [f"winners per {unit}: the game's {rule} parameters (a prize-value floor, two caps or spacing "
           "rules, or a cap beside a spacing rule on other tiers) are drawn by the chain of "
           "docs/randomness.md 5.3: no closed-form law of the packs to test them against "
           "(audit/stats/packs.py)"]
    if books < 2:
        return [], why
    win = (np.asarray(prize) > 0)[: books * m].reshape(books, m)
    spaced = frozenset().union(*(rule_tiers(r.tiers, r.prize_cents, tiers) for r in rules.spacing))
    held = np.zeros((books, m), dtype=bool)
    if spaced:
        if tier is None:
            raise ValueError("the pool's tier column is needed for its spacing rules")
        held = np.isin(np.asarray(tier)[: books * m], list(spaced)).reshape(books, m) & win
    left = ", the spaced tickets left out" if held.any() else ""
    found = [_others_place(unit, win, held, held.sum(axis=1)),
             _runs_within(f"runs of winners and losers within each {unit}{left}", win, ~held)]
    kept = [f for f in found if f is not None]
    if len(kept) < len(found):
        why.append(f"{len(found) - len(kept)} of the {unit} tests: too few tickets to bin or rank")
    return kept, why


def pack_block_findings(prize: np.ndarray, per_book: int, rules: PackRules, tiers: Sequence[Tier] = (),
                        tier: np.ndarray | None = None) -> tuple[list[Finding], list[str]]:
    """The pack tests under the pack parameters (replacing the unconstrained per-book ones): `prize`
    and `tier` the pool's columns in print order, `tiers` the pool's (id, prize) as the manifest
    states them."""
    books = len(prize) // per_book
    unit, rule = rules.unit, "pack" if rules.size is None else "block"
    win_all = np.asarray(prize) > 0
    exact = exact_case(rules, tiers)
    if exact is None:
        return _chain_findings(prize, per_book, rules, tiers, tier)
    if books < 2:
        return [], [f"winners per {unit}: fewer than two {unit}s"]
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
        ran = runs("runs of winners and losers in print order", win_all)
        return ([ran] if ran is not None else []), [
            f"the {unit} tests under the {rule} parameters: some {unit}s break them (step 5 names them), "
            "so their law does not apply"]
    law = Law(m, lo, hi, exact.most, exact.distance)
    kind = "capped" if exact.distance == 1 else "spaced"
    held_name = f"{kind} tickets ({exact.rule})"
    found: list[Finding | None] = []
    skipped: list[str] = []
    if c.sum() == 0:
        found.append(_winners_given_held(f"winners per {unit} of {m}: histogram of {books:,} {unit}s under "
                                         f"the {rule} parameters ({lo}..{hi})", law, w, c))
    else:
        found.append(_winners_given_held(f"winners per {unit} of {m} ({lo}..{hi}) given its {held_name}: "
                                         f"{books:,} {unit}s", law, w, c))
        if min(law.most, hi, (m - 1) // exact.distance + 1) >= 2:
            found.append(_held_given_winners(f"{held_name} per {unit}: histogram of {books:,} {unit}s given "
                                             "their winners", law, w, c))
        else:
            skipped.append(f"{held_name} per {unit}: at most one a {unit}, so their histogram is fixed by "
                           "their count")
        found.append(_by_tenth_of_packs(f"{held_name} by tenth of the {unit}s", c))
    found += _place_tests(unit, held_name, exact, win, held, c)
    amounts = np.asarray(prize)[: books * m].reshape(books, m)
    others = win & ~held
    row = np.nonzero(others)[0]
    what = "other winners" if c.sum() else "winners"
    found.append(_kruskal(f"prize value of the {what} per {unit}: {books:,} {unit}s", amounts[others], row))
    left = f", the {held_name} left out" if c.sum() else ""
    found.append(_runs_within(f"runs of winners and losers within each {unit}{left}", win, ~held))
    kept = [f for f in found if f is not None]
    if len(kept) < len(found):
        skipped.append(f"{len(found) - len(kept)} of the {unit} tests: too few tickets to bin or rank")
    return kept, skipped
