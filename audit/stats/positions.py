"""Step 8's tests of where winners sit in one pool (docs/statistics.md): the positions of the winners,
of each prize level and of the pool's top prizes against a uniform shuffle (per book or block:
audit/stats/books.py; the top tiers of the run's pools combined: audit/stats/top.py)."""

from __future__ import annotations

import numpy as np

from audit.read.manifest import PoolEntry
from audit.stats.books import BLOCK
from audit.stats.tests import Finding, distinct_values, equal_parts, extreme_position, table_test

__all__ = ["BLOCK", "cents", "position_findings", "top_group"]

TENTHS = 10  # bins of the position tests
MIN_PER_BIN = 10  # a prize level is binned in at most count // MIN_PER_BIN parts (10 expected per part)
TOP_MIN = 50  # the top prizes: the highest prize amounts, taken until they hold this many tickets


def cents(c: int, sign: str = "$") -> str:
    """An amount in the game's currency (`sign`, the manifest's game.currency): '$1,000', '£2.50'."""
    return f"{sign}{c // 100:,}" + (f".{c % 100:02d}" if c % 100 else "")


def top_group(levels: list[tuple[int, int]]) -> list[int]:
    """Prize amounts, highest first, until they hold at least TOP_MIN tickets (or every winner). Every
    amount of `levels` from the last up is in it: a prize is among its first k iff it is at least the k-th."""
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


def position_findings(prize: np.ndarray, pool: PoolEntry,
                      binned: bool = True, sign: str = "$") -> tuple[list[Finding], list[str]]:
    """Winners, each prize level and the top prizes against uniform positions (`binned` False: only the
    top prizes; the pack tests under the chain test the counts by tenth of the packs instead,
    audit/stats/packs.py)."""
    n = len(prize)
    win = prize > 0
    found: list[Finding | None] = []
    skipped = []
    tenth = np.flatnonzero(win) * TENTHS // max(n, 1)  # each winner's tenth of the pool
    if binned:
        found.append(table_test("winner positions by tenth of the pool", equal_parts(n, TENTHS),
                                np.bincount(tenth, minlength=TENTHS)))
    else:
        skipped.append("winners and each prize level by tenth of the pool against a uniform shuffle: the "
                       "pack parameters are drawn by the chain of docs/randomness.md 5.3, so they are tested "
                       "by tenth of the packs instead (docs/statistics.md 1b)")
    amounts, level, counts = distinct_values(prize[win])
    # each level's winners by tenth, all at once (a level of TENTHS parts or more reads its row)
    by_tenth = np.bincount(level * TENTHS + tenth, minlength=len(amounts) * TENTHS).reshape(-1, TENTHS) \
        if binned else None
    row = {int(a): j for j, a in enumerate(amounts)}
    tiers = _tiers_of(pool)
    levels = [(int(a), int(c)) for a, c in zip(amounts, counts, strict=True)]
    for amount, count in sorted(levels, reverse=True):
        ids = ", ".join(tiers.get(amount, ["?"]))
        label = f"prize level {cents(amount, sign)} (tier {ids}; {count:,} ticket{'s' if count > 1 else ''})"
        bins = min(TENTHS, count // MIN_PER_BIN)
        if not binned:
            continue
        if bins < 2:
            skipped.append(f"positions of {label}: too few for a binned test (in the top-prize tests "
                           "if among the highest)")
            continue
        if bins == TENTHS and by_tenth is not None:
            parts = by_tenth[row[amount]]
        else:
            parts = np.bincount(np.flatnonzero(prize == amount) * bins // n, minlength=bins)
        found.append(table_test(f"positions of {label}, {bins} equal parts of the pool",
                                equal_parts(n, bins), parts))
    if levels:
        group = top_group(levels)
        where = np.flatnonzero(prize >= group[-1])  # the group: every amount from its lowest up
        name = (f"top prizes ({cents(group[0], sign)}"
                + (f" to {cents(group[-1], sign)}" if len(group) > 1 else "")
                + f"; {len(where):,} tickets)")
        found.append(extreme_position(f"{name}: smallest position", where, n, smallest=True))
        found.append(extreme_position(f"{name}: largest position", where, n, smallest=False))
    return [f for f in found if f is not None], skipped
