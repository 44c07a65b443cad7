"""The laws of a pool's pack compositions under the exact draws of docs/randomness.md (5.2, 5.6 to
5.8), as step 8 tests them (audit/stats/packs.py; docs/statistics.md, section 1b). Written from the
documents alone: no code of poolgen's.

A pack of m tickets holding w winners, c of them of the held tiers S (a cap's, or a spacing rule's
with distance d; c = 0 when there is none), has

    f(w, c) = apart(m, c, d) C(m - c, w - c)     (d = 1 for a cap: C(m, c) C(m - c, w - c) = C(m, w) C(w, c))

valid sequences up to factors that do not depend on the pack, on lo <= w <= hi, 0 <= c <= min(k, w)
with apart(m, c, d) > 0; P(w_1..w_B, c_1..c_B) is proportional to prod_b f(w_b, c_b) with sum w = W
and sum c = C. So given the held counts c, the w_b are independent draws of q(w | c_b) proportional
to f(w, c_b) x^w conditioned on their sum, for any x; and given the winners w, the c_b are draws of
q(c | w_b) proportional to f(w_b, c) y^c conditioned on theirs. With the tilt set so that the
expected sum is the observed one, each pack's count follows its q up to O(1/B).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from audit.read.manifest import Tier
from audit.stats.books import lower_tail_resolved
from audit.stats.laws import chi2_cdf, chi2_sf, norm_sf
from audit.stats.tests import MIN_EXPECTED, MIN_RUNS_SIDE, Finding, distinct_values, runs

__all__ = ["PARTS", "BesideLaw", "Law", "Table", "apart", "by_tenth_of_packs", "chi_square", "conditional",
           "count_given", "kruskal", "others_place", "parts_expected", "pearson", "place_finding", "pooled",
           "ranks_among", "refused", "rule_tiers", "runs_within", "subset_factor", "tilted", "too_few",
           "top_coded", "winners_given"]

Table = Callable[[int], tuple[np.ndarray, np.ndarray]]  # a stratum's code -> (support, log weights)

TILT_RANGE = 60.0  # the tilt's logarithm is searched in [-TILT_RANGE, TILT_RANGE]
BISECTIONS = 100
PARTS = 10  # parts of a range of places in the place tests


def apart(m: int, c: int, d: int) -> int:
    """The ways to place c tickets among places 0..m-1, every two at least d apart:
    C(m - (c - 1)(d - 1), c); 1 for c = 0, 0 when they do not fit."""
    if c == 0:
        return 1
    room = m - (c - 1) * (d - 1)
    return math.comb(room, c) if room >= c else 0


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


class Law:
    """f(w, c) of one pack (as log weights), the held tickets at most `most` a pack (None: no cap)
    and `distance` apart (1: a cap, no spacing)."""

    def __init__(self, m: int, lo: int, hi: int, most: int | None, distance: int) -> None:
        self.m, self.lo, self.hi, self.distance = m, lo, hi, distance
        self.most = m if most is None else most

    def log_f(self, w: int, c: int) -> float | None:
        """log f(w, c), None where (w, c) is not allowed."""
        if not (self.lo <= w <= self.hi and 0 <= c <= min(self.most, w)):
            return None
        ways = apart(self.m, c, self.distance)
        return math.log(ways) + _log_comb(self.m - c, w - c) if ways else None

    def given_c(self, c: int) -> tuple[np.ndarray, np.ndarray]:
        """(the w allowed with c, log f(w, c) at each)."""
        pairs = [(w, self.log_f(w, c)) for w in range(self.lo, self.hi + 1)]
        kept = [(w, v) for w, v in pairs if v is not None]
        return np.array([w for w, _ in kept], dtype=np.int64), np.array([v for _, v in kept])

    def given_w(self, w: int) -> tuple[np.ndarray, np.ndarray]:
        """(the c allowed with w, log f(w, c) at each)."""
        pairs = [(c, self.log_f(w, c)) for c in range(min(self.most, w) + 1)]
        kept = [(c, v) for c, v in pairs if v is not None]
        return np.array([c for c, _ in kept], dtype=np.int64), np.array([v for _, v in kept])


class BesideLaw:
    """f(w, c1, c2) of one pack under docs/randomness.md 5.9 (as log weights): c1 in {0, 1} the pack's
    ticket of S1 (a cap of one), c2 its tickets of T (the second rule's tiers apart from S1). Apart
    (`nested` False): T's c2 tickets at most `most` and `distance` apart, f = apart(m, c2, d)
    C(m - c2, w - c2) C(w - c2, c1). Inside (S1 within S2, T = S2 minus S1): the j = c1 + c2 tickets of
    S2 at most min(`most`, w) and `distance` apart, f = apart(m, j, d) C(m - j, w - j) C(j, c1).
    Strata are coded as whole numbers: (c1, c2) as c1 (m + 1) + c2, (w, c1) as 2 w + c1."""

    def __init__(self, m: int, lo: int, hi: int, most: int | None, distance: int, nested: bool) -> None:
        self.m, self.lo, self.hi, self.distance, self.nested = m, lo, hi, distance, nested
        self.most = m if most is None else most

    def log_f(self, w: int, c1: int, c2: int) -> float | None:
        """log f(w, c1, c2), None where it is not allowed."""
        if not (self.lo <= w <= self.hi and c1 in (0, 1) and c2 >= 0):
            return None
        held = c1 + c2 if self.nested else c2
        if held > self.most or c1 + c2 > w:
            return None
        ways = apart(self.m, held, self.distance)
        which = held if self.nested else w - c2  # the places S1's ticket may take: C(., c1)
        if not ways:
            return None
        return math.log(ways) + _log_comb(self.m - held, w - held) + math.log(which if c1 else 1)

    def given_held(self, code: int) -> tuple[np.ndarray, np.ndarray]:
        """(the w allowed with (c1, c2) = divmod(code, m + 1), log f at each)."""
        c1, c2 = divmod(code, self.m + 1)
        return _support([(w, self.log_f(w, c1, c2)) for w in range(self.lo, self.hi + 1)])

    def given_w(self, code: int) -> tuple[np.ndarray, np.ndarray]:
        """(the c2 allowed with (w, c1) = divmod(code, 2), log f at each)."""
        w, c1 = divmod(code, 2)
        return _support([(c, self.log_f(w, c1, c)) for c in range(w + 1)])


def _support(pairs: list[tuple[int, float | None]]) -> tuple[np.ndarray, np.ndarray]:
    kept = [(x, v) for x, v in pairs if v is not None]
    return np.array([x for x, _ in kept], dtype=np.int64), np.array([v for _, v in kept])


def tilted(support: np.ndarray, logw: np.ndarray, t: float) -> np.ndarray:
    """The law proportional to exp(logw + t support) on `support`."""
    e = logw + t * support
    p = np.exp(e - e.max())
    return np.asarray(p / p.sum())


def conditional(groups: dict[int, int], table: Table, total: int) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For packs grouped by the count they are conditioned on (value -> packs), each group's law of
    the other count, (support, probabilities), tilted by one t so that the expected sum over the
    packs is `total` (bisection of t in [-TILT_RANGE, TILT_RANGE]: the expected sum grows with t)."""
    tables = {g: table(g) for g in groups}

    def laws(t: float) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        return {g: (s, tilted(s, v, t)) for g, (s, v) in tables.items() if s.size}

    def mean(t: float) -> float:
        return sum(groups[g] * float((s * p).sum()) for g, (s, p) in laws(t).items())

    a, b = -TILT_RANGE, TILT_RANGE
    for _ in range(BISECTIONS):
        mid = (a + b) / 2
        a, b = (mid, b) if mean(mid) < total else (a, mid)
    return laws((a + b) / 2)


def pooled(expected: np.ndarray, observed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Consecutive cells pooled from the first until each bin expects MIN_EXPECTED, what is left at the
    end joining the last bin: (expected, observed) per bin (one bin, or none, if too few)."""
    edges, acc = [], 0.0
    for k, e in enumerate(expected):
        acc += e
        if acc >= MIN_EXPECTED:
            edges.append(k + 1)
            acc = 0.0
    if not edges:
        return np.zeros(0), np.zeros(0)
    edges[-1] = len(expected)
    starts = [0, *edges[:-1]]
    exp = np.array([expected[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    obs = np.array([observed[a:b].sum() for a, b in zip(starts, edges, strict=True)], dtype=np.float64)
    return exp, obs


def chi_square(exp: np.ndarray, obs: np.ndarray) -> tuple[float, int]:
    """Pearson's X2 of pooled bins and its df (bins - 1; 0 for fewer than two bins)."""
    if exp.size < 2:
        return 0.0, 0
    return float(((obs - exp) ** 2 / exp).sum()), int(exp.size - 1)


def parts_expected(sizes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The expected number of draws in each of the PARTS parts `place * PARTS // size` when each row
    draws counts[i] places uniformly (without replacement) from range(sizes[i])."""
    out = np.zeros(PARTS)
    by: dict[int, int] = {}
    for size, n in zip(sizes.tolist(), counts.tolist(), strict=True):
        if size > 0 and n > 0:
            by[size] = by.get(size, 0) + n
    for size, n in by.items():
        share = np.diff(-(-np.arange(PARTS + 1) * size // PARTS)) / size
        out += n * share
    return out


def subset_factor(sizes: np.ndarray, counts: np.ndarray) -> float:
    """The finite-population factor of draws without replacement, sum a (n - a) / (n - 1) / sum a over
    the rows (n = sizes, a = counts; a row of n = 1 adds nothing): the counts per part of rows drawing
    uniform a-subsets of range(n) have this times the multinomial covariance, so Pearson's X2 divided
    by it is chi-square (1 when nothing is drawn)."""
    n, a = sizes.astype(np.float64), counts.astype(np.float64)
    drawn = float(a.sum())
    if drawn <= 0:
        return 1.0
    each = np.where(n > 1, a * (n - a) / np.maximum(n - 1, 1), 0.0)
    return max(float(each.sum()) / drawn, 1e-12)


def rule_tiers(named: tuple[str, ...], prize: int | None, tiers: Sequence[Tier]) -> frozenset[str]:
    """The tier ids a cap or spacing rule holds: those it names, or the pool's tiers paying its prize."""
    if prize is None:
        return frozenset(named)
    return frozenset(t.id for t in tiers if t.prize_cents == prize)


def pearson(name: str, what: str, exp: np.ndarray, obs: np.ndarray, factor: float = 1.0) -> Finding | None:
    """Pearson's chi-square of `obs` against `exp`, bins pooled to 5 expected, X2 divided by `factor`
    (the finite-population factor of draws without replacement, `subset_factor`; 1: none)."""
    e, o = pooled(exp, obs)
    x2, df = chi_square(e, o)
    if df == 0:
        return None
    x2 /= factor
    scaled = f", X2 divided by {factor:.3f} (drawn without replacement)" if factor != 1.0 else ""
    return Finding(name, f"chi-square {what}, {df + 1} bins (pooled to 5 expected){scaled}",
                   f"X2 = {x2:.2f}, df = {df}", float(chi2_sf(x2, df)))


def winners_given(name: str, table: Table, strata: np.ndarray, w: np.ndarray, m: int) -> Finding | None:
    """Winners per pack against q(w | its stratum) (`table`: a stratum's code -> the allowed w and
    log f), one tilt for every pack: X2 summed over the strata."""
    values, counts = np.unique(strata, return_counts=True)
    laws = conditional(dict(zip(values.tolist(), counts.tolist(), strict=True)), table, int(w.sum()))
    x2, df = 0.0, 0
    for value, n in zip(values.tolist(), counts.tolist(), strict=True):
        if value not in laws:
            continue
        support, q = laws[value]
        seen = np.bincount(w[strata == value], minlength=m + 1)[support]
        part, more = chi_square(*pooled(n * q, seen))
        x2, df = x2 + part, df + more
    if df == 0:
        return None
    several = "one stratum" if values.size == 1 else f"{values.size} strata of the held count"
    return Finding(name, f"chi-square of the histogram against the constrained distribution ({several}, "
                   "tails pooled to 5 expected)", f"X2 = {x2:.2f}, df = {df}", float(chi2_sf(x2, df)))


def count_given(name: str, given: str, table: Table, strata: np.ndarray, c: np.ndarray,
                largest: int) -> Finding | None:
    """Held tickets per pack against sum_b q(c | pack b's stratum) (`table`: a stratum's code -> the
    allowed c and log f; `largest` the most a pack may hold), one tilt for every pack."""
    values, counts = np.unique(strata, return_counts=True)
    laws = conditional(dict(zip(values.tolist(), counts.tolist(), strict=True)), table, int(c.sum()))
    expected = np.zeros(max(largest, int(c.max())) + 1)
    for value, n in zip(values.tolist(), counts.tolist(), strict=True):
        if value in laws and laws[value][0].size:
            support, q = laws[value]
            expected[: support.max() + 1] += np.bincount(support, weights=n * q, minlength=support.max() + 1)
    seen = np.bincount(c, minlength=expected.size)[: expected.size]
    return pearson(name, f"of the histogram against the constrained distribution given {given}", expected,
                   seen)


def by_tenth_of_packs(name: str, c: np.ndarray) -> Finding | None:
    """The held counts c_b, exchangeable across packs, summed per part of the pack sequence: a
    permutation chi-square (B - 1) / B sum_g (S_g - n_g mean)^2 / (n_g var), df G - 1."""
    books, total = len(c), int(c.sum())
    parts = min(PARTS, total // 10, books)  # never an empty part
    var = float(c.var())
    if parts < 2 or var <= 0:
        return None
    group = np.arange(books) * parts // books
    n = np.bincount(group, minlength=parts).astype(np.float64)
    s = np.bincount(group, weights=c.astype(np.float64), minlength=parts)
    x2 = (books - 1) / books * float(((s - n * total / books) ** 2 / (n * var)).sum())
    return Finding(name, f"permutation chi-square of the held count per part, {parts} parts of the packs",
                   f"X2 = {x2:.2f}, df = {parts - 1}", float(chi2_sf(x2, parts - 1)))


def top_coded(amounts: np.ndarray, least: int) -> np.ndarray:
    """The amounts with every amount held by fewer than `least` tickets merged, from the highest down,
    into the next lower amount until each class holds at least `least`, then the lowest class, if it
    holds fewer, into the next higher one: as section 1 of docs/statistics.md bins no level of fewer
    than 20 tickets."""
    values, counts = np.unique(amounts, return_counts=True)
    out, acc = amounts.copy(), 0
    for i in range(len(values) - 1, 0, -1):
        acc += int(counts[i])
        if acc < least:
            out[out == values[i]] = values[i - 1]  # below `least` so far: joins the next lower amount
        else:
            acc = 0
    values, counts = np.unique(out, return_counts=True)
    if len(values) > 1 and counts[0] < least:
        out[out == values[0]] = values[1]
    return out


def kruskal(name: str, amounts: np.ndarray, group: np.ndarray, least: int = 0) -> Finding | None:
    """Kruskal-Wallis of amounts across groups of any size (mid-ranks, ties corrected), two-sided where
    the amounts resolve the lower tail, else its upper tail alone; with `least`, amounts first
    `top_coded` to classes of at least that many tickets. Resolved: as the dispersion's lower tail
    (audit/stats/books.py `lower_tail_resolved`), for the count per group of the amounts outside the
    largest class, a group of the mean size drawn without replacement (H is no less discrete: a function
    of those counts alone when the amounts are two)."""
    n = len(amounts)
    if n < 2:
        return None
    if least:
        amounts = top_coded(amounts, least)
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
    share, mean = 1.0 - float(counts.max()) / n, n / present.size
    var = mean * share * (1.0 - share) * (n - mean) / (n - 1)
    if var > 0 and lower_tail_resolved(present.size, var):
        p, sides = 2 * min(chi2_sf(h, df), chi2_cdf(h, df)), "two-sided"
    else:
        p, sides = chi2_sf(h, df), "upper tail: too few groups for the lower"
    return Finding(name, f"Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), {sides}",
                   f"H = {h:.1f}, df = {df}", float(min(1.0, p)))


def runs_within(name: str, win: np.ndarray, keep: np.ndarray) -> Finding | None:
    """Wald-Wolfowitz runs of the kept tickets of each pack (rows), summed over the packs, against the
    sum of each pack's mean and variance given its counts; normal approximation, two-sided."""
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
                   float(min(1.0, 2 * norm_sf(abs(z)))))


def ranks_among(name: str, what: str, chosen: np.ndarray, among: np.ndarray) -> Finding | None:
    """The chosen tickets' ranks among their pack's `among` places (chosen within among, rows the
    packs), each pack's a uniform subset of range(its among places): tenths of the ranks."""
    n, a = among.sum(axis=1), chosen.sum(axis=1)
    rank = np.cumsum(among, axis=1) - 1
    row, col = np.nonzero(chosen)
    seen = np.bincount(rank[row, col] * PARTS // n[row], minlength=PARTS)
    return pearson(name, what, parts_expected(n, a), seen, subset_factor(n, a))


def others_place(unit: str, win: np.ndarray, held: np.ndarray) -> Finding | None:
    """The other winners' ranks among their pack's places other than the held ones: uniform subsets."""
    which = "other winners by place among their" if held.any() else "winners by place in their"
    places = f"{unit}'s other places" if held.any() else unit
    return ranks_among(f"{which} {places} (tenths)", "of the places against the uniform order", win & ~held,
                       ~held)


def place_finding(held_name: str, unit: str, held: np.ndarray, d: int) -> Finding | None:
    """The held tickets' places x_0 < .. < x_(c-1) in each pack (rows), y_i = x_i - i (d - 1) a uniform
    c-subset of range(m - (c - 1)(d - 1)): tenths of y against the uniform placement (None: none held)."""
    books, m = held.shape
    c = held.sum(axis=1)
    if not c.sum():
        return None
    row, place = np.nonzero(held)  # row-major: each pack's held places ascending
    rank = np.arange(place.size) - np.repeat(np.cumsum(c) - c, c)
    y = place - rank * (d - 1)
    room = np.where(c > 0, m - (c - 1) * (d - 1), 0)
    seen = np.bincount(y * PARTS // room[row], minlength=PARTS)
    spacing = f"y = place - i ({d} - 1) of the i-th, " if d > 1 else ""
    return pearson(f"{held_name} by place in their {unit} ({spacing}tenths of the places they may take)",
                   "of the places against the uniform placement", parts_expected(room, c), seen,
                   subset_factor(room, c))


def refused(unit: str, rule: str, win: np.ndarray) -> tuple[list[Finding], list[str]]:
    """A pool some of whose packs break their parameters (step 5 names them): their law does not
    apply, so only the runs test in print order, and a line saying why."""
    ran = runs("runs of winners and losers in print order", win)
    return ([ran] if ran is not None else []), [
        f"the {unit} tests under the {rule} parameters: some {unit}s break them (step 5 names them), "
        "so their law does not apply"]


def too_few(unit: str, found: list[Finding | None], skipped: list[str]) -> tuple[list[Finding], list[str]]:
    """The findings made, and a line for those that had too few tickets."""
    kept = [f for f in found if f is not None]
    if len(kept) < len(found):
        skipped = [*skipped, f"{len(found) - len(kept)} of the {unit} tests: too few tickets to bin or rank"]
    return kept, skipped
