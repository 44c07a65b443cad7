"""Step 8 of the checklist: statistics on each pool, at 99% confidence for the whole run.

Per pool (docs/statistics.md states the design, which is repeated here in short; the tests are in
audit/stats/tests.py):
  - positions of the winners, of each prize level and of the top prizes against a uniform shuffle
    (chi-square of counts per tenth of the pool; exact tests of the top prizes' smallest and largest
    position, e.g. P(min >= x) = C(N-x, t)/C(N, t), which catches top prizes kept out of the
    first fifth);
  - winners per book (printed games, books of tickets_per_book) or per block of BLOCK shares
    (eInstants) against the hypergeometric distribution a uniform shuffle gives each block: the
    histogram by chi-square with pooled tails, and the index of dispersion;
  - runs of winners and losers in print order (Wald-Wolfowitz) (these three: audit/stats/positions.py);
  - the layout no-information tests of the game's contract (audit/stats/layouts.py), including a
    classifier whose held-out AUC must be indistinguishable from 0.5.
Family-wise error: ALPHA (1%) for the run, split equally over its P pools (Bonferroni), and within
a pool Holm's step-down over its m tests at ALPHA / P. A run of honest pools fails step 8 with
probability at most ALPHA, whatever the dependence between tests (to the accuracy of the chi-square
and normal approximations, which each test keeps valid by its minimum expected counts).

Rows are taken in stored order, which step 3 proves is position (print) order.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from audit.read.manifest import Manifest, PoolEntry
from audit.stats.layouts import layout_columns, layout_findings
from audit.stats.positions import block_findings, position_findings
from audit.stats.tests import Finding

__all__ = ["ALPHA", "Judged", "PoolStatistics", "check_statistics", "columns_needed", "fmt_p", "holm",
           "pool_lines", "pool_statistics"]

ALPHA = 0.01  # family-wise error of step 8 over a whole run
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

    @property
    def failed(self) -> list[Judged]:
        return [j for j in self.judged if j.rejected]


def fmt_p(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.2e}"


def holm(findings: list[Finding], alpha: float) -> tuple[Judged, ...]:
    """Holm's step-down: the i-th smallest of m p-values is held to alpha / (m - i); every test
    up to the first that passes its threshold is rejected, none after it."""
    m = len(findings)
    order = sorted(range(m), key=lambda i: findings[i].p)
    verdict: dict[int, Judged] = {}
    going = True
    for rank, i in enumerate(order):
        threshold = alpha / (m - rank)
        going = going and findings[i].p <= threshold
        verdict[i] = Judged(findings[i], threshold, going)
    return tuple(verdict[i] for i in range(m))


def split_key(pool: PoolEntry) -> int:
    """The classifier's train/test key: from the pool file's SHA-256 as the manifest states it."""
    return int.from_bytes(hashlib.sha256(SPLIT_LABEL + pool.file_sha256.encode()).digest()[:8], "big")


def columns_needed(play: dict[str, Any] | None = None) -> list[str]:
    """The columns step 8 reads; `play` is the manifest's play entry (an eInstant style's parameters)."""
    return ["prize_cents", *layout_columns(play)]


def pool_statistics(table: pl.DataFrame, pool: PoolEntry, *, rules: str, kind: str, per_book: int | None,
                    pools: int, play: dict[str, Any] | None = None) -> PoolStatistics:
    """Every test of one pool, judged by Holm at ALPHA / pools. `table` holds columns_needed(play)
    in stored (print) order; `play` is the manifest's play entry of a play-style game."""
    prize = table["prize_cents"].cast(pl.Int64).to_numpy()
    win = prize > 0
    found, skipped = position_findings(prize, pool)
    more, why = block_findings(win, kind, per_book)
    found, skipped = found + more, skipped + why
    more, why = layout_findings(table, rules, win, split_key(pool), play, {t.id: t.count for t in pool.tiers})
    found, skipped = found + more, skipped + why
    alpha = ALPHA / pools
    return PoolStatistics(pool.id, pools, alpha, holm(found, alpha), tuple(skipped))


def describe(j: Judged) -> str:
    f = j.finding
    return f"{f.name} ({f.method}): {f.figures}, p = {fmt_p(f.p)}"


def pool_lines(s: PoolStatistics) -> list[tuple[str, str]]:
    """(status, line) for one pool: each failing test as a reason, then every other test."""
    level = f"family-wise {100 * s.alpha:.3g}% for this pool (1% over the run's {s.pools} pool(s))"
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


def check_statistics(folder: Path, manifest: Manifest,
                     figures: list[dict[str, Any]] | None = None) -> list[tuple[str, str, str | None]]:
    """(8) every pool's statistics: (status, message, where) lines for the step's report; and, into
    `figures`, every test's numbers (for `verify --json`)."""
    out: list[tuple[str, str, str | None]] = []
    pools = len(manifest.pools)
    play = manifest.doc.get("play")
    wanted = columns_needed(play)
    for pool in manifest.pools:
        where = f"pool {pool.id}"
        try:
            table = pl.read_parquet(folder / pool.file, columns=wanted)
        except Exception as exc:  # the file's problems are steps 2 and 3's to name
            out.append(("skip", f"needs {pool.file} readable with columns {', '.join(wanted)} (steps 2 "
                                f"and 3): {type(exc).__name__}", where))
            continue
        try:
            result = pool_statistics(table, pool, rules=manifest.rules, kind=manifest.kind,
                                     per_book=manifest.tickets_per_book, pools=pools, play=play)
        except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
            out.append(("fail", f"could not be checked: {type(exc).__name__}: {exc}", where))
            continue
        out += [(status, line, where) for status, line in pool_lines(result)]
        if figures is not None:
            figures += [{"pool": pool.id, "test": j.finding.name, "method": j.finding.method,
                         "statistic": j.finding.figures, "p": j.finding.p, "holm_threshold": j.threshold,
                         "alpha": result.alpha, "significant": j.rejected} for j in result.judged]
    return out
