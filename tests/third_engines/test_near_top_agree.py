"""The third engine for step 8's 1i (tests/third_engines/near_top.py, written from docs/statistics.md alone)
held against audit's findings on pools built in memory and judged as one-pool runs: the same tests under
the same names, methods and figures, word for word, and p-values equal to a relative 1e-9. The pools: a
small Happy Holidays, honest and with a level moved into the top prizes' books or beside a top prize
(tests/support/near_top_biases.py), a small Wild Side pool, and full Happy Holidays p1 and Wild Side p1,
honest and with each insider."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_wild_side, spec_path
from tests.support.near_top_biases import level_beside_top, level_into_top_books
from tests.support.stats import judge, small_spec
from tests.third_engines.near_top import near_top_findings

SEED = hashlib.sha256(b"poolgen/tests/third-engine/near-top").digest()


def _ours(name: str) -> bool:
    return name.startswith("prize level ") and ("of the top prizes" in name or "beside a top prize" in name)


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, tuple[str, float]]:
    """The engine's findings equal audit's (names, methods, figures, p to 1e-9 relative), in audit's order."""
    s, _ = judge(spec, pool, table, SEED)
    audit = [j.finding for j in s.judged if _ours(j.finding.name)]
    engine = near_top_findings(table["prize_cents"].to_numpy(), spec.tickets_per_book)
    assert [f.name for f in engine] == [a.name for a in audit]  # the same tests, in audit's order
    for f, a in zip(engine, audit, strict=True):
        assert (f.method, f.figures) == (a.method, a.figures), f.name
        assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
    return {f.name: (f.figures, f.p) for f in engine}


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_an_honest_small_happy_holidays_pool_gets_the_same_1i_findings(happy):
    found = _agree(*happy)
    assert len(found) == 4 and all(p > 1e-4 for _, p in found.values())


@pytest.mark.parametrize("move", [level_into_top_books, level_beside_top])
def test_a_small_happy_holidays_pool_with_a_level_placed_by_the_top_prizes_gets_the_same_1i_findings(
        happy, move):
    spec, pool, table = happy
    found = _agree(spec, pool, move(table, 30, 500, 200, 40, np.random.default_rng(9)))
    assert min(p for _, p in found.values()) < 1e-5


def test_a_small_wild_side_pool_gets_the_same_1i_findings(tmp_path):
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    assert len(_agree(spec, pool, build_pool(spec, pool, SEED))) >= 2


@pytest.mark.parametrize(("game", "at_least", "amount", "moved"),
                         [("happy_holidays", 10_000, 2_000, 100), ("wild_side", 10_000, 5_000, 100)])
def test_full_pools_honest_and_with_each_insider_get_the_same_1i_findings(game, at_least, amount, moved):
    spec = load_spec(spec_path(game))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    assert len(_agree(spec, pool, table)) >= 6
    for move in (level_into_top_books, level_beside_top):
        biased = move(table, spec.tickets_per_book, at_least, amount, moved, np.random.default_rng(9))
        assert min(p for _, p in _agree(spec, pool, biased).values()) < 1e-10
