"""The third engine for step 8's 1f and 1g (tests/third_engines/step8_tenths_windows.py, written from
docs/statistics.md alone) held against audit's findings on pools built in memory and judged as one-pool
runs: every test of the two families made by one is made by the other, under the same name, with the same
figures, word for word, and p-values equal to a relative 1e-9 (both compute the same exact sums and
chi-square tails; they differ in floating-point order only). The pools: a small honest Happy Holidays and
a small Wild Side (a sparse $25 level: 1f's exact tail over 3 parts), each with an insider's bias of
tests/support/book_order_biases.py (a level moved into a carton, books renumbered by what they hold), and
a Hand to Hand Tactics eInstant of 30,500 shares (30 full blocks and a short one), honest and with a
level crowded into its first blocks."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_einstant, small_wild_side
from tests.support.book_order_biases import (
    fewest_winners_numbered_last,
    level_in_number_range,
    level_into_carton,
)
from tests.support.stats import judge, small_spec
from tests.third_engines.step8_tenths_windows import tenths_findings, window_findings

SEED = hashlib.sha256(b"poolgen/tests/third-engine/step8-tenths-windows").digest()


def _ours(name: str) -> bool:
    return (name.endswith("per book by printed book number, in tenths") or ": most in consecutive " in name)


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, tuple[str, float]]:
    """The engine's findings equal audit's (names, figures, p to 1e-9 relative); returns them by name."""
    s, _ = judge(spec, pool, table, SEED)
    audit = {j.finding.name: (j.finding.figures, j.finding.p) for j in s.judged if _ours(j.finding.name)}
    prize = table["prize_cents"].to_numpy()
    per_book = spec.tickets_per_book
    book = table["book"].to_numpy() if per_book else None
    found = tenths_findings(prize, per_book, book) if per_book else []
    found += window_findings(prize, per_book, book)
    engine = {f.name: (f.figures, f.p) for f in found}
    assert set(engine) == set(audit), sorted(set(engine) ^ set(audit))
    assert list(engine) == sorted(engine, key=list(audit).index)  # in audit's order too
    for name, (figures, p) in engine.items():
        assert figures == audit[name][0], (name, figures, audit[name][0])
        assert p == pytest.approx(audit[name][1], rel=1e-9, abs=1e-300), (name, p, audit[name][1])
    return engine


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


@pytest.fixture(scope="module")
def wild(tmp_path_factory):
    spec = load_spec(small_wild_side(tmp_path_factory.mktemp("ws")))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


@pytest.fixture(scope="module")
def einstant(tmp_path_factory):
    spec = load_spec(small_einstant(tmp_path_factory.mktemp("ei"), "hand_to_hand_tactics", 30_500))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_an_honest_small_happy_holidays_pool_gets_the_same_1f_and_1g_findings(happy):
    found = _agree(*happy)
    assert len(found) == 9  # 1f: winners, $5 (sparse), $2, $1, value; 1g: $2 and $1 in two orders each
    assert found["prize level $5 (41 tickets) per book by printed book number, in tenths"][0].endswith(
        "df = 3, 37 books")


def test_a_level_moved_into_a_carton_is_found_alike(happy):
    spec, pool, table = happy
    found = _agree(spec, pool, level_into_carton(table, 30, 200, 25, 40, 5))
    figures, p = found["prize level $2 (235 tickets): most in consecutive books of print order"]
    assert figures == "39 of 235 in books 41..45 of 100 (11.8 expected in 5)" and p < 1e-5


def test_books_renumbered_by_what_they_hold_are_found_alike(happy):
    spec, pool, table = happy
    found = _agree(spec, pool, level_in_number_range(table, 30, 200, 0.2, 0.4))
    assert found["prize level $2 (235 tickets) per book by printed book number, in tenths"][1] < 1e-8
    assert found["prize level $2 (235 tickets): most in consecutive books by printed book number"][0] == (
        "86 of 235 in books ranked 41..60 of 100 (47.0 expected in 20)")
    found = _agree(spec, pool, fewest_winners_numbered_last(table, 30, 0.2))
    assert found["winners per book by printed book number, in tenths"][1] < 1e-6


def test_a_small_wild_side_pool_and_its_sparse_level_numbered_first_are_found_alike(wild):
    spec, pool, table = wild
    found = _agree(spec, pool, table)
    assert found["prize level $25 (34 tickets) per book by printed book number, in tenths"][0].endswith(
        "df = 2, 24 books")
    found = _agree(spec, pool, level_in_number_range(table, 60, 2500, 0.3, 0.0))
    assert found["prize level $25 (34 tickets) per book by printed book number, in tenths"][1] < 1e-3


def test_an_einstant_pool_of_30_full_blocks_and_a_short_one_gets_the_same_windows(einstant):
    """c and N are the whole pool's (the short block's 500 shares among them), the windows the 30 full
    blocks'; then 40 more $4 shares swapped into the first 5 blocks (each with a loser there)."""
    spec, pool, table = einstant
    found = _agree(spec, pool, table)
    assert len(found) == 9
    prize = table["prize_cents"].to_numpy()
    far = np.flatnonzero(prize == 400)
    far = far[far >= 5_000][:40]
    near = np.flatnonzero(prize[:5_000] == 0)
    near = near[np.linspace(0, len(near) - 1, 40).astype(np.int64)]  # spread over the 5 blocks
    order = np.arange(table.height)
    order[far], order[near] = near, far
    found = _agree(spec, pool, table[order])
    level = "prize level $4 (612 tickets): most in consecutive blocks of 1,000 shares (serial order)"
    figures, p = found[level]
    assert figures.endswith("in blocks 1..5 of 30 (100.3 expected in 5)") and p < 1e-4


def test_books_of_two_values_take_the_value_tests_two_sided_tail_alike():
    """Books that each pay $5 or nothing, 30% to 70% of them $5, 90 to 300 books: the prize value's
    Kruskal-Wallis resolves its lower tail (1b's rule for kruskal), which no pool above reaches; the
    engine's two-sided p and figures are audit's."""
    from audit.stats.book_order import book_order_findings

    rng = np.random.default_rng(20261204)  # test layouts, not a pool's draw
    two_sided = 0
    for _ in range(30):
        books, per_book = int(rng.integers(90, 300)), int(rng.integers(1, 6))
        prize = np.zeros(books * per_book, dtype=np.int64)
        prize[rng.choice(books, int(books * rng.uniform(0.3, 0.7)), replace=False) * per_book] = 500
        book = np.repeat(rng.permutation(books), per_book)
        audit = {f.name: f for f in book_order_findings(prize, book, per_book)}
        engine = {f.name: f for f in tenths_findings(prize, per_book, book)}
        assert set(engine) == set(audit)
        for name, f in engine.items():
            assert (f.figures, f.p) == (audit[name].figures, pytest.approx(audit[name].p, rel=1e-9)), name
        two_sided += "two-sided" in audit["prize value per book by printed book number, in tenths"].method
    assert two_sided >= 10
