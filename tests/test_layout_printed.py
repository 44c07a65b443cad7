"""Layouts of the printed game Happy Holidays, checked by a small evaluator written here from the
layout contract (specs/happy_holidays.md) alone. Wild Side: tests/test_layout_wild_side.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from poolgen.check import check_spec
from poolgen.layouts import happy_holidays
from poolgen.rng import derive_stream, permutation
from poolgen.spec import load_spec

SPECS = Path(__file__).resolve().parent.parent / "specs"
SEED = bytes(range(32))

# ---------------------------------------------------------------------------------------------
# Code tables, copied from the contracts.

HH_CODES = ("FREE", "1", "2", "5", "20", "100")
HH_VALUE = np.array([100, 100, 200, 500, 2000, 10000], dtype=np.int64)
HH_SHAPES = {"win": {(3, 2, 1), (3, 1, 1, 1)}, "lose": {(2, 2, 2), (2, 2, 1, 1)}}

# ---------------------------------------------------------------------------------------------
# Evaluators from the contracts.

def hh_evaluate(cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Happy Holidays, contract sections 4 and 5: prize, wins, tripled code, legal."""
    spots = np.stack([np.asarray(cols[f"spot_{j}"], dtype=np.int64) for j in range(6)], axis=1)
    legal = (spots <= 5).all(axis=1) & (spots >= 0).all(axis=1)
    spots = np.where(legal[:, None], spots, 0)
    counts = np.stack([(spots == s).sum(axis=1) for s in range(6)], axis=1)
    legal &= counts.max(axis=1) <= 3
    legal &= (counts >= 3).sum(axis=1) <= 1
    shape = -np.sort(-counts, axis=1)  # counts of the symbols, largest first, zero-padded
    allowed = [list(t) + [0] * (6 - len(t)) for t in HH_SHAPES["win"] | HH_SHAPES["lose"]]
    legal &= (shape[:, None, :] == np.array(allowed)[None, :, :]).all(axis=2).any(axis=1)
    triple = np.where((counts == 3).any(axis=1), np.argmax(counts == 3, axis=1), -1)
    wins = (triple >= 0).astype(np.int64)
    prize = np.where(triple >= 0, HH_VALUE[np.maximum(triple, 0)], 0)
    return {"prize": prize, "wins": wins, "symbol": triple, "legal": legal,
            "distinct": (counts > 0).sum(axis=1)}


# ---------------------------------------------------------------------------------------------
# Full pools.

def pool_tiers(pool, seed: bytes = SEED) -> np.ndarray:
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    return base[permutation(derive_stream(seed, "test", "order"), base.size)]


def lay(module, spec, pool, tiers, seed: bytes = SEED):
    return module.lay_out(spec, pool, tiers, derive_stream(seed, "test", "layout"))


@pytest.fixture(scope="module")
def hh():
    spec = load_spec(SPECS / "happy_holidays.toml")
    pool = spec.pools[0]
    tiers = pool_tiers(pool)
    return spec, pool, tiers, lay(happy_holidays, spec, pool, tiers)


def independent(feature: np.ndarray, win: np.ndarray) -> float:
    """p-value of the chi-square test of independence of a feature and win/lose."""
    values = np.unique(feature)
    table = np.array([[np.sum((feature == v) & win), np.sum((feature == v) & ~win)]
                      for v in values])
    return float(chi2_contingency(table)[1])


# ---------------------------------------------------------------------------------------------
# Happy Holidays

def test_hh_columns(hh):
    spec, pool, tiers, cols = hh
    assert list(cols) == [f"spot_{j}" for j in range(6)]
    for c in cols.values():
        assert c.dtype == np.uint8 and c.shape == (pool.tickets,)


def test_hh_code_table_matches_spec(hh):
    spec = hh[0]
    prizes = spec.symbols_in("prize")
    assert tuple(s.code for s in prizes) == HH_CODES
    assert [s.value_cents for s in prizes] == HH_VALUE.tolist()
    assert [s.caption for s in prizes] == ["TICKET", "ONE$", "TWO$", "FIVE$", "TWENTY", "ONE-HUN"]


def test_hh_every_ticket_pays_its_tier(hh):
    spec, pool, tiers, cols = hh
    r = hh_evaluate(cols)
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert np.array_equal(r["wins"], (tiers > 0).astype(int))
    by_id = {t.id: t.data["symbol"] for t in spec.tiers}
    want = np.array([-1] + [HH_CODES.index(by_id[t.id]) for t in pool.tiers[1:]])
    assert np.array_equal(r["symbol"], want[tiers])
    assert np.bincount(tiers[r["wins"] == 1]).tolist()[1:] == [t.count for t in pool.tiers[1:]]


def test_hh_distinct_symbols_exactly_balanced(hh):
    spec, pool, tiers, cols = hh
    distinct = hh_evaluate(cols)["distinct"]
    for t in range(len(pool.tiers)):
        d = distinct[tiers == t]
        assert set(np.unique(d).tolist()) == {3, 4}
        assert np.sum(d == 3) == pool.tiers[t].count // 2
    assert independent(distinct, tiers > 0) > 0.99


def test_hh_spot_symbol_carries_no_information(hh):
    spec, pool, tiers, cols = hh
    for j in range(6):
        assert independent(cols[f"spot_{j}"], tiers > 0) > 0.01, j


def test_hh_every_symbol_appears(hh):
    cols = hh[3]
    seen = np.unique(np.concatenate(list(cols.values())))
    assert seen.tolist() == [0, 1, 2, 3, 4, 5]
    # ... and on losers too, so no symbol is a give-away
    tiers = hh[2]
    seen_losers = np.unique(np.concatenate([c[tiers == 0] for c in cols.values()]))
    assert seen_losers.tolist() == [0, 1, 2, 3, 4, 5]


def test_hh_reproducible(hh):
    spec, pool, tiers, cols = hh
    again = lay(happy_holidays, spec, pool, tiers)
    assert all(np.array_equal(cols[k], again[k]) and cols[k].tobytes() == again[k].tobytes()
               for k in cols)
    other = lay(happy_holidays, spec, pool, tiers, seed=bytes(32))
    assert any(not np.array_equal(cols[k], other[k]) for k in cols)


@pytest.mark.parametrize(("row", "why"), [
    ([0, 0, 0, 1, 1, 1], "two triples"),
    ([2, 2, 2, 2, 1, 0], "four of a kind"),
    ([0, 0, 6, 1, 1, 2], "unknown code"),
    ([0, 1, 2, 3, 4, 5], "six distinct symbols"),
    ([0, 0, 1, 2, 3, 4], "2+1+1+1+1"),
    ([5, 5, 5, 5, 5, 5], "six of a kind"),
])
def test_hh_illegal_layouts_are_rejected(row, why):
    cols = {f"spot_{j}": np.array([v], dtype=np.uint8) for j, v in enumerate(row)}
    assert not hh_evaluate(cols)["legal"][0], why


def test_hh_loser_with_a_triple_pays(hh):
    spec, pool, tiers, cols = hh
    i = int(np.flatnonzero(tiers == 0)[0])
    row = {k: v[i:i + 1].copy() for k, v in cols.items()}
    assert hh_evaluate(row)["prize"][0] == 0
    for j in range(6):
        row[f"spot_{j}"][0] = [5, 5, 5, 1, 1, 2][j]
    r = hh_evaluate(row)
    assert r["legal"][0] and r["prize"][0] == 10000  # a "loser" that pays: the audit fails it


@settings(max_examples=25, deadline=None)
@given(counts=st.lists(st.integers(0, 7), min_size=7, max_size=7),
       seed=st.binary(min_size=32, max_size=32))
def test_hh_any_tier_mix_pays_exactly(counts, seed):
    spec = load_spec(SPECS / "happy_holidays.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(7), counts)
    tiers = base[permutation(derive_stream(seed, "o"), base.size)]
    r = hh_evaluate(lay(happy_holidays, spec, pool, tiers, seed))
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])


# ---------------------------------------------------------------------------------------------
# Spec checks

@pytest.mark.parametrize("name", ["happy_holidays"])
def test_specs_check_clean(name):
    result = check_spec(load_spec(SPECS / f"{name}.toml"))
    assert result.problems == []
