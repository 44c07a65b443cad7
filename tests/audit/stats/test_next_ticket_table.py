"""The table of 1j and 1k (audit/stats/next_ticket.py `_observed`): the rows' groups by their amounts'
classes, counted through a values x amounts table when it is small (at most JOINT cells) and row by row
otherwise. Both ways must give the table counted one row at a time, whatever the groups and classes."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from audit.stats import next_ticket
from audit.stats.next_ticket import JOINT, _observed

SEED = hashlib.sha256(b"poolgen/tests/next-ticket-table").digest()


def _by_row(value: np.ndarray, inverse: np.ndarray, bins: np.ndarray, cls: np.ndarray, k: int,
            kinds: int) -> np.ndarray:
    table = np.zeros((k, kinds), dtype=np.int64)
    for v, a in zip(value.tolist(), inverse.tolist(), strict=True):
        table[bins[v], cls[a]] += 1
    return table


@pytest.mark.parametrize(("values", "amounts"), [(3, 2), (12, 59), (700, 9), (JOINT // 4 + 1, 4)])
def test_the_table_is_the_rows_counted_one_by_one_both_ways(values: int, amounts: int) -> None:
    rng = np.random.default_rng(np.frombuffer(SEED, dtype=np.uint64))  # test data, not outcomes
    rows = 5_000
    value = np.concatenate([np.arange(values), rng.integers(0, values, rows)])  # every value held
    inverse = np.concatenate([np.arange(values) % amounts, rng.integers(0, amounts, rows)])
    bins = np.sort(rng.integers(0, max(2, values // 3), values))
    bins = np.unique(bins, return_inverse=True)[1]  # groups 0 .. k - 1, in code order
    cls = np.unique(np.sort(rng.integers(0, max(2, amounts // 2), amounts)), return_inverse=True)[1]
    k, kinds = int(bins.max()) + 1, int(cls.max()) + 1
    table = _observed(value, inverse, bins, cls, k, kinds)
    assert table.dtype == np.int64
    assert table.shape == (k, kinds)
    assert np.array_equal(table, _by_row(value, inverse, bins, cls, k, kinds))
    assert int(table.sum()) == rows + values


def test_a_finding_is_the_same_through_the_small_table_and_row_by_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(np.frombuffer(SEED, dtype=np.uint64)[::-1])  # test data, not outcomes
    codes = rng.integers(0, 30, 40_000)
    amount = np.array([0, 100, 200, 500, 1_000, 50_000])[np.minimum(rng.geometric(0.4, 40_000) - 1, 5)]
    small = next_ticket.loser_finding("spot", codes, amount, "next ticket's amount", "losers")
    monkeypatch.setattr(next_ticket, "JOINT", 0)  # every table counted row by row
    by_row = next_ticket.loser_finding("spot", codes, amount, "next ticket's amount", "losers")
    assert small is not None
    assert repr(small) == repr(by_row)
    assert small.method == ("chi-square test of independence, 15 groups of values (30 values in code order) "
                            "x 6 classes of the next ticket's amount, top-coded to classes of at least 77 "
                            "tickets")
    assert small.figures == "X2 = 69.0, df = 70; 40,000 losers"
