"""A play entry may list a legend value (prize_legend_duel) or an amount multiplier (area_match) of up
to 40 digits (docs/styles/prize_legend_duel.md section 2, area_match.md section 1): the entry is read,
and a value whose cents no int64 amount column can hold is simply no amount of the pool (rule 5, rule
8). Found by the third eInstant engine (tests/third_engines/einstant.py): audit's engines raised
OverflowError building their sets of amounts, so step 4 said "could not be checked" for every pool
instead of judging its rows."""

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
