"""The statistical tests of step 8, each a function from arrays to one `Finding` (docs/statistics.md).

Every test here is a test of a null hypothesis that an honest pool satisfies exactly: its tickets
are a uniform shuffle of the stated tier counts, and the layout features its contract promises to
be uninformative are independent of winning. p-values come from scipy's chi-square and normal
distributions (asymptotic, valid at the expected counts each test insists on) or are exact (the
smallest and largest position of a group of tickets). None of them draws random numbers: the
classifier's train/test split is a hash of the row number and a key the caller derives from the
pool file's SHA-256.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from audit.stats.laws import chi2_sf, hypergeom_pmf, log_choose_ratio, mid_ranks, norm_sf

# scipy is imported in the functions that use it: at module level it costs every command (check,
# generate, ...) 0.8 s at start, and only step 8 needs it.

__all__ = ["SAMPLE", "STEPS", "Finding", "auc_classifier", "distinct_values", "equal_parts",
           "extreme_position", "histogram", "histogram_against", "independence", "runs", "split_mask",
           "table_test"]

MIN_EXPECTED = 5.0  # smallest expected count of a chi-square cell (categories are pooled up to it)
MIN_RUNS_SIDE = 20  # fewest winners (and losers) for the runs test's normal approximation
MIN_AUC_SIDE = 50  # fewest winners (and losers) in each half for the classifier test
RIDGE = 1.0  # penalty of the logistic regression (keeps one-hot columns with an intercept solvable)
NEWTON_STEPS = 12
SCORE_DECIMALS = 9  # held-out scores rounded so that scores equal in exact arithmetic tie in the AUC


@dataclass(frozen=True)
class Finding:
    """One test's result: `name` says what is tested, `method` how, `figures` the statistic."""

    name: str
    method: str
    figures: str
    p: float


def distinct_values(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True, return_counts=True) without sorting the column. Integers
    that are the least plus a multiple of a step, spanning fewer than STEPS steps (codes; prize amounts in
    cents, multiples of a few dollars), are counted by step and looked up in a table; other values'
    distinct values are found by hashing (polars), then each row's index by binary search among them (a
    pool's columns hold a few dozen distinct values at most)."""
    import polars as pl
    stepped = _steps(values) if values.dtype.kind in "iu" and len(values) else None
    if stepped is not None:
        key, lo, step = stepped
        counts = np.bincount(key)
        held = np.flatnonzero(counts)
        lookup = np.zeros(len(counts), dtype=np.intp)
        lookup[held] = np.arange(len(held))
        return (held * step + lo).astype(values.dtype), lookup[key], counts[held]
    distinct = np.sort(pl.Series(values).unique().to_numpy())
    inverse = np.searchsorted(distinct, values)
    return distinct, inverse, np.bincount(inverse, minlength=len(distinct))


STEPS = 1 << 16  # a table of at most this many counts
SAMPLE = 4_096  # the values a step is guessed from (then proved on every value)


def _steps(values: np.ndarray) -> tuple[np.ndarray, int, int] | None:
    """(each value's distance from the least in steps, the least, the step) for integers the least plus
    a multiple of a step and fewer than STEPS steps apart; else None. Codes from 0 to STEPS - 1 are their
    own; otherwise the step is the greatest common divisor of the first SAMPLE values' and the largest's
    distances from the least, then checked on every value."""
    lo, hi = int(values.min()), int(values.max())
    if lo >= 0 and hi < STEPS:
        return values, 0, 1
    if lo < -(1 << 62) or hi >= 1 << 62:  # distances that may not fit in int64
        return None
    apart = values.astype(np.int64, copy=False)
    apart = apart - lo if lo else apart
    step = max(1, int(np.gcd.reduce(np.append(apart[:SAMPLE], hi - lo))))
    if (hi - lo) // step >= STEPS:
        return None
    if step == 1:
        return apart, lo, 1
    key = apart // step  # (a division by one number is a multiplication; a remainder is not)
    return (key, lo, step) if np.array_equal(key * step, apart) else None


def _p(x: float) -> float:
    return float(min(1.0, max(0.0, x)))


def _pool_categories(counts: np.ndarray, threshold: float) -> np.ndarray:
    """Bin of each category: categories with a total below `threshold` are pooled together (and
    the pooled bin, if still below it, with the smallest remaining category). Returns bin ids."""
    order = np.argsort(counts, kind="stable")
    bins = np.arange(len(counts))
    small = [int(c) for c in order if counts[c] < threshold]
    big = [int(c) for c in order if counts[c] >= threshold]
    if small:
        pooled = small[0]
        bins[small] = pooled
        if counts[small].sum() < threshold and big:
            bins[bins == pooled] = big[0]
    _, dense = np.unique(bins, return_inverse=True)
    return dense


def independence(name: str, label: np.ndarray, category: np.ndarray) -> Finding | None:
    """Pearson's chi-square test of independence of a yes/no label and a category (2 x K table),
    categories pooled until every expected cell is at least MIN_EXPECTED. None if fewer than two
    bins remain (nothing to test)."""
    label = np.asarray(label, dtype=bool)
    category = np.asarray(category)
    if not len(label):
        return None
    if category.dtype.kind in "iub" and int(category.min()) >= 0 and int(category.max()) < 1 << 16:
        top = int(category.max()) + 1
        both = np.bincount(category.astype(np.intp) * 2 + label, minlength=2 * top).reshape(top, 2)  # no sort
        total, hit = both.sum(axis=1), both[:, 1]
    else:
        codes, cat, _ = distinct_values(category)
        total = np.bincount(cat, minlength=len(codes))
        hit = np.bincount(cat[label], minlength=len(codes))
    return table_test(name, total, hit)


def equal_parts(n: int, parts: int) -> np.ndarray:
    """How many of positions 0..n-1 fall in each part `position * parts // n`."""
    return np.diff(-(-np.arange(parts + 1) * n // parts))


def table_test(name: str, total: np.ndarray, hit: np.ndarray) -> Finding | None:
    """`independence` from the counts: rows per category (`total`) and those with the label (`hit`)."""
    present = total > 0
    total = total[present].astype(np.float64)
    hit = hit[present].astype(np.float64)
    n, yes = float(total.sum()), float(hit.sum())
    if yes == 0 or yes == n:
        return None
    bins = _pool_categories(total, MIN_EXPECTED * n / min(yes, n - yes))
    k = int(bins.max()) + 1
    if k < 2:
        return None
    col = np.bincount(bins, weights=total, minlength=k)
    hits = np.bincount(bins, weights=hit, minlength=k)
    exp_hit = col * yes / n
    exp_miss = col - exp_hit
    x2 = float((((hits - exp_hit) ** 2) / exp_hit).sum() + (((col - hits - exp_miss) ** 2) / exp_miss).sum())
    df = k - 1
    pooled = f", {len(total) - k + 1} rare categories pooled" if k < len(total) else ""
    return Finding(name, f"chi-square test of independence, 2 x {k}{pooled}",
                   f"X2 = {x2:.2f}, df = {df}", _p(chi2_sf(x2, df)))


def histogram(name: str, per_block: np.ndarray, population: int, successes: int) -> Finding | None:
    """The histogram of winners per block against the exact distribution a uniform shuffle gives
    (each block's count is hypergeometric: `population` tickets, `successes` winners, blocks of
    equal size), tails pooled to MIN_EXPECTED, Pearson's chi-square."""
    blocks = len(per_block)
    if blocks < 2:
        return None
    size = population // blocks
    return histogram_against(name, per_block,
                             blocks * hypergeom_pmf(population, successes, size))


def histogram_against(name: str, per_block: np.ndarray, expected: np.ndarray) -> Finding | None:
    """The histogram of per-block counts against `expected` (blocks x the pmf of a block's count,
    counts 0..size), consecutive counts pooled until each bin expects MIN_EXPECTED, Pearson's chi-square."""
    size = len(expected) - 1
    if len(per_block) < 2:
        return None
    observed = np.bincount(per_block, minlength=size + 1)[: size + 1].astype(np.float64)
    edges, acc = [], 0.0
    for k in range(size + 1):  # bins of consecutive counts, each expecting at least MIN_EXPECTED
        acc += expected[k]
        if acc >= MIN_EXPECTED * (1 - 1e-12):  # exactly 5 closes a bin, whatever the pmf's rounding
            edges.append(k + 1)
            acc = 0.0
    if not edges:
        return None
    edges[-1] = size + 1  # what is left at the top joins the last bin
    if len(edges) < 2:
        return None
    starts = [0, *edges[:-1]]
    exp = np.array([expected[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    obs = np.array([observed[a:b].sum() for a, b in zip(starts, edges, strict=True)])
    x2 = float(((obs - exp) ** 2 / exp).sum())
    df = len(edges) - 1
    return Finding(name, f"chi-square of the histogram against the hypergeometric, {len(edges)} bins "
                   "(tails pooled)", f"X2 = {x2:.2f}, df = {df}", _p(chi2_sf(x2, df)))


def runs(name: str, label: np.ndarray) -> Finding | None:
    """The Wald-Wolfowitz runs test of a yes/no sequence: the number of runs against its mean and
    variance under a uniform shuffle, normal approximation, two-sided."""
    n = len(label)
    n1 = int(label.sum())
    n0 = n - n1
    if min(n0, n1) < MIN_RUNS_SIDE:
        return None
    r = 1 + int(np.count_nonzero(label[1:] != label[:-1]))
    mean = 1 + 2 * n1 * n0 / n
    var = 2 * n1 * n0 * (2 * n1 * n0 - n) / (n * n * (n - 1))
    z = (r - mean) / math.sqrt(var)
    return Finding(name, "Wald-Wolfowitz runs test, normal approximation, two-sided",
                   f"{r:,} runs, expected {mean:,.1f}, z = {z:.2f}", _p(2 * norm_sf(abs(z))))


def extreme_position(name: str, positions: np.ndarray, tickets: int, *, smallest: bool) -> Finding | None:
    """Exact test of the smallest (or largest) position of t tickets under a uniform shuffle:
    P(min >= x) = C(N - x, t) / C(N, t), P(max <= y) = C(y + 1, t) / C(N, t). One-sided: small p
    means the group was kept away from the start (or the end) of the pool."""
    t = len(positions)
    if t == 0:
        return None
    if smallest:
        x = int(positions.min())
        room = tickets - x  # P(min >= x) = C(room, t) / C(N, t)
        where = f"smallest of {t:,} at position {x:,} ({100 * x / tickets:.1f}% into the pool)"
    else:
        y = int(positions.max())
        room = y + 1  # P(max <= y) = C(y + 1, t) / C(N, t)
        before = 100 * (tickets - 1 - y) / tickets
        where = f"largest of {t:,} at position {y:,} ({before:.1f}% before the end)"
    log_p = log_choose_ratio(room, t, tickets)
    return Finding(name, "exact: P(min >= x) = C(N-x, t)/C(N, t)" if smallest else
                   "exact: P(max <= y) = C(y+1, t)/C(N, t)", where, _p(math.exp(log_p)))


def split_mask(n: int, key: int) -> np.ndarray:
    """Rows 0..n-1 for training (True) or testing: the top bit of splitmix64(row + key), a hash of
    the row number keyed by the caller (never a random generator)."""
    with np.errstate(over="ignore"):
        z = np.arange(n, dtype=np.uint64) + np.uint64(key) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    train: np.ndarray = (z >> np.uint64(63)) == 0
    return train


def _design(blocks: list[list[np.ndarray]]) -> tuple[np.ndarray, int, np.ndarray]:
    """The design in sparse form: for each distinct feature pattern the indices of its non-zero
    columns (0 the intercept, then each block's codes: one-hot for one column, multi-hot for a set),
    the number of columns, and each row's pattern. When every block is one column, rows are grouped
    by pattern (a few dozen at most); otherwise every row is its own pattern."""
    n = len(blocks[0][0])
    active = []  # the columns after the intercept's (column 0 of every row)
    width = 1
    for block in blocks:
        codes, inverse, _ = distinct_values(np.concatenate(block))
        active += [width + column for column in inverse.reshape(len(block), n)]
        width += len(codes)
    cells = 1 + len(active)
    space = width ** cells
    if all(len(block) == 1 for block in blocks) and space <= 1 << 20:
        # a row's key: its columns as the digits of a number in base `width` (the intercept's, 0, the
        # lowest), summed column by column: no (rows, cells) matrix
        key = np.zeros(n, dtype=np.int64)
        for j, column in enumerate(active, start=1):
            key += column.astype(np.int64, copy=False) * width ** j
        present = np.flatnonzero(np.bincount(key, minlength=space))  # counted, not sorted
        lookup = np.zeros(space, dtype=np.int64)
        lookup[present] = np.arange(len(present))
        row = lookup[key]
        digits = (present[:, None] // width ** np.arange(cells, dtype=np.int64)) % width
        return digits, width, row  # each pattern's columns, decoded from its key
    index = np.stack([np.zeros(n, dtype=np.int64), *active], axis=1)
    # each row's columns in ascending order: rows holding the same set (in any column order) sum their
    # coefficients in the same order, so their scores are equal and tie in the AUC
    return np.sort(index, axis=1), width, np.arange(n)


def _fit(index: np.ndarray, width: int, trials: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """Ridge-penalised logistic regression by Newton's method (IRLS) on grouped rows, with the design
    in sparse form (`_design`): gradient and Hessian are sums over the non-zero cells, counted with
    bincount (no dense matrix, no threaded BLAS)."""
    from scipy import special
    cells = index.shape[1]
    pairs = (index[:, :, None] * width + index[:, None, :]).ravel()
    flat = index.ravel()
    beta = np.zeros(width)
    for _ in range(NEWTON_STEPS):
        p = special.expit(beta[index].sum(axis=1))
        w = trials * p * (1 - p)
        grad = np.bincount(flat, weights=np.repeat(wins - trials * p, cells), minlength=width) - RIDGE * beta
        hess = np.bincount(pairs, weights=np.repeat(w, cells * cells), minlength=width * width)
        step = np.linalg.solve(hess.reshape(width, width) + RIDGE * np.eye(width), grad)
        beta += step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def auc_classifier(name: str, label: np.ndarray, blocks: list[list[np.ndarray]], key: int) -> Finding | None:
    """A logistic regression of win/lose on the features (one-hot), trained on the rows `split_mask`
    puts in training, scored on the others; the held-out AUC is the Mann-Whitney U / (n1 n0), tested
    against 0.5 with U's normal approximation under H0 (ties corrected), two-sided."""
    label = label.astype(bool)
    index, width, row = _design(blocks)
    train = split_mask(len(label), key)
    if len(index) == len(label):  # every row its own pattern: fit on the training rows only
        test = ~train
        y_test = label[test]
        n1 = int(y_test.sum())
        n0 = len(y_test) - n1
        if min(n1, n0, int(label[train].sum()), int((~label[train]).sum())) < MIN_AUC_SIDE:
            return None
        beta = _fit(index[train], width, np.ones(int(train.sum())), label[train].astype(np.float64))
        score = np.round(beta[index].sum(axis=1), SCORE_DECIMALS)[row[test]]
        ranks = mid_ranks(score)
        u = float(ranks[y_test].sum()) - n1 * (n1 + 1) / 2
        _, ties = np.unique(score, return_counts=True)
    else:  # a few patterns: every count in one pass (pattern x train x label), no row is gathered
        cells = np.bincount(row * 4 + train * 2 + label, minlength=4 * len(index)).reshape(-1, 4)
        trials, wins = cells[:, 2] + cells[:, 3], cells[:, 3]
        shown, hits = cells[:, 0] + cells[:, 1], cells[:, 1]
        n1, n0 = int(hits.sum()), int(cells[:, 0].sum())
        if min(n1, n0, int(wins.sum()), int(cells[:, 2].sum())) < MIN_AUC_SIDE:
            return None
        beta = _fit(index, width, trials.astype(np.float64), wins.astype(np.float64))
        scores = np.round(beta[index].sum(axis=1), SCORE_DECIMALS)
        _, which = np.unique(scores, return_inverse=True)  # patterns by score
        ties = np.bincount(which, weights=shown, minlength=int(which.max()) + 1)
        wins_at = np.bincount(which, weights=hits, minlength=len(ties))
        mid = np.cumsum(ties) - (ties - 1) / 2.0  # the held-out rows' mid-ranks, score by score
        u = float((mid * wins_at).sum()) - n1 * (n1 + 1) / 2
    n = n1 + n0
    tie = float((ties.astype(np.float64) ** 3 - ties).sum())
    var = n1 * n0 / 12 * ((n + 1) - tie / (n * (n - 1)))
    auc = u / (n1 * n0)
    z = (u - n1 * n0 / 2) / math.sqrt(var) if var > 0 else 0.0
    return Finding(name, f"logistic regression ({width - 1} one-hot features), trained on "
                   f"{int(train.sum()):,} rows, AUC on the other {n:,} (Mann-Whitney, two-sided)",
                   f"AUC = {auc:.4f}, z = {z:.2f}", _p(2 * norm_sf(abs(z))))
