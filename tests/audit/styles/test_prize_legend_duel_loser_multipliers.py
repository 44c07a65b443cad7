"""Rule 7 of docs/styles/prize_legend_duel.md (section 4): a losing share shows at most
`loser_max_multipliers` MULTIPLIER spots, read from the play entry (audit/styles/prize_legend_duel.py);
and what is no rule of the rows (first_spot_loss, the decompositions). Tables written by hand."""

from __future__ import annotations

import polars as pl
import pytest

from audit.styles import prize_legend_duel as pld

DUEL = {"style": "prize_legend_duel", "spots": 6, "losses": 3, "legend": ["1", "2"]}
D100 = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}


def duel_rows(*rows: tuple[int, list[int], list[int]]) -> pl.DataFrame:
    data = [{"tier": "lose" if p == 0 else "m", "prize_cents": p}
            | {f"spot_{i}": c for i, c in enumerate(codes)} | {f"amt_{i}": a for i, a in enumerate(amts)}
            for p, codes, amts in rows]
    return pl.DataFrame(data).with_columns(pl.col(r"^spot_\d+$").cast(pl.UInt8),
                                           pl.col(r"^amt_\d+$").cast(pl.Int64))


THREE_MULT_LOSER = (0, [4, 4, 1, 4, 1, 1], [0] * 6)
THREE_MULT_WINNER = (400, [4, 3, 1, 4, 1, 1], [0, 100, 0, 0, 0, 0])


def test_duel_rule_7_losers_multipliers():
    table = duel_rows(THREE_MULT_LOSER, THREE_MULT_WINNER, (0, [4, 4, 1, 2, 1, 1], [0] * 6))
    result = pld.evaluate(table, D100, {**DUEL, "loser_max_multipliers": 2})
    assert result.prize_cents.tolist() == [0, 300, 0]
    assert result.illegal == [  # the winner with three multipliers is legal (its prize aside)
        (0, "a losing share shows 3 MULTIPLIER spot(s), at most 2 (loser_max_multipliers)"),
        (1, "layout pays 300 cents, prize_cents is 400")]
    result = pld.evaluate(table, D100, {**DUEL, "loser_max_multipliers": 0})
    assert [why for _, why in result.illegal] == [
        "a losing share shows 3 MULTIPLIER spot(s), at most 0 (loser_max_multipliers)",
        "layout pays 300 cents, prize_cents is 400",
        "a losing share shows 2 MULTIPLIER spot(s), at most 0 (loser_max_multipliers)"]


def test_duel_an_entry_without_loser_max_multipliers_bounds_losers_by_the_spots():
    assert pld.evaluate(duel_rows(THREE_MULT_LOSER), D100, DUEL).illegal == []
    assert pld.read_play(DUEL).loser_max_multipliers == 3


@pytest.mark.parametrize("value", [4, -1, True, "1"])
def test_duel_a_loser_max_multipliers_out_of_range_is_refused(value):
    with pytest.raises(ValueError) as exc:
        pld.read_play({**DUEL, "loser_max_multipliers": value})
    assert str(exc.value) == (f"manifest play entry: play.loser_max_multipliers: {value!r} is not a whole "
                              "number 0..3")


def test_duel_first_spot_loss_and_the_decompositions_are_no_rule_of_the_rows():
    """first_spot_loss = 0 and a spot 0 that is a loss; max_decompositions = 1 (for $3 it keeps the
    first decomposition, three $1 wins, section 7) and a winner of $2 + $1: all rows are legal."""
    play = {**DUEL, "first_spot_loss": "0", "max_decompositions": 1, "loser_max_multipliers": 1}
    table = duel_rows((0, [1, 2, 1, 1, 0, 0], [0] * 6), (300, [3, 3, 1, 3, 1, 1], [100, 100, 0, 100, 0, 0]),
                      (300, [3, 1, 1, 3, 1, 0], [200, 0, 0, 100, 0, 0]))
    result = pld.evaluate(table, D100, play)
    assert result.illegal == [] and result.prize_cents.tolist() == [0, 300, 300]
