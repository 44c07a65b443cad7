"""Tests that kill the mutants mutmut left alive in audit's eInstant style engines (issue 17):
audit/styles/area_match.py and audit/styles/prize_legend_duel.py.

Each test pins an exact behaviour a surviving mutant changed: the full text of a refusal, the exact play
entry `play_from_spec` derives from the real spec specs/primetime_payout.toml, a null column named in
the reasons, amounts read as exact integers whatever their integer dtype. The tables are one-row polars
frames built by hand; the play entries are derived by the audit itself (no poolgen).
"""

from __future__ import annotations

import copy
import re
import tomllib

import numpy as np
import polars as pl
import pytest

from audit.styles import area_match as am
from audit.styles import prize_legend_duel as pld
from tests.support import spec_path

DOC = tomllib.loads(spec_path("primetime_payout").read_text())
# Primetime Payout's play entry as docs/styles/area_match.md section 1 derives it from the spec, written
# out (play_from_spec is held to it below; the evaluation tests do not depend on play_from_spec)
PLAY = {
    "style": "area_match", "spots": 4,
    "symbols": ["CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ", "GFOOT", "TD",
                "FG", "COIN", "JCOIN"],
    "wild": 12, "bonus_key": 9,
    "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
    "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4},
                    {"code": 2, "name": "Field Goal", "symbol": 11, "grid": [1, 2, 3, 4, 2, 1]}],
    "amount_multipliers": DOC["layout"]["amount_multipliers"],  # listed ascending, in shortest form
}
A = 400  # an area amount: 2 x D for D = $2.00
LOSING = ([1, 2, 3, 4], A, 0, 0, 0)  # a losing area without bonus symbols


def d200(areas: int) -> dict:
    return {"id": f"d2.00x{areas}", "price_cents": 200 * areas, "denomination_cents": 200,
            "play_areas": areas}


def area_row(areas: list[tuple], prize: int | None = None, amount_dtype: pl.DataType = pl.Int64,
             nulls: tuple[str, ...] = ()) -> pl.DataFrame:
    """One row from (symbols, amount, bonus, result, prizes) per area; with `prize`, its prize_cents and
    tier; the columns named in `nulls` hold a null."""
    data: dict[str, pl.Series] = {}
    if prize is not None:
        data["tier"] = pl.Series(["lose" if prize == 0 else "m"])
        data["prize_cents"] = pl.Series([prize], dtype=pl.Int64)
    for i, (symbols, amount, bonus, result, prizes) in enumerate(areas):
        data.update({f"a{i}_s{j}": pl.Series([s], dtype=pl.UInt8) for j, s in enumerate(symbols)})
        data[f"a{i}_amount"] = pl.Series([amount], dtype=amount_dtype)
        data[f"a{i}_bonus"] = pl.Series([bonus], dtype=pl.UInt8)
        data[f"a{i}_bonus_result"] = pl.Series([result], dtype=pl.UInt8)
        data[f"a{i}_bonus_prizes"] = pl.Series([prizes], dtype=pl.UInt8)
    for name in nulls:
        data[name] = pl.Series([None], dtype=data[name].dtype)
    return pl.DataFrame(data)


def edited_play(**changes) -> dict:
    play = copy.deepcopy(PLAY)
    play.update(changes)
    return play


# ------------------------------------------------------------------------------------------------
# area_match: play_from_spec on the real spec
# ------------------------------------------------------------------------------------------------

def test_play_from_spec_on_primetime_payout():
    amounts = DOC["layout"]["amount_multipliers"]
    assert len(amounts) == 58 and amounts[0] == "0.5" and amounts[-1] == "5000"
    derived = am.play_from_spec(DOC)
    assert derived == PLAY
    assert list(derived) == ["style", "spots", "symbols", "wild", "bonus_key", "match_pays", "bonus_games",
                             "amount_multipliers"]
    # the play entry derived is one the engine reads back: codes from 1, the games in spec order
    play = am.read_play(PLAY)
    assert (play.spots, play.wild, play.key, play.match) == (4, 12, 9, ((3, 1), (4, 2)))
    assert play.matchable == (1, 2, 3, 4, 5, 6, 7, 8, 13)


def test_play_from_spec_codes_keys_and_amounts_of_an_edited_spec():
    doc = copy.deepcopy(DOC)
    doc["play"]["spots_per_area"] = 5
    doc["layout"].update(wild="CLIP", bonus_key="JCOIN",
                         match_pays=[{"count": 2, "times": 3}, {"count": 5, "times": 7}],
                         amount_multipliers=["10", "0.50", "2.0", "1E2", "1.25"])
    doc["layout"]["bonus_games"] = [{"name": "Grid", "symbol": "FINGER", "grid": [3, 1]},
                                    {"name": "Chances", "symbol": "COIN", "chances": 2}]
    play = am.play_from_spec(doc)
    assert play == {
        "style": "area_match", "spots": 5, "symbols": PLAY["symbols"], "wild": 1, "bonus_key": 13,
        "match_pays": [{"count": 2, "times": 3}, {"count": 5, "times": 7}],
        "bonus_games": [{"code": 1, "name": "Grid", "symbol": 2, "grid": [3, 1]},
                        {"code": 2, "name": "Chances", "symbol": 12, "chances": 2}],
        "amount_multipliers": ["0.5", "1.25", "2", "10", "100"],
    }
    assert list(play["bonus_games"][0]) == ["code", "name", "symbol", "grid"]
    assert list(play["bonus_games"][1]) == ["code", "name", "symbol", "chances"]


# ------------------------------------------------------------------------------------------------
# area_match: refusals, word for word
# ------------------------------------------------------------------------------------------------

def test_a_grid_of_256_sections_is_refused_255_read():
    games = PLAY["bonus_games"]
    with pytest.raises(ValueError) as exc:
        am.read_play(edited_play(bonus_games=[games[0], {**games[1], "grid": [1] * 256}]))
    assert str(exc.value) == ("manifest play entry (area_match): bonus_games[1].grid must list 1 to 255 "
                              "whole numbers 1..255")
    assert am.read_play(edited_play(bonus_games=[games[0], {**games[1], "grid": [1] * 255}])).games[1][
        "grid"] == [1] * 255


@pytest.mark.parametrize("text", ["x", "1/0", "0.5.1"])
def test_an_amount_multiplier_not_a_number_is_refused(text):
    with pytest.raises(ValueError) as exc:
        am.read_play(edited_play(amount_multipliers=["1", text]))
    assert str(exc.value) == "manifest play entry (area_match): amount_multipliers: not a decimal number"


def test_a_pool_whose_price_is_not_denomination_times_areas_is_refused():
    table = area_row([LOSING, LOSING], prize=0)
    with pytest.raises(ValueError) as exc:
        am.evaluate(table, {**d200(2), "price_cents": 300}, PLAY)
    assert str(exc.value) == ("area_match: pool 'd2.00x2': price_cents 300 != denomination_cents 200 "
                              "x play_areas 2")


def test_a_table_with_columns_of_more_areas_than_the_pool_is_refused():
    table = area_row([LOSING, LOSING], prize=0)
    with pytest.raises(ValueError) as exc:
        am.evaluate(table, d200(1), PLAY)
    assert str(exc.value) == ("area_match: pool 'd2.00x1' has 1 play areas of 4 spots but the table has "
                              "columns ['a1_s0', 'a1_s1', 'a1_s2', 'a1_s3']")


# ------------------------------------------------------------------------------------------------
# area_match: evaluation
# ------------------------------------------------------------------------------------------------

def test_a_null_layout_cell_is_named_and_read_as_0():
    table = area_row([LOSING, LOSING], prize=0, nulls=("a1_bonus_result",))
    out = am.evaluate(table, d200(2), PLAY)
    assert out.illegal == [(0, "a1_bonus_result is null")]
    assert out.prize_cents.tolist() == [0] and out.wins.tolist() == [0]
    table = area_row([LOSING], prize=0, nulls=("a0_amount",))
    assert am.evaluate(table, d200(1), PLAY).illegal == [
        (0, "a0_amount is null; area 0: a0_amount 0 not > 0")]


def test_an_amount_of_any_integer_dtype_is_read_exactly():
    """A UInt64 amount column is read as exact integers: 2**53 + 1 cents is not rounded through a float."""
    big = 2**53 + 1
    table = area_row([([1, 1, 1, 2], big, 0, 0, 0)], amount_dtype=pl.UInt64)
    out = am.evaluate(table, d200(1), PLAY)
    assert out.prize_cents.dtype == np.int64 and out.prize_cents.tolist() == [big]
    assert out.wins.tolist() == [1]
    assert out.illegal == [(0, f"area 0: a0_amount {big} is not an amount multiplier x 200")]
    # ... and a legal amount so stored pays as an Int64 one
    table = area_row([([5, 5, 5, 5], A, 0, 0, 0)], prize=2 * A, amount_dtype=pl.UInt64)
    out = am.evaluate(table, d200(1), PLAY)
    assert out.illegal == [] and out.prize_cents.tolist() == [2 * A]


def test_a_match_and_a_bonus_trigger_together():
    """Five spots: three Clipboards (a match) beside a Golden Football and a Touchdown (a trigger)."""
    play = edited_play(spots=5)
    table = area_row([([1, 1, 1, 9, 10], A, 1, 0b0001, 1)], prize=A)
    out = am.evaluate(table, d200(1), play)
    assert out.illegal == [(0, "area 0: a match and a bonus trigger together")]
    assert out.prize_cents.tolist() == [A] and out.wins.tolist() == [1]


# ------------------------------------------------------------------------------------------------
# prize_legend_duel
# ------------------------------------------------------------------------------------------------

DUEL = {"style": "prize_legend_duel", "spots": 4, "losses": 3, "legend": ["1", "2"]}
POOL = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}


def duel_row(codes: list[int | None], amts: list[int | None], prize: int | None = None,
             amt_dtype: pl.DataType = pl.Int64) -> pl.DataFrame:
    data: dict[str, pl.Series] = {}
    if prize is not None:
        data["tier"] = pl.Series(["lose" if not prize else "m"])
        data["prize_cents"] = pl.Series([prize], dtype=pl.Int64)
    data.update({f"spot_{i}": pl.Series([c], dtype=pl.UInt8) for i, c in enumerate(codes)})
    data.update({f"amt_{i}": pl.Series([a], dtype=amt_dtype) for i, a in enumerate(amts)})
    return pl.DataFrame(data)


def test_duel_a_null_spot_is_named():
    out = pld.evaluate(duel_row([1, 1, 1, None], [0, 0, 0, 0], prize=0), POOL, DUEL)
    assert out.illegal == [(0, "spot_3 is null")]
    assert out.prize_cents.tolist() == [0]


def test_duel_a_null_prize_cents_is_named():
    table = duel_row([3, 1, 1, 1], [200, 0, 0, 0], prize=0).with_columns(
        pl.lit(None, dtype=pl.Int64).alias("prize_cents"), pl.lit("m").alias("tier"))
    out = pld.evaluate(table, POOL, DUEL)
    assert out.illegal == [(0, "prize_cents is null; layout pays 200 cents, prize_cents is 0")]
    table = duel_row([1, 1, 1, 0], [0, 0, 0, 0], prize=0).with_columns(pl.lit(None, dtype=pl.Int64)
                                                                        .alias("prize_cents"))
    assert pld.evaluate(table, POOL, DUEL).illegal == [(0, "prize_cents is null")]


def test_duel_amounts_of_any_integer_dtype_are_read():
    """UInt64 amount columns pay as Int64 ones (no numpy casting error adding them up); a MULTIPLIER
    doubles the sum."""
    out = pld.evaluate(duel_row([3, 1, 1, 1], [200, 0, 0, 0], prize=200, amt_dtype=pl.UInt64), POOL, DUEL)
    assert out.illegal == [] and out.prize_cents.tolist() == [200] and out.wins.tolist() == [1]
    four = {**DUEL, "spots": 5}
    table = duel_row([4, 3, 1, 1, 1], [0, 100, 0, 0, 0], prize=200, amt_dtype=pl.UInt64)
    out = pld.evaluate(table, POOL, four)
    assert out.illegal == [] and out.prize_cents.tolist() == [200] and out.wins.tolist() == [1]


@pytest.mark.parametrize("text", ["1.2.3", "1..2", "..", "1.²"])
def test_duel_a_legend_value_of_two_points_or_non_ascii_is_refused(text):
    """Pins the plain-decimal check the two equivalent legend mutants leave unchanged."""
    with pytest.raises(ValueError, match=re.escape(f"manifest play entry: play.legend: {text!r} is not a "
                                                   "plain decimal string")):
        pld.read_play({**DUEL, "legend": ["1", text]})
