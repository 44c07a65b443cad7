"""The third engine for step 8's section 1 (tests/third_engines/step8_per_pool.py, written from
docs/statistics.md alone) held against audit's findings on pools built in memory and judged as one-pool
runs: the same tests of print order, in the same order, under the same names, the statistic each reports
first equal to its printed digits and p-values equal to a relative 1e-9. The pools: small Happy Holidays
(books of 30) honest and with an insider's placement planted (tests/support/ticket_number_biases.py, the
top prizes kept out of the first fifth, a level crowded into a carton), a small Wild Side, Hand to Hand
Tactics eInstants of 30,500 shares (a short last block) honest and with winners moved to serials ending
in 1, and of 2,500 (two whole blocks: the dispersion's upper tail alone), and a full Happy Holidays p1."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.stats.books import block_findings
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_einstant, small_wild_side, spec_path
from tests.support.book_order_biases import level_into_carton
from tests.support.stats import judge, small_spec
from tests.support.ticket_number_biases import (
    level_at_ticket_numbers,
    winners_to_even_ticket_numbers,
    winners_to_serials,
)
from tests.third_engines.step8_per_pool import block_findings as engine_blocks
from tests.third_engines.step8_per_pool import (
    per_pool_findings,
    runs_finding,
    serial_findings,
    ticket_number_findings,
)

SEED = hashlib.sha256(b"poolgen/tests/third-engine/step8-per-pool").digest()
OURS = re.compile("|".join([
    r"^winner positions by tenth", r"^positions of prize level",
    r"^top prizes \([^)]*\): (smallest|largest) position$",
    r"^winners per (book|block) of", r"^prize value per (book|block) of", r"^winners by tenth of the ticket",
    r"^prize amounts by (ticket number within the book|serial mod \d+): ", r"^runs of winners"]))
STATISTIC = re.compile(r"(?:X2|H|z) = (-?[\d,.]+)|at position ([\d,]+)")


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, float]:
    """The engine's section 1 findings equal audit's; returns their p-values by name."""
    s, _ = judge(spec, pool, table, SEED)
    audit = [j.finding for j in s.judged if OURS.search(j.finding.name)]
    found = per_pool_findings(table["prize_cents"].to_numpy(), [(t.id, t.prize_cents) for t in pool.tiers],
                              spec.tickets_per_book)
    assert [f.name for f in found] == [a.name for a in audit]
    for f, a in zip(found, audit, strict=True):
        m = STATISTIC.search(a.figures)
        assert m is not None, a.figures
        shown = (m.group(1) or m.group(2)).replace(",", "")
        places = len(shown.split(".")[1]) if "." in shown else 0
        assert abs(f.stat - float(shown)) <= 0.5 * 10 ** -places + 1e-9, (f.name, f.stat, a.figures)
        assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
    return {f.name: f.p for f in found}


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _einstant(tmp: Any, shares: int) -> tuple[Any, Any, pl.DataFrame]:
    spec = load_spec(small_einstant(tmp, "hand_to_hand_tactics", shares))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _kept_from_the_first_fifth(table: pl.DataFrame) -> pl.DataFrame:
    """Every ticket of $5 and up in the first fifth swapped with a loser of the last fifth."""
    prize = table["prize_cents"].to_numpy()
    n = len(prize)
    order = np.arange(n)
    early = np.flatnonzero((prize >= 500) & (order < n // 5))
    late = np.flatnonzero((prize == 0) & (order >= n - n // 5))[: len(early)]
    order[early], order[late] = late, early.copy()
    return table[order]


def test_an_honest_small_happy_holidays_pool_gets_the_same_section_1_findings(happy):
    found = _agree(*happy)
    assert len(found) == 12 and min(found.values()) > 1e-3


@pytest.mark.parametrize("bias", ["$2s at ticket numbers 1, 4, 7", "winners to even ticket numbers",
                                  "top prizes out of the first fifth", "$2s into a carton"])
def test_a_placement_planted_in_a_small_happy_holidays_pool_gets_the_same_section_1_findings(happy, bias):
    spec, pool, table = happy
    rng = np.random.default_rng(11)
    biased = {"$2s at ticket numbers 1, 4, 7": lambda: level_at_ticket_numbers(table, 30, 200, 3, 1, rng),
              "winners to even ticket numbers": lambda: winners_to_even_ticket_numbers(table, 30, 0.6, rng),
              "top prizes out of the first fifth": lambda: _kept_from_the_first_fifth(table),
              "$2s into a carton": lambda: level_into_carton(table, 30, 200, 80, 40, 10)}[bias]()
    assert min(_agree(spec, pool, biased).values()) < 1e-5


def test_a_small_wild_side_pool_gets_the_same_section_1_findings(tmp_path):
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    tiers = "tier t10, t11, t12, t13, t14; 34 tickets"  # every tier of the amount, as the manifest lists them
    assert f"positions of prize level $25 ({tiers}), 3 equal parts of the pool" in found


def test_an_einstant_with_a_short_last_block_gets_the_same_section_1_findings_honest_and_planted(tmp_path):
    spec, pool, table = _einstant(tmp_path, 30_500)
    honest = _agree(spec, pool, table)
    assert "winners per block of 1,000 shares: histogram of 30 blocks" in honest  # the last 500 in no block
    planted = _agree(spec, pool, winners_to_serials(table, 10, 0.3, np.random.default_rng(12)))
    assert planted["prize amounts by serial mod 10: 10 residues x 12 classes"] < 1e-10


def test_an_einstant_of_two_blocks_gets_the_same_upper_tailed_dispersion(tmp_path):
    found = _agree(*_einstant(tmp_path, 2_500))
    assert "winners per block of 1,000 shares: dispersion" in found


def test_a_full_happy_holidays_pool_gets_the_same_section_1_findings():
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    assert len(_agree(spec, pool, build_pool(spec, pool, SEED))) >= 12


def test_books_evened_out_keep_the_two_sided_prize_value_test():
    """60 books of 30, each holding exactly 9 winners ($1, $2 or $5): the prize value per book is two-sided
    (the expected winners per book vary; the books observed do not), p far below 1e-20 as in audit; the
    histogram too. The dispersion's X is 0 within rounding there (docs/statistics.md): not compared."""
    rng = np.random.default_rng(13)
    prize = np.zeros(1800, dtype=np.int64)
    for b in range(60):
        prize[rng.choice(30, 9, replace=False) + 30 * b] = rng.choice([100, 200, 500], 9)
    audit = {f.name: f.p for f in block_findings(prize, "printed", 30)[0]}
    found = {f.name: f.p for f in engine_blocks(prize, 30)}
    assert set(found) < set(audit)  # audit's also holds the ticket numbers' tests and the runs
    for name in ("winners per book of 30: histogram of 60 books", "prize value per book of 30: 60 books"):
        assert found[name] == pytest.approx(audit[name], rel=1e-9), name
    assert found["prize value per book of 30: 60 books"] < 1e-20


@pytest.mark.parametrize("per_book", [4, 5, 12])
def test_books_of_fewer_than_ten_tickets_leave_their_empty_tenths_out(per_book):
    """Books of 4 or 5 tickets: the tenths of the ticket number hold 4 or 5 of them, the others none and
    left out (df B - 1, as in audit); books of 12 keep all ten."""
    prize = np.random.default_rng(per_book).choice([0, 0, 0, 100, 200, 500], 600)
    audit = {f.name: f.p for f in block_findings(prize, "printed", per_book)[0]}
    found = {f.name: f.p for f in ticket_number_findings(prize, per_book)}
    assert set(found) < set(audit) and len(found) == 2
    for name, p in found.items():
        assert p == pytest.approx(audit[name], rel=1e-9), name


def _random_pool(rng: np.random.Generator) -> tuple[np.ndarray, int | None]:
    """A pool of random size and winners (none, a few, all), printed in books of 1 to 60 or an eInstant."""
    per = int(rng.choice([1, 2, 3, 5, 10, 30, 60])) if rng.random() < 0.6 else None
    n = per * int(rng.integers(1, 80)) if per else int(rng.integers(5, 3500))
    prize = np.zeros(n, dtype=np.int64)
    winners = int(rng.integers(0, n + 1)) if rng.random() < 0.3 else int(rng.integers(0, n // 3 + 1))
    amounts = rng.choice([100, 200, 500, 1000, 5000], size=int(rng.integers(1, 5)), replace=False)
    prize[rng.choice(n, winners, replace=False)] = rng.choice(amounts, winners)
    return prize, per


def test_random_pools_get_the_same_per_book_serial_and_runs_findings():
    """80 random pools, edge cases included (no winner, every ticket one, books of one ticket, fewer than
    two books, a short last block): the engine makes exactly audit's tests of books, blocks, ticket numbers,
    serials and runs, p to 1e-9 (both below 1e-280 taken as equal: the dispersion's X = 0 is rounding)."""
    rng = np.random.default_rng(2026)
    for _ in range(80):
        prize, per = _random_pool(rng)
        audit = {f.name: f.p for f in block_findings(prize, "printed" if per else "einstant", per)[0]}
        found = engine_blocks(prize, per) + runs_finding(prize > 0)
        found += ticket_number_findings(prize, per) if per else serial_findings(prize)
        engine = {f.name: f.p for f in found}
        assert set(engine) == set(audit), (per, len(prize), sorted(set(engine) ^ set(audit)))
        for name, p in engine.items():
            tiny = max(p, audit[name]) < 1e-280
            assert p == pytest.approx(audit[name], rel=1e-9) or tiny, (name, p, audit[name])
