"""Amounts beyond what int64 arithmetic holds, in audit's two eInstant engines.

A play entry may list a legend value (prize_legend_duel) or an amount multiplier (area_match) of up
to 40 digits (docs/styles/prize_legend_duel.md section 2, area_match.md section 1): the entry is read,
and a value whose cents no int64 amount column can hold is simply no amount of the pool (rule 5, rule
8). Found by the third eInstant engine (tests/third_engines/einstant.py): audit's engines raised
OverflowError building their sets of amounts, so step 4 said "could not be checked" for every pool
instead of judging its rows.

And a row's amounts may be any int64: its prize is computed exactly, in integer arithmetic
(prize_legend_duel.md rule 6; area_match.md section 4 sums the area wins), so an illegal row with a
huge amount is reported paying what it pays, not a wrapped 64-bit figure (the third engine computes
in Python integers; audit wrapped, and a huge amount's area counted as no win)."""

from __future__ import annotations

import polars as pl

from audit.styles import area_match, prize_legend_duel

HUGE = "9" * 40  # a plain decimal of 40 characters: an entry the contracts read


def _duel_row(amount: int) -> pl.DataFrame:
    codes = [3, 1, 1, 1] + [0] * 11
    data = {"tier": pl.Series(["m"]), "prize_cents": pl.Series([amount], dtype=pl.Int64)}
    data |= {f"spot_{i}": pl.Series([c], dtype=pl.UInt8) for i, c in enumerate(codes)}
    data |= {f"amt_{i}": pl.Series([amount if i == 0 else 0], dtype=pl.Int64) for i in range(15)}
    return pl.DataFrame(data)


def test_a_duel_legend_value_beyond_int64_cents_is_read_and_is_no_amount():
    play = {"style": "prize_legend_duel", "spots": 15, "losses": 3, "legend": ["1", HUGE],
            "loser_max_multipliers": 1}
    pool = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}
    table = pl.concat([_duel_row(100), _duel_row(2**63 - 1)])
    result = prize_legend_duel.evaluate(table, pool, play)
    assert result.prize_cents.tolist() == [100, 2**63 - 1]
    assert result.illegal == [(1, f"amt_0 is {2**63 - 1}, not a legend value x 100")]


def _area_row(amount: int) -> pl.DataFrame:
    data = {"tier": pl.Series(["m"]), "prize_cents": pl.Series([amount], dtype=pl.Int64)}
    data |= {f"a0_s{j}": pl.Series([c], dtype=pl.UInt8) for j, c in enumerate([1, 1, 1, 2])}
    data |= {"a0_amount": pl.Series([amount], dtype=pl.Int64)}
    data |= {f"a0_{c}": pl.Series([0], dtype=pl.UInt8) for c in ("bonus", "bonus_result", "bonus_prizes")}
    return pl.DataFrame(data)


def test_an_amount_multiplier_beyond_int64_cents_is_read_and_is_no_amount():
    play = {"style": "area_match", "spots": 4, "symbols": [f"S{c}" for c in range(1, 14)], "wild": 12,
            "bonus_key": 9, "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
            "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4},
                            {"code": 2, "name": "Field Goal", "symbol": 11, "grid": [1, 2, 3, 4, 2, 1]}],
            "amount_multipliers": ["1", HUGE]}
    pool = {"id": "d1.00x1", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}
    table = pl.concat([_area_row(100), _area_row(2**63 - 1)])
    result = area_match.evaluate(table, pool, play)
    assert result.prize_cents.tolist() == [100, 2**63 - 1]
    assert result.illegal == [(1, f"area 0: a0_amount {2**63 - 1} is not an amount multiplier x 100")]


def test_a_duel_prize_beyond_int64_is_exact_not_wrapped():
    play = {"style": "prize_legend_duel", "spots": 15, "losses": 3, "legend": ["1"]}
    pool = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}
    table = pl.concat([_duel_row(100), _duel_row(2**62)]).with_columns(spot_4=pl.lit(4, pl.UInt8))
    result = prize_legend_duel.evaluate(table, pool, play)
    assert result.prize_cents.tolist() == [200, 2**63]
    assert result.wins.tolist() == [1, 1]
    assert result.illegal[1] == (1, f"spot_4 is MULTIPLIER after the last loss at spot 3; amt_0 is {2**62}, "
                                    f"not a legend value x 100; layout pays {2**63} cents, "
                                    f"prize_cents is {2**62}")


def test_an_area_prize_beyond_int64_is_exact_not_wrapped():
    play = {"style": "area_match", "spots": 4, "symbols": [f"S{c}" for c in range(1, 14)], "wild": 12,
            "bonus_key": 9, "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
            "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4}],
            "amount_multipliers": ["1"]}
    pool = {"id": "d1.00x1", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}
    table = pl.concat([_area_row(100), _area_row(2**62)]).with_columns(a0_s3=pl.lit(1, pl.UInt8))
    result = area_match.evaluate(table, pool, play)
    assert result.prize_cents.tolist() == [200, 2**63]
    assert result.wins.tolist() == [1, 1]
    assert result.illegal[1] == (1, f"area 0: a0_amount {2**62} is not an amount multiplier x 100; areas pay "
                                    f"{2**63} = {2**63} cents, prize_cents is {2**62}")
