"""The area_match engine (audit/styles/area_match.py) on play entries and one-row tables written by
hand: the play entry play_from_spec derives from the real spec specs/primetime_payout.toml, its
refusals word for word, the bounds it reads inclusively, null cells named, amounts read as exact
integers whatever their integer dtype, and the contract's rules on bonus columns (docs/styles/area_match.md
sections 1, 3 and 5). The play entries are derived by the audit itself or written out: no poolgen. The
engine on real pools: test_area_match.py."""

from __future__ import annotations

import copy
import tomllib

import numpy as np
import polars as pl
import pytest

from audit.styles import area_match as am
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
             nulls: tuple[str, ...] = (), result_dtype: pl.DataType = pl.UInt8) -> pl.DataFrame:
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
        data[f"a{i}_bonus_result"] = pl.Series([result], dtype=result_dtype)
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


@pytest.mark.parametrize(("amounts", "exact"), [
    ((2**62, 2**62 - 1), True),  # each area's win beyond int64
    ((2**60, 2**60), True),  # each within it, their sum 2**62: where an estimate reaches 2**62
    ((2**59, 2**59), False),  # the sum 2**61, the largest factors' bound: estimated, held by int64
    ((A, A), False)])  # no factor near: no estimate made
def test_two_areas_wins_are_summed_exactly_beyond_int64(amounts, exact):
    """Two areas of four of a kind (2 x the amount each): the areas' wins and their sum exact, as Python
    integers where int64 may not hold them (prize_cents then of objects), int64 otherwise."""
    out = am.evaluate(area_row([([5, 5, 5, 5], a, 0, 0, 0) for a in amounts], prize=0), d200(2), PLAY)
    assert out.prize_cents.tolist() == [2 * sum(amounts)] and out.wins.tolist() == [2]
    assert out.prize_cents.dtype == (object if exact else np.int64)
    assert out.illegal[0][1].endswith(f"areas pay {2 * amounts[0]} + {2 * amounts[1]} = {2 * sum(amounts)} "
                                      "cents")


BONUS_AREAS = [  # (area, prize): a bonus result within and outside each game's range
    (([9, 10, 2, 3], A, 1, 0b0111, 3), 3 * A), (([9, 10, 2, 3], A, 1, 0b0111, 2), 2 * A),
    (([9, 10, 2, 3], A, 1, 0b1111, 4), 4 * A), (([9, 10, 2, 3], A, 1, 16, 1), A),
    (([9, 10, 2, 3], A, 1, 0, 1), A), (([9, 11, 2, 3], A, 2, 2, 3), 3 * A),
    (([9, 11, 2, 3], A, 2, 2, 2), 2 * A), (([9, 11, 2, 3], A, 2, 6, 1), A),
    (([1, 2, 3, 4], A, 0, 3, 0), 0)]


@pytest.mark.parametrize(("area", "prize"), BONUS_AREAS)
def test_a_bonus_result_of_a_wider_dtype_reads_as_the_uint8_one(area, prize):
    """A bonus result stored as uint8 (section 2) is scored by its set bits in one pass; stored as Int64
    it is read bit by bit: the same prize and, word for word, the same reasons."""
    stored = am.evaluate(area_row([area], prize=prize), d200(1), PLAY)
    wide = am.evaluate(area_row([area], prize=prize, result_dtype=pl.Int64), d200(1), PLAY)
    assert (wide.prize_cents.tolist(), wide.wins.tolist(), wide.illegal) == (
        stored.prize_cents.tolist(), stored.wins.tolist(), stored.illegal)


def test_a_negative_bonus_result_is_no_scoring_mask():
    table = area_row([([9, 10, 2, 3], A, 1, -1, 1)], prize=A, result_dtype=pl.Int64)
    assert am.evaluate(table, d200(1), PLAY).illegal == [
        (0, "area 0: Touchdown a0_bonus_result -1 not a scoring mask 1..15")]


def test_a_match_and_a_bonus_trigger_together():
    """Five spots: three Clipboards (a match) beside a Golden Football and a Touchdown (a trigger)."""
    play = edited_play(spots=5)
    table = area_row([([1, 1, 1, 9, 10], A, 1, 0b0001, 1)], prize=A)
    out = am.evaluate(table, d200(1), play)
    assert out.illegal == [(0, "area 0: a match and a bonus trigger together")]
    assert out.prize_cents.tolist() == [A] and out.wins.tolist() == [1]


# ------------------------------------------------------------------------------------------------
# area_match: bounds read inclusively, a pool of no play areas, a null symbol
# ------------------------------------------------------------------------------------------------

def area_refusal(**changes) -> str:
    with pytest.raises(ValueError) as exc:
        am.read_play({**PLAY, **changes})
    return str(exc.value)


def test_area_match_reads_255_symbols_and_refuses_256():
    symbols = [*PLAY["symbols"], *(f"S{k}" for k in range(256 - len(PLAY["symbols"])))]
    assert len(am.read_play({**PLAY, "symbols": symbols[:255]}).symbols) == 255
    assert area_refusal(symbols=symbols) == ("manifest play entry (area_match): symbols must list 1 to 255 "
                                             "symbol names")


def test_area_match_refuses_a_match_pays_entry_that_is_not_a_table():
    assert area_refusal(match_pays=[3]) == ("manifest play entry (area_match): match_pays[0].count must be "
                                            "a whole number 1..4, not None")


def test_area_match_names_the_bonus_game_of_a_bad_symbol():
    games = [PLAY["bonus_games"][0], {**PLAY["bonus_games"][1], "symbol": 0}]
    assert area_refusal(bonus_games=games) == ("manifest play entry (area_match): bonus_games[1].symbol "
                                               "must be a whole number 1..13, not 0")


def test_area_match_refuses_a_pool_of_0_play_areas_by_its_id():
    with pytest.raises(ValueError) as exc:
        am.evaluate(area_row([LOSING], prize=0), {**d200(1), "play_areas": 0}, PLAY)
    assert str(exc.value) == "area_match: pool 'd2.00x1': play_areas 0 < 1"


def test_area_match_a_null_symbol_is_named_and_read_as_0():
    out = am.evaluate(area_row([LOSING], prize=0, nulls=("a0_s1",)), d200(1), PLAY)
    assert out.illegal == [(0, "a0_s1 is null; a0_s1 has code 0, not a symbol code 1..13")]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([0], [0])


# ------------------------------------------------------------------------------------------------
# area_match: the contract's rules on bonus columns, bonus key and amounts (sections 1, 3 and 5)
# ------------------------------------------------------------------------------------------------

AREA_MATCH = {
    "style": "area_match", "spots": 4,
    "symbols": ["CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ", "GFOOT", "TD", "FG",
                "COIN", "JCOIN"],
    "wild": 12, "bonus_key": 9, "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
    "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4},
                    {"code": 2, "name": "Field Goal", "symbol": 11, "grid": [1, 2, 3, 4, 2, 1]}],
    "amount_multipliers": ["0.5", "1", "2", "5"]}
D200 = {"id": "d2.00x1", "price_cents": 200, "denomination_cents": 200, "play_areas": 1}


def area_rows(*rows: tuple[int, list[int], int, int, int]) -> pl.DataFrame:
    """One area a row: (prize, symbols, bonus, result, prizes); amount A."""
    data = [{"tier": "lose" if p == 0 else "m", "prize_cents": p} | {f"a0_s{j}": s for j, s in enumerate(sym)}
            | {"a0_amount": A, "a0_bonus": b, "a0_bonus_result": r, "a0_bonus_prizes": n}
            for p, sym, b, r, n in rows]
    return pl.DataFrame(data).with_columns(pl.col(r"^a0_(s\d|bonus.*)$").cast(pl.UInt8),
                                           pl.col("a0_amount").cast(pl.Int64))


def test_area_match_bonus_columns_are_judged_by_the_game_they_name():
    """GFOOT and TD trigger Touchdown; the columns name Field Goal (section 1 of its grid: 2 prizes),
    a section off the grid, or a game that does not exist. The area pays N x A by its trigger."""
    touchdown = [9, 10, 1, 2]
    table = area_rows((2 * A, touchdown, 2, 1, 2), (2 * A, touchdown, 2, 7, 2), (0, touchdown, 3, 0, 0),
                      (0, touchdown, 1, 3, 0), (0, [9, 1, 2, 3], 1, 3, 2))
    result = am.evaluate(table, D200, AREA_MATCH)
    assert result.prize_cents.tolist() == [2 * A, 2 * A, 0, 0, 0]
    assert result.illegal == [
        (0, "area 0: a0_bonus is 2 but its symbols trigger Touchdown (1)"),
        (1, "area 0: a0_bonus is 2 but its symbols trigger Touchdown (1); "
            "area 0: Field Goal a0_bonus_result 7 not a grid section 0..5"),
        (2, "area 0: a0_bonus is 3 but its symbols trigger Touchdown (1); "
            "area 0: bonus 3 bonus with 0 prizes"),
        (3, "area 0: Touchdown bonus with 0 prizes"),  # rule 7 only: mask 3 scores 2, not reported again
        (4, "area 0: a0_bonus is 1 but its symbols trigger no bonus (0)")]  # a bonus column pays nothing


def test_area_match_a_bonus_key_that_is_the_wild_is_refused():
    with pytest.raises(ValueError) as exc:
        am.read_play({**AREA_MATCH, "bonus_key": 12})
    assert str(exc.value) == "manifest play entry (area_match): bonus_key must not be the wild"


@pytest.mark.parametrize("text", ["1e2", "1/2", " 1", "1.", ".5", "+1", "٣"])
def test_area_match_an_amount_multiplier_that_is_not_a_plain_decimal_is_refused(text):
    with pytest.raises(ValueError) as exc:
        am.read_play({**AREA_MATCH, "amount_multipliers": ["1", text]})
    assert str(exc.value) == "manifest play entry (area_match): amount_multipliers: not a decimal number"
    assert am.read_play({**AREA_MATCH, "amount_multipliers": ["1", "2.50"]}).amounts[1] == 2.5
