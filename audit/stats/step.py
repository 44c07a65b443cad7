"""Step 8 of the checklist: statistics on each pool and on the run, at 99% confidence for the run.

Per pool (docs/statistics.md states the design, which is repeated here in short; the tests are in
audit/stats/tests.py):
  - positions of the winners, of each prize level and of the pool's top prizes against a uniform
    shuffle (chi-square of counts per tenth of the pool; exact tests of the top prizes' smallest and
    largest position, e.g. P(min >= x) = C(N-x, t)/C(N, t)): audit/stats/positions.py;
  - per book (printed games, books of tickets_per_book) or block of BLOCK shares (eInstants), against
    an expected distribution given as an input (today a uniform shuffle's): winners per book
    (histogram, dispersion), winners by tenth of the ticket number within the book, prize value per
    book (Kruskal-Wallis), and runs of winners and losers: audit/stats/books.py;
  - what every book holds (winners, each prize level, prize value) by tenth of the printed book numbers'
    order (printed games): audit/stats/book_order.py;
  - the top prizes gathered: close together in print (serial) order or by printed book number, on few
    ticket numbers or residues of the serial mod 1,000, one last digit of the serial: audit/stats/
    gathered.py;
  - each level below the top groups crowded into a few consecutive books (a carton; a range of book
    numbers; an eInstant's first blocks): audit/stats/windows.py;
  - each level below the top groups in the books holding a top prize, or beside one (printed, uniform
    shuffle): audit/stats/near_top.py;
  - the prize amounts by printed book number mod k, by ticket number minus book number mod 10 and by the
    barcode's check digits (printed, uniform shuffle): audit/stats/residues.py;
  - the layout no-information tests of the game's contract, every spot it promises (audit/stats/
    layouts.py, styles/), including a classifier whose held-out AUC must be indistinguishable
    from 0.5; and each of their chi-square features on the losers against the next ticket's prize (a
    loser that tells a clerk or buyer to take the next ticket): audit/stats/next_ticket.py.
Per run: the top tiers of every pool (each pool's k highest amounts, k = 1 up), pools combined, by
exact tests of their smallest and largest relative position and ticket number within the book
(audit/stats/top.py).
Per run of two or more pools, also: each test made in two or more pools, their p-values combined by
Fisher's method (audit/stats/combined.py).
Family-wise error: ALPHA (1%) for the run: ALPHA_RUN for the run-level tests of the top tiers
(weighted Holm, the start tests weighted START_WEIGHT), ALPHA_COMBINED for the combined tests (Holm;
a run of two or more pools only), the rest split equally over the P pools (Bonferroni), and within
a pool Holm's step-down over its m tests. A run of honest pools fails step 8 with probability at
most ALPHA, whatever the dependence between tests (to the accuracy of the chi-square and normal
approximations, which each test keeps valid by its minimum expected counts). Step 8 is a screen:
a key holder who chooses the seed can retry past it; the ceremony is what prevents that
(docs/statistics.md section 6).

Rows are taken in stored order, which step 3 proves is position (print) order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from audit.read.manifest import Manifest, PoolEntry
from audit.read.runfiles import read_pool
from audit.read.specs.packs import PackRules
from audit.stats.book_order import book_order_findings
from audit.stats.books import BookNull, block_findings
from audit.stats.combined import combined_findings
from audit.stats.gathered import gathered_findings
from audit.stats.layouts import layout_columns, layout_findings
from audit.stats.near_top import near_top_findings
from audit.stats.numbers import printed_number_findings
from audit.stats.packs import exact_case, pack_block_findings
from audit.stats.positions import position_findings
from audit.stats.residues import residue_findings
from audit.stats.tests import Finding
from audit.stats.top import TopLevels, top_findings, top_levels
from audit.stats.windows import window_findings

__all__ = ["ALPHA", "ALPHA_COMBINED", "ALPHA_RUN", "Judged", "PoolStatistics", "RunStatistics",
           "check_statistics", "columns_needed", "combined_statistics", "fmt_p", "holm", "pool_alpha",
           "pool_lines", "pool_statistics", "run_lines", "run_statistics", "statistics_lines"]

ALPHA = 0.01  # family-wise error of step 8 over a whole run
ALPHA_RUN = 0.006  # of it, the run-level tests' (the top tiers of the pools combined, audit/stats/top.py)
ALPHA_COMBINED = 0.002  # of it, in a run of 2+ pools: the pools' tests combined (audit/stats/combined.py)
SPLIT_LABEL = b"poolgen/audit/stats-split/v1\x00"


@dataclass(frozen=True)
class Judged:
    """A test's finding with the Holm threshold it was held to and the verdict."""

    finding: Finding
    threshold: float
    rejected: bool


@dataclass(frozen=True)
class PoolStatistics:
    pool: str
    pools: int  # pools in the run: the pool's level is ALPHA / pools
    alpha: float
    judged: tuple[Judged, ...]  # in the order the tests were made
    not_tested: tuple[str, ...]
    top: TopLevels | None = None  # what the run-level tests need of the pool

    @property
    def failed(self) -> list[Judged]:
        return [j for j in self.judged if j.rejected]


@dataclass(frozen=True)
class RunStatistics:
    """Run-level tests: the top tiers of every pool, combined (weighted Holm at ALPHA_RUN), or the
    pools' own tests combined (Holm at ALPHA_COMBINED); `what` names them in the lines."""

    pools: int
    alpha: float
    judged: tuple[Judged, ...]
    what: str = "tests of the top tiers, pools combined"
    level: str = "top tiers, weighted Holm"

    @property
    def failed(self) -> list[Judged]:
        return [j for j in self.judged if j.rejected]


def fmt_p(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.2e}"


def pool_alpha(pools: int) -> float:
    """A pool's family-wise level: what the run-level tests leave of ALPHA (ALPHA_RUN, and
    ALPHA_COMBINED in a run of two or more pools), split over the pools."""
    return (ALPHA - ALPHA_RUN - (ALPHA_COMBINED if pools > 1 else 0.0)) / pools


def holm(findings: list[Finding], alpha: float, weights: list[float] | None = None) -> tuple[Judged, ...]:
    """Holm's step-down, weighted (Holm 1979): tests in order of p / w; the next is held to
    alpha w / (the weight of the tests not yet rejected); every test up to the first that passes its
    threshold is rejected, none after it. Equal weights: the i-th smallest of m p-values is held to
    alpha / (m - i)."""
    m = len(findings)
    w = weights if weights is not None else [1.0] * m
    order = sorted(range(m), key=lambda i: findings[i].p / w[i])
    left = float(sum(w))
    verdict: dict[int, Judged] = {}
    going = True
    for i in order:
        threshold = alpha * w[i] / left
        going = going and findings[i].p <= threshold
        verdict[i] = Judged(findings[i], threshold, going)
        left -= w[i]
    return tuple(verdict[i] for i in range(m))


def split_key(pool: PoolEntry) -> int:
    """The classifier's train/test key: from the pool file's SHA-256 as the manifest states it."""
    return int.from_bytes(hashlib.sha256(SPLIT_LABEL + pool.file_sha256.encode()).digest()[:8], "big")


def columns_needed(play: dict[str, Any] | None = None, kind: str | None = None,
                   present: tuple[str, ...] | None = None) -> list[str]:
    """The columns step 8 reads; `play` is the manifest's play entry (an eInstant style's parameters),
    `kind` the run's (a printed game's book numbers: which books hold the top prizes,
    audit/stats/numbers.py), `present` the pool's columns as its manifest entry lists them (which
    areas an area_match pool has)."""
    return ["prize_cents", *layout_columns(play, present), *(["book"] if kind == "printed" else [])]


def pool_statistics(table: pl.DataFrame, pool: PoolEntry, *, rules: str, kind: str, per_book: int | None,
                    pools: int, play: dict[str, Any] | None = None,
                    book_null: BookNull | None = None, packs: PackRules | None = None,
                    sign: str = "$") -> PoolStatistics:
    """Every test of one pool, judged by Holm at pool_alpha(pools), and what the run-level tests need
    of it. `table` holds columns_needed(play) in stored (print) order; `play` is the manifest's play
    entry of a play-style game; `book_null` the expected distribution of a book (default: uniform);
    `packs` the pack parameters (the spec's, else the manifest's `print.packs`), if any constrain
    the packs (audit/stats/packs.py: its pack tests under them replace the unconstrained
    per-book tests); `sign` the game's currency's (the manifest's game.currency), in the tests' names."""
    prize = table["prize_cents"].cast(pl.Int64).to_numpy()
    win = prize > 0
    size = per_book if kind == "printed" else packs.size if packs is not None else None
    chain = packs is not None and packs.composition and bool(size) and exact_case(packs, pool.tiers) is None
    # the chain's positions: by tenth of the packs
    found, skipped = position_findings(prize, pool, binned=not chain, sign=sign)
    if packs is not None and packs.composition and size:  # a printed game's packs, an eInstant's blocks
        tier = table["tier"].to_numpy() if "tier" in table.columns else None
        more, why = pack_block_findings(prize, size, packs, pool.tiers, tier, sign)
    else:
        more, why = block_findings(prize, kind, per_book, book_null)
    found, skipped = found + more, skipped + why
    if kind == "printed" and per_book and "book" in table.columns:  # the top prizes' printed book numbers
        found += printed_number_findings(prize, table["book"].to_numpy(), per_book, sign)
        found += book_order_findings(prize, table["book"].to_numpy(), per_book, sign)  # every book
    plain = (packs is None or not packs.composition) and book_null is None  # a uniform shuffle's positions
    book = table["book"].to_numpy() if kind == "printed" and "book" in table.columns else None
    printed = per_book if kind == "printed" else None
    found += gathered_findings(prize, per_book=printed, book=book, order=plain, sign=sign)
    found += window_findings(prize, per_book=printed, book=book, order=plain, sign=sign)  # a carton, numbers
    found += near_top_findings(prize, printed, plain, sign)  # a level in the top prizes' books, or beside one
    if plain and printed and book is not None:  # even books, a book's digit, check digits
        found += residue_findings(prize, book, printed)
    more, why = layout_findings(table, rules, win, split_key(pool), play, {t.id: t.count for t in pool.tiers},
                                prize=prize, kind=kind, per_book=printed)
    found, skipped = found + more, skipped + why
    alpha = pool_alpha(pools)
    top = top_levels(prize, pool.id, per_book if kind == "printed" else None, sign)
    return PoolStatistics(pool.id, pools, alpha, holm(found, alpha), tuple(skipped), top)


def run_statistics(tops: list[TopLevels], pools: int) -> RunStatistics:
    """The run-level tests of the pools' top tiers (audit/stats/top.py), weighted Holm at ALPHA_RUN
    (a pool that could not be read is left out: its own lines say why)."""
    weighted = top_findings(tops)
    judged = holm([f for f, _ in weighted], ALPHA_RUN, [w for _, w in weighted])
    return RunStatistics(pools, ALPHA_RUN, judged)


def combined_statistics(stats: list[PoolStatistics], pools: int) -> RunStatistics:
    """The pools' own tests combined across the run (audit/stats/combined.py), Holm at ALPHA_COMBINED
    (pools that could not be judged are left out: their own lines say why)."""
    found = combined_findings([[j.finding for j in s.judged] for s in stats])
    return RunStatistics(pools, ALPHA_COMBINED, holm(found, ALPHA_COMBINED), "tests made in two or more "
                         "pools, each pool's p-values combined (Fisher)", "combined tests, Holm")


def describe(j: Judged) -> str:
    f = j.finding
    return f"{f.name} ({f.method}): {f.figures}, p = {fmt_p(f.p)}"


def pool_lines(s: PoolStatistics) -> list[tuple[str, str]]:
    """(status, line) for one pool: each failing test as a reason, then every other test."""
    level = (f"family-wise {100 * s.alpha:.3g}% for this pool ({100 * s.alpha * s.pools:.3g}% over the "
             f"run's {s.pools} pool(s))")
    out = [("fail", f"{describe(j)} <= Holm threshold {fmt_p(j.threshold)}, {level}") for j in s.failed]
    if s.failed:
        out.append(("pass", f"{len(s.judged)} tests, {len(s.failed)} significant at {level}, Holm across "
                            "the pool's tests (named in the reasons)"))
    else:
        smallest = min((j.finding.p for j in s.judged), default=1.0)
        out.append(("pass", f"{len(s.judged)} tests, none significant at {level}, Holm across the pool's "
                            f"tests (smallest p = {fmt_p(smallest)})"))
    out += [("pass", describe(j)) for j in s.judged if not j.rejected]
    out += [("pass", f"not tested: {why}") for why in s.not_tested]
    return out


def run_lines(s: RunStatistics) -> list[tuple[str, str]]:
    """(status, line) of the run-level tests, as pool_lines."""
    level = f"family-wise {100 * s.alpha:.3g}% for the run's {s.level}"
    failed = [j for j in s.judged if j.rejected]
    out = [("fail", f"{describe(j)} <= Holm threshold {fmt_p(j.threshold)}, {level}") for j in failed]
    smallest = min((j.finding.p for j in s.judged), default=1.0)
    out.append(("pass", f"{len(s.judged)} {s.what}, {len(failed)} significant "
                        f"at {level} (smallest p = {fmt_p(smallest)})"))
    out += [("pass", describe(j)) for j in s.judged if not j.rejected]
    return out


Lines = list[tuple[str, str, str | None]]


def statistics_lines(results: list[tuple[PoolEntry, PoolStatistics | Lines]], pools: int,
                     figures: list[dict[str, Any]] | None = None) -> Lines:
    """Step 8's (status, message, where) lines from each pool's statistics (or the lines saying why it
    has none), then the run-level tests over the pools that have them; and, into `figures`, every
    test's numbers (for `verify --json`)."""
    out: Lines = []
    tops, judged = [], []
    for pool, result in results:
        if isinstance(result, PoolStatistics):
            judged.append(result)
            out += [(status, line, f"pool {pool.id}") for status, line in pool_lines(result)]
            if result.top is not None:
                tops.append(result.top)
            if figures is not None:
                figures += _figures(pool.id, result.judged, result.alpha)
        else:
            out += result
    if tops:
        _run_level(lambda: run_statistics(tops, pools), out, figures)
    if pools > 1 and len(judged) > 1:
        _run_level(lambda: combined_statistics(judged, pools), out, figures)
    return out


def _figures(pool: str | None, judged: tuple[Judged, ...], alpha: float) -> list[dict[str, Any]]:
    """Each test's numbers, for `verify --json` (`pool` None: a run-level test)."""
    return [{"pool": pool, "test": j.finding.name, "method": j.finding.method, "statistic": j.finding.figures,
             "p": j.finding.p, "holm_threshold": j.threshold, "alpha": alpha, "significant": j.rejected}
            for j in judged]


def _run_level(compute: Callable[[], RunStatistics], out: Lines,
               figures: list[dict[str, Any]] | None) -> None:
    """One block of run-level tests (the pools' top tiers, or every test combined): its lines into `out`
    and its numbers into `figures`, or the line saying it could not be checked."""
    try:
        run = compute()
        out += [(status, line, "run") for status, line in run_lines(run)]
        if figures is not None:
            figures += _figures(None, run.judged, run.alpha)
    except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
        out.append(("fail", f"could not be checked: {type(exc).__name__}: {exc}", "run"))


def one_pool(folder: Path, manifest: Manifest, pool: PoolEntry, table: pl.DataFrame | None = None,
             packs: PackRules | None = None) -> PoolStatistics | Lines:
    """One pool's statistics (from `table` if the caller has read it), or the lines saying why not;
    `packs` the pack parameters (the spec's, else the manifest's; None when neither states them)."""
    where = f"pool {pool.id}"
    wanted = columns_needed(manifest.doc.get("play"), manifest.kind, pool.columns)
    if packs is not None and (packs.caps or packs.spacing):
        wanted.append("tier")  # which tickets a cap or spacing rule holds (audit/stats/packs.py)
    try:
        table = read_pool(folder, pool.file, columns=wanted) if table is None else table.select(wanted)
    except Exception as exc:  # the file's problems are steps 2 and 3's to name
        return [("skip", f"needs {pool.file} readable with columns {', '.join(wanted)} (steps 2 "
                         f"and 3): {type(exc).__name__}", where)]
    try:
        return pool_statistics(table, pool, rules=manifest.rules, kind=manifest.kind,
                               per_book=manifest.tickets_per_book, pools=len(manifest.pools),
                               play=manifest.doc.get("play"), packs=packs, sign=manifest.sign)
    except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
        return [("fail", f"could not be checked: {type(exc).__name__}: {exc}", where)]


def check_statistics(folder: Path, manifest: Manifest, packs: PackRules | None = None,
                     figures: list[dict[str, Any]] | None = None) -> Lines:
    """(8) every pool's statistics and the run's: (status, message, where) lines for the step's report
    (verify computes the pools' in its workers, `one_pool`, and combines them with statistics_lines)."""
    return statistics_lines([(pool, one_pool(folder, manifest, pool, packs=packs))
                             for pool in manifest.pools], len(manifest.pools), figures)
