"""A third engine for step 8's section 1 (what is tested per pool, on print order), written from
docs/statistics.md section 1 alone: it imports neither poolgen nor audit. Exact integers for the exact
tests; scipy only for the chi-square and normal tails the contract names. A finding is (name, statistic,
p): the statistic is the figure the test reports first (X2, H, the smallest or largest position, the
runs' z)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln
from scipy.stats import chi2, norm

TOP_TICKETS = 50
SHARES_PER_BLOCK = 1000


@dataclass(frozen=True)
class Found:
    name: str
    stat: float
    p: float


def dollars(cents: int) -> str:
    whole, part = divmod(int(cents), 100)
    return f"${whole:,}" + (f".{part:02d}" if part else "")


def amounts_label(amounts: list[int]) -> str:
    """`$A` for one amount, `$HIGH to $LOW` for several (amounts highest first)."""
    return dollars(amounts[0]) if len(amounts) == 1 else f"{dollars(amounts[0])} to {dollars(amounts[-1])}"


def top_group(prize: np.ndarray) -> list[int]:
    """The highest amounts, from the top, until they hold at least 50 tickets (or every winner)."""
    amounts, counts = np.unique(prize[prize > 0], return_counts=True)
    out, held = [], 0
    for a, c in sorted(zip(amounts.tolist(), counts.tolist(), strict=True), reverse=True):
        out.append(a)
        held += c
        if held >= TOP_TICKETS:
            break
    return out


def pearson(table: np.ndarray) -> tuple[float, int]:
    """Pearson's chi-square of independence of a two-way table of counts (no empty row or column)."""
    t = table.astype(np.float64)
    e = t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True) / t.sum()
    return float(((t - e) ** 2 / e).sum()), (t.shape[0] - 1) * (t.shape[1] - 1)


def pool_rare(table: np.ndarray) -> np.ndarray:
    """A 2 x K table (rows yes / no, columns the categories that hold tickets, in code order) with its rare
    columns pooled: a column holding fewer than 5 n / min(yes, no) tickets is rare; the rare ones become
    one column, which, if it still holds fewer, joins the least full other column (the first on a tie)."""
    total = table.sum(axis=0)
    bound = 5 * int(total.sum()) / min(int(table[0].sum()), int(table[1].sum()))
    rare = total < bound
    if not rare.any():
        return table
    pool = table[:, rare].sum(axis=1)
    kept = [table[:, c] for c in np.flatnonzero(~rare)]
    if pool.sum() < bound and kept:
        least = int(np.argmin([int(c.sum()) for c in kept]))
        kept[least] = kept[least] + pool
    else:
        kept.append(pool)
    return np.stack(kept, axis=1)


def win_by(part: np.ndarray, win: np.ndarray, k: int) -> tuple[float, float] | None:
    """Pearson's chi-square of win/lose by part, rare parts pooled (section 2's rule, which every 2 x K
    table of step 8 takes). None when every ticket wins or none does, or fewer than two columns remain."""
    table = np.stack([np.bincount(part[win], minlength=k), np.bincount(part[~win], minlength=k)])
    table = table[:, table.sum(axis=0) > 0]  # a part holding no ticket is left out
    if table[0].sum() == 0 or table[1].sum() == 0:
        return None
    table = pool_rare(table)
    if table.shape[1] < 2:
        return None
    x2, df = pearson(table)
    return x2, float(chi2.sf(x2, df))


def hypergeom_moments(m: int, good: int, total: int) -> tuple[float, float]:
    """Mean and variance of the winners among m of `total` tickets, `good` of them winners."""
    s = good / total
    return m * s, m * s * (1 - s) * (total - m) / (total - 1)


def lower_tail_resolved(blocks: int, var: float) -> bool:
    """The dispersion's rule: the ball of radius sqrt(q var B / (B - 1)) holds at least 100 lattice cells."""
    df = blocks - 1
    q = float(chi2.ppf(1e-4, df))
    r2 = q * var * blocks / df
    if r2 <= 0:
        return False
    cells = df / 2 * math.log(math.pi * r2) - float(gammaln((blocks + 1) / 2)) - math.log(blocks) / 2
    return cells >= math.log(100)


def chi2_p(x: float, df: int, two_sided: bool) -> float:
    upper = float(chi2.sf(x, df))
    if not two_sided:
        return upper
    return min(1.0, 2 * min(upper, float(chi2.cdf(x, df))))


def hypergeom_pmf(m: int, good: int, total: int) -> list[float]:
    """P(X = x), x = 0 .. m, X the winners of m tickets drawn from `total` holding `good` (exact integers)."""
    whole = math.comb(total, m)
    return [math.comb(good, x) * math.comb(total - good, m - x) / whole for x in range(m + 1)]


def histogram(counts: np.ndarray, m: int, good: int, total: int) -> tuple[float, int, int]:
    """Per-block counts against blocks x the hypergeometric, consecutive counts pooled until each bin
    expects at least 5 (from the low counts up; a last bin short of 5 joins the one before)."""
    blocks = len(counts)
    expected = [blocks * q for q in hypergeom_pmf(m, good, total)]
    observed = np.bincount(counts, minlength=m + 1)
    bins: list[tuple[float, int]] = []
    e, o = 0.0, 0
    for x in range(m + 1):
        e += expected[x]
        o += int(observed[x])
        if e >= 5 * (1 - 1e-12):  # 5 within rounding
            bins.append((e, o))
            e, o = 0.0, 0
    if e > 0 or o > 0:
        if bins:
            last = bins.pop()
            bins.append((last[0] + e, last[1] + o))
        else:
            bins.append((e, o))
    x2 = sum((ob - ex) ** 2 / ex for ex, ob in bins)
    return x2, len(bins) - 1, len(bins)


def mid_ranks(values: np.ndarray) -> tuple[np.ndarray, float]:
    """Mid-ranks (1-based) and the tie correction's sum of t^3 - t."""
    uniq, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    below = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = below + (counts + 1) / 2
    c = counts.astype(np.float64)
    return ranks[inverse], float((c ** 3 - c).sum())


def kruskal(values: np.ndarray, group: np.ndarray, groups: int) -> float:
    n = len(values)
    ranks, ties = mid_ranks(values)
    r = np.bincount(group, weights=ranks, minlength=groups)
    size = np.bincount(group, minlength=groups).astype(np.float64)
    h = 12 / (n * (n + 1)) * float((r ** 2 / size).sum()) - 3 * (n + 1)
    return h / (1 - ties / (n ** 3 - n))


def comb_ratio(a: int, b: int, t: int) -> float:
    """C(a, t) / C(b, t), exact."""
    return math.comb(a, t) / math.comb(b, t) if a >= t else 0.0


def per_pool_findings(prize: np.ndarray, tiers: list[tuple[str, int]], per_book: int | None) -> list[Found]:
    """Section 1's tests but the layout features, in the order of its table. `tiers`: (id, amount) of
    the pool's tiers as the manifest lists them; `per_book` None for an eInstant."""
    n = len(prize)
    win = prize > 0
    pos = np.arange(n)
    out: list[Found] = []
    tenths = win_by(pos * 10 // n, win, 10)
    if tenths:
        out.append(Found("winner positions by tenth of the pool", *tenths))
    for a in sorted({int(v) for v in prize[win].tolist()}, reverse=True):
        c = int((prize == a).sum())
        if c < 20:
            continue
        k = min(10, c // 10)
        ids = ", ".join(i for i, amount in tiers if amount == a)
        level = win_by(pos * k // n, prize == a, k)
        if level:
            out.append(Found(f"positions of prize level {dollars(a)} (tier {ids}; {c:,} tickets), {k} equal "
                             "parts of the pool", *level))
    group = top_group(prize)
    if group:
        where = np.flatnonzero(np.isin(prize, group))
        t = len(where)
        label = f"top prizes ({amounts_label(group)}; {t:,} tickets)"
        x, y = int(where.min()), int(where.max())
        out.append(Found(f"{label}: smallest position", x, comb_ratio(n - x, n, t)))
        out.append(Found(f"{label}: largest position", y, comb_ratio(y + 1, n, t)))
    out += block_findings(prize, per_book)
    if per_book:
        out += ticket_number_findings(prize, per_book)
    else:
        out += serial_findings(prize)
    out += runs_finding(win)
    return out


def block_findings(prize: np.ndarray, per_book: int | None) -> list[Found]:
    """Winners per book (block): histogram and dispersion; prize value per book (block): Kruskal-Wallis.
    Whole books (blocks) only."""
    m = per_book or SHARES_PER_BLOCK
    blocks = len(prize) // m
    if blocks < 2:
        return []
    v = prize[: blocks * m]
    total, good = blocks * m, int((v > 0).sum())
    unit = f"book of {m:,}" if per_book else f"block of {m:,} shares"
    units = "books" if per_book else "blocks"
    counts = (v > 0).reshape(blocks, m).sum(axis=1)
    out: list[Found] = []
    x2, df, bins = histogram(counts, m, good, total)
    if bins >= 2:
        out.append(Found(f"winners per {unit}: histogram of {blocks:,} {units}", x2, float(chi2.sf(x2, df))))
    mean, var = hypergeom_moments(m, good, total)
    resolved = var > 0 and lower_tail_resolved(blocks, var)  # the null's variance, not the books observed
    if var > 0:  # no winner, or every ticket one, or books of one ticket: nothing varies
        d = float(((counts - mean) ** 2).sum() / var * (blocks - 1) / blocks)
        out.append(Found(f"winners per {unit}: dispersion", d, chi2_p(d, blocks - 1, resolved)))
    if len(np.unique(v)) >= 2:  # one amount: no ranks to compare
        h = kruskal(v, np.arange(total) // m, blocks)
        out.append(Found(f"prize value per {unit}: {blocks:,} {units}", h, chi2_p(h, blocks - 1, resolved)))
    return out


def ticket_number_findings(prize: np.ndarray, per_book: int) -> list[Found]:
    b = per_book
    whole = len(prize) // b * b
    if whole < 2 * b or b < 2:  # two whole books or more, two ticket numbers or more
        return []
    v = prize[:whole]
    ticket_no = np.arange(whole) % b
    tenths = win_by(ticket_no * 10 // b, v > 0, 10)
    name = f"winners by tenth of the ticket number within the book (0..{b - 1})"
    out = [Found(name, *tenths)] if tenths else []
    amounts = amount_table("prize amounts by ticket number within the book", ticket_no, v, b,
                           "ticket numbers")
    return out + ([amounts] if amounts else [])


def top_coded(prize: np.ndarray, least: int) -> np.ndarray:
    """Each ticket's class (0 the lowest): from the highest amount down, an amount whose class so far
    holds fewer than `least` tickets joins the next lower; then a lowest class short of `least` joins
    the next higher."""
    amounts, counts = np.unique(prize, return_counts=True)
    cls = np.zeros(len(amounts), dtype=np.int64)
    closed: list[list[int]] = []
    current: list[int] = []
    held = 0
    for i in range(len(amounts) - 1, -1, -1):
        current.append(i)
        held += int(counts[i])
        if held >= least and i > 0:
            closed.append(current)
            current, held = [], 0
    if current:
        closed.append(current)
    if len(closed) > 1 and sum(int(counts[i]) for i in closed[-1]) < least:
        lowest = closed.pop()  # popped first: `closed[-2] += closed.pop()` indexes the shortened list
        closed[-1] += lowest
    for rank, members in enumerate(reversed(closed)):
        cls[members] = rank
    return cls[np.searchsorted(amounts, prize)]


def amount_table(stem: str, residue: np.ndarray, prize: np.ndarray, k: int, what: str) -> Found | None:
    """The k residues x L classes table, classes top-coded to at least 5 k tickets, E = c / k."""
    cls = top_coded(prize, 5 * k)
    classes = int(cls.max()) + 1
    if classes < 2:
        return None
    observed = np.bincount(residue * classes + cls, minlength=k * classes).reshape(k, classes)
    e = np.bincount(cls, minlength=classes) / k
    x2 = float(((observed - e) ** 2 / e).sum())
    df = (k - 1) * (classes - 1)
    return Found(f"{stem}: {k} {what} x {classes} classes", x2, float(chi2.sf(x2, df)))


def serial_findings(prize: np.ndarray) -> list[Found]:
    out = []
    for k in range(2, 11):
        whole = len(prize) // k * k
        f = amount_table(f"prize amounts by serial mod {k}", np.arange(whole) % k, prize[:whole], k,
                         "residues")
        if f:
            out.append(f)
    return out


def runs_finding(win: np.ndarray) -> list[Found]:
    n = len(win)
    n1 = int(win.sum())
    n0 = n - n1
    if n1 < 20 or n0 < 20:
        return []
    runs = 1 + int((win[1:] != win[:-1]).sum())
    mean = 1 + 2 * n1 * n0 / n
    var = 2 * n1 * n0 * (2 * n1 * n0 - n) / (n ** 2 * (n - 1))
    z = (runs - mean) / math.sqrt(var)
    return [Found("runs of winners and losers in print order", z, float(2 * norm.sf(abs(z))))]
