"""Step 8's tests per book (printed games: books of tickets_per_book, ticket number = position mod B)
or per block of BLOCK shares (eInstants), against an expected distribution given as an input
(`BookNull`): today a uniform shuffle's (`uniform_null`); a pack-constrained game would pass its own
(docs/statistics.md section 1).

  - winners per book: the histogram of per-book counts against the null's pmf (chi-square, tails
    pooled), and their dispersion (sum (x - mean)^2 / var x (books - 1) / books, chi-square, two-sided);
  - winners by tenth of the ticket number within the book (printed), against the null's share of
    winners at each ticket number (uniform: every ticket number alike);
  - prize value per book: Kruskal-Wallis on the prize amounts (ranks, ties corrected) across books,
    chi-square with books - 1 df, two-sided (rich or poor books, or books evened out);
  - prize amounts by ticket number within the book (printed), by serial mod k = 2..10 (eInstants),
    uniform null only: the ticket numbers (residues) x the amounts (losers' 0 among them, rare amounts
    top-coded), Pearson's chi-square: any set of ticket numbers (ending in 7, even, ...) or serials
    ending in 0, even, ... richer in some amount, which the tenths cannot see;
  - runs of winners and losers in print order (Wald-Wolfowitz).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from audit.stats.laws import chi2_cdf, chi2_lower_quantile, chi2_sf, hypergeom_pmf
from audit.stats.tests import MIN_EXPECTED, Finding, distinct_values, histogram_against, runs, table_test

__all__ = ["BLOCK", "PERIODS", "BookNull", "block_findings", "lower_tail_resolved", "top_coded_classes",
           "uniform_null"]

BLOCK = 1_000  # eInstant shares per block in the per-block tests
PERIODS = range(2, 11)  # an eInstant's serials are classed mod each of these in the amounts-by-serial tests
PARTS = 10  # parts of the ticket numbers in the within-book test
LOWER_LEVEL = 1e-4  # the dispersion's lower tail is tested if the chi-square law resolves it to here
LOWER_POINTS = 100  # ... that is, if that much of the tail spans this many count vectors


@dataclass(frozen=True)
class BookNull:
    """What the expected (null) distribution makes of one book of `size` tickets: P(k winners), k =
    0..size, and each ticket number's share of the winners (summing to 1)."""

    size: int
    winners_pmf: np.ndarray
    ticket_share: np.ndarray


def uniform_null(population: int, winners: int, size: int) -> BookNull:
    """A uniform shuffle: a book's winners are hypergeometric (population, winners, size); every
    ticket number holds winners alike."""
    pmf = hypergeom_pmf(population, winners, size)
    return BookNull(size, np.asarray(pmf, dtype=np.float64), np.full(size, 1.0 / size))


def _moments(null: BookNull) -> tuple[float, float]:
    """The mean and variance of a book's winners under the null."""
    k = np.arange(null.size + 1)
    mean = float((k * null.winners_pmf).sum())
    return mean, float(((k - mean) ** 2 * null.winners_pmf).sum())


def _dispersion(name: str, per_block: np.ndarray, null: BookNull, unit: str) -> Finding | None:
    blocks = len(per_block)
    mean, var = _moments(null)
    if blocks < 2 or var <= 0:
        return None
    x2 = float(((per_block - mean) ** 2).sum() / var) * (blocks - 1) / blocks
    df = blocks - 1
    if lower_tail_resolved(blocks, var):
        p, sides = 2 * min(chi2_sf(x2, df), chi2_cdf(x2, df)), "two-sided"
    else:
        p, sides = chi2_sf(x2, df), "upper tail: too few blocks for the lower"
    return Finding(name, f"index of dispersion (sum (x - mean)^2 / var, {sides})",
                   f"X2 = {x2:.1f}, df = {df} (mean {mean:.2f} per {unit})", float(min(1.0, p)))


def lower_tail_resolved(blocks: int, var: float) -> bool:
    """Whether the chi-square law holds in the dispersion's lower tail, where the counts are few: the
    count vectors of `blocks` blocks with the same total are a lattice of covolume sqrt(blocks) in
    their hyperplane, and those with X2 <= q (q the chi-square's LOWER_LEVEL quantile, df = blocks - 1)
    lie in a ball of radius sqrt(q var blocks / (blocks - 1)) there; the tail is tested if that ball's
    volume is at least LOWER_POINTS lattice cells. Two blocks of 1,000 shares fail this (X2 = 0, equal
    counts, is about 4% likely, and the law gives it p = 0); hundreds of books pass it."""
    n = blocks - 1
    r2 = chi2_lower_quantile(LOWER_LEVEL, n) * var * blocks / n
    log_cells = n / 2 * math.log(math.pi * r2) - math.lgamma(n / 2 + 1) - 0.5 * math.log(blocks)
    return log_cells >= math.log(LOWER_POINTS)


def _kruskal(name: str, prize: np.ndarray, blocks: int, size: int, null: BookNull,
             unit: str, distinct: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Finding | None:
    """Kruskal-Wallis of prize amounts across equal blocks, ties corrected, two-sided where the winners
    per block resolve the lower tail (`lower_tail_resolved`: H is no less discrete than they are, and
    a function of them alone when every winner pays one amount), else its upper tail alone (also when
    every block holds the same winners, variance 0). `distinct`: distinct_values of the blocks' prizes,
    if the caller has it."""
    values = prize[: blocks * size]
    n = len(values)
    amounts, inverse, counts = distinct if distinct is not None else distinct_values(values)
    if len(amounts) < 2:
        return None
    mid = np.cumsum(counts) - (counts - 1) / 2.0  # the mid-rank of each amount
    ranks = mid[inverse].reshape(blocks, size)
    sums = ranks.sum(axis=1)
    h = 12.0 / (n * (n + 1)) * float((sums ** 2).sum()) / size - 3.0 * (n + 1)
    tie = 1.0 - float((counts.astype(np.float64) ** 3 - counts).sum()) / (n ** 3 - n)
    h /= tie
    df = blocks - 1
    var = _moments(null)[1]
    if var > 0 and lower_tail_resolved(blocks, var):
        p, sides = 2 * min(chi2_sf(h, df), chi2_cdf(h, df)), "two-sided"
    else:
        p, sides = chi2_sf(h, df), f"upper tail: too few {unit}s for the lower"
    return Finding(name, f"Kruskal-Wallis on the prize amounts (mid-ranks, ties corrected), {sides}",
                   f"H = {h:.1f}, df = {df}", float(min(1.0, p)))


def top_coded_classes(counts: np.ndarray, least: int) -> np.ndarray:
    """pack_laws.top_coded on the counts of the amounts (ascending) instead of the tickets: each amount's
    class, 0 = the lowest. From the highest down, an amount joins the next lower while the class it is
    in holds fewer than `least`; then a lowest class of fewer joins the next higher."""
    rep = np.zeros(len(counts), dtype=np.int64)
    held, top = 0, len(counts) - 1
    for i in range(len(counts) - 1, 0, -1):
        held += int(counts[i])
        if held >= least:  # the class closes at amount i, holding amounts i .. top
            rep[i:top + 1], held, top = i, 0, i - 1
    rep[: top + 1] = 0
    reps = np.unique(rep)
    cls = np.searchsorted(reps, rep)
    if len(reps) > 1 and counts[cls == 0].sum() < least:
        cls = np.maximum(cls - 1, 0)
    return cls


def _amounts_by_number(amounts: tuple[np.ndarray, np.ndarray], blocks: int, size: int,
                       what: str, scratch: np.ndarray | None = None) -> Finding | None:
    """The size x L table of ticket number (position mod size) by prize class, the amounts top-coded
    (pack_laws.top_coded) to classes of at least MIN_EXPECTED x size tickets, so that every cell
    expects at least MIN_EXPECTED; Pearson's chi-square, df (size - 1)(L - 1), upper tail. Under a
    uniform shuffle the ticket numbers are a uniform partition of the pool into `size` classes of
    `blocks` tickets, independent of the amounts. `amounts` is the pool's (inverse, counts) of
    distinct_values, made once for every table; rows past blocks x size are left out. `scratch`, an
    intp array of at least blocks x size, holds the cells (one array for all the tables, not one each:
    fresh pages cost more than the pass that fills them)."""
    least = math.ceil(MIN_EXPECTED * size)
    inverse = amounts[0][: blocks * size]
    counts = amounts[1] - np.bincount(amounts[0][blocks * size:], minlength=len(amounts[1]))
    cls = top_coded_classes(counts, least)
    kinds = int(cls.max()) + 1
    if kinds < 2 or size < 2:
        return None
    if scratch is None:
        scratch = np.empty(blocks * size, dtype=np.intp)
    cell = np.take(cls.astype(np.intp, copy=False), inverse, out=scratch[: blocks * size], mode="clip")
    cell.reshape(blocks, size)[:] += np.arange(0, size * kinds, kinds)  # number x kinds + class
    observed = np.bincount(cell, minlength=size * kinds).reshape(size, kinds)
    counts = np.bincount(cls, weights=counts, minlength=kinds)
    expected = counts[None, :] / size  # a class of c tickets expects c / size at each ticket number
    x2 = float(((observed - expected) ** 2 / expected).sum())
    df = (size - 1) * (kinds - 1)
    cells = f"{size:,} ticket numbers" if "book" in what else f"{size} residues"
    name = f"prize amounts by {what}: {cells} x {kinds} classes"
    return Finding(name,
                   "chi-square test of independence, amounts top-coded to classes of at least "
                   f"{math.ceil(MIN_EXPECTED * size):,} tickets", f"X2 = {x2:.1f}, df = {df:,}",
                   float(min(1.0, chi2_sf(x2, df))))


def block_findings(prize: np.ndarray, kind: str, per_book: int | None,
                   null: BookNull | None = None) -> tuple[list[Finding], list[str]]:
    """Winners and prize value per book (printed) or per block of BLOCK shares (eInstants), winners
    by ticket number within the book, and runs; `null` the expected distribution (default: uniform)."""
    win = prize > 0
    printed = kind == "printed" and bool(per_book)
    size = per_book if printed and per_book else BLOCK
    unit = f"book of {size}" if printed else f"block of {size:,} shares"
    short = unit.split(" of")[0]
    blocks = len(win) // size
    found: list[Finding | None] = []
    skipped = []
    # the pool's distinct amounts, once for every test that reads them all (when the blocks cover
    # the pool, Kruskal-Wallis's too)
    whole = distinct_values(prize) if null is None and (printed and blocks >= 2 or not printed) else None
    if blocks >= 2:
        covered = blocks * size
        per = win[:covered].reshape(blocks, size).sum(axis=1)
        expected = null or uniform_null(covered, int(per.sum()), size)
        found.append(histogram_against(f"winners per {unit}: histogram of {blocks:,} {short}s", per,
                                       blocks * expected.winners_pmf))
        found.append(_dispersion(f"winners per {unit}: dispersion", per, expected, short))
        found.append(_kruskal(f"prize value per {unit}: {blocks:,} {short}s", prize, blocks, size, expected,
                              short, whole if whole is not None and covered == len(prize) else None))
        if printed:
            number = np.flatnonzero(win[:covered]) % size
            part = np.arange(size) * PARTS // size
            share = np.bincount(part, weights=expected.ticket_share, minlength=PARTS)
            found.append(table_test(f"winners by tenth of the ticket number within the book (0..{size - 1})",
                                    np.round(share * covered).astype(np.int64),
                                    np.bincount(number * PARTS // size, minlength=PARTS)))
            if null is None:  # only a uniform shuffle makes the ticket numbers a uniform partition
                pool = whole if whole is not None else distinct_values(prize)
                found.append(_amounts_by_number(pool[1:], blocks, size, "ticket number within the book"))
    else:
        skipped.append(f"winners per {unit}: fewer than two {unit}s")
    if not printed and null is None:  # the serial, which a buyer sees and can count on
        amounts = (whole if whole is not None else distinct_values(prize))[1:]  # once for the nine tables
        scratch = np.empty(len(win), dtype=np.intp)  # and their cells, one table after the other
        found += [_amounts_by_number(amounts, len(win) // k, k, f"serial mod {k}", scratch) for k in PERIODS]
    found.append(runs("runs of winners and losers in print order", win))
    return [f for f in found if f is not None], skipped
