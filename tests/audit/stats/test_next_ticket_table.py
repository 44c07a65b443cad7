"""The table of 1j and 1k (audit/stats/next_ticket.py `_by_code`, `_observed`): the rows' groups of codes
by their amounts' classes, counted three ways: straight into a table of every code from 0 to the largest
by every amount, through a table of the distinct codes, or (more than JOINT cells) row by row. Each way
must give the table counted one row at a time, and the same findings, words and figures."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from audit.stats import next_ticket
from audit.stats.next_ticket import JOINT, _by_code, _observed

SEED = hashlib.sha256(b"poolgen/tests/next-ticket-table").digest()


def _one_by_one(codes: np.ndarray, inverse: np.ndarray, bins: np.ndarray, cls: np.ndarray, k: int,
                kinds: int) -> np.ndarray:
    index = {c: i for i, c in enumerate(sorted(set(codes.tolist())))}
    table = np.zeros((k, kinds), dtype=np.int64)
    for c, a in zip(codes.tolist(), inverse.tolist(), strict=True):
        table[bins[index[c]], cls[a]] += 1
    return table


@pytest.mark.parametrize(("low", "values", "amounts", "straight", "joint"), [
    (0, 3, 2, True, True),  # codes from 0: straight into the table
    (0, 12, 59, True, True),
    (-5, 12, 59, False, True),  # a negative code: the distinct codes first
    (1_000_000, 700, 9, False, True),  # a table up to the largest code of more than JOINT cells
    (0, 4_000, JOINT // 3_000 + 1, False, False),  # 3,000 distinct codes x amounts > JOINT: row by row
])
def test_the_table_is_the_rows_counted_one_by_one(low: int, values: int, amounts: int, straight: bool,
                                                  joint: bool) -> None:
    rng = np.random.default_rng(np.frombuffer(SEED, dtype=np.uint64))  # test data, not outcomes
    rows = 5_000
    held = rng.choice(values, min(values, 3_000), replace=False)  # not every code up to the largest
    codes = low + 2 * np.concatenate([held, held[rng.integers(0, len(held), rows)]])
    inverse = np.concatenate([np.arange(len(held)) % amounts, rng.integers(0, amounts, rows)])
    sizes, distinct, table, value = _by_code(codes, inverse, amounts)
    assert distinct == len(held) == len(sizes)
    assert sizes.tolist() == np.unique(codes, return_counts=True)[1].tolist()
    assert (table is not None) == joint
    assert (len(value) == 0) == straight
    bins = np.unique(np.sort(rng.integers(0, max(2, distinct // 3), distinct)), return_inverse=True)[1]
    cls = np.unique(np.sort(rng.integers(0, max(2, amounts // 2), amounts)), return_inverse=True)[1]
    k, kinds = int(bins.max()) + 1, int(cls.max()) + 1
    observed = _observed(table, value, inverse, bins, cls, k, kinds)
    assert observed.dtype == np.int64
    assert np.array_equal(observed, _one_by_one(codes, inverse, bins, cls, k, kinds))
    assert int(observed.sum()) == len(codes)


@pytest.mark.parametrize("low", [0, -3])
def test_a_finding_is_the_same_through_a_table_and_row_by_row(monkeypatch: pytest.MonkeyPatch,
                                                              low: int) -> None:
    rng = np.random.default_rng(np.frombuffer(SEED, dtype=np.uint64)[::-1])  # test data, not outcomes
    codes = low + rng.integers(0, 30, 40_000)
    amount = np.array([0, 100, 200, 500, 1_000, 50_000])[np.minimum(rng.geometric(0.4, 40_000) - 1, 5)]
    tabled = next_ticket.loser_finding("spot", codes, amount, "next ticket's amount", "losers")
    monkeypatch.setattr(next_ticket, "JOINT", 0)  # every table counted row by row
    by_row = next_ticket.loser_finding("spot", codes, amount, "next ticket's amount", "losers")
    assert tabled is not None
    assert repr(tabled) == repr(by_row)
    assert tabled.method == ("chi-square test of independence, 15 groups of values (30 values in code order) "
                             "x 6 classes of the next ticket's amount, top-coded to classes of at least 77 "
                             "tickets")
    assert tabled.figures == "X2 = 69.0, df = 70; 40,000 losers"
