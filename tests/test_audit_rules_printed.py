"""The auditor's rules engine of the printed game Happy Holidays (audit/rules/happy_holidays.py).
Wild Side, a game of play styles: tests/test_audit_wild_side.py.

Written from the layout contract specs/happy_holidays.md. Full pools come
from the real pipeline (poolgen.build); every illegal layout below starts from a real row. The
tests may use poolgen to build pools; the engines themselves never import it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.rules import Evaluation, rules_module
from audit.rules import happy_holidays as hh
from poolgen.build import build_pool
from poolgen.spec import load_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"
SEED = bytes(range(32))

# The contracts' code tables, copied here from the docs a second time (not from the engines).
HH_SYMBOL = ["FREE", "$1.00", "$2.00", "$5.00", "20.00", "$100"]  # happy_holidays.md section 3
HH_VALUE = [100, 100, 200, 500, 2000, 10_000]
HH_TIER_CODE = {"free": 0, "1": 1, "2": 2, "5": 3, "20": 4, "100": 5}  # section 1
HH_SPOTS = [f"spot_{j}" for j in range(6)]
def _manifest_pool(pool) -> dict:
    """The pool's entry as manifest.json states it (the part an evaluator may read)."""
    return {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
            "tiers": [{"id": t.id, "prize_cents": t.prize_cents, "count": t.count} for t in pool.tiers]}


@pytest.fixture(scope="module")
def hh_game():
    spec = load_spec(SPECS / "happy_holidays.toml")
    pool = spec.pools[0]
    return spec, _manifest_pool(pool), build_pool(spec, pool, SEED)


def _row(table: pl.DataFrame, row: int, **changes: int | str) -> pl.DataFrame:
    """Row `row` of the table as a one-row table, with some columns changed (same dtypes)."""
    one = table.slice(row, 1)
    return one.with_columns(pl.lit(v).cast(one.schema[c]).alias(c) for c, v in changes.items())


def _first(table: pl.DataFrame, tier: str, where=None) -> int:
    """Index of the first row of a tier (for which `where(row dict)` holds)."""
    for r in np.flatnonzero((table["tier"] == tier).to_numpy()):
        if where is None or where(table.row(int(r), named=True)):
            return int(r)
    raise AssertionError(f"no row of tier {tier} fits")


# ---------------------------------------------------------------------------------------------
# (1) Full pools of the real pipeline evaluate to their stored prizes, all legal.


def test_module_lookup():
    assert rules_module("happy_holidays") is hh


def test_happy_holidays_full_pool(hh_game):
    spec, pool, table = hh_game
    ev = hh.evaluate(table, pool)
    assert isinstance(ev, Evaluation)
    assert ev.prize_cents.dtype == np.int64 and ev.prize_cents.shape == (300_000,)
    assert np.array_equal(ev.prize_cents, table["prize_cents"].to_numpy())
    assert ev.illegal == []
    tiers = table["tier"].to_numpy()
    for t in pool["tiers"]:
        rows = tiers == t["id"]
        assert rows.sum() == t["count"]
        assert set(ev.wins[rows].tolist()) == {0 if t["id"] == "lose" else 1}
        assert set(ev.prize_cents[rows].tolist()) == {t["prize_cents"]}


# ---------------------------------------------------------------------------------------------
# (2) Hand-built illegal layouts: Happy Holidays.


def _hh_counts(row: dict) -> Counter:
    return Counter(row[s] for s in HH_SPOTS)


def test_hh_accidental_second_triple(hh_game):
    _, pool, table = hh_game
    # A $2.00 winner of shape 3+2+1: turning its single into the pair's symbol makes a second triple.
    r = _first(table, "2", lambda row: sorted(_hh_counts(row).values()) == [1, 2, 3])
    row = table.row(r, named=True)
    counts = _hh_counts(row)
    pair = next(s for s, c in counts.items() if c == 2)
    single_spot = next(s for s in HH_SPOTS if counts[row[s]] == 1)
    ev = hh.evaluate(_row(table, r, **{single_spot: pair}), pool)
    first, second = sorted([HH_TIER_CODE["2"], pair])
    shows = f"three {HH_SYMBOL[first]} and three {HH_SYMBOL[second]}"
    assert ev.prize_cents.tolist() == [200 + HH_VALUE[pair]]
    assert ev.wins.tolist() == [2]
    assert ev.illegal == [(0, f"two wins ({shows}): a ticket wins at most once; "
                             f"layout shows {shows}, tier '2' shows three $2.00")]


def test_hh_loser_with_a_triple(hh_game):
    _, pool, table = hh_game
    r = _first(table, "lose", lambda row: sorted(_hh_counts(row).values()) == [2, 2, 2])
    row = table.row(r, named=True)
    a, b = sorted(_hh_counts(row))[:2]
    spot_b = next(s for s in HH_SPOTS if row[s] == b)
    ev = hh.evaluate(_row(table, r, **{spot_b: a}), pool)
    assert ev.prize_cents.tolist() == [HH_VALUE[a]]
    assert ev.wins.tolist() == [1]
    assert ev.illegal == [(0, f"layout shows three {HH_SYMBOL[a]}, tier 'lose' shows no triple")]


def test_hh_same_prize_wrong_symbol_is_illegal(hh_game):
    """A `free` winner showing three $1.00 pays the right 100 cents but is not its tier's play."""
    _, pool, table = hh_game
    r = _first(table, "free", lambda row: sorted(_hh_counts(row).values()) == [1, 1, 1, 3])
    row = table.row(r, named=True)
    new = {s: 1 if row[s] == 0 else (2 if row[s] == 1 else row[s]) for s in HH_SPOTS}
    ev = hh.evaluate(_row(table, r, **new), pool)
    assert ev.prize_cents.tolist() == [100]
    assert ev.illegal == [(0, "layout shows three $1.00, tier 'free' shows three FREE")]


def test_hh_four_of_a_kind_bad_code_bad_shape_unknown_tier(hh_game):
    _, pool, table = hh_game
    r = _first(table, "100", lambda row: sorted(_hh_counts(row).values()) == [1, 2, 3])
    row = table.row(r, named=True)
    pair_spot = next(s for s in HH_SPOTS if _hh_counts(row)[row[s]] == 2)
    ev = hh.evaluate(_row(table, r, **{pair_spot: 5}), pool)
    assert ev.prize_cents.tolist() == [10_000] and ev.wins.tolist() == [1]
    assert ev.illegal == [(0, "$100 shown 4 times (a win is three identical symbols)")]

    ev = hh.evaluate(_row(table, r, spot_4=6), pool)
    assert ev.illegal[0][1].startswith("not a symbol code 0..5: spot_4=6")

    # A loser 2+2+1+1 turned into 2+1+1+1+1 (five distinct symbols give a loser away).
    r = _first(table, "lose", lambda row: sorted(_hh_counts(row).values()) == [1, 1, 2, 2])
    row = table.row(r, named=True)
    counts = _hh_counts(row)
    absent = next(s for s in range(6) if counts[s] == 0)
    pair_spot = next(s for s in HH_SPOTS if counts[row[s]] == 2)
    ev = hh.evaluate(_row(table, r, **{pair_spot: absent}), pool)
    assert ev.prize_cents.tolist() == [0] and ev.wins.tolist() == [0]
    assert ev.illegal == [(0, "loser shape 2+1+1+1+1 (only 2+2+2 or 2+2+1+1)")]

    ev = hh.evaluate(_row(table, r, tier="7"), pool)
    assert ev.illegal == [(0, "unknown tier '7'")]


def test_missing_or_non_integer_columns_are_refused(hh_game):
    with pytest.raises(ValueError, match="layout columns missing: spot_5"):
        hh.evaluate(hh_game[2].head(3).drop("spot_5"), hh_game[1])


# ---------------------------------------------------------------------------------------------
# (3) Properties: the engines agree with a row-by-row reading of the docs.


def _hh_reference(spots: list[int], tier: str) -> tuple[int, int, bool]:
    """happy_holidays.md sections 4 and 5, one row at a time."""
    c = Counter(spots)
    triples = [s for s in range(6) if c[s] >= 3]
    prize = sum(HH_VALUE[s] for s in triples)
    legal = (all(0 <= s <= 5 for s in spots) and max(c.values()) <= 3 and len(triples) <= 1
             and (triples == [] if tier == "lose" else triples == [HH_TIER_CODE[tier]])
             and (triples != [] or sorted(c.values()) in ([2, 2, 2], [1, 1, 2, 2])))
    return prize, len(triples), legal


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 5), min_size=6, max_size=6),
                          st.sampled_from(["lose", *HH_TIER_CODE])), min_size=1, max_size=60))
def test_hh_matches_a_row_by_row_reading(rows):
    table = pl.DataFrame({"tier": [t for _, t in rows]} | {
        s: pl.Series([spots[j] for spots, _ in rows], dtype=pl.UInt8) for j, s in enumerate(HH_SPOTS)})
    ev = hh.evaluate(table, {})
    want = [_hh_reference(spots, tier) for spots, tier in rows]
    assert ev.prize_cents.tolist() == [p for p, _, _ in want]
    assert ev.wins.tolist() == [w for _, w, _ in want]
    assert [r for r, _ in ev.illegal] == [i for i, (_, _, ok) in enumerate(want) if not ok]


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(6)), st.integers(0, 299_000))
def test_hh_spot_order_does_not_matter(hh_game, order, start):
    _, pool, table = hh_game
    part = table.slice(start, 1000)
    shuffled = part.with_columns(pl.col(HH_SPOTS[order[j]]).alias(s) for j, s in enumerate(HH_SPOTS))
    a, b = hh.evaluate(part, pool), hh.evaluate(shuffled, pool)
    assert np.array_equal(a.prize_cents, b.prize_cents) and np.array_equal(a.wins, b.wins)
    assert a.illegal == b.illegal == []
