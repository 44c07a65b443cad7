"""The third engine for step 8's 1h (tests/third_engines/residues.py, written from docs/statistics.md
alone) held against audit's findings on pools built in memory and judged as one-pool runs: the same tests
under the same names, methods and figures, word for word, and p-values equal to a relative 1e-9. The
pools: a small Happy Holidays, honest and with each insider of tests/support/residue_biases.py, a small
Wild Side pool, and a full Happy Holidays p1 (300,000 tickets in books of 300)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_wild_side, spec_path
from tests.support.residue_biases import (
    check_digits_end_in,
    level_at_rows_of_their_books,
    level_into_books,
    ticket_ends_in_book_digit,
)
from tests.support.stats import judge, small_spec
from tests.third_engines.residues import residue_findings

SEED = hashlib.sha256(b"poolgen/tests/third-engine/residues").digest()
OURS = ("prize amounts by printed book number", "prize amounts by ticket number within the book minus")


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, tuple[str, str, float]]:
    """The engine's findings equal audit's (names, methods, figures, p to 1e-9 relative), in audit's order."""
    s, _ = judge(spec, pool, table, SEED)
    audit = [j.finding for j in s.judged if j.finding.name.startswith(OURS)]
    prize, book = table["prize_cents"].to_numpy(), table["book"].to_numpy()
    engine = residue_findings(prize, spec.tickets_per_book, book)
    assert [f.name for f in engine] == [a.name for a in audit]  # the same tests, in audit's order
    for f, a in zip(engine, audit, strict=True):
        assert (f.method, f.figures) == (a.method, a.figures), f.name
        assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
    return {f.name: (f.method, f.figures, f.p) for f in engine}


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_an_honest_small_happy_holidays_pool_gets_the_same_1h_findings(happy):
    found = _agree(*happy)
    assert len(found) == 11 and all(p > 1e-4 for _, _, p in found.values())


@pytest.mark.parametrize("bias", ["ticket ends in its book's digit", "check digits end in 7", "even books"])
def test_a_biased_small_happy_holidays_pool_gets_the_same_1h_findings(happy, bias):
    spec, pool, table = happy
    rng = np.random.default_rng(8)
    if bias == "even books":
        biased = level_into_books(table, 200, table["book"].to_numpy() % 2 == 0, 60, rng)
    else:
        rows = (ticket_ends_in_book_digit(table, 30) if bias.startswith("ticket")
                else check_digits_end_in(table, 30, 465, 7))
        biased = level_at_rows_of_their_books(table, 30, 200, rows, rng)
    found = _agree(spec, pool, biased)
    assert min(p for _, _, p in found.values()) < 1e-8


def test_a_small_wild_side_pool_gets_the_same_1h_findings(tmp_path):
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    assert len(_agree(spec, pool, build_pool(spec, pool, SEED))) >= 10


def test_a_full_happy_holidays_pool_gets_the_same_1h_findings():
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    assert len(found) == 11
