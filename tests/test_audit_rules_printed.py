"""The auditor's rules engine of the printed format-1 game Wild Side (audit/rules/wild_side.py).

Written from the layout contract specs/wild_side.md. (Happy Holidays is a spec of the match_n style,
judged by audit/styles: tests/test_audit_match_n.py.) Full pools come
from the real pipeline (poolgen.build); every illegal layout below starts from a real row. The
tests may use poolgen to build pools; the engines themselves never import it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.rules import rules_module
from audit.rules import wild_side as ws
from poolgen.build import build_pool
from poolgen.spec import load_spec

SPECS = Path(__file__).resolve().parents[1] / "specs"
SEED = bytes(range(32))

# The contracts' code tables, copied here from the docs a second time (not from the engines).
WS_PRIZE = ["FREE", "2", "5", "10", "15", "25", "50", "100", "500", "1000", "25000"]  # wild_side.md sec. 3
WS_VALUE = [500, 200, 500, 1000, 1500, 2500, 5000, 10_000, 50_000, 100_000, 2_500_000]
WS_BONUS_VALUE = {8: 1000, 9: 2500, 10: 5000}
WS_NUMBERS = [3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 29, 30, 31,
              32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53]
WS_YOUR = [f"your_{j}" for j in range(12)]
WS_YOUR_PRIZE = [f"your_prize_{j}" for j in range(12)]
WS_WILD = [f"wild_{j}" for j in range(12)]
WS_WILD_PRIZE = [f"wild_prize_{j}" for j in range(12)]
WS_LUCKY = [f"lucky_{j}" for j in range(5)]
WS_BONUS = [f"bonus_{j}" for j in range(3)]


def _manifest_pool(pool) -> dict:
    """The pool's entry as manifest.json states it (the part an evaluator may read)."""
    return {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
            "tiers": [{"id": t.id, "prize_cents": t.prize_cents, "count": t.count} for t in pool.tiers]}


@pytest.fixture(scope="module")
def ws_game():
    spec = load_spec(SPECS / "wild_side.toml")
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
    with pytest.raises(LookupError, match="no audit rules for game rules 'happy_holidays'"):
        rules_module("happy_holidays")  # a game of the match_n style: audit/styles
    assert rules_module("wild_side") is ws


def test_wild_side_full_pool(ws_game):
    spec, pool, table = ws_game
    ev = ws.evaluate(table, pool)
    assert ev.prize_cents.dtype == np.int64 and ev.prize_cents.shape == (150_000,)
    assert np.array_equal(ev.prize_cents, table["prize_cents"].to_numpy())
    assert ev.illegal == []
    tiers = table["tier"].to_numpy()
    expected_wins = {"lose": 0} | {
        t.data["id"]: len(t.data["your"]) + len(t.data["wild"]) + len(t.data["bonus"]) for t in spec.tiers}
    assert expected_wins["t30"] == 21
    for t in pool["tiers"]:
        rows = tiers == t["id"]
        assert rows.sum() == t["count"] >= 1
        assert set(ev.wins[rows].tolist()) == {expected_wins[t["id"]]}
        assert set(ev.prize_cents[rows].tolist()) == {t["prize_cents"]}


def test_wild_side_engine_tiers_match_the_spec(ws_game):
    """The tier table transcribed into the engine is the spec's, tier for tier."""
    spec, _, _ = ws_game
    from_spec = {t.data["id"]: (tuple(t.data["your"]), tuple(t.data["wild"]), tuple(t.data["bonus"]))
                 for t in spec.tiers}
    assert {k: v for k, v in ws.TIERS.items() if k != "lose"} == from_spec


def test_illegal_rows_are_reported_in_table_order(ws_game):
    _, pool, table = ws_game
    loser = np.flatnonzero((table["tier"] == "lose").to_numpy())[[5, 900, 70_000]]
    bonus = table["bonus_2"].to_numpy().copy()
    bonus[loser] = 10
    ev = ws.evaluate(table.with_columns(pl.Series("bonus_2", bonus)), pool)
    assert ev.illegal == [(int(r), "BONUS wins [WIN50], tier 'lose' wins []") for r in loser]
    assert ev.prize_cents[loser].tolist() == [5000] * 3
    assert ev.wins[loser].tolist() == [1] * 3


# ---------------------------------------------------------------------------------------------
# (2) Hand-built illegal layouts: Wild Side.


def _ws_loser(table: pl.DataFrame) -> tuple[int, dict]:
    r = _first(table, "lose")
    return r, table.row(r, named=True)


def test_ws_loser_your_number_matches_a_lucky_number(ws_game):
    _, pool, table = ws_game
    r, row = _ws_loser(table)
    ev = ws.evaluate(_row(table, r, your_3=row["lucky_2"]), pool)
    p = row["your_prize_3"]
    assert ev.prize_cents.tolist() == [WS_VALUE[p]]
    assert ev.wins.tolist() == [1]
    assert ev.illegal == [(0, f"YOUR wins [{WS_PRIZE[p]}], tier 'lose' wins []")]
    # the same in YOUR WILD NUMBERS pays five times the prize
    ev = ws.evaluate(_row(table, r, wild_7=row["lucky_4"], wild_prize_7=3), pool)
    assert ev.prize_cents.tolist() == [5 * 1000]
    assert ev.illegal == [(0, "WILD wins [10], tier 'lose' wins []")]


def test_ws_number_not_of_the_game(ws_game):
    _, pool, table = ws_game
    r, row = _ws_loser(table)
    for column, number in (("your_5", 5), ("wild_0", 54), ("lucky_3", 50), ("your_11", 0)):
        ev = ws.evaluate(_row(table, r, **{column: number}), pool)
        assert ev.prize_cents.tolist() == [0]
        assert ev.illegal == [(0, f"not a number of the game: {column}={number}")]


def test_ws_duplicate_lucky_numbers(ws_game):
    _, pool, table = ws_game
    r, row = _ws_loser(table)
    ev = ws.evaluate(_row(table, r, lucky_1=row["lucky_0"]), pool)
    shown = " ".join(str(row["lucky_0"] if j == 1 else row[f"lucky_{j}"]) for j in range(5))
    assert ev.prize_cents.tolist() == [0]
    assert ev.illegal == [(0, f"LUCKY NUMBERS not pairwise distinct: {shown}")]


def test_ws_more_than_21_wins(ws_game):
    _, pool, table = ws_game
    r = _first(table, "t30")
    row = table.row(r, named=True)
    lucky = [row[c] for c in WS_LUCKY]
    wild = [row[c] for c in WS_WILD]
    once = next(x for x in lucky if wild.count(x) == 1)  # so the 7 matches still spread evenly
    spot = next(j for j in range(12) if wild[j] not in lucky)
    ev = ws.evaluate(_row(table, r, **{f"wild_{spot}": once, f"wild_prize_{spot}": 2}), pool)
    assert ev.prize_cents.tolist() == [50_000 + 5 * 500]
    assert ev.wins.tolist() == [22]
    assert ev.illegal == [(0, "22 wins (at most 21); WILD wins [5 5 5 5 5 5 5], "
                             "tier 't30' wins [5 5 5 5 5 5]")]


def test_ws_win_symbol_in_a_bonus_spot_of_a_loser(ws_game):
    _, pool, table = ws_game
    r, _ = _ws_loser(table)
    for code, value, name in ((8, 1000, "WIN10"), (9, 2500, "WIN25"), (10, 5000, "WIN50")):
        ev = ws.evaluate(_row(table, r, bonus_1=code), pool)
        assert ev.prize_cents.tolist() == [value]
        assert ev.wins.tolist() == [1]
        assert ev.illegal == [(0, f"BONUS wins [{name}], tier 'lose' wins []")]


def test_ws_one_bonus_play_symbol_three_times(ws_game):
    """Section 5: the three WILD BONUS spots never show one play symbol three times, a match (f) might
    be read to pay; a WIN$ symbol three times is three paid wins."""
    _, pool, table = ws_game
    r, _ = _ws_loser(table)
    for code, name in ((0, "GLDBAR"), (5, "CLOVER"), (7, "HRSHOE")):
        ev = ws.evaluate(_row(table, r, bonus_0=code, bonus_1=code, bonus_2=code), pool)
        assert ev.prize_cents.tolist() == [0]
        assert ev.illegal == [(0, f"WILD BONUS shows {name} three times (a match that wins nothing)")]
    ev = ws.evaluate(_row(table, r, bonus_0=5, bonus_1=5, bonus_2=6), pool)
    assert ev.illegal == []
    ev = ws.evaluate(_row(table, r, bonus_0=8, bonus_1=8, bonus_2=8), pool)
    assert ev.prize_cents.tolist() == [3000] and ev.illegal == [(0, "BONUS wins [WIN10 WIN10 WIN10], "
                                                                    "tier 'lose' wins []")]


def test_ws_wild_win_on_free(ws_game):
    _, pool, table = ws_game
    r = _first(table, "t05")
    row = table.row(r, named=True)
    lucky = {row[c] for c in WS_LUCKY}
    spot = next(j for j in range(12) if row[f"wild_{j}"] in lucky)
    ev = ws.evaluate(_row(table, r, **{f"wild_prize_{spot}": 0}), pool)
    assert ev.prize_cents.tolist() == [5 * 500]
    assert ev.illegal == [(0, f"WILD win on FREE: wild_{spot}; WILD wins [FREE], tier 't05' wins [2]")]


def test_ws_numbers_within_an_area(ws_game):
    _, pool, table = ws_game
    r, row = _ws_loser(table)
    ev = ws.evaluate(_row(table, r, your_1=row["your_0"]), pool)
    assert ev.illegal == [(0, "YOUR NUMBERS repeat a non-matching number")]
    ev = ws.evaluate(_row(table, r, wild_11=row["wild_10"]), pool)
    assert ev.illegal == [(0, "YOUR WILD NUMBERS repeat a non-matching number")]
    # Decision (across areas): the same number in both areas is legal.
    ev = ws.evaluate(_row(table, r, wild_4=row["your_9"]), pool)
    assert ev.illegal == [] and ev.prize_cents.tolist() == [0]

    # Tier t13: five YOUR wins of $5.00 on the five LUCKY NUMBERS; two on one lucky number is uneven.
    r = _first(table, "t13")
    row = table.row(r, named=True)
    matching = [j for j in range(12) if row[f"your_{j}"] in {row[c] for c in WS_LUCKY}]
    ev = ws.evaluate(_row(table, r, **{f"your_{matching[0]}": row[f"your_{matching[1]}"]}), pool)
    assert ev.prize_cents.tolist() == [2500]
    assert ev.illegal == [(0, "YOUR NUMBERS: 5 matches use the LUCKY NUMBERS unevenly")]


def test_ws_bad_codes_and_unknown_tier(ws_game):
    _, pool, table = ws_game
    r, _ = _ws_loser(table)
    ev = ws.evaluate(_row(table, r, your_prize_0=11, wild_prize_2=200), pool)
    assert ev.illegal == [(0, "prize code not in 0..10: your_prize_0=11, wild_prize_2=200")]
    ev = ws.evaluate(_row(table, r, bonus_0=11), pool)
    assert ev.prize_cents.tolist() == [0]
    assert ev.illegal == [(0, "bonus code not in 0..10: bonus_0=11")]
    ev = ws.evaluate(_row(table, r, tier="t35"), pool)
    assert ev.illegal == [(0, "unknown tier 't35'")]


def test_missing_or_non_integer_columns_are_refused(ws_game):
    with pytest.raises(ValueError, match="layout columns missing: your_prize_5"):
        ws.evaluate(ws_game[2].head(3).drop("your_prize_5"), ws_game[1])
    with pytest.raises(ValueError, match="not of an integer type: bonus_1"):
        ws.evaluate(ws_game[2].head(3).with_columns(pl.col("bonus_1").cast(pl.Float64)), ws_game[1])


# ---------------------------------------------------------------------------------------------
# (3) Properties: the engines agree with a row-by-row reading of the docs.


def _ws_reference(row: dict) -> tuple[int, int]:
    """wild_side.md section 4, one row at a time."""
    lucky = {row[c] for c in WS_LUCKY}
    prize = wins = 0
    for j in range(12):
        if row[f"your_{j}"] in lucky:
            prize, wins = prize + WS_VALUE[row[f"your_prize_{j}"]], wins + 1
        if row[f"wild_{j}"] in lucky:
            prize, wins = prize + 5 * WS_VALUE[row[f"wild_prize_{j}"]], wins + 1
    for c in WS_BONUS:
        if row[c] >= 8:
            prize, wins = prize + WS_BONUS_VALUE[row[c]], wins + 1
    return prize, wins


_numbers = st.sampled_from(WS_NUMBERS[:12])  # a few numbers, so that matches are frequent
_ws_row = st.fixed_dictionaries(
    {c: st.sampled_from(WS_NUMBERS) for c in WS_LUCKY} | {c: _numbers for c in WS_YOUR + WS_WILD}
    | {c: st.integers(0, 10) for c in WS_YOUR_PRIZE + WS_WILD_PRIZE + WS_BONUS})


@settings(max_examples=60, deadline=None)
@given(st.lists(_ws_row, min_size=1, max_size=40))
def test_ws_matches_a_row_by_row_reading(rows):
    table = pl.DataFrame(rows, schema={c: pl.UInt8 for c in rows[0]})
    ev = ws.evaluate(table, {})
    want = [_ws_reference(row) for row in rows]
    assert ev.prize_cents.tolist() == [p for p, _ in want]
    assert ev.wins.tolist() == [w for _, w in want]
    flagged = {r for r, _ in ev.illegal}
    for i, (row, (_, wins)) in enumerate(zip(rows, want, strict=True)):
        lucky = [row[c] for c in WS_LUCKY]
        if len(set(lucky)) < 5 or wins > 21:
            assert i in flagged
        if row["bonus_0"] == row["bonus_1"] == row["bonus_2"] < 8:
            assert i in flagged


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(12)), st.permutations(range(5)), st.integers(0, 149_000))
def test_ws_spot_order_does_not_matter(ws_game, order, lucky_order, start):
    """Moving a number together with its prize symbol, or reordering the LUCKY NUMBERS, changes nothing."""
    _, pool, table = ws_game
    part = table.slice(start, 1000)
    moved = part.with_columns(
        [pl.col(f"{area}_{order[j]}").alias(f"{area}_{j}") for area in ("your", "wild") for j in range(12)]
        + [pl.col(f"{area}_prize_{order[j]}").alias(f"{area}_prize_{j}")
           for area in ("your", "wild") for j in range(12)]
        + [pl.col(WS_LUCKY[lucky_order[j]]).alias(WS_LUCKY[j]) for j in range(5)])
    a, b = ws.evaluate(part, pool), ws.evaluate(moved, pool)
    assert np.array_equal(a.prize_cents, b.prize_cents) and np.array_equal(a.wins, b.wins)
    assert np.array_equal(a.prize_cents, part["prize_cents"].to_numpy())
    assert a.illegal == b.illegal == []
