"""Step 8 of the checklist: statistics on each pool, at 99% confidence for the whole run.

Per pool (docs/statistics.md states the design, which is repeated here in short):
  - positions of the winners, of each prize level and of the top prizes against a uniform shuffle
    (chi-square of counts per tenth of the pool; exact tests of the top prizes' smallest and largest
    position, e.g. P(min >= x) = C(N-x, t)/C(N, t), which catches top prizes kept out of the
    first fifth);
  - winners per book (printed games, books of tickets_per_book) or per block of BLOCK shares
    (eInstants) against the hypergeometric distribution a uniform shuffle gives each block: the
    histogram by chi-square with pooled tails, and the index of dispersion;
  - runs of winners and losers in print order (Wald-Wolfowitz);
  - the layout no-information tests of the game's contract (audit/stats_layouts.py), including a
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

import numpy as np
import polars as pl

from audit.read.manifest import Manifest, PoolEntry
from audit.stats.layouts import layout_columns, layout_features
from audit.stats.tests import (
    Finding,
    auc_classifier,
    dispersion,
    equal_parts,
    extreme_position,
    histogram,
    independence,
    runs,
    table_test,
)

__all__ = ["ALPHA", "BLOCK", "Judged", "PoolStatistics", "check_statistics", "columns_needed",
           "pool_statistics"]

ALPHA = 0.01  # family-wise error of step 8 over a whole run
BLOCK = 1_000  # eInstant shares per block in the winners-per-block tests
TENTHS = 10  # bins of the position tests
MIN_PER_BIN = 10  # a prize level is binned in at most count // MIN_PER_BIN parts (10 expected per part)
TOP_MIN = 50  # the top prizes: the highest prize amounts, taken until they hold this many tickets
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


def _cents(c: int) -> str:
    return f"${c // 100:,}" + (f".{c % 100:02d}" if c % 100 else "")


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


def columns_needed(play: dict | None = None) -> list[str]:
    """The columns step 8 reads; `play` is the manifest's play entry (an eInstant style's parameters)."""
    return ["prize_cents", *layout_columns(play)]


def _top_group(levels: list[tuple[int, int]]) -> list[int]:
    """Prize amounts, highest first, until they hold at least TOP_MIN tickets (or every winner)."""
    group, held = [], 0
    for amount, count in sorted(levels, reverse=True):
        group.append(amount)
        held += count
        if held >= TOP_MIN:
            break
    return group


def _tiers_of(pool: PoolEntry) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for t in pool.tiers:
        if t.prize_cents > 0 and t.count > 0:
            out.setdefault(t.prize_cents, []).append(t.id)
    return out


def position_findings(prize: np.ndarray, pool: PoolEntry) -> tuple[list[Finding], list[str]]:
    """Winners, each prize level and the top prizes against uniform positions."""
    n = len(prize)
    win = prize > 0
    found: list[Finding | None] = [table_test(
        "winner positions by tenth of the pool", equal_parts(n, TENTHS),
        np.bincount(np.flatnonzero(win) * TENTHS // max(n, 1), minlength=TENTHS))]
    skipped = []
    amounts, counts = np.unique(prize[win], return_counts=True)
    tiers = _tiers_of(pool)
    levels = [(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)]
    for amount, count in sorted(levels, reverse=True):
        ids = ", ".join(tiers.get(amount, ["?"]))
        label = f"prize level {_cents(amount)} (tier {ids}; {count:,} ticket{'s' if count > 1 else ''})"
        bins = min(TENTHS, count // MIN_PER_BIN)
        if bins < 2:
            skipped.append(f"positions of {label}: too few for a binned test (in the top-prize tests "
                           "if among the highest)")
            continue
        where = np.flatnonzero(prize == amount)
        found.append(table_test(f"positions of {label}, {bins} equal parts of the pool",
                                equal_parts(n, bins), np.bincount(where * bins // n, minlength=bins)))
    if levels:
        group = _top_group(levels)
        where = np.flatnonzero(np.isin(prize, group))
        name = (f"top prizes ({_cents(group[0])}" + (f" to {_cents(group[-1])}" if len(group) > 1 else "")
                + f"; {len(where):,} tickets)")
        found.append(extreme_position(f"{name}: smallest position", where, n, smallest=True))
        found.append(extreme_position(f"{name}: largest position", where, n, smallest=False))
    return [f for f in found if f is not None], skipped


def block_findings(win: np.ndarray, kind: str, per_book: int | None) -> tuple[list[Finding], list[str]]:
    """Winners per book (printed) or per block of BLOCK shares (eInstants), and runs."""
    size = per_book if kind == "printed" and per_book else BLOCK
    unit = f"book of {size}" if kind == "printed" else f"block of {size:,} shares"
    blocks = len(win) // size
    found: list[Finding | None] = []
    skipped = []
    if blocks >= 2:
        per = win[: blocks * size].reshape(blocks, size).sum(axis=1)
        covered, hits = blocks * size, int(per.sum())
        found.append(histogram(f"winners per {unit}: histogram of {blocks:,} {unit.split(' of')[0]}s",
                               per, covered, hits))
        found.append(dispersion(f"winners per {unit}: dispersion", per, covered, hits,
                                unit.split(" of")[0]))
    else:
        skipped.append(f"winners per {unit}: fewer than two {unit}s")
    found.append(runs("runs of winners and losers in print order", win))
    return [f for f in found if f is not None], skipped


def layout_findings(table: pl.DataFrame, rules: str, win: np.ndarray, key: int, play: dict | None = None,
                    counts: dict[str, int] | None = None) -> tuple[list[Finding], list[str]]:
    features = layout_features(lambda c: table[c].to_numpy(), play, counts)
    if features is None:
        return [], [f"layout no-information tests: no contract tests for game rules {rules!r}"]
    found = []
    for name, codes in features.chi_square:  # a code below 0 leaves its row out
        keep = codes >= 0
        found.append(independence(name, win[keep], codes[keep]))
    skipped = [f"layout: {name}: one category only or too few winners" for (name, _), f
               in zip(features.chi_square, found, strict=True) if f is None] + list(features.not_tested)
    if features.classifier:
        keep = np.logical_and.reduce([c >= 0 for block in features.classifier for c in block])
        blocks = [[c[keep] for c in block] for block in features.classifier]
        found.append(auc_classifier(features.classifier_name, win[keep], blocks, key))
        if found[-1] is None:
            skipped.append(f"layout: {features.classifier_name}: too few winners or losers in a half")
    return [f for f in found if f is not None], skipped


def pool_statistics(table: pl.DataFrame, pool: PoolEntry, *, rules: str, kind: str, per_book: int | None,
                    pools: int, play: dict | None = None) -> PoolStatistics:
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


def check_statistics(folder: Path, manifest: Manifest) -> list[tuple[str, str, str | None]]:
    """(8) every pool's statistics: (status, message, where) lines for the step's report."""
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
    return out
